"""``rummy check BEFORE AFTER``: is this turn legal? Every breach, coded.

AFTER is a position file with its ``[turn]`` table, or the JSON that
``rummy best --json`` prints (its ``after`` key is used). Files are read by
content, so ``<(rummy best BEFORE --json)`` works too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummy.cli.options import AfterPath, BeforePath, JsonFlag

if TYPE_CHECKING:
    from pathlib import Path

    from rummy.checker.verdict import Verdict
    from rummy.cli.output import Styled
    from rummy.position import DrawTaken, Position


def check(before_path: BeforePath, after_path: AfterPath, json_output: JsonFlag = False) -> int:
    """Judge a proposed turn: exit 0 when legal, 1 when illegal (every breach listed)."""
    from rummy.cli import output
    from rummy.checker import check as judge
    from rummy.errors import RummyError
    from rummy.position import Position

    before = Position.from_file(before_path)
    after, draw = read_answer(after_path, before)
    try:
        if after is None:
            from rummy.checker.draw import judge_random_draw

            assert draw is not None  # read_answer: no after position means a draw
            verdict = judge_random_draw(before, draw)
        else:
            verdict = judge(before, after)
    except RummyError as error:
        raise RummyError(f"{before_path} -> {after_path}: {error}") from None
    if json_output:
        output.print_json(verdict.to_data())
    else:
        output.print_lines(verdict_lines(verdict))
    return output.EXIT_OK if verdict.legal else output.EXIT_NEGATIVE


def read_answer(path: Path, before: Position) -> tuple[Position | None, DrawTaken | None]:
    """AFTER, as ``rummy.reader.read_end_state`` reads it; with a draw-phase BEFORE, a
    ``best --json`` answer whose draw is random gives ``(None, its draw)``."""
    from rummy.reader import read_end_state_or_draw
    from rummy.vocabulary import Phase

    return read_end_state_or_draw(path, random_draw=before.phase == Phase.DRAW)


def verdict_lines(verdict: Verdict) -> list[Styled | str]:
    from rummy.cli.output import text

    lines: list[Styled | str] = []
    if verdict.legal:
        lines.append(text(("legal", "bold green")))
    else:
        count = len(verdict.breaches)
        lines.append(text(("illegal", "bold red"), f": {count} breach{'es' if count != 1 else ''}"))
        for breach in verdict.breaches:
            lines.append(text("  ", (breach.code, "bold"), f"  {breach.message}"))
    reading = verdict.reading
    described = []
    for key, value in reading.items():
        if key in ("inferred", "gain", "breakdown") or value in (None, [], {}, ""):
            continue
        if key == "steals" and isinstance(value, dict):
            for play, steal in value.items():
                described.append(f"{play} steals {' '.join(steal['stolen'])} paid by {' '.join(steal['paid_by']) or 'nothing'}")
        elif isinstance(value, dict):
            described.append(f"{key}: " + "; ".join(f"{k} {' '.join(v) if isinstance(v, list) else v}" for k, v in value.items()))
        elif isinstance(value, list):
            described.append(f"{key}: {'; '.join(map(str, value))}")
        else:
            described.append(f"{key}: {value}")
    if reading.get("inferred"):
        described.append("inferred: " + ", ".join(reading["inferred"]))
    if "gain" in reading:
        parts = [f"{line['what']} {line['points']}" for line in reading.get("breakdown", []) if line["points"]]
        described.append(f"gain: {reading['gain']}" + (f" (= {' + '.join(parts)})" if len(parts) > 1 else ""))
    if described:
        lines.append(text("reading: ", "; ".join(described)))
    return lines
