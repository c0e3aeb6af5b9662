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

Exclusion (``config.exclude``, puzzle uniqueness): no answer repeats the
final state of an excluded after-position. The final state is the table
with its lay-offs and the discard (``final_state``): every player's plays,
each with the cards every player laid off on it (per layer, as multisets of
plain cards), up to the order of plays and identical plays, and the card
discarded (None when the mover went out by playing everything). The discard
belongs to it because it changes the gain (a king discarded sheds more than
a deuce) and the hand left. ``excluded_selections`` lists every selection
(times each choice is taken) that lays the excluded table, each with the
excluded discard; ``solve_layoff`` forbids each such (selection, discard)
pair and nothing else: the selection itself is forbidden in the search
(``TurnProblem.forbidden``), and its other discards are weighed separately
(``_best_other_discard``), the best of both kept. Complete (see
``excluded_selections``), so excluding a state never hides another one; when
every turn is excluded the answer is "no-legal-turn". The draw phase is
never excluded (it is refused anyway).

Only the play phase is solved; a draw-phase position is refused.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from ...cards import Card, cards_notation
from ...errors import RummyError
from ...family import LAYOFF
from ...plays import Play, PlayName, readings
from ...position import Attached, Position, Turn
from ...rules import Ruleset
from ...scoring import penalty
from ...solution import Solution, SolverConfig
from ...vocabulary import Phase, Status
from ..extend.growth import growths, new_plays
from ..extend.select import Choice, NoTurnInTime, Selection, SelectionKey, TurnProblem, _key, apply_selection, select


def solve_layoff(position: Position, config: SolverConfig, force_cp_sat: bool = False) -> Solution:
    rules = position.rules
    LAYOFF.require(rules, "solve_layoff")
    if position.phase != Phase.PLAY:
        raise RummyError(f"phase {position.phase!r}: {rules.name} positions are solved in the play phase")
    started = time.perf_counter()
    problem, names = layoff_problem(position)
    barred = excluded_pairs(position, problem, names, tuple(config.exclude))
    try:
        selection = _select_excluding(problem, barred, config.time_limit, force_cp_sat)
    except NoTurnInTime as error:
        stats = {"branches": 1, "wall_time": round(time.perf_counter() - started, 4), "method": "cp-sat"}
        return Solution(Status.UNKNOWN, 0, 0, None, 0, str(error), time.perf_counter() - started, stats)
    seconds = time.perf_counter() - started
    if selection is None:
        stats = {"branches": 1, "wall_time": round(seconds, 4)}
        reason = ("every legal turn's final state is excluded" if barred and select(problem, 5.0) is not None
                  else _no_turn_reason(position, problem))
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, reason, seconds, stats)
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


# ------------------------------------------------------------------ exclusion
PlayKey = tuple[Card, ...]
Layers = tuple[tuple[str, PlayKey], ...]  # (layer, cards laid off on the play), by layer name
Entry = tuple[PlayKey, Layers]  # a play on the table with everything laid off on it
FinalState = tuple[tuple[tuple[str, tuple[Entry, ...]], ...], "Card | None"]


def play_key(cards: Iterable[Card]) -> PlayKey:
    """Cards up to their order and identical copies: sorted plain cards (a joker's stand-in dropped)."""
    return tuple(sorted(c.plain() for c in cards))


def _entry(cards: Iterable[Card], laid: dict[str, list[Card]]) -> Entry:
    return play_key(cards), tuple(sorted((layer, play_key(added)) for layer, added in laid.items() if added))


def _laid_off(position: Position) -> dict[str, dict[str, list[Card]]]:
    """Play name -> layer -> every card that layer laid off on it."""
    laid: dict[str, dict[str, list[Card]]] = {}
    for player in position.players:
        for attached in player.layoffs:
            laid.setdefault(attached.target, {}).setdefault(player.name, []).extend(attached.cards)
    return laid


