"""Random tile-rummy positions whose rack can be emptied.

Two ways to deal, both backwards from an answer, so the rack always plays:

- *window*: a random final table, its plays mostly within a few consecutive
  numbers (so they interlock), some jokers; the rack is taken out of it,
  tile by tile from as many plays as possible, each time checking that the
  rest still cuts into whole plays; the table is a random cut of the rest;
- *crossings*: a grid of tiles laid one way on the table (runs, or books)
  and rack tiles that fit only once it is laid the other way (``_crossing``),
  plus a few plays elsewhere that give the rack a few more tiles.

``climb`` then makes a deal harder by small changes, judged by the caller's
solver. Everything is drawn from the ``random.Random`` given, in a fixed
order (no set or hash order), so a seed deals the same in every process.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card
from ..model.tile.table import COLOURS, Cell, card_of, cell_of
from ..plays import Play, Reading, jokers_undecided, readings
from ..position import Position
from ..rules import Ruleset
from ..vocabulary import JokerMode, Phase
from .tile_motifs import JOKER, Slot, motif_deal

# Tries before giving up on a deal (the caller then rejects the candidate).
PARTITION_NODES = 600
PLAY_TRIES = 40


@dataclass(frozen=True)
class DealShape:
    """How big a dealt position is."""

    plays: tuple[int, int]  # plays of the final table, fewest and most
    window: tuple[int, int] = (5, 7)  # most of them lie within this many consecutive numbers (dense: they interlock)
    rack: tuple[int, int] = (4, 6)  # tiles taken out of them for the rack
    jokers: tuple[int, int] = (0, 1)  # jokers in the final table
    outside: tuple[int, int] = (1, 2)  # plays away from the window
    lonely: bool = False  # no three rack tiles make a play on their own
    crossings: tuple[int, int] = (0, 0)  # grids laid one way on the table, the other way in the answer (_crossing)
    filler: tuple[int, int] = (1, 3)  # with crossings or motifs: rack tiles from the other plays
    switches: tuple[int, int] = (0, 0)  # motif deals (tile_motifs): crossings of one direction, and an idea


@dataclass(frozen=True)
class Deal:
    table: list[list[Slot]]
    rack: list[Slot]


def deal(rng: random.Random, rules: Ruleset, shape: DealShape) -> Deal | None:
    """A table and a rack whose tiles all play; None when the draw fails.

    With crossings (``shape.crossings``), the table holds that many
    (``_crossing``) and a few plays elsewhere, which give the rack a few
    tiles more; else the final table's plays lie mostly within a window of
    ``shape.window`` numbers, and the rack is taken out of them.
    """
    pool = Counter(cell_of(card) for card in rules.deck_cards if not card.is_joker)
    jokers = min(rng.randint(*shape.jokers), rules.jokers)
    crossings = rng.randint(*shape.crossings)
    switches = rng.randint(*shape.switches)
    if switches:
        return _motif_deal(rng, rules, shape, pool, switches)
    if crossings:
        table: list[list[Slot]] = []
        rack: list[Slot] = []
        for _ in range(crossings):
            crossing = _crossing(rng, pool)
            if crossing is None:
                return None
            table += crossing[0]
            rack += crossing[1]
        # Plays elsewhere, a few of their tiles in the rack too (they fill it, not the puzzle).
        others = _random_plays(rng, pool, rng.randint(*shape.plays), range(1, 14), 0.5)
        _add_jokers(rng, others, pool, jokers)
        taken = _take_rack(rng, others, shape, rng.randint(*shape.filler), rules.run_min, 0, rack) if others else None
        if taken is not None:
            rack, others = taken
        return Deal(table + others, rack)
    width = rng.randint(*shape.window)
    low = rng.randint(1, 14 - width)
    final = _random_plays(rng, pool, rng.randint(*shape.plays), range(low, low + width), 0.5)
    if len(final) < 2:
        return None
    _add_jokers(rng, final, pool, jokers)
    final += _random_plays(rng, pool, rng.randint(*shape.outside), range(1, 14), 0.5)
    taken = _take_rack(rng, final, shape, rng.randint(*shape.rack), rules.run_min, max(2, shape.rack[0] - 2), [])
    if taken is None:
        return None
    rack, table = taken
    return Deal(table, rack)


def _motif_deal(rng: random.Random, rules: Ruleset, shape: DealShape, pool: Counter[Cell],
                switches: int) -> Deal | None:
    """Switches and an idea (``tile_motifs``), plus plays elsewhere that give the rack a few tiles."""
    made = motif_deal(rng, rules, pool, switches)
    if made is None:
        return None
    table, rack = made
    others = _random_plays(rng, pool, rng.randint(*shape.plays), range(1, 14), 0.5)
    filler = rng.randint(*shape.filler)
    if others and filler:
        taken = _take_rack(rng, others, shape, filler, rules.run_min, 0, rack)
        if taken is None:
            return None
        rack, others = taken
    if shape.lonely and _makes_play(rack):
        return None
    return Deal(table + others, rack)


def with_extra(rng: random.Random, rules: Ruleset, dealt: Deal, count: int, lures: int = 0) -> Deal:
    """The deal with ``count`` more rack tiles from the rest of the deck (they may not play); up to ``lures``
    of them fit a play of the table as it lies (a run's end, a group's missing colour): a tile that plays at
    once, which may cost the turn's bigger rearrangement (a real choice for 'max')."""
    pool = Counter(cell_of(card) for card in rules.deck_cards if not card.is_joker)
    pool.subtract(Counter(slot for play in dealt.table for slot in play if slot != JOKER))
    pool.subtract(Counter(slot for slot in dealt.rack if slot != JOKER))
    extra: list[Slot] = []
    fitting = sorted({cell for play in dealt.table for cell in _fits_at(play) if pool[cell] > 0})
    for cell in rng.sample(fitting, min(lures, count, len(fitting))):
        pool[cell] -= 1
        extra.append(cell)
    return Deal(dealt.table, dealt.rack + extra + _draw(rng, pool, count - len(extra)))


