"""Robber Rummy, the play phase.

Play phase. The table never rearranges: every play either stays as it is or
grows by hand cards (``extend/growth``); plays are never merged or split. A
play that grows belongs to the mover afterwards: a steal from an opponent,
an addition to the mover's own play, or an addition to a partner's play
(same side; its points stay with the side). New plays come from hand cards
only. The turn ends with exactly one discard unless the hand is empty (a
player may go out with or without a final discard); any card may be
discarded except the warm ones (a second, non-warm copy of a warm card may
go). Hot cards, where a position lists them, must end on the table.

Objective (``gain``): the change of the mover's side's (owned points − hand
penalty) minus the change of every other side's, as if the hand ended now.
Owned points are ``ROBBER.play_score`` (rummy.family); the hand penalty is
``scoring.penalty`` (single value, aces 15). Every choice's share is fixed:

- growing a play of the mover's side: new score − old score;
- stealing an opponent's play: new score + old score (the owner loses it);
- a new play: its score;
- every card that leaves the hand (played or discarded): its penalty.

Ties (``extend/select``): more cards out of the hand, then more new plays
(the source's tip: two short melds are harder to steal than one long one),
then a fixed discard order (the higher card by rank, then suit).

Layout of ``after``: the mover's own plays grow in place; stolen and
partner plays leave their owner's list and are appended to the mover's in
table order; new plays come last. ``turn.meld`` lists the new plays, the
discard is declared (``None`` when the mover went out by playing
everything), ``melded`` becomes true when a new play was laid.

Exclusion (``config.exclude``, puzzle uniqueness; play phase only): no
answer repeats the final table of an excluded after-position. The final
table is every player's list of plays, each a multiset of plain cards, up to
identical cards and the order of plays (within a list; which list a play is
in counts). The discard, and so the hand left, is no part of it: a table
excluded is excluded with every discard. A selection (how often each choice
is taken) fixes the final table, but one table may come from several
selections: identical plays of one owner (which of them grew), or one of the
mover's own plays grown by some cards versus left alone beside a new play
of the grown cards (``3-4-5`` + ``6`` and a new ``3-4-5`` is the same table as
``3-4-5`` and a new ``3-4-5-6``). ``excluded_counts`` lists every selection
that gives the table (no other can: see there) and ``extend/select`` forbids
each. When every turn is excluded the answer is "no-legal-turn".
"""


from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations, product

from ...cards import Card, cards_notation
from ...family import ROBBER
from ...plays import Play
from ...position import Player, Position, Turn
from ...scoring import penalty
from ...vocabulary import Phase
from ..clock import Clock
from ..extend.growth import growths, new_plays
from ..extend.select import Choice, NoTurnInTime, Selection, TurnProblem, apply_selection, select


def robber_gain(before: Position, after: Position) -> int:
    """Rules.md §7's objective, from the two end states alone (also used for the draw phase)."""
    rules = before.rules
    mover_side = before.mover.side
    old, new = _side_points(before), _side_points(after)
    gain = 0
    for side in set(old) | set(new):
        change = new[side] - old[side]
        gain += change if side == mover_side else -change
    hand_before = sum(penalty(c, rules) for c in before.mover.hand or ())
    hand_after = sum(penalty(c, rules) for c in after.player(before.to_move).hand or ())
    return gain + hand_before - hand_after


def _side_points(position: Position) -> Counter[str]:
    points: Counter[str] = Counter()
    for player in position.players:
        points[player.side] += sum(ROBBER.play_score(p.cards, position.rules) for p in player.plays)
    return points


# ------------------------------------------------------------------ bookkeeping
@dataclass(frozen=True)
class PlayAnswer:
    after: Position
    gain: int
    bound: int
    optimal: bool
    cards_played: int


