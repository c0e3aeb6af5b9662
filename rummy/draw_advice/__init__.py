"""Draw advice: which draw to make, every option valued (rules.md §5 "Draw advice").

``advise(position, config)`` answers a draw-phase position of a family whose
record names its draws (``Family.draws``: House Rummy, lay-off rummy;
Robber Rummy has its own, in model/robber/draw). Each option
(draw/options) is valued by the gain of the whole turn measured from the
position before the draw: the best play-phase turn after it (the family's
own model) minus what the cards drawn cost in hand (``Family.hand_cost``,
so a card drawn and kept counts against the mover where hand cards
count). The stock's value is the exact expectation over the unseen cards,
one search per distinct card, weighted by its copies; a demand's is its
probability times its value on success; a pass is worth 0. Options after
which no turn is legal are left out.

Work is saved where it provably changes nothing: every unseen card that
can join no play (draw/idle) is answered by one search per penalty value,
and a demanded (hot) card that can join no play leaves no legal turn
without a search. The searches run on ``config.workers`` threads, one
CP-SAT worker each (CP-SAT releases the interpreter while it searches);
``config.progress`` hears of each one.

The answer (formats.md, draw phase): the best option first (on equal
values, the one taking fewer cards, then stock, open, discard, demand,
pass); ``gain`` is its value. Where the chosen draw is certain, ``after``
is the whole turn (its ``[turn] draw`` declared) and ``DrawChoice.start``
the play-phase position the plan starts from; where it is random, ``after``
is None and the answer is the draw alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction
from time import perf_counter

from ..position import Position, Turn
from ..solution import DrawChoice, DrawOption, Solution, SolverConfig
from ..vocabulary import DrawSource, Phase, Status
from .idle import idle_key
from .options import Draw, Outcome

# On equal values: the fewest cards taken, then this order.
_SOURCE_ORDER = (DrawSource.STOCK, DrawSource.OPEN, DrawSource.DISCARD, DrawSource.DEMAND, DrawSource.PASS)
# The least time a search is given, even when the limit has passed (it then answers "feasible" or nothing).
_LEAST_SECONDS = 0.05


@dataclass(frozen=True)
class _Valued:
    """One outcome's best turn: its value from before the draw, proven or not, and its ceiling."""

    solution: Solution | None  # None: no search was needed (no legal turn)
    value: Fraction | None  # None: no legal turn (or none found in time)
    bound: Fraction | None
    proven: bool


def advise(position: Position, config: SolverConfig) -> Solution:
    started = perf_counter()
    rules = position.rules
    family = rules.family
    draws = family.draw_options(position)
    jobs, keys = _searches(position, draws)
    random_keys = {keys[i, k] for i, d in enumerate(draws) if d.random for k in range(len(d.outcomes))}
    solved = _solve_all(jobs, random_keys, config, started + config.time_limit)
    options: list[tuple[DrawOption, Draw]] = []
    proven = True
    for index, draw in enumerate(draws):
        valued = [solved[keys[index, k]] for k in range(len(draw.outcomes))]
        proven = proven and all(v.proven for v in valued)
        option = _option(draw, valued)
        if option is not None:
            options.append((option, draw))
    options.sort(key=lambda pair: (-(pair[0].exact or 0), _cards_taken(pair[1]), _SOURCE_ORDER.index(pair[0].source),
                                   pair[0].take or 0))
    stock = next((d for d in draws if d.taken.source == DrawSource.STOCK), None)
    searches = sum(1 for v in solved.values() if v.solution is not None)
    seconds = perf_counter() - started
    unvalued = sum(1 for i, d in enumerate(draws)
                   if any(solved[keys[i, k]].value is None and not solved[keys[i, k]].proven
                          for k in range(len(d.outcomes))))
    stats = {"solves": searches, "draw_options": len(options), "draws_not_valued_in_time": unvalued}
    if not options:
        # Some draw may have a turn that the time limit did not leave room to find.
        if any(v.value is None and not v.proven for v in solved.values()):
            return Solution(Status.UNKNOWN, 0, 0, None, 0, "the time limit ran out before a draw with a legal turn "
                            "was found", seconds, stats, DrawChoice((), solves=searches))
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, _no_draw_reason(position, draws), seconds, stats,
                        DrawChoice((), solves=searches))
    chosen, draw = options[0]
    after, start, played = _turn(position, chosen, draw, solved, keys, draws.index(draw))
    choice = DrawChoice(tuple(o for o, _ in options), samples=len(stock.outcomes) if stock else 0,
                        unseen=sum(o.weight for o in stock.outcomes) if stock else 0, start=start, solves=searches)
    bound = max(float(o.bound if o.bound is not None else o.value) for o, _ in options)
    return Solution(Status.OPTIMAL if proven else Status.FEASIBLE, _number(chosen.exact or Fraction(0)),
                    max(bound, chosen.value), after, played, None, seconds, stats, choice)


