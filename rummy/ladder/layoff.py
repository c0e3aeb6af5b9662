"""Lay-off rummy's human-like players (rules.md §8): lay-off, best-meld, keep-for-layoff, lookahead.

A turn is melds from the hand (at most ``plays_per_turn``), cards laid off on
plays on the table (anyone's, and the melds just made), and one discard
unless the hand is empty. Each rung searches the orders of these moves depth
first with a memo of the states seen (``Effort.states`` bounds it), keeping the
rule options: ``plays_per_turn``, ``layoff_needs_meld`` (lay-offs only once
the mover has melded, or melds this turn), ``keep_one_to_discard`` (the last
card is never played), warm cards never discarded, hot cards always played.

With one pack and plays that only grow, two lay-offs never compete for a
place, so a greedy turn is decided by its melds; the rungs differ in which
melds they see and whether they hold a card back (docs/ladder.md):

- ``lay-off`` (easy, greedy): plays while anything fits, laying off first:
  it melds only when no card of the hand fits a play on the table (so a
  lay-off may take a card a meld needs), and then only the biggest melds in
  sight, jokers only where a card is missing; discards the costliest card.
- ``best-meld`` (medium, greedy): plays while anything fits, in every order,
  melding as the simple greedy players meld (the biggest meld the hand holds
  at that moment, the richest, the biggest holding a card that fits no play);
  discards the costliest card left. At least as strong as each of them.
- ``keep-for-layoff`` (medium): best-meld's turns, then one card kept back to
  discard: a card taken back off a play (the play stays whole), or the
  costliest card it may discard set aside before playing (what a player does
  when the card left is warm).
- ``lookahead`` (hard): the whole turn within the budget: every meld the hand
  can make, every order, any card kept back, every discard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass, replace

from ..cards import Card, cards_within
from ..plays import Play, PlayName
from ..position import Attached, Position, Turn
from ..vocabulary import Tier
from . import Effort, Rung
from .moves import (
    Budget,
    Cards,
    Temperatures,
    Wholes,
    card_key,
    cards_key,
    contains,
    depth_first,
    minus,
    norm,
    plays_from,
)


@dataclass(frozen=True)
class LayoffState:
    grown: tuple[Cards, ...]  # cards laid off on each play on the table (by ``LayoffGame.names``)
    melds: tuple[Cards, ...]  # the melds made this turn (with the cards laid off on them), sorted
    hand: Cards


def state_key(state: LayoffState) -> Hashable:
    return (tuple(cards_key(g) for g in state.grown), tuple(cards_key(m) for m in state.melds), cards_key(state.hand))


class LayoffGame:
    def __init__(self, position: Position) -> None:
        self.position = position
        self.rules = position.rules
        self.wholes = Wholes(self.rules)
        mover = position.mover
        self.hand0 = norm(c.plain() for c in mover.hand or ())
        self.names = list(position.named_plays())
        self.units = [norm(position.play_with_layoffs(name)) for name in self.names]
        self.melded = mover.melded
        self.warm = Counter(c.plain() for c in mover.warm)
        self.hot = Counter(c.plain() for c in mover.hot)
        self.temperatures = Temperatures(self.hand0, self.hot.elements(), self.warm.elements())
        self.start = LayoffState(tuple(() for _ in self.names), (), self.hand0)
        self.candidates: dict[tuple[Hashable, str], list[Cards]] = {}
        self.aside = False  # a card is set aside to discard (keep_one_to_discard is then kept whatever is played)

    def penalty(self, card: Card) -> int:
        return self.rules.family.penalty(card, self.rules)

    # ----------------------------------------------------------- melds
    def melds_in(self, hand: Cards, kind: str) -> list[Cards]:
        """The melds ``hand`` makes: ``all`` (jokers anywhere), ``gaps`` (jokers only where no card held fits),
        ``biggest`` (gap melds no other gap meld contains)."""
        key = (cards_key(hand), kind)
        found = self.candidates.get(key)
        if found is not None:
            return found
        every = plays_from(Counter(hand), self.rules, self.wholes)
        if kind == "all":
            found = every
        else:
            gaps = [m for m in every if self._gap_only(m, hand)]
            if kind == "gaps":
                found = gaps
            else:
                found = [m for m in gaps if not any(len(o) > len(m) and contains(Counter(o), m) for o in gaps)]
        self.candidates[key] = found
        return found

    def _gap_only(self, meld: Cards, hand: Cards) -> bool:
        if not any(c.is_joker for c in meld):
            return True
        spare = Counter(hand) - Counter(meld)
        rest = minus(meld, (Card.joker(),))
        return not any(self.wholes(rest + (card,)) for card in spare if not card.is_joker)

    def meld_points(self, meld: Cards) -> int:
        return sum(self.penalty(c) for c in meld)

    def fits_somewhere(self, state: LayoffState, card: Card) -> bool:
        """Whether ``card`` can be laid off now, on a table play or a meld made this turn."""
        if self.may_lay_off(state) and any(self.wholes(u + g + (card,)) for u, g in zip(self.units, state.grown)):
            return True
        return any(self.wholes(m + (card,)) for m in state.melds)

    def greedy_melds(self, state: LayoffState) -> list[Cards]:
        """The melds a greedy player lays: the biggest the hand holds, the one worth the most points, and for
        each card that fits no play now the biggest meld holding it (first-fit)."""
        melds = [m for m in self.melds_in(state.hand, "all") if self.may_play(state, len(m))]
        if not melds:
            return []
        biggest = max(len(m) for m in melds)
        richest = max(self.meld_points(m) for m in melds)
        chosen = [m for m in melds if len(m) == biggest or self.meld_points(m) == richest]
        for card in sorted(set(state.hand), key=card_key):
            if card.is_joker or self.fits_somewhere(state, card):
                continue
            holding = [m for m in melds if card in m]
            if holding:
                most = max(len(m) for m in holding)
                chosen += [m for m in holding if len(m) == most]
        unique = {cards_key(m): m for m in chosen}
        return [unique[k] for k in sorted(unique)]

    # ----------------------------------------------------------- moves
    def may_play(self, state: LayoffState, count: int) -> bool:
        return not self.rules.keep_one_to_discard or self.aside or len(state.hand) > count

    def may_lay_off(self, state: LayoffState) -> bool:
        return not self.rules.layoff_needs_meld or self.melded or bool(state.melds)

    def moves(self, state: LayoffState, kind: str, lays_off_first: bool = False) -> Iterator[LayoffState]:
        """The states one move away; ``lays_off_first``: while a card fits a play on the table, only such lay-offs."""
        cards = sorted(set(state.hand), key=card_key)
        if self.may_play(state, 1):
            if self.may_lay_off(state):
                laid = False
                for i, unit in enumerate(self.units):
                    for card in cards:
                        if self.wholes(unit + state.grown[i] + (card,)):
                            grown = state.grown[:i] + (norm(state.grown[i] + (card,)),) + state.grown[i + 1:]
                            laid = True
                            yield LayoffState(grown, state.melds, minus(state.hand, (card,)))
                if laid and lays_off_first:
                    return
            for j, meld in enumerate(state.melds):  # one's own new melds grow
                for card in cards:
                    if self.wholes(meld + (card,)):
                        melds = state.melds[:j] + (norm(meld + (card,)),) + state.melds[j + 1:]
                        yield LayoffState(state.grown, tuple(sorted(melds, key=cards_key)), minus(state.hand, (card,)))
        limit = self.rules.plays_per_turn
        if limit is None or len(state.melds) < limit:
            seen = self.greedy_melds(state) if kind == "greedy" else self.melds_in(state.hand, kind)
            for meld in seen:
                if self.may_play(state, len(meld)):
                    melds = tuple(sorted(state.melds + (meld,), key=cards_key))
                    yield LayoffState(state.grown, melds, minus(state.hand, meld))

    def ends(self, state: LayoffState, every_discard: bool) -> Iterator[tuple[int, LayoffState, Card | None]]:
        """The legal ends of a state: (gain, state, discard)."""
        if self.temperatures.hot_left_unplayed(state.hand):
            return  # a hot card must be played
        played = sum(self.penalty(c) for c in self.hand0) - sum(self.penalty(c) for c in state.hand)
        if not state.hand:
            yield played, state, None
            return
        allowed = [c for c in sorted(set(state.hand), key=card_key) if self.temperatures.discardable(c)]
        allowed.sort(key=lambda c: -self.penalty(c))
        for card in allowed if every_discard else allowed[:1]:
            yield played + self.penalty(card), state, card

    def taken_back(self, state: LayoffState) -> Iterator[LayoffState]:
        """``state`` with one card taken back into the hand: a card laid off or melded whose play stays whole
        without it (what a player does who finds the card left may not be discarded: undo a play, discard it)."""
        for i, (unit, grown) in enumerate(zip(self.units, state.grown)):
            for card in sorted(set(grown), key=card_key):
                rest = minus(grown, (card,))
                if self.wholes(unit + rest):
                    yield LayoffState(state.grown[:i] + (rest,) + state.grown[i + 1:], state.melds,
                                      norm(state.hand + (card,)))
        for j, meld in enumerate(state.melds):
            for card in sorted(set(meld), key=card_key):
                rest = minus(meld, (card,))
                if self.wholes(rest):
                    melds = tuple(sorted(state.melds[:j] + (rest,) + state.melds[j + 1:], key=cards_key))
                    yield LayoffState(state.grown, melds, norm(state.hand + (card,)))

    def after(self, state: LayoffState, discard: Card | None) -> Position:
        position = self.position
        mover = position.mover
        hand = list(state.hand)
        if discard is not None:
            hand = list(minus(tuple(hand), (discard,)))
        kept = cards_within(mover.hand or (), Counter(hand))
        still = Counter(c.plain() for c in kept)
        layoffs = list(mover.layoffs)
        for name, added in zip(self.names, state.grown):
            if not added:
                continue
            index = next((k for k, a in enumerate(layoffs) if a.target == name), None)
            if index is None:
                layoffs.append(Attached(PlayName(name), added))
            else:
                layoffs[index] = Attached(layoffs[index].target, layoffs[index].cards + added)
        melds = tuple(Play(m) for m in state.melds)
        player = replace(mover, hand=kept, melded=mover.melded or bool(melds), plays=mover.plays + melds,
                         layoffs=tuple(layoffs), hot=cards_within(mover.hot, still),
                         warm=cards_within(mover.warm, still))
        pile = position.discard_pile + ((discard,) if discard is not None else ())
        turn = Turn(meld=melds, replaced=(), discard=discard, discard_declared=True)
        return replace(position, discard_pile=pile, turn=turn).replace_player(player)


class LayoffRung(Rung):
    melds: str = "all"  # which melds the player sees (LayoffGame.melds_in, or "greedy": greedy_melds)
    plays_all: bool = False  # proposes only end states where nothing more can be played
    lays_off_first: bool = False  # melds only when no card of the hand fits a play on the table
    every_discard: bool = True
    takes_back: bool = False  # also: a maximal end with one card taken back (and discarded); a card set aside first
    proposals: int = 64  # end states proposed, best first (each judged by the checker)

    def turns(self, position: Position, effort: Effort) -> Iterable[Position]:
        game = LayoffGame(position)

        def children(state: LayoffState) -> Iterator[LayoffState]:
            return game.moves(state, self.melds, self.lays_off_first)

        ends: dict[Hashable, tuple[int, LayoffState, Card | None]] = {}

        def keep(state: LayoffState, every_discard: bool) -> None:
            for gain, end, discard in game.ends(state, every_discard):
                hand_left = minus(end.hand, (discard,)) if discard is not None else end.hand
                key = (gain, cards_key(hand_left), discard is None)
                if key not in ends:
                    ends[key] = (gain, end, discard)

        budget = Budget(effort.states)
        for state in depth_first([game.start], children, state_key, budget, set()):
            if self.plays_all and next(iter(children(state)), None) is not None:
                continue
            keep(state, self.every_discard)
            if self.takes_back:
                for back in game.taken_back(state):
                    keep(back, False)
        ranked = sorted(ends.values(), key=lambda item: -item[0])
        found = [game.after(state, discard) for _, state, discard in ranked[:min(effort.turns, self.proposals)]]
        if self.takes_back:
            found += self._set_aside(position, effort, budget)
        return found

    def _set_aside(self, position: Position, effort: Effort, budget: Budget) -> list[Position]:
        """The costliest card the player may discard, set aside first; the rest played as this rung plays."""
        game = LayoffGame(position)
        allowed = [c for c in set(game.hand0) if not c.is_joker and game.temperatures.discardable(c)]
        if not allowed:
            return []
        aside = max(allowed, key=lambda c: (game.penalty(c), card_key(c)))
        game.aside = True
        start = LayoffState(game.start.grown, (), minus(game.hand0, (aside,)))

        def children(state: LayoffState) -> Iterator[LayoffState]:
            return game.moves(state, self.melds, self.lays_off_first)

        best: tuple[int, LayoffState] | None = None
        for state in depth_first([start], children, state_key, budget, set()):
            if next(iter(children(state)), None) is not None or game.temperatures.hot_left_unplayed(state.hand):
                continue
            played = sum(game.penalty(c) for c in game.hand0) - sum(game.penalty(c) for c in state.hand)
            if best is None or played > best[0]:
                best = (played, state)
        if best is None:
            return []
        state = best[1]
        return [game.after(LayoffState(state.grown, state.melds, norm(state.hand + (aside,))), aside)]


class LayOff(LayoffRung):
    name = "lay-off"
    tier = Tier.EASY
    greedy = True
    summary = ("lays off every card that fits a play on the table, then melds the biggest melds in the hand, "
               "and discards the costliest card left")
    melds = "biggest"
    plays_all = True
    lays_off_first = True
    every_discard = False


class BestMeld(LayoffRung):
    name = "best-meld"
    tier = Tier.MEDIUM
    greedy = True
    summary = ("plays all it can in every order, melding as a greedy player melds (the biggest meld, the one "
               "worth the most, or the biggest holding a card that fits nowhere), and discards the costliest card left")
    melds = "greedy"
    plays_all = True
    every_discard = False


class KeepForLayoff(LayoffRung):
    name = "keep-for-layoff"
    tier = Tier.MEDIUM
    greedy = False
    summary = ("plays as best-meld, and keeps one card back to discard: a card taken back off a play, "
               "or the costliest card it may discard set aside before playing")
    melds = "greedy"
    plays_all = True
    every_discard = False
    takes_back = True


class Lookahead(LayoffRung):
    name = "lookahead"
    tier = Tier.HARD
    greedy = False
    summary = ("weighs the whole turn: every meld the hand can make (the smaller and the less obvious ones too), "
               "what each leaves to lay off, which card to keep back, and which card to discard")
    melds = "all"
    plays_all = False
    every_discard = True


LADDER: tuple[Rung, ...] = (LayOff(), BestMeld(), KeepForLayoff(), Lookahead())
