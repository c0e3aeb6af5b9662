"""Robber Rummy: the best turn (rules.md §7), in the play phase and the draw phase.

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
Owned points are ``scoring.robber_play_score``; the hand penalty is
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

Draw phase (``position.phase == "draw"``) compares two options, each valued
from the draw-phase position (so cards taken into the hand count against
the mover):

- the discard pile: its top card must be melded at once with hand cards
  only, either into a new play or onto a table play (own, partner's, or an
  opponent's, which steals it). Decision: hand cards may go with the top
  card onto a table play (e.g. 8 and top card 9 onto 5-6-7) - the source
  forbids only other pile cards. Only minimal openings are tried (a 3-card
  book or run around the top card, or the fewest hand cards that join it to
  a play), because the play it makes is the mover's and may grow during the
  rest of the turn. Then the rest of the pile joins the hand and the play
  phase is solved; the best opening wins (first in table order on ties).
  The taker's discard starts the new pile.
- the stock: the expected gain over the card drawn. Decision: the drawn
  card is equally likely to be any unseen card (the deck minus every known
  card: hands, table, discard pile, listed stock), and since a single card
  is drawn the expectation is computed exactly, one play-phase solve per
  distinct unseen card weighted by its unseen copies, rather than by
  sampling (``config.seed`` is then not needed; ``DrawChoice.samples`` is the
  number of distinct draws solved). Where the stock is listed card by card,
  its top card is the draw. An empty stock (0) cannot be drawn from.

The pile is chosen only when its gain is strictly higher (at equal value
the stock keeps the hand small, which is safer if someone goes out). The
answer (formats.md, draw phase) depends on whether the draw is certain:

- the pile, or a stock listed card by card (its top card is known): ``after``
  is the whole turn from the draw-phase position (phase "play", every
  declaration written; the pile taken is gone, or the stock is one card
  shorter; ``cards_played`` counts the pile's top card too), and the
  checker judges it from the position right after the draw;
- a stock of unknown cards: ``after`` is None, the answer is the draw alone
  and its expected gain ("optimal" refers to the choice).

``Solution.draw`` (a ``DrawChoice``) holds every legal option with its
value, best first (the chosen one first, on a tie too): the pile, its cards
top first, and the stock, with its top card when listed; and the figures of
the searches (``samples``, ``unseen``, ``openings``). ``best --json`` prints
them as formats.md's ``draw`` and ``options`` (rummy.answer).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace
from itertools import combinations, product

from ...cards import Card, cards_notation, cards_without
from ...family import ROBBER
from ...errors import RummyError
from ...plays import Play
from ...position import Player, Position, Turn
from ...scoring import penalty, robber_play_score
from ...solution import DrawChoice, DrawOption, Solution, SolverConfig
from ...vocabulary import DrawSource, Phase, Status
from ..clock import Clock
from ..extend.growth import growths, new_plays
from ..extend.select import Choice, NoTurnInTime, Selection, TurnProblem, apply_selection, select


def solve_robber(position: Position, config: SolverConfig) -> Solution:
    ROBBER.require(position.rules, "solve_robber")
    started = time.perf_counter()
    if position.phase == Phase.DRAW:
        if config.exclude:
            raise RummyError("excluding final tables applies to play-phase Robber positions, not the draw phase")
        return _solve_draw(position, config, started)
    clock = Clock(started + config.time_limit)
    try:
        answer = _solve_play(position, clock, exclude=tuple(config.exclude))
    except NoTurnInTime as error:
        return Solution(Status.UNKNOWN, 0, 0, None, 0, str(error), time.perf_counter() - started, clock.stats())
    if answer is None:
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, _no_turn_reason(position, bool(config.exclude)),
                        time.perf_counter() - started, clock.stats())
    return Solution(
        Status.OPTIMAL if answer.optimal else Status.FEASIBLE, answer.gain, answer.bound, answer.after, answer.cards_played,
        None, time.perf_counter() - started, clock.stats(),
    )


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


def _side_points(position: Position) -> Counter:
    points: Counter = Counter()
    for player in position.players:
        points[player.side] += sum(robber_play_score(p.cards, position.rules) for p in player.plays)
    return points


# ------------------------------------------------------------------ bookkeeping
@dataclass(frozen=True)
class _Answer:
    after: Position
    gain: int
    bound: int
    optimal: bool
    cards_played: int


# ------------------------------------------------------------------ play phase
def _solve_play(position: Position, clock: Clock, force_cp_sat: bool = False,
                exclude: tuple[Position, ...] = ()) -> _Answer | None:
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
    return _Answer(after, selection.value, selection.bound, selection.optimal, played)


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
        old = robber_play_score(play.cards, rules)
        own_side = owner.side == mover.side
        for added in growths(play.cards, hand, rules):
            new = robber_play_score(play.cards + added, rules)
            share = new - old if own_side else new + old
            choices.append(Choice(index, added, share + sum(penalty(c, rules) for c in added)))
    for cards in new_plays(hand, rules):
        need = Counter(cards)
        copies = min(hand[c] // n for c, n in need.items())
        value = robber_play_score(cards, rules) + sum(penalty(c, rules) for c in cards)
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


def play_key(cards) -> PlayKey:
    """A play up to the order of its cards and identical copies: its sorted plain cards."""
    return tuple(sorted(c.plain() for c in cards))


def final_table(position: Position) -> dict[str, Counter]:
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
        grown = [i for pick in picks for i in pick]
        _match_mover(grown, own, table, results, new_choice, choices, Counter(target[mover]), [0] * len(choices),
                     found)
    return sorted(found)


def _match_mover(grown: list[int], own: list[int], table, results, new_choice, choices, left: Counter,
                 counts: list[int], found: set) -> None:
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
        choice = new_choice.get(key)
        if choice is None or choices[choice].copies < n:
            return
        laid[choice] = n
    found.add(tuple(c + l for c, l in zip(counts, laid)))


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


def _no_turn_reason(position: Position, excluding: bool = False) -> str:
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


# ------------------------------------------------------------------ draw phase
def _solve_draw(position: Position, config: SolverConfig, started: float) -> Solution:
    clock = Clock(started + config.time_limit)
    rules = position.rules
    try:
        pile = _best_pile_turn(position, clock)
        stock = _stock_expectation(position, clock)
    except NoTurnInTime as error:
        return Solution(Status.UNKNOWN, 0, 0, None, 0, str(error), time.perf_counter() - started, clock.stats())
    options = [_pile_option(position, pile.gain)] if pile is not None else []
    options += [_stock_option(position, stock.expected)] if stock is not None else []
    # Best first; the pile only when it is worth strictly more (at equal value
    # the stock keeps the hand small, which is safer if someone goes out).
    options.sort(key=lambda option: (-option.value, option.source == DrawSource.PILE))
    draw = DrawChoice(tuple(options), samples=stock.draws if stock else 0, unseen=stock.weight if stock else 0,
                      openings=pile.openings if pile else 0)
    stats = clock.stats()
    seconds = time.perf_counter() - started
    if draw.chosen is None:
        top = position.discard_pile[-1].notation(rules.deck) if position.discard_pile else None
        why = f"the discard pile's top card {top} cannot be melded" if top else "the discard pile is empty"
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, f"{why} and the stock is empty", seconds, stats, draw)
    optimal = (pile is None or pile.optimal) and (stock is None or stock.optimal)
    bound = max(pile.bound if pile else float("-inf"), stock.bound if stock else float("-inf"), draw.chosen.value)
    turn = pile if draw.chosen.source == DrawSource.PILE else stock
    return Solution(Status.OPTIMAL if optimal else Status.FEASIBLE, draw.chosen.value, bound, turn.after,
                    turn.cards_played, None, seconds, stats, draw)


def _pile_option(position: Position, value: int) -> DrawOption:
    """Taking Robber's whole pile: its cards, top first."""
    return DrawOption(DrawSource.PILE, value, tuple(reversed(position.discard_pile)))


