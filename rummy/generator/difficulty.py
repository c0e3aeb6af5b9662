"""How hard a puzzle is, measured, and the tier that follows from the measures.

The tier is the ladder's (``rummy.ladder``, docs/ladder.md): the tier of the
weakest human-like player that finds the optimal gain, ``expert`` when none
does (``grade``). The figures below are kept beside it as extra information;
``shape_tier`` is the tier they alone would give (the rule before the ladder).

Figures (all from the answer and the uniqueness check, none guessed):

- ``plays_disturbed``: table plays that lose a tile (the move plan's count);
- ``steps``: length of the move plan (one step per play that receives hand
  tiles, one per table tile moved);
- ``cards_moved``: table tiles that change play;
- ``near``: distinct final tables within ``FamilySupport.near`` of the best
  gain (tile rummy: 1 tile), the best included, up to ``NEAR_CAP``
  (``near_capped``: there may be more);
- ``branches`` and ``seconds``: the solver's effort to find and prove the
  best answer (one worker); ``proof_branches``: its effort to prove that no
  other final table is as good.

The shape tier is read from the plan's three figures alone, which are the same on
every machine and for every solver seed (seconds are not, and branches count
a few hundred for every puzzle, too little to tell puzzles apart). The rule,
the first row whose every threshold is met:

| tier   | plays disturbed | steps | cards moved |
|--------|-----------------|-------|-------------|
| expert | >= 4            | >= 12 | >= 9        |
| hard   | >= 3            | >= 6  | >= 4        |
| medium | >= 2            | >= 4  | >= 2        |
| easy   | any             | any   | any         |

House Rummy's steals move one table card each, so its plans move fewer
table cards than tile rummy's for the same number of steps; its `expert`
asks for 6 cards moved instead of 9 (the other rows are the same):

| tier   | plays disturbed | steps | cards moved |
|--------|-----------------|-------|-------------|
| expert | >= 4            | >= 12 | >= 6        |

Robber Rummy's table only grows (extend-only: no table card ever moves, so
``cards_moved`` is always 0, and a plan has one step per play that receives
cards plus the discard); its tiers read the first two figures:

| tier   | plays disturbed | steps |
|--------|-----------------|-------|
| expert | >= 5            | >= 7  |
| hard   | >= 3            | >= 6  |
| medium | >= 2            | >= 4  |
| easy   | any             | any   |
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..ladder import Grade, grade
from ..vocabulary import Tier

__all__ = ["Difficulty", "Grade", "grade", "tier_of"]

TIERS = tuple(Tier)
NEAR_CAP = 10

# Lowest figures of each tier, hardest first: (plays disturbed, steps, cards moved).
THRESHOLDS = (
    (Tier.EXPERT, 4, 12, 9),
    (Tier.HARD, 3, 6, 4),
    (Tier.MEDIUM, 2, 4, 2),
)
EXTEND_ONLY_THRESHOLDS = (
    (Tier.EXPERT, 5, 7, 0),
    (Tier.HARD, 3, 6, 0),
    (Tier.MEDIUM, 2, 4, 0),
)
HOUSE_THRESHOLDS = ((Tier.EXPERT, 4, 12, 6),) + THRESHOLDS[1:]
THRESHOLDS_BY_FAMILY = {"house": HOUSE_THRESHOLDS, "robber": EXTEND_ONLY_THRESHOLDS}


@dataclass(frozen=True)
class Difficulty:
    plays_disturbed: int
    steps: int
    cards_moved: int
    near: int = 0
    near_capped: bool = False
    branches: int = 0
    seconds: float = 0.0
    proof_branches: int = 0
    rung: str | None = None  # the weakest human-like player that finds the optimum (None: none does)
    rung_gains: tuple[tuple[str, int | float | None], ...] = ()  # each player climbed, and the gain it found
    shape_tier: Tier | None = None  # the tier the plan's figures alone would give

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data["seconds"] = round(self.seconds, 4)
        data["rung_gains"] = [{"rung": name, "gain": gain} for name, gain in self.rung_gains]
        return data


def tier_of(figures: Difficulty, family: str = "tile") -> Tier:
    for tier, disturbed, steps, moved in THRESHOLDS_BY_FAMILY.get(family, THRESHOLDS):
        if figures.plays_disturbed >= disturbed and figures.steps >= steps and figures.cards_moved >= moved:
            return tier
    return Tier.EASY
