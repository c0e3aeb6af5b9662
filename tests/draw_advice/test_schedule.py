"""Draw advice within its time (issue 28; rummy/draw_advice/schedule.py).

The schedule values every outcome at once (the family's quick turn), then
searches in the order given (certain draws first) what can still change the
choice, then shares what is left; no search starts past the limit. The options are told as they are valued
(``SolverConfig.on_better``, source "draw"). No timing is asserted: the
work is bounded (every search made, in the order asked), and every answer
is judged by the checker.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest

import rummy.draw_advice.schedule as schedule
from rummy.answer import best
from rummy.checker import check
from rummy.draw_advice import _searches
from rummy.draw_advice.options import Outcome
from rummy.draw_advice.schedule import Valued, merged
from rummy.position import Position
from rummy.solution import Improvement, SolverConfig
from rummy.vocabulary import Status
from tests.support.judged import judged
from tests.support.paths import REPO_ROOT

EXAMPLES = REPO_ROOT / "puzzles" / "examples"
DRAWS = REPO_ROOT / "benchmarks" / "positions" / "house-draw"
# Draw-phase House positions: a discard pile of 1-5 cards (hot bottom cards), demands (Epic), the upcard.
QUICK = [EXAMPLES / "house-classic-draw.toml", EXAMPLES / "house-epic-draw.toml", EXAMPLES / "house-upcard.toml",
         DRAWS / "house-40-06.toml", DRAWS / "real-3p-00.toml"]


def option_key(option: object) -> tuple[object, ...]:
    return (option.source, option.take, option.card, option.player)  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", QUICK, ids=lambda p: p.stem)
def test_every_option_valued_and_told_in_order(path: Path) -> None:
    position = Position.from_file(path)
    told: list[Improvement] = []
    # No overtime: a demand's hot card has no quick turn, and its search comes last; a loaded machine
    # needs some seconds for these small positions' searches (liveness, not speed, is asserted).
    answer = best(position, SolverConfig(time_limit=10, workers=2, on_better=told.append))
    solution = judged(position, answer.solution)
    assert solution.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert solution.stats["draws_not_valued_in_time"] == 0
    unlimited = best(position, SolverConfig(time_limit=60, workers=2)).solution
    assert unlimited.draw is not None and solution.draw is not None
    assert sorted(map(option_key, solution.draw.options), key=str) == \
        sorted(map(option_key, unlimited.draw.options), key=str)  # every option valued, none left out
    if solution.status == Status.OPTIMAL:
        assert solution.gain == unlimited.gain
    # The options as they were valued: in order, best first, never worse, the last one the answer.
    assert told, "no option was told"
    for before, after in pairwise(told):
        assert after.seconds >= before.seconds
        assert after.gain >= before.gain
        assert after.valued >= before.valued
    for event in told:
        assert event.source == "draw" and event.bound >= event.gain and 0 < event.valued <= event.total
        values = [option.value for option in event.options]
        assert values == sorted(values, reverse=True)
        assert event.gain == pytest.approx(values[0])
        if event.after is not None:  # the chosen draw's whole turn, judged from before the draw
            assert check(position, event.after).legal
    last = told[-1]
    assert last.valued == last.total
    assert option_key(last.options[0]) == option_key(solution.draw.options[0])
    assert last.gain == pytest.approx(solution.gain)
    assert [option_key(o) for o in last.options] == [option_key(o) for o in solution.draw.options]


def test_nobody_listening_keeps_progress_counting() -> None:
    position = Position.from_file(EXAMPLES / "house-classic-draw.toml")
    counts: list[tuple[int, int]] = []
    answer = best(position, SolverConfig(time_limit=10, workers=2, progress=lambda done, total: counts.append(
        (done, total))))
    judged(position, answer.solution)
    assert counts and [done for done, _ in counts] == list(range(1, len(counts) + 1))
    assert all(done <= total for done, total in counts)
    assert counts[-1][0] == answer.solution.stats["solves"]


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, bool]]:
    """The searches the schedule makes from now on: (seconds given, quick turn or not)."""
    made: list[tuple[float, bool]] = []
    real = schedule.value_outcome

    def counted(outcome: Outcome, config: SolverConfig, seconds: float, workers: int = 1,
                quick: bool = False) -> Valued:
        made.append((seconds, quick))
        return real(outcome, config, seconds, workers, quick)

    monkeypatch.setattr(schedule, "value_outcome", counted)
    return made


def test_no_search_starts_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit all but gone: the first search alone (an answer at all), then nothing, and no overtime."""
    position = Position.from_file(DRAWS / "real-3p-00.toml")
    made = _counted(monkeypatch)
    answer = best(position, SolverConfig(time_limit=0.001, workers=1))
    assert len(made) == 1
    solution = judged(position, answer.solution)
    assert solution.stats["solves"] == 1
    assert solution.status in (Status.FEASIBLE, Status.UNKNOWN)


def test_every_outcome_has_its_quick_turn_before_any_search(monkeypatch: pytest.MonkeyPatch) -> None:
    position = Position.from_file(DRAWS / "real-3p-00.toml")
    made = _counted(monkeypatch)
    answer = best(position, SolverConfig(time_limit=5, workers=2))
    searches = _search_count(position)
    assert [quick for _, quick in made[:searches]] == [True] * searches
    assert not any(quick for _, quick in made[searches:])
    solution = judged(position, answer.solution)
    assert solution.stats["solves"] == len(made)
    assert solution.stats["draws_not_valued_in_time"] == 0


