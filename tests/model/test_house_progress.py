"""House's better turns told while the search goes on (SolverConfig.on_better): each one legal, its gain the
checker's, every one better than the last, never above the final answer, the bound never below the gain."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rummy.model.house import solve_house
from rummy.position import Position
from rummy.solution import Improvement, Solution, SolverConfig
from tests.support.judged import judged
from tests.support.paths import REPO_ROOT

POSITIONS = REPO_ROOT / "benchmarks" / "positions"
# Melded and unmelded movers, small and large tables, the play phase.
CASES = ["house/house-20-01.toml", "house/house-40-04.toml", "house-real/real-3p-02.toml",
         "house-real/unmelded-10-11-02.toml", "house-selfplay/classic-play-01.toml"]


def told(path: Path, seconds: float) -> tuple[Position, list[Improvement], Solution]:
    position = Position.from_toml(path.read_text(encoding="utf-8"))
    heard: list[Improvement] = []
    solution = solve_house(position, SolverConfig(time_limit=seconds, workers=1, on_better=heard.append))
    return position, heard, solution


@pytest.mark.parametrize("name", [c for c in CASES if (POSITIONS / c).is_file()])
def test_every_better_turn_told_is_legal_and_the_answer_is_never_worse(name: str) -> None:
    position, heard, solution = told(POSITIONS / name, 2.0)
    assert heard, "a search that found a turn told of it"
    gains = [event.gain for event in heard]
    assert gains == sorted(set(gains)), f"each told turn beats the one before: {gains}"
    assert solution.gain >= gains[-1]
    for event in heard:
        assert event.bound >= event.gain
        assert event.seconds >= 0
        assert event.after is not None
        judged(position, Solution(solution.status, event.gain, event.bound, event.after, event.cards_played))
    if solution.status == "optimal":
        assert gains[-1] == solution.gain, "the optimum found was told"


def test_nobody_listening_costs_no_after_position() -> None:
    path = POSITIONS / CASES[0]
    position = Position.from_toml(path.read_text(encoding="utf-8"))
    quiet = solve_house(position, SolverConfig(time_limit=2.0, workers=1))
    heard: list[Improvement] = []
    loud = solve_house(position, replace(SolverConfig(time_limit=2.0, workers=1), on_better=heard.append))
    assert quiet.gain == loud.gain and heard


def spied_runs(monkeypatch: pytest.MonkeyPatch, heard: list[Improvement]) -> list[tuple[int, int, bool]]:
    """Per CP-SAT run of the House model: turns told before it, when it returned, whether it was watched."""
    import rummy.model.house as house
    from rummy.model.run import run as real

    runs: list[tuple[int, int, bool]] = []

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        before = len(heard)
        result = real(*args, **kwargs)
        runs.append((before, len(heard), kwargs.get("on_solution") is not None))
        return result

    monkeypatch.setattr(house, "run", spy)
    return runs


def test_a_better_turn_is_told_while_its_run_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[Improvement] = []
    runs = spied_runs(monkeypatch, heard)
    path = POSITIONS / "house-real/real-3p-02.toml"
    position = Position.from_toml(path.read_text(encoding="utf-8"))
    solution = solve_house(position, SolverConfig(time_limit=5.0, workers=1, on_better=heard.append))
    assert any(after > before for before, after, _ in runs), "some turn was told before its run ended"
    assert runs[0][2], "the first run of the model is watched (the greedy turn's completion need not be)"
    assert [e.source for e in heard].count("cp-sat") >= 1
    for event in heard:
        judged(position, Solution(solution.status, event.gain, event.bound, event.after, event.cards_played))
    assert solution.gain >= heard[-1].gain


def test_a_run_nobody_listens_to_is_not_watched(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = spied_runs(monkeypatch, [])
    position = Position.from_toml((POSITIONS / CASES[1]).read_text(encoding="utf-8"))
    solve_house(position, SolverConfig(time_limit=2.0, workers=1))
    assert runs and not any(watched for _, _, watched in runs)


def test_under_a_short_limit_the_greedy_turn_comes_first_and_one_run_searches_from_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import rummy.model.house as house

    heard: list[Improvement] = []
    runs = spied_runs(monkeypatch, heard)
    path = POSITIONS / "house-real/real-3p-02.toml"  # a melded mover: one model, not proven at once
    position = Position.from_toml(path.read_text(encoding="utf-8"))
    limit = house.ONE_RUN_UNDER * 0.9
    solution = judged(position, solve_house(position, SolverConfig(time_limit=limit, workers=1,
                                                                   on_better=heard.append)))
    watched = [run for run in runs if run[2]]
    assert len(watched) == 1, "the model is searched in one run, not a quick run and a restart"
    if heard and heard[0].source == "greedy":
        assert runs[0][2] is False, "the greedy turn was completed before the model's run"
        assert solution.gain >= heard[0].gain
    for event in heard:
        judged(position, Solution(solution.status, event.gain, event.bound, event.after, event.cards_played))


def test_a_run_stopped_before_its_search_lowers_no_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """CP-SAT stopped before its search began (a tiny limit, a loaded machine) answers a bound of 0: not a proof."""
    import rummy.model.house as house
    from rummy.model.run import RunResult
    from rummy.vocabulary import SearchStatus

    def stopped(*args, **kwargs):  # type: ignore[no-untyped-def]
        return RunResult(SearchStatus.UNKNOWN, 0.0, 0.0, None, 0, 0.0)

    monkeypatch.setattr(house, "run", stopped)
    path = POSITIONS / "house-real/real-3p-02.toml"  # a melded mover; its best gain is 142
    position = Position.from_toml(path.read_text(encoding="utf-8"))
    solution = judged(position, solve_house(position, SolverConfig(time_limit=1.0, workers=1)))
    assert solution.status == "feasible"
    assert solution.bound >= 142
