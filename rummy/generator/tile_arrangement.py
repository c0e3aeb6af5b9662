"""Tile rummy: when is a final table the same answer, and when can the model not tell.

Two final tables are the same answer when they hold the same plays, each
play the same tiles (identical tiles and the order of plays do not count;
runs of one colour that touch are one run, as the solver lays them out).

The uniqueness check forbids a table through its *signature*
(``rummy.model.tile.signature``): run starts and links per cell, book
slots per cell and books per number. A signature pins the table down except
in three cases, where another table with the same signature (so forbidden
together with it) may be just as good. ``ambiguity`` finds them, and the
puzzle is then called not unique (which may be too careful, never too
bold):

- a joker and a tile of the same face in two different plays could swap
  (the checker judges the swapped table: a rival only if it is legal);
- two runs of one colour could be cut differently over the same cells
  (``R1-R5`` and ``R3-R7`` hold the same cells as ``R1-R7`` and ``R3-R5``);
- three or more books of one number.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace
from itertools import permutations

from ..cards import Card
from ..checker import check
from ..model.tile import Shape, arrangement_encodings, final_plays
from ..plays import Play, readings
from ..position import Position
from ..vocabulary import JokerMode

# More runs of one colour than this are not searched for other cuts, more
# joker trades than this are not judged: either is called ambiguous.
MOST_RUNS_SEARCHED = 7
MOST_TRADES_JUDGED = 40
# A joker and a tile trading places: (joker's play, joker's place, tile's play, the face they share).
Trade = tuple[int, int, int, Card]


def canonical(after: Position) -> tuple[tuple[str, ...], ...]:
    """The final table up to the order of plays and of tiles (jokers as jokers, whatever they stand for)."""
    plays = [tuple(sorted(card.plain().notation() for card in play.cards)) for play in after.table]
    return tuple(sorted(plays))


def ambiguity(before: Position, after: Position) -> str | None:
    """Why ``after``'s signature may also fit another table as good (None: it fits only this one)."""
    rules = before.rules
    plays, _ = final_plays(before, after)
    for shapes in arrangement_encodings(plays, rules):
        reason = _other_cuts(shapes, rules.run_min) or _many_books(shapes)
        if reason:
            return reason
    return _joker_swap(before, after)


def _joker_swap(before: Position, after: Position) -> str | None:
    """A joker standing for a tile that another play holds: if the two may trade places, that is a rival.

    The model counts tiles per face, never which play holds the joker and
    which the tile, so the exclusion forbids both tables together. The
    checker judges the traded table (one trade, or two at once).
    """
    rules = before.rules
    table = list(after.table)
    trades: list[Trade] = []
    for p, play in enumerate(table):
        for reading in readings(tuple(card.plain() for card in play.cards), rules):
            for k, card in enumerate(play.cards):
                if not card.is_joker:
                    continue
                face = reading.stand_ins[k]
                for q, other in enumerate(table):
                    if q != p and any(c == face and not c.is_joker for c in other.cards):
                        trades.append((p, k, q, face))
    if not trades:
        return None
    mine = canonical(after)
    options = [[t] for t in trades] + [[a, b] for i, a in enumerate(trades) for b in trades[i + 1:]
                                       if a[0] != b[0] and a[2] != b[2]]
    for option in options[:MOST_TRADES_JUDGED]:
        traded = _trade(table, option, rules.joker_mode == JokerMode.FIXED)
        if traded is None:
            continue
        rival = replace(after, table=tuple(traded))
        if canonical(rival) != mine and check(before, rival).legal:
            return "a joker and a tile could swap plays"
    if len(options) > MOST_TRADES_JUDGED:
        return "too many joker trades to judge"
    return None


def _trade(table: list[Play], trades: list[Trade], fixed: bool) -> list[Play] | None:
    """The table with each (joker's play, joker's place, tile's play, face) traded; None if a play breaks."""
    cards = [list(play.cards) for play in table]
    for p, k, q, face in trades:
        if not cards[p][k].is_joker:
            return None
        spot = next((i for i, c in enumerate(cards[q]) if c == face and not c.is_joker), None)
        if spot is None:
            return None
        cards[p][k] = cards[q][spot]
        cards[q][spot] = Card.joker(face) if fixed else Card.joker()  # a fixed joker says what it stands for
    return [Play(tuple(c)) for c in cards]


def _other_cuts(shapes: tuple[Shape, ...], length: int) -> str | None:
    by_colour: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for shape in shapes:
        if shape.kind == "run":
            by_colour[shape.cells[0][0]].append((shape.cells[0][1], shape.cells[-1][1]))
    for runs in by_colour.values():
        if len(runs) < 2:
            continue
        if len(runs) > MOST_RUNS_SEARCHED:
            return "too many runs of one colour to tell apart"
        starts = sorted(low for low, _ in runs)
        ends = [high for _, high in runs]
        mine = tuple(sorted(runs))
        for order in set(permutations(ends)):
            cut = tuple(sorted(zip(starts, order)))
            if cut != mine and all(high - low + 1 >= length for low, high in cut):
                return "runs could be cut differently"
    return None


def _many_books(shapes: tuple[Shape, ...]) -> str | None:
    per_number = Counter(shape.cells[0][1] for shape in shapes if shape.kind == "book")
    if any(n >= 3 for n in per_number.values()):
        return "three books of one number"
    return None
