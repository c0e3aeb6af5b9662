"""Keeps a puzzle folder within the spread rule across runs (issue 29): no theme on more than half of a kind's
hard and expert puzzles, all presets of a family together (a kind is a family's: House's and the tiles'
``mined`` are two).

``rummy generate`` holds the rule within one run (no theme on more than ``count // 2`` of the puzzles it
is asked for); a run that stops at its ``--max-candidates`` with fewer puzzles than asked, or runs into
one folder together, may hold a theme on more than half. This step, run by puzzles/make.sh after the
House runs, on the mined folder and on robber-draw, removes the fewest puzzles that bring every kind within
the rule: the largest set of a kind's hard and expert puzzles in which no theme is on more than half
(CP-SAT, exact: removing one puzzle at a time, the most-over theme's last, could leave 2 of robber-draw's
20 hard puzzles where 16 can stay), among the largest the one keeping the most expert puzzles, then the
earliest names. The removed ones go with their solution files and index entries. Deterministic: the same
collection in, the same collection out.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from rummy.rules import preset


def over(entries: list[dict[str, Any]]) -> str | None:
    """The theme most over half of ``entries`` (None: the spread holds)."""
    counts = Counter(name for e in entries for name in e["themes"])
    name, most = max(sorted(counts.items()), key=lambda item: item[1], default=("", 0))
    return name if 2 * most > len(entries) else None


def largest_spread(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The largest subset of ``entries`` in which no theme is on more than half (most experts, then the
    earliest names, among the largest); ``entries`` itself when it already is."""
    if over(entries) is None:
        return entries
    from ortools.sat.python import cp_model

    ordered = sorted(entries, key=lambda e: e["name"])
    model = cp_model.CpModel()
    kept = [model.new_bool_var(e["name"]) for e in ordered]
    for theme in sorted({name for e in ordered for name in e["themes"]}):
        model.add(2 * sum(k for k, e in zip(kept, ordered) if theme in e["themes"]) <= sum(kept))
    size = len(ordered) + 1
    # one more puzzle outweighs every expert and every name; one more expert outweighs every name
    model.maximize(sum(k * (size * size * 2 + (size if e["tier"] == "expert" else 0) + (size - i))
                       for i, (k, e) in enumerate(zip(kept, ordered))))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic
    solver.parameters.max_time_in_seconds = 60.0
    if solver.solve(model) != cp_model.OPTIMAL:
        raise SystemExit("spread: no proven largest subset within 60 s")
    return [e for k, e in zip(kept, ordered) if solver.value(k)]


def prune(folder: Path) -> list[str]:
    index = folder / "index.json"
    data: dict[str, Any] = json.loads(index.read_text(encoding="utf-8"))
    gone: list[str] = []

    def family_kind(entry: dict[str, Any]) -> tuple[str, str]:
        return preset(entry["rules"]).family.name, entry["kind"]

    for kind in sorted({family_kind(e) for e in data["puzzles"]}):
        mine = [e for e in data["puzzles"] if family_kind(e) == kind and e["tier"] in ("hard", "expert")]
        staying = {e["name"] for e in largest_spread(mine)}
        for victim in sorted((e for e in mine if e["name"] not in staying), key=lambda e: e["name"]):
            data["puzzles"].remove(victim)
            for key in ("position", "solution"):
                (folder / victim[key]).unlink()
            gone.append(victim["name"])
    tmp = index.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    tmp.replace(index)
    return gone


if __name__ == "__main__":
    for name in prune(Path(sys.argv[1] if len(sys.argv) > 1 else "puzzles/house")):
        print(f"removed {name} (spread)")
