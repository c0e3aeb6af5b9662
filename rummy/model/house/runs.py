"""Whole runs, modelled as segments of a row instead of being enumerated.

Runs score 5 a card whatever their length, and the number of possible runs
grows fast with jokers, so runs are not listed card by card. For every space
and suit there is a row of *positions* (one per rank; circular aces wrap
K-A). A *segment* is a stretch of at least ``run_min`` consecutive positions
that one run covers; every covered position holds exactly one card or joker,
and no position is covered twice. Only segments the available cards can fill
are created (at most as many empty positions as there are jokers).

Two runs of one suit in one space can therefore not overlap in ranks (a
joker standing for a rank that a natural of the other run holds). Such a
pair can always be laid as one longer run with the same score and a weaker
payment condition, unless it would exceed 13 cards; that corner is only
searched where the table already holds such runs: their row then gets a
second *layer*, a second row whose runs may overlap the first's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cards import SUITS, Card
from ...cards import rank_at as rank_of
from ...vocabulary import Ace
from ..cpsat import Expression, cp_model
from .state import HouseModel


@dataclass
class RunGrid:
    space: str
    suit: str
    layer: int
    order: list[int]  # live positions, in row order
    rank: dict[int, int]
    nxt: dict[int, int]  # the next live position (where a run may go on)
    cells: dict[int, list[tuple[int, cp_model.IntVar]]] = field(default_factory=dict)
    segments: list[tuple[tuple[int, ...], cp_model.IntVar]] = field(default_factory=list)

    def occupancy(self, position: int) -> Expression:
        return cp_model.LinearExpr.sum([v for _, v in self.cells.get(position, [])])

    def joined(self, position: int) -> Expression:
        """1 when ``position`` and the next one lie in the same run."""
        after = self.nxt.get(position)
        return cp_model.LinearExpr.sum(
            [v for stretch, v in self.segments if position in stretch and after in stretch and stretch[-1] != position]
        )


def row(ace: Ace) -> tuple[list[int], dict[int, int], dict[int, int]]:
    """Positions of a suit's row, the rank at each, and each position's successor."""
    if ace == Ace.HIGH_OR_LOW:
        positions = list(range(1, 15))
        return positions, {p: rank_of(p) for p in positions}, {p: p + 1 for p in positions[:-1]}
    positions = list(range(1, 14))
    successor = {p: p + 1 for p in positions[:-1]}
    if ace == Ace.CIRCULAR:
        successor[13] = 1
    return positions, {p: p for p in positions}, successor


def add_runs(m: HouseModel, allowed: dict[str, set[int]]) -> None:
    """Create every run row; ``allowed[space]`` holds the slots that may lie there."""
    ctx = m.ctx
    positions, rank_at, successor = row(ctx.rules.ace)
    layered = {(play.space, play.suit) for play in ctx.plays if play.overlaps}
    for space in ctx.spaces:
        jokers = [i for i in sorted(allowed[space]) if ctx.slots[i].is_joker]
        for suit in SUITS:
            naturals = [i for i in sorted(allowed[space])
                        if not ctx.slots[i].is_joker and ctx.slots[i].card.suit == suit]
            for layer in range(2 if (space, suit) in layered else 1):
                if naturals:
                    grid = _grid(m, space, suit, layer, naturals, jokers, positions, rank_at, successor)
                    if grid is not None:
                        m.runs.append(grid)


def grids_of(m: HouseModel, space: str, suit: str) -> list[RunGrid]:
    return [g for g in m.runs if g.space == space and g.suit == suit]


def _grid(m: HouseModel, space: str, suit: str, layer: int, naturals: list[int], jokers: list[int],
          positions: list[int], rank_at: dict[int, int], successor: dict[int, int]) -> RunGrid | None:
    rules = m.ctx.rules
    by_card = {m.ctx.slots[i].card: i for i in naturals}
    filled = {p for p in positions if Card(rank_at[p], suit) in by_card}
    stretches = _stretches(positions, successor, filled, len(jokers), rules.run_min, rules.run_max)
    if not stretches:
        return None
    live = sorted({p for s in stretches for p in s}, key=positions.index)
    grid = RunGrid(space, suit, layer, live, rank_at, {p: successor[p] for p in live if successor.get(p) in live})
    for p in live:
        cells: list[tuple[int, cp_model.IntVar]] = []
        natural = by_card.get(Card(rank_at[p], suit))
        if natural is not None:
            cells.append((natural, m.bool(f"run{layer}_{space}_{suit}{p}_{natural}")))
        for joker in jokers:
            cells.append((joker, m.bool(f"run{layer}_{space}_{suit}{p}_j{joker}")))
        grid.cells[p] = cells
        for index, var in cells:
            m.place(index, space, var)
            m.score_terms.setdefault(space, []).append((var, 5))
    covering: dict[int, list[cp_model.IntVar]] = {p: [] for p in live}
    for stretch in stretches:
        var = m.bool(f"seg{layer}_{space}_{suit}{stretch[0]}_{len(stretch)}")
        grid.segments.append((stretch, var))
        for p in stretch:
            covering[p].append(var)
    constraints = m.model.proto.constraints
    for p in live:
        # occupancy - covering == 0, written straight into the proto as CpModel.add writes it (terms
        # ordered by variable: the cells were made before the segments, each list in order); a position
        # may be covered by a hundred segments, and the sum cost tens of microseconds.
        held = [v.index for _, v in grid.cells[p]] + [v.index for v in covering[p]]
        linear = constraints.add().linear
        linear.vars.extend(held)
        linear.coeffs.extend([1] * len(grid.cells[p]) + [-1] * len(covering[p]))
        linear.domain.extend((0, 0))
        m.model.add_at_most_one(covering[p])
    return grid


def _stretches(positions: list[int], successor: dict[int, int], filled: set[int], jokers: int, run_min: int,
               run_max: int) -> list[tuple[int, ...]]:
    """Every stretch of consecutive positions the cards can fill (gaps <= jokers)."""
    found: list[tuple[int, ...]] = []
    # Each start gives each length once, so two stretches alike are whole circles (a circular row).
    whole_circle = False
    for start in positions:
        stretch = [start]
        gaps: int = start not in filled  # empty positions, for jokers to fill
        while gaps <= jokers and len(stretch) <= run_max:
            if len(stretch) >= run_min and gaps < len(stretch):
                if len(stretch) < len(positions):
                    found.append(tuple(stretch))
                elif not whole_circle:
                    whole_circle = True
                    found.append(tuple(stretch))
            after = successor.get(stretch[-1])
            if after is None or after == start:
                break
            stretch.append(after)
            gaps += after not in filled
    return found
