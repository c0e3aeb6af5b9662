"""A brute-force oracle for small positions: every end state, judged by the checker.

It enumerates every way to lay the table cards and some hand cards out as
whole plays (in any space), every discard, and keeps the best gain among the
end states the checker accepts. Exponential: only for positions of about ten
cards. It shares no code with the CP-SAT models, only with the checker.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations, product

from rummy.cards import Card
from rummy.checker import check, turn_gain
from rummy.plays import Play, is_whole
from rummy.position import Position, Turn


def _whole_subsets(cards: list[Card], rules) -> list[tuple[int, ...]]:
    found = []
    for size in range(min(rules.book_min, rules.run_min), len(cards) + 1):
        for combo in combinations(range(len(cards)), size):
            if is_whole(tuple(cards[i] for i in combo), rules):
                found.append(combo)
    return found


def _exact_covers(n: int, subsets: list[tuple[int, ...]]):
    by_first: dict[int, list[tuple[int, ...]]] = {}
    for s in subsets:
        by_first.setdefault(s[0], []).append(s)

    def walk(used: frozenset[int], chosen: list[tuple[int, ...]]):
        free = next((i for i in range(n) if i not in used), None)
        if free is None:
            yield list(chosen)
            return
        for s in by_first.get(free, []):
            if used.isdisjoint(s):
                yield from walk(used | set(s), chosen + [s])

    yield from walk(frozenset(), [])


def brute_force_gain(position: Position) -> Fraction | int | None:
    """The best gain of a legal turn, or None when no turn is legal."""
    return max((gain for _, gain in legal_turns(position)), default=None)


def brute_force_tables(position: Position) -> dict[tuple, Fraction | int]:
    """Every final table a legal turn can leave, space by space as sorted card sets, with its best gain."""
    tables: dict[tuple, Fraction | int] = {}
    for after, gain in legal_turns(position):
        key = tuple(sorted(tuple(sorted(c.plain() for c in play.cards)) for play in after.table)) + tuple(
            (p.name, tuple(sorted(tuple(sorted(c.plain() for c in play.cards)) for play in p.plays)))
            for p in after.players)
        if key not in tables or gain > tables[key]:
            tables[key] = gain
    return tables


def legal_turns(position: Position):
    """(after, gain) for every legal end state of the turn."""
    rules = position.rules
    mover = position.mover
    hand = list(mover.hand or ())
    table = [c.plain() for play in position.named_plays().values() for c in play.cards]
    spaces = [p.name for p in position.players] if rules.table != "shared" else [None]
    seen: set = set()
    table_jokers = sum(1 for c in table if c.is_joker)
    for k in range(len(hand) + 1):
        for played in combinations(range(len(hand)), k):
            laid = [hand[i] for i in played]
            rest = [hand[i] for i in range(len(hand)) if i not in played]
            # An unmelded House player may take replaced jokers into the hand.
            released_options = range(table_jokers + 1) if rules.family == "house" and not mover.melded else [0]
            for released in released_options:
                on_table = list(table) + laid
                for _ in range(released):
                    on_table.remove(Card.joker())
                key = (tuple(sorted(on_table)), released)
                if key in seen:
                    continue
                seen.add(key)
                after_hand_base = rest + [Card.joker()] * released
                subsets = _whole_subsets(on_table, rules) if on_table else []
                covers = list(_exact_covers(len(on_table), subsets)) if on_table else [[]]
                discards = [None] + sorted(set(after_hand_base)) if rules.discard else [None]
                for cover in covers:
                    plays = [Play(tuple(on_table[i] for i in s)) for s in cover]
                    for where in product(spaces, repeat=len(plays)):
                        for discard in discards:
                            after = _after(position, plays, where, after_hand_base, discard)
                            verdict = check(position, after)
                            if verdict.legal:
                                yield after, turn_gain(position, after)


def _after(position: Position, plays, where, hand, discard) -> Position:
    rules = position.rules
    new_hand = list(hand)
    pile = list(position.discard_pile)
    if discard is not None:
        new_hand.remove(discard)
        pile.append(discard)
    if rules.table == "shared":
        players = tuple(replace(p, hand=tuple(new_hand)) if p.name == position.to_move else p for p in position.players)
        return replace(position, table=tuple(plays), players=players, discard_pile=tuple(pile),
                       turn=Turn(discard=discard, discard_declared=True))
    by_space = {p.name: [] for p in position.players}
    for play, space in zip(plays, where):
        by_space[space].append(play)
    players = []
    for p in position.players:
        changes = {"plays": tuple(by_space[p.name])}
        if p.name == position.to_move:
            changes["hand"] = tuple(new_hand)
        players.append(replace(p, **changes))
    return replace(position, players=tuple(players), discard_pile=tuple(pile),
                   turn=Turn(discard=discard, discard_declared=True))


def count_cards(position: Position) -> int:
    return len(position.mover.hand or ()) + sum(len(p.cards) for p in position.named_plays().values())