def _stock_option(position: Position, value: float) -> DrawOption:
    """The stock: its top card, when the stock is listed (a certain draw)."""
    listed = isinstance(position.stock, tuple) and position.stock
    return DrawOption(DrawSource.STOCK, value, position.stock[:1] if listed else ())


@dataclass(frozen=True)
class _PileTurn:
    after: Position
    gain: int
    bound: int
    optimal: bool
    cards_played: int
    openings: int


def pile_openings(position: Position) -> list[tuple[Position, Play | None, int]]:
    """Every minimal way to meld the pile's top card: the position right after it
    (rest of the pile in hand, empty pile, phase "play"), the new play it made
    (None when it joined a table play), and the cards it put on the table."""
    if not position.discard_pile:
        return []
    rules = position.rules
    mover = position.mover
    top = position.discard_pile[-1].plain()
    rest = position.discard_pile[:-1]
    hand = Counter(c.plain() for c in mover.hand or ())
    with_top = hand + Counter([top])
    openings: list[tuple[Position, Play | None, int]] = []

    def opened(hand_used: Counter, plays_of: dict[str, tuple[Play, ...]], new: Play | None, placed: int) -> None:
        players = []
        for p in position.players:
            if p.name == mover.name:
                left = cards_without(mover.hand or (), hand_used) + rest
                players.append(replace(p, hand=left, hot=(), warm=(), plays=plays_of[p.name],
                                       melded=p.melded or new is not None))
            else:
                players.append(replace(p, plays=plays_of[p.name]))
        after_top = replace(position, players=tuple(players), discard_pile=(), phase=Phase.PLAY, turn=None)
        openings.append((after_top, new, placed))

    for owner in position.players:
        for index, play in enumerate(owner.plays):
            options = [Counter(a) for a in growths(play.cards, with_top, rules) if top in a]
            for added in _minimal(options):
                plays_of = {p.name: list(p.plays) for p in position.players}
                grown = Play(play.cards + tuple(sorted(added.elements())))
                if owner.name == mover.name:
                    plays_of[owner.name][index] = grown
                else:
                    del plays_of[owner.name][index]
                    plays_of[mover.name].append(grown)
                opened(added - Counter([top]), {k: tuple(v) for k, v in plays_of.items()}, None, sum(added.values()))
    fresh = [Counter(cards) for cards in new_plays(with_top, rules) if top in cards]
    for cards in _minimal(fresh):
        new = Play(tuple(sorted(cards.elements())))
        plays_of = {p.name: p.plays for p in position.players}
        plays_of = {**plays_of, mover.name: plays_of[mover.name] + (new,)}
        opened(cards - Counter([top]), plays_of, new, sum(cards.values()))
    return openings


