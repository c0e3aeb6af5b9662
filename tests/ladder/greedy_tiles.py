"""Simple one-pass greedy players, written apart from the ladder (issue 29), one section a family.

Each player takes a play-phase position and a ``random.Random`` and returns the
after-position of the turn it plays; the tests judge that turn with the checker
and compare its gain with the ladder's greedy rungs (which must be at least as
strong) and with each shipped hard/expert puzzle's optimum (which no greedy
player may reach). Names: House ``house_*``, tiles ``tile_*``, Robber
``robber_*``, lay-off ``layoff_*``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations

from rummy.cards import Card
from rummy.plays import Play, readings, settled_stand_ins
from rummy.position import Position, Turn
from rummy.vocabulary import JokerMode

# ---------------------------------------------------------------------------------------------- tiles
# Tile rummy: the rack tiles played onto the table as it stands, no rearranging beyond splitting a run
# where a rack tile doubles one of its tiles. Wholeness is rummy.plays' reading; nothing of rummy.ladder.

TileTable = list[list[Card]]


def _tile_whole(cards: list[Card], position: Position) -> bool:
    return bool(readings(tuple(cards), position.rules))


def _tile_fits(play: list[Card], card: Card, position: Position) -> bool:
    """``card`` added to ``play`` leaves it whole; a simple player never lays the tile a fixed joker of the
    play stands for (that would free the joker: joker work is beyond it)."""
    if position.rules.joker_mode == JokerMode.FIXED and any(c.is_joker for c in play):
        stands = settled_stand_ins(tuple(play), position.rules)
        named = {c.stands_for for c in play if c.is_joker and c.stands_for is not None}
        if card in named or (stands is not None and card in stands):
            return False
    return _tile_whole(play + [card], position)


def _tile_cap(position: Position) -> int:
    hand = position.mover.hand or ()
    return min(len(hand), position.rules.max_cards_per_turn or len(hand))


def _tile_new_plays(rack: list[Card], position: Position) -> list[list[Card]]:
    """Every whole play of 3 to 6 rack tiles (each set once), the biggest first."""
    found: list[list[Card]] = []
    seen: set[tuple[str, ...]] = set()
    for size in range(min(6, len(rack)), 2, -1):
        for chosen in combinations(range(len(rack)), size):
            cards = [rack[i] for i in chosen]
            key = tuple(sorted(c.notation(position.rules.deck) for c in cards))
            if key not in seen and _tile_whole(cards, position):
                seen.add(key)
                found.append(cards)
    return found


def _tile_after(position: Position, table: TileTable, rack: list[Card], new: TileTable) -> Position:
    """The turn as a position: the table's plays (grown) and the new plays; before the initial meld, the new
    plays are the meld (and only new plays may be laid)."""
    mover = position.mover
    played = len(mover.hand or ()) - len(rack)
    if not mover.melded:
        meld = tuple(Play(tuple(p)) for p in new)
        after = replace(position, table=position.table + meld,
                        turn=Turn(meld=meld, replaced=(), discard=None, discard_declared=False))
    else:
        after = replace(position, table=tuple(Play(tuple(p)) for p in table + new),
                        turn=Turn(meld=(), replaced=(), discard=None, discard_declared=False))
    still = list(rack)
    return after.replace_player(replace(mover, hand=tuple(rack), melded=mover.melded or played > 0,
                                        hot=tuple(c for c in mover.hot if c in still),
                                        warm=tuple(c for c in mover.warm if c in still)))


def _tile_meld(position: Position, rack: list[Card], rng: random.Random) -> Position:
    """Before the initial meld: the biggest new plays of rack tiles, kept only if they reach the threshold."""
    rules = position.rules
    new: TileTable = []
    rack = list(rack)
    cap = _tile_cap(position)
    while True:
        options = [p for p in _tile_new_plays(rack, position) if sum(map(len, new)) + len(p) <= cap]
        if not options:
            break
        play = options[0]
        new.append(play)
        for card in play:
            rack.remove(card)
    value = sum(rules.family.meld_value(tuple(p), rules) for p in new)
    if not new or value < rules.meld_threshold(position.hand_number):
        return _tile_after(position, [], list(position.mover.hand or ()), [])
    return _tile_after(position, [], rack, new)


def _tile_fit_first(table: TileTable, card: Card, position: Position) -> bool:
    """Puts ``card`` at the first play of the table it makes whole (either end of a run, a group's colour)."""
    for play in table:
        if _tile_fits(play, card, position):
            play.append(card)
            return True
    return False


def _tile_greedy(position: Position, rng: random.Random, plays_first: bool) -> Position:
    mover = position.mover
    rack = list(mover.hand or ())
    rng.shuffle(rack)
    if not mover.melded:
        return _tile_meld(position, rack, rng)
    table: TileTable = [list(p.cards) for p in position.table]
    new: TileTable = []
    cap = _tile_cap(position)

    def left() -> int:  # the tiles still allowed this turn
        return cap - (len(mover.hand or ()) - len(rack))

    changed = True
    while changed and left() > 0:
        changed = False
        if plays_first:
            options = [p for p in _tile_new_plays(rack, position) if len(p) <= left()]
            if options:
                new.append(options[0])
                for card in options[0]:
                    rack.remove(card)
                changed = True
                continue
        for card in list(rack):
            if left() > 0 and _tile_fit_first(table + new, card, position):
                rack.remove(card)
                changed = True
        if not changed and not plays_first:
            options = [p for p in _tile_new_plays(rack, position) if len(p) <= left()]
            if options:
                new.append(options[0])
                for card in options[0]:
                    rack.remove(card)
                changed = True
    return _tile_after(position, table, rack, new)


def tile_first_fit(position: Position, rng: random.Random) -> Position:
    """Each rack tile, in a random order, onto the first play it fits; when none fits, the biggest new play of
    rack tiles; again while anything plays."""
    return _tile_greedy(position, rng, plays_first=False)


def tile_biggest_play_first(position: Position, rng: random.Random) -> Position:
    """The biggest new play of rack tiles first, again while one can be laid; then first fit."""
    return _tile_greedy(position, rng, plays_first=True)


def tile_best_now(position: Position, rng: random.Random) -> Position:
    """Each time the single move that plays the most tiles now (a new play, a tile onto a play, a run split
    where a rack tile doubles one of its tiles), ties broken at random; until nothing plays."""
    mover = position.mover
    rack = list(mover.hand or ())
    if not mover.melded:
        return _tile_meld(position, rack, rng)
    table: TileTable = [list(p.cards) for p in position.table]
    cap = _tile_cap(position)
    while cap - (len(mover.hand or ()) - len(rack)) > 0:
        room = cap - (len(mover.hand or ()) - len(rack))
        moves: list[tuple[int, float, Callable[[], None]]] = []
        for play in _tile_new_plays(rack, position):
            if len(play) <= room:
                moves.append((len(play), rng.random(), _tile_lay(table, rack, play)))
        for card in dict.fromkeys(rack):
            for index, play in enumerate(table):
                if _tile_fits(play, card, position):
                    moves.append((1, rng.random(), _tile_add(table, rack, index, card)))
                for cut in range(1, len(play)):
                    left, right = play[:cut], play[cut:]
                    if right and left[-1] == card and not card.is_joker and _tile_whole(left, position) \
                            and _tile_whole([card] + right, position) and _tile_run(play, position):
                        moves.append((1, rng.random(), _tile_split(table, rack, index, cut, card)))
        if not moves:
            break
        moves.sort(key=lambda move: (-move[0], move[1]))
        moves[0][2]()
    return _tile_after(position, table, rack, [])


def _tile_run(play: list[Card], position: Position) -> bool:
    """A play read as a run in the order it lies (a split keeps each half's order)."""
    found = readings(tuple(play), position.rules)
    return any(r.kind == "run" and list(r.positions) == sorted(r.positions) for r in found)


def _tile_lay(table: TileTable, rack: list[Card], play: list[Card]) -> Callable[[], None]:
    def move() -> None:
        table.append(list(play))
        for card in play:
            rack.remove(card)
    return move


def _tile_add(table: TileTable, rack: list[Card], index: int, card: Card) -> Callable[[], None]:
    def move() -> None:
        table[index].append(card)
        rack.remove(card)
    return move


def _tile_split(table: TileTable, rack: list[Card], index: int, cut: int, card: Card) -> Callable[[], None]:
    def move() -> None:
        play = table[index]
        table[index:index + 1] = [play[:cut], [card] + play[cut:]]
        rack.remove(card)
    return move


TILE_PLAYERS: tuple[Callable[[Position, random.Random], Position], ...] = (
    tile_first_fit, tile_biggest_play_first, tile_best_now)
