"""Lay-off rummy (Straight and traditional Rummy): the best turn (rules.md §8).

The table is personal and extend-only: the mover may lay new melds in their
own space (at most ``rules.plays_per_turn``; lay-offs do not count) and lay
hand cards off on any play, where every play together with all the cards
laid off on it must stay whole (``Position.play_with_layoffs``). Books are
3..4 cards of distinct suits, runs >= 3, aces per ``rules.ace``; jokers
(variation ``jokers = 2``) are flexible wild cards. Growths and new melds
come from ``extend/growth``, the choice from ``extend/select``.

Rules applied:

- ``layoff_needs_meld``: lay-offs only when the mover has melded before or
  lays a meld this turn. Decision: "melded before" is ``Player.melded``, or
  the mover already having plays or lay-offs on the table.
- ``keep_one_to_discard``: the mover may not play their last card; they end
  by discarding it (which is then how they go out).
- The turn ends with exactly one discard unless the hand is empty after
  playing; warm cards (taken from the discard pile this turn) are never
  discarded; hot cards, where listed, must be played.

Objective: the penalty value (``scoring.penalty`` with the ruleset's
``ace_points``, ``queen_of_spades_points``, ``joker_points``) of the cards
that leave the hand, played or discarded; going out beats everything. Going
out sends every card out, so it already has the highest value; the tie-break
"more cards out of the hand" settles the case of zero-valued cards. ``gain``
is that value. Further ties: a fixed discard order (higher rank, then suit).

Layout of ``after``: a lay-off on the mover's own meld grows that meld in
place. Decision: when the mover's meld could only stay whole with cards
other players laid off on it (the meld alone, with the new cards, is not
whole), the new cards are recorded as the mover's lay-off on their own meld,
so every play in ``after`` stays whole on its own as the position format
demands. Lay-offs on other players' plays are the mover's ``layoffs``
entries, one per target play: added to an existing entry for that play, or
appended in table order. New melds are appended to the mover's space and
listed in ``turn.meld``; ``melded`` becomes true when one is laid.

Only the play phase is solved; a draw-phase position is refused.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace

from ...cards import Card, cards_notation
from ...family import LAYOFF
from ...errors import RummyError
from ...plays import Play, PlayName, readings
from ...position import Attached, Position, Turn
from ...rules import Ruleset
from ...scoring import penalty
from ...solution import Solution, SolverConfig
from ...vocabulary import Phase, Status
from ..extend.growth import growths, new_plays
from ..extend.select import Choice, NoTurnInTime, Selection, TurnProblem, apply_selection, select


def solve_layoff(position: Position, config: SolverConfig, force_cp_sat: bool = False) -> Solution:
    rules = position.rules
    LAYOFF.require(rules, "solve_layoff")
    if position.phase != Phase.PLAY:
        raise RummyError(f"phase {position.phase!r}: {rules.name} positions are solved in the play phase")
    started = time.perf_counter()
    problem, names = layoff_problem(position)
    try:
        selection = select(problem, config.time_limit, force_cp_sat)
    except NoTurnInTime as error:
        stats = {"branches": 1, "wall_time": round(time.perf_counter() - started, 4), "method": "cp-sat"}
        return Solution(Status.UNKNOWN, 0, 0, None, 0, str(error), time.perf_counter() - started, stats)
    seconds = time.perf_counter() - started
    if selection is None:
        stats = {"branches": 1, "wall_time": round(seconds, 4)}
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, _no_turn_reason(position, problem), seconds, stats)
    stats = {"branches": 1, "wall_time": round(selection.seconds, 4), "method": selection.method}
    after, played = _after(position, problem, names, selection)
    status = Status.OPTIMAL if selection.optimal else Status.FEASIBLE
    return Solution(status, selection.value, selection.bound, after, played, None, time.perf_counter() - started,
                    stats)


def has_melded(position: Position) -> bool:
    mover = position.mover
    return mover.melded or bool(mover.plays) or bool(mover.layoffs)


def layoff_problem(position: Position) -> tuple[TurnProblem, list[PlayName]]:
    rules = position.rules
    mover = position.mover
    hand = Counter(c.plain() for c in mover.hand or ())
    names = list(position.named_plays())
    choices: list[Choice] = []
    for index, name in enumerate(names):
        for added in growths(position.play_with_layoffs(name), hand, rules):
            choices.append(Choice(index, added, sum(penalty(c, rules) for c in added)))
    for cards in new_plays(hand, rules):
        choices.append(Choice(None, cards, sum(penalty(c, rules) for c in cards), 1))
    problem = TurnProblem(
        hand=hand,
        choices=tuple(choices),
        discard_value={card: penalty(card, rules) for card in hand},
        discard_order={card: i for i, card in enumerate(sorted(hand))},
        warm=Counter(c.plain() for c in mover.warm),
        hot=Counter(c.plain() for c in mover.hot),
        keep_one=rules.keep_one_to_discard,
        max_new=rules.plays_per_turn,
        growth_needs_new=rules.layoff_needs_meld and not has_melded(position),
    )
    return problem, names


def _after(position: Position, problem: TurnProblem, names: list[PlayName],
           selection: Selection) -> tuple[Position, int]:
    rules = position.rules
    mover = position.mover
    own = {f"{mover.name}/{i}": i for i in range(1, len(mover.plays) + 1)}
    plays = list(mover.plays)
    layoffs = list(mover.layoffs)
    applied = apply_selection(problem, selection, mover)
    for index, cards in applied.added.items():
        name = names[index]
        if name in own:
            grown = plays[own[name] - 1].cards + cards
            if readings(grown, rules):
                plays[own[name] - 1] = _settled(Play(grown), rules)
                continue
        layoffs = _attach(layoffs, name, cards)
    new_mover = replace(applied.mover, plays=tuple(plays) + applied.laid, layoffs=tuple(layoffs))
    after = position.replace_player(new_mover)
    after = _settle_targets(after, {names[index] for index in applied.added})
    discard_pile = position.discard_pile + ((selection.discard,) if selection.discard else ())
    turn = Turn(meld=applied.laid, replaced=(), discard=selection.discard, discard_declared=True)
    return replace(after, discard_pile=discard_pile, turn=turn), applied.cards_played


def _attach(layoffs: list[Attached], target: str, cards: tuple[Card, ...]) -> list[Attached]:
    for i, attached in enumerate(layoffs):
        if attached.target == target:
            return layoffs[:i] + [Attached(target, attached.cards + cards)] + layoffs[i + 1:]
    return layoffs + [Attached(target, cards)]


def _settled(play: Play, rules: Ruleset) -> Play:
    """A grown play whose jokers no longer fit their written stand-ins loses them (flexible jokers)."""
    if any(c.stands_for is not None for c in play.cards) and not readings(play.cards, rules):
        return Play(tuple(c.plain() for c in play.cards))
    return play


def _settle_targets(position: Position, targets: set[str]) -> Position:
    """Jokers of a grown play may change meaning: drop stand-ins the grown play contradicts."""
    rules = position.rules
    players = list(position.players)
    for target in targets:
        if readings(position.play_with_layoffs(target), rules):
            continue
        owner, number = target.rsplit("/", 1)
        for i, player in enumerate(players):
            if player.name == owner:
                plays = list(player.plays)
                plays[int(number) - 1] = Play(tuple(c.plain() for c in plays[int(number) - 1].cards))
                players[i] = replace(player, plays=tuple(plays))
    return replace(position, players=tuple(players))


def _no_turn_reason(position: Position, problem: TurnProblem) -> str:
    mover = position.mover
    deck = position.rules.deck
    if problem.hot and select(replace(problem, hot=Counter()), 5.0) is not None:
        return f"the hot card(s) {cards_notation(mover.hot, deck)} cannot all be played"
    if problem.keep_one:
        return (f"a card must stay to be discarded (keep_one_to_discard), but the warm card(s) "
                f"{cards_notation(mover.warm, deck)} may not be discarded and the others cannot all be played")
    return f"no card can be discarded: the warm card(s) {cards_notation(mover.warm, deck)} cannot be played"
