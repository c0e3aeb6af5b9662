"""House Rummy's strong rung, ``lookahead`` (issue 29): a bounded lookahead over the moves a good player tries.

It plays every move of the rungs below (rummy/ladder/house.py: melds, lay-offs, single and double steals,
the mover's spare cards moved, joker swaps) and thinks of bigger *trades*, up to ``TRADES`` in a turn,
each a small plan a player makes at the table:

- up to three related cards lifted off other spaces together (a steal chain: the first stolen card
  makes room for or pays beside the next), each robbed play left whole, cut in two whole plays, made
  whole again by a card moved in from another play of its space, or by a *gift*: a spare card of the
  mover's own moved into the robbed play (a sacrifice: the mover's card goes into another's space so
  that the steal becomes legal);
- with none, one or two of the mover's own plays taken apart (runs into books and back, a joker
  freed from the mover's play and reused);
- all laid out again with up to ``TRADE_HAND`` related hand cards as whole, paid plays of the mover's.

Trades are tried in the order a player tries them: one lifted card before two, two before three, no
own play before one, one before two, few hand cards before many. The budget is counts, never the
clock: ``TRADE_SEARCHES`` states at which trades are thought about, ``TRADE_OPTIONS`` lift choices and
``TRADE_LAYOUTS`` layouts at each, and the rung's ``Effort.states`` (shared with its simple moves).
What it does not do (so ``expert`` exists): a fourth trade, four cards lifted in one trade, gifts to
two robbed plays of one trade, a layout of more than ``TRADE_POOL`` cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations

from ..position import Position
from ..vocabulary import Tier
from .house import HouseRung, HouseSearch, _State
from .house_codes import PAY, Lift, distinct_subsets, lifted, related_cards
from .moves import without

TRADES = 3  # trades in one turn
TRADE_POOL = 13  # the most cards one trade lays out again
TRADE_HAND = 4  # the most hand cards one trade adds
TRADE_SEARCHES = 120  # states at which trades are thought about, at most, in one turn
TRADE_OPTIONS = 60  # lift choices tried at one such state (the simplest first)
TRADE_LAYOUTS = 600  # layouts tried at one such state


class LookaheadSearch(HouseSearch):
    """HouseSearch with the lookahead's trades."""

    def __init__(self, position: Position, steals: bool, trades: int) -> None:
        super().__init__(position, steals, trades)
        self.trade_searches = TRADE_SEARCHES

    def lifts(self, state: _State) -> list[Lift]:
        """Every card that can leave another space: the steal-and-shift lifts, and gifts (the robbed play
        made whole again by a spare card of the mover's)."""
        found = list(self.cut_lifts(state))
        spares = list(self.spares(state.plays))
        for index, (space, tagged, _) in enumerate(state.plays):
            if space == self.me or not tagged:
                continue
            for item in sorted(set(tagged)):
                rest = without(tagged, [item])
                if self.whole(rest):
                    continue
                for own, spare in spares:
                    if not related_cards(spare & 63, item & 63):
                        continue
                    filled = tuple(sorted(rest + (spare,)))
                    if self.whole(filled) and self.paid(space, filled):  # a spare stolen this turn is paid again
                        left = without(state.plays[own][1], [spare])
                        found.append(((index, own), item, ((index, filled), (own, left)), ()))
        return found

    def options(self, lifts: list[Lift]) -> Iterator[list[Lift]]:
        """Lift choices, simplest first: one card, two related cards, three cards chained by relation."""
        yield from ([one] for one in lifts)
        pairs = [(a, b) for a, b in combinations(range(len(lifts)), 2)
                 if not set(lifts[a][0]) & set(lifts[b][0]) and related_cards(lifts[a][1] & 63, lifts[b][1] & 63)]
        yield from ([lifts[a], lifts[b]] for a, b in pairs)
        for a, b in pairs:
            for c in range(b + 1, len(lifts)):
                third = lifts[c]
                if set(third[0]) & (set(lifts[a][0]) | set(lifts[b][0])):
                    continue
                if related_cards(third[1] & 63, lifts[a][1] & 63) or related_cards(third[1] & 63, lifts[b][1] & 63):
                    yield [lifts[a], lifts[b], third]

    def trade_moves(self, state: _State) -> Iterator[_State]:
        lifts = self.lifts(state)
        mine = [i for i, (space, tagged, _) in enumerate(state.plays) if space == self.me and tagged]
        layouts = 0
        for count, chosen in enumerate(self.options(lifts)):
            if count >= TRADE_OPTIONS or layouts >= TRADE_LAYOUTS:
                return
            taken = tuple(item for _, item, _, _ in chosen)
            touched = {i for lift in chosen for i in lift[0]}
            base = lifted(state.plays, chosen)
            related = [i for i in mine if i not in touched
                       and any(related_cards(x & 63, y & 63) for x in state.plays[i][1] for y in taken)]
            owns: list[tuple[int, ...]] = [()] + [(i,) for i in related] + list(combinations(related, 2))
            for own in owns:
                pool = taken + tuple(x for i in own for x in base[i][1])
                if len(pool) > TRADE_POOL:
                    continue
                plays = list(base)
                for i in own:
                    plays[i] = (self.me, (), plays[i][2])
                for layout, used in self.wide_layouts(pool, state.hand, len(own) + 1):
                    layouts += 1
                    new = list(plays)
                    for i, part in zip(own, layout):
                        new[i] = (self.me, part, new[i][2])
                    new += [(self.me, part, None) for part in layout[len(own):]]
                    if self.fair(new):
                        yield replace(state, plays=tuple(new), hand=without(state.hand, used), trades=state.trades + 1)
                    if layouts >= TRADE_LAYOUTS:
                        return

    def wide_layouts(self, required: tuple[int, ...], hand: tuple[int, ...],
                     most: int) -> Iterator[tuple[list[tuple[int, ...]], tuple[int, ...]]]:
        """Ways to lay every card of ``required`` with up to ``TRADE_HAND`` related hand cards as whole, paid plays:
        at least ``most - 1`` (one for each own play taken apart) and at most ``most + 1`` of them."""
        near = [c for c in hand if any(related_cards(c, x & 63) for x in required)]
        seen: set[tuple[object, ...]] = set()
        for size in range(0, min(TRADE_HAND, len(near)) + 1):
            for pay in distinct_subsets(near, size):
                pool = tuple(sorted(required + tuple(PAY * 64 + c for c in pay)))
                if not 3 <= len(pool) <= TRADE_POOL:
                    continue
                for parts in self.partitions(pool, most + 1):
                    if len(parts) < most - 1:
                        continue
                    key = (tuple(sorted(parts)), pay)
                    if key not in seen:
                        seen.add(key)
                        yield list(parts), pay


class Lookahead(HouseRung):
    name = "lookahead"
    tier = Tier.HARD
    summary = ("look a few moves ahead: chains of up to three steals, your own cards moved or given to make "
               "them legal, your plays taken apart and laid again")
    steals = True
    trades = TRADES
    search = LookaheadSearch