class _Stand:
    """A stand-in for the family's model, by the drawn cards: (value, bound, proven) per search made, in turn
    (the last answer repeats; other cards: 10, proven), and per quick turn (other cards: 10, proven).
    Records the order of the searches (quick turns apart)."""

    def __init__(self, answers: dict[str, list[tuple[int | None, int | None, bool]]],
                 quick: dict[str, tuple[int | None, int | None, bool]]) -> None:
        self.answers = answers
        self.quick = quick
        self.made: list[str] = []
        self.quick_made: list[str] = []

    def __call__(self, outcome: Outcome, config: SolverConfig, seconds: float, workers: int = 1,
                 quick: bool = False) -> Valued:
        name = " ".join(card.notation() for card in outcome.drawn)
        if quick:
            self.quick_made.append(name)
            value, bound, proven = self.quick.get(name, (10, 10, True))  # the stock's cards: proven at once
        else:
            turns = self.answers.get(name, [(10, 10, True)])
            value, bound, proven = turns[min(self.made.count(name), len(turns) - 1)]
            self.made.append(name)
        return Valued(None, None if value is None else Fraction(value), None if bound is None else Fraction(bound),
                      proven, 0.0 if quick else seconds)


def test_the_proof_pass_goes_first_to_outcomes_without_a_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # house-30-03: the stock (15 cards) and the discard pile's 2C, then 2C JH (both hot: the bottom card).
    position = Position.from_file(DRAWS / "house-30-03.toml")
    stand = _Stand({"2C": [(20, 20, True)], "2C JH": [(35, 35, True)]},
                   {"2C": (None, None, False),  # no quick turn: searched first
                    "2C JH": (30, 50, False)})  # chosen at first, unproven
    monkeypatch.setattr(schedule, "value_outcome", stand)
    told: list[Improvement] = []
    answer = best(position, SolverConfig(time_limit=5, workers=1, on_better=told.append))
    solution = answer.solution
    assert len(stand.quick_made) == _search_count(position)
    assert stand.made == ["2C", "2C JH"]  # the stock's outcomes were proven by their quick turns
    assert solution.status == Status.OPTIMAL and solution.gain == 35
    assert solution.stats["draws_not_valued_in_time"] == 0
    assert told[-1].gain == 35 and [e.gain for e in told] == sorted(e.gain for e in told)


def test_an_option_that_cannot_be_chosen_is_searched_last(monkeypatch: pytest.MonkeyPatch) -> None:
    position = Position.from_file(DRAWS / "house-30-03.toml")
    stand = _Stand({"2C": [(6, 6, True)], "2C JH": [(40, 40, True)]},
                   {"2C": (5, 8, False),  # its bound is below the chosen value: no proof pass for it
                    "2C JH": (30, 50, False)})  # the chosen option: searched first
    monkeypatch.setattr(schedule, "value_outcome", stand)
    answer = best(position, SolverConfig(time_limit=5, workers=1))
    assert stand.made == ["2C JH", "2C"]  # the proof pass, then the rounds' last tier
    assert answer.solution.gain == 40 and answer.solution.status == Status.OPTIMAL


def test_quick_turns_can_settle_the_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    position = Position.from_file(DRAWS / "house-30-03.toml")
    stand = _Stand({}, {"2C": (5, 8, False), "2C JH": (40, 40, True)})
    monkeypatch.setattr(schedule, "value_outcome", stand)
    monkeypatch.setattr(schedule, "SECOND_PASS_LEAST", 1e6)  # no rounds: the proof pass alone
    answer = best(position, SolverConfig(time_limit=5, workers=1))
    assert stand.made == []  # the quick turns settled the choice
    assert answer.solution.gain == 40 and answer.solution.status == Status.FEASIBLE


def test_merged_keeps_a_proof_the_higher_value_and_the_lower_bound() -> None:
    proven = Valued(None, Fraction(7), Fraction(7), True, 1.0)
    low = Valued(None, Fraction(5), Fraction(9), False, 0.5)
    high = Valued(None, Fraction(6), Fraction(12), False, 1.0)
    nothing = Valued(None, None, None, False, 2.0)
    assert merged(low, proven) == proven and merged(proven, low) == replace(proven, given=1.0)
    assert merged(low, high) == Valued(None, Fraction(6), Fraction(9), False, 1.0)
    assert merged(high, nothing) == replace(high, given=2.0)
    assert merged(nothing, low) == replace(low, given=2.0)
    assert merged(None, nothing) == nothing


def _search_count(position: Position) -> int:
    jobs = _searches(position, position.rules.family.draw_options(position))[0]
    return sum(1 for outcome in jobs.values() if outcome is not None)


@pytest.mark.parametrize("name", ["house-30-03", "unmelded-10-11-07"])
def test_the_quick_turn_is_legal_and_its_bound_holds(name: str) -> None:
    """House's quick turn (house/quick): a legal turn (judged), no better than the optimum, which its bound holds."""
    position = Position.from_file(DRAWS / f"{name}.toml")
    jobs, _ = _searches(position, position.rules.family.draw_options(position))
    quick = position.rules.family.quick_solver_function()
    assert quick is not None
    found = 0
    for outcome in [o for o in jobs.values() if o is not None][:6]:
        start = outcome.start
        fast = quick(start, SolverConfig(time_limit=5, workers=1))
        if fast.status == Status.UNKNOWN:  # a hot card the greedy cannot play
            continue
        found += 1
        judged(start, fast)
        exact = judged(start, best(start, SolverConfig(time_limit=60, workers=1)).solution)
        if exact.status == Status.OPTIMAL:
            assert fast.gain <= exact.gain <= fast.bound
    assert found