def final_table(position: Position) -> dict[str, Counter[Entry]]:
    """Every player's plays, each with its lay-offs per layer, as a multiset of entries."""
    laid = _laid_off(position)
    return {p.name: Counter(_entry(play.cards, laid.get(PlayName.of(p.name, i), {}))
                            for i, play in enumerate(p.plays, 1))
            for p in position.players}


def discarded(after: Position, before: Position | None = None) -> Card | None:
    """The card the turn ended by discarding (plain), None when the mover went out without a discard.

    Read from ``after``'s declared turn; else, with ``before``, from the discard pile's growth.
    """
    if after.turn is not None and after.turn.discard_declared:
        return after.turn.discard.plain() if after.turn.discard is not None else None
    if before is not None and len(after.discard_pile) == len(before.discard_pile) + 1:
        return after.discard_pile[-1].plain()
    return None


def final_state(after: Position) -> FinalState:
    """The final table with its lay-offs, up to order, and the discard: what an exclusion compares."""
    table = final_table(after)
    return tuple((name, tuple(sorted(entries.elements()))) for name, entries in sorted(table.items())), discarded(after)


def excluded_selections(position: Position, problem: TurnProblem, names: list[PlayName],
                        excluded: Position) -> list[tuple[int, ...]]:
    """Every selection (times each choice is taken) that lays ``excluded``'s final table.

    Complete, because a selection's table is read back play by play: only
    the mover acts, and what becomes of each table play depends on its own
    choice alone (``_after``): left alone it keeps its cards and lay-offs; a
    growth of one of the mover's own plays that stays whole by itself grows
    the play in place; any other growth joins the mover's lay-offs on that
    play. Every other entry of the mover's space is a new play, which carries
    no lay-offs and whose cards name its choice. So the search below gives
    every table play, in turn, each final entry of its owner it could become
    (left alone, or one per growth choice), and what is left of the mover's
    entries must be new plays; every owner's entries must be used up.
    Identical plays are tried in every order. Every selection it returns lays
    the table; no other does.
    """
    target = final_table(excluded)
    if set(target) != {p.name for p in position.players}:
        return []
    rules = position.rules
    mover = position.mover.name
    laid = _laid_off(position)
    plays = position.named_plays()
    options: list[list[tuple[Entry, int | None]]] = [[(_entry(plays[n].cards, laid.get(n, {})), None)] for n in names]
    new_choice: dict[PlayKey, int] = {}
    for i, choice in enumerate(problem.choices):
        if choice.target is None:
            new_choice[play_key(choice.added)] = i
            continue
        name = names[choice.target]
        cards, layers = plays[name].cards, laid.get(name, {})
        if name.owner == mover and readings(cards + choice.added, rules):
            entry = _entry(cards + choice.added, layers)
        else:
            grown = {layer: list(added) for layer, added in layers.items()}
            grown[mover] = grown.get(mover, []) + list(choice.added)
            entry = _entry(cards, grown)
        options[choice.target].append((entry, i))
    left = {name: Counter(entries) for name, entries in target.items()}
    counts = [0] * len(problem.choices)
    found: set[tuple[int, ...]] = set()

    def finish() -> None:
        if any(n for name, entries in left.items() if name != mover for n in entries.values()):
            return
        laid_new = [0] * len(counts)
        for (key, layers), n in left[mover].items():
            if n <= 0:
                continue
            index = new_choice.get(key)
            if layers or index is None or problem.choices[index].copies < n:
                return
            laid_new[index] = n
        found.add(tuple(c + n for c, n in zip(counts, laid_new)))

    def walk(t: int) -> None:
        if t == len(names):
            finish()
            return
        owned = left[names[t].owner]
        for entry, index in options[t]:
            if owned[entry] <= 0:
                continue
            owned[entry] -= 1
            if index is not None:
                counts[index] = 1
            walk(t + 1)
            if index is not None:
                counts[index] = 0
            owned[entry] += 1

    walk(0)
    return sorted(found)


Barred = dict[tuple[int, ...], frozenset["Card | None"]]