# ------------------------------------------------------------------ play phase
def solve_play(position: Position, clock: Clock, force_cp_sat: bool = False,
                exclude: tuple[Position, ...] = ()) -> PlayAnswer | None:
    problem = robber_problem(position, exclude)
    started = time.perf_counter()
    try:
        selection = select(problem, max(clock.left(), 0.05), force_cp_sat)
    except NoTurnInTime:
        clock.count(1, time.perf_counter() - started, "cp-sat")
        raise
    clock.count(1, time.perf_counter() - started, selection.method if selection else None)
    if selection is None:
        return None
    after, played = _after(position, problem, selection)
    return PlayAnswer(after, selection.value, selection.bound, selection.optimal, played)


def _table(position: Position) -> list[tuple[Player, Play]]:
    """Every table play with its owner, in the order of ``Position.named_plays``."""
    return [(player, play) for player in position.players for play in player.plays]


def robber_problem(position: Position, exclude: tuple[Position, ...] = ()) -> TurnProblem:
    """The choices of a play-phase turn and what each is worth (module docstring).

    ``exclude``: after-positions whose final tables no answer may repeat.
    """
    rules = position.rules
    mover = position.mover
    hand = Counter(c.plain() for c in mover.hand or ())
    choices: list[Choice] = []
    for index, (owner, play) in enumerate(_table(position)):
        old = ROBBER.play_score(play.cards, rules)
        own_side = owner.side == mover.side
        for added in growths(play.cards, hand, rules):
            new = ROBBER.play_score(play.cards + added, rules)
            share = new - old if own_side else new + old
            choices.append(Choice(index, added, share + sum(penalty(c, rules) for c in added)))
    for cards in new_plays(hand, rules):
        need = Counter(cards)
        copies = min(hand[c] // n for c, n in need.items())
        value = ROBBER.play_score(cards, rules) + sum(penalty(c, rules) for c in cards)
        choices.append(Choice(None, cards, value, copies))
    order = {card: i for i, card in enumerate(sorted(hand))}
    forbidden = frozenset(v for excluded in exclude for v in excluded_counts(position, choices, excluded))
    return TurnProblem(
        hand=hand,
        choices=tuple(choices),
        discard_value={card: penalty(card, rules) for card in hand},
        discard_order=order,
        warm=Counter(c.plain() for c in mover.warm),
        hot=Counter(c.plain() for c in mover.hot),
        prefer_more_plays=True,
        forbidden=forbidden,
    )


# ------------------------------------------------------------------ exclusion
PlayKey = tuple[Card, ...]


def play_key(cards: Iterable[Card]) -> PlayKey:
    """A play up to the order of its cards and identical copies: its sorted plain cards."""
    return tuple(sorted(c.plain() for c in cards))


def final_table(position: Position) -> dict[str, Counter[PlayKey]]:
    """Every player's plays as a multiset of play keys: the arrangement an exclusion compares."""
    return {p.name: Counter(play_key(play.cards) for play in p.plays) for p in position.players}


def excluded_counts(position: Position, choices: list[Choice] | tuple[Choice, ...],
                    excluded: Position) -> list[tuple[int, ...]]:
    """Every selection (times each choice is taken) whose final table is ``excluded``'s.

    Complete, because a selection's table is read back without loss: a play of
    another player stays in that player's list exactly when it does not grow,
    so that player's final list says which of their plays grew, up to
    identical plays (every choice of which ones is tried); a play that grows
    lands in the mover's list as its cards plus the growth, and the growth is
    that difference (a target has one choice per distinct growth); every
    other play in the mover's list is one of the mover's own plays left alone
    or a new play, whose cards name its choice. So the search below tries,
    for the other players' grown plays and each of the mover's own plays,
    every final play of the mover it could have become (own plays: also
    staying as they are), and what is left of the mover's list must be new
    plays. Every selection it returns gives the table; none other does.
    """
    target = final_table(excluded)
    if set(target) != {p.name for p in position.players}:
        return []
    mover = position.mover.name
    table = _table(position)
    results: dict[int, dict[PlayKey, int]] = {}
    new_choice: dict[PlayKey, int] = {}
    for i, choice in enumerate(choices):
        if choice.target is None:
            new_choice[play_key(choice.added)] = i
        else:
            grown = play_key(table[choice.target][1].cards + choice.added)
            results.setdefault(choice.target, {})[grown] = i
    # Which plays of the other players grew: their lists, up to identical plays.
    per_player: list[list[tuple[int, ...]]] = []
    own: list[int] = []
    for player in position.players:
        indices = [i for i, (owner, _) in enumerate(table) if owner.name == player.name]
        if player.name == mover:
            own = indices
            continue
        groups: dict[PlayKey, list[int]] = {}
        for i in indices:
            groups.setdefault(play_key(table[i][1].cards), []).append(i)
        if any(groups.get(key) is None or len(groups[key]) < n for key, n in target[player.name].items()):
            return []
        options: list[list[tuple[int, ...]]] = [
            list(combinations(group, len(group) - target[player.name][key])) for key, group in groups.items()
        ]
        per_player.append([tuple(i for part in pick for i in part) for pick in product(*options)])
    found: set[tuple[int, ...]] = set()
    for picks in product(*per_player):
        grew = [i for pick in picks for i in pick]
        _match_mover(grew, own, table, results, new_choice, choices, Counter(target[mover]), [0] * len(choices),
                     found)
    return sorted(found)


def _match_mover(grown: list[int], own: list[int], table: list[tuple[Player, Play]],
                 results: dict[int, dict[PlayKey, int]], new_choice: dict[PlayKey, int], choices: Sequence[Choice],
                 left: Counter[PlayKey], counts: list[int], found: set[tuple[int, ...]]) -> None:
    """Assign each play that must grow (``grown``), then each own play, to a final play of the mover."""
    if grown or own:
        index, must_grow = (grown[0], True) if grown else (own[0], False)
        rest_grown, rest_own = (grown[1:], own) if grown else (grown, own[1:])
        if not must_grow:
            stays = play_key(table[index][1].cards)
            if left[stays] > 0:
                left[stays] -= 1
                _match_mover(rest_grown, rest_own, table, results, new_choice, choices, left, counts, found)
                left[stays] += 1
        for key, choice in results.get(index, {}).items():
            if left[key] > 0:
                left[key] -= 1
                counts[choice] = 1
                _match_mover(rest_grown, rest_own, table, results, new_choice, choices, left, counts, found)
                counts[choice] = 0
                left[key] += 1
        return
    laid = [0] * len(choices)
    for key, n in left.items():
        if n <= 0:
            continue
        new = new_choice.get(key)
        if new is None or choices[new].copies < n:
            return
        laid[new] = n
    found.add(tuple(taken + new_plays for taken, new_plays in zip(counts, laid)))


def _after(position: Position, problem: TurnProblem, selection: Selection) -> tuple[Position, int]:
    applied = apply_selection(problem, selection, position.mover)
    mover = applied.mover
    plays: dict[str, list[Play]] = {p.name: [] for p in position.players}
    taken: list[Play] = []
    for index, (owner, play) in enumerate(_table(position)):
        if index not in applied.added:
            plays[owner.name].append(play)
        elif owner.name == mover.name:
            plays[owner.name].append(Play(play.cards + applied.added[index]))
        else:
            taken.append(Play(play.cards + applied.added[index]))
    plays[mover.name] += taken + list(applied.laid)
    players = tuple(replace(p if p.name != mover.name else mover, plays=tuple(plays[p.name])) for p in position.players)
    discard_pile = position.discard_pile + ((selection.discard,) if selection.discard else ())
    turn = Turn(meld=applied.laid, replaced=(), discard=selection.discard, discard_declared=True)
    after = replace(position, players=players, discard_pile=discard_pile, turn=turn, phase=Phase.PLAY)
    return after, applied.cards_played


def no_turn_reason(position: Position, excluding: bool = False) -> str:
    mover = position.mover
    rules = position.rules
    if excluding and select(robber_problem(position), 5.0) is not None:
        return "every legal turn's final table is excluded"
    if mover.hot:
        relaxed = position.replace_player(replace(mover, hot=()))
        if select(robber_problem(relaxed), 5.0) is not None:
            return f"the hot card(s) {cards_notation(mover.hot, rules.deck)} cannot all be played"
    return (f"no card can be discarded: the cards that must stay ({cards_notation(mover.warm, rules.deck)}, "
            "taken this turn) cannot be played")
