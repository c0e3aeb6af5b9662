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
CP-SAT worker each (CP-SAT releases the interpreter while it searches),
and share ``config.time_limit`` as draw_advice/schedule lays out (issue
28): the family's quick turn values every outcome at once, then the
searches in this order (certain draws first) each get the time left, as
long as they can still change the choice (``_open_searches``), then what
is left goes to the searches that can still change it; none starts past
the limit. ``config.progress``
hears of each search; ``config.on_better`` of the options as they are
valued (``_Teller``: source "draw", the options valued so far best first,
``valued`` of ``total`` searches), never of a worse best option, and the
last it hears is the answer's.

The answer (formats.md, draw phase): the best option first (on equal
values, the one taking fewer cards, then stock, open, discard, demand,
pass); ``gain`` is its value. Where the chosen draw is certain, ``after``
is the whole turn (its ``[turn] draw`` declared) and ``DrawChoice.start``
the play-phase position the plan starts from; where it is random, ``after``
is None and the answer is the draw alone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from fractions import Fraction
from time import perf_counter

from ..position import Position, Turn
from ..solution import DrawChoice, DrawOption, Improvement, Solution, SolverConfig, as_number
from ..vocabulary import DrawSource, Phase, Status
from .idle import idle_key
from .options import Draw, Outcome
from .schedule import Schedule, Valued

# On equal values: the fewest cards taken, then this order.
_SOURCE_ORDER = (DrawSource.STOCK, DrawSource.OPEN, DrawSource.DISCARD, DrawSource.DEMAND, DrawSource.PASS)


