"""Inline positions for the shared-table games: ``rummy best`` and ``rummy show`` with --rules, --table
(a bag), --hand, --melded, --to-move, --players, --hand-count; what was assumed is said; bad or
hostile options get one line each and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy.checker import check
from rummy.inline import InlineParts, inline_position
from rummy.position import Position
from rummy.reports.position_warnings import position_warnings
from tests.support.cli import run_cli, run_main
from tests.support.paths import PUZZLE_EXAMPLES

TABLE = "R1 R2 R3 B5 B6 B7 K10 R10 O10"
INLINE = ("--rules", "rummikub", "--table", TABLE, "--hand", "R4 K4 *")


def judged_answer(answer: dict[str, object], parts: InlineParts) -> None:
    """The answer's turn, judged by the checker from the position the options describe."""
    before, _ = inline_position(parts)
    after = Position.from_data(answer["after"], strict=False)  # type: ignore[arg-type]
    verdict = check(before, after)
    assert verdict.legal, verdict.breaches
    assert verdict.reading["gain"] == answer["gain"]


def test_best_inline_says_what_it_assumed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "best", *INLINE, "--melded")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("inline position  (rummikub, you to move)")
    assert "assumed: you to move, melded" in lines
    assert "assumed: 1 opponent (opp1) holding 14 tiles (--players, --hand-count)" in lines
    assert "table arranged by rummy from a bag of 9 tiles" in lines
    assert "tiles played 3  (optimal" in out


def test_best_inline_json_has_the_assumptions_and_a_judged_turn(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "best", *INLINE, "--melded", "--json", "--players", "ann bob cat",
                            "--to-move", "bob", "--hand-count", "9 3")
    assert code == 0
    answer = json.loads(out)
    assert answer["assumed"] == {"rules": "rummikub", "to_move": "bob", "melded": True, "opponents": 2,
                                 "hand_counts": {"ann": 9, "cat": 3}}
    assert answer["table_bag"] == 9 and answer["status"] == "optimal" and answer["gain"] == 3
    judged_answer(answer, InlineParts("rummikub", TABLE, "R4 K4 *", True, "bob", "ann bob cat", "9 3"))


def test_opponents_are_assumed_to_hold_what_the_preset_deals() -> None:
    """The assumed rack is the preset's deal, as the warnings count it (rules.DEALS): no warning on it."""
    position, assumed = inline_position(InlineParts("yourturnmyturn", TABLE, "R4 K4 *", True))
    assert assumed.hand_counts == (18,) and position.player("opp1").hand_count == 18
    assert position_warnings(position) == []


def test_not_melded_is_said_with_the_meld_it_needs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "best", "--table", TABLE, "--hand", "R4 K4 *", "--players", "3")
    assert code == 0
    assert "assumed: rules rummikub (--rules to change)" in out
    assert "assumed: you to move, not melded (--melded if so): the first meld needs 30" in out
    assert "assumed: 2 opponents (opp1, opp2) holding 14 tiles each (--players, --hand-count)" in out


def test_issue_26_position_inline_gets_the_proven_optimum(capsys: pytest.CaptureFixture[str]) -> None:
    table = "R5-13 B7-13 B10 B1 O1 O10 O11 K3-7 K9-11 K1 K13 *"  # as the issue writes it, in shorthands
    hand = "R2 R12 B2 O2 O5 O6 O8 K2 K12"
    code, out, err = run_main(capsys, "best", "--rules", "rummikub-lenient", "--table", table, "--hand", hand,
                            "--melded", "--json", "--time-limit", "60")
    assert code == 0
    answer = json.loads(out)
    assert (answer["status"], answer["cards_played"], answer["table_bag"]) == ("optimal", 8, 32)
    assert err == ""  # nothing to warn of: the opponent's melded is said, not left out
    judged_answer(answer, InlineParts("rummikub-lenient", table, hand, True))


def test_show_inline_draws_the_laid_out_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "show", *INLINE, "--hand-count", "5")
    assert (code, err) == (0, "")
    assert "  (table arranged by rummy from a bag of 9 tiles)" in out
    assert "table/3  K10 R10 O10" in out
    assert "assumed: 1 opponent (opp1) holding 5 tiles (--players, --hand-count)" in out
    code, out, _ = run_main(capsys, "show", *INLINE, "--json")
    assert code == 0 and len(json.loads(out)["table"]) == 3


