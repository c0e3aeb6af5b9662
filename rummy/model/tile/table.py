"""What the tile model needs to know about a position, in cells and counts.

A *cell* is one tile face: (colour index in ``SUITS`` order, number). The two
copies of a tile are interchangeable, so tiles are counted per cell, never
numbered. Table plays are described by the cells they hold now and the
cells a *kept* version of them may hold (rules.md §6 and the tie-break).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ...cards import SUITS, Card
from ...errors import RulesError
from ...plays import Play, Reading, readings
from ...position import Position
from ...rules import Ruleset
from ...vocabulary import Ace, JokerMode, Objective, Rearrange

Cell = tuple[int, int]
VALUES = range(1, 14)
COLOURS = range(len(SUITS))


def cell_of(card: Card) -> Cell:
    return (SUITS.index(card.suit), card.rank)


def card_of(cell: Cell) -> Card:
    return Card(cell[1], SUITS[cell[0]])


def count_cells(cards: Iterable[Card]) -> tuple[Counter[Cell], int]:
    """Natural tiles per cell, and the number of jokers."""
    cells: Counter[Cell] = Counter()
    jokers = 0
    for card in cards:
        if card.is_joker:
            jokers += 1
        else:
            cells[cell_of(card)] += 1
    return cells, jokers


@dataclass(frozen=True)
class TableJoker:
    """A joker on the table before the turn.

    ``candidates`` are the cards it stands for (fixed jokers: one card, or
    either missing colour in a book of 3); empty for flexible jokers.
    """

    number: int
    play: int
    card: Card
    candidates: tuple[Cell, ...]


@dataclass(frozen=True)
class TablePlay:
    """One play of the table before the turn, read once.

    A *kept* version of the play holds every cell of ``core`` (the natural
    tiles, plus the places of fixed jokers) and may grow into ``growth``:
    for a run, up to two cells beyond each end (longer growth is an
    adjacent new run, merged when decoding; a locked run of two fixed jokers
    grows all the way, for a freed joker of its own that must stay in it);
    for a book, the missing colours.
    """

    index: int
    play: Play
    kind: str  # "run" or "book"
    naturals: tuple[Cell, ...]
    core: tuple[Cell, ...]
    left: tuple[Cell, ...]  # run growth below the core, nearest first
    right: tuple[Cell, ...]  # run growth above the core, nearest first
    missing: tuple[Cell, ...]  # book growth: the colours it lacks
    jokers: tuple[int, ...]  # numbers of its TableJokers

    @property
    def growth(self) -> tuple[Cell, ...]:
        return self.left + self.right + self.missing


@dataclass(frozen=True)
class TileSetting:
    """Everything the CP-SAT model is built from."""

    rules: Ruleset
    melded: bool
    table: Counter[Cell]
    table_jokers: int
    hand: Counter[Cell]
    hand_jokers: int
    plays: tuple[TablePlay, ...]
    jokers: tuple[TableJoker, ...]
    threshold: int
    max_tiles: int | None
    objective: Objective  # TILES or VALUE

    @property
    def fixed(self) -> bool:
        return self.rules.joker_mode == JokerMode.FIXED

    @property
    def all_jokers(self) -> int:
        return self.table_jokers + self.hand_jokers

    @property
    def needs_hand_layer(self) -> bool:
        """Freed jokers may only go into new plays of hand tiles: model those plays apart."""
        return self.melded and self.fixed and self.rules.freed_joker_new_play_only and bool(self.jokers)


def check_supported(rules: Ruleset) -> None:
    """Refuse tile options the model does not cover, rather than answer wrongly."""
    problems = []
    if rules.ace != Ace.LOW:
        problems.append(f"ace = {rules.ace!r} (the tile model knows ace = 'low')")
    if not rules.book_distinct_suits:
        problems.append("book_distinct_suits = false")
    if rules.rearrange != Rearrange.FREE:
        problems.append(f"rearrange = {rules.rearrange!r}")
    if rules.plays_per_turn is not None:
        problems.append("plays_per_turn")
    if min(rules.book_min, rules.run_min) <= rules.jokers:
        problems.append(f"plays as short as {min(rules.book_min, rules.run_min)} tiles with {rules.jokers} jokers "
                        "(a play of jokers only)")
    if problems:
        raise RulesError(f"{rules.name}: the tile solver does not support " + "; ".join(problems))


def read_setting(position: Position, objective: Objective) -> TileSetting:
    rules = position.rules
    check_supported(rules)
    mover = position.mover
    hand, hand_jokers = count_cells(mover.hand or ())
    melded = mover.melded
    plays: tuple[TablePlay, ...] = ()
    jokers: tuple[TableJoker, ...] = ()
    table: Counter[Cell] = Counter()
    table_jokers = 0
    if melded:
        plays, jokers = read_table(position.table, rules)
        table, table_jokers = count_cells(c for p in position.table for c in p.cards)
    return TileSetting(
        rules=rules,
        melded=melded,
        table=table,
        table_jokers=table_jokers,
        hand=hand,
        hand_jokers=hand_jokers,
        plays=plays,
        jokers=jokers,
        threshold=0 if melded else rules.meld_threshold(position.hand_number),
        max_tiles=rules.max_cards_per_turn,
        objective=Objective.VALUE if objective == Objective.VALUE else Objective.TILES,
    )


def read_table(table: tuple[Play, ...], rules: Ruleset) -> tuple[tuple[TablePlay, ...], tuple[TableJoker, ...]]:
    plays: list[TablePlay] = []
    jokers: list[TableJoker] = []
    for index, play in enumerate(table):
        found = readings(play.cards, rules)
        if not found:
            raise RulesError(f"table play {index + 1} ({play.notation(deck=rules.deck)}) is not whole")
        reading = found[0]
        joker_numbers = []
        for position_in_play, card in enumerate(play.cards):
            if not card.is_joker:
                continue
            candidates: tuple[Cell, ...] = ()
            if rules.joker_mode == JokerMode.FIXED:
                candidates = tuple(sorted({cell_of(r.stand_ins[position_in_play]) for r in found}))
            joker_numbers.append(len(jokers))
            jokers.append(TableJoker(len(jokers), index, card, candidates))
        plays.append(_describe(index, play, reading, rules, tuple(joker_numbers)))
    return tuple(plays), tuple(jokers)


def _describe(index: int, play: Play, reading: Reading, rules: Ruleset, joker_numbers: tuple[int, ...]) -> TablePlay:
    naturals = tuple(sorted(cell_of(c) for c in play.cards if not c.is_joker))
    if reading.kind == "book":
        value = reading.stand_ins[0].rank
        colours = {c for c, _ in naturals}
        missing = tuple((c, value) for c in COLOURS if c not in colours)
        return TablePlay(index, play, "book", naturals, naturals, (), (), missing, joker_numbers)
    colour = SUITS.index(reading.stand_ins[0].suit)
    if rules.joker_mode == JokerMode.FIXED:
        # A kept fixed joker keeps its place, so the whole reading is the core.
        low, high = min(reading.positions), max(reading.positions)
    else:
        low, high = naturals[0][1], naturals[-1][1]
    core = tuple((colour, v) for v in range(low, high + 1))
    reach = 2
    if rules.joker_mode == JokerMode.FIXED and rules.joker_locks_play and len(joker_numbers) > 1:
        # One joker kept, one freed: the freed joker stays in the play, maybe far out
        # (R1 *=R2 R3 R4 R5 *=R6), so the play itself may grow all the way.
        reach = 12
    left = tuple((colour, v) for v in range(low - 1, low - 1 - reach, -1) if v >= 1)
    right = tuple((colour, v) for v in range(high + 1, high + 1 + reach) if v <= 13)
    return TablePlay(index, play, "run", naturals, core, left, right, (), joker_numbers)
