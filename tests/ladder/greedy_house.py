"""Simple one-pass greedy players, written apart from rummy.ladder on purpose (issue 29): the ladder's greedy
rungs must be at least as strong as each of them, and no shipped hard or expert puzzle may be within their
reach. Each family adds its own section (House: ``house_*``, tiles ``tile_*``, Robber ``robber_*``, lay-off
``layoff_*``)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations

from rummy.cards import Card, cards_within
from rummy.checker import check, turn_gain
from rummy.family import HOUSE
from rummy.plays import Play, is_whole
from rummy.position import Position, Replacement, Turn
from rummy.scoring import penalty

# ====================================================================== House Rummy
# A House player's table: plays as [space, [(card, origin)]], origin the space the card lay in before the
# turn, "pay" (a hand card played once melded: it pays for steals) or "meld". The players change nothing
# in the position; each returns the after-position of its turn, which the checker judges.

PAY, MELD = "pay", "meld"
Tagged = tuple[Card, str]


@dataclass
class _Table:
    pos: Position
    plays: list[tuple[str, list[Tagged]]]
    hand: list[Card]
    melded: bool
    meld: list[tuple[Card, ...]]
    replaced: list[Replacement]

    @classmethod
    def of(cls, pos: Position) -> _Table:
        plays = [(p.name, [(c, p.name) for c in play.cards]) for p in pos.players for play in p.plays]
        return cls(pos, plays, list(pos.mover.hand or ()), pos.mover.melded, [], [])

    def copy(self) -> _Table:
        return _Table(self.pos, [(s, list(c)) for s, c in self.plays], list(self.hand), self.melded,
                      list(self.meld), list(self.replaced))

    # ---------------------------------------------------------------- what a play may be
    def whole(self, cards: list[Tagged]) -> bool:
        return len(cards) >= 3 and is_whole(tuple(c for c, _ in cards), self.pos.rules)

    def paid(self, space: str, cards: list[Tagged]) -> bool:
        mover = self.pos.to_move
        stolen = sum(1 for _, o in cards if o not in (PAY, MELD, mover, space))
        return sum(1 for _, o in cards if o == PAY) >= stolen

    def fair(self) -> bool:
        """No spite: no other space loses more than 10 points per card stolen from it."""
        rules, mover = self.pos.rules, self.pos.to_move
        for player in self.pos.players:
            if player.name == mover:
                continue
            before = sum(HOUSE.play_score(play.cards, rules) for play in player.plays)
            after = sum(HOUSE.play_score(tuple(c for c, _ in cards), rules)
                        for s, cards in self.plays if s == player.name and cards)
            lost = sum(1 for s, cards in self.plays for _, o in cards if o == player.name and s != player.name)
            if before - after > 10 * lost:
                return False
        return True

    def value(self) -> int:
        """The count a greedy player watches: its side's table points less the others', less its hand."""
        rules, side = self.pos.rules, self.pos.mover.side
        ours = {p.name for p in self.pos.players if p.side == side}
        total = sum(HOUSE.play_score(tuple(c for c, _ in cards), rules) * (1 if s in ours else -1)
                    for s, cards in self.plays if cards)
        return total - sum(penalty(c, rules) for c in self.hand)

    # ---------------------------------------------------------------- single steps
    def lay_offs(self, card: Card) -> Iterator[_Table]:
        """``card`` from the hand onto any play it fits (any space, once melded)."""
        for k, (space, cards) in enumerate(self.plays):
            grown = cards + [(card, PAY)]
            if cards and self.whole(grown):
                after = self.copy()
                after.plays[k] = (space, grown)
                after.hand.remove(card)
                yield after

    def new_plays(self, size: int = 3) -> Iterator[_Table]:
        for combo in combinations(self.hand, size):
            if is_whole(combo, self.pos.rules):
                after = self.copy()
                after.plays.append((self.pos.to_move, [(c, PAY) for c in combo]))
                for c in combo:
                    after.hand.remove(c)
                yield after

    def steals(self, card: Card | None = None) -> Iterator[_Table]:
        """One table card off another space's play (the rest stays whole) into a play of any space with one
        hand card to pay (``card`` when given), or into a new play of the mover's with two hand cards."""
        mover = self.pos.to_move
        for k, (owner, cards) in enumerate(self.plays):
            if owner == mover:
                continue
            for i, taken in enumerate(cards):
                rest = cards[:i] + cards[i + 1:]
                if not self.whole(rest):
                    continue
                for j, (space, target) in enumerate(self.plays):
                    if j == k or not target:
                        continue
                    for pay in [card] if card is not None else list(dict.fromkeys(self.hand)):
                        grown = target + [taken, (pay, PAY)]
                        if self.whole(grown) and self.paid(space, grown):
                            after = self.copy()
                            after.plays[k] = (owner, rest)
                            after.plays[j] = (space, grown)
                            after.hand.remove(pay)
                            if after.fair():
                                yield after
                for a, b in combinations(self.hand, 2):
                    if card is not None and card not in (a, b):
                        continue
                    new = [taken, (a, PAY), (b, PAY)]
                    if self.whole(new):
                        after = self.copy()
                        after.plays[k] = (owner, rest)
                        after.plays.append((mover, new))
                        after.hand.remove(a)
                        after.hand.remove(b)
                        if after.fair():
                            yield after

    def spares(self) -> Iterator[tuple[int, int]]:
        """The mover's own table cards that can leave their play (the rest stays whole): (play, card index)."""
        for k, (space, cards) in enumerate(self.plays):
            if space == self.pos.to_move:
                for i in range(len(cards)):
                    if self.whole(cards[:i] + cards[i + 1:]):
                        yield k, i

    def steals_with_own(self) -> Iterator[_Table]:
        """One card stolen into a new play with one hand card to pay and one of the mover's own spare cards."""
        mover = self.pos.to_move
        for k, (owner, cards) in enumerate(self.plays):
            if owner == mover:
                continue
            for i, taken in enumerate(cards):
                rest = cards[:i] + cards[i + 1:]
                if not self.whole(rest):
                    continue
                for m, n in self.spares():
                    own = self.plays[m][1][n]
                    for pay in dict.fromkeys(self.hand):
                        new = [taken, own, (pay, PAY)]
                        if self.whole(new):
                            after = self.copy()
                            after.plays[k] = (owner, rest)
                            after.plays[m] = (mover, self.plays[m][1][:n] + self.plays[m][1][n + 1:])
                            after.plays.append((mover, new))
                            after.hand.remove(pay)
                            if after.fair():
                                yield after

    def two_steals(self) -> Iterator[_Table]:
        """Two cards stolen (each play left whole) into a new play with two hand cards to pay."""
        mover = self.pos.to_move
        lifts = [(k, i) for k, (owner, cards) in enumerate(self.plays) if owner != mover
                 for i in range(len(cards)) if self.whole(cards[:i] + cards[i + 1:])]
        for (k, i), (m, n) in combinations(lifts, 2):
            if k == m and not self.whole([c for j, c in enumerate(self.plays[k][1]) if j not in (i, n)]):
                continue
            taken = [self.plays[k][1][i], self.plays[m][1][n]]
            for a, b in combinations(self.hand, 2):
                new = taken + [(a, PAY), (b, PAY)]
                if self.whole(new):
                    after = self.copy()
                    after.plays[k] = (self.plays[k][0], [c for j, c in enumerate(self.plays[k][1])
                                                         if j != i and not (k == m and j == n)])
                    if k != m:
                        after.plays[m] = (self.plays[m][0], self.plays[m][1][:n] + self.plays[m][1][n + 1:])
                    after.plays.append((mover, new))
                    after.hand.remove(a)
                    after.hand.remove(b)
                    if after.fair():
                        yield after

    def own_moves(self) -> Iterator[_Table]:
        """A spare card of the mover's moved onto another play of its side, or into a new play with two hand cards."""
        mover, side = self.pos.to_move, self.pos.mover.side
        ours = {p.name for p in self.pos.players if p.side == side}
        for k, i in self.spares():
            card = self.plays[k][1][i]
            rest = self.plays[k][1][:i] + self.plays[k][1][i + 1:]
            for j, (space, target) in enumerate(self.plays):
                if j != k and space in ours and target and self.whole(target + [card]):
                    after = self.copy()
                    after.plays[k] = (mover, rest)
                    after.plays[j] = (space, target + [card])
                    yield after
            for a, b in combinations(self.hand, 2):
                if self.whole([card, (a, PAY), (b, PAY)]):
                    after = self.copy()
                    after.plays[k] = (mover, rest)
                    after.plays.append((mover, [card, (a, PAY), (b, PAY)]))
                    after.hand.remove(a)
                    after.hand.remove(b)
                    yield after

    def joker_swaps(self) -> Iterator[_Table]:
        """Once melded: a table joker swapped for a hand card, the joker laid on a play of the mover's."""
        mover = self.pos.to_move
        for k, (space, cards) in enumerate(self.plays):
            for i, (joker, origin) in enumerate(cards):
                if not joker.is_joker:
                    continue
                for card in dict.fromkeys(self.hand):
                    swapped = cards[:i] + cards[i + 1:] + [(card, PAY)]
                    if not self.whole(swapped):
                        continue
                    for j, (mine, target) in enumerate(self.plays):
                        if mine != mover or j == k or not target:
                            continue
                        grown = target + [(joker, origin)]
                        if self.whole(grown) and self.paid(mine, grown):
                            after = self.copy()
                            after.plays[k] = (space, swapped)
                            after.plays[j] = (mine, grown)
                            after.hand.remove(card)
                            if after.fair():
                                yield after

    def replacements(self) -> Iterator[_Table]:
        """Before melding: a table joker replaced by a hand card (the joker comes to the hand)."""
        for k, (space, cards) in enumerate(self.plays):
            for i, (joker, origin) in enumerate(cards):
                if not joker.is_joker:
                    continue
                for card in dict.fromkeys(self.hand):
                    swapped = cards[:i] + cards[i + 1:] + [(card, origin)]
                    if self.whole(swapped):
                        after = self.copy()
                        after.plays[k] = (space, swapped)
                        after.hand.remove(card)
                        after.hand.append(joker)
                        number = sum(1 for s, c in self.plays[:k + 1] if s == space and c)
                        after.replaced.append(Replacement(f"{space}/{number}", card))
                        yield after

    def steps(self) -> Iterator[_Table]:
        """Every single step a melded greedy player knows that gets somewhere: it plays a hand card or raises
        the count it watches (a spare card moved between the mover's own plays alone does neither, and a
        player who took such steps could move it back and forth for ever)."""
        here = (len(self.hand), self.value())
        for after in self._every_step():
            if len(after.hand) < here[0] or after.value() > here[1]:
                yield after

    def _every_step(self) -> Iterator[_Table]:
        for card in dict.fromkeys(self.hand):
            yield from self.lay_offs(card)
        yield from self.new_plays()
        yield from self.steals()
        yield from self.joker_swaps()
        yield from self.steals_with_own()
        yield from self.two_steals()
        yield from self.own_moves()

    # ---------------------------------------------------------------- the meld
    def meld_plays(self) -> list[tuple[Card, ...]]:
        rules = self.pos.rules
        found = []
        for size in range(min(len(self.hand), 7), 2, -1):
            found += [combo for combo in combinations(self.hand, size) if is_whole(combo, rules)]
        return found

    def meld_greedily(self, order: Callable[[list[tuple[Card, ...]]], list[tuple[Card, ...]]]) -> bool:
        """Lay plays of hand cards in ``order`` (each while its cards are left) until they are worth the cost."""
        rules = self.pos.rules
        cost = rules.meld_threshold(self.pos.hand_number)
        hand = list(self.hand)
        chosen: list[tuple[Card, ...]] = []
        for combo in order(self.meld_plays()):
            if all(hand.count(c) >= combo.count(c) for c in combo):
                chosen.append(combo)
                for c in combo:
                    hand.remove(c)
                if sum(HOUSE.play_score(p, rules) for p in chosen) >= cost:
                    self.hand = hand
                    self.meld = chosen
                    self.plays += [(self.pos.to_move, [(c, MELD) for c in p]) for p in chosen]
                    self.melded = True
                    return True
        return False

    # ---------------------------------------------------------------- the end of the turn
    def finish(self) -> Position:
        """The after-position: the costliest card that is neither hot nor warm discarded."""
        pos, mover = self.pos, self.pos.mover
        free = [c for c in self.hand if c not in mover.hot and c not in mover.warm]
        discard = max(free, key=lambda c: penalty(c, pos.rules)) if free else None
        hand = list(self.hand)
        if discard is not None:
            hand.remove(discard)
        players = []
        for p in pos.players:
            plays = tuple(Play(tuple(c for c, _ in cards)) for s, cards in self.plays if s == p.name and cards)
            if p.name == mover.name:
                kept = Counter(hand)
                p = replace(p, hand=tuple(hand), melded=self.melded, hot=cards_within(p.hot, kept),
                            warm=cards_within(p.warm, kept))
            players.append(replace(p, plays=plays))
        turn = Turn(meld=tuple(Play(p) for p in self.meld) if not mover.melded else None,
                    replaced=tuple(self.replaced), discard=discard, discard_declared=True)
        return replace(pos, players=tuple(players), discard_pile=pos.discard_pile + ((discard,) if discard else ()),
                       turn=turn)


