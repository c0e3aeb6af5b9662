"""The best turn for a position: dispatch to the family's model, then plan it."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .errors import RummyError
from .meld_as_laid import meld_as_laid
from .plan import Plan, in_plan_order, make_plan
from .position import Position
from .solution import DrawChoice, DrawOption, Solution, SolverConfig
from .vocabulary import Action, DrawSource, Objective, Phase, Status

if TYPE_CHECKING:
    from .cards import Deck
    from .checker.verdict import Verdict

@dataclass(frozen=True)
class Answer:
    """A solved position: the solution and the plan that carries it out."""

    position: Position
    solution: Solution
    plan: Plan | None
    solution_objective: Objective = Objective.DEFAULT  # what the gain counts (tile rummy: tiles or their value)


def solver_for(position: Position, config: SolverConfig) -> Callable[[Position, SolverConfig], Solution]:
    """The family's model (imported here, so that timing a solve leaves the import out)."""
    family = position.rules.family
    if config.objective not in family.objectives:
        allowed = ", ".join(o for o in family.objectives if o != Objective.DEFAULT)
        raise RummyError(f"--objective {config.objective!r} does not apply to {position.rules.name} "
                         f"({'choose ' + allowed if allowed else 'it has one objective'})")
    if position.phase != Phase.PLAY and not family.advises_draws:
        raise RummyError(f"phase {position.phase!r}: 'best' answers play-phase positions of {position.rules.name}")
    if position.phase == Phase.DRAW and family.draws is not None:
        from .draw_advice import advise

        return advise
    return family.solver_function()


def best(position: Position, config: SolverConfig | None = None) -> Answer:
    """Solve and plan; ``seconds`` is model building and solving, not imports."""
    from .reader import known_mover_hand

    known_mover_hand(position, "position")  # a hidden mover: the one refusal (bad input), never a solve of no cards
    config = config or SolverConfig()
    if position.puzzle is not None:  # a puzzle's statement is no part of the game: the after holds none
        position = replace(position, puzzle=None)
    model = solver_for(position, config)
    started = time.perf_counter()
    solution = model(position, config)
    solution = replace(solution, seconds=time.perf_counter() - started)
    return planned(position, solution, config.objective)


def planned(position: Position, solution: Solution, objective: Objective = Objective.DEFAULT) -> Answer:
    """The answer with the plan of its turn, from the position the turn's play starts in (in the
    draw phase: the one the draw led to)."""
    plan_from: Position | None = position
    if position.phase == Phase.DRAW and solution.after is not None and solution.draw is not None:
        plan_from = solution.draw.start
        if plan_from is None and position.rules.family.answers_draw_phase:  # Robber: the draw read back
            from .checker.robber import apply_draw

            plan_from = apply_draw(position, solution.after)[0]
    if solution.after is None or plan_from is None:
        return Answer(position, solution, None, objective)
    laid = meld_as_laid(plan_from, solution.after)  # a meld a person lays as it stays, where legal
    plan = make_plan(plan_from, laid)
    after = in_plan_order(laid, plan)
    if after is not solution.after:  # the after-position's own names now agree with the plan's
        solution = replace(solution, after=after)
        plan = make_plan(plan_from, after)
    return Answer(position, solution, plan, objective)


def answer_from_data(position: Position, data: Any, source: str) -> Answer:
    """A ``best --json`` answer read back (a puzzle's ``NAME.solution.json``), planned from its
    ``after`` and its draw options, without solving anything; RummyError naming ``source`` where
    it is not one."""
    from .end_states import read_answer_draws

    if not isinstance(data, dict):
        raise RummyError(f"{source}: not a 'best --json' answer (not a JSON object)")
    try:
        after_data = data.get("after")
        after = Position.from_data(after_data, f"{source}: after", strict=False) if after_data is not None else None
        stats = data.get("stats") or {}
        draw = None
        if "options" in data:
            options = tuple(DrawOption(taken.source, float(option["value"]), cards, taken.take, taken.card,
                                       taken.player, _fraction(option.get("probability")),
                                       _fraction(option.get("scores_chance")))
                            for (taken, cards), option
                            in zip(read_answer_draws(data["options"], source), data["options"]))
            draw = DrawChoice(options, int(stats.get("samples", 0)), int(stats.get("unseen", 0)),
                              int(stats.get("openings", 0)), solves=int(stats.get("solves", 0)))
            if options and after is not None and position.rules.family.draws is not None:
                from .checker.draw_apply import apply_draw_taken

                draw = replace(draw, start=apply_draw_taken(position, options[0].taken(), after).start)
        solution = Solution(status=data["status"], gain=float(data["gain"]), bound=float(data["bound"]), after=after,
                            cards_played=int(data.get("cards_played", 0)), reason=data.get("reason"),
                            seconds=float(data.get("seconds", 0)), stats=dict(stats), draw=draw)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, RummyError):
            raise
        raise RummyError(f"{source}: not a 'best --json' answer ({type(error).__name__}: {error})") from None
    return planned(position, solution)


def _fraction(value: object) -> Fraction | None:
    """A probability as the JSON holds it (4 decimals), as a fraction."""
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise TypeError(f"expected a probability, got {value!r:.40}")
    return Fraction(str(value))


