"""benchmarks/house_anytime.py (issue 28 §4): its figures on made-up runs, and one real run on one position.

The real run compares f05161e (instrumented through CP-SAT solution callbacks) with the working tree
(heard through SolverConfig.on_better): the callbacks' objectives turned into gains must end at the
gain the previous version answers, and every answer must pass the checker.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import REPO_ROOT

BENCHMARKS = REPO_ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import house_anytime  # noqa: E402
from house_anytime_report import evaluate_draw, evaluate_row, share  # noqa: E402

POSITION = BENCHMARKS / "positions" / "house-real" / "real-2p-00.toml"  # melded mover, proven in ~0.1 s


def library(status: str, gain: float, seconds: float, events: list[list[Any]], draw_phase: bool = False) -> dict:
    return {"status": status, "gain": gain, "bound": gain if status == "optimal" else gain + 10, "seconds": seconds,
            "breaches": [], "events": events, "draw_phase": draw_phase}


def row(previous: dict, current: dict, limited: dict[str, dict[str, float | None]]) -> dict:
    return {"file": "x.toml", "set": "house", "group": "house-20", "library": {"previous": previous, "current": current},
            "limits": {v: {k: {"status": "feasible" if g is not None else "unknown", "gain": g,
                               "bound": 100.0 if g is not None else None, "breaches": []}
                           for k, g in limited[v].items()} for v in ("previous", "current")}}


def test_share_of_the_optimum() -> None:
    assert share(90, 100, 1e-6) == pytest.approx(0.9)
    assert share(100, 100, 1e-6) == 1.0
    assert share(None, 100, 1e-6) == 0.0
    assert share(0, 0, 1e-6) == 1.0 and share(-5, 0, 1e-6) == 0.0


def test_found_is_the_first_event_reaching_the_proven_optimum() -> None:
    r = row(library("optimal", 60, 2.0, [[0.1, 0.0, "cp-sat"], [0.4, 55.0, "cp-sat"], [0.9, 60.0, "cp-sat"]]),
            library("feasible", 60, 30.0, [[0.05, 60.0, "ladder"]]),
            {"previous": {"0.5": 55.0}, "current": {"0.5": 60.0}})
    evaluate_row(r, {"previous": 0.3, "current": 0.25}, 1e-6)
    assert r["optimum"] == 60 and r["optimum_proven"]
    assert r["found"] == {"previous": 0.9, "current": 0.05}
    assert r["found_process"]["previous"] == pytest.approx(1.2)
    assert r["proof"]["previous"] == 2.0 and math.isinf(r["proof"]["current"])
    assert r["shares"]["previous"]["0.5"] == pytest.approx(55 / 60) and r["shares"]["current"]["0.5"] == 1.0
    assert r["alarms"] == []


def test_unproven_optimum_is_the_best_gain_seen_and_bad_answers_are_flagged() -> None:
    r = row(library("feasible", 50, 30.0, []), library("feasible", 58, 30.0, [[1.5, 58.0, "cp-sat"]]),
            {"previous": {"1": 59.0}, "current": {"1": None}})
    r["limits"]["previous"]["1"]["breaches"] = ["steal-unpaid"]
    evaluate_row(r, {}, 1e-6)
    assert r["optimum"] == 59.0 and not r["optimum_proven"]
    assert math.isinf(r["found"]["previous"]) and math.isinf(r["found"]["current"])
    assert any("steal-unpaid" in a for a in r["alarms"])
    assert any("status unknown" in a for a in r["alarms"])  # a limited answer must say feasible, with a bound


def test_draw_phase_counts_only_draw_events() -> None:
    r = row(library("optimal", 45, 0.5, [], draw_phase=True),
            library("optimal", 45, 0.4, [[0.01, 49.0, "cp-sat"], [0.3, 45.0, "draw"]], draw_phase=True),
            {"previous": {}, "current": {}})
    evaluate_row(r, {}, 1e-6)
    assert r["found"] == {"previous": 0.5, "current": 0.3}  # previous: nothing heard, the answer's time
    assert r["notes"] and r["alarms"] == []


def test_draw_verdicts() -> None:
    stock = {"from": "stock", "value": 60.0}
    pile = {"from": "discard", "take": 1, "cards": ["7H"], "value": 60.0}
    demand = {"from": "demand", "card": "JD", "player": "bob", "value": 30.0}
    r = {"runs": {"current 10": {"status": "feasible", "draw": {"from": "discard"}, "draws_not_valued_in_time": 0,
                                 "options": [pile, stock, demand], "seconds": 10.0},
                  "current 120": {"status": "optimal", "draw": {"from": "stock"}, "draws_not_valued_in_time": 0,
                                  "options": [stock, pile, demand], "seconds": 40.0}}}
    evaluate_draw(r, {"draw_limit": 10.0, "draw_reference": 120.0})
    verdict = r["verdicts"]["current"]
    assert verdict["all_valued"] and not verdict["same_draw"] and verdict["as_good"]
    r["runs"]["current 10"]["options"] = [pile, stock]
    evaluate_draw(r, {"draw_limit": 10.0, "draw_reference": 120.0})
    assert not r["verdicts"]["current"]["all_valued"]


def test_sample_spreads_over_each_set() -> None:
    positions = [("a", Path(f"g{i // 10}-{i % 10:02d}.toml")) for i in range(40)] + [("b", Path("h-00.toml"))]
    chosen = house_anytime.pick(positions, [], 4)
    assert [p.name for s, p in chosen if s == "a"] == ["g0-00.toml", "g1-00.toml", "g2-00.toml", "g3-00.toml"]
    assert [p.name for s, p in chosen if s == "b"] == ["h-00.toml"]
    assert [p.name for _, p in house_anytime.pick(positions, ["g2"], None)] == [f"g2-{i:02d}.toml" for i in range(10)]


@pytest.mark.slow
def test_one_position_both_versions(tmp_path: Path) -> None:
    known = subprocess.run(["git", "-C", str(REPO_ROOT), "cat-file", "-e", f"{house_anytime.DEFAULT_BASE}^{{commit}}"],
                           capture_output=True)
    if known.returncode != 0:
        pytest.skip(f"{house_anytime.DEFAULT_BASE} is not in this clone (shallow?)")
    stem = tmp_path / "anytime"
    done = subprocess.run([sys.executable, str(BENCHMARKS / "house_anytime.py"), str(POSITION), "--cap", "20",
                           "--limits", "1", "--floor-runs", "1", "--output", str(stem)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads((stem.with_name("anytime.json")).read_text())
    assert result["heard"] == {"previous": "cp-sat callbacks", "current": "on_better"}
    (only,) = result["rows"]
    assert only["optimum_proven"] and only["alarms"] == []
    for version in ("previous", "current"):
        run = only["library"][version]
        assert run["status"] == "optimal" and run["gain"] == only["optimum"] and run["breaches"] == []
        assert run["events"] and max(gain for _, gain, _ in run["events"]) == pytest.approx(run["gain"])
        assert 0 < only["found"][version] <= run["seconds"] + 1e-3
        assert only["found_process"][version] > only["found"][version]  # the start-up floor added
        assert 0 <= only["shares"][version]["1"] <= 1
    text = stem.with_name("anytime.md").read_text()
    assert "## Done when" in text and "Best turn found within 1 s" in text
    assert "`positions/house-real` (1 positions)" in text
