"""The breach codes have one home (rummy.checker.codes): the checker, docs/checker.md and the tests agree with it."""

from __future__ import annotations

import re

import pytest

from rummy.checker import Breach, BreachCode
from tests.support.paths import REPO_ROOT

DOC = REPO_ROOT / "docs" / "checker.md"


def documented_codes() -> set[str]:
    return set(re.findall(r"^\| `([a-z-]+)` \|", DOC.read_text(), flags=re.MULTILINE))


def test_docs_checker_md_lists_every_code_and_no_other() -> None:
    assert documented_codes() == {code.value for code in BreachCode}


def test_a_breach_refuses_a_code_the_checker_does_not_have() -> None:
    with pytest.raises(ValueError):
        Breach("not-a-code", "no such rule")
    assert Breach("spite", "a space lost score").code is BreachCode.SPITE


def test_every_code_the_checker_source_names_is_a_breach_code() -> None:
    named = set()
    for path in (REPO_ROOT / "rummy" / "checker").glob("*.py"):
        named |= set(re.findall(r'Breach\(\s*"([a-z-]+)"', path.read_text()))
    assert named <= {code.value for code in BreachCode}
    assert len(named) >= 30  # the search above still finds the checker's breaches
