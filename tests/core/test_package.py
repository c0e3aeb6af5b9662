"""The installed package: one top-level name, a cheap import, and a checker independent of the models."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.paths import REPO_ROOT


def loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, check=True)
    return set(run.stdout.split())


@pytest.mark.parametrize("statement", [
    "import rummy",
    "from rummy.checker import check",
    "import rummy.cli.app",
])
def test_importing_loads_no_or_tools(statement: str) -> None:
    loaded = loaded_after(statement)
    assert not any(name == "ortools" or name.startswith("ortools.") for name in loaded)
    assert not any(name.startswith("rummy.model") for name in loaded)


def test_the_public_api_answers_and_judges_a_position() -> None:
    import rummy

    position = rummy.Position.from_file(REPO_ROOT / "puzzles" / "examples" / "rummikub.toml")
    answer = rummy.best(position, rummy.SolverConfig(time_limit=30))
    assert answer.solution.status == "optimal"
    assert rummy.check(position, answer.solution.after).legal


def test_python_dash_m_rummy_runs_the_program() -> None:
    run = subprocess.run([sys.executable, "-m", "rummy", "rules"], capture_output=True, text=True, cwd=REPO_ROOT)
    assert run.returncode == 0 and "house-classic" in run.stdout


def test_cp_model_is_imported_without_numpy_and_pandas_which_stay_importable() -> None:
    """rummy.model.cpsat keeps numpy and pandas out of a model's start (their stand-ins gone once cp_model is in),
    and a later import of either gets the real module, also seen by cp_model's helpers."""
    loaded = loaded_after("import rummy.model.cpsat")
    assert "ortools.sat.python.cp_model" in loaded
    assert "numpy" not in loaded and "pandas" not in loaded
    code = ("from rummy.model.cpsat import cp_model; import numpy; "
            "print(numpy.zeros(2).sum() == 0, numpy is not cp_model.np, hasattr(numpy, 'ndarray'))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, check=True)
    assert run.stdout.split() == ["True", "True", "True"]


def test_cp_model_keeps_the_real_numpy_where_it_was_loaded_first() -> None:
    code = "import numpy; from rummy.model.cpsat import cp_model; print(cp_model.np is numpy)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, check=True)
    assert run.stdout.split() == ["True"]