def answer_data(answer: Answer) -> dict[str, Any]:
    """The ``best --json`` object of formats.md."""
    from .rules import ruleset_to_spec

    solution = answer.solution
    rules = answer.position.rules
    data: dict[str, Any] = {
        "rules": ruleset_to_spec(rules),
        "status": solution.status,
        "gain": _number(solution.gain),
        "bound": _number(solution.bound),
        "cards_played": solution.cards_played,
        "steps": _draw_steps(answer) + (answer.plan.to_data(rules.deck) if answer.plan else []),
        "after": solution.after.to_data() if solution.after is not None else None,
        "seconds": round(solution.seconds, 4),
    }
    if solution.reason:
        data["reason"] = solution.reason
    lines = gain_breakdown(answer)
    if lines is not None:
        from .checker.verdict import json_number

        data["breakdown"] = [{"what": what, "points": json_number(points)} for what, points in lines]
    if answer.plan is not None:
        from .turn_text import answer_turn_text

        turn = answer_turn_text(answer)
        if turn is not None:  # the whole turn as one text, as 'check' and 'play' read it (formats.md "Turn text")
            data["turn"] = turn
        data["plays_disturbed"] = answer.plan.plays_disturbed
        data["cards_moved"] = answer.plan.cards_moved
    draw = solution.draw
    if draw is not None and draw.chosen is not None:
        data["draw"] = draw.chosen.to_data(rules.deck)
        data["options"] = [_option_data(option, rules.deck) for option in draw.options]
    stats = {**solution.stats, **_draw_figures(draw)} if draw is not None else solution.stats
    if stats:
        data["stats"] = {k: _number(v) for k, v in stats.items()}
    return data


def gain_breakdown(answer: Answer) -> list[tuple[str, Fraction | int]] | None:
    """Where the answer's gain comes from (formats.md ``breakdown``): lines that add up to ``gain``.

    From the position the turn starts in; after a draw, one more line for what
    the cards drawn cost in hand (draw advice measures from before the draw).
    None where there is no turn (a random draw, no legal turn).
    """
    from .checker.gain import breakdown

    after = answer.solution.after
    position = answer.position
    if after is None or answer.solution.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return None
    draw = answer.solution.draw
    start = draw.start if draw is not None else position
    if start is None:  # Robber's draw: its gain is measured from the draw-phase position itself
        start = position
    drawn = Counter(c.plain() for c in start.mover.hand or ()) - Counter(c.plain() for c in position.mover.hand or ())
    return breakdown(start, after, answer.solution_objective, drawn.elements())


def _option_data(option: DrawOption, deck: Deck) -> dict[str, Any]:
    """One of formats.md's ``options``: the draw, its value and, for a random stock draw, the chance
    that the turn scores."""
    data = {**option.to_data(deck), "value": _number(option.value)}
    if option.scores_chance is not None:
        data["scores_chance"] = _number(float(option.scores_chance))
    return data


def _draw_steps(answer: Answer) -> list[dict[str, Any]]:
    """The draw phase: the draw chosen comes first (formats.md); a random draw's answer is this step alone."""
    draw = answer.solution.draw
    chosen = draw.chosen if draw is not None else None
    if draw is None or chosen is None:
        return []
    step = {"action": Action.DRAW, **chosen.to_data(answer.position.rules.deck)}
    if chosen.source == DrawSource.STOCK:
        step["expected_gain"] = _number(expected_gain(draw))
    return [step]


def _draw_figures(draw: DrawChoice) -> dict[str, float | DrawSource | None]:
    """The draw phase's figures under ``stats``: the value of each draw, the searches, the draw chosen."""
    figures: dict[str, float | DrawSource | None] = {
        "pile_gain": draw.value_of(DrawSource.PILE), "stock_expected_gain": expected_gain(draw),
        "samples": draw.samples, "unseen": draw.unseen, "openings": draw.openings}
    if draw.solves:
        figures["solves"] = draw.solves
    if draw.chosen is not None:
        figures["draw"] = draw.chosen.source
    return figures


def expected_gain(draw: DrawChoice) -> float | None:
    """What drawing from the stock is worth, as printed (4 decimals); None where the stock cannot be drawn."""
    value = draw.value_of(DrawSource.STOCK)
    return None if value is None else round(value, 4)


def verify_answer(answer: Answer) -> Verdict | None:
    """The checker's verdict on an answer (``best --verify``), or None when it has no turn to judge.

    A turn (``after``) is judged from the position it starts from; in the draw
    phase the checker applies the draw first. A random draw's answer (``after``
    None) is judged by its draw alone (``rummy.checker.draw_judge.judge_random_draw``).
    """
    from .checker import check

    solution = answer.solution
    if solution.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return None
    if solution.after is not None:
        return check(answer.position, solution.after)
    chosen = solution.chosen_draw
    if answer.position.phase == Phase.DRAW and chosen is not None:
        from .checker.draw_judge import judge_random_draw

        return judge_random_draw(answer.position, chosen.taken())
    return None


def _number(value: object) -> object:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, float):
        return round(value, 4)
    return value
