"""One tile-rummy position's search for the human-like players (rules.md §6): its tiles, its states, its moves.

The rungs (``rummy.ladder.tile``: extend, split-and-swap, rearrange-three)
each search sequences of moves from a ``TileGame``; this module is that
game: the tiles held as small numbers, a state (the table, the rack and the
*loose* tiles, taken off the table to be laid again this turn), the reading
of plays (cached), the moves one person makes at a time, each leaving every
play on the table whole, and the exhaustive re-partitions of rearrange-three.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations

from ..cards import SUITS, Card, rank_at
from ..plays import Reading, readings, settled_stand_ins
from ..position import Position
from ..rules import Ruleset
from ..vocabulary import JokerMode
from .moves import Budget, without

MAX_LOOSE = 2  # table tiles a player holds off the table at once (a freed joker may make it three)
PARTITION_NODES = 3_000  # nodes of the exhaustive re-partitions of one pool, on average (rearrange-three)
PARTITIONS_KEPT = 6  # re-partitions of one pool searched further, the most rack tiles first
LOOSE_IN_PARTITION = 1  # pooled table tiles a re-partition may leave over, for the moves after it to place

# The search holds a tile as a small number: 0 a joker, suit * 16 + number a natural tile,
# PINNED + that a fixed table joker standing for it, FREED a joker freed this turn that may only go into
# a new play of rack tiles (freed_joker_new_play_only; the play it is in takes no table tile).
JOKER_ID = 0
FREED = 63
PINNED = 64
Tiles = tuple[int, ...]


def encode(card: Card) -> int:
    if card.is_joker:
        return JOKER_ID
    return SUITS.index(card.suit) * 16 + card.rank


def decode(tile: int) -> Card:
    if tile in (JOKER_ID, FREED):
        return Card.joker()
    if tile >= PINNED:
        return Card.joker(decode(tile - PINNED))
    return Card(tile % 16, SUITS[tile // 16])


def plain(tile: int) -> int:
    return JOKER_ID if tile >= PINNED or tile == FREED else tile


def is_joker(tile: int) -> bool:
    return tile in (JOKER_ID, FREED) or tile >= PINNED


def covers(pool: Counter[int], tiles: Iterable[int]) -> bool:
    return not Counter(tiles) - pool


@dataclass(frozen=True)
class TileState:
    table: tuple[Tiles, ...]  # each play sorted, the plays sorted
    hand: Tiles  # sorted
    loose: Tiles = ()  # sorted; table tiles off the table, to be laid again this turn


def _table(plays: Iterable[Tiles]) -> tuple[Tiles, ...]:
    return tuple(sorted(tuple(sorted(p)) for p in plays))


def state_key(state: TileState) -> Hashable:
    return state


class TileGame:
    """One position's search: its rules, the moves of each rung, the rack it started with."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.rules: Ruleset = position.rules
        self.fixed = self.rules.joker_mode == JokerMode.FIXED
        self.new_play_only = self.fixed and self.rules.freed_joker_new_play_only
        self.whole_seen: dict[Tiles, bool] = {}
        self.readings_seen: dict[Tiles, tuple[Reading, ...]] = {}
        mover = position.mover
        self.hand0: Tiles = tuple(sorted(encode(c) for c in mover.hand or ()))
        self.melded = mover.melded
        self.cap = min(len(self.hand0), self.rules.max_cards_per_turn or len(self.hand0))
        self.threshold = self.rules.meld_threshold(position.hand_number)
        self.pool_plays: dict[tuple[Tiles, int | None], list[Tiles]] = {}
        self.alternatives: dict[int, set[int]] = {}  # a fixed joker's other readings (books of three)
        self.grown_seen: dict[tuple[Tiles, int], Tiles | None] = {}
        self.windows_seen: dict[int, list[tuple[list[int], Counter[int]]]] = {}
        self.hand_plays = self.plays_of(self.hand0)
        self.start = TileState(_table(self.pinned(p.cards) for p in position.table), self.hand0)
        # The most tiles a turn can play: the cap, and only tiles that some play of all tiles in sight could hold.
        self.everything = tuple(plain(t) for play in self.start.table for t in play) + self.hand0
        self.universe_seen: dict[int, list[tuple[Tiles, Counter[int]]]] = {}
        self.usable_seen: dict[tuple[Tiles, Tiles, int, int], bool] = {}
        in_sight = self.everything if self.melded else self.hand0
        self.most = min(self.cap, sum(1 for t in self.hand0 if self.plays_of(in_sight, t)))

    # ---------------------------------------------------------- reading
    def pinned(self, cards: tuple[Card, ...]) -> Tiles:
        """A table play as the search holds it: fixed jokers say what they stand for; flexible ones do not."""
        if not self.fixed or not any(c.is_joker for c in cards):
            return tuple(sorted(encode(c) for c in cards))
        if all(c.stands_for is not None for c in cards if c.is_joker):
            stands = [c.stands_for for c in cards if c.is_joker]
        else:
            settled = settled_stand_ins(cards, self.rules)
            found = readings(cards, self.rules)
            if settled is None and found:
                settled = found[0].joker_stand_ins()
            if settled is None:
                return tuple(sorted(encode(c) for c in cards))  # not whole: the checker will say
            stands = list(settled)
        pins = iter(stands)
        tiles = tuple(sorted(PINNED + encode(s) if c.is_joker and (s := next(pins)) is not None else encode(c)
                             for c in cards))
        if any(c.is_joker and c.stands_for is None for c in cards):
            # A joker of a book of three stands for either missing colour (rules.md §6): it may read as the other.
            options = {PINNED + encode(r.stand_ins[i]) for r in readings(cards, self.rules)
                       for i, c in enumerate(cards) if c.is_joker}
            for tile in tiles:
                if tile >= PINNED:
                    self.alternatives.setdefault(tile, set()).update(options - {tile})
        return tiles

    def grow(self, play: Tiles, tile: int) -> Tiles | None:
        """``play`` with ``tile`` added, sorted, if that is whole (a fixed joker of a book of three reading
        as the other missing colour if need be); None if not."""
        key = (play, tile)
        if key in self.grown_seen:
            return self.grown_seen[key]
        tiles = tuple(sorted(play + (tile,)))
        found: Tiles | None = tiles if self.whole(tiles) else None
        if found is None:
            for k, old in enumerate(tiles):
                for other in sorted(self.alternatives.get(old, ())):
                    changed = tuple(sorted(tiles[:k] + (other,) + tiles[k + 1:]))
                    if found is None and self.whole(changed):
                        found = changed
        self.grown_seen[key] = found
        return found

    def cards(self, tiles: Tiles) -> tuple[Card, ...]:
        return tuple(decode(t) for t in tiles)

    def whole(self, tiles: Tiles) -> bool:
        tiles = tuple(sorted(tiles))
        found = self.whole_seen.get(tiles)
        if found is None:
            found = bool(readings(self.cards(tiles), self.rules))
            self.whole_seen[tiles] = found
        return found

    def runs_of(self, tiles: Tiles) -> list[list[int]]:
        """Each run reading of a play: its tiles in run order."""
        found = self.readings_seen.get(tiles)
        if found is None:
            found = readings(self.cards(tiles), self.rules)
            self.readings_seen[tiles] = found
        return [[tiles[k] for k in sorted(range(len(tiles)), key=lambda k: r.positions[k])]
                for r in found if r.kind == "run"]

    def plays_of(self, pool: Iterable[int], anchor: int | None = None) -> list[Tiles]:
        """Every whole play the tiles of ``pool`` make (plain jokers; with ``anchor``, those holding it):
        books of one number, runs of one colour, jokers filling gaps or standing in for tiles held."""
        counts = Counter(plain(t) for t in pool)
        key = (tuple(sorted(counts.elements())), anchor)
        found = self.pool_plays.get(key)
        if found is not None:
            return found
        rules = self.rules
        jokers = counts[JOKER_ID]
        made: set[Tiles] = set()
        naturals = sorted(t for t in counts if t != JOKER_ID)
        numbers = sorted({t % 16 for t in naturals}) if anchor in (None, JOKER_ID) else [anchor % 16]
        for number in numbers:
            colours = [t for t in naturals if t % 16 == number]
            for k in range(1, len(colours) + 1):
                for chosen in combinations(colours, k):
                    if anchor not in (None, JOKER_ID) and anchor not in chosen:
                        continue
                    for j in range(0, jokers + 1):
                        if rules.book_min <= k + j <= rules.book_max:
                            made.add(tuple(sorted(chosen + (JOKER_ID,) * j)))
        suits = sorted({t // 16 for t in naturals}) if anchor in (None, JOKER_ID) else [anchor // 16]
        for suit in suits:
            for tiles, need in self.windows(suit):
                if anchor not in (None, JOKER_ID) and anchor not in need:
                    continue
                base = [t for t in tiles if counts[t] >= need[t]]
                missing = len(tiles) - len(base)
                if missing > jokers or not base:
                    continue
                for extra in range(0, min(jokers - missing, len(base) - 1) + 1):
                    for replaced in set(combinations(base, extra)):
                        if anchor not in (None, JOKER_ID) and anchor in replaced and base.count(anchor) == 1:
                            continue
                        made.add(tuple(sorted(without(tuple(base), replaced) + (JOKER_ID,) * (missing + extra))))
        found = [tiles for tiles in sorted(made) if self.whole(tiles)]
        if anchor == JOKER_ID:
            found = [tiles for tiles in found if JOKER_ID in tiles]
        self.pool_plays[key] = found
        return found

    def windows(self, suit: int) -> list[tuple[list[int], Counter[int]]]:
        """Every run window of one colour (its tiles in order, and counted), the rules' lengths and ace rule."""
        found = self.windows_seen.get(suit)
        if found is None:
            found = []
            for length in range(self.rules.run_min, self.rules.run_max + 1):
                for window in self.rules.run_windows(length):
                    tiles = [suit * 16 + rank_at(p) for p in window]
                    found.append((tiles, Counter(tiles)))
            self.windows_seen[suit] = found
        return found

    def played(self, state: TileState) -> int:
        return len(self.hand0) - len(state.hand)

    def locked(self, play: Tiles) -> bool:
        """A play holding a fixed table joker under joker_locks_play: it may grow, never lose a tile or split."""
        return (self.rules.joker_locks_play and self.pinned_joker(play)) or FREED in play

    def pinned_joker(self, play: Tiles) -> bool:
        return self.fixed and play[-1] >= PINNED

    def room(self, state: TileState) -> int:
        return self.cap - self.played(state)

    def done(self, state: TileState) -> bool:
        return not state.loose and self.played(state) >= self.most and self.acceptable(state)

    # ----------------------------------------------------------- moves
    @staticmethod
    def _with(state: TileState, drop: Iterable[int], add: Iterable[Tiles], hand: Tiles | None = None,
              loose: Tiles | None = None) -> TileState:
        gone = set(drop)
        plays = [p for i, p in enumerate(state.table) if i not in gone] + list(add)
        return TileState(_table(plays), state.hand if hand is None else tuple(sorted(hand)),
                         state.loose if loose is None else tuple(sorted(loose)))

    def new_plays(self, state: TileState) -> Iterator[TileState]:
        """New plays of rack tiles alone."""
        hand = Counter(state.hand)
        room = self.room(state)
        for tiles in self.hand_plays:
            if len(tiles) <= room and covers(hand, tiles):
                yield self._with(state, (), (tiles,), hand=without(state.hand, tiles))

    def extensions(self, state: TileState, loose_too: bool, hand_too: bool = True) -> Iterator[TileState]:
        """One tile (from the rack, or a loose one) added to a play on the table."""
        tiles = sorted(set(state.hand)) if self.room(state) > 0 else []
        loose = sorted(set(state.loose)) if loose_too else []
        loose = [t for t in loose if t != FREED]  # a freed joker goes only into a new play
        enabling = [] if hand_too or not loose else tiles
        if not hand_too:
            tiles = []
        for i, play in enumerate(state.table):
            for tile in tiles:
                grown = self.grow(play, tile)
                if grown is not None:
                    yield self._with(state, (i,), (grown,), hand=without(state.hand, (tile,)))
            if FREED in play:
                continue  # a play holding a freed joker takes no table tile
            for tile in enabling:  # while tiles are loose: a rack tile that lets a loose tile join this play
                grown = self.grow(play, tile)
                if grown is not None and any(self.grow(grown, other) is not None for other in loose):
                    yield self._with(state, (i,), (grown,), hand=without(state.hand, (tile,)))
            for tile in loose:
                grown = self.grow(play, tile)
                if grown is not None:
                    yield self._with(state, (i,), (grown,), loose=without(state.loose, (tile,)))

    def loose_plays(self, state: TileState) -> Iterator[TileState]:
        """New plays of loose tiles with rack tiles (at least one loose tile in each)."""
        if not state.loose:
            return
        pool = state.hand + state.loose
        loose = Counter(plain(t) for t in state.loose)
        room = self.room(state)
        for anchor in sorted({plain(t) for t in state.loose}):
            if anchor == JOKER_ID:
                near = pool
            else:  # the tiles a play with this one can hold: its colour, its number, jokers
                near = tuple(t for t in pool if t == JOKER_ID or t // 16 == anchor // 16 or t % 16 == anchor % 16)
            for tiles in self.plays_of(near, anchor):
                need = Counter(tiles)
                if not need[anchor]:
                    continue
                from_loose = need & loose
                from_hand = need - from_loose
                if sum(from_hand.values()) > room or not covers(Counter(state.hand), from_hand.elements()):
                    continue
                freed = from_loose[JOKER_ID] if FREED in state.loose else 0
                if freed:
                    if sum(from_loose.values()) > freed:
                        continue  # a freed joker goes only into a play of rack tiles
                    tiles = without(tiles, (JOKER_ID,) * freed) + (FREED,) * freed
                gone = [FREED if t == JOKER_ID and freed else t for t in from_loose.elements()]
                yield self._with(state, (), (tiles,), hand=without(state.hand, from_hand.elements()),
                                 loose=without(state.loose, gone))

    def splits(self, state: TileState) -> Iterator[TileState]:
        """A run cut in two whole runs; a rack tile inserted where it doubles a tile of the run."""
        least = self.rules.run_min
        room = self.room(state)
        for i, play in enumerate(state.table):
            if len(play) < 2 * least - 1 or self.locked(play):
                continue
            for run in self.runs_of(play):
                for cut in range(least, len(run) - least + 1):
                    left, right = tuple(run[:cut]), tuple(run[cut:])
                    if self.whole(left) and self.whole(right) and self.makes_room(state, play, (left, right)):
                        yield self._with(state, (i,), (left, right))
                if room <= 0:
                    continue
                for k, tile in enumerate(run):
                    if is_joker(tile) or tile not in state.hand:
                        continue
                    left, right = tuple(run[:k + 1]), (tile,) + tuple(run[k + 1:])
                    if self.whole(left) and self.whole(right):
                        yield self._with(state, (i,), (left, right), hand=without(state.hand, (tile,)))

    def makes_room(self, state: TileState, play: Tiles, halves: tuple[Tiles, Tiles]) -> bool:
        """A split that lets a rack or loose tile join one of the halves where it did not fit the whole run."""
        for tile in set(state.hand + state.loose):
            if self.grow(play, tile) is not None:
                continue
            if any(self.grow(half, tile) is not None for half in halves):
                return True
        return False

    def usable(self, state: TileState, source: int, tile: int) -> bool:
        """A tile taken off play ``source`` can be used: in a new play with rack (or loose) tiles, or
        on another play."""
        if any(self.grow(play, tile) is not None for i, play in enumerate(state.table) if i != source):
            return True
        if self.room(state) <= 0:
            return False
        more = MAX_LOOSE - len(state.loose) - 1  # table tiles that may still be taken off to go with it
        key = (state.hand, state.loose, tile, more)
        found = self.usable_seen.get(key)
        if found is None:
            mine = Counter(state.hand + state.loose + (tile,))
            hand = set(state.hand)
            found = any(any(t in hand for t in tiles) and sum((need - mine).values()) <= more
                        for tiles, need in self.universe(tile))
            self.usable_seen[key] = found
        return found

    def universe(self, tile: int) -> list[tuple[Tiles, Counter[int]]]:
        """Every play holding ``tile`` that the tiles in sight (table and rack) could make."""
        found = self.universe_seen.get(tile)
        if found is None:
            found = [(tiles, Counter(tiles)) for tiles in self.plays_of(self.everything, tile)]
            self.universe_seen[tile] = found
        return found

    def take_offs(self, state: TileState) -> Iterator[TileState]:
        """A tile taken off a play that stays whole (an end of a run, a fourth of a group),
        or out of the middle of a long run that leaves two whole runs."""
        if len(state.loose) >= MAX_LOOSE:
            return
        least = self.rules.run_min
        for i, play in enumerate(state.table):
            if self.locked(play):
                continue
            for tile in sorted(set(play)):
                if is_joker(tile) and self.fixed:
                    continue  # a fixed joker leaves only when replaced
                rest = without(play, (tile,))
                if self.whole(rest) and self.usable(state, i, tile):
                    yield self._with(state, (i,), (rest,), loose=state.loose + (tile,))
            if len(play) < 2 * least + 1:
                continue
            for run in self.runs_of(play):
                for k in range(least, len(run) - least):
                    if is_joker(run[k]) and self.fixed:
                        continue
                    left, right = tuple(run[:k]), tuple(run[k + 1:])
                    if self.whole(left) and self.whole(right) and self.usable(state, i, plain(run[k])):
                        yield self._with(state, (i,), (left, right), loose=state.loose + (plain(run[k]),))

    def joker_swaps(self, state: TileState) -> Iterator[TileState]:
        """A table joker replaced by the rack tile it stands for; the joker is loose, to be used again."""
        if len(state.loose) > MAX_LOOSE or self.room(state) <= 0:
            return
        tiles = sorted({t for t in state.hand if not is_joker(t)})
        for i, play in enumerate(state.table):
            jokers = sorted({t for t in play if t == JOKER_ID or t >= PINNED})
            if not jokers:
                continue
            for joker in jokers:
                for tile in tiles:
                    if joker >= PINNED and PINNED + tile != joker \
                            and PINNED + tile not in self.alternatives.get(joker, ()):
                        continue  # a fixed joker is freed by the tile it stands for (in a book of three, either)
                    swapped = without(play, (joker,)) + (tile,)
                    if self.whole(swapped):
                        yield self._with(state, (i,), (swapped,), hand=without(state.hand, (tile,)),
                                         loose=state.loose + (FREED if self.new_play_only else JOKER_ID,))

    # ----------------------------------------------------------- rungs
    def simple_moves(self, state: TileState) -> Iterator[TileState]:
        yield from self.new_plays(state)
        if self.melded:
            yield from self.extensions(state, loose_too=False)

    def swap_moves(self, state: TileState) -> Iterator[TileState]:
        if not self.melded:
            yield from self.new_plays(state)
            return
        # Popped last first: the moves that play tiles are tried before those that only shift the table.
        # While tiles are loose, the player places them (or takes one more): a move of rack tiles alone
        # waits, as it could as well have come before the tile was taken (the same end states, far fewer orders).
        yield from self.splits(state)
        yield from self.take_offs(state)
        yield from self.joker_swaps(state)
        yield from self.loose_plays(state)
        if not state.loose:
            yield from self.new_plays(state)
        yield from self.extensions(state, loose_too=True, hand_too=not state.loose)

    def new_on_table(self, state: TileState) -> list[Tiles]:
        """The plays of ``state`` that were not on the table before (before the initial meld: the meld)."""
        start = Counter(self.start.table)
        new = []
        for play in state.table:
            if start[play] > 0:
                start[play] -= 1
            else:
                new.append(play)
        return new

    def acceptable(self, state: TileState) -> bool:
        if state.loose:
            return False
        if not self.melded and self.played(state) > 0:
            value = sum(self.rules.family.meld_value(self.cards(p), self.rules) for p in self.new_on_table(state))
            return value >= self.threshold
        return True

    # ------------------------------------------------------ rearrange-three
    def partitions(self, state: TileState, chosen: tuple[int, ...], nodes: Budget,
                   kept: int = PARTITIONS_KEPT) -> list[TileState]:
        """The chosen plays' tiles, the loose tiles and the rack, re-partitioned into whole plays holding every
        pooled table tile; the ``kept`` that play the most rack tiles, whole ones first, then those leaving one
        pooled tile loose (for the moves after)."""
        # Loose tiles (taken off the table before) join the pool as table tiles; a joker freed under
        # freed_joker_new_play_only stays loose, for a new play of rack tiles (loose_plays).
        table_tiles = Counter(t for i in chosen for t in state.table[i]) + Counter(t for t in state.loose if t != FREED)
        held = tuple(t for t in state.loose if t == FREED)
        # Only the rack tiles that could share a play with a pooled tile (its colour or its number; jokers).
        colours = {t // 16 for t in table_tiles if not is_joker(t)}
        numbers = {t % 16 for t in table_tiles if not is_joker(t)}
        wild = any(is_joker(t) for t in table_tiles)
        near = tuple(t for t in state.hand if wild or is_joker(t) or t // 16 in colours or t % 16 in numbers)
        candidates = self.plays_of(tuple(table_tiles.elements()) + near)
        others = [p for i, p in enumerate(state.table) if i not in chosen]
        room = self.room(state)
        found: dict[TileState, int] = {}
        holding: dict[int, list[tuple[Tiles, list[tuple[int, int]]]]] = {}  # the candidate plays holding each tile
        for tiles in candidates:
            need = sorted(Counter(tiles).items())
            for tile in set(tiles):
                holding.setdefault(tile, []).append((tiles, need))

        def walk(table_left: dict[int, int], hand_left: dict[int, int], plays: list[Tiles], used: int,
                 loose: Tiles) -> None:
            if not nodes.take():
                return
            left = [t for t, n in table_left.items() if n > 0]
            if not left:
                hand = tuple(sorted(t for t, n in hand_left.items() for _ in range(n)))
                found.setdefault(TileState(_table(others + plays), hand, tuple(sorted(loose + held))), used)
                return
            first = min(left)
            for tiles, need in holding.get(first, ()):
                extra = 0
                for tile, n in need:
                    have = table_left.get(tile, 0)
                    if have + hand_left.get(tile, 0) < n:
                        break
                    extra += max(0, n - have)
                else:
                    if used + extra > room:
                        continue
                    table_next, hand_next = dict(table_left), dict(hand_left)
                    for tile, n in need:
                        from_table = min(n, table_next.get(tile, 0))
                        table_next[tile] = table_next.get(tile, 0) - from_table
                        if n > from_table:
                            hand_next[tile] -= n - from_table
                    walk(table_next, hand_next, plays + [tiles], used + extra, loose)
            if len(loose) < LOOSE_IN_PARTITION:  # one tile left over, to go onto another play
                table_next = dict(table_left)
                table_next[first] -= 1
                walk(table_next, hand_left, plays, used, loose + (first,))

        walk(dict(table_tiles), dict(Counter(state.hand)), [], 0, ())
        ranked = sorted(found.items(), key=lambda item: -item[1])
        whole = [result for result, used in ranked if (used > 0 or state.loose) and not result.loose][:kept]
        loose = [result for result, used in ranked if (used > 0 or state.loose) and result.loose][:kept]
        return whole + loose
