"""A brute-force oracle for small positions: every end state, judged by the checker.

It enumerates every way to lay the table cards and some hand cards out as
whole plays (in any space), every discard, and keeps the best gain among the
end states the checker accepts. Exponential: only for positions of about ten
cards. It shares no code with the CP-SAT models, only with the checker.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sized
from dataclasses import replace
from fractions import Fraction
from itertools import combinations, product

from rummy.cards import Card
from rummy.checker import check, turn_gain
from rummy.plays import Play, is_whole
from rummy.position import Attached, Position, Turn
from rummy.solution import Solution


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
    if rules.table == "personal":
        yield from _personal_turns(position)
        return
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


def _personal_turns(position: Position):
    """Personal tables (lay-off rummy: extend-only): every hand card stays in the hand, starts a new play,
    or goes on a play already on the table (another player's as the mover's lay-off; the mover's own
    either grown in place or as a lay-off), with every discard; each end state judged by the checker."""
    rules = position.rules
    mover = position.mover
    hand = list(mover.hand or ())
    names = list(position.named_plays())
    smallest = min(rules.book_min, rules.run_min)
    targets = [("keep", None)] + [("on", name) for name in names] + [("new", j) for j in range(len(hand) // smallest)]
    seen: set = set()
    for placement in product(targets, repeat=len(hand)):
        news = sorted({j for kind, j in placement if kind == "new"})
        if news != list(range(len(news))):
            continue
        groups: dict[tuple, list[Card]] = {}
        kept = []
        for card, target in zip(hand, placement):
            if target[0] == "keep":
                kept.append(card)
            else:
                groups.setdefault(target, []).append(card)
        if not all(is_whole((position.play_with_layoffs(j) if kind == "on" else ()) + tuple(cards), rules)
                   for (kind, j), cards in groups.items()):
            continue
        key = (tuple(sorted((k, tuple(sorted(c))) for k, c in groups.items())), tuple(sorted(kept)))
        if key in seen:
            continue
        seen.add(key)
        own = [target for target in groups if target[0] == "on" and target[1].owner == mover.name]
        for in_place in product((True, False), repeat=len(own)):
            grown = {target[1]: groups[target] for target, flag in zip(own, in_place) if flag}
            attached = {target[1]: groups[target] for target in groups
                        if target[0] == "on" and target[1] not in grown}
            new_plays = tuple(Play(tuple(cards)) for (kind, _), cards in sorted(groups.items()) if kind == "new")
            plays = tuple(Play(play.cards + tuple(grown.get(f"{mover.name}/{i}", ())))
                          for i, play in enumerate(mover.plays, 1)) + new_plays
            layoffs = [Attached(a.target, a.cards + tuple(attached.pop(a.target, ()))) for a in mover.layoffs]
            layoffs += [Attached(target, tuple(cards)) for target, cards in attached.items()]
            for discard in [None] + sorted(set(kept)):
                rest = list(kept)
                if discard is not None:
                    rest.remove(discard)
                pile = position.discard_pile + ((discard,) if discard is not None else ())
                after = replace(position.replace_player(replace(mover, hand=tuple(rest), plays=plays,
                                                                 layoffs=tuple(layoffs))),
                                discard_pile=pile, turn=Turn(discard=discard, discard_declared=True))
                if check(position, after).legal:
                    yield after, turn_gain(position, after)


def count_cards(position: Position) -> int:
    return len(position.mover.hand or ()) + sum(len(p.cards) for p in position.named_plays().values())



def every_selection(choices, hand, leaf) -> None:
    """Call ``leaf(counts, left)`` for every selection of an extend-only turn (rummy.model.extend.select):
    how often each choice is taken, at most one growth a target, hand cards used at most once;
    ``left`` is what the hand keeps. Brute force, for small problems (the exclusion tests)."""
    from collections import Counter

    def walk(i: int, counts: list[int], left: Counter, targets: set) -> None:
        if i == len(choices):
            leaf(counts, left)
            return
        walk(i + 1, counts, left, targets)
        choice = choices[i]
        if choice.target in targets:
            return
        need = Counter(choice.added)
        for times in range(1, choice.copies + 1):
            if any(left[c] < n * times for c, n in need.items()):
                break
            counts[i] = times
            walk(i + 1, counts, left - Counter({c: n * times for c, n in need.items()}),
                 targets | ({choice.target} if choice.target is not None else set()))
            counts[i] = 0

    walk(0, [0] * len(choices), Counter(hand), set())


def assert_the_oracles_gain(before: Position, solution: Solution, expected: Fraction | float | None) -> None:
    """A model's answer against an exhaustive search's best gain (None: no legal turn, which the model says)."""
    if expected is None:
        assert solution.status == "no-legal-turn"
        return
    assert solution.status == "optimal"
    assert solution.gain == expected, before.to_toml()


def assert_each_final_state_once_best_first(answers: list[Solution], key: Callable[[Position], Hashable],
                                            expected: Sized) -> list[Hashable]:
    """Answers solved again and again, each with every earlier one excluded: they end with no legal
    turn, give each final state (``key``) once, as many as the brute force's ``expected``, and each
    is the best of what is left. The final states found, in order."""
    assert answers[-1].status == "no-legal-turn"
    found = [key(s.after) for s in answers[:-1]]
    assert len(found) == len(set(found)) == len(expected)
    gains = [s.gain for s in answers[:-1]]
    assert gains == sorted(gains, reverse=True)
    return found
