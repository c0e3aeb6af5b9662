"""Keeps a puzzle folder within the spread rule across runs (issue 29): no theme on more than half of a kind's
hard and expert puzzles, all presets of a family together (a kind is a family's: House's and the tiles'
``mined`` are two).

``rummy generate`` holds the rule within one run (no theme on more than ``count // 2`` of the puzzles it
is asked for); a run that stops at its ``--max-candidates`` with fewer puzzles than asked, or runs into
one folder together, may hold a theme on more than half. This step, run by puzzles/make.sh after the
House runs and on the mined folder, removes such puzzles one at a time: while a theme covers more than
half of a kind's hard and expert puzzles, the last (by name) hard puzzle carrying the theme that is most
over goes (an expert one when no hard one carries it), with its solution file and index entry.
Deterministic: the same collection in, the same collection out.
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


def prune(folder: Path) -> list[str]:
    index = folder / "index.json"
    data: dict[str, Any] = json.loads(index.read_text(encoding="utf-8"))
    gone: list[str] = []
    def family_kind(entry: dict[str, Any]) -> tuple[str, str]:
        return preset(entry["rules"]).family.name, entry["kind"]

    for kind in sorted({family_kind(e) for e in data["puzzles"]}):
        while True:
            mine = [e for e in data["puzzles"] if family_kind(e) == kind and e["tier"] in ("hard", "expert")]
            theme = over(mine)
            if theme is None:
                break
            carrying = [e for e in mine if theme in e["themes"]]
            hard = [e for e in carrying if e["tier"] == "hard"]
            victim = sorted(hard or carrying, key=lambda e: e["name"])[-1]
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
