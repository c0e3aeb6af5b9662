"""``rummy sheets DIR``: every puzzle of a collection as a sheet (task and position) and an answer sheet (the plan)."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from rummy.files import Folder
from rummy.plan import plan_marks
from rummy.sheets import read_collection, stored_answer, task_words
from rummy.words import plain, verdict_words
from tests.support.cli import run_cli
from tests.support.paths import REPO_ROOT
from tests.support.pictures import NS, expected_places, places, words_of

PUZZLES = REPO_ROOT / "puzzles"
PICKED = 3  # puzzles copied from each shipped collection (the whole of it takes longer)


def small_collection(source: Path, target: Path, count: int = PICKED) -> Path:
    """The first ``count`` puzzles of a shipped collection (spread over its kinds), with an index of them."""
    index = json.loads((source / "index.json").read_text())
    firsts = list({entry["kind"]: entry for entry in reversed(index["puzzles"])}.values())  # one of each kind
    entries = (firsts + [entry for entry in index["puzzles"] if entry not in firsts])[:count]
    target.mkdir()
    for entry in entries:
        shutil.copy(source / entry["position"], target)
        shutil.copy(source / entry["solution"], target)
    (target / "index.json").write_text(json.dumps({**index, "puzzles": entries}))
    return target


@pytest.mark.parametrize("collection", ["house", "tiles", "robber"])
def test_sheets_state_the_task_draw_every_card_and_mark_the_plan(collection: str, tmp_path: Path) -> None:
    folder = small_collection(PUZZLES / collection, tmp_path / collection)
    result = run_cli("sheets", folder)
    assert result.returncode == 0, result.stderr
    with Folder(folder) as opened:
        puzzles = read_collection(opened)
    assert len(puzzles) == PICKED
    for puzzle in puzzles:
        sheet = ET.fromstring((folder / f"{puzzle.name}.sheet.svg").read_text())
        assert sheet.tag == f"{NS}svg"
        task = task_words(puzzle)
        assert f"{puzzle.position.to_move} to move: " in task
        words = words_of(sheet)
        assert puzzle.name in words and task in " ".join(words.split())  # the task may wrap over lines
        drawn = places(sheet)
        expected = expected_places(puzzle.position)
        for place, cards in expected.items():
            assert Counter(drawn.get(place, [])) == cards, place
        assert sum(map(len, drawn.values())) == sum(sum(c.values()) for c in expected.values())

        answer_sheet = ET.fromstring((folder / f"{puzzle.name}.answer.svg").read_text())
        answer = stored_answer(puzzle)
        assert answer.plan is not None and answer.solution.after is not None
        after = answer.solution.after
        marks = plan_marks(answer.plan, after)
        # A card on the after-table wears the first mark plan_marks left for it there (a card that moved on has left).
        want: Counter[tuple[str | None, str | None, str | None]] = Counter()
        for place in after.named_plays():
            left = {card: list(kinds) for card, kinds in marks[place].items()}
            for card in after.play_with_layoffs(place):
                if left.get(card.plain()):
                    want[(place, card.notation(after.rules.deck), left[card.plain()].pop(0))] += 1
        got = Counter((group.get("data-place"), card.get("data-card"), card.get("data-mark"))
                      for section in answer_sheet.iter(f"{NS}g") if section.get("data-section") == "after"
                      for group in section.iter(f"{NS}g") if group.get("data-place") is not None
                      for card in group.iter(f"{NS}g") if card.get("data-mark") is not None)
        assert got == want and got
        verdict = plain(verdict_words(answer, timed=False), after.rules.deck)  # as 'rummy best' says it
        assert verdict in words_of(answer_sheet) and f" {puzzle.solution['gain']:g}  (" in verdict


def test_the_plan_is_read_back_not_solved(tmp_path: Path) -> None:
    """The answer sheet's plan comes from the stored after: its steps are the solution file's (in the
    plan's order of plays, which files made before answers listed plays in that order may not have)."""
    folder = small_collection(PUZZLES / "house", tmp_path / "house", 2)
    with Folder(folder) as opened:
        for puzzle in read_collection(opened):
            plan = stored_answer(puzzle).plan
            assert plan is not None
            made = sorted((step["action"], step.get("to", "")) for step in plan.to_data(puzzle.position.rules.deck))
            assert made == sorted((step["action"], step.get("to", "")) for step in puzzle.solution["steps"])


def test_out_folder_and_no_overwrite_without_force(tmp_path: Path) -> None:
    folder = small_collection(PUZZLES / "tiles", tmp_path / "tiles", 2)
    out = tmp_path / "sheets"
    assert run_cli("sheets", folder, "--out", out).returncode == 0
    written = sorted(p.name for p in out.iterdir())
    assert len(written) == 4 and all(name.endswith((".sheet.svg", ".answer.svg")) for name in written)
    assert not list(folder.glob("*.svg"))
    first = out / written[0]
    first.write_text("kept")
    again = run_cli("sheets", folder, "--out", out)
    assert again.returncode == 2 and again.stdout == ""
    assert len(again.stderr.strip().splitlines()) == 1 and "exists" in again.stderr and "--force" in again.stderr
    assert first.read_text() == "kept"
    forced = run_cli("sheets", folder, "--out", out, "--force")
    assert forced.returncode == 0, forced.stderr
    assert first.read_text().startswith("<svg")


def test_never_through_a_link(tmp_path: Path) -> None:
    folder = small_collection(PUZZLES / "tiles", tmp_path / "tiles", 1)
    name = json.loads((folder / "index.json").read_text())["puzzles"][0]["name"]
    victim = tmp_path / "victim"
    victim.write_text("keep")
    (folder / f"{name}.sheet.svg").symlink_to(victim)
    for force in ((), ("--force",)):
        result = run_cli("sheets", folder, *force)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
        assert victim.read_text() == "keep"
    link = tmp_path / "out-link"
    link.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "elsewhere").mkdir()
    result = run_cli("sheets", folder, "--out", link)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert not list((tmp_path / "elsewhere").iterdir())


@pytest.mark.parametrize("case", ["missing", "file", "no-index", "bad-index", "escaping-name", "deep-index",
                                  "deep-solution"])
def test_bad_dir_is_one_line_and_exit_2(case: str, tmp_path: Path) -> None:
    target = tmp_path / "dir"
    if case == "file":
        target.write_text("x")
    elif case == "no-index":
        target.mkdir()
    elif case == "bad-index":
        target.mkdir()
        (target / "index.json").write_text("{not json")
    elif case == "deep-index":  # the generator's reader: one clear error, never a RecursionError
        target.mkdir()
        (target / "index.json").write_text("[" * 100_000)
    elif case == "deep-solution":
        small_collection(PUZZLES / "house", target, 1)
        (next(target.glob("*.solution.json"))).write_text('{"after": ' + "[" * 100_000)
    elif case == "escaping-name":
        target.mkdir()
        (target / "index.json").write_text(json.dumps(
            {"puzzles": [{"name": "p", "kind": "max", "position": "../p.toml", "solution": "p.solution.json"}]}))
    result = run_cli("sheets", target)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