def test_a_bag_in_a_file_is_said_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bag.toml"
    path.write_text(f'rules = "rummikub"\nto_move = "ann"\ntable = "{TABLE}"\n'
                    'players.ann = {melded = true, hand = "R4 K4 *"}\nplayers.bob = {hand_count = 3}\n')
    code, out, _ = run_main(capsys, "best", path)
    assert code == 0 and "table arranged by rummy from a bag of 9 tiles" in out


def test_inline_and_a_position_file_together_is_a_usage_error() -> None:
    result = run_cli("best", PUZZLE_EXAMPLES / "rummikub.toml", "--table", TABLE)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "rummy: a position is given either inline (--rules, --table, --hand, --melded, --to-move, --players, "
        "--hand-count) or as POSITION, not both"]


@pytest.mark.parametrize("command", ["best", "show"])
def test_no_position_at_all_is_one_line(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, err = run_main(capsys, command)
    assert (code, out) == (2, "")
    assert err.splitlines() == ["rummy: POSITION: missing: give a position file (or - for stdin), or a tile "
                                "position inline (--table, --hand, ...)"]


@pytest.mark.parametrize(("options", "lines"), [
    (("--hand", "R4 X9 QQ", "--table", "R1 R2 ZZ"),
     ["rummy: --hand: unknown card 'X9' (colours K B R O (Y for O), e.g. R7 or K13; * a joker)",
      "rummy: --hand: unknown card 'QQ' (colours K B R O (Y for O), e.g. R7 or K13; * a joker)",
      "rummy: --table: unknown card 'ZZ' (colours K B R O (Y for O), e.g. R7 or K13; * a joker)"]),
    (("--hand", "R4", "--table", "R1 " * 40_000),
     ["rummy: --table: more than 256 cards in the position; no deck holds more than 106"]),
    (("--hand", "R4", "--players", "a " * 60_000), ["rummy: --players: more than 8 players; a position has at most 8"]),
    (("--hand", "R4", "--players", "ann ann"), ["rummy: --players: 'ann' is named twice"]),
    (("--hand", "R4", "--players", "99"), ["rummy: --players: '99' players; a position has 1 to 8"]),
    (("--hand", "R4", "--hand-count", "9" * 5000), [f"rummy: --hand-count: '{'9' * 39}…' is not a tile count (0 to 256)"]),
    (("--hand", "R4", "--hand-count", "3 4"),
     ["rummy: --hand-count: 2 counts for 1 opponent: give one for all, or one each"]),
    (("--hand", "R4", "--rules", "nope"), []),
    (("--hand", "7H", "--rules", "house-classic"),
     ["rummy: --rules: house-classic lays plays in players' spaces; an inline position is for the shared-table "
      "(tile) games: write a position file for it"]),
    (("--hand", "R4", "--players", "ann bob", "--to-move", "zed"),
     ["rummy: --to-move: 'zed' is not one of --players (ann bob)"]),
    (("--hand", "R4", "--to-move", "a b"),
     ["rummy: --to-move: 'a b' cannot be a player name: no spaces, '/' or control characters"]),
    (("--hand", "R4", "--to-move", "x" * 100_000, "--players", "3"),
     [f"rummy: --to-move: a player name has 1 to 32 characters, got '{'x' * 39}…'"]),
    (("--table", TABLE,), ["rummy: --hand: missing: the tiles of the player to move, e.g. --hand \"R4 K4 *\""]),
    (("--hand", "R4", "--table", "R1 R2 R3 K9"),
     ["rummy: --table: K9 fits in no play with the other tiles of the bag: the table cannot be arranged"]),
    (("--hand", "R4", "--table", "R1 R2 R3 *"),
     ["rummy: --table: 1 joker without a stand-in: under rummikub jokers are fixed, so a bag gives each joker's "
      "card (e.g. *=R1), or give the table as plays"]),
    (("--hand", "R1 R1", "--table", "R1 R2 R3"),
     ["rummy: --table: 3 copies of R1 in the position, but the rummikub deck holds 2"]),
    (("--hand", "R4", "--jobs", "2"),
     ["rummy: an inline position is one position: --jobs and --cluster are for many files"]),
])
def test_bad_inline_options_get_one_line_each_and_exit_2(capsys: pytest.CaptureFixture[str],
                                                        options: tuple[str, ...], lines: list[str]) -> None:
    code, out, err = run_main(capsys, "best", *options)
    assert (code, out) == (2, "")
    if lines:
        assert err.splitlines() == lines
    else:
        assert len(err.splitlines()) == 1 and err.startswith("rummy: --rules: unknown preset 'nope'")