def _fits_at(play: list[Slot]) -> list[Cell]:
    """The tiles that would extend a play as it lies: a run's two ends, a group's missing colours."""
    cells = [slot for slot in play if slot != JOKER]
    if not cells:
        return []
    if _is_book(cells):
        return [] if len(play) >= 4 else [(c, cells[0][1]) for c in COLOURS if all(c != d for d, _ in cells)]
    values = [v for _, v in cells]
    low = min(values) - (1 if play[0] == JOKER else 0) - 1
    high = max(values) + (1 if play[-1] == JOKER else 0) + 1
    return [(cells[0][0], v) for v in (low, high) if 1 <= v <= 13]


def climb(rng: random.Random, dealt: Deal, shape: DealShape, run_min: int, score: Callable[[Deal], float], steps: int,
          target: float) -> Deal:
    """Make a deal harder by small changes that keep the table and rack's tiles together the same.

    A change moves a table tile to the rack, a rack tile back to the table,
    or cuts the table anew; the tiles of table and rack together never
    change, so the rack can still be emptied (the final table it was dealt
    from still takes it). ``score(deal)`` is how hard the deal is (the
    caller solves it); a change is kept when the score does not drop, and
    the climb stops at ``target`` or after ``steps`` changes.
    """
    current, best = dealt, score(dealt)
    low, high = shape.rack
    for _ in range(steps):
        if best >= target:
            break
        tiles = Counter(slot for play in current.table for slot in play)
        rack = list(current.rack)
        move = rng.random()
        if move < 0.4 and len(rack) < high:
            slot = rng.choice(sorted((t for t, n in tiles.items() if n > 0), key=_slot_order))
            tiles[slot] -= 1
            rack.append(slot)
        elif move < 0.6 and len(rack) > low:
            slot = rack.pop(rng.randrange(len(rack)))
            tiles[slot] += 1
        if shape.lonely and _makes_play(rack):
            continue
        table = partition(tiles, rng, run_min)
        if table is None:
            continue
        changed = Deal(table, rack)
        value = score(changed)
        if value >= best:
            current, best = changed, value
    return current


