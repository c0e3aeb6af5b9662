"""Robber Rummy's human-like players (rules.md §7): the play phase after the draw.

In Robber Rummy every card laid is a gain: a card added to one's own play
scores and leaves the hand, a card added to an opponent's play takes the
whole play. A search over *every* order of *every* single addition is a
search over every turn, and would solve every puzzle. So a greedy player is
defined by where it puts a card, not by the order it tries:

**A greedy Robber player** plays one card at a time, in any order, and puts
each card on a place that a simple rule picks *looking at that card and the
table as it is now*: the place where it gains the most now, its best steal
now, the first play it fits in table order, the biggest play or the biggest
steal it fits, or the best run it fits (runs count double); or it lays a new play of three hand
cards (any of them, at any time, grown later). It never holds a card back
from such a place, and ends with the best discard (the costliest card that
may be discarded, which is always right once the plays are chosen). The
greedy rungs search every order of those choices (a depth-first search with
a memo of states, within ``effort.states``), so each is at least as strong as
any one simple greedy player of its moves (tests/ladder/greedy_players.py).

What is left for insight is a card put where none of those rules puts it (a
*hold-back*: below its best place now, on a smaller run, a partner's or one's
own play) because of what it opens for the cards after it: steals that
interact (a play stolen and then grown by cards that fit only after the
first; which of two plays a shared card takes), and going out through such a
chain. Keeping a fitting card in hand never gains in one turn (it scores
more played than discarded, and plays only grow), nor does another discard.

- ``extend`` (easy): add hand cards to one's own plays, lay new plays from
  the hand.
- ``steal-one`` (medium): and add hand cards to an opponent's play, taking
  it, one card at a time.
- ``steal-chain`` (medium): and one hold-back in the turn, where it opens a
  follower: a hand card that then fits the grown play and did not before.
- ``lookahead`` (hard): up to ``LOOKAHEAD_HOLDS`` hold-backs in one turn,
  each opening a follower, tried in that order (the simple places first, then
  a hold-back, then the chain it opens), within its own fixed budget of
  ``LOOKAHEAD_STATES`` states.

Each end state is finished with the best discard and proposed, best first
by the rung's own count.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import combinations
from typing import ClassVar

from ..cards import Card
from ..family import ROBBER
from ..plays import Play, is_whole
from ..position import Position, Turn
from ..scoring import penalty
from ..vocabulary import Tier
from . import Effort, Rung
from .moves import Temperatures

CHAIN_HOLDS = 1  # steal-chain's hold-backs in one turn
LOOKAHEAD_HOLDS = 3  # lookahead's hold-backs in one turn
LOOKAHEAD_STATES = 40_000  # lookahead's budget: states expanded (a count, never the clock)

# A play on the table during the search: its owner and its cards (sorted).
TablePlay = tuple[str, tuple[Card, ...]]


@dataclass(frozen=True)
class _State:
    plays: tuple[TablePlay, ...]  # the plays before the turn, in their order, then new ones
    hand: tuple[Card, ...]  # sorted
    holds: int  # non-greedy placements used


class RobberSearch:
    """The depth-first search the Robber rungs share; ``steals`` and ``holds`` set the rung's reach."""

    def __init__(self, position: Position, steals: bool, holds: int) -> None:
        self.position = position
        self.rules = position.rules
        self.mover = position.to_move
        self.side = position.mover.side
        self.sides = {p.name: p.side for p in position.players}
        self.steals = steals
        self.holds = holds
        self._scores: dict[tuple[Card, ...], int] = {}
        mover = position.mover
        self.hot = tuple(c.plain() for c in mover.hot)
        self.warm = tuple(c.plain() for c in mover.warm)
        self.temperatures = Temperatures((c.plain() for c in mover.hand or ()), self.hot, self.warm)

    def score(self, cards: tuple[Card, ...]) -> int:
        found = self._scores.get(cards)
        if found is None:
            found = ROBBER.play_score(cards, self.rules) if is_whole(cards, self.rules) else -1
            self._scores[cards] = found
        return found

    def ours(self, owner: str) -> bool:
        return self.sides[owner] == self.side

    # ------------------------------------------------------------ moves
    def placements(self, state: _State, card: Card) -> list[tuple[int, int, bool]]:
        """(play index, gain now, simple) for every play ``card`` can join; ``simple`` when one of the
        greedy rules picks it: the most gain now, the best steal now, the first play it fits in table
        order, the biggest play or steal it fits (by its score now), the best run it fits."""
        found: list[tuple[int, int, int, bool, bool]] = []  # index, gain, old score, stolen, run
        for index, (owner, cards) in enumerate(state.plays):
            ours = self.ours(owner)
            if not self.steals and not ours:
                continue
            grown = tuple(sorted(cards + (card,)))
            new = self.score(grown)
            if new < 0:
                continue
            old = self.score(cards)
            gain = (new - old if ours else new + old) + penalty(card, self.rules)
            found.append((index, gain, old, not ours, len({c.rank for c in grown}) > 1))
        if not found:
            return []
        simple = {found[0][0]}
        for pick in (lambda f: True, lambda f: f[3], lambda f: f[4]):  # anywhere, a steal, a run: the most gain
            chosen = [f for f in found if pick(f)]
            if chosen:
                top = max(f[1] for f in chosen)
                simple.update(f[0] for f in chosen if f[1] == top)
        for chosen in (found, [f for f in found if f[3]]):  # the biggest play, the biggest steal
            if chosen:
                biggest = max(f[2] for f in chosen)
                simple.update(f[0] for f in chosen if f[2] == biggest)
        return [(index, gain, index in simple) for index, gain, *_ in found]

    def opens(self, state: _State, index: int, card: Card, rest: tuple[Card, ...]) -> bool:
        """Whether ``card`` on play ``index`` lets a hand card in: one that fits the grown play, not the play now."""
        _, cards = state.plays[index]
        grown = cards + (card,)
        return any(self.score(tuple(sorted(grown + (c,)))) >= 0 and self.score(tuple(sorted(cards + (c,)))) < 0
                   for c in set(rest))

    def melds(self, hand: tuple[Card, ...]) -> Iterator[tuple[tuple[Card, ...], int]]:
        seen: set[tuple[Card, ...]] = set()
        for combo in combinations(hand, 3):
            if combo in seen:
                continue
            seen.add(combo)
            score = self.score(combo)
            if score >= 0:
                yield combo, score + sum(penalty(c, self.rules) for c in combo)

    def moves(self, state: _State) -> Iterator[_State]:
        """The moves from ``state``, hold-backs first: the search pops the last, so simple places and melds
        are tried first and a hold-back after them (the order a player tries them)."""
        hand = state.hand
        simple_moves: list[_State] = []
        held: list[_State] = []
        for card in sorted(set(hand)):
            rest = list(hand)
            rest.remove(card)
            for index, _gain, simple in self.placements(state, card):
                if not simple and (state.holds >= self.holds or not self.opens(state, index, card, tuple(rest))):
                    continue
                _, cards = state.plays[index]
                plays = list(state.plays)
                plays[index] = (self.mover, tuple(sorted(cards + (card,))))
                moved = _State(tuple(plays), tuple(rest), state.holds + (0 if simple else 1))
                (simple_moves if simple else held).append(moved)
        for combo, _ in self.melds(hand):
            rest = list(hand)
            for c in combo:
                rest.remove(c)
            simple_moves.append(_State(state.plays + ((self.mover, combo),), tuple(rest), state.holds))
        yield from held
        yield from reversed(simple_moves)

    # ------------------------------------------------------------ search
    def run(self, effort: Effort) -> list[tuple[int, Position]]:
        start = _State(tuple((p.name, tuple(sorted(play.cards))) for p in self.position.players for play in p.plays),
                       tuple(sorted(self.position.mover.hand or ())), 0)
        seen: set[tuple[object, ...]] = set()
        ends: dict[tuple[object, ...], tuple[int, _State]] = {}
        stack = [start]
        while stack and len(seen) < effort.states:
            state = stack.pop()
            key = (tuple(sorted(state.plays)), state.hand, state.holds)
            if key in seen:
                continue
            seen.add(key)
            value = self.value(state)
            if value is not None:
                ends[key[:2]] = max(ends.get(key[:2], (value, state)), (value, state), key=lambda vs: vs[0])
            stack.extend(self.moves(state))
        ranked = sorted(ends.values(), key=lambda vs: -vs[0])
        return [(value, self.after(state)) for value, state in ranked[: effort.turns]]

    def discard(self, hand: tuple[Card, ...]) -> Card | None:
        free = [c for c in hand if self.temperatures.discardable(c)]
        return max(free, key=lambda c: (penalty(c, self.rules), c)) if free else None

    def value(self, state: _State) -> int | None:
        """The rung's count of an end state (the gain up to a constant); None when it is no turn."""
        if self.temperatures.hot_left_unplayed(state.hand):
            return None
        hand = list(state.hand)
        if hand:
            card = self.discard(state.hand)
            if card is None:
                return None
            hand.remove(card)
        total = -sum(penalty(c, self.rules) for c in hand)
        for owner, cards in state.plays:
            total += self.score(cards) * (1 if self.ours(owner) else -1)
        return total

    def after(self, state: _State) -> Position:
        hand = list(state.hand)
        card = self.discard(state.hand) if hand else None
        if card is not None:
            hand.remove(card)
        owned: dict[str, list[Play]] = {p.name: [] for p in self.position.players}
        for owner, cards in state.plays:
            owned[owner].append(Play(cards))
        players = tuple(replace(p, plays=tuple(owned[p.name]), melded=p.melded or bool(owned[p.name]), hand=tuple(hand))
                        if p.name == self.mover else replace(p, plays=tuple(owned[p.name]))
                        for p in self.position.players)
        pile = self.position.discard_pile + ((card,) if card is not None else ())
        return replace(self.position, players=players, discard_pile=pile,
                       turn=Turn(meld=(), replaced=(), discard=card, discard_declared=True))


