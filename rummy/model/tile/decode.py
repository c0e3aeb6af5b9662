"""From the model's counts to concrete plays, and back (for solution hints).

Decoding rebuilds the runs value by value from ``start``/``cont``, the books
from their colour sets, the kept table plays from their core and growth;
then puts tiles into the slots: kept jokers at their card, a freed joker
that stays in its locked play at its place there, kept plays' own tiles
back in place, hand tiles in the hand layer, then the rest. Jokers
fill the slots no natural tile fills, a table joker preferably back in its
own play. Adjacent runs of one colour are merged (never two kept plays).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TypeVar

from ...cards import Card
from ...plays import Play, jokers_undecided, readings
from .cells import HAND, MAIN, Values
from .table import COLOURS, VALUES, Cell, TileSetting, card_of, cell_of

K = TypeVar("K")


@dataclass
class FinalPlay:
    kind: str  # "run" or "book"
    cells: list[Cell]
    source: int | None = None  # the kept table play it continues
    layer: str = MAIN
    cards: list[Card | None] = field(default_factory=list)
    table_jokers: list[int | None] = field(default_factory=list)  # per slot: TableJoker number, if one

    def __post_init__(self) -> None:
        self.cards = [None] * len(self.cells)
        self.table_jokers = [None] * len(self.cells)

    def free_slot(self, cell: Cell) -> int | None:
        for k, here in enumerate(self.cells):
            if here == cell and self.cards[k] is None:
                return k
        return None


class DecodeError(RuntimeError):
    """The model's answer could not be laid out: a bug, never a user error."""


# --------------------------------------------------------------------- decode
def decode(setting: TileSetting, values: Values) -> list[FinalPlay]:
    plays = _shapes(setting, values)
    _fill(setting, values, plays)
    plays = _merge_runs(plays)
    if setting.fixed:
        for play in plays:
            _name_jokers(play, setting)
    return plays


def _shapes(setting: TileSetting, values: Values) -> list[FinalPlay]:
    length = setting.rules.run_min
    plays: list[FinalPlay] = []
    for index, kept in sorted(values.kept.items()):
        if not kept:
            continue
        table_play = setting.plays[index]
        cells = set(table_play.core) | {cell for (i, cell), on in values.grown.items() if i == index and on}
        ordered = sorted(cells, key=lambda cell: (cell[1], cell[0]))
        plays.append(FinalPlay(table_play.kind, ordered, source=index))
    for layer in (MAIN, HAND):
        for c in COLOURS:
            active: list[list[Cell]] = []
            for v in VALUES:
                going_on = values.conts.get((layer, (c, v - 1)), 0)
                still: list[list[Cell]] = []
                for run in active:  # oldest first: the longest runs go on
                    if len(run) < length:
                        still.append(run)
                    elif going_on > 0:
                        going_on -= 1
                        still.append(run)
                    else:
                        plays.append(FinalPlay("run", run, layer=layer))
                still += [[] for _ in range(values.starts.get((layer, (c, v)), 0))]
                for run in still:
                    run.append((c, v))
                active = still
            plays += [FinalPlay("run", run, layer=layer) for run in active]
        for (book_layer, v, colours), count in sorted(values.books.items()):
            if book_layer == layer:
                plays.extend(FinalPlay("book", [(c, v) for c in colours], layer=layer) for _ in range(count))
    for play in plays:
        if play.kind == "run" and len(play.cells) < length:
            raise DecodeError(f"decoded a run of {len(play.cells)} tiles")
    return plays


