"""The CP-SAT model of a tile-rummy turn, on counts per cell.

The final table is described value by value, per colour (van Rijn, Takes
and Vis, "The complexity of Rummikub problems", 2015), never play by play:

- runs: ``start[c, v]`` runs begin at cell (c, v); a run shorter than
  ``run_min`` must go on, and ``cont[c, v]`` of the long enough runs through
  (c, v) go on to v + 1. The runs through a cell are the starts of the last
  ``run_min`` values plus the continuations from v - 1;
- books: ``book[v, colours]`` books of one number per set of colours;
- jokers need no variables: at each cell the slots of runs and books that no
  natural tile fills are jokers, and over the table they add up to the
  jokers on the table plus the jokers played.

Natural tiles per cell are the table's plus ``played[cell]`` from the hand.
Counts, not copies, so the two copies of a tile are never told apart.

Some table plays are *identified* (their own variables): ``kept[i]`` says
the play's tiles end together in one play, ``grown[i, cell]`` where it grew.
They carry the tie-break (fewest table tiles moved) and fixed jokers that
lock their play. Fixed jokers are kept (``joker_kept``) at one of their
cards (``joker_at``), or freed by a tile played from the hand
(``joker_freer``); a freed joker whose locked play keeps its other joker
stays in that play (``joker_stays``). Where freed jokers may only go into
new plays of hand tiles, those plays are a second *hand layer* of runs and
books.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from typing import Any

from ...vocabulary import InitialMeldJoker, Objective, SearchStatus
from ..clock import Clock
from ..cpsat import cp_model
from ..run import Tuning, run
from .table import COLOURS, VALUES, Cell, TablePlay, TileSetting

MAIN, HAND = "main", "hand"
# A key of a final table's signature (``exclude``): ("jokers",), (what, cell) or ("books", number).
SignatureKey = tuple[str] | tuple[str, Cell] | tuple[str, int]

# Measured on benchmarks/positions: presolve and cuts cost more than they
# save on these small models (presolve also loses the hint's benefit).
TILE_TUNING = Tuning(least_seconds=0.001, parameters={
    "cp_model_presolve": False, "cut_level": 0, "linearization_level": 2,
    "cp_model_probing_level": 0, "symmetry_level": 0,
})


@dataclass
class Values:
    """One assignment of the model, as plain integers (missing keys are 0)."""

    played: dict[Cell, int] = field(default_factory=dict)
    jokers_played: int = 0
    starts: dict[tuple[str, Cell], int] = field(default_factory=dict)
    conts: dict[tuple[str, Cell], int] = field(default_factory=dict)
    books: dict[tuple[str, int, tuple[int, ...]], int] = field(default_factory=dict)
    kept: dict[int, int] = field(default_factory=dict)
    grown: dict[tuple[int, Cell], int] = field(default_factory=dict)
    joker_kept: dict[int, int] = field(default_factory=dict)
    joker_at: dict[tuple[int, Cell], int] = field(default_factory=dict)
    joker_freer: dict[tuple[int, Cell], int] = field(default_factory=dict)
    joker_stays: dict[tuple[int, Cell], int] = field(default_factory=dict)
    hand_layer_jokers: dict[Cell, int] = field(default_factory=dict)


@dataclass
class SolveResult:
    status: SearchStatus
    values: Values | None
    objective: int
    bound: int
    branches: int
    wall_time: float


@cache
def most_plays(naturals: tuple[int, ...], jokers: int) -> int:
    """How many plays can hold all these cells at once, given the tiles of each and the jokers.

    ``count`` plays through the cells fill ``count`` slots at each, tiles
    first: the slots past a cell's tiles are jokers, and there are only
    ``jokers``. That is the whole bound. It must not also ask each play for
    a tile *among these cells*: a play holds no more than ``jokers`` jokers,
    so that holds by itself where there are more cells than jokers (a run's
    first ``run_min`` cells, a book), and it is false where there are not:
    two jokers side by side inside a run (``K4 K5 * * K8``, ``O6 O7 * *``)
    are a continuation over two cells with no tile at all (issue 10).
    """
    count = 0
    while sum(max(0, count + 1 - n) for n in naturals) <= jokers:
        count += 1
    return count


class _Model(cp_model.CpModel):
    """A CpModel without the camelCase aliases its constructor adds: they cost 1 ms a model."""

    def _add_pre_pep8_methods(self) -> None:
        pass


class TileModel:
    """Builds the model for one setting; ``identified`` plays get their own variables."""

    def __init__(self, setting: TileSetting, identified: frozenset[int]) -> None:
        self.setting = setting
        self.rules = setting.rules
        self.model = _Model()
        self.identified = sorted(identified)
        self.run_min = self.rules.run_min
        self.played: dict[Cell, Any] = {}
        self.jokers_played: Any = 0
        self.starts: dict[tuple[str, Cell], Any] = {}
        self.conts: dict[tuple[str, Cell], Any] = {}
        self.books: dict[tuple[str, int, tuple[int, ...]], Any] = {}
        self.kept: dict[int, Any] = {}
        self.grown: dict[tuple[int, Cell], Any] = {}
        self.joker_kept: dict[int, Any] = {}
        self.joker_at: dict[tuple[int, Cell], Any] = {}
        self.joker_freer: dict[tuple[int, Cell], Any] = {}
        self.joker_stays: dict[tuple[int, Cell], Any] = {}
        self.hand_layer_jokers: dict[Cell, Any] = {}
        # Per cell: the slot terms, and what must leave joker slots free there.
        self.slots: dict[Cell, list[Any]] = {(c, v): [] for c in COLOURS for v in VALUES}
        self.slot_total: list[Any] = []
        self.reserved: dict[Cell, list[Any]] = {}
        self.hand_slots: dict[Cell, list[Any]] = {}
        self._terms: dict[SignatureKey, Any] | None = None  # _signature_terms, made once
        self._build()

    # ---------------------------------------------------------------- build
    def _build(self) -> None:
        s = self.setting
        m = self.model
        jokers = s.all_jokers
        table = s.table if s.melded else {}
        self.jokers = jokers
        naturals = {cell: table.get(cell, 0) + s.hand.get(cell, 0) for cell in self.slots}
        for cell, count in s.hand.items():
            self.played[cell] = m.new_int_var(0, count, "")
        if s.hand_jokers:
            self.jokers_played = m.new_int_var(0, s.hand_jokers, "")
        self._add_layer(MAIN, naturals)
        if s.needs_hand_layer:
            self._add_layer(HAND, {cell: s.hand.get(cell, 0) for cell in self.slots})
        if s.melded:
            for index in self.identified:
                self._add_identified(s.plays[index])
            if s.fixed:
                self._add_fixed_jokers()
        self._add_cells(table)
        gain = self.gain_expression()
        tiles = sum(self.played.values()) + self.jokers_played
        if s.max_tiles is not None:
            m.add(tiles <= s.max_tiles)
        if not s.melded and s.threshold > 0:
            # Laying nothing is always allowed; laying anything needs the threshold.
            laid = m.new_bool_var("")
            m.add(tiles <= (s.max_tiles or sum(s.hand.values()) + s.hand_jokers) * laid)
            m.add(self._meld_value() >= s.threshold * laid)
        self.gain = gain

    def _most(self, naturals: list[int]) -> int:
        return most_plays(tuple(sorted(naturals)), self.jokers)

    def _add_layer(self, layer: str, naturals: dict[Cell, int]) -> None:
        m = self.model
        most = self._most
        length = self.run_min
        slots = self.slots
        layer_slots: dict[Cell, list[Any]] = {cell: [] for cell in slots}
        if layer == HAND:
            self.hand_slots = layer_slots
        total = self.slot_total
        for c in COLOURS:
            start: dict[int, Any] = {}
            for v in range(1, 15 - length):
                upper = most([naturals[(c, w)] for w in range(v, v + length)])
                if upper > 0:
                    var = m.new_int_var(0, upper, "")
                    start[v] = var
                    self.starts[(layer, (c, v))] = var
                    total.append(length * var)
            cont: dict[int, Any] = {}
            for v in range(length, 13):
                # Runs long enough at v: the ones that began run_min - 1 values ago, and those going on.
                long_enough = [x for x in (start.get(v - length + 1), cont.get(v - 1)) if x is not None]
                upper = most([naturals[(c, v)], naturals[(c, v + 1)]])
                if long_enough and upper > 0:
                    var = m.new_int_var(0, upper, "")
                    m.add(var <= sum(long_enough))
                    cont[v] = var
                    self.conts[(layer, (c, v))] = var
                    total.append(var)
            for v in VALUES:
                terms = [start[w] for w in range(v - length + 1, v + 1) if w in start]
                if v - 1 in cont:
                    terms.append(cont[v - 1])
                slots[(c, v)].extend(terms)
                layer_slots[(c, v)].extend(terms)
        sizes = range(self.rules.book_min, min(self.rules.book_max, len(COLOURS)) + 1)
        for v in VALUES:
            for size in sizes:
                for colours in combinations(COLOURS, size):
                    upper = most([naturals[(c, v)] for c in colours])
                    if upper <= 0:
                        continue
                    var = m.new_int_var(0, upper, "")
                    self.books[(layer, v, colours)] = var
                    total.append(size * var)
                    for c in colours:
                        slots[(c, v)].append(var)
                        layer_slots[(c, v)].append(var)

    def _add_identified(self, play: TablePlay) -> None:
        """A table play that may be kept: all its tiles end in one play, which may have grown."""
        m = self.model
        kept = m.new_bool_var("")
        self.kept[play.index] = kept
        for cell in play.core:
            self.slots[cell].append(kept)
        self.slot_total.append(len(play.core) * kept)
        grown: list[tuple[Cell, Any]] = []
        if play.kind == "run":
            for side in (play.left, play.right):
                previous = kept
                for cell in side:
                    var = m.new_bool_var("")
                    m.add_implication(var, previous)
                    previous = var
                    grown.append((cell, var))
            short = self.run_min - len(play.core)
            if short > 0:
                m.add(sum(v for _, v in grown) >= short * kept)
        else:
            for cell in play.missing:
                var = m.new_bool_var("")
                m.add_implication(var, kept)
                grown.append((cell, var))
            size = len(play.core) * kept + sum(v for _, v in grown)
            m.add(size >= self.rules.book_min * kept)
            m.add(size <= self.rules.book_max * kept)
        for cell, var in grown:
            self.grown[(play.index, cell)] = var
            self.slots[cell].append(var)
            self.slot_total.append(var)

    def _add_fixed_jokers(self) -> None:
        s = self.setting
        m = self.model
        rules = self.rules
        freers: dict[Cell, list[Any]] = {}
        for joker in s.jokers:
            kept = m.new_bool_var("")
            self.joker_kept[joker.number] = kept
            play = s.plays[joker.play]
            if rules.joker_locks_play:
                m.add_implication(kept, self.kept[play.index])
            places: list[Any] = []
            for cell in joker.candidates:
                if rules.joker_locks_play and cell not in play.core and (play.index, cell) not in self.grown:
                    continue
                var = kept if len(joker.candidates) == 1 else m.new_bool_var("")
                if rules.joker_locks_play and cell not in play.core:
                    m.add_implication(var, self.grown[(play.index, cell)])
                self.joker_at[(joker.number, cell)] = var
                self.reserved.setdefault(cell, []).append(var)
                places.append(var)
            if len(joker.candidates) > 1:
                m.add(sum(places) == kept)
            elif not places:
                m.add(kept == 0)
            options: list[Any] = []
            for cell in joker.candidates:
                available = cell in self.played or (not rules.joker_replace_from_hand and s.table.get(cell, 0) > 0)
                if available:
                    var = m.new_bool_var("")
                    self.joker_freer[(joker.number, cell)] = var
                    freers.setdefault(cell, []).append(var)
                    options.append(var)
            m.add(sum(options) + kept == 1)
        for cell, vars_ in freers.items():
            limit = self.played.get(cell, 0)
            if not rules.joker_replace_from_hand:
                limit = limit + s.table.get(cell, 0)
            m.add(sum(vars_) <= limit)
        if rules.joker_locks_play:
            for play in s.plays:
                if len(play.jokers) > 1:
                    self._add_joker_stays(play)

    def _add_joker_stays(self, play: TablePlay) -> None:
        """A locked play with a kept joker loses no tile, not even a freed joker of its own.

        One joker of ``R5 *=R6 *=R7`` kept, the other freed by R7 from the
        hand: the freed joker stays in the play, in a place of its own
        (``joker_stays``: a joker-only slot of the kept play, at a cell of the
        core that held a joker, or where the play grew); ``R5 *=R6 R7 *=R8``.
        Whether both go or both stay is not forced: either may be freed.
        """
        m = self.model
        slot_of = {cell: self.kept[play.index] for cell in play.core if cell not in play.naturals}
        slot_of.update({cell: var for (index, cell), var in self.grown.items() if index == play.index})
        stays: list[Any] = []
        for cell, slot in slot_of.items():
            var = m.new_bool_var("")
            self.joker_stays[(play.index, cell)] = var
            own = [self.joker_at[(j, cell)] for j in play.jokers if (j, cell) in self.joker_at]
            m.add(var + sum(own) <= slot)  # one place per cell in a play
            self.reserved.setdefault(cell, []).append(var)
            stays.append(var)
        kept = [self.joker_kept[j] for j in play.jokers]
        freed = len(kept) - sum(kept)
        for one in kept:
            # Any joker kept: every freed joker of the play stays in it.
            m.add(sum(stays) >= freed - len(kept) * (1 - one))
        m.add(sum(stays) <= freed)

    def _add_cells(self, table: dict[Cell, int]) -> None:
        m = self.model
        s = self.setting
        hand_layer = s.needs_hand_layer
        for cell, terms in self.slots.items():
            naturals = table.get(cell, 0)
            played = self.played.get(cell)
            reserved = list(self.reserved.get(cell, ()))
            if hand_layer:
                hand_slots = self.hand_slots[cell]
                if hand_slots:
                    jokers_here = m.new_int_var(0, s.all_jokers, "")
                    self.hand_layer_jokers[cell] = jokers_here
                    m.add(jokers_here <= sum(hand_slots))
                    m.add(sum(hand_slots) - jokers_here <= (played if played is not None else 0))
                    reserved.append(jokers_here)
            if not terms:
                if naturals or played is not None or reserved:
                    m.add((played if played is not None else 0) + naturals + sum(reserved) <= 0)
                continue
            need = naturals + (played if played is not None else 0) + sum(reserved)
            m.add(sum(terms) >= need)
        played_total = sum(self.played.values()) + self.jokers_played
        m.add(sum(self.slot_total) - played_total == sum(table.values()) + s.table_jokers)
        if hand_layer:
            freed = [1 - kept for kept in self.joker_kept.values()]
            m.add(sum(self.hand_layer_jokers.values()) >= sum(freed))

    # The expressions below are CP-SAT's linear expressions (Any: ortools has no types for mypy).
    def _meld_value(self) -> Any:
        """What the new plays count towards the initial meld (a joker: its cell's number, or 0)."""
        if self.rules.initial_meld_joker == InitialMeldJoker.ZERO:
            return sum(cell[1] * var for cell, var in self.played.items())
        length = self.run_min
        terms: list[Any] = []
        for (_, (_, v)), var in self.starts.items():
            terms.append((length * v + length * (length - 1) // 2) * var)
        for (_, (_, v)), var in self.conts.items():
            terms.append((v + 1) * var)
        for (_, v, colours), var in self.books.items():
            terms.append(len(colours) * v * var)
        return sum(terms)

    def gain_expression(self) -> Any:
        if self.setting.objective == Objective.VALUE:
            return sum(cell[1] * var for cell, var in self.played.items()) \
                + self.rules.joker_points * self.jokers_played
        return sum(self.played.values()) + self.jokers_played

    def kept_expression(self) -> Any:
        """Natural table tiles that stay with their play (the tie-break's measure)."""
        plays = self.setting.plays
        return sum(len(plays[i].naturals) * var for i, var in self.kept.items())

    # ------------------------------------------------------------ exclusion
    def exclude(self, signature: dict[SignatureKey, int]) -> None:
        """Forbid every assignment whose final table has this signature (a no-good).

        A signature (``tiles.arrangement_signature``) counts, per key, what a
        final table holds: hand tiles played per cell, run starts, run links
        (a run through v and v + 1), book slots per cell and books per number,
        kept table plays counted like new ones. It is a linear expression of
        the variables per key, so "some key differs" is one disjunction.
        """
        terms = self._signature_terms()
        differ: list[Any] = []
        zero: list[Any] = []
        for key in sorted(set(terms) | set(signature)):  # sorted: the same model in every process
            target = signature.get(key, 0)
            expression = terms.get(key)
            if expression is None:
                if target:
                    return  # the model cannot lay this table at all: nothing to forbid
                continue
            if target == 0:
                zero.append(expression)  # never negative: "differs" is "at least 1"
                continue
            literal = self.model.new_bool_var("")
            self.model.add(expression != target).only_enforce_if(literal)
            differ.append(literal)
        if zero:
            literal = self.model.new_bool_var("")
            self.model.add(sum(zero) >= 1).only_enforce_if(literal)
            differ.append(literal)
        self.model.add_bool_or(differ)

    def _signature_terms(self) -> dict[SignatureKey, Any]:
        if self._terms is not None:
            return self._terms
        terms: dict[SignatureKey, list[Any]] = {}

        def add(key: SignatureKey, term: Any) -> None:
            terms.setdefault(key, []).append(term)

        for cell, var in self.played.items():
            add(("played", cell), var)
        if not isinstance(self.jokers_played, int):
            add(("jokers",), self.jokers_played)
        length = self.run_min
        for (_, (c, v)), var in self.starts.items():
            add(("start", (c, v)), var)
            for w in range(v, v + length - 1):  # a run too short to stop goes on
                add(("link", (c, w)), var)
        for (_, cell), var in self.conts.items():
            add(("link", cell), var)
        for (_, v, colours), var in self.books.items():
            add(("books", v), var)
            for c in colours:
                add(("cover", (c, v)), var)
        for index, kept in self.kept.items():
            play = self.setting.plays[index]
            if play.kind == "book":
                add(("books", play.core[0][1]), kept)
                for cell in play.core:
                    add(("cover", cell), kept)
                for cell in play.missing:
                    add(("cover", cell), self.grown[(index, cell)])
                continue
            colour, low, high = play.core[0][0], play.core[0][1], play.core[-1][1]
            for v in range(low, high):
                add(("link", (colour, v)), kept)
            # Growth is a chain (the outer cell implies the inner), so the first
            # cell is where the chain stops: kept - left1 at low, and so on.
            outer = kept
            first = low
            for cell in play.left:
                var = self.grown[(play.index, cell)]
                add(("start", (colour, first)), outer - var)
                add(("link", cell), var)
                outer, first = var, cell[1]
            add(("start", (colour, first)), outer)
            for cell in play.right:
                add(("link", (colour, cell[1] - 1)), self.grown[(play.index, cell)])
        self._terms = {key: sum(parts) for key, parts in terms.items()}
        return self._terms

    # ---------------------------------------------------------------- solve
    def maximize(self, weight: int) -> None:
        """Gain first, then kept tiles: ``weight`` must exceed the most tiles that can be kept."""
        self.model.maximize(weight * self.gain + self.kept_expression())

    def hint_of(self, values: Values) -> dict[int, int]:
        """``values`` as a hint to ``run``: every variable of the tables, by index."""
        hint: dict[int, int] = {}
        for name, table in self._tables():
            known = getattr(values, name)
            for key, var in table.items():
                hint[var.index] = known.get(key, 0)
        if not isinstance(self.jokers_played, int):
            hint[self.jokers_played.index] = values.jokers_played
        return hint

    def _tables(self) -> tuple[tuple[str, dict[Any, Any]], ...]:
        return (
            ("played", self.played), ("starts", self.starts), ("conts", self.conts), ("books", self.books),
            ("kept", self.kept), ("grown", self.grown), ("joker_kept", self.joker_kept),
            ("joker_at", self._distinct(self.joker_at)), ("joker_freer", self.joker_freer),
            ("joker_stays", self.joker_stays),
            ("hand_layer_jokers", self.hand_layer_jokers),
        )

    def _distinct(self, table: dict[tuple[int, Cell], Any]) -> dict[tuple[int, Cell], Any]:
        """``joker_at`` entries that are a variable of their own (not ``joker_kept`` reused)."""
        kept_ids = {id(v) for v in self.joker_kept.values()}
        return {k: v for k, v in table.items() if id(v) not in kept_ids}

    def solve(self, time_limit: float, workers: int, seed: int, clock: Clock | None = None,
              hint: Values | None = None) -> SolveResult:
        """One run (rummy/model/run), from ``hint`` where given (else the model's hint as it is)."""
        result = run(self.model, time_limit, TILE_TUNING, workers=workers, seed=seed,
                     hint=self.hint_of(hint) if hint is not None else None, clock=clock)
        values = self._read(result.solution) if result.solution is not None else None
        objective = round(result.objective) if values is not None else 0
        bound = int(result.bound + 1e-6) if result.found else 0
        return SolveResult(result.status, values, objective, bound, result.branches, result.wall_time)

    def _read(self, solution: tuple[int, ...]) -> Values:
        """A run's solution (every variable's value by its index) as Values."""
        values = Values()
        for name, table in self._tables():
            target = getattr(values, name)
            for key, var in table.items():
                value = solution[var.index]
                if value:
                    target[key] = value
        for key, var in self.joker_at.items():
            value = solution[var.index]
            if value:
                values.joker_at[key] = value
        values.jokers_played = solution[self.jokers_played.index] if not isinstance(self.jokers_played, int) else 0
        return values
