"""Excluded final tables (``SolverConfig.exclude``): no answer may repeat one.

A House final table (``Position.table_key``) is, for every space, its plays as sets of cards: the
answer up to the order of plays and of cards within a play, the two jokers
counting as identical. The discard and the route (what was melded, which
joker was replaced first) are not part of it.

The model can hold one table in several ways: which joker slot is which
joker, which positions a run with a joker covers, and on which layer of a
suit's row a run lies (house/runs). Each way is a set of literals (book
variables; run segments and the cards in their cells); for each, one clause
says that not all of them are true or some card the table leaves off lies
on the table. Every card the table holds is then pinned to its play, and no
other card is on the table, so a clause forbids exactly that table. Ways
past ``MOST_WAYS`` are not forbidden (none of the positions puzzles are made
from comes near it); a repeat would be caught by the generator, which
compares final tables after every solve.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations, product

from ...cards import Card
from ...plays import readings
from ...position import Position
from ..cpsat import cp_model
from .context import row_position
from .runs import grids_of
from .state import HouseModel

MOST_WAYS = 4096

def add_exclusions(m: HouseModel, excluded: tuple[Position, ...]) -> None:
    for after in excluded:
        for literals, off_table in _ways(m, after):
            off = [v for i in off_table for _, v in m.placements.get(i, [])]
            m.model.add_bool_or([*(lit.Not() for lit in literals), *off])


def _ways(m: HouseModel, after: Position) -> Iterator[tuple[list[cp_model.IntVar], list[int]]]:
    """(literals, slots off the table) for every way the model can hold ``after``'s table."""
    ctx = m.ctx
    naturals = {s.card: s.index for s in ctx.slots if not s.is_joker}
    jokers = [s.index for s in ctx.slots if s.is_joker]
    plays: list[tuple[str, tuple[Card, ...]]] = [
        (player.name, tuple(c.plain() for c in play.cards)) for player in after.players for play in player.plays
    ]
    joker_count = sum(c.is_joker for _, cards in plays for c in cards)
    if any(c not in naturals for _, cards in plays for c in cards if not c.is_joker) or joker_count > len(jokers):
        return  # a table of other cards: no answer of this position can repeat it
    made = 0
    for chosen in permutations(jokers, joker_count):
        given = iter(chosen)
        placed = [(space, tuple(next(given) if c.is_joker else naturals[c] for c in cards)) for space, cards in plays]
        on_table = {i for _, slots in placed for i in slots}
        off_table = [s.index for s in ctx.slots if s.index not in on_table]
        options = [_play_ways(m, space, slots) for space, slots in placed]
        for combination in product(*options):
            yield [lit for way in combination for lit in way], off_table
            made += 1
            if made >= MOST_WAYS:
                return


def _play_ways(m: HouseModel, space: str, slots: tuple[int, ...]) -> list[list[cp_model.IntVar]]:
    ctx = m.ctx
    cards = tuple(ctx.slots[i].card for i in slots)
    naturals = [c for c in cards if not c.is_joker]
    if len(naturals) >= 2 and len({c.rank for c in naturals}) == 1:
        wanted = frozenset(slots)
        return [[book.var] for book in m.books if book.space == space and frozenset(book.slots) == wanted]
    ways: list[list[cp_model.IntVar]] = []
    for reading in readings(cards, ctx.rules):
        if reading.kind != "run":
            continue
        order = sorted(range(len(slots)), key=lambda k: reading.positions[k])
        stretch = tuple(row_position(reading.positions[k], ctx.rules) for k in order)
        for grid in grids_of(m, space, naturals[0].suit):
            segment = next((v for s, v in grid.segments if s == stretch), None)
            if segment is None:
                continue
            cells: list[cp_model.IntVar] = []
            for k in order:
                position = row_position(reading.positions[k], ctx.rules)
                cell = next((v for i, v in grid.cells.get(position, []) if i == slots[k]), None)
                if cell is None:
                    break
                cells.append(cell)
            else:
                ways.append([segment] + cells)
    return ways

