"""House Rummy's human-like players (rules.md §5): melds, paid steals, jokers.

Every rung is a depth-first search over sequences of moves with a memo of
states (at most ``effort.states`` states), and proposes the best end states
it reaches (each finished with the best discard: the costliest card that is
neither hot nor warm), best first by its own count, which is the gain up to
a constant. A move that shares no card and no play with any other move
available is made at once, alone (every order makes it sooner or later), so
the search does not walk through every subset of independent moves. The
rungs differ in the moves they know:

- ``extend`` (easy, greedy): meld from the hand (plays of hand cards worth the
  meld cost together), then add hand cards to the plays of the mover's side
  and lay new plays of hand cards.
- ``steal-one`` (medium, greedy): and single steals: one card taken from
  another space's play (what is left of that play stays one whole play) into
  one of the mover's plays or a new play, paid for by one hand card (a new
  play: two hand cards; none where the play already holds a spare payment);
  laying hand cards off on any play (to go out); before melding, a joker on
  the table replaced by a hand card that keeps its play whole (the joker then
  serves the meld); after melding, a joker swapped for a hand card that keeps
  its play whole and laid again in the mover's space (paid for if stolen).
  This is the review's greedy player ("hand cards that extend a play or form
  a new one, each single steal paid by one hand card") made thorough.
- ``steal-and-shift`` (medium): and *trades*, a small search around one steal:
  one card, or two related cards from two plays, lifted from other spaces
  (the robbed play may be cut into two whole plays in its own space, as a
  melded player may rearrange any space), perhaps with one of the mover's
  plays taken apart, all laid out again with up to three related hand cards
  as one or two whole, paid plays. Trades are thought of at the start,
  right after the meld, after a trade, and where no simple move is left (at
  most ``TRADE_SEARCHES`` times in a turn); at most ``TRADES`` trades in a
  turn, each of at most ``TRADE_POOL`` cards.
- ``lookahead`` (hard, the strongest: rummy/ladder/house_lookahead.py): more
  and longer trades, robbed plays refilled or given a spare card, the mover's
  own plays taken apart (docs/ladder.md).

Every card on the table carries where it came from: its space before the
turn, the meld, or the hand after melding (only such cards pay for steals).
A move is made only when every play stays whole and paid for (at least as
many payment cards as cards stolen from other spaces) and no other space
loses more than 10 points per card stolen from it (no spite).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import combinations
from typing import ClassVar

from ..cards import cards_within
from ..family import HOUSE
from ..plays import Play, is_whole
from ..position import Position, Replacement, Turn
from ..scoring import penalty
from ..vocabulary import Tier
from . import Effort, Rung
from .house_codes import (
    MELD,
    PAY,
    Lift,
    TaggedPlay,
    card_of,
    code_of,
    distinct_subsets,
    lifted,
    plain_codes,
    related_cards,
)
from .moves import Temperatures, without

TRADES = 2  # the small searches (trades) the hard rung makes in one turn
TRADE_POOL = 11  # the most cards one trade lays out again
TRADE_SEARCHES = 150  # the states at which the hard rung looks for a trade, at most, in one turn
WORK_PER_STATE = 4  # plays a search may try, per state of its effort: a deterministic bound on its time
PROPOSALS = 200  # the best end states proposed (the ladder's checker judges them best first)

@dataclass(frozen=True)
class _State:
    plays: tuple[TaggedPlay, ...]
    hand: tuple[int, ...]  # sorted codes
    melded: bool
    meld: tuple[tuple[int, ...], ...] = ()
    replaced: tuple[tuple[str, int], ...] = ()
    trades: int = 0
    fresh: bool = True  # no simple move made since the start, the meld or the last trade

    def key(self, trades: int = TRADES) -> tuple[object, ...]:
        return (tuple(sorted((s, c) for s, c, _ in self.plays if c)), self.hand, self.melded, self.meld, self.trades,
                self.fresh and self.trades < trades)


class HouseSearch:
    """The search the House rungs share; ``steals`` and ``trades`` set the rung's reach."""

    def __init__(self, position: Position, steals: bool, trades: int) -> None:
        self.position = position
        self.rules = position.rules
        self.names = [p.name for p in position.players]
        self.me = self.names.index(position.to_move)
        side = position.mover.side
        self.ours = [p.side == side for p in position.players]
        self.steals = steals
        self.trades = trades
        self.cost = self.rules.meld_threshold(position.hand_number)
        mover = position.mover
        self.hot = [code_of(c) for c in mover.hot]
        self.warm = [code_of(c) for c in mover.warm]
        self.temperatures = Temperatures((code_of(c) for c in mover.hand or ()), self.hot, self.warm)
        self.classic = self.rules.hand_penalty_at_end
        self.bonus = float(HOUSE.first_out_bonus(position)) if position.first_out is None else 0.0
        self.penalty = {code: penalty(card_of(code), self.rules) for code in (0, *range(4, 56))}
        self._scores: dict[tuple[int, ...], int] = {}
        self._whole: dict[tuple[int, ...], bool] = {}
        self._spares: dict[tuple[tuple[int, ...], ...], list[tuple[int, int]]] = {}
        self.searches = 0  # trades thought about so far
        self.work = 0  # plays tried (``whole``): a big hand's state tries hundreds, a small one's a few
        self.trade_searches = TRADE_SEARCHES
        self.before_scores = [sum(self.score(plain_codes(code_of(c) for c in play.cards)) for play in p.plays)
                              for p in position.players]

    # ------------------------------------------------------------ helpers
    def score(self, cards: tuple[int, ...]) -> int:
        """The play's score, -1 when it is not whole (``cards`` sorted codes)."""
        found = self._scores.get(cards)
        if found is None:
            plain = tuple(card_of(c) for c in cards)
            found = HOUSE.play_score(plain, self.rules) if len(cards) >= 3 and is_whole(plain, self.rules) else -1
            self._scores[cards] = found
        return found

    def whole(self, tagged: tuple[int, ...] | list[int]) -> bool:
        self.work += 1
        key = tuple(tagged)
        found = self._whole.get(key)
        if found is None:
            found = self._whole[key] = self.score(plain_codes(key)) >= 0
        return found

    def paid(self, space: int, tagged: Iterable[int]) -> bool:
        stolen = pay = 0
        for x in tagged:
            tag = x >> 6
            if tag == PAY:
                pay += 1
            elif tag != MELD and tag != self.me and tag != space:
                stolen += 1
        return pay >= stolen

    def fair(self, plays: Iterable[TaggedPlay]) -> bool:
        """No spite: no other space loses more than 10 points per card stolen from it."""
        after = [0] * len(self.names)
        left = [0] * len(self.names)
        for space, tagged, _ in plays:
            if tagged:
                after[space] += self.score(plain_codes(tagged))
            for x in tagged:
                tag = x >> 6
                if tag < PAY and tag != space:
                    left[tag] += 1
        return all(self.before_scores[k] - after[k] <= 10 * left[k] for k in range(len(self.names)) if k != self.me)

    # ------------------------------------------------------------ moves
    def moves(self, state: _State) -> Iterator[_State]:
        if not state.melded:
            yield from self.meld_moves(state)
            if self.steals and not state.meld:
                yield from self.replacements(state)
            return
        simple = [replace(move, fresh=False) for move in self.simple_moves(state)]
        # A move that shares no card and no play with any other move now is made at once, alone: every
        # order of play makes it sooner or later, and trying it in each place of the order would only
        # walk through every subset of such moves.
        touched = [self.touched(state, move) for move in simple]
        counts = Counter(r for rs in touched for r in rs)
        alone = next((move for move, rs in zip(simple, touched) if all(counts[r] == 1 for r in rs)), None)
        yield from ([alone] if alone is not None else simple)
        # A trade is thought of at the start (or once melded, or after a trade) and where nothing simple is left.
        if state.trades < self.trades and (state.fresh or not simple) and self.searches < self.trade_searches:
            self.searches += 1
            yield from (replace(move, fresh=True) for move in self.trade_moves(state))

    def touched(self, state: _State, move: _State) -> set[tuple[str, int]]:
        """What a move changes: the plays, the spaces robbed, the hand cards used (by number)."""
        found: set[tuple[str, int]] = set()
        for index, (space, tagged, _) in enumerate(state.plays):
            if move.plays[index][1] != tagged:
                found.add(("play", index))
                if space != self.me:
                    found.add(("space", space))
        used = Counter(state.hand) - Counter(move.hand)
        found.update(("card", code * 4 + k) for code, n in used.items() for k in range(n))
        return found

    def simple_moves(self, state: _State) -> Iterator[_State]:
        yield from self.extensions(state)
        if self.steals:
            yield from self.single_steals(state)
            yield from self.joker_swaps(state)
            yield from self.own_moves(state)
            yield from self.double_steals(state)

    def meld_moves(self, state: _State) -> Iterator[_State]:
        """Lay one play of hand cards towards the meld (the meld is done once it is worth the cost)."""
        total = sum(self.score(p) for p in state.meld)
        for size in range(3, min(len(state.hand), 7) + 1):
            for combo in distinct_subsets(state.hand, size):
                value = self.score(combo)
                if value < 0:
                    continue
                play = (self.me, tuple(sorted(MELD * 64 + c for c in combo)), None)
                yield replace(state, plays=state.plays + (play,), hand=without(state.hand, combo),
                              melded=total + value >= self.cost, meld=state.meld + (combo,))

    def replacements(self, state: _State) -> Iterator[_State]:
        """Before melding: a joker on the table swapped for a hand card that keeps its play whole."""
        for index, (space, tagged, name) in enumerate(state.plays):
            jokers = [x for x in tagged if x & 63 == 0]
            if name is None or not jokers:
                continue
            rest = list(tagged)
            rest.remove(jokers[0])
            for card in sorted(set(c for c in state.hand if c)):
                if self.whole(rest + [card]):
                    plays = list(state.plays)
                    plays[index] = (space, tuple(sorted(rest + [space * 64 + card])), name)
                    hand = tuple(sorted(without(state.hand, [card]) + (0,)))
                    yield replace(state, plays=tuple(plays), hand=hand, replaced=state.replaced + ((name, card),))

    def extensions(self, state: _State) -> Iterator[_State]:
        """A hand card added to a play of the mover's side (with steals: any play); a new play of three hand cards."""
        for card in sorted(set(state.hand)):
            hand = without(state.hand, [card])
            for index, (space, tagged, name) in enumerate(state.plays):
                if not tagged or not (self.ours[space] or self.steals):
                    continue  # laying off on an opponent's play (to go out) is the steal rungs' move
                grown = tuple(sorted(tagged + (PAY * 64 + card,)))
                if self.whole(grown):
                    plays = list(state.plays)
                    plays[index] = (space, grown, name)
                    yield replace(state, plays=tuple(plays), hand=hand)
        for combo in distinct_subsets(state.hand, 3):
            if self.score(combo) >= 0:
                play = (self.me, tuple(PAY * 64 + c for c in combo), None)
                yield replace(state, plays=state.plays + (play,), hand=without(state.hand, combo))

    def place(self, state: _State, plays: list[TaggedPlay], hand: tuple[int, ...], items: tuple[int, ...],
              sizes: tuple[int, ...] = (0, 1, 2)) -> Iterator[_State]:
        """Put ``items`` (tagged cards off the table) into a play of the mover's, with 0-1 hand cards to pay,
        or into a new play with two hand cards."""
        near = sorted(set(c for c in hand if any(related_cards(c, x & 63) for x in items)))
        for index, (space, tagged, name) in enumerate(plays):
            if not self.ours[space] or not tagged or (0 not in sizes and 1 not in sizes):
                continue
            if not any(related_cards(x & 63, y & 63) for x in items for y in tagged):
                continue  # no card of the play can share a run or a book with them
            for size in sizes:
                if size > 1:
                    continue
                pays: list[tuple[int, ...]] = [()] if size == 0 else [(c,) for c in near]
                for pay in pays:
                    grown = tuple(sorted(tagged + items + tuple(PAY * 64 + c for c in pay)))
                    if self.whole(grown) and self.paid(space, grown):
                        new = list(plays)
                        new[index] = (space, grown, name)
                        if self.fair(new):
                            yield replace(state, plays=tuple(new), hand=without(hand, pay))
        if 2 in sizes:
            for pay in distinct_subsets([c for c in hand if c in near], 2):
                cards = tuple(sorted(items + tuple(PAY * 64 + c for c in pay)))
                if self.whole(cards) and self.paid(self.me, cards):
                    new = plays + [(self.me, cards, None)]
                    if self.fair(new):
                        yield replace(state, plays=tuple(new), hand=without(hand, pay))
            # Or one hand card and a spare card of the mover's own (the end of a run, a book's fourth).
            for own, spare in (self.spares(plays) if len(items) == 1 else ()):
                if not any(related_cards(spare & 63, x & 63) for x in items):
                    continue
                for card in near:
                    cards = tuple(sorted(items + (spare, PAY * 64 + card)))
                    if self.whole(cards) and self.paid(self.me, cards):
                        new = list(plays)
                        new[own] = (self.me, without(plays[own][1], [spare]), plays[own][2])
                        new.append((self.me, cards, None))
                        if self.fair(new):
                            yield replace(state, plays=tuple(new), hand=without(hand, [card]))

    def spares(self, plays: list[TaggedPlay] | tuple[TaggedPlay, ...]) -> list[tuple[int, int]]:
        """The mover's own table cards that can leave their play, the rest staying whole and paid: (play, card).
        A spare stolen this turn was paid for where it lies: the play it joins must pay for it again."""
        key = tuple(tagged if space == self.me else () for space, tagged, _ in plays)
        found = self._spares.get(key)
        if found is None:
            found = self._spares[key] = [(index, card) for index, tagged in enumerate(key) if len(tagged) > 3
                                         for card in sorted(set(tagged))
                                         if self.whole(rest := without(tagged, [card])) and self.paid(self.me, rest)]
        return found

    def own_moves(self, state: _State) -> Iterator[_State]:
        """A spare card of the mover's own moved onto another play of its side, or into a new play with two
        hand cards (rules.md §5: a melded player moves their own cards anywhere)."""
        for own, spare in self.spares(state.plays):
            rest = (self.me, without(state.plays[own][1], [spare]), state.plays[own][2])
            for index, (space, tagged, name) in enumerate(state.plays):
                if index != own and tagged and self.ours[space]:
                    grown = tuple(sorted(tagged + (spare,)))
                    if self.whole(grown) and self.paid(space, grown):  # a spare stolen this turn is paid again
                        plays = list(state.plays)
                        plays[own], plays[index] = rest, (space, grown, name)
                        yield replace(state, plays=tuple(plays))
            near = sorted(set(c for c in state.hand if related_cards(c, spare & 63)))
            for pay in distinct_subsets(near, 2):
                cards = tuple(sorted((spare,) + tuple(PAY * 64 + c for c in pay)))
                if self.whole(cards):
                    plays = list(state.plays)
                    plays[own] = rest
                    yield replace(state, plays=tuple(plays) + ((self.me, cards, None),), hand=without(state.hand, pay))

    def double_steals(self, state: _State) -> Iterator[_State]:
        """Two cards off other spaces' plays (each play left whole) into a new play with two hand cards."""
        lifts = []
        for index, (space, tagged, _) in enumerate(state.plays):
            if space != self.me:
                lifts += [(index, item) for item in sorted(set(tagged)) if self.whole(without(tagged, [item]))]
        for (a, x), (b, y) in combinations(lifts, 2):
            if not related_cards(x & 63, y & 63):
                continue
            plays = list(state.plays)
            if a == b:
                rest = without(plays[a][1], [x, y])
                if not self.whole(rest):
                    continue
                plays[a] = (plays[a][0], rest, plays[a][2])
            else:
                plays[a] = (plays[a][0], without(plays[a][1], [x]), plays[a][2])
                plays[b] = (plays[b][0], without(plays[b][1], [y]), plays[b][2])
            yield from self.place(state, plays, state.hand, (x, y), sizes=(2,))

    def single_steals(self, state: _State) -> Iterator[_State]:
        """One card from another space's play (the rest stays whole), into the mover's space, paid."""
        for index, (space, tagged, name) in enumerate(state.plays):
            if space == self.me:
                continue
            for item in sorted(set(tagged)):
                rest = list(tagged)
                rest.remove(item)
                if not self.whole(rest):
                    continue
                plays = list(state.plays)
                plays[index] = (space, tuple(rest), name)
                yield from self.place(state, plays, state.hand, (item,))

    def joker_swaps(self, state: _State) -> Iterator[_State]:
        """After melding: a joker in a play swapped for a hand card, and laid again in the mover's space."""
        for index, (space, tagged, name) in enumerate(state.plays):
            jokers = [x for x in tagged if x & 63 == 0]
            if not jokers:
                continue
            for joker in sorted(set(jokers)):
                rest = list(tagged)
                rest.remove(joker)
                for card in sorted(set(c for c in state.hand if c)):
                    swapped = tuple(sorted(rest + [PAY * 64 + card]))
                    if not self.whole(swapped):
                        continue
                    plays = list(state.plays)
                    plays[index] = (space, swapped, name)
                    yield from self.place(state, plays, without(state.hand, [card]), (joker,))

    # ------------------------------------------------------------ trades (the hard rung)
    def trade_moves(self, state: _State) -> Iterator[_State]:
        """One trade: one or two cards lifted from other spaces (the robbed space rearranged so that its plays
        stay whole), perhaps with one of the mover's plays, laid out again with hand cards as paid, whole plays."""
        lifts = list(self.cut_lifts(state))
        options: list[list[Lift]] = [[one] for one in lifts]
        options += [[a, b] for a, b in combinations(lifts, 2)
                    if not set(a[0]) & set(b[0]) and related_cards(a[1] & 63, b[1] & 63)]
        own = [None] + [i for i, (space, tagged, _) in enumerate(state.plays) if space == self.me and tagged]
        for chosen in options:
            taken = tuple(item for _, item, _, _ in chosen)
            base = lifted(state.plays, chosen)
            for mine in own:
                pool = taken + (state.plays[mine][1] if mine is not None else ())
                if len(pool) > TRADE_POOL:
                    continue
                plays = list(base)
                name = None
                if mine is not None:
                    name = state.plays[mine][2]
                    plays[mine] = (self.me, (), name)
                for layout, used in self.layouts(pool, state.hand, 1 if mine is None else 2):
                    new = list(plays)
                    if mine is not None:
                        new[mine] = (self.me, layout[0], name)
                        layout = layout[1:]
                    new += [(self.me, part, None) for part in layout]
                    if self.fair(new):
                        yield replace(state, plays=tuple(new), hand=without(state.hand, used), trades=state.trades + 1)

    def cut_lifts(self, state: _State) -> Iterator[Lift]:
        """A card of another space's play that can leave it: the rest stays one whole play, is cut into two
        whole plays, or is made whole again by a card moved in from another play of that space; every play
        the lift leaves stays paid (a card given to that space earlier this turn may need its payment)."""
        for lift in self.robbing_lifts(state):
            if all(self.paid(state.plays[index][0], tagged) for index, tagged in lift[2]) \
                    and all(self.paid(space, tagged) for space, tagged in lift[3]):
                yield lift

    def robbing_lifts(self, state: _State) -> Iterator[Lift]:
        for index, (space, tagged, _) in enumerate(state.plays):
            if space == self.me or not tagged:
                continue
            for item in sorted(set(tagged)):
                rest = list(tagged)
                rest.remove(item)
                if self.whole(rest):
                    yield (index,), item, ((index, tuple(rest)),), ()
                    continue
                for size in range(3, len(rest) - 2):
                    cut = next((first for first in combinations(rest, size)
                                if self.whole(first) and self.whole(without(tuple(rest), first))), None)
                    if cut is not None:
                        yield (index,), item, ((index, tuple(cut)),), ((space, without(tuple(rest), cut)),)
                        break
                for other, (where, cards, _) in enumerate(state.plays):
                    if where != space or other == index:
                        continue
                    for moved in sorted(set(cards)):
                        left = without(cards, [moved])
                        filled = tuple(sorted(rest + [moved]))
                        if self.whole(left) and self.whole(filled):
                            yield (index, other), item, ((index, filled), (other, left)), ()

    def layouts(self, required: tuple[int, ...], hand: tuple[int, ...],
                most: int) -> Iterator[tuple[list[tuple[int, ...]], tuple[int, ...]]]:
        """Ways to lay every card of ``required`` with some related hand cards as at most ``most`` whole, paid plays."""
        near = [c for c in hand if any(related_cards(c, x & 63) for x in required)]
        seen: set[tuple[object, ...]] = set()
        for size in range(0, min(3, len(near)) + 1):
            for pay in distinct_subsets(near, size):
                pool = tuple(sorted(required + tuple(PAY * 64 + c for c in pay)))
                if not 3 <= len(pool) <= TRADE_POOL:
                    continue
                for parts in self.partitions(pool, most):
                    key = (tuple(sorted(parts)), pay)
                    if key not in seen:
                        seen.add(key)
                        yield list(parts), pay

    def partitions(self, pool: tuple[int, ...], most: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        if not pool:
            yield ()
            return
        if most == 0 or len(pool) < 3:
            return
        head, tail = pool[0], pool[1:]
        card = head & 63
        # Only cards of the head's rank or suit (or jokers) can share a play with it.
        fits = tuple(x for x in tail if card == 0 or x & 63 == 0 or (x & 63) >> 2 == card >> 2 or x & 3 == card & 3)
        for size in range(2, min(len(fits), 5) + 1):
            for combo in distinct_subsets(fits, size):
                part = (head,) + combo
                if not (self.whole(part) and self.paid(self.me, part)):
                    continue
                for others in self.partitions(without(tail, combo), most - 1):
                    yield (part,) + others

    # ------------------------------------------------------------ search
    def run(self, effort: Effort) -> list[Position]:
        mover = self.position.mover
        start = _State(tuple((k, tuple(sorted(k * 64 + code_of(c) for c in play.cards)), f"{p.name}/{i}")
                             for k, p in enumerate(self.position.players) for i, play in enumerate(p.plays, 1)),
                       tuple(sorted(code_of(c) for c in mover.hand or ())), mover.melded)
        seen: set[tuple[object, ...]] = set()
        ends: dict[tuple[object, ...], tuple[float, _State]] = {}
        stack = [start]
        self.work = 0
        while stack and len(seen) < effort.states and self.work < effort.states * WORK_PER_STATE:
            state = stack.pop()
            key = state.key(self.trades)
            if key in seen:
                continue
            seen.add(key)
            value = self.value(state)
            if value is not None:
                end = key[:2]
                if end not in ends or value > ends[end][0]:
                    ends[end] = (value, state)
            stack.extend(self.moves(state))
        ranked = sorted(ends.values(), key=lambda vs: -vs[0])
        return [self.after(state) for _, state in ranked[: min(effort.turns, PROPOSALS)]]

    def discard(self, hand: tuple[int, ...]) -> int | None:
        free = [c for c in hand if self.temperatures.discardable(c)]
        return max(free, key=lambda c: (self.penalty[c], c)) if free else None

    def value(self, state: _State) -> float | None:
        """The rung's count of an end state (the gain up to a constant); None when it is no turn."""
        if not state.melded and state.meld:
            return None
        hand = list(state.hand)
        if self.temperatures.hot_left_unplayed(hand):
            return None
        card = self.discard(state.hand) if hand else None
        if card is not None:
            hand.remove(card)
        total = 0.0
        for space, tagged, _ in state.plays:
            if tagged:
                total += self.score(plain_codes(tagged)) * (1 if self.ours[space] else -1)
        if self.classic:
            total -= sum(self.penalty[c] for c in hand)
        if not hand:
            total += self.bonus
        return total

    def after(self, state: _State) -> Position:
        hand = list(state.hand)
        card = self.discard(state.hand) if hand else None
        if card is not None:
            hand.remove(card)
        spaces: list[list[Play]] = [[] for _ in self.names]
        for space, tagged, _ in state.plays:
            if tagged:
                spaces[space].append(Play(tuple(card_of(x & 63) for x in tagged)))
        kept = tuple(card_of(c) for c in hand)
        players = tuple(replace(p, plays=tuple(spaces[k]), hand=kept, melded=state.melded,
                                hot=cards_within(p.hot, Counter(kept)), warm=cards_within(p.warm, Counter(kept)))
                        if k == self.me else replace(p, plays=tuple(spaces[k]))
                        for k, p in enumerate(self.position.players))
        discard = card_of(card) if card is not None else None
        pile = self.position.discard_pile + ((discard,) if discard is not None else ())
        turn = Turn(meld=(tuple(Play(tuple(card_of(c) for c in p)) for p in state.meld)
                          if not self.position.mover.melded else None),
                    replaced=tuple(Replacement(name, card_of(c)) for name, c in state.replaced), discard=discard,
                    discard_declared=True)
        return replace(self.position, players=players, discard_pile=pile, turn=turn)


class HouseRung(Rung):
    steals: ClassVar[bool] = False
    trades: ClassVar[int] = 0
    search: ClassVar[type[HouseSearch]] = HouseSearch

    def turns(self, position: Position, effort: Effort) -> Iterable[Position]:
        return self.search(position, self.steals, self.trades).run(effort)


class Extend(HouseRung):
    name = "extend"
    tier = Tier.EASY
    summary = ("meld from your hand, then add hand cards to your side's plays and lay new plays; "
               "discard your costliest card")
    greedy = True


class StealOne(HouseRung):
    name = "steal-one"
    tier = Tier.MEDIUM
    summary = ("also steal one card at a time, paid by a hand card, "
               "and swap a joker for the card it stands for to reuse it")
    greedy = True
    steals = True


class StealAndShift(HouseRung):
    name = "steal-and-shift"
    tier = Tier.MEDIUM  # issue 29: a single planned trade is a medium idea; hard is the lookahead's
    summary = "plan a trade: steal two cards together or take one of your plays apart to lay it again around a steal"
    steals = True
    trades = TRADES


def _ladder() -> tuple[Rung, ...]:
    from .house_lookahead import Lookahead

    return (Extend(), StealOne(), StealAndShift(), Lookahead())


LADDER: tuple[Rung, ...] = _ladder()
