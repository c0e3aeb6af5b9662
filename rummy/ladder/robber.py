"""Robber Rummy's human-like players (rules.md §7): the play phase after the draw.

In Robber Rummy every card laid is a gain: a card added to one's own play
scores and leaves the hand, a card added to an opponent's play takes the
whole play. A search over *every* order of single additions is therefore a
search over every turn, and would solve every puzzle. The greedy rungs play
like a greedy person instead: each card goes where it gains the most *now*
(every place tied for the most is tried), the cards are tried in every order
and every meld the hand holds is tried (a depth-first search with a memo of
states, within ``effort.states``). What a greedy player never does is put a
card somewhere worth less now so that a later card gains more: that is the
third rung's small search ("keep this card back for the bigger play").

- ``extend`` (easy): add hand cards to one's own plays, lay new plays from
  the hand.
- ``steal-one`` (medium): and add hand cards to an opponent's play, taking
  it, one card at a time.
- ``steal-chain`` (hard): and, at most ``HOLD_BACKS`` times in a turn, put a
  card in a place that is not its best one now (a cheaper play, a meld
  instead of a steal), so that the chain of steals that follows gains more.

Each end state is finished with the best discard (the costliest card that
may be discarded) and proposed, best first by the rung's own count.
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

HOLD_BACKS = 2  # the non-greedy placements the hard rung allows in one turn

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
    def placements(self, state: _State, card: Card) -> list[tuple[int, int]]:
        """(play index, gain now) for every play ``card`` can join."""
        found = []
        for index, (owner, cards) in enumerate(state.plays):
            if not self.steals and not self.ours(owner):
                continue
            grown = tuple(sorted(cards + (card,)))
            new = self.score(grown)
            if new < 0:
                continue
            old = self.score(cards)
            gain = new - old if self.ours(owner) else new + old
            found.append((index, gain + penalty(card, self.rules)))
        return found

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
        hand = state.hand
        for card in sorted(set(hand)):
            rest = list(hand)
            rest.remove(card)
            options = self.placements(state, card)
            if not options:
                continue
            top = max(g for _, g in options)
            for index, gain in options:
                greedy = gain == top
                if not greedy and state.holds >= self.holds:
                    continue
                _, cards = state.plays[index]
                plays = list(state.plays)
                plays[index] = (self.mover, tuple(sorted(cards + (card,))))
                yield _State(tuple(plays), tuple(rest), state.holds + (0 if greedy else 1))
        for combo, _ in self.melds(hand):
            rest = list(hand)
            for c in combo:
                rest.remove(c)
            yield _State(state.plays + ((self.mover, combo),), tuple(rest), state.holds)

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

    def turns(self, position: Position, effort: Effort) -> Iterable[Position]:
        return [after for _, after in RobberSearch(position, self.steals, self.holds).run(effort)]


class Extend(RobberRung):
    name = "extend"
    tier = Tier.EASY
    summary = "add cards to your own plays and lay new plays from your hand, each card where it scores most"
    greedy = True


class StealOne(RobberRung):
    name = "steal-one"
    tier = Tier.MEDIUM
    summary = "also add cards to opponents' plays to take them, each card where it gains most now, in any order"
    greedy = True
    steals = True


class StealChain(RobberRung):
    name = "steal-chain"
    tier = Tier.HARD
    summary = "plan a chain of steals: put a card or two where they gain less now, to take a bigger play with the rest"
    steals = True
    holds = HOLD_BACKS


LADDER: tuple[Rung, ...] = (Extend(), StealOne(), StealChain())
