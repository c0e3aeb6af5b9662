"""Kinds of puzzle, and the families they are made for: the registry ``rummy generate`` reads.

A *kind* is a name, the rule families it fits, the task the player is set
(written at the top of each position file: what the best turn's gain counts,
in words true for every puzzle of the kind; a function of the ruleset where
the presets of a family count differently, e.g. House Classic's hand
penalty), a maker and an optional test:

- ``make(rng, rules, tier)`` deals one candidate position from the
  ``random.Random`` it is given (and nothing else, so a seed gives the same
  candidates everywhere); ``tier`` is the difficulty asked for, or None, a
  hint for how big a position to deal. It returns None when a deal fails.
- ``accept(position, answer)`` returns None to keep the candidate, or the
  reason it is rejected (for the summary): "rack not emptied", ...

A *family* needs support before any kind of it can be made
(``FamilySupport``): its model must honour ``SolverConfig.exclude`` (an
answer never repeats an excluded final table); the support says when two
final tables are the same answer, when a table's exclusion may also forbid
another table as good (then the puzzle is called not unique), how near to
the best gain a turn counts as "near", and optionally a faster search for
rival tables than solving for the best again and again.

docs/generate.md describes how to add a kind or a family.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..answer import Answer
from ..errors import RummyError
from ..position import Position
from ..rules import Ruleset
from ..vocabulary import PuzzleKind, Tier

if TYPE_CHECKING:  # unique builds on this module
    from ..plan import Plan
    from .candidate_search import Outcome, Request
    from .unique import Rivals

# One position, or several (a mined game's: the first that passes every test is the candidate's puzzle).
Maker = Callable[[random.Random, Ruleset, "Tier | None"], "Position | tuple[Position, ...] | None"]
Acceptance = Callable[[Position, Answer], "str | None"]
# The same, told the themes a run asks for (``generate --theme``): it may deal toward them.
SteeredMaker = Callable[[random.Random, Ruleset, "Tier | None", tuple[str, ...]],
                        "Position | tuple[Position, ...] | None"]
# The task, or the task for a ruleset (a family whose presets count the gain differently).
Task = str | Callable[[Ruleset], str]
# (before, best after, floor, cap, seconds) -> Rivals: other final tables with gain >= floor.
RivalSearch = Callable[[Position, Position, float, int, float], "Rivals"]


@dataclass(frozen=True)
class Kind:
    name: PuzzleKind
    families: tuple[str, ...]
    task: Task
    make: Maker
    accept: Acceptance | None = None
    # Tiers the kind can reach (a kind whose every answer moves cards out of
    # two spaces is never easy); asking for another is refused at once.
    tiers: tuple[Tier, ...] = tuple(Tier)
    # (a game record's path, rules) -> its positions: the kind mines game records (``generate --games``).
    from_game: Callable[[str, Ruleset], tuple[Position, ...] | None] | None = None
    # (request, index, position) -> Outcome: the kind judges its candidates itself, in place of the
    # play-phase pipeline (candidate_search.judged); a draw-phase kind (robber_draw_kinds).
    judge: Callable[[Request, int, Position], Outcome] | None = None
    # A maker for runs that ask for themes: deals built toward some of them (Robber's cascades for
    # steal-chain); None, or a run that asks for none: ``make``.
    steered: SteeredMaker | None = None

    def task_for(self, rules: Ruleset) -> str:
        """The task a player of ``rules`` is set (``[puzzle] task``)."""
        return self.task if isinstance(self.task, str) else self.task(rules)


@dataclass(frozen=True)
class FamilySupport:
    family: str
    near: float  # turns within this much of the best gain are counted as near it
    canonical: Callable[[Position], Hashable]  # a final table up to order: equal means the same answer
    ambiguity: Callable[[Position, Position], str | None]  # (before, after): why excluding after may hide a rival
    # None: found by solving for the best again and again with SolverConfig.exclude.
    rivals: RivalSearch | None = None
    # The least margin over the second-best turn a puzzle of each tier must have (Tier order), so that
    # a hard puzzle is hard for its insight, not for a few points a player can miss (issue 15).
    margin_bars: tuple[float, float, float, float] = (0, 0, 0, 0)
    # (before, plan) -> why the answer wins by a rule corner (rearranging an opponent's space, giving
    # cards away), else None: easy and medium puzzles keep clear of such answers.
    corner: Callable[[Position, Plan], str | None] | None = None


KINDS: dict[tuple[str, str], Kind] = {}  # (family, kind name): one name may mean a kind in several families
FAMILIES: dict[str, FamilySupport] = {}


def register_kind(kind: Kind) -> Kind:
    for family in kind.families:
        if (family, kind.name) in KINDS:
            raise ValueError(f"puzzle kind {kind.name!r} registered twice for {family}")
    for family in kind.families:
        KINDS[family, kind.name] = kind
    return kind


def register_family(support: FamilySupport) -> FamilySupport:
    FAMILIES[support.family] = support
    return support


def kind_for(name: str, rules: Ruleset) -> Kind:
    """The kind called ``name`` for ``rules``' family; else a RummyError naming what fits."""
    kind = KINDS.get((rules.family, name))
    if kind is not None and rules.family in FAMILIES:
        return kind
    known = sorted({n for _, n in KINDS})
    if name not in known:
        raise RummyError(f"--kind: unknown puzzle kind {name!r} (known: {', '.join(known)})")
    fitting = sorted(n for f, n in KINDS if f == rules.family) if rules.family in FAMILIES else []
    offer = f"kinds for {rules.name}: {', '.join(fitting)}" if fitting else f"no kind is made for {rules.name} yet"
    raise RummyError(f"--kind {name!r} does not fit {rules.name} (a {rules.family} preset; {offer})")
