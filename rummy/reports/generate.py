"""``rummy generate``'s summary of a run: the puzzles made, their tiers, the candidates rejected and why."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rummy.reports.lines import Styled, text

if TYPE_CHECKING:
    from pathlib import Path

    from rummy.generator import Report


def summary_lines(report: Report, out: Path) -> list[Styled | str]:
    """What was made (how fast, of which tiers), what was rejected and why, and where it was written."""
    request = report.request
    minutes = report.seconds / 60
    rate = f", {len(report.puzzles) / minutes:.1f} a minute" if minutes > 0 and report.puzzles else ""
    what = f"{request.kind}, {request.rules}, {request.tier or 'any tier'}, seed {request.seed}"
    lines: list[Styled | str] = [
        text(("made", "bold"), f" {len(report.puzzles)} of {request.count} puzzles ({what}) "
             f"from {report.candidates} candidates in {report.seconds:.1f} s{rate}")
    ]
    tiers = Counter(p.tier for p in report.puzzles)
    if tiers:
        lines.append(text("tiers: ", ", ".join(f"{tier} {n}" for tier, n in sorted(tiers.items()))))
    themes = Counter(name for p in report.puzzles for name in p.themes)
    if themes:
        lines.append(text("themes: ", ", ".join(f"{name} {n}" for name, n in themes.most_common())))
    rejected = sum(report.rejected.values())
    lines.append(text(("rejected", "bold"), f" {rejected}" + (":" if rejected else "")))
    for reason, n in sorted(report.rejected.items(), key=lambda item: (-item[1], item[0])):
        lines.append(f"  {n:>5}  {reason}")
    if report.puzzles:
        lines.append(f"wrote {len(report.puzzles)} puzzles and {out / 'index.json'}")
    return lines
