"""`rummy check` against a corpus of turns whose verdict rules.md settles.

Every case is a pair ``NNN-slug-before.toml`` / ``NNN-slug-after.toml``. The
after file's first line is ``# expect legal`` or ``# expect illegal: CODE``
(several codes, comma-separated, when each of them must be reported); the
second line quotes the rule. Cases come from ``tests/data/check_cases/**`` and
from the shared examples (``$RUMMY_SHARED/examples/check``, by default the
``shared`` folder next to the repository).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from rummy.checker import BreachCode
from rummy.position import Position
from tests.support.paths import CHECK_CASES, REPO_ROOT, SHARED_DIR

REPO = REPO_ROOT
OWN_CASES = CHECK_CASES
BEFORE_SUFFIX = "-before.toml"
AFTER_SUFFIX = "-after.toml"

# An expectation naming a code the checker does not have is a typo.
KNOWN_CODES = frozenset(code.value for code in BreachCode)


def shared_dir() -> Path:
    return SHARED_DIR


@dataclass(frozen=True)
class CheckCase:
    name: str
    before: Path
    after: Path
    legal: bool
    codes: tuple[str, ...]
    source: str


def parse_expectation(line: str) -> tuple[bool, tuple[str, ...]]:
    """``# expect legal`` -> (True, ()); ``# expect illegal: a, b`` -> (False, ("a", "b"))."""
    text = line.strip()
    if text == "# expect legal":
        return True, ()
    prefix = "# expect illegal:"
    if text.startswith(prefix):
        codes = tuple(code.strip() for code in text[len(prefix):].split(",") if code.strip())
        if codes:
            return False, codes
    raise ValueError(f"not an expectation line: {line!r}")


def read_case(before: Path, label: str) -> CheckCase:
    stem = before.name[: -len(BEFORE_SUFFIX)]
    after = before.with_name(stem + AFTER_SUFFIX)
    lines = after.read_text(encoding="utf-8").splitlines() if after.exists() else ["", ""]
    try:
        legal, codes = parse_expectation(lines[0] if lines else "")
    except ValueError:
        legal, codes = False, ("<unparsed: " + (lines[0] if lines else "") + ">",)
    source = lines[1] if len(lines) > 1 else ""
    return CheckCase(f"{label}/{stem}", before, after, legal, codes, source)


def cases_in(folder: Path, label: str) -> list[CheckCase]:
    return [read_case(before, label) for before in sorted(folder.glob("*" + BEFORE_SUFFIX))]


def own_cases() -> list[CheckCase]:
    cases: list[CheckCase] = []
    for folder in sorted(p for p in OWN_CASES.rglob("*") if p.is_dir()):
        cases += cases_in(folder, folder.relative_to(OWN_CASES).as_posix())
    return cases


def shared_cases() -> list[CheckCase]:
    folder = shared_dir() / "examples" / "check"
    return cases_in(folder, "shared") if folder.is_dir() else []


def case_params(cases: list[CheckCase] | None = None) -> list:
    if cases is not None:
        return [pytest.param(case, id=case.name) for case in cases]
    params = [pytest.param(case, id=case.name) for case in own_cases() + shared_cases()]
    if not (shared_dir() / "examples" / "check").is_dir():
        reason = f"{shared_dir()}/examples/check not found (set RUMMY_SHARED)"
        params.append(pytest.param(None, id="shared-examples", marks=pytest.mark.skip(reason=reason)))
    return params


ALL_CASES = case_params()


def test_corpus_has_both_families_and_verdicts() -> None:
    cases = own_cases()
    families = {case.name.split("/")[0] for case in cases}
    assert {"house", "tile", "robber", "layoff"} <= families
    for family in families:
        verdicts = {case.legal for case in cases if case.name.split("/")[0] == family}
        assert verdicts == {True, False}, f"{family} needs legal and illegal cases"
    assert len(cases) >= 80


@pytest.mark.parametrize("case", ALL_CASES)
def test_case_files_are_well_formed(case: CheckCase) -> None:
    assert case.after.exists(), f"{case.after} is missing"
    assert case.legal or all(code in KNOWN_CODES for code in case.codes), f"unknown code in {case.codes}"
    assert case.source.startswith("# source:") and case.source[len("# source:"):].strip()


@pytest.mark.parametrize("case", ALL_CASES)
def test_before_loads_strictly(case: CheckCase) -> None:
    position = Position.from_file(case.before)
    # Robber Rummy's draw is part of what check judges: taking the pile binds its top card.
    assert position.phase == "play" or (position.phase == "draw" and position.rules.family == "robber")


@pytest.mark.parametrize("case", ALL_CASES)
def test_after_loads_as_end_state(case: CheckCase) -> None:
    before = Position.from_file(case.before)
    after = Position.from_file(case.after, strict=False)
    assert after.to_move == before.to_move
    assert after.rules == before.rules
    assert [p.name for p in after.players] == [p.name for p in before.players]


@pytest.mark.parametrize("case", ALL_CASES)
def test_check_verdict(case: CheckCase) -> None:
    from rummy.checker import check

    verdict = check(Position.from_file(case.before), Position.from_file(case.after, strict=False))
    found = [(breach.code, breach.message) for breach in verdict.breaches]
    assert verdict.legal == case.legal, f"expected {'legal' if case.legal else case.codes}, got {found}"
    if case.legal:
        assert not verdict.breaches, found
    else:
        missing = set(case.codes) - {breach.code for breach in verdict.breaches}
        assert not missing, f"missing {sorted(missing)}; reported {found}"
    for breach in verdict.breaches:
        assert breach.message.strip(), f"breach {breach.code} has no message"
    assert isinstance(verdict.reading, dict)


def cli_sample() -> list[CheckCase]:
    """The first legal and the first illegal case of every family: each CLI run is a process start."""
    sample: list[CheckCase] = []
    for case in own_cases():
        family = case.name.split("/")[0]
        if not any(s.name.split("/")[0] == family and s.legal == case.legal for s in sample):
            sample.append(case)
    return sample


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    return subprocess.run(
        [sys.executable, "-m", "rummy", "check", *map(str, args)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
    )


@pytest.mark.parametrize("case", case_params(cli_sample()))
def test_cli_check_exit_code(case: CheckCase) -> None:
    result = run_cli(case.before, case.after)
    assert result.returncode == (0 if case.legal else 1), result.stderr or result.stdout
    assert "Traceback" not in result.stderr


def json_sample() -> list[CheckCase]:
    """One case of every family from the CLI sample, legal and illegal in turn."""
    sample, families = [], []
    for case in cli_sample():
        family = case.name.split("/")[0]
        if family not in families and case.legal == (len(families) % 2 == 0):
            families.append(family)
            sample.append(case)
    return sample


@pytest.mark.parametrize("case", case_params(json_sample()))
def test_cli_check_json(case: CheckCase) -> None:
    result = run_cli(case.before, case.after, "--json")
    assert result.returncode == (0 if case.legal else 1), result.stderr
    data = json.loads(result.stdout)
    assert {"legal", "breaches", "reading"} <= set(data)
    assert data["legal"] is case.legal
    codes = {breach["code"] for breach in data["breaches"]}
    assert set(case.codes) <= codes
    assert (not data["breaches"]) == case.legal