class RobberRung(Rung):
    steals: ClassVar[bool] = False
    holds: ClassVar[int] = 0
    states: ClassVar[int | None] = None  # a rung's own fixed budget; None: the effort's

    def turns(self, position: Position, effort: Effort) -> Iterable[Position]:
        budget = effort if self.states is None else replace(effort, states=self.states)
        return [after for _, after in RobberSearch(position, self.steals, self.holds).run(budget)]


class Extend(RobberRung):
    name = "extend"
    tier = Tier.EASY
    summary = "add cards to your own plays and lay new plays from your hand, each card where it scores most"
    greedy = True


class StealOne(RobberRung):
    name = "steal-one"
    tier = Tier.MEDIUM
    summary = ("also add cards to opponents' plays to take them, each card where a simple rule puts it now "
               "(most gain, best steal, first fit, biggest play, best run), in any order")
    greedy = True
    steals = True


class StealChain(RobberRung):
    name = "steal-chain"
    tier = Tier.MEDIUM
    summary = "put one card where it gains less now because the next card can then follow it"
    steals = True
    holds = CHAIN_HOLDS


class Lookahead(RobberRung):
    name = "lookahead"
    tier = Tier.HARD
    summary = "look ahead over up to three cards put where they gain less now, each opening a chain for the next"
    steals = True
    holds = LOOKAHEAD_HOLDS
    states = LOOKAHEAD_STATES


LADDER: tuple[Rung, ...] = (Extend(), StealOne(), StealChain(), Lookahead())
