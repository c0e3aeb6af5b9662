"""themes_of on every shipped puzzle's answer: it never fails and names only known themes, in order."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.position import Position
from rummy.themes import PLAIN_PLAY, THEMES, family_themes, themes_of
from rummy.vocabulary import PuzzleKind
from tests.support.paths import REPO_ROOT


def entries() -> list[tuple[Path, dict]]:
    """Every puzzle of every shipped collection (``puzzles/*/index.json``)."""
    found = []
    for index in sorted(REPO_ROOT.glob("puzzles/*/index.json")):
        found += [(index.parent, entry) for entry in json.loads(index.read_text(encoding="utf-8"))["puzzles"]]
    return found


ENTRIES = entries()


@cache
def turn(number: int) -> tuple[Position, Position, str]:
    folder, entry = ENTRIES[number]
    before = Position.from_file(folder / entry["position"])
    solution = json.loads((folder / entry["solution"]).read_text(encoding="utf-8"))
    return before, Position.from_data(solution["after"], strict=False), entry["kind"]


def assert_well_formed(found: tuple[str, ...], family: str, kind: str | None) -> None:
    assert found, "every turn has a theme, plain-play at least"
    assert all(name in THEMES for name in found)
    assert list(found) == sorted(found, key=list(THEMES).index) and len(set(found)) == len(found)
    assert set(found) <= set(family_themes(family, kind))
    assert PLAIN_PLAY not in found or found == (PLAIN_PLAY,)


def test_every_shipped_answer_has_well_formed_themes():
    assert len(ENTRIES) >= 400
    for number in range(len(ENTRIES)):
        before, after, kind = turn(number)
        found = themes_of(before, after, kind)
        assert_well_formed(found, before.rules.family.name, kind)
        stored = json.loads((ENTRIES[number][0] / ENTRIES[number][1]["solution"]).read_text(encoding="utf-8"))
        if "themes" in stored:  # a collection made with themes: they are what the answer has
            assert tuple(stored["themes"]) == found, ENTRIES[number][1]["name"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, len(ENTRIES) - 1), kind=st.sampled_from([None, *PuzzleKind]))
def test_any_kind_named_gives_well_formed_themes_and_leaves_out_only_the_tasks(number, kind):
    before, after, _ = turn(number)
    family = before.rules.family.name
    found = themes_of(before, after, kind)
    assert_well_formed(found, family, kind)
    # Naming a kind only ever takes its task's themes away.
    unnamed = themes_of(before, after)
    assert set(found) - {PLAIN_PLAY} <= set(unnamed)
    assert themes_of(before, after, kind) == found  # deterministic


def test_a_theme_that_restates_the_task_is_never_given():
    for number in range(len(ENTRIES)):
        before, after, kind = turn(number)
        found = themes_of(before, after, kind)
        if kind == "play-all" or (kind == "go-out" and before.rules.family.name == "layoff"):
            assert "going-out" not in found
        if kind == "meld-steal":
            assert "meld-steal" not in found
