"""Simple one-pass greedy players, written apart from rummy.ladder (issue 29's contract): the ladder's greedy
rungs must do at least as well as each of them, and none of them may reach the optimum of a shipped hard or
expert puzzle. Each family has its own section (House ``house_*``, tiles ``tile_*``, Robber ``robber_*``,
lay-off ``layoff_*``); a player takes a play-phase position and a ``random.Random`` (the order it tries
cards and plays in) and returns the after-position of its turn, or None when it ends with no legal turn.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import combinations

from rummy.cards import Card, cards_within
from rummy.plays import Play, PlayName, is_whole
from rummy.position import Attached, Position, Turn
from rummy.rules import Ruleset
from rummy.scoring import penalty

# ============================================================ lay-off rummy (straight, traditional)
# Four players, each a habit a casual player has; every one plays while anything fits (within the rules:
# one meld a turn in the presets, lay-offs after a meld where the rules say so, never the last card under
# keep_one_to_discard) and ends by discarding the costliest card it may discard (a warm card never; a turn
# left holding only warm cards is no turn).
#
# - layoff_lay_off_first: lays off every card that fits (cards and plays in random order), then melds the
#   biggest meld left, then lays off again;
# - layoff_biggest_meld_first: melds the biggest meld first, then lays off;
# - layoff_first_fit: takes the cards one by one in random order: a card that fits a play is laid off on the
#   first such play, a card that fits none is melded in the biggest meld holding it; passes until nothing moves;
# - layoff_best_gain_now: always the move that sheds the most points now (a meld or one card laid off).


@dataclass
class _LayoffTurn:
    position: Position
    hand: list[Card]
    grown: dict[str, list[Card]] = field(default_factory=dict)  # table play name -> cards laid off on it
    melds: list[list[Card]] = field(default_factory=list)

    @classmethod
    def start(cls, position: Position) -> _LayoffTurn:
        return cls(position, [c.plain() for c in position.mover.hand or ()])

    # ------------------------------------------------------------ rules
    @property
    def rules(self) -> Ruleset:
        return self.position.rules

    def may_play(self, count: int) -> bool:
        return not self.rules.keep_one_to_discard or len(self.hand) > count

    def may_meld(self) -> bool:
        limit = self.rules.plays_per_turn
        return limit is None or len(self.melds) < limit

    def may_lay_off_on_table(self) -> bool:
        return not self.rules.layoff_needs_meld or self.position.mover.melded or bool(self.melds)

    # ------------------------------------------------------------ what fits
    def targets(self, rng: random.Random) -> list[tuple[str, list[Card]]]:
        """Every play a card may be laid off on now, in random order: ("table", name) or ("meld", index)."""
        found: list[tuple[str, list[Card]]] = []
        if self.may_lay_off_on_table():
            for name in self.position.named_plays():
                found.append((name, list(self.position.play_with_layoffs(name)) + self.grown.get(name, [])))
        for index, meld in enumerate(self.melds):
            found.append((f"#{index}", meld))
        rng.shuffle(found)
        return found

    def fitting(self, card: Card, rng: random.Random) -> str | None:
        for name, cards in self.targets(rng):
            if is_whole(tuple(cards) + (card,), self.rules):
                return name
        return None

    def hand_melds(self) -> list[tuple[Card, ...]]:
        found: set[tuple[Card, ...]] = set()
        shortest = min(self.rules.book_min, self.rules.run_min)
        hand = sorted(self.hand, key=lambda c: (c.rank, c.suit))
        for size in range(shortest, len(hand) + 1):
            for combo in combinations(hand, size):
                if is_whole(combo, self.rules):
                    found.add(combo)
        return sorted(found, key=lambda m: [(c.rank, c.suit) for c in m])

    # ------------------------------------------------------------ moves
    def lay_off(self, card: Card, target: str) -> None:
        self.hand.remove(card)
        if target.startswith("#"):
            self.melds[int(target[1:])].append(card)
        else:
            self.grown.setdefault(target, []).append(card)

    def meld(self, cards: tuple[Card, ...]) -> None:
        for card in cards:
            self.hand.remove(card)
        self.melds.append(list(cards))

    def lay_off_all(self, rng: random.Random) -> bool:
        moved = False
        while True:
            cards = list(self.hand)
            rng.shuffle(cards)
            for card in cards:
                target = self.fitting(card, rng) if self.may_play(1) else None
                if target is not None:
                    self.lay_off(card, target)
                    moved = True
                    break
            else:
                return moved

    def meld_biggest(self, rng: random.Random, holding: Card | None = None) -> bool:
        if not self.may_meld():
            return False
        melds = [m for m in self.hand_melds() if (holding is None or holding in m) and self.may_play(len(m))]
        if not melds:
            return False
        most = max(len(m) for m in melds)
        self.meld(rng.choice([m for m in melds if len(m) == most]))
        return True

    # ------------------------------------------------------------ the end
    def finished(self) -> Position | None:
        position, mover = self.position, self.position.mover
        warm = Counter(c.plain() for c in mover.warm)
        hot = Counter(c.plain() for c in mover.hot)
        if any(hot[c] > 0 for c in self.hand):
            return None
        discard = None
        if self.hand:
            held = Counter(self.hand)
            allowed = [c for c in self.hand if not (warm[c] and warm[c] >= held[c])]
            if not allowed:
                return None
            discard = max(allowed, key=lambda c: penalty(c, self.rules))
            self.hand.remove(discard)
        kept = cards_within(mover.hand or (), Counter(self.hand))
        still = Counter(c.plain() for c in kept)
        layoffs = list(mover.layoffs)
        for name, cards in self.grown.items():
            index = next((k for k, a in enumerate(layoffs) if a.target == name), None)
            if index is None:
                layoffs.append(Attached(PlayName(name), tuple(cards)))
            else:
                layoffs[index] = Attached(layoffs[index].target, layoffs[index].cards + tuple(cards))
        melds = tuple(Play(tuple(m)) for m in self.melds)
        player = replace(mover, hand=kept, melded=mover.melded or bool(melds), plays=mover.plays + melds,
                         layoffs=tuple(layoffs), hot=cards_within(mover.hot, still), warm=cards_within(mover.warm, still))
        pile = position.discard_pile + ((discard,) if discard is not None else ())
        turn = Turn(meld=melds, replaced=(), discard=discard, discard_declared=True)
        return replace(position, discard_pile=pile, turn=turn).replace_player(player)


def layoff_lay_off_first(position: Position, rng: random.Random) -> Position | None:
    turn = _LayoffTurn.start(position)
    while True:
        turn.lay_off_all(rng)
        if not turn.meld_biggest(rng):
            return turn.finished()


def layoff_biggest_meld_first(position: Position, rng: random.Random) -> Position | None:
    turn = _LayoffTurn.start(position)
    while turn.meld_biggest(rng):
        pass
    turn.lay_off_all(rng)
    while turn.meld_biggest(rng):  # lay-offs only after a meld (layoff_needs_meld): none was possible before
        turn.lay_off_all(rng)
    return turn.finished()


def layoff_first_fit(position: Position, rng: random.Random) -> Position | None:
    turn = _LayoffTurn.start(position)
    moved = True
    while moved:
        moved = False
        cards = list(turn.hand)
        rng.shuffle(cards)
        for card in cards:
            if card not in turn.hand or not turn.may_play(1):
                continue
            target = turn.fitting(card, rng)
            if target is not None:
                turn.lay_off(card, target)
                moved = True
            elif turn.meld_biggest(rng, holding=card):
                moved = True
    return turn.finished()


def layoff_best_gain_now(position: Position, rng: random.Random) -> Position | None:
    turn = _LayoffTurn.start(position)
    rules = position.rules
    while True:
        moves: list[tuple[int, tuple[Card, ...], str | None]] = []
        if turn.may_meld():
            moves += [(sum(penalty(c, rules) for c in m), m, None) for m in turn.hand_melds() if turn.may_play(len(m))]
        if turn.may_play(1):
            for card in sorted(set(turn.hand), key=lambda c: (c.rank, c.suit)):
                target = turn.fitting(card, rng)
                if target is not None:
                    moves.append((penalty(card, rules), (card,), target))
        if not moves:
            return turn.finished()
        most = max(points for points, _, _ in moves)
        _, cards, target = rng.choice([m for m in moves if m[0] == most])
        if target is None:
            turn.meld(cards)
        else:
            turn.lay_off(cards[0], target)


LAYOFF_PLAYERS = (layoff_lay_off_first, layoff_biggest_meld_first, layoff_first_fit, layoff_best_gain_now)
