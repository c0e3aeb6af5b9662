"""Hard and expert tile deals built from *motifs* (issue 29): each a small idea a strong player must see.

A deal is two or three *switches* (a crossing: plays laid one way on the
table that the rack needs laid the other way), all in one direction, so a
collection's puzzles share the two directions evenly, plus at most one
*idea* a switch does not need:

- ``runs`` crossing: runs of three colours over 3-4 numbers, rack tiles of
  the fourth colour (runs into groups); with a *joker*, runs of two colours
  and the rack's tiles of a third at two numbers, the middle group made by a
  joker freed from another play (joker reuse);
- ``books`` crossing: groups over 3-4 numbers, rack tiles just beyond them
  (groups into runs);
- ideas: a fixed joker the rack frees by the tile it stands for, laid again
  with two rack tiles (fixed-joker presets); a flexible joker taken off a
  long run and laid again with two rack tiles; a rack tile that doubles a
  middle tile of a long run (split and insert).

Everything is drawn from the ``random.Random`` given, in a fixed order, so a
seed deals the same in every process. The caller (``tile_deal.deal``) adds
plays elsewhere that give the rack a few more tiles, and checks that no
three rack tiles make a play on their own.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Final, Literal

from ..model.tile.table import COLOURS, Cell
from ..rules import Ruleset
from ..vocabulary import JokerMode

JOKER: Final = "joker"
Slot = Cell | Literal["joker"]  # a cell, or JOKER
Motif = tuple[list[list[Slot]], list[Slot]]


def _take(pool: Counter[Cell], cells: list[Cell]) -> bool:
    need = Counter(cells)
    if any(pool[cell] < n for cell, n in need.items()):
        return False
    pool.subtract(need)
    return True


def runs_crossing(rng: random.Random, pool: Counter[Cell], joker: bool) -> Motif | None:
    """Runs laid where the rack needs groups. With ``joker``: two colours' runs over three numbers, rack tiles
    of the other two colours at either end, and the middle group left for a joker (the caller frees one)."""
    if joker:
        first = rng.randint(1, 11)
        values = [first, first + 1, first + 2]
        colours = sorted(rng.sample(list(COLOURS), 4))
        low, high = colours.pop(rng.randrange(4)), colours.pop(rng.randrange(3))
        colours = sorted(rng.sample(colours, 2))
        table = [[(c, v) for v in values] for c in colours]
        # Two colours, so the joker cannot simply join the two rack tiles in a run of their own.
        rack = [(low, values[0]), (high, values[2])]
    else:
        span = rng.randint(3, 4)
        first = rng.randint(1, 14 - span)
        values = list(range(first, first + span))
        colours = sorted(rng.sample(list(COLOURS), 3))
        fourth = next(c for c in COLOURS if c not in colours)
        table = [[(c, v) for v in values] for c in colours]
        count = rng.randint(1, 2) if span == 3 else rng.randint(2, 3)
        chosen = sorted(rng.sample(values, count))
        while any(chosen[k + 2] == chosen[k] + 2 for k in range(len(chosen) - 2)):
            chosen.pop(rng.randrange(len(chosen)))
        rack = [(fourth, v) for v in chosen]
    if not _take(pool, [cell for play in table for cell in play] + rack):
        return None
    return [list(play) for play in table], list(rack)


def books_crossing(rng: random.Random, pool: Counter[Cell]) -> Motif | None:
    """Groups laid where the rack needs runs: groups over 3-4 numbers, rack tiles just beyond them."""
    span = rng.randint(3, 4)
    first = rng.randint(1, 14 - span)
    values = list(range(first, first + span))
    colours = sorted(rng.sample(list(COLOURS), 3))
    table = [[(c, v) for c in colours] for v in values]
    ends = [v for v in (first - 1, first + span) if 1 <= v <= 13]
    places = [(c, v) for c in colours for v in ends]
    rack = sorted(rng.sample(places, min(len(places), rng.randint(2, 3))))
    if not _take(pool, [cell for play in table for cell in play] + rack):
        return None
    return [list(play) for play in table], list(rack)


def joker_source(rng: random.Random, pool: Counter[Cell], rules: Ruleset) -> Motif | None:
    """A play holding a joker that can leave it: under fixed jokers the rack holds the tile it stands for
    (the joker at a run's end); under flexible ones a run of four, the joker at its end, taken off."""
    colour = rng.choice(list(COLOURS))
    first = rng.randint(1, 10)
    cells = [(colour, v) for v in range(first, first + 3)]
    stand = (colour, first + 3)
    if rules.joker_mode == JokerMode.FIXED:
        if not _take(pool, cells + [stand]):
            return None
        return [list(cells) + [JOKER]], [stand]
    if not _take(pool, cells):
        return None
    return [list(cells) + [JOKER]], []


def joker_idea(rng: random.Random, pool: Counter[Cell], rules: Ruleset) -> Motif | None:
    """A joker freed (``joker_source``) and laid again with two rack tiles: X * Y of one colour."""
    source = joker_source(rng, pool, rules)
    if source is None:
        return None
    colour = rng.choice(list(COLOURS))
    low = rng.randint(1, 11)
    pair = [(colour, low), (colour, low + 2)]
    if not _take(pool, pair):
        return None
    return source[0], source[1] + pair


def split_idea(rng: random.Random, pool: Counter[Cell]) -> Motif | None:
    """A run of five or six and a rack tile that doubles one of its middle tiles: the run is split to let it in."""
    length = rng.randint(5, 6)
    colour = rng.choice(list(COLOURS))
    first = rng.randint(1, 14 - length)
    run = [(colour, v) for v in range(first, first + length)]
    double = run[rng.randint(2, length - 3)]
    if not _take(pool, run + [double]):
        return None
    return [list[Slot](run)], [double]


def motif_deal(rng: random.Random, rules: Ruleset, pool: Counter[Cell], switches: int) -> Motif | None:
    """``switches`` crossings of one direction and at most one idea; None when the pool runs short."""
    table: list[list[Slot]] = []
    rack: list[Slot] = []
    jokers = rules.jokers
    runs = rng.random() < 0.5
    reuse_allowed = jokers > 0 and not rules.freed_joker_new_play_only
    for index in range(switches):
        if runs:
            joker = reuse_allowed and index == 0 and rng.random() < 0.5
            made = runs_crossing(rng, pool, joker)
            if made is not None and joker:
                source = joker_source(rng, pool, rules)
                if source is None:
                    return None
                made = (made[0] + source[0], made[1] + source[1])
                jokers -= 1
        else:
            made = books_crossing(rng, pool)
        if made is None:
            return None
        table += made[0]
        rack += made[1]
    idea = rng.random()
    extra: Motif | None = None
    if idea < 0.25 and jokers > 0:
        extra = joker_idea(rng, pool, rules)
    elif idea < 0.7:
        extra = split_idea(rng, pool)
    if extra is not None:
        table += extra[0]
        rack += extra[1]
    return table, rack
