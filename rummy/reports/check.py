"""``rummy check``'s answer: a turn read from text (a position with its ``[turn]`` table, a ``best
--json`` answer, steps, or a draw in words: ``draw 7H``, ``take 3``, ``open``, ``pass``, ``demand QS
from bob``), judged by the checker, as a verdict, its ``--json`` object and its lines.

``rummy play`` reads and judges its TURN with these same functions (issue 27: one code path).

A BEFORE with a ``[puzzle]`` table is a puzzle: the verdict says whether the turn solves it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummy.checker import check as judge
from rummy.checker.verdict import Verdict
from rummy.draw_words import WrittenDraw, looks_like_draw, read_draw, split_turn
from rummy.end_states import end_state_or_draw_from_text
from rummy.errors import NoTurnInAnswer, RummyError, with_prefix
from rummy.plan import make_plan
from rummy.plays import PlayName
from rummy.reports.lines import Styled, text
from rummy.reports.position_warnings import position_warnings
from rummy.steps_notation import first_step_word, looks_like_steps, no_step
from rummy.turn_steps import read_steps
from rummy.vocabulary import DrawSource, Phase, Status
from rummy.words import breakdown_parts, number

if TYPE_CHECKING:
    from rummy.position import DrawTaken, Position


@dataclass(frozen=True)
class ReadTurn:
    """A turn as AFTER's text gives it: the after-position (None for a random draw alone, or a draw in
    words), the draw (a draw-phase turn's), and the draw in words when the text was one."""

    after: Position | None
    draw: DrawTaken | None = None
    written: WrittenDraw | None = None


@dataclass(frozen=True)
class TurnReport:
    """What ``check`` answers about one turn: the verdict, its ``--json`` object and its human lines;
    ``judged`` is the position the turn leads to as judged (the after-position, or the position a
    draw in words gives; None for a random draw alone)."""

    verdict: Verdict
    data: dict[str, object]
    lines: list[Styled | str]
    judged: Position | None = None


def nothing_to_judge(empty: NoTurnInAnswer) -> tuple[dict[str, Any], list[Styled | str]]:
    """An answer with no turn in it (``best``'s ``unknown`` or ``no-legal-turn``), said plainly, not as
    bad input: its ``--json`` object and its line."""
    data = {"legal": None, "status": empty.status, "nothing_to_judge": empty.problem}
    return data, [text(("nothing to judge", "bold"), f": {empty.problem}")]


def turn_report(before: Position, turn: ReadTurn, where: str, compare: bool = False,
                time_limit: float = 30.0) -> TurnReport:
    """Judge the turn read (``answer_from_text``) from ``before`` as ``rummy check`` does: to its
    after-position, or (draw phase) the random draw alone, or the draw in words carried out by
    ``rummy.next_position.drawn_position``; errors are prefixed with ``where``."""
    after = turn.after
    judged = after
    try:
        if turn.written is not None:
            from rummy.next_position import drawn_position

            judged, breaches = drawn_position(before, turn.written)
            verdict = Verdict(not breaches, breaches, {"draw": written_draw_reading(before, turn.written)})
        elif after is None:
            from rummy.checker.draw_judge import judge_random_draw

            assert turn.draw is not None  # answer_from_text: no after position means a draw
            verdict = judge_random_draw(before, turn.draw)
        else:
            verdict = judge(before, after)
    except RummyError as error:
        raise with_prefix(error, where) from None
    best_line: Styled | str | None = None
    names = plan_names(before, after)
    data = verdict.to_data()
    # The reading keys plays by the end state's names; "names" gives the plan's name of each that differs.
    data["names"] = {name: shown for name, shown in names.items() if name != shown}
    if verdict.legal and after is not None:  # the turn as one text, as a game record stores it
        from rummy.turn_text import turn_text_or_none

        written = turn_text_or_none(before, after, verdict.reading)
        if written is not None:
            data["turn"] = written
    warnings = position_warnings(before)
    if warnings:  # a key added only where there are warnings (rummy.reports.position_warnings)
        data["warnings"] = warnings
    stated = puzzle_verdict(before, verdict)
    puzzle_line: Styled | str | None = None
    if stated is not None:
        puzzle_line, data["puzzle"] = stated
    if compare:
        best_line, data["best"] = against_best(before, verdict, time_limit, stated is not None)
        best_data = data["best"]
        short = best_data.get("short_of_best", 0) if isinstance(best_data, dict) else 0
        if stated is not None and not stated[1]["solved"] and verdict.legal and (short is None or short):
            # "not solved: gain 26 of 70; the best turn scores 70": the verdict above said "legal" once.
            puzzle_line, best_line = text(stated[0], "; ", best_line), None
    lines = verdict_lines(verdict, names) + [line for line in (puzzle_line, best_line) if line is not None]
    return TurnReport(verdict, data, lines, judged)


def against_best(before: Position, verdict: Verdict, time_limit: float,
                 puzzle: bool = False) -> tuple[Styled | str, dict[str, object]]:
    """How the judged turn compares with the best one (``--best``): a line and its JSON. With
    ``puzzle`` (the puzzle's line says the turn's gain), a turn short of the best: the best's score alone."""
    from rummy.answer import best
    from rummy.solution import SolverConfig

    if before.mover.hand is None:  # judged on counts; best answers for a known hand only
        reason = f"{before.to_move}'s hand is hidden"
        return text("the best turn: not answered", f" ({reason})"), {"status": Status.UNKNOWN, "reason": reason}
    solution = best(before, SolverConfig(time_limit=time_limit)).solution
    proven = solution.status == Status.OPTIMAL
    data: dict[str, object] = {"status": solution.status, "gain": solution.gain, "bound": solution.bound}
    if solution.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return text("the best turn: ", solution.status, f" ({solution.reason})" if solution.reason else ""), data
    best_gain = (number(solution.gain) if proven
                 else f"at least {number(solution.gain)} (at most {number(solution.bound)}: time limit)")
    gain = verdict.reading.get("gain")
    if before.phase == Phase.DRAW and gain is not None:
        # The best draw's value is an expectation where the draw is random; this turn's gain is what
        # its own draw gave: the two are not the same kind of number.
        return text(f"the best draw is worth {best_gain} (its value looks one turn ahead from before the draw)"), data
    if not verdict.legal or gain is None:
        return text(f"the best legal turn scores {best_gain}"), data
    short = float(solution.gain) - float(gain)
    data["short_of_best"] = round(short, 4) if proven else None
    if proven and short <= 1e-9:
        return text(("this is a best turn", "bold green"), f": gain {number(gain)}, the most any turn scores"), data
    if puzzle:
        return text(f"the best turn scores {best_gain}"), data
    return text(f"legal, gain {number(gain)}; the best turn scores {best_gain}"), data


def answer_from_text(text: str, source: str, kind: str, before: Position) -> ReadTurn:
    """AFTER read from its text (``kind``: toml or json, as ``rummy.inputs.text_kind`` tells), as
    ``rummy.reader.end_state_or_draw_from_text`` reads it; with a draw-phase BEFORE, a ``best --json``
    answer whose draw is random gives no after-position, its draw alone. A turn written as steps
    (``play 7H 8H 9H to new/1; discard KS``, told by its content) is applied to BEFORE; a draw in words
    (``draw 7H``, ``take 3``, ``open``, ``pass``, ``demand QS from bob``: rummy.draw_words) is read, to be
    carried out when it is judged (``turn_report``); a whole draw-phase turn, the draw's words then
    steps (``take 2; play 5D 5H 5S to new/1; discard QC``), is read into one after-position
    (rummy.turn_text.read_whole_turn) judged as one draw-phase turn."""
    if looks_like_draw(text):  # before steps: a draw's words are no step
        words, steps = split_turn(text)
        written = read_draw(words, source)
        if steps:
            from rummy.turn_text import read_whole_turn

            return ReadTurn(read_whole_turn(before, written, steps, source), written.taken)
        return ReadTurn(None, written.taken, written)
    if looks_like_steps(text):  # the one rule, /api/steps's too
        return ReadTurn(read_steps(before, text, source))
    try:
        after, draw = end_state_or_draw_from_text(text, source, kind, random_draw=before.phase == Phase.DRAW)
        return ReadTurn(after, draw)
    except RummyError as error:
        first = first_step_word(text)
        if kind == "toml" and "not valid TOML" in str(error) and first.isalpha():
            # Words that are neither TOML nor a step: say both readings were tried.
            raise RummyError(f"{error}; nor is it a turn written as steps: {no_step(first)}") from None
        raise


def written_draw_reading(before: Position, written: WrittenDraw) -> dict[str, object]:
    """A draw in words as the verdict's reading shows it: the draw (as ``[turn] draw``), the card drawn
    from the stock where the words name it or the stock lists it, and a failed demand said so."""
    deck = before.rules.deck
    data: dict[str, object] = written.taken.to_data(deck)
    stock = before.stock
    card = written.card or (stock[0] if isinstance(stock, tuple) and stock else None)
    if written.taken.source == DrawSource.STOCK and card is not None:
        data["cards"] = [card.notation(deck)]
    if written.failed:
        data["failed"] = True
    return data


def puzzle_verdict(before: Position, verdict: Verdict) -> tuple[Styled | str, dict[str, object]] | None:
    """For a puzzle (BEFORE with a ``[puzzle]`` table): whether the turn reaches its target, as a
    line and as JSON ``{"target", "solved"}``; never the answer. None for a plain position."""
    statement = before.puzzle
    if statement is None:
        return None
    target = statement.target
    gain = verdict.reading.get("gain")
    # best --json writes gains to 4 decimals (Epic's expected bonus): a target may be rounded up
    reached = isinstance(gain, (int, float)) and float(gain) >= float(target) - 1e-4
    solved = verdict.legal and reached
    data: dict[str, object] = {"target": target, "solved": solved}
    if solved:
        return text(("solved", "bold green"), f": gain {gain}, the best there is"), data
    if not verdict.legal:
        return text(("not solved", "bold"), ": the turn is not legal"), data
    return text(("not solved", "bold"), f": gain {gain} of {target}"), data


def plan_names(before: Position, after: Position | None) -> dict[str, str]:
    """The end state's plays under the names ``best``'s plans give them (plays as before the turn,
    new plays new/K), so that check and best name a play alike; none where no plan can be made."""
    if after is None or before.phase != Phase.PLAY:
        return {}
    try:
        return make_plan(before, after).names
    except (RummyError, KeyError, ValueError):  # a turn too broken to plan keeps the end state's names
        return {}


def _plan_named(item: str, names: dict[str, str]) -> str:
    """A play the reading names by the end state, under the plan's name: a Robber steal
    "bob/3 -> ann/2" reads "bob/3 (now ann's)", as best's plan and table say it."""
    origin, arrow, after = item.partition(" -> ")
    if arrow:
        return f"{names.get(after, origin)} (now {PlayName(after).owner}'s)"
    return names.get(item, item)


def plan_named_text(text: str, names: dict[str, str]) -> str:
    """A breach's message with its plays under the plan's names (``ann/2`` -> ``new/1``), all at once."""
    renamed = {name: shown for name, shown in names.items() if name != shown}
    if not renamed:
        return text
    alternatives = "|".join(re.escape(name) for name in sorted(renamed, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w/])({alternatives})(?![\w/])")
    return pattern.sub(lambda found: renamed[found.group(1)], text)


def verdict_lines(verdict: Verdict, names: dict[str, str] | None = None) -> list[Styled | str]:

    names = names or {}

    lines: list[Styled | str] = []
    if verdict.legal:
        lines.append(text(("legal", "bold green")))
    else:
        count = len(verdict.breaches)
        lines.append(text(("illegal", "bold red"), f": {count} breach{'es' if count != 1 else ''}"))
        for breach in verdict.breaches:
            lines.append(text("  ", (breach.code, "bold"), f"  {plan_named_text(breach.message, names)}"))
    reading = verdict.reading
    described = []
    for key, value in reading.items():
        if key in ("inferred", "gain", "breakdown") or value in (None, [], {}, ""):
            continue
        if key == "steals" and isinstance(value, dict):
            for play, steal in value.items():
                play = names.get(play, play)
                paid_by = " ".join(steal["paid_by"]) or "nothing"
                described.append(f"{play} steals {' '.join(steal['stolen'])} paid by {paid_by}")
        elif isinstance(value, dict):
            entries = (f"{k} {' '.join(v) if isinstance(v, list) else v}" for k, v in value.items())
            described.append(f"{key}: " + "; ".join(entries))
        elif isinstance(value, list):
            described.append(f"{key}: {'; '.join(_plan_named(str(item), names) for item in value)}")
        else:
            described.append(f"{key}: {value}")
    if reading.get("inferred"):
        described.append("inferred: " + ", ".join(reading["inferred"]))
    if "gain" in reading:
        parts = breakdown_parts((line["what"], line["points"]) for line in reading.get("breakdown", []))
        described.append(f"gain: {reading['gain']}" + (f" (= {' + '.join(parts)})" if len(parts) > 1 else ""))
    if described:
        lines.append(text("reading: ", "; ".join(described)))
    return lines
