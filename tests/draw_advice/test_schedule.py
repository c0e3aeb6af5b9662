"""Draw advice within its time (issue 28; rummy/draw_advice/schedule.py).

The schedule values every outcome (a first pass with a fair share each,
none skipped), then spends what is left on the searches that can still
change the choice. The options are told as they are valued
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
def test_every_option_valued_and_told_in_order(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The overtime (for outcomes still unvalued at the limit) without its cap: on a loaded machine a
    # hot card's turn may take longer than the limit to find, and the guarantee asserted here is the
    # schedule's (every option valued), not the machine's speed.
    monkeypatch.setattr(schedule, "OVERTIME_SHARE", 1000.0)
    position = Position.from_file(path)
    told: list[Improvement] = []
    answer = best(position, SolverConfig(time_limit=1, workers=2, on_better=told.append))
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


def test_every_search_is_made_even_after_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit all but gone: no search of the first pass is skipped (each gets the least time)."""
    position = Position.from_file(DRAWS / "real-3p-00.toml")
    jobs, _ = _searches(position, position.rules.family.draw_options(position))
    given: list[float] = []
    real = schedule.value_outcome

    def counted(outcome: Outcome, config: SolverConfig, seconds: float, workers: int = 1) -> Valued:
        given.append(seconds)
        return real(outcome, config, seconds, workers)

    monkeypatch.setattr(schedule, "value_outcome", counted)
    monkeypatch.setattr(schedule, "OVERTIME_SHARE", 1e6)  # no stop: the first pass itself is asserted
    answer = best(position, SolverConfig(time_limit=0.01, workers=2))
    searches = sum(1 for outcome in jobs.values() if outcome is not None)
    assert len(given) >= searches  # the first pass made every search, each with the least time
    assert given[:searches] == [schedule.LEAST_SECONDS] * searches
    solution = judged(position, answer.solution)
    assert solution.stats["solves"] == len(given)


class _Stand:
    """A stand-in for the family's model, by the drawn cards: (value, bound, proven) per search made, in turn
    (the last answer repeats; other cards: 10, proven). Records the order of the searches."""

    def __init__(self, answers: dict[str, list[tuple[int | None, int | None, bool]]]) -> None:
        self.answers = answers
        self.made: list[str] = []

    def __call__(self, outcome: Outcome, config: SolverConfig, seconds: float, workers: int = 1) -> Valued:
        name = " ".join(card.notation() for card in outcome.drawn)
        turns = self.answers.get(name, [(10, 10, True)])  # the stock's cards: proven at once
        value, bound, proven = turns[min(self.made.count(name), len(turns) - 1)]
        self.made.append(name)
        return Valued(None, None if value is None else Fraction(value), None if bound is None else Fraction(bound),
                      proven, seconds)


def test_second_pass_goes_first_to_what_can_change_the_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    # house-30-03: the stock (15 cards) and the discard pile's 2C, then 2C JH.
    position = Position.from_file(DRAWS / "house-30-03.toml")
    stand = _Stand({"2C": [(None, None, False), (20, 20, True)],  # unvalued at first: searched again first
                    "2C JH": [(30, 50, False), (35, 35, True)],  # chosen, unproven
                    })
    monkeypatch.setattr(schedule, "value_outcome", stand)
    told: list[Improvement] = []
    answer = best(position, SolverConfig(time_limit=5, workers=1, on_better=told.append))
    solution = answer.solution
    again = stand.made[_search_count(position):]
    assert again[:2] == ["2C", "2C JH"]  # the unvalued outcome, then the chosen option's open one
    assert solution.status == Status.OPTIMAL and solution.gain == 35
    assert solution.stats["draws_not_valued_in_time"] == 0
    assert told[-1].gain == 35 and [e.gain for e in told] == sorted(e.gain for e in told)


def test_a_settled_choice_leaves_the_other_options_for_last(monkeypatch: pytest.MonkeyPatch) -> None:
    position = Position.from_file(DRAWS / "house-30-03.toml")
    stand = _Stand({"2C": [(5, 8, False), (6, 6, True)],  # cannot beat the chosen option: searched again last
                    "2C JH": [(30, 50, False), (40, 40, True)]})
    monkeypatch.setattr(schedule, "value_outcome", stand)
    answer = best(position, SolverConfig(time_limit=5, workers=1))
    again = stand.made[len(stand.made) - 2:]
    assert again == ["2C JH", "2C"]
    assert answer.solution.gain == 40 and answer.solution.status == Status.OPTIMAL


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