def _fill(setting: TileSetting, values: Values, plays: list[FinalPlay]) -> None:
    by_source = {p.source: p for p in plays if p.source is not None}
    table_tiles: dict[Cell, list[int]] = defaultdict(list)  # cell -> origin play of each table tile
    for table_play in setting.plays:
        for cell in table_play.naturals:
            table_tiles[cell].append(table_play.index)
    hand_tiles = dict(values.played)
    placed_jokers: set[int] = set()

    # Kept fixed jokers stand where they stood.
    for (number, cell), on in sorted(values.joker_at.items()):
        if not on:
            continue
        joker = setting.jokers[number]
        home = by_source.get(joker.play)
        slot = home.free_slot(cell) if home is not None else None
        if home is None or slot is None:
            target, slot = _any_slot(plays, cell, avoid_layer=HAND)
        else:
            target = home
        target.cards[slot] = joker.card
        target.table_jokers[slot] = number
        placed_jokers.add(number)

    # A freed joker of a locked play whose other joker is kept stays in the play.
    for (index, cell), on in sorted(values.joker_stays.items()):
        if not on:
            continue
        home = by_source.get(index)
        slot = home.free_slot(cell) if home is not None else None
        if home is None or slot is None:
            raise DecodeError(f"no place for a freed joker in kept play {index + 1} at {card_of(cell)}")
        joker = next(j for j in setting.jokers if j.play == index and j.number not in placed_jokers)
        home.cards[slot] = Card.joker()
        home.table_jokers[slot] = joker.number
        placed_jokers.add(joker.number)

    # A kept play gets its own tiles back.
    for index, play in sorted(by_source.items()):
        for cell in setting.plays[index].naturals:
            slot = play.free_slot(cell)
            if slot is None:
                raise DecodeError(f"kept play {index + 1} lost {card_of(cell)}")
            table_tiles[cell].remove(index)
            play.cards[slot] = card_of(cell)

    joker_slots: list[tuple[FinalPlay, int]] = []
    hand_joker_slots: list[tuple[FinalPlay, int]] = []
    slots_at: dict[Cell, list[tuple[FinalPlay, int]]] = defaultdict(list)
    for play in plays:
        for k, cell in enumerate(play.cells):
            if play.cards[k] is None:
                slots_at[cell].append((play, k))
    for cell, free in slots_at.items():
        hand_layer = [s for s in free if s[0].layer == HAND]
        others = [s for s in free if s[0].layer != HAND]
        jokers_in_hand_layer = values.hand_layer_jokers.get(cell, 0)
        naturals_in_hand_layer = len(hand_layer) - jokers_in_hand_layer
        if naturals_in_hand_layer > hand_tiles.get(cell, 0) or naturals_in_hand_layer < 0:
            raise DecodeError(f"hand layer at {card_of(cell)} needs more hand tiles than played")
        for play, k in hand_layer[:naturals_in_hand_layer]:
            play.cards[k] = card_of(cell)
        hand_tiles[cell] = hand_tiles.get(cell, 0) - naturals_in_hand_layer
        hand_joker_slots += hand_layer[naturals_in_hand_layer:]
        naturals = len(table_tiles.get(cell, ())) + hand_tiles.get(cell, 0)
        if naturals > len(others):
            raise DecodeError(f"{naturals} tiles {card_of(cell)} but {len(others)} places")
        # Slots of a kept play that held a joker take the joker back; the rest take tiles first.
        others.sort(key=lambda s: _wants_joker(s[0], setting))
        for play, k in others[:naturals]:
            play.cards[k] = card_of(cell)
        joker_slots += others[naturals:]
        table_tiles[cell] = []
        hand_tiles[cell] = 0

    loose = [j for j in setting.jokers if j.number not in placed_jokers]
    hand_jokers = values.jokers_played
    if len(loose) + hand_jokers != len(joker_slots) + len(hand_joker_slots):
        raise DecodeError(f"{len(loose) + hand_jokers} jokers "
                          f"for {len(joker_slots) + len(hand_joker_slots)} joker places")
    # Freed jokers may have to go into the hand layer; hand jokers go anywhere.
    for play, k in hand_joker_slots:
        if loose:
            joker = loose.pop(0)
            play.cards[k] = Card.joker()
            play.table_jokers[k] = joker.number
        else:
            play.cards[k] = Card.joker()
            hand_jokers -= 1
    for play, k in sorted(joker_slots, key=lambda s: s[0].source is None):
        own = next((j for j in loose if play.source is not None and j.play == play.source), None)
        freed = own or (loose[0] if loose else None)
        play.cards[k] = Card.joker()
        if freed is not None:
            loose.remove(freed)
            play.table_jokers[k] = freed.number
        else:
            hand_jokers -= 1
    if hand_jokers != 0 or loose:
        raise DecodeError("jokers left over after decoding")


def _wants_joker(play: FinalPlay, setting: TileSetting) -> int:
    """Sort key: 0 puts a slot last for natural tiles (so it gets a joker)."""
    if play.source is not None and setting.plays[play.source].jokers:
        return 1
    return 0


def _any_slot(plays: list[FinalPlay], cell: Cell, avoid_layer: str) -> tuple[FinalPlay, int]:
    for play in plays:
        if play.layer == avoid_layer:
            continue
        slot = play.free_slot(cell)
        if slot is not None:
            return play, slot
    raise DecodeError(f"no place for a kept joker at {card_of(cell)}")