def _slot_order(slot: Slot) -> tuple[int, int, int]:
    return (1, 0, 0) if slot == JOKER else (0, *slot)


def position_of(rules: Ruleset, dealt: Deal, rng: random.Random | None) -> Position:
    """The mover (melded, to move) with the rack; one or two opponents; the rest in the stock.

    Without ``rng`` (a position only to be solved): the table in the deal's
    order and one opponent with no tiles.
    """
    table = [_play(slots, rules) for slots in dealt.table]
    if rng is not None:
        rng.shuffle(table)
    rack = sorted((_card(slot) for slot in dealt.rack), key=_rack_order)
    players = {"ann": {"melded": True, "hand": _notation(rack, rules)}}
    left = len(rules.deck_cards) - sum(len(p) for p in table) - len(rack)
    for name in ("bob", "cat")[: rng.randint(1, 2) if rng is not None else 1]:
        count = min(rng.randint(4, 14), left) if rng is not None else 0
        players[name] = {"melded": True, "hand_count": count}
        left -= count
    data = {
        "rules": rules.name,
        "to_move": "ann",
        "phase": Phase.PLAY,
        "table": [play.notation(rules) for play in table],
        "players": players,
        "piles": {"stock": left},
    }
    return Position.from_data(data, source="generated position")


# ------------------------------------------------------------- final table
def _crossing(rng: random.Random, pool: Counter[Cell]) -> tuple[list[list[Slot]], list[Slot]] | None:
    """A grid of tiles laid one way on the table, and rack tiles that fit only if it is laid the other way.

    Runs on the table (3 colours over 3 to 5 numbers) and rack tiles of the
    fourth colour: they need books, so the runs become books. Or books on
    the table (3 or 4 colours) and rack tiles just beyond the numbers: they
    need runs. No three rack tiles make a play on their own.
    """
    span = rng.randint(3, 5)
    first = rng.randint(1, 14 - span)
    values = list(range(first, first + span))
    if rng.random() < 0.5:
        colours = sorted(rng.sample(list(COLOURS), 3))
        fourth = next(c for c in COLOURS if c not in colours)
        table = [[(c, v) for v in values] for c in colours]
        count = rng.randint(1, min(2, span - 1)) if span == 3 else rng.randint(2, span - 1)
        chosen = sorted(rng.sample(values, count))
        while any(chosen[k + 2] == chosen[k] + 2 for k in range(len(chosen) - 2)):
            chosen.pop(rng.randrange(len(chosen)))
        rack = [(fourth, v) for v in chosen]
    else:
        colours = sorted(rng.sample(list(COLOURS), rng.choice((3, 3, 4))))
        table = [[(c, v) for c in colours] for v in values]
        ends = [v for v in (first - 1, first + span) if 1 <= v <= 13]
        places = [(c, v) for c in colours for v in ends]
        rack = sorted(rng.sample(places, min(len(places), rng.randint(1, 3))))
        if any(sum(1 for _, v in rack if v == value) >= 3 for value in ends):
            rack = rack[:2]
    need = Counter(cell for play in table for cell in play) + Counter(rack)
    if any(pool[cell] < n for cell, n in need.items()):
        return None
    pool.subtract(need)
    # As slots: the caller adds jokers to the table's plays.
    slots: list[list[Slot]] = [list(play) for play in table]
    return slots, list(rack)


def _random_plays(rng: random.Random, pool: Counter[Cell], count: int, values: range, runs: float) -> list[list[Slot]]:
    table: list[list[Slot]] = []
    for _ in range(count):
        play = _random_play(rng, pool, values, runs)
        if play is None:
            break
        table.append(play)
    return table