def excluded_pairs(position: Position, problem: TurnProblem, names: list[PlayName],
                   exclude: tuple[Position, ...]) -> Barred:
    """Selection -> the discards (None: going out by playing everything) it may not end with."""
    barred: dict[tuple[int, ...], set[Card | None]] = {}
    for excluded in exclude:
        discard = discarded(excluded, position)
        for counts in excluded_selections(position, problem, names, excluded):
            barred.setdefault(counts, set()).add(discard)
    return {counts: frozenset(discards) for counts, discards in barred.items()}


def _select_excluding(problem: TurnProblem, barred: Barred, time_limit: float, force_cp_sat: bool) -> Selection | None:
    """The best selection and discard that is no barred pair: barred selections are forbidden in the
    search, and each one's best allowed discard is weighed beside its answer."""
    if not barred:
        return select(problem, time_limit, force_cp_sat)
    main = select(replace(problem, forbidden=problem.forbidden | frozenset(barred)), time_limit, force_cp_sat)
    chosen, chosen_key = main, (_selection_key(problem, main) if main is not None else None)
    for counts, discards in sorted(barred.items()):
        other = _best_other_discard(problem, counts, discards)
        if other is None:
            continue
        key = _selection_key(problem, other)
        if chosen_key is None or key > chosen_key:
            chosen, chosen_key = other, key
    if chosen is not None and main is not None and chosen is not main:
        # As proven as the search was: its bound covers every selection it was allowed.
        chosen = replace(chosen, optimal=main.optimal, bound=max(main.bound, chosen.value), method=main.method,
                         seconds=main.seconds)
    return chosen


def _selection_key(problem: TurnProblem, selection: Selection) -> SelectionKey:
    played = sum(len(c.added) * n for c, n in zip(problem.choices, selection.counts))
    new_count = sum(n for c, n in zip(problem.choices, selection.counts) if c.target is None)
    leaving = played + (1 if selection.discard is not None else 0)
    return _key(problem, selection.value, leaving, new_count, selection.discard)


def _best_other_discard(problem: TurnProblem, counts: tuple[int, ...],
                        barred: frozenset[Card | None]) -> Selection | None:
    """The selection ``counts`` with its best discard not in ``barred``, if the turn is legal (the
    tests of ``extend/select``'s exhaustive search, applied to this one selection)."""
    used: Counter[Card] = Counter()
    targets: set[int] = set()
    new_count, value = 0, 0
    for choice, n in zip(problem.choices, counts):
        if not n:
            continue
        if choice.target is not None:
            if choice.target in targets or n != 1:
                return None
            targets.add(choice.target)
        elif n > choice.copies:
            return None
        else:
            new_count += n
        used.update({c: k * n for c, k in Counter(choice.added).items()})
        value += choice.value * n
    if any(used[c] > problem.hand[c] for c in used):
        return None
    if (problem.growth_needs_new and targets and not new_count) or (
            problem.max_new is not None and new_count > problem.max_new):
        return None
    if any(used[c] < n for c, n in problem.hot.items()):
        return None
    left = Counter(problem.hand)
    left.subtract(used)
    if sum(left.values()) == 0:
        if problem.keep_one or None in barred:
            return None
        return Selection(counts, None, value, value, True, "enumeration", 0.0)
    options = [c for c in left if left[c] > 0 and problem.hand[c] > problem.warm[c] and c not in barred]
    if not options:
        return None
    discard = max(options, key=lambda c: (problem.discard_value[c], problem.discard_order[c]))
    value += problem.discard_value[discard]
    return Selection(counts, discard, value, value, True, "enumeration", 0.0)


def _no_turn_reason(position: Position, problem: TurnProblem) -> str:
    mover = position.mover
    deck = position.rules.deck
    if problem.hot and select(replace(problem, hot=Counter()), 5.0) is not None:
        return f"the hot card(s) {cards_notation(mover.hot, deck)} cannot all be played"
    if problem.keep_one:
        return (f"a card must stay to be discarded (keep_one_to_discard), but the warm card(s) "
                f"{cards_notation(mover.warm, deck)} may not be discarded and the others cannot all be played")
    return f"no card can be discarded: the warm card(s) {cards_notation(mover.warm, deck)} cannot be played"