def _minimal(options: list[Counter]) -> list[Counter]:
    """Options no other option is a strict part of, in their order."""
    return [
        a for a in options
        if not any(b != a and all(b[c] <= a[c] for c in b) for b in options)
    ]


def _best_pile_turn(position: Position, clock: Clock) -> _PileTurn | None:
    best: _PileTurn | None = None
    bound = float("-inf")
    all_optimal = True
    openings = pile_openings(position)
    for opening, new, placed in openings:
        answer = _solve_play(opening, clock)
        if answer is None:
            continue
        after = answer.after
        if new is not None:
            # The top card's new play may have grown since: declare it as it ends. The
            # mover's own plays keep their places, and it was the opening's last one.
            final = after.player(position.to_move).plays[len(opening.player(position.to_move).plays) - 1]
            after = replace(after, turn=replace(after.turn, meld=(final,) + after.turn.meld))
        gain = robber_gain(position, after)
        candidate = _PileTurn(after, gain, gain + answer.bound - answer.gain, answer.optimal,
                              placed + answer.cards_played, len(openings))
        bound = max(bound, candidate.bound)
        all_optimal = all_optimal and answer.optimal
        if best is None or candidate.gain > best.gain:
            best = candidate
    # A sub-solve stopped by the time limit may hide a better opening: its bound counts.
    return replace(best, bound=bound, optimal=all_optimal) if best is not None else None


@dataclass(frozen=True)
class _StockValue:
    expected: float
    bound: float
    optimal: bool
    draws: int
    weight: int
    after: Position | None = None  # the turn, when the draw is certain (a listed stock)
    cards_played: int = 0


def stock_draws(position: Position) -> list[tuple[Card, int]]:
    """The cards the stock may give, each with its weight (unseen copies)."""
    stock = position.stock
    if isinstance(stock, tuple):
        return [(stock[0].plain(), 1)] if stock else []
    if stock == 0:
        return []
    return sorted(position.unseen_cards().items())


def after_stock_draw(position: Position, card: Card) -> Position:
    """The play-phase position after drawing ``card`` from the stock: in the hand
    (cold), and the stock one card shorter (a listed stock loses its top card)."""
    mover = position.mover
    stock = position.stock
    if isinstance(stock, tuple):
        stock = stock[1:]
    elif isinstance(stock, int) and stock > 0:
        stock -= 1
    drawn = position.replace_player(replace(mover, hand=(mover.hand or ()) + (card,), hot=(), warm=()))
    return replace(drawn, phase=Phase.PLAY, stock=stock, turn=None)


def _stock_expectation(position: Position, clock: Clock) -> _StockValue | None:
    draws = stock_draws(position)
    if not draws:
        return None
    total = value = bound = 0.0
    optimal = True
    answer = None
    for card, weight in draws:
        answer = _solve_play(after_stock_draw(position, card), clock)
        if answer is None:  # cannot happen without warm or hot cards; kept for safety
            continue
        gain = robber_gain(position, answer.after)
        total += weight
        value += weight * gain
        bound += weight * (gain + answer.bound - answer.gain)
        optimal = optimal and answer.optimal
    if not total:
        return None
    certain = isinstance(position.stock, tuple) and answer is not None
    return _StockValue(value / total, bound / total, optimal, len(draws), int(total),
                       answer.after if certain else None, answer.cards_played if certain else 0)
