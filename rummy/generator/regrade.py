"""Grade a puzzle folder again after the ladder changed: ``python -m rummy.generator.regrade DIR``.

A puzzle's position, answer, uniqueness and themes do not depend on the ladder; its tier does. When the
rungs change (issue 29 made the old third rungs medium and added ``lookahead``), a folder whose positions
are costly to make again (``puzzles/mined``: self-played games) is re-graded in place: each puzzle's tier
is climbed again with its stored optimum and written where the files state it (the position's header and
``[puzzle]`` table, the solution's ``tier`` and ``difficulty``, the index). Every file is replaced
atomically (rummy.files); nothing else in them changes.

``--drop-greedy`` (the mined folder's own promise: its best turn is beyond every greedy player) removes a
puzzle whose optimum a greedy rung now reaches, with its files and index entry, instead of re-grading it.
"""

from __future__ import annotations

import json
import os
import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..files import Folder
from ..ladder import Grade, grade, ladder_of
from ..position import Position
from ..vocabulary import DrawSource, Phase
from .collection import INDEX, read_index

SOLUTION_LIMIT = 4 * 1024 * 1024


def regrade(path: Path, drop_greedy: bool = False) -> list[tuple[str, str, str]]:
    """Re-grade every puzzle of the folder; (name, old tier, new tier) for each one (new tier
    ``dropped``: a greedy rung solves it and ``drop_greedy`` removed it)."""
    changes = []
    with Folder(path) as folder:
        entries = read_index(folder)
        for name, entry in list(entries.items()):
            solution_data = folder.read(entry["solution"], SOLUTION_LIMIT)
            position_data = folder.read(entry["position"], SOLUTION_LIMIT)
            if solution_data is None or position_data is None:
                raise SystemExit(f"rummy: {path / name}: a puzzle file is missing")
            solution = json.loads(solution_data.decode("utf-8"))
            position = Position.from_file(path / entry["position"])
            if position.phase == Phase.DRAW:  # a Robber draw puzzle: graded by the draw rungs, never dropped
                graded = _draw_graded(position, solution)
            else:
                graded = grade(position, Fraction(str(solution["gain"])).limit_denominator(10_000))
            old, new = str(entry["tier"]), str(graded.tier)
            if drop_greedy and position.phase != Phase.DRAW \
                    and any(rung.greedy and rung.name == graded.rung for rung in ladder_of(position)):
                changes.append((name, old, "dropped"))
                for key in ("position", "solution"):
                    os.unlink(entry[key], dir_fd=folder.fd)  # within the opened folder, never through a link
                del entries[name]
                continue
            changes.append((name, old, new))
            solution["tier"] = new
            solution["difficulty"]["rung"] = graded.rung
            solution["difficulty"]["rung_gains"] = [{"rung": r, "gain": g} for r, g in graded.rung_gains]
            folder.write(entry["solution"], json.dumps(solution, indent=2, ensure_ascii=False) + "\n", replace=True)
            text = position_data.decode("utf-8")
            text = re.sub(r"(, tier )[a-z]+(; made by)", rf"\g<1>{new}\g<2>", text, count=1)
            text = re.sub(r'(\[puzzle\]\n(?:[^\[\n].*\n)*?tier = ")[a-z]+(")', rf"\g<1>{new}\g<2>", text, count=1)
            folder.write(entry["position"], text, replace=True)
            entry["tier"] = new
        data = {"puzzles": [entries[name] for name in sorted(entries)]}
        folder.write(INDEX, json.dumps(data, indent=2, ensure_ascii=False) + "\n", replace=True)
    return changes


def _draw_graded(position: Position, solution: dict[str, Any]) -> Grade:
    """A draw puzzle's grade by the draw rungs, its ``draw_rungs`` written in ``solution``."""
    from ..ladder.robber_draw import draw_grade
    from .robber_draw_kinds import draw_rungs_data, rung_gains

    graded = draw_grade(position, DrawSource(solution["draw"]["from"]), solution["gain"])
    solution["draw_rungs"] = draw_rungs_data(graded)
    return Grade(graded.tier, graded.rung, rung_gains(graded))


def main(argv: list[str]) -> int:
    drop = "--drop-greedy" in argv
    folders = [arg for arg in argv if arg != "--drop-greedy"]
    if len(folders) != 1:
        print("usage: python -m rummy.generator.regrade DIR [--drop-greedy]", file=sys.stderr)
        return 2
    for name, old, new in regrade(Path(folders[0]), drop):
        print(f"{name}: {old}" + ("" if old == new else f" -> {new}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