def _add_jokers(rng: random.Random, table: list[list[Slot]], pool: Counter[Cell], jokers: int) -> None:
    """A joker takes a tile's place in a play of its own (one joker a play); the tile goes back."""
    for index in rng.sample(range(len(table)), min(jokers, len(table))):
        play = table[index]
        k = rng.randrange(len(play))
        tile = play[k]
        if tile != JOKER:  # always true: the plays come fresh from the pool, and get one joker each
            pool[tile] += 1
        play[k] = JOKER


def _random_play(rng: random.Random, pool: Counter[Cell], values: range, runs: float) -> list[Slot] | None:
    """A run (with chance ``runs``) or a book of tiles still in ``pool``, within ``values``."""
    for _ in range(PLAY_TRIES):
        if rng.random() < runs and len(values) >= 3:
            colour = rng.choice(COLOURS)
            length = rng.choice([n for n in (3, 3, 3, 4, 4, 5) if n <= len(values)])
            low = rng.randint(values[0], values[-1] - length + 1)
            cells: list[Cell] = [(colour, v) for v in range(low, low + length)]
        else:
            value = rng.choice(values)
            colours = rng.sample(list(COLOURS), rng.choice((3, 3, 4)))
            cells = [(c, value) for c in sorted(colours)]
        need = Counter(cells)
        if all(pool[cell] >= n for cell, n in need.items()):
            pool.subtract(need)
            return list(cells)
    return None


def _take_rack(rng: random.Random, final: list[list[Slot]], shape: DealShape, size: int, run_min: int, least: int,
               rack: list[Slot]) -> tuple[list[Slot], list[list[Slot]]] | None:
    """Rack tiles out of the final table, one at a time, each time checking the rest still cuts into plays.

    Tiles whose loss breaks their play (a book of three, the middle of a
    run) are tried first, and each play gives at most one tile a round, so
    the rack comes from many plays and the table must be rebuilt to take it.
    With ``shape.lonely``, no three rack tiles make a play on their own.
    The table is a random cut of the rest.
    """
    weighted: list[tuple[float, int, Slot]] = []
    for index, play in enumerate(final):
        for k, slot in enumerate(play):
            breaks = len(play) == 3 or (not _is_book([s for s in play if s != JOKER]) and 0 < k < len(play) - 1)
            weighted.append((rng.random() * (3 if breaks else 1), index, slot))
    weighted.sort(key=lambda item: -item[0])
    rest = Counter(slot for play in final for slot in play)
    rack = list(rack)
    start = len(rack)
    used: set[int] = set()
    for round_ in range(2):  # first one tile a play, then any
        for _, index, slot in weighted:
            if len(rack) - start >= size:
                break
            if (round_ == 0 and index in used) or rest[slot] <= 0:
                continue
            if shape.lonely and _makes_play(rack + [slot]):
                continue
            rest[slot] -= 1
            if partition(rest, rng, run_min) is None:
                rest[slot] += 1
                continue
            rack.append(slot)
            used.add(index)
    if len(rack) - start < least:
        return None
    table = partition(rest, rng, run_min)
    return (rack, table) if table is not None else None


def _makes_play(rack: list[Slot]) -> bool:
    """Whether some three rack tiles (a joker standing in for one) make a run or a book."""
    cells = [slot for slot in rack if slot != JOKER]
    need = 2 if JOKER in rack else 3
    for colour, value in cells:
        book = {c for c, v in cells if v == value}
        run = [v for c, v in cells if c == colour and value <= v < value + 3]
        if len(book) >= need or len(set(run)) >= need:
            return True
    return False


def _draw(rng: random.Random, pool: Counter[Cell], count: int) -> list[Slot]:
    cells = sorted(cell for cell, n in pool.items() for _ in range(n))
    drawn = rng.sample(cells, min(count, len(cells)))
    pool.subtract(Counter(drawn))
    return list(drawn)


# -------------------------------------------------------------- partition
def partition(tiles: Counter[Slot], rng: random.Random, run_min: int) -> list[list[Slot]] | None:
    """Cut these tiles (jokers included) into whole plays at random; None if no cut is found."""
    naturals = Counter({cell: n for cell, n in tiles.items() if cell != JOKER and n > 0})
    jokers = tiles.get(JOKER, 0)
    budget = [PARTITION_NODES]
    plays = _cut(naturals, rng, run_min, budget, set())
    if plays is None:
        return None
    for _ in range(jokers):
        if not _add_joker(plays, rng, run_min):
            return None
    return plays


