"""The best turn in tile rummy (presets rummikub, rummikub-lenient, tiles50, yourturnmyturn).

``solve_tiles(position, config)`` answers rules.md §6 for ``position.mover``:

- not melded: the best initial meld, new plays of hand tiles only worth at
  least the threshold (the table is not touched); none: status "draw";
- melded: the most hand tiles (or their value) that the table can take,
  rearranging it freely, with fixed jokers kept or freed by hand tiles.

Objectives, lexicographically:

1. ``tiles`` (default): hand tiles played, jokers included. ``value``: their
   numbers, a played joker counting ``rules.joker_points`` (what it would
   cost left in the hand).
2. Least disturbance: fewest *moved* table tiles. A table play is *kept*
   when all its natural tiles end, together and in place, in one final play
   of the same kind (a run of its colour, a book of its number) that may
   have grown; each final play keeps at most one table play. The natural
   tiles of plays that are not kept are the moved tiles (jokers are not
   counted; the decoder puts a table joker back into its own play when it
   can). ``stats["tiles_moved"]`` reports them.
3. Remaining ties: the first such turn the solver finds (one worker and a
   fixed seed, so the same position gives the same answer), laid out with
   adjacent runs of one colour merged.

One CP-SAT model (tile/cells.py) maximises ``W * gain + kept tiles`` with
``W`` one more than the table's natural tiles, which is the lexicographic
order exactly; one solve instead of two (gain, then the tie-break with the
gain fixed) was measured faster on benchmarks/positions. It is hinted with
the table as it stands (a legal turn that plays nothing) and solved with
presolve off. The first attempt uses one worker (measured faster on these
small models); only when it stops without proof is the rest of the time
limit given to ``config.workers`` workers, hinted with the best turn so far.

``config.exclude`` (puzzle uniqueness): after-positions whose final table no
answer may repeat. Each is read every way the model can hold it (each joker
reading; a run also as touching runs, which decoding joins) and each way
becomes a no-good on the model's counts (``TileModel.exclude``). Unused, it
adds nothing to the model.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import islice, product
from time import perf_counter

from ...cards import Card, cards_within, cards_without
from ...plays import Play, readings
from ...position import Position, Turn
from ...rules import Ruleset
from ...solution import Solution, SolverConfig
from ...vocabulary import SearchStatus, Status
from ..clock import Clock
from ..run import all_workers_join, one_worker_seconds
from .cells import SignatureKey, SolveResult, TileModel, Values
from .decode import FinalPlay, decode, layout_key, table_values, to_play
from .table import Cell, TileSetting, card_of, cell_of, count_cells, read_setting


def solve_tiles(position: Position, config: SolverConfig) -> Solution:
    started = perf_counter()
    clock = Clock(started + config.time_limit)
    setting = read_setting(position, config.objective)
    identified = frozenset(p.index for p in setting.plays)
    model = TileModel(setting, identified)
    # Kept tiles count below one unit of gain: the weights order the objectives.
    weight = sum(len(p.naturals) for p in setting.plays) + 1
    model.maximize(weight)
    for excluded in config.exclude:
        for signature in arrangement_signatures(position, excluded):
            model.exclude(signature)
    hint = table_values(setting, identified) if config.hint and setting.melded else None
    result = _solve(model, config, clock, hint)
    stats = clock.stats()
    bound = result.bound // weight
    if result.status == SearchStatus.INFEASIBLE:  # only with exclusions: playing nothing is always a turn
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, reason="every final table is excluded",
                        seconds=perf_counter() - started, stats=stats)
    if result.values is None:
        return Solution(Status.UNKNOWN, 0, bound, None, 0,
                        reason="the time limit stopped the search before any turn was found",
                        seconds=perf_counter() - started, stats=stats)
    gain = result.objective // weight
    if gain <= 0:
        after = replace(position, turn=Turn(meld=(), replaced=(), discard=None, discard_declared=False))
        status = Status.DRAW if result.status == SearchStatus.OPTIMAL else Status.FEASIBLE
        return Solution(status, 0, bound, after, 0, seconds=perf_counter() - started, stats=stats)
    values = result.values
    final = decode(setting, values)
    after = _after(position, setting, final, values)
    stats["tiles_moved"] = weight - 1 - result.objective % weight if setting.melded else 0
    played = sum(values.played.values()) + values.jokers_played
    status = Status.OPTIMAL if result.status == SearchStatus.OPTIMAL else Status.FEASIBLE
    return Solution(status, gain, max(bound, gain), after, played, seconds=perf_counter() - started, stats=stats)


def _solve(model: TileModel, config: SolverConfig, clock: Clock, hint: Values | None) -> SolveResult:
    result = model.solve(one_worker_seconds(clock, config.workers), 1, config.seed, clock, hint)
    if result.status in (SearchStatus.OPTIMAL, SearchStatus.INFEASIBLE) \
            or not all_workers_join(clock, config.workers, 0.01):
        return result
    # The best turn so far is the parallel run's hint (the table's, where there is none).
    second = model.solve(clock.left(), config.workers, config.seed, clock, result.values)
    if second.values is None or (result.values is not None and second.objective < result.objective):
        return replace(result, bound=min(result.bound, second.bound)
                       if second.status != SearchStatus.UNKNOWN else result.bound)
    return second


# ---------------------------------------------------------------- the answer
def _after(position: Position, setting: TileSetting, final: list[FinalPlay], values: Values) -> Position:
    new_plays = [(f, to_play(f, setting)) for f in final]
    if setting.melded:
        table = _order_table(position.table, new_plays)
        meld: tuple[Play, ...] = ()
    else:
        meld = tuple(play for _, play in sorted(new_plays, key=lambda fp: layout_key(fp[0])))
        table = tuple(position.table) + meld
    used = Counter({card_of(cell): n for cell, n in values.played.items()})
    used[Card.joker()] += values.jokers_played
    mover = position.mover
    hand = _without(mover.hand or (), used)
    still = Counter(c.plain() for c in hand)
    player = replace(mover, hand=hand, melded=True, hot=_within(mover.hot, still), warm=_within(mover.warm, still))
    after = replace(position, table=table, turn=Turn(meld=meld, replaced=(), discard=None, discard_declared=False))
    return after.replace_player(player)


def _order_table(before: tuple[Play, ...], new_plays: list[tuple[FinalPlay, Play]]) -> tuple[Play, ...]:
    """Unchanged plays first, in their order; then grown kept plays in their order; then the rest."""
    remaining = list(new_plays)
    unchanged: list[tuple[int, Play]] = []
    for index, play in enumerate(before):
        key = _plain_key(play)
        match = next((item for item in remaining if item[0].source == index and _plain_key(item[1]) == key), None)
        match = match or next((item for item in remaining if _plain_key(item[1]) == key), None)
        if match is not None:
            remaining.remove(match)
            unchanged.append((index, play))
    grown = sorted(((final.source, play) for final, play in remaining if final.source is not None),
                   key=lambda item: item[0])
    others = sorted((item for item in remaining if item[0].source is None), key=lambda item: layout_key(item[0]))
    return tuple(play for _, play in unchanged) + tuple(play for _, play in grown) + tuple(play for _, play in others)


def _plain_key(play: Play) -> tuple[Card, ...]:
    return tuple(sorted(c.plain() for c in play.cards))


def _without(cards: tuple[Card, ...], used: Counter[Card]) -> tuple[Card, ...]:
    return cards_without(cards, used)


def _within(cards: tuple[Card, ...], available: Counter[Card]) -> tuple[Card, ...]:
    return cards_within(cards, available)


# ---------------------------------------------------------------- exclusion
# How many ways of holding one excluded table are forbidden at most; past
# that the rest stay allowed, so a check of uniqueness may only say "not
# unique" too often, never "unique" wrongly.
ENCODINGS_LIMIT = 256


@dataclass(frozen=True)
class Shape:
    """A final play as the model holds it: its cells (runs in order) and the cells jokers fill."""

    kind: str  # "run" or "book"
    cells: tuple[Cell, ...]
    jokers: tuple[Cell, ...]


def arrangement_signatures(position: Position, after: Position) -> list[dict[SignatureKey, int]]:
    """The model's signatures of every way it can hold ``after``'s final table (see ``TileModel.exclude``)."""
    plays, base = final_plays(position, after)
    table, table_jokers = count_cells(c for p in base for c in p.cards)
    final, final_jokers = count_cells(c for p in plays for c in p.cards)
    played = final - table
    if table - final or final_jokers < table_jokers:
        return []  # not a table this turn can reach
    return [signature(shapes, played, final_jokers - table_jokers)
            for shapes in arrangement_encodings(plays, position.rules)]


def final_plays(position: Position, after: Position) -> tuple[list[Play], tuple[Play, ...]]:
    """The plays the model lays (the whole table once melded, else the new plays) and the table they start from."""
    if position.mover.melded:
        return list(after.table), position.table
    left = Counter(p.key() for p in position.table)
    new: list[Play] = []
    for play in after.table:
        if left[play.key()] > 0:
            left[play.key()] -= 1
        else:
            new.append(play)
    return new, ()


def arrangement_encodings(plays: list[Play], rules: Ruleset) -> list[tuple[Shape, ...]]:
    """Every way the model may hold these plays (at most ENCODINGS_LIMIT)."""
    options = [play_shapes(play, rules) for play in plays]
    return [tuple(shape for group in combo for shape in group) for combo in islice(product(*options), ENCODINGS_LIMIT)]


def play_shapes(play: Play, rules: Ruleset) -> list[tuple[Shape, ...]]:
    """One play's holdings: each reading of its jokers; a run also cut into touching runs (decoding joins them)."""
    plain = tuple(card.plain() for card in play.cards)
    found: list[tuple[Shape, ...]] = []
    for reading in readings(plain, rules):
        cells = [cell_of(stand_in) for stand_in in reading.stand_ins]
        jokers = tuple(sorted(cell for card, cell in zip(plain, cells) if card.is_joker))
        options: list[tuple[Shape, ...]]
        if reading.kind == "book":
            options = [(Shape("book", tuple(sorted(cells)), jokers),)]
        else:
            ordered = tuple(sorted(cells, key=lambda cell: cell[1]))
            options = [
                tuple(Shape("run", piece, tuple(c for c in jokers if c in piece)) for piece in pieces)
                for pieces in _cuts(ordered, rules.run_min)
            ]
        found.extend(option for option in options if option not in found)
    return found


def _cuts(cells: tuple[Cell, ...], length: int) -> Iterator[tuple[tuple[Cell, ...], ...]]:
    """A run, and every way to cut it into touching runs of at least ``length``."""
    yield (cells,)
    for k in range(length, len(cells) - length + 1):
        for rest in _cuts(cells[k:], length):
            yield (cells[:k],) + rest


def signature(shapes: tuple[Shape, ...], played: Counter[Cell], jokers_played: int) -> dict[SignatureKey, int]:
    """What ``TileModel.exclude`` compares: counts per key, kept plays and new ones alike."""
    counts: Counter[SignatureKey] = Counter()
    for cell, n in played.items():
        counts[("played", cell)] += n
    counts[("jokers",)] += jokers_played
    for shape in shapes:
        if shape.kind == "run":
            counts[("start", shape.cells[0])] += 1
            for cell in shape.cells[:-1]:
                counts[("link", cell)] += 1
        else:
            counts[("books", shape.cells[0][1])] += 1
            for cell in shape.cells:
                counts[("cover", cell)] += 1
    return {key: n for key, n in counts.items() if n}