def advise(position: Position, config: SolverConfig) -> Solution:
    started = perf_counter()
    position.rules.family.solver_function()  # its import is no search's share (rummy.answer.best's seconds skip it)
    draws = position.rules.family.draw_options(position)
    jobs, keys = _searches(position, draws)
    random_keys = {keys[i, k] for i, d in enumerate(draws) if d.random for k in range(len(d.outcomes))}
    # Certain draws first: the plan of the chosen one needs their turns.
    order = sorted(jobs, key=lambda key: key in random_keys)
    teller = _Teller(position, draws, keys, {key for key, outcome in jobs.items() if outcome is not None}, config,
                     started)
    schedule = Schedule(jobs, order, config, started + config.time_limit, teller.tell)
    solved = schedule.run(lambda results: _open_searches(draws, keys, results))
    options = _ranked(draws, keys, solved)
    proven = all(v.proven for v in solved.values())
    stock = next((d for d in draws if d.taken.source == DrawSource.STOCK), None)
    searches = schedule.done
    seconds = perf_counter() - started
    unvalued = sum(1 for i, d in enumerate(draws) if any(solved[keys[i, k]].unknown for k in range(len(d.outcomes))))
    stats = {"solves": searches, "searched_again": schedule.again, "draw_options": len(options),
             "draws_not_valued_in_time": unvalued}
    if not options:
        # Some draw may have a turn that the time limit did not leave room to find.
        if any(v.unknown for v in solved.values()):
            return Solution(Status.UNKNOWN, 0, 0, None, 0, "the time limit ran out before a draw with a legal turn "
                            "was found", seconds, stats, DrawChoice((), solves=searches))
        return Solution(Status.NO_LEGAL_TURN, 0, 0, None, 0, _no_draw_reason(position, draws), seconds, stats,
                        DrawChoice((), solves=searches))
    chosen, draw = options[0]
    after, start, played = _turn(position, chosen, draw, solved, keys, draws.index(draw))
    choice = DrawChoice(tuple(o for o, _ in options), samples=len(stock.outcomes) if stock else 0,
                        unseen=sum(o.weight for o in stock.outcomes) if stock else 0, start=start, solves=searches)
    bound = max(float(o.bound if o.bound is not None else o.value) for o, _ in options)
    return Solution(Status.OPTIMAL if proven else Status.FEASIBLE, as_number(chosen.exact or Fraction(0)),
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


def _ranked(draws: list[Draw], keys: dict[tuple[int, int], Hashable],
            results: dict[Hashable, Valued]) -> list[tuple[DrawOption, Draw]]:
    """The options every search of which is done, best first (the answer's order)."""
    options: list[tuple[DrawOption, Draw]] = []
    for index, draw in enumerate(draws):
        valued = [results.get(keys[index, k]) for k in range(len(draw.outcomes))]
        if any(v is None for v in valued):
            continue
        option = _option(draw, [v for v in valued if v is not None])
        if option is not None:
            options.append((option, draw))
    options.sort(key=lambda pair: (-(pair[0].exact or 0), _cards_taken(pair[1]), _SOURCE_ORDER.index(pair[0].source),
                                   pair[0].take or 0))
    return options


def _open_searches(draws: list[Draw], keys: dict[tuple[int, int], Hashable],
                   results: dict[Hashable, Valued]) -> list[list[Hashable]]:
    """The searches more time may help, in four tiers (each may be empty), the most urgent first
    (draw_advice/schedule; the last is never needed for the choice): outcomes still unvalued; the
    unproven outcomes of the options that may still be chosen (the chosen one and every one whose
    bound beats its value), the largest share of its option's gap first; the chosen option's alone
    (its turn is the answer); any other unproven one."""
    options = _ranked(draws, keys, results)
    chosen = options[0][1] if options else None
    best = (options[0][0].exact or Fraction(0)) if options else None
    unvalued = [key for key, v in results.items() if v.unknown]
    contenders: dict[Hashable, Fraction] = {}
    others: dict[Hashable, Fraction] = {}
    mine: dict[Hashable, Fraction] = {}
    for option, draw in options:
        index = draws.index(draw)
        gaps = _gaps(draw, [results[keys[index, k]] for k in range(len(draw.outcomes))],
                     [keys[index, k] for k in range(len(draw.outcomes))])
        exact_bound = sum(gaps.values(), Fraction(0)) + (option.exact or Fraction(0))
        rival = draw is not chosen and best is not None and exact_bound > best
        target = others
        if rival:
            target = contenders
        elif draw is chosen:
            target = mine
        for key, gap in gaps.items():
            target[key] = max(target.get(key, Fraction(0)), gap)
    if contenders:
        for key, gap in mine.items():
            contenders[key] = max(contenders.get(key, Fraction(0)), gap)
        mine = {}
    tiers: list[list[Hashable]] = []
    seen: set[Hashable] = set()
    for tier in (unvalued, _by_gap(contenders), _by_gap(mine), _by_gap(others)):
        fresh = [key for key in tier if key not in seen]
        seen.update(fresh)
        tiers.append(fresh)
    return tiers


def _gaps(draw: Draw, valued: list[Valued], keys: list[Hashable]) -> dict[Hashable, Fraction]:
    """Each unproven search's share of its option's gap (bound - value): its weight times its own gap."""
    total = sum(o.weight for o in draw.outcomes)
    probability = draw.probability if draw.taken.source == DrawSource.DEMAND else Fraction(1)
    gaps: dict[Hashable, Fraction] = {}
    for outcome, v, key in zip(draw.outcomes, valued, keys):
        if v.proven or v.value is None or v.bound is None:
            continue
        gaps[key] = gaps.get(key, Fraction(0)) + probability * outcome.weight * (v.bound - v.value) / total
    return gaps


def _by_gap(gaps: dict[Hashable, Fraction]) -> list[Hashable]:
    return [key for key, _ in sorted(gaps.items(), key=lambda item: -item[1])]


class _Teller:
    """Tells ``config.on_better`` of the options as they are valued (source "draw"): after every
    search that values an option or changes one, the options valued so far, best first."""

    def __init__(self, position: Position, draws: list[Draw], keys: dict[tuple[int, int], Hashable],
                 searches: set[Hashable], config: SolverConfig, started: float) -> None:
        self.position = position
        self.searches = searches
        self.draws = draws
        self.keys = keys
        self.listener = config.on_better
        self.progress: Callable[[int, int], None] | None = config.progress
        self.started = started
        self.told: tuple[tuple[Fraction | None, float | None], ...] | None = None
        self.shown: tuple[object, ...] | None = None

    def tell(self, results: dict[Hashable, Valued], done: int, total: int) -> None:
        """Called by the schedule under its lock, after each search (so in order, one at a time)."""
        if self.progress is not None:
            self.progress(done, total)
        if self.listener is None:
            return
        options = _ranked(self.draws, self.keys, results)
        summary = tuple((o.exact, o.bound) for o, _ in options)
        if not options or summary == self.told:
            return
        self.told = summary
        chosen, draw = options[0]
        after, _, played = _turn(self.position, chosen, draw, results, self.keys, self.draws.index(draw))
        searches = self.searches
        valued = sum(1 for key in searches if key in results)
        bounds = [float(o.bound if o.bound is not None else o.value) for o, _ in options]
        if valued < len(searches):
            # Options not yet valued: no proven bound for them; the highest known stands in (docs/draw.md).
            bounds += [float(v.bound) for v in results.values() if v.bound is not None]
        # What a progress line shows (4 decimals): an option's bound tightened out of sight is no news, and a
        # line that says nothing new is never sent (docs/formats.md, "Progress lines")
        shown = (round(float(chosen.exact or 0), 4), round(max([float(chosen.value), *bounds]), 4), valued,
                 tuple((str(o.taken()), round(float(o.value), 4)) for o, _ in options))
        if shown == self.shown:
            return
        self.shown = shown
        self.listener(Improvement(gain=as_number(chosen.exact or Fraction(0)), bound=max([chosen.value, *bounds]),
                                  seconds=round(perf_counter() - self.started, 4), after=after, cards_played=played,
                                  source="draw", options=tuple(o for o, _ in options), valued=valued,
                                  total=len(searches)))


def _option(draw: Draw, valued: list[Valued]) -> DrawOption | None:
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


def _turn(position: Position, chosen: DrawOption, draw: Draw, solved: dict[Hashable, Valued],
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

