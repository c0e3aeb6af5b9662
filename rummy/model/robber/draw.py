"""Robber Rummy, the draw phase.

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
from fractions import Fraction

from ...cards import Card, cards_without
from ...draw_advice.options import after_stock_draw, stock_draws
from ...plays import Play
from ...position import Position
from ...solution import DrawChoice, DrawOption, Solution, SolverConfig
from ...vocabulary import DrawSource, Phase, Status
from ..clock import Clock
from ..extend.growth import growths, new_plays
from ..extend.select import NoTurnInTime
from .play import robber_gain, solve_play


def solve_draw(position: Position, config: SolverConfig, started: float) -> Solution:
    clock = Clock(started + config.time_limit)
    rules = position.rules
    try:
        pile = _best_pile_turn(position, clock)
        stock = _stock_expectation(position, clock)
    except NoTurnInTime as error:
        return Solution(Status.UNKNOWN, 0, 0, None, 0, str(error), time.perf_counter() - started, clock.stats())
    # Each legal draw with the turn after it.
    options: list[tuple[DrawOption, _PileTurn | _StockValue]] = []
    if pile is not None:
        options.append((_pile_option(position, pile.gain), pile))
    if stock is not None:
        options.append((_stock_option(position, stock.expected, stock.scores_chance), stock))
    # Best first; the pile only when it is worth strictly more (at equal value
    # the stock keeps the hand small, which is safer if someone goes out).
    options.sort(key=lambda pair: (-pair[0].value, pair[0].source == DrawSource.PILE))
    draw = DrawChoice(tuple(option for option, _ in options), samples=stock.draws if stock else 0,
                      unseen=stock.weight if stock else 0, openings=pile.openings if pile else 0)
    stats = clock.stats()
    seconds = time.perf_counter() - started
    if not options:
        top = position.discard_pile[-1].notation(rules.deck) if position.discard_pile else None
        why = f"the discard pile's top card {top} cannot be melded" if top else "the discard pile is empty"
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, f"{why} and the stock is empty", seconds, stats, draw)
    chosen, turn = options[0]  # draw.chosen
    optimal = (pile is None or pile.optimal) and (stock is None or stock.optimal)
    bound = max(pile.bound if pile else float("-inf"), stock.bound if stock else float("-inf"), chosen.value)
    return Solution(Status.OPTIMAL if optimal else Status.FEASIBLE, chosen.value, bound, turn.after,
                    turn.cards_played, None, seconds, stats, draw)


def _pile_option(position: Position, value: int) -> DrawOption:
    """Taking Robber's whole pile: its cards, top first."""
    return DrawOption(DrawSource.PILE, value, tuple(reversed(position.discard_pile)))


def _stock_option(position: Position, value: float, scores_chance: Fraction | None = None) -> DrawOption:
    """The stock: its top card, when the stock is listed (a certain draw)."""
    stock = position.stock
    return DrawOption(DrawSource.STOCK, value, stock[:1] if isinstance(stock, tuple) else (),
                      scores_chance=scores_chance)


@dataclass(frozen=True)
class _PileTurn:
    after: Position
    gain: int
    bound: float  # the best bound over every opening (a float: it starts from -inf)
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

    def opened(hand_used: Counter[Card], plays_of: dict[str, tuple[Play, ...]], new: Play | None, placed: int) -> None:
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
        kept = {p.name: p.plays for p in position.players}
        opened(cards - Counter([top]), {**kept, mover.name: kept[mover.name] + (new,)}, new, sum(cards.values()))
    return openings


def _minimal(options: list[Counter[Card]]) -> list[Counter[Card]]:
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
        answer = solve_play(opening, clock)
        if answer is None:
            continue
        after = answer.after
        if new is not None:
            # The top card's new play may have grown since: declare it as it ends. The
            # mover's own plays keep their places, and it was the opening's last one.
            final = after.player(position.to_move).plays[len(opening.player(position.to_move).plays) - 1]
            turn = after.turn
            assert turn is not None and turn.meld is not None  # solve_play declares the turn, its meld too
            after = replace(after, turn=replace(turn, meld=(final,) + turn.meld))
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
    scores_chance: Fraction | None = None  # the share of draws after which the turn gains anything


def _stock_expectation(position: Position, clock: Clock) -> _StockValue | None:
    draws = stock_draws(position)
    if not draws:
        return None
    total = value = bound = 0.0
    scoring = 0
    optimal = True
    answer = None
    for card, weight in draws:
        answer = solve_play(after_stock_draw(position, card), clock)
        if answer is None:  # cannot happen without warm or hot cards; kept for safety
            continue
        gain = robber_gain(position, answer.after)
        total += weight
        value += weight * gain
        scoring += weight if gain > 0 else 0
        bound += weight * (gain + answer.bound - answer.gain)
        optimal = optimal and answer.optimal
    if not total:
        return None
    # A listed stock gives one card for certain: its turn is the answer.
    certain = answer if isinstance(position.stock, tuple) else None
    after, played = (certain.after, certain.cards_played) if certain is not None else (None, 0)
    chance = Fraction(scoring, int(total)) if certain is None else None
    return _StockValue(value / total, bound / total, optimal, len(draws), int(total), after, played, chance)