def _merge_runs(plays: list[FinalPlay]) -> list[FinalPlay]:
    """Join runs of one colour that touch, unless both continue a table play."""
    merged = True
    while merged:
        merged = False
        runs = [p for p in plays if p.kind == "run"]
        ends: dict[tuple[str, Cell], list[FinalPlay]] = {}
        for play in runs:
            ends.setdefault((play.layer, play.cells[-1]), []).append(play)
        for play in runs:
            colour, low = play.cells[0]
            before = ends.get((play.layer, (colour, low - 1)), [])
            partner = next((q for q in before if q is not play and (q.source is None or play.source is None)), None)
            if partner is None:
                continue
            joined = FinalPlay("run", partner.cells + play.cells,
                               source=partner.source if partner.source is not None else play.source, layer=play.layer)
            joined.cards = partner.cards + play.cards
            joined.table_jokers = partner.table_jokers + play.table_jokers
            plays = [p for p in plays if p is not play and p is not partner] + [joined]
            merged = True
            break
    return plays


def _name_jokers(play: FinalPlay, setting: TileSetting) -> None:
    """Fixed jokers: write the card a joker stands for where the play leaves it open."""
    if not any(c is not None and c.is_joker for c in play.cards):
        return
    plain = tuple(c.plain() if c is not None else Card.joker() for c in play.cards)
    if not jokers_undecided(readings(plain, setting.rules)):
        return
    for k, card in enumerate(play.cards):
        if card is not None and card.is_joker and card.stands_for is None:
            play.cards[k] = Card.joker(card_of(play.cells[k]))


def layout_key(play: FinalPlay) -> tuple[bool, int, Cell, int]:
    """New plays laid out as a player would: runs by colour, then books by number."""
    return (play.kind != "run", play.cells[0][0] if play.kind == "run" else play.cells[0][1], play.cells[0],
            len(play.cells))


def to_play(play: FinalPlay, setting: TileSetting) -> Play:
    cards = tuple(c for c in play.cards if c is not None)
    if len(cards) != len(play.cells):
        raise DecodeError("a decoded play has empty places")
    result = Play(cards)
    if not readings(cards, setting.rules):
        raise DecodeError(f"decoded {result.notation(deck=setting.rules.deck)}, which is not whole")
    return result


# --------------------------------------------------------------------- encode
def encode_layout(setting: TileSetting, plays: list[FinalPlay], base: Values) -> Values:
    """Values describing ``plays`` (each with cells, source and layer); joker choices from ``base``."""
    values = Values(
        played=dict(base.played), jokers_played=base.jokers_played, joker_kept=dict(base.joker_kept),
        joker_at=dict(base.joker_at), joker_freer=dict(base.joker_freer), joker_stays=dict(base.joker_stays),
        hand_layer_jokers=dict(base.hand_layer_jokers),
    )
    length = setting.rules.run_min
    for play in plays:
        if play.source is not None:
            values.kept[play.source] = 1
            core = set(setting.plays[play.source].core)
            for cell in play.cells:
                if cell not in core:
                    values.grown[(play.source, cell)] = 1
        elif play.kind == "run":
            colour, low = play.cells[0]
            high = play.cells[-1][1]
            _bump(values.starts, (play.layer, (colour, low)))
            for v in range(low + length - 1, high):
                _bump(values.conts, (play.layer, (colour, v)))
        else:
            v = play.cells[0][1]
            colours = tuple(sorted(c for c, _ in play.cells))
            _bump(values.books, (play.layer, v, colours))
    return values


def _bump(table: dict[K, int], key: K) -> None:
    table[key] = table.get(key, 0) + 1


def table_layout(setting: TileSetting, identified: frozenset[int]) -> list[FinalPlay]:
    """The table as it is, as final plays: the hint of a turn that plays nothing."""
    plays: list[FinalPlay] = []
    for table_play in setting.plays:
        reading = readings(table_play.play.cards, setting.rules)[0]
        cells = sorted({cell_of(s) for s in reading.stand_ins}, key=lambda cell: (cell[1], cell[0]))
        source = table_play.index if table_play.index in identified else None
        plays.append(FinalPlay(reading.kind, cells, source=source))
    return plays


def table_values(setting: TileSetting, identified: frozenset[int]) -> Values:
    base = Values()
    for joker in setting.jokers if setting.fixed else ():
        base.joker_kept[joker.number] = 1
        play = setting.plays[joker.play]
        reading = readings(play.play.cards, setting.rules)[0]
        stand_in = reading.stand_ins[
            [i for i, c in enumerate(play.play.cards) if c.is_joker][play.jokers.index(joker.number)]]
        base.joker_at[(joker.number, cell_of(stand_in))] = 1
    return encode_layout(setting, table_layout(setting, identified), base)
