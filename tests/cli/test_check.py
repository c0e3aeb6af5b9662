"""``rummy check BEFORE AFTER --best``: a judged turn against the best one, and where its gain comes from."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from rummy.position import Position, Turn
from rummy.words import number
from tests.support.cli import feed_stdin, run_cli, run_main
from tests.support.paths import PUZZLE_CASES, PUZZLE_EXAMPLES, REPO_ROOT

EXAMPLE = REPO_ROOT / "puzzles" / "examples" / "straight.toml"


def _discard_only(tmp_path: Path) -> Path:
    """A legal turn that lays nothing and discards the cheapest card (far from the best)."""
    position = Position.from_file(EXAMPLE)
    mover = position.mover
    assert mover.hand is not None
    cheapest = min(mover.hand, key=lambda c: position.rules.family.penalty(c, position.rules))
    hand = list(mover.hand)
    hand.remove(cheapest)
    after = replace(position.replace_player(replace(mover, hand=tuple(hand))),
                    discard_pile=position.discard_pile + (cheapest,),
                    turn=Turn(meld=(), replaced=(), discard=cheapest, discard_declared=True))
    path = tmp_path / "after.toml"
    path.write_text(after.to_toml())
    return path


def test_a_legal_turn_short_of_the_best_says_by_how_much(tmp_path: Path) -> None:
    after = _discard_only(tmp_path)
    result = run_cli("check", EXAMPLE, after, "--best", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    best = json.loads(run_cli("best", EXAMPLE, "--json").stdout)
    assert data["legal"] and data["best"]["status"] == "optimal" and data["best"]["gain"] == best["gain"]
    assert data["best"]["short_of_best"] == best["gain"] - data["reading"]["gain"] > 0
    human = run_cli("check", EXAMPLE, after, "--best").stdout
    assert f"legal, gain {number(data['reading']['gain'])}; the best turn scores {number(best['gain'])}" in human
    assert ".0;" not in human and not human.rstrip().endswith(".0")  # whole numbers read as whole numbers


def test_the_best_answer_is_a_best_turn_and_its_breakdown_adds_up(tmp_path: Path) -> None:
    answer = tmp_path / "answer.json"
    answer.write_text(run_cli("best", EXAMPLE, "--json").stdout)
    data = json.loads(run_cli("check", EXAMPLE, answer, "--best", "--json").stdout)
    assert data["best"]["short_of_best"] == 0
    assert sum(line["points"] for line in data["reading"]["breakdown"]) == data["reading"]["gain"]
    assert "this is a best turn" in run_cli("check", EXAMPLE, answer, "--best").stdout


def test_without_best_nothing_is_solved(tmp_path: Path) -> None:
    data = json.loads(run_cli("check", EXAMPLE, _discard_only(tmp_path), "--json").stdout)
    assert "best" not in data


def test_check_names_the_plays_as_best_does(tmp_path: Path) -> None:
    """House steals land in new plays: check's reading calls them what best's plan calls them (new/K)."""
    example = REPO_ROOT / "puzzles" / "examples" / "house-classic.toml"
    answer = tmp_path / "answer.json"
    answer.write_text(run_cli("best", example, "--json").stdout)
    steals = [s for s in json.loads(answer.read_text())["steps"] if s["action"] == "steal"]
    assert steals
    reading = run_cli("check", example, answer).stdout
    for step in steals:
        assert f"{step['to']} steals {step['card']}" in reading


def test_cards_put_into_a_robbed_space_say_why() -> None:
    """A step that puts cards (from the hand or moved) into a play of another player's space that lost
    cards to a steal, and pays for no steal, says why: a robbed play the steal left broken is kept whole
    ("keeps cat/1 whole after the steal of *"); a play of a robbed space re-formed keeps that space's
    plays whole. No other step carries a ``why``."""
    from collections import Counter

    from rummy.answer import best
    from rummy.plays import PlayName, is_whole
    from rummy.solution import SolverConfig

    paths = sorted((REPO_ROOT / "puzzles" / "house").glob("*steal*.toml"))[:12]
    paths += [PUZZLE_CASES / "house-classic-across-hard-s1-0004.toml",
              REPO_ROOT / "puzzles" / "examples" / "house-classic.toml"]
    kept_whole = 0
    for path in paths:
        position = Position.from_file(path)
        plan = best(position, SolverConfig(time_limit=20)).plan
        assert plan is not None
        before = position.named_plays()
        stolen = {s.source: [c for t in plan.steps if t.action == "steal" and t.source == s.source for c in t.cards]
                  for s in plan.steps if s.action == "steal" and s.source}
        robbed_spaces = {PlayName(name).owner for name in stolen}
        for step in plan.steps:
            if not step.why:
                continue
            assert step.action in ("play", "move") and not step.pays_for, (path.name, step)
            space = step.space or PlayName(step.target or "").owner
            assert space in robbed_spaces or step.target.startswith("new/"), (path.name, step)
            assert space != position.to_move
        for name, cards in stolen.items():
            left = Counter(c.plain() for c in before[name])
            for step in plan.steps:
                if step.source == name and step.action in ("steal", "move"):
                    left -= Counter(c.plain() for c in step.cards)
            if not left or is_whole(tuple(left.elements()), position.rules):
                continue
            filling = [s for s in plan.steps if s.target == name and not s.pays_for and s.action in ("play", "move")]
            assert filling, (path.name, name)
            written = " ".join(c.notation() for c in cards)
            for step in filling:
                assert step.why == f"keeps {name} whole after the steal of {written}", (path.name, step)
                kept_whole += 1
    assert kept_whole >= 3, "no robbed play re-filled in these puzzles: pick others"


def test_best_says_why_a_robbed_play_is_filled() -> None:
    said = run_cli("best", REPO_ROOT / "puzzles" / "examples" / "house-classic.toml").stdout
    assert "play 9D from your hand to cat/1: keeps cat/1 whole after the steal of *" in said
    said = run_cli("best", PUZZLE_CASES / "house-classic-across-hard-s1-0004.toml").stdout
    assert "move 2H from ann/3 to cat/1: keeps cat/1 whole after the steal of AC 3C" in said
    assert "move 2S from ann/1 to cat/1: keeps cat/1 whole after the steal of AC 3C" in said
    assert "play QH from your hand to ann/3 (KH AH 2H)\n" in said  # the mover's own plays need no why; named with its cards


def test_the_breakdown_says_the_hand_penalty_avoided_and_json_keeps_its_what(tmp_path: Path) -> None:
    example = REPO_ROOT / "puzzles" / "examples" / "house-classic.toml"
    said = run_cli("best", example).stdout
    assert "+ hand penalty avoided 34 +" in said
    data = json.loads(run_cli("best", example, "--json").stdout)
    assert {"what": "hand penalty", "points": 34} in data["breakdown"]
    answer = tmp_path / "answer.json"
    answer.write_text(run_cli("best", example, "--json").stdout)
    assert "hand penalty avoided 34" in run_cli("check", example, answer).stdout


def test_check_json_maps_end_state_names_to_plan_names(tmp_path: Path) -> None:
    """check --json keys its reading by the end state's plays; ``names`` gives best's name for each that differs."""
    example = REPO_ROOT / "puzzles" / "examples" / "house-classic.toml"
    answer = tmp_path / "answer.json"
    answer.write_text(run_cli("best", example, "--json").stdout)
    steals = [s for s in json.loads(answer.read_text())["steps"] if s["action"] == "steal"]
    data = json.loads(run_cli("check", example, answer, "--json").stdout)
    shown = {data["names"].get(play, play) for play in data["reading"]["steals"]}
    assert shown == {step["to"] for step in steals}
    assert all(name != plan for name, plan in data["names"].items())


# ------------------------------------------------------------ several problems in one file
def test_two_unknown_cards_are_two_lines_each_naming_the_file(tmp_path: Path) -> None:
    house = REPO_ROOT / "puzzles" / "examples" / "house-classic.toml"
    bad = tmp_path / "bad.toml"
    bad.write_text(house.read_text().replace('hand = "9D 8H', 'hand = "ZZ QQ 9D 8H', 1))
    for before, after in ((bad, house), (house, bad)):
        result = run_cli("check", before, after)
        assert result.returncode == 2 and result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 2 and all(str(bad) in line for line in lines), lines
        assert "'ZZ'" in lines[0] and "'QQ'" in lines[1]


def test_a_prefix_keeps_every_line_of_several_errors() -> None:
    from rummy.errors import PositionError, PositionErrors, RummyError, error_lines, with_prefix

    several = PositionErrors([PositionError("a.toml: players.ann.hand", "unknown card 'ZZ'"),
                              PositionError("a.toml: players.ann.hand", "unknown card 'QQ'")])
    assert error_lines(with_prefix(several, "a.toml -> b.toml")) == [
        "a.toml -> b.toml: a.toml: players.ann.hand: unknown card 'ZZ'",
        "a.toml -> b.toml: a.toml: players.ann.hand: unknown card 'QQ'"]
    one = with_prefix(PositionError("after", "is needed"), "x.toml")
    assert isinstance(one, PositionError) and str(one) == "x.toml: after: is needed"
    assert str(with_prefix(RummyError("no such folder"), "--out")) == "--out: no such folder"


def test_check_names_a_robber_steal_as_best_does(tmp_path: Path) -> None:
    """A stolen play keeps its name in check's reading too, with its new owner (as best's plan says it)."""
    example = REPO_ROOT / "puzzles" / "examples" / "robber.toml"
    answer = tmp_path / "answer.json"
    answer.write_text(run_cli("best", example, "--json").stdout)
    steals = [s for s in json.loads(answer.read_text())["steps"] if s["action"] == "steal"]
    reading = run_cli("check", example, answer).stdout
    assert steals
    for step in steals:
        owner = step["to"].split("/")[0]
        assert f"{step['from']} (now {owner}'s)" in reading, reading


# ------------------------------------------------------------ check --help: the turn table, and a turn of steps piped to stdin
def test_check_help_shows_the_turn_table(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_main(capsys, "check", "--help")
    assert code == 0
    assert "with its [turn] table" in out


def test_check_help_shows_a_turn_of_steps_piped_to_stdin(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn comes from a file or stdin: the help shows it piped, and the piped form works."""
    import re

    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_main(capsys, "check", "--help")
    assert code == 0
    example = re.search(r"echo '([^']+)' \| rummy check \S+ -", out)
    assert example, out
    assert "file, or - for stdin" in out
    feed_stdin(monkeypatch, "play 2C 2H to new/1; steal * from cat/1 to new/1 paid by 2C; play 9D to cat/1; discard KS")
    code, out, err = run_main(capsys, "check", PUZZLE_EXAMPLES / "house-classic.toml", "-")
    assert (code, err) == (0, "") and out.startswith("legal")
