"""``rummy variety DIR``: how varied a puzzle collection is, by the themes of its puzzles (docs/themes.md).

Per kind and tier: the number of puzzles, how many have each theme, and how many have no theme
that names an idea (none at all, or the ``plain-play`` fallback alone); per kind, the theme on most
of its hard and expert puzzles, flagged when it is on more than half of them (issue 29's bar).
A puzzle's themes are its solution file's ``themes``; a puzzle made before themes existed has
them found here, from its position and its stored answer (nothing is solved).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummy.reports.lines import Styled, text
from rummy.vocabulary import Tier

HARD_TIERS = (Tier.HARD, Tier.EXPERT)  # the tiers whose themes must be spread (no theme on over half)


@dataclass(frozen=True)
class TierThemes:
    tier: str
    puzzles: int
    themes: dict[str, int]  # theme -> puzzles that have it, in THEMES order, only themes found
    no_theme: int  # puzzles without a theme that names an idea

    def to_data(self) -> dict[str, Any]:
        return {"tier": self.tier, "puzzles": self.puzzles,
                "themes": {name: {"count": n, "share": share(n, self.puzzles)} for name, n in self.themes.items()},
                "no_theme": {"count": self.no_theme, "share": share(self.no_theme, self.puzzles)}}


@dataclass(frozen=True)
class KindThemes:
    family: str
    kind: str
    tiers: tuple[TierThemes, ...]  # in tier order, only tiers with puzzles
    hard_expert: int  # the kind's hard and expert puzzles
    top_theme: str | None  # the theme on most of them (the first in THEMES order on a tie)
    top_count: int

    @property
    def over_half(self) -> bool:
        return self.hard_expert > 0 and 2 * self.top_count > self.hard_expert

    def to_data(self) -> dict[str, Any]:
        return {"family": self.family, "kind": self.kind, "puzzles": sum(t.puzzles for t in self.tiers),
                "tiers": [t.to_data() for t in self.tiers],
                "hard_expert": {"puzzles": self.hard_expert, "top_theme": self.top_theme,
                                "count": self.top_count, "share": share(self.top_count, self.hard_expert),
                                "over_half": self.over_half}}


@dataclass(frozen=True)
class Variety:
    folder: str
    puzzles: int
    themes_found_here: int  # puzzles whose solution file has no themes: found by rummy variety
    kinds: tuple[KindThemes, ...]

    def to_data(self) -> dict[str, Any]:
        return {"folder": self.folder, "puzzles": self.puzzles, "themes_found_here": self.themes_found_here,
                "kinds": [k.to_data() for k in self.kinds]}


def share(count: int, total: int) -> float:
    return round(count / total, 3) if total else 0.0


def collection_variety(path: Path) -> Variety:
    """The variety of the collection in folder ``path`` (RummyError if it cannot be read)."""
    from rummy.files import Folder
    from rummy.sheets import read_collection, stored_answer
    from rummy.themes import THEMES, idea_themes, themes_of

    with Folder(path) as folder:
        puzzles = read_collection(folder)
    found_here = 0
    by_kind: dict[tuple[str, str], dict[str, list[tuple[str, ...]]]] = {}
    for puzzle in puzzles:
        stored = puzzle.solution.get("themes") if isinstance(puzzle.solution, dict) else None
        if isinstance(stored, list) and all(isinstance(name, str) and name in THEMES for name in stored):
            themes = tuple(stored)
        else:
            after = stored_answer(puzzle).solution.after
            themes = themes_of(puzzle.position, after, puzzle.kind) if after is not None else ()
            found_here += 1
        key = (puzzle.position.rules.family.name, puzzle.kind)
        by_kind.setdefault(key, {}).setdefault(puzzle.tier or "none", []).append(themes)
    kinds = []
    order = {str(tier): k for k, tier in enumerate(Tier)}
    for (family, kind), tiers in sorted(by_kind.items()):
        rows = []
        hard: Counter[str] = Counter()
        hard_count = 0
        for tier in sorted(tiers, key=lambda t: order.get(t, len(order))):
            lists = tiers[tier]
            counts = Counter(name for themes in lists for name in themes)
            rows.append(TierThemes(tier, len(lists), {name: counts[name] for name in THEMES if counts[name]},
                                   sum(not idea_themes(themes) for themes in lists)))
            if tier in HARD_TIERS:
                hard.update(counts)
                hard_count += len(lists)
        top = max(THEMES, key=lambda name: hard[name]) if hard else None
        kinds.append(KindThemes(family, kind, tuple(rows), hard_count, top, hard[top] if top else 0))
    return Variety(str(path), len(puzzles), found_here, tuple(kinds))


def variety_lines(variety: Variety) -> list[Styled | str]:
    """A table a kind: a row a theme, a column a tier, each cell the share of the tier's puzzles."""
    from rummy.themes import THEMES

    lines: list[Styled | str] = [text(("variety", "bold"), f" of {variety.folder}: {variety.puzzles} puzzles")]
    if variety.themes_found_here:
        lines.append(f"({variety.themes_found_here} puzzles carry no themes in their solution file: found here)")
    for kind in variety.kinds:
        lines.append("")
        total = sum(t.puzzles for t in kind.tiers)
        lines.append(text((f"{kind.kind}", "bold"), f" ({kind.family}), {total} puzzles"))
        width = max([len("no theme"), len("puzzles")] + [len(name) for t in kind.tiers for name in t.themes])
        header = "  " + "theme".ljust(width) + "".join(f"{t.tier:>8}" for t in kind.tiers)
        lines.append(text((header, "bold")))
        lines.append("  " + "puzzles".ljust(width) + "".join(f"{t.puzzles:>8}" for t in kind.tiers))
        for name in THEMES:
            if any(name in t.themes for t in kind.tiers):
                cells = "".join(f"{percent(t.themes.get(name, 0), t.puzzles):>8}" for t in kind.tiers)
                lines.append("  " + name.ljust(width) + cells)
        lines.append("  " + "no theme".ljust(width) + "".join(f"{percent(t.no_theme, t.puzzles):>8}"
                                                              for t in kind.tiers))
        if kind.hard_expert:
            verdict = ("over half", "bold red") if kind.over_half else ("at most half", "green")
            lines.append(text(f"  hard+expert: {kind.hard_expert} puzzles, most often {kind.top_theme} "
                              f"{percent(kind.top_count, kind.hard_expert)} ({kind.top_count}): ", verdict))
    return lines


def percent(count: int, total: int) -> str:
    return f"{round(100 * count / total)}%" if total else "-"
