"""puzzles/spread.py, the step of puzzles/make.sh that keeps a folder within the spread rule (no theme on more
than half of a kind's hard and expert puzzles): it removes the fewest puzzles."""

from __future__ import annotations

import importlib.util
from collections import Counter
from itertools import combinations
from typing import Any

from tests.support.paths import REPO_ROOT


def _spread() -> Any:
    spec = importlib.util.spec_from_file_location("spread", REPO_ROOT / "puzzles" / "spread.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entries(themes: list[list[str]], expert: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    return [{"name": f"p{k:02}", "tier": "expert" if k in expert else "hard", "themes": t} for k, t in enumerate(themes)]


def _within(entries: list[dict[str, Any]]) -> bool:
    counts = Counter(name for e in entries for name in e["themes"])
    return all(2 * n <= len(entries) for n in counts.values())


# Shaped like robber-draw's hard run: themes overlapping on most puzzles.
OVERLAPPING = [["a"], ["b", "c", "a"], ["d", "b", "a"], ["b", "c"], ["c", "a"], ["b", "c", "a"], ["c", "a"],
               ["d", "b"], ["a"], ["d", "c"], ["a", "e"], ["b", "e"], ["c"], ["d", "e"]]


def test_the_largest_subset_within_the_rule_is_kept() -> None:
    entries = _entries(OVERLAPPING)
    kept = _spread().largest_spread(entries)
    assert _within(kept)
    largest = max(n for n in range(len(entries) + 1)
                  if any(_within(list(c)) for c in combinations(entries, n)))  # exhaustive: 2^14 subsets
    assert len(kept) == largest


def test_a_folder_within_the_rule_is_left_whole_and_experts_are_kept_first() -> None:
    spread = _spread()
    within = _entries([["a"], ["b"], ["a", "b"], ["c"]])
    assert spread.largest_spread(within) == within
    # one of the two "a" puzzles must go: the hard one, not the expert
    kept = spread.largest_spread(_entries([["a"], ["a"], ["b"]], expert=frozenset({1})))
    assert [e["name"] for e in kept] == ["p01", "p02"]
    assert spread.largest_spread(_entries(OVERLAPPING)) == spread.largest_spread(_entries(OVERLAPPING))