def _cut(naturals: Counter[Cell], rng: random.Random, run_min: int, budget: list[int],
         dead: set[tuple[tuple[Cell, int], ...]]) -> list[list[Slot]] | None:
    """Plays for the lowest tile left, then the rest; ``dead`` remembers tile sets found not to cut."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    left = sorted(cell for cell, n in naturals.items() if n > 0)
    if not left:
        return []
    state = tuple((cell, naturals[cell]) for cell in left)
    if state in dead:
        return None
    lowest = min(left, key=lambda cell: (cell[1], cell[0]))
    colour, value = lowest
    options: list[list[Cell]] = []
    length = 1
    while value + length - 1 <= 13 and naturals[(colour, value + length - 1)] > 0:
        if length >= run_min:
            options.append([(colour, v) for v in range(value, value + length)])
        length += 1
    others = [c for c in COLOURS if c != colour and naturals[(c, value)] > 0]
    for size in (2, 3):
        if len(others) >= size:
            for _ in range(3):
                options.append(sorted([lowest] + [(c, value) for c in rng.sample(others, size)]))
    rng.shuffle(options)
    for option in options:
        taken = Counter(option)
        naturals.subtract(taken)
        rest = _cut(naturals, rng, run_min, budget, dead)
        naturals.update(taken)
        if rest is not None:
            play: list[Slot] = list(option)
            return [play] + rest
    if budget[0] >= 0:
        dead.add(state)
    return None


def _add_joker(plays: list[list[Slot]], rng: random.Random, run_min: int) -> bool:
    """A leftover joker joins a play: a book of three, or either end of a run."""
    places: list[tuple[int, Cell | None]] = []
    for index, play in enumerate(plays):
        if JOKER in play:
            continue
        cells = [slot for slot in play if slot != JOKER]
        if _is_book(cells) and len(play) == 3:
            places.append((index, None))
        elif not _is_book(cells):
            low, high = cells[0][1], cells[-1][1]
            if low > 1:
                places.append((index, (cells[0][0], low - 1)))
            if high < 13:
                places.append((index, (cells[0][0], high + 1)))
    if not places:
        return False
    index, where = rng.choice(places)
    plays[index].append(JOKER)
    if where is not None:
        plays[index].sort(key=lambda slot: slot[1] if slot != JOKER else where[1])
    return True


def _is_book(cells: list[Cell]) -> bool:
    return len({c for c, _ in cells}) > 1


# ------------------------------------------------------------------ cards
def _play(slots: list[Slot], rules: Ruleset) -> Play:
    """A play in cards; a fixed joker says what it stands for where the play leaves it open."""
    cards = tuple(_card(slot) for slot in slots)
    if rules.joker_mode != JokerMode.FIXED or JOKER not in slots:
        return Play(cards)
    found = readings(cards, rules)
    runs = [r for r in found if r.kind == "run"]
    # As position files require (rules.md section 6): say the card wherever the play leaves it open.
    if jokers_undecided(found):
        reading = next((r for r in runs if _fits(r, slots)), runs[0])
        cards = tuple(Card.joker(stand) if card.is_joker else card for card, stand in zip(cards, reading.stand_ins))
    return Play(cards)


def _fits(reading: Reading, slots: list[Slot]) -> bool:
    """The reading that puts the joker where the deal put it (a run's slots are in order)."""
    return list(reading.positions) == sorted(reading.positions)


def _card(slot: Slot) -> Card:
    return Card.joker() if slot == JOKER else card_of(slot)


def _rack_order(card: Card) -> tuple[bool, str, int]:
    return (card.is_joker, card.suit, card.rank)


def _notation(cards: list[Card], rules: Ruleset) -> str:
    return " ".join(card.notation(rules.deck) for card in cards)
