"""Human-like players: the ladder that grades puzzles by the strategies that solve them.

A *rung* is a way a person plays a turn, from "extend what you see" up to
small searches ("rearrange two plays together", "one steal, then one
shift"). Each rung proposes turns (after-positions) within its reach; the
ladder keeps the best one the checker accepts, so a rung's answer is always
a legal turn with the checker's gain. No rung calls a CP-SAT model.

The rungs of a family are cumulative: a rung is given every turn the rungs
below it found and keeps the best, so a position solved by one rung is
solved by every stronger one. A puzzle's tier is the tier of the weakest
rung that reaches the optimal gain; when none does, the top tier
(``Tier.EXPERT``). The shape figures of ``generator.difficulty`` stay as
extra information.

Each family names its ladder (``Family.ladder``: ``"module:LADDER"``, a
tuple of rungs, weakest first). Rungs are deterministic: a rung's effort is
bounded by counts (``Effort``), never by the clock, so a seed grades the same
puzzle the same way on every machine.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from ..errors import RummyError
from ..vocabulary import Phase, Tier

if TYPE_CHECKING:
    from ..position import Position


@dataclass(frozen=True)
class Effort:
    """How far a rung may look: the most states (partial turns) it expands, and the most turns it proposes."""

    states: int = 20_000
    turns: int = 5_000


@dataclass(frozen=True)
class Found:
    """The best legal turn a rung found: its after-position and its gain (the checker's)."""

    rung: str
    after: Position | None  # None: the rung found no legal turn
    gain: Fraction | None
    refused: int = 0  # proposals that were no legal turn (only those judged: the best first)


class Rung(ABC):
    """One human-like strategy. Subclasses set the class values and propose turns."""

    name: ClassVar[str]  # short, for reports: "extend", "steal-one", "two-plays"
    tier: ClassVar[Tier]  # the tier of the puzzles this rung is the weakest to solve
    summary: ClassVar[str]  # what the player does, in one sentence a player understands
    greedy: ClassVar[bool] = False  # takes improvements as they come, no look-ahead (issue 15: 'the greedy rungs')

    @abstractmethod
    def turns(self, position: Position, effort: Effort) -> Iterable[Position]:
        """Candidate after-positions of a play-phase ``position``, each a whole turn within this rung's reach.

        A rung should propose legal turns; the ladder judges every one it keeps
        with the checker all the same, so a wrong proposal costs a rung only
        that turn. Proposals past ``effort.turns`` are ignored."""


def ladder_of(position: Position) -> Sequence[Rung]:
    """The rungs of ``position``'s family, weakest first; a RummyError where the family has none."""
    family = position.rules.family
    rungs = family.ladder_rungs()
    if rungs is None:
        raise RummyError(f"no human-like players for {family.long_name} yet")
    return rungs


def _gain(before: Position, after: Position) -> Fraction:
    return Fraction(before.rules.family.turn_gain(before, after))


def best_found(rung: Rung, position: Position, effort: Effort, below: Found | None = None) -> Found:
    """The best legal turn among ``rung``'s proposals and the turn the rungs below found (``below``).

    A proposal the gain cannot read or the checker refuses is no turn; ``Found.refused`` counts
    them (a rung bug the tests look for: a rung should propose legal turns only)."""
    from ..checker import check

    scored: list[tuple[Fraction, int, Position]] = []
    refused = 0
    for index, after in enumerate(rung.turns(position, effort)):
        if index >= effort.turns:
            break
        try:
            scored.append((_gain(position, after), index, after))
        except (RummyError, ValueError, KeyError):
            refused += 1
    scored.sort(key=lambda item: (-item[0], item[1]))
    best = below if below is not None and below.after is not None else None
    for gain, _, after in scored:
        if best is not None and best.gain is not None and gain <= best.gain:
            break
        try:
            legal = check(position, after).legal
        except RummyError:
            legal = False
        if legal:
            return Found(rung.name, after, gain, refused)
        refused += 1
    if best is not None:
        return Found(rung.name, best.after, best.gain, refused)
    return Found(rung.name, None, None, refused)


def climb(position: Position, optimum: Fraction | int | float | None, effort: Effort = Effort()) -> list[Found]:
    """Every rung's best turn, weakest first, stopping at the first rung that reaches ``optimum``
    (None: climb every rung). Each rung starts from what the rungs below found."""
    if position.phase != Phase.PLAY:
        raise RummyError("human-like players play the play phase only (the position is in the draw phase)")
    target = None if optimum is None else Fraction(optimum)
    found: list[Found] = []
    below: Found | None = None
    for rung in ladder_of(position):
        below = best_found(rung, position, effort, below)
        found.append(below)
        if target is not None and below.gain is not None and below.gain >= target:
            break
    return found


def solving_rung(found: Sequence[Found], optimum: Fraction | int | float) -> int | None:
    """The index of the weakest rung whose turn reaches ``optimum``; None when none does."""
    target = Fraction(optimum)
    for index, step in enumerate(found):
        if step.gain is not None and step.gain >= target:
            return index
    return None


@dataclass(frozen=True)
class Grade:
    """What the ladder says of a puzzle: its tier, the rung that solves it, what each rung climbed found."""

    tier: Tier
    rung: str | None  # None: no rung reaches the optimum (expert)
    rung_gains: tuple[tuple[str, int | float | None], ...]
    beaten: bool = False  # a rung's legal turn scored more than the optimum: the solver or the checker is wrong

    def rejection(self, wanted: Tier) -> str:
        """Why a candidate of this grade is not a puzzle of tier ``wanted``."""
        order = list(Tier)
        if order.index(self.tier) < order.index(wanted):
            return f"solved by {self.rung}"
        return f"harder than {wanted}"


def grade(position: Position, optimum: Fraction | int | float, effort: Effort = Effort()) -> Grade:
    """The puzzle's grade: climb the ladder up to the first rung reaching ``optimum`` (the best gain,
    exact where it is a fraction); the tier is that rung's, else the top tier."""
    target = Fraction(optimum)
    found = climb(position, target, effort)
    gains = tuple((step.rung, None if step.gain is None else _number(step.gain)) for step in found)
    beaten = any(step.gain is not None and step.gain > target for step in found)
    index = solving_rung(found, target)
    if index is None:
        return Grade(Tier.EXPERT, None, gains, beaten)
    return Grade(ladder_of(position)[index].tier, found[index].rung, gains, beaten)


def ladder_tier(position: Position, optimum: Fraction | int | float, effort: Effort = Effort()) -> Tier:
    """The puzzle's tier alone (``grade``)."""
    return grade(position, optimum, effort).tier


def _number(value: Fraction) -> int | float:
    """A gain as the solution file writes it: whole numbers as integers, fractions to 4 places."""
    return int(value) if value.denominator == 1 else round(float(value), 4)