def _searches(position: Position, draws: list[Draw]) -> tuple[dict[Hashable, Outcome | None],
                                                               dict[tuple[int, int], Hashable]]:
    """The searches to make, by key (None: no legal turn, no search), and each outcome's key.

    Unseen stock cards that can join no play share one search per penalty;
    random draws whose positions the model reads alike (``Family.search_signature``:
    in House, a card demanded from either of two hidden opponent hands) share one.
    """
    jobs: dict[Hashable, Outcome | None] = {}
    keys: dict[tuple[int, int], Hashable] = {}
    family = position.rules.family
    for index, draw in enumerate(draws):
        for k, outcome in enumerate(draw.outcomes):
            key: Hashable = (index, k)
            if draw.random:  # its turn is never shown: any position the model reads alike answers it
                signature = family.search_signature(outcome.start)
                if signature is not None:
                    key = ("same search", signature)
            if len(outcome.drawn) == 1:
                idle = idle_key(outcome.start, outcome.drawn[0])
                if idle is not None and outcome.drawn[0] in outcome.start.mover.hot:
                    key = ("no-turn",)
                    jobs[key] = None
                elif idle is not None:
                    key = (index, *idle)
            keys[index, k] = key
            jobs.setdefault(key, outcome)
    return jobs, keys


def _solve_all(jobs: dict[Hashable, Outcome | None], random_keys: set[Hashable], config: SolverConfig,
               deadline: float) -> dict[Hashable, _Valued]:
    """Every search, on ``config.workers`` threads, one CP-SAT worker each."""
    # Certain draws first: the plan of the chosen one needs their turns.
    todo = sorted(((key, outcome) for key, outcome in jobs.items() if outcome is not None),
                  key=lambda item: item[0] in random_keys)
    results: dict[Hashable, _Valued] = {key: _Valued(None, None, None, True) for key, outcome in jobs.items()
                                        if outcome is None}
    done = 0
    lock = threading.Lock()
    progress: Callable[[int, int], None] | None = config.progress

    def one(item: tuple[Hashable, Outcome]) -> None:
        nonlocal done
        key, outcome = item
        # Past the time limit the rest is not searched (its draws are left out, the answer "feasible").
        late = done > 0 and perf_counter() > deadline
        valued = _Valued(None, None, None, False) if late else _value(outcome, config, deadline)
        with lock:
            results[key] = valued
            done += 1
            if progress is not None:
                progress(done, len(todo))

    threads = max(1, min(config.workers, len(todo)))
    if threads == 1:
        for item in todo:
            one(item)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(one, todo))
    return results


def _value(outcome: Outcome, config: SolverConfig, deadline: float) -> _Valued:
    """The best turn after one outcome of a draw, valued from before the draw."""
    start = outcome.start
    rules = start.rules
    family = rules.family
    left = max(deadline - perf_counter(), _LEAST_SECONDS)
    # The turns this search finds count from the drawn position, not the one advised: nobody is told of them.
    solution = family.solver_function()(start, replace(config, time_limit=left, workers=1, progress=None,
                                                       on_better=None))
    if solution.status in (Status.NO_LEGAL_TURN, Status.UNKNOWN) or solution.after is None:
        return _Valued(solution, None, None, solution.status == Status.NO_LEGAL_TURN)
    cost = family.hand_cost(outcome.drawn, rules)
    value = Fraction(family.turn_gain(start, solution.after)) - cost
    bound = max(Fraction(solution.bound) - cost, value) if solution.status != Status.OPTIMAL else value
    return _Valued(solution, value, bound, solution.status == Status.OPTIMAL)


def _option(draw: Draw, valued: list[_Valued]) -> DrawOption | None:
    """The option of one draw, or None where no legal turn follows it (or none was found in time)."""
    taken = draw.taken
    if taken.source == DrawSource.PASS:
        return DrawOption(taken.source, 0.0, exact=Fraction(0), bound=0.0)
    if not valued or any(v.value is None for v in valued):
        return None
    weights = [o.weight for o in draw.outcomes]
    total = sum(weights)
    value = sum((w * v.value for w, v in zip(weights, valued) if v.value is not None), Fraction(0)) / total
    bound = sum((w * (v.bound if v.bound is not None else Fraction(0)) for w, v in zip(weights, valued)),
                Fraction(0)) / total
    scoring = None
    if taken.source == DrawSource.STOCK and draw.random:
        scoring = Fraction(sum(w for w, v in zip(weights, valued) if v.value is not None and v.value > 0), total)
    probability = None
    if taken.source == DrawSource.DEMAND:
        probability = draw.probability
        value, bound = value * probability, bound * probability
    return DrawOption(taken.source, float(value), draw.cards, taken.take, taken.card, taken.player, probability,
                      scoring, exact=value, bound=float(bound))


def _turn(position: Position, chosen: DrawOption, draw: Draw, solved: dict[Hashable, _Valued],
          keys: dict[tuple[int, int], Hashable], index: int) -> tuple[Position | None, Position | None, int]:
    """The whole turn after a certain draw (its after-position, the start of its plan, cards played)."""
    if chosen.source == DrawSource.PASS:
        turn = Turn(meld=(), replaced=(), discard=None, discard_declared=True, draw=chosen.taken())
        return replace(position, phase=Phase.PLAY, turn=turn), None, 0
    if draw.random:
        return None, None, 0
    solution = solved[keys[index, 0]].solution
    if solution is None or solution.after is None:
        return None, None, 0
    after = solution.after
    turn = after.turn or Turn()
    return replace(after, turn=replace(turn, draw=chosen.taken())), draw.outcomes[0].start, solution.cards_played


def _cards_taken(draw: Draw) -> int:
    return len(draw.outcomes[0].drawn) if draw.outcomes else 0


def _no_draw_reason(position: Position, draws: list[Draw]) -> str:
    if not draws:
        return "there is nothing to draw: the stock and the discard pile are empty"
    return "no draw leads to a legal turn (every card the discard pile offers must be played at once and cannot be)"


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)