def _start(pos: Position, biggest: bool, rng: random.Random | None) -> _Table | None:
    """Before melding: replace every joker a hand card can (first fit), then meld (biggest plays first, or in
    a random order); None when the mover cannot meld (the turn is then only the discard)."""
    table = _Table.of(pos)
    if table.melded:
        return table
    while True:
        step = next(table.replacements(), None)
        if step is None:
            break
        table = step

    def order(plays: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
        if rng is not None:
            plays = list(plays)
            rng.shuffle(plays)
            return plays
        return sorted(plays, key=lambda p: -HOUSE.play_score(p, pos.rules)) if biggest else plays

    return table if table.meld_greedily(order) else None


def _judged(pos: Position, table: _Table | None) -> Fraction | None:
    after = (table or _Table.of(pos)).finish()
    try:
        if not check(pos, after).legal:
            return None
        return Fraction(turn_gain(pos, after))
    except ValueError:
        return None


def house_first_fit(pos: Position, seed: int) -> Fraction | None:
    """Hand cards in a random order, each laid off on the first play it fits, else stolen with (the first
    card it can steal with, paid), until a whole pass lays nothing; new plays of three hand cards; discard."""
    rng = random.Random(seed)
    table = _start(pos, biggest=False, rng=rng)
    if table is not None:
        laid = True
        while laid:
            laid = False
            hand = list(table.hand)
            rng.shuffle(hand)
            for card in hand:
                if card not in table.hand:
                    continue
                step = next(table.lay_offs(card), None) or next(table.steals(card), None)
                if step is not None:
                    table, laid = step, True
            step = (next(table.new_plays(), None) or next(table.joker_swaps(), None)
                    or next(table.steals_with_own(), None) or next(table.two_steals(), None))
            if step is not None:
                table, laid = step, True
    return _judged(pos, table)


def house_best_gain(pos: Position) -> Fraction | None:
    """The biggest meld, then at every step the single step (lay-off, new play, steal, joker swap) that
    gains most now, until none is left."""
    table = _start(pos, biggest=True, rng=None)
    while table is not None:
        best = max(table.steps(), key=lambda t: t.value(), default=None)
        if best is None:
            break
        table = best
    return _judged(pos, table)


def house_steal_first(pos: Position, seed: int) -> Fraction | None:
    """The biggest meld, then every steal that can be paid (in a random order of the steals found), then
    lay-offs and new plays, repeated until nothing is left."""
    rng = random.Random(seed)
    table = _start(pos, biggest=True, rng=None)
    while table is not None:
        steals = (list(table.steals()) + list(table.joker_swaps()) + list(table.steals_with_own())
                  + list(table.two_steals()))
        if not steals:
            steals = list(table.steps())
        if not steals:
            break
        table = rng.choice(steals)
    return _judged(pos, table)


def house_lay_everything(pos: Position, seed: int) -> Fraction | None:
    """Biggest plays first: the meld, then new plays of the most hand cards, then lay off every card, then
    steals in a random order."""
    rng = random.Random(seed)
    table = _start(pos, biggest=True, rng=None)
    while table is not None:
        step = None
        for size in range(min(len(table.hand), 7), 2, -1):
            step = next(table.new_plays(size), None)
            if step is not None:
                break
        if step is None:
            step = next((s for c in table.hand for s in table.lay_offs(c)), None)
        if step is None:
            found = (list(table.steals()) + list(table.joker_swaps()) + list(table.steals_with_own())
                     + list(table.two_steals()))
            step = rng.choice(found) if found else None
        if step is None:
            break
        table = step
    return _judged(pos, table)


def house_players(pos: Position, seeds: int = 4) -> Iterator[tuple[str, Fraction | None]]:
    """Every simple House greedy player's gain on ``pos`` (None: its turn was no legal turn)."""
    yield "best-gain", house_best_gain(pos)
    for seed in range(seeds):
        yield f"first-fit/{seed}", house_first_fit(pos, seed)
        yield f"steal-first/{seed}", house_steal_first(pos, seed)
        yield f"lay-everything/{seed}", house_lay_everything(pos, seed)


def house_greedy_best(pos: Position, seeds: int = 4) -> tuple[Fraction | None, str | None]:
    """The best gain any simple House greedy player reaches, and which player."""
    best: tuple[Fraction | None, str | None] = (None, None)
    for name, gain in house_players(pos, seeds):
        if gain is not None and (best[0] is None or gain > best[0]):
            best = (gain, name)
    return best
