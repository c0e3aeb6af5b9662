"""``rummy generate``: the exclusion hook, uniqueness, tiers, reproducibility, the command, the shipped puzzles.

The shipped collection (``puzzles/tiles``) is re-verified in full: the
checker accepts every stored answer, and the solver finds every stored gain
again, proven optimal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from rummy.checker import check
from rummy.generator import FAMILIES, KINDS, TIERS, Difficulty, Request, generate, tier_of
from rummy.generator.difficulty import THRESHOLDS
from rummy.generator.tile_arrangement import ambiguity, canonical
from rummy.generator.unique import judge
from rummy.ladder.robber_draw import draw_grade
from rummy.position import Position
from rummy.rules import preset
from rummy.solution import SolverConfig
from rummy.vocabulary import DrawSource, Phase, PuzzleKind
from tests.support.cli import run_main
from tests.support.judged import assert_graded_by_the_ladder, judged_best
from tests.support.paths import REPO_ROOT

CONFIG = SolverConfig(time_limit=10, workers=1)


def tile_position(table: list[str], hand: str, rules: str = "rummikub-lenient", turn: bool = False) -> Position:
    plays = ", ".join(f'"{play}"' for play in table)
    text = f'rules = "{rules}"\nto_move = "ann"\ntable = [{plays}]\n'
    text += f'[players.ann]\nmelded = true\nhand = "{hand}"\n[players.bob]\nmelded = true\nhand_count = 5\n'
    if turn:
        text += "[turn]\nmeld = []\n"
    return Position.from_toml(text, strict=not turn)


# ------------------------------------------------------------------ the hook
def test_an_excluded_table_is_never_answered_again():
    # B5 joins the book or the run: two tables, each as good.
    position = tile_position(["R5 O5 K5", "B6 B7 B8"], "B5")
    first = judged_best(position, CONFIG)
    second = judged_best(position, replace(CONFIG, exclude=(first.solution.after,)))
    third = judged_best(position, replace(CONFIG, exclude=(first.solution.after, second.solution.after)))
    assert first.solution.gain == second.solution.gain == 1
    assert canonical(second.solution.after) != canonical(first.solution.after)
    assert check(position, second.solution.after).legal
    assert third.solution.gain == 0  # both ways excluded: only drawing is left


def test_a_run_laid_whole_or_cut_is_one_table():
    # R4-R7 from the hand joins R1-R3 as one run; excluding it must not bring it back cut in two.
    position = tile_position(["R1 R2 R3", "K7 K8 K9"], "R4 R5 R6")
    first = judged_best(position, CONFIG)
    second = judged_best(position, replace(CONFIG, exclude=(first.solution.after,)))
    assert first.solution.gain == 3
    assert second.solution.gain < 3


def test_excluding_nothing_changes_nothing():
    position = tile_position(["R1 R2 R3", "K7 K8 K9", "B4 O4 R4"], "R4 K10 B2")
    plain = judged_best(position, CONFIG)
    hooked = judged_best(position, replace(CONFIG, exclude=()))
    assert plain.solution.after == hooked.solution.after
    assert plain.solution.gain == hooked.solution.gain


# --------------------------------------------------------------- uniqueness
def test_a_position_with_two_equally_good_tables_is_rejected():
    position = tile_position(["R5 O5 K5", "B6 B7 B8"], "B5")
    first = judged_best(position, CONFIG)
    verdict = judge(position, first, CONFIG, FAMILIES["tile"], 10)
    assert verdict.reason is not None and verdict.reason.startswith("not unique")


def test_a_position_with_one_best_table_is_kept_with_its_margin():
    position = tile_position(["R5 O5 K5", "B9 B10 B11"], "B5")
    first = judged_best(position, CONFIG)
    verdict = judge(position, first, CONFIG, FAMILIES["tile"], 10)
    assert verdict.reason is None
    assert verdict.margin == 1  # the runner-up plays nothing
    assert verdict.near >= 1


def test_the_search_by_repeated_best_answers_agrees_with_the_tile_search():
    # The fallback a family without its own rival search gets (House, Robber).
    support = replace(FAMILIES["tile"], rivals=None)
    two = tile_position(["R5 O5 K5", "B6 B7 B8"], "B5")
    one = tile_position(["R5 O5 K5", "B9 B10 B11"], "B5")
    assert judge(two, judged_best(two, CONFIG), CONFIG, support, 10).reason == "not unique"
    fallback = judge(one, judged_best(one, CONFIG), CONFIG, support, 10)
    own = judge(one, judged_best(one, CONFIG), CONFIG, FAMILIES["tile"], 10)
    assert fallback.reason is None and (fallback.margin, fallback.near) == (own.margin, own.near)


def test_a_joker_that_could_trade_places_with_a_tile_makes_two_answers():
    before = tile_position(["R3 R4 R5", "B5 K5 O5"], "*")
    after = tile_position(["R3 R4 R5", "B5 K5 O5 *"], "", turn=True)
    traded = tile_position(["R3 R4 *", "B5 K5 O5 R5"], "", turn=True)
    assert check(before, after).legal and check(before, traded).legal
    assert ambiguity(before, after) == "a joker and a tile could swap plays"


def test_runs_that_could_be_cut_differently_are_ambiguous():
    before = tile_position(["K1 K2 K3"], "R1 R2 R3 R4 R5 R3 R4 R5 R6 R7")
    after = tile_position(["K1 K2 K3", "R1 R2 R3 R4 R5", "R3 R4 R5 R6 R7"], "", turn=True)
    assert ambiguity(before, after) == "runs could be cut differently"


# -------------------------------------------------------------------- tiers
@pytest.mark.parametrize(
    "figures, tier",
    [
        ((0, 3, 0), "easy"),
        ((1, 9, 9), "easy"),
        ((2, 4, 2), "medium"),
        ((3, 5, 9), "medium"),
        ((3, 6, 4), "hard"),
        ((3, 20, 20), "hard"),
        ((4, 12, 9), "expert"),
        ((9, 11, 20), "hard"),
    ],
)
def test_tiers_follow_the_documented_thresholds(figures, tier):
    assert tier_of(Difficulty(*figures)) == tier


def test_hard_and_up_need_three_plays_rearranged_and_six_steps():
    for tier, disturbed, steps, _ in THRESHOLDS:
        if TIERS.index(tier) >= TIERS.index("hard"):
            assert disturbed >= 3 and steps >= 6


# ---------------------------------------------------------------- generator
@pytest.mark.slow
def test_generation_is_reproducible_for_a_seed():
    request = Request("rummikub-lenient", "play-all", 2, "hard", seed=5, workers=1)
    first, again = generate(request), generate(request)
    assert [p.name for p in first.puzzles] == [p.name for p in again.puzzles]
    for one, other in zip(first.puzzles, again.puzzles):
        assert one.position.to_toml() == other.position.to_toml()
        assert one.answer["after"] == other.answer["after"]
    assert first.rejected == again.rejected


@pytest.mark.slow
def test_generated_puzzles_are_what_they_claim():
    report = generate(Request("rummikub", "max", 2, None, seed=3, workers=1))
    assert len(report.puzzles) == 2
    for puzzle in report.puzzles:
        answer = judged_best(puzzle.position, CONFIG)
        assert answer.solution.gain == puzzle.answer["gain"]
        assert 0 < answer.solution.cards_played < len(puzzle.position.mover.hand)
        assert isinstance(puzzle.margin, int) and puzzle.margin >= 1
        assert_graded_by_the_ladder(puzzle.position, puzzle.tier, answer.solution.gain)
        assert puzzle.difficulty.shape_tier == tier_of(replace(puzzle.difficulty, shape_tier=None))


def test_a_requested_tier_rejects_what_a_weaker_player_solves():
    report = generate(Request("rummikub", "max", 1, "hard", seed=2, workers=1))
    assert report.puzzles and report.puzzles[0].tier == "hard"
    assert any(reason.startswith("solved by ") for reason in report.rejected), report.rejected


def test_every_kind_names_families_with_support():
    for kind in KINDS.values():
        assert kind.families and all(family in FAMILIES for family in kind.families)


# ------------------------------------------------------------------ command
def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "RUMMY_DEBUG")}
    return subprocess.run([sys.executable, "-m", "rummy", *map(str, args)], cwd=REPO_ROOT, capture_output=True,
                          text=True, env=env, timeout=120)


@pytest.mark.parametrize(
    "args, named",
    [
        (["--rules", "rummikub", "--kind", "sudoku"], "--kind"),
        (["--rules", "rummikub", "--kind", "max", "--difficulty", "insane"], "--difficulty"),
        (["--rules", "no-such-preset", "--kind", "max"], "--rules"),
        (["--rules", "house-classic", "--kind", "play-all"], "house-classic"),
        (["--rules", "house-epic", "--kind", "across", "--difficulty", "easy"], "--difficulty"),
        (["--rules", "robber", "--kind", "replace-meld"], "robber"),
        (["--rules", "rummikub", "--kind", "max", "--count", "0"], "--count"),
        (["--rules", "rummikub", "--kind", "max", "--seed", "-1"], "--seed"),
        (["--rules", "rummikub", "--kind", "max", "--seed", str(2**31)], "--seed"),
        (["--rules", "rummikub", "--kind", "max", "--workers", "0"], "--workers"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(tmp_path, args, named):
    result = run_cli("generate", *args, "--out", tmp_path / "out")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and named in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_the_command_writes_positions_answers_and_an_index(tmp_path):
    result = run_cli("generate", "--rules", "rummikub-lenient", "--kind", "play-all", "--count", "2",
                     "--difficulty", "medium", "--seed", "1", "--workers", "1", "--out", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "made 2 of 2" in result.stdout and "rejected" in result.stdout
    entries = json.loads((tmp_path / "index.json").read_text())["puzzles"]
    assert len(entries) == 2
    for entry in entries:
        position_text = (tmp_path / entry["position"]).read_text()
        assert '"after"' not in position_text and "steps" not in position_text
        checked = run_cli("check", tmp_path / entry["position"], tmp_path / entry["solution"])
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert entry["tier"] == "medium" and entry["kind"] == "play-all"


# ------------------------------------------------------- shipped collection
def shipped() -> list[dict]:
    """Every puzzle of every collection (``puzzles/*/index.json``), with its folder."""
    entries = []
    for index in sorted(REPO_ROOT.glob("puzzles/*/index.json")):
        for entry in json.loads(index.read_text(encoding="utf-8"))["puzzles"]:
            entries.append({**entry, "folder": index.parent})
    return entries


def _graded_by_the_ladder(entry: dict) -> bool:
    """Whether a shipped puzzle was graded by the ladder (its solution records the rungs' gains);
    collections made before the ladder carry the plan's shape tiers."""
    stored = json.loads((entry["folder"] / entry["solution"]).read_text(encoding="utf-8"))
    return "rung_gains" in stored["difficulty"]


@pytest.mark.parametrize("family, name", sorted(KINDS), ids=lambda value: str(value))
def test_the_collection_has_fifty_puzzles_of_each_kind_over_its_tiers(family, name):
    kind = KINDS[family, name]
    mine = [e for e in shipped() if e["kind"] == name and preset(e["rules"]).family == family]
    # puzzles/mined: of the tiers the games gave; 10 a family at least (issue 29 asked 20: the yields in
    # docs/generate.md "Puzzles mined from games" fell short of it on the day)
    mined = name == PuzzleKind.MINED
    assert len(mine) >= (10 if mined else 50), (family, name)
    if not all(_graded_by_the_ladder(e) for e in mine):
        pytest.skip(f"{family} {name}: the shipped puzzles were graded by the plan's shape, before the ladder "
                    "(puzzles/make.sh remakes them)")
    # Issue 29's remake: of the tiers the kind offers, those its deals reached under the lookahead ladder
    # (House replace-meld ships medium only, meld-steal medium and expert: docs/generate.md, the House yields)
    tiers = {e["tier"] for e in mine}
    assert tiers and tiers <= set(kind.tiers), (family, name, tiers)


def test_every_preset_has_puzzles():
    from rummy.rules import PRESETS

    assert {e["rules"] for e in shipped()} == set(PRESETS)


# Re-verification must not depend on the machine's speed: the largest House
# puzzles take seconds, so the solve gets a minute and both cores.
VERIFY = SolverConfig(time_limit=60, workers=2)


@pytest.mark.slow
@pytest.mark.parametrize("entry", shipped(), ids=lambda e: e["name"])
def test_a_shipped_puzzle_still_has_its_answer(entry):
    folder = entry["folder"]
    position = Position.from_file(folder / entry["position"])
    stored = json.loads((folder / entry["solution"]).read_text(encoding="utf-8"))
    after = Position.from_data(stored["after"], source=entry["solution"], strict=False)
    assert check(position, after).legal
    answer = judged_best(position, VERIFY)
    assert answer.solution.status == "optimal"
    assert check(position, answer.solution.after).legal
    # best --json writes a fractional gain (Epic's expected bonus) to 4 decimals
    assert answer.solution.gain == pytest.approx(stored["gain"], abs=1e-4) and stored["gain"] == entry["gain"]
    figures = stored["difficulty"]
    if "rung_gains" in figures:  # graded by the ladder
        assert stored["tier"] == entry["tier"]
        if position.phase == Phase.DRAW:  # a draw puzzle (draw-or-pile): graded by the draw rungs
            source = DrawSource(stored["draw"]["from"])
            assert draw_grade(position, source, answer.solution.gain).tier == stored["tier"]
        else:
            assert_graded_by_the_ladder(position, stored["tier"], answer.solution.gain)
    else:  # a collection made before the ladder: graded by the plan's shape
        assert stored["tier"] == entry["tier"] == tier_of(Difficulty(**figures), preset(entry["rules"]).family)
    assert stored["unique"] is True and stored["margin"] == entry["margin"]


def test_the_commands_verify_a_shipped_puzzle_of_every_collection():
    """What a player does with a puzzle: `rummy check` its stored answer, `rummy best --json` it."""
    first_of = {}
    for entry in shipped():
        first_of.setdefault(entry["folder"], entry)
    assert len(first_of) >= 3  # tiles, house, robber
    for folder, entry in first_of.items():
        position, solution = folder / entry["position"], folder / entry["solution"]
        checked = run_cli("check", position, solution)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        answer = json.loads(run_cli("best", "--json", position).stdout)
        assert answer["status"] == "optimal" and answer["gain"] == pytest.approx(entry["gain"], abs=1e-4)


# ------------------------------------------------------------ --rules is a choice
def test_generate_rules_is_a_choice_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    code, out, _ = run_main(capsys, "generate", "--help")
    assert code == 0 and "house-classic, house-epic, rummikub" in out  # named in the help, which wraps between words
    code, out, err = run_main(capsys, "generate", "--rules", "nope", "--kind", "max", "--out", tmp_path / "out")
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and "--rules" in lines[0] and "'nope'" in lines[0] and "rummikub" in lines[0]
    assert not (tmp_path / "out").exists()
