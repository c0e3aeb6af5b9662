"""``rummy review GAME``: the lines, ``--json`` (docs/formats.md "Review"), ``--player``, the ``--svg`` and
``--html`` reports, ``--jobs``; a bad game file and a game that does not replay: one line, exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.core.test_review import house_game
from tests.support.cli import run_cli, run_main

LIMIT = ("--time-limit", "10")


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.toml"
    house_game().save(path)
    return path


def test_the_lines_name_the_loss_the_mark_and_the_summary(capsys: pytest.CaptureFixture[str],
                                                          game_file: Path) -> None:
    code, out, err = run_main(capsys, "review", game_file, *LIMIT)
    assert code == 0, err
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("1. ann"))
    assert lines[first].endswith("??")
    assert "gain 27; best 94: lost 67; best: play 2C 2H" in lines[first + 1]
    assert "draw: take 1, worth" in out and "the best draw" in out
    assert re.search(r"ann: 1 turn; lost 67 \(67\.00 a turn\); best 0 of 1 \(0%\); 1 \?\?", out)
    assert "bob: 2 turns; lost 0 (0.00 a turn); best 2 of 2 (100%)" in out


def test_json_follows_the_documented_schema(capsys: pytest.CaptureFixture[str], game_file: Path) -> None:
    code, out, err = run_main(capsys, "review", game_file, "--json", *LIMIT)
    assert code == 0, err
    data = json.loads(out)
    assert set(data) == {"review", "rules", "players", "player", "time_limit", "marks", "turns", "summary"}
    assert (data["review"], data["rules"], data["player"]) == (1, "house-classic", None)
    assert data["marks"] == {"absolute": [5, 10, 20], "relative": [0.1, 0.25, 0.5]}
    ann, draw, play = data["turns"]
    assert set(ann) == {"hand", "turn", "player", "phase", "played", "gain", "best", "lost", "mark", "beat_search",
                        "draw", "play_best_gain", "seconds"}
    assert (ann["gain"], ann["best"]["gain"], ann["best"]["status"], ann["lost"], ann["mark"]) == \
        (27, 94, "optimal", 67, "??")
    assert draw["phase"] == "draw" and draw["draw"]["played"] == {"from": "discard", "take": 1}
    assert set(draw["draw"]) == {"played", "played_value", "best", "best_value", "lost"}
    assert play["lost"] == 0 and play["mark"] is None
    assert [s["player"] for s in data["summary"]] == ["ann", "bob"]
    assert data["summary"][0] == {"player": "ann", "turns": 1, "skipped": 0, "lost": 67, "lost_per_turn": 67,
                                  "best_share": 0, "best_turns": 0, "marks": {"?!": 0, "?": 0, "??": 1}}


def test_player_reviews_that_players_turns(capsys: pytest.CaptureFixture[str], game_file: Path) -> None:
    code, out, err = run_main(capsys, "review", game_file, "--player", "bob", "--json", *LIMIT)
    assert code == 0, err
    data = json.loads(out)
    assert data["player"] == "bob" and {t["player"] for t in data["turns"]} == {"bob"}
    code, out, err = run_main(capsys, "review", game_file, "--player", "zed")
    assert code == 2 and err.strip().splitlines() == [
        "rummy: --player zed: not a player of this game (ann, bob, cat)"]


def test_svg_and_html_draw_the_worst_turn_played_and_best(capsys: pytest.CaptureFixture[str], game_file: Path,
                                                          tmp_path: Path) -> None:
    svg, page = tmp_path / "review.svg", tmp_path / "review.html"
    code, _, err = run_main(capsys, "review", game_file, "--svg", svg, "--html", page, *LIMIT)
    assert code == 0, err
    for text in (svg.read_text(), page.read_text()):
        assert "the turn ann played" in text and "the best turn for ann" in text
        assert text.count('data-section="after"') == 2  # the worst turn, played and best, side by side
    assert page.read_text().count("<tr>") == 1 + 3  # the heading and one row per turn
    assert not list(tmp_path.glob(".*.tmp"))


def test_jobs_give_the_same_review(capsys: pytest.CaptureFixture[str], game_file: Path) -> None:
    def without_seconds(out: str) -> object:
        data = json.loads(out)
        for turn in data["turns"]:
            turn.pop("seconds", None)
        return data

    one = run_main(capsys, "review", game_file, "--json", *LIMIT)
    two = run_main(capsys, "review", game_file, "--json", "--jobs", "2", *LIMIT)
    assert one[0] == two[0] == 0
    assert without_seconds(one[1]) == without_seconds(two[1])


def test_a_bad_game_file_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[game]\nformat = 1\nrules = "house-classic"\nplayers = ["ann"]\n')
    result = run_cli("review", bad)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("rummy: ") and "players" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_game_that_fails_to_replay_names_the_turn(tmp_path: Path, game_file: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text(game_file.read_text().replace("discard 8D", "discard 9S"))
    result = run_cli("review", broken)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "hand 1, turn 3 (bob: 'play 2S to ann/2" in result.stderr and "9S is not in bob's hand" in result.stderr


def test_a_report_is_not_written_over_the_game(game_file: Path) -> None:
    result = run_cli("review", game_file, "--html", game_file)
    assert result.returncode == 2 and "refusing to overwrite it" in result.stderr


def test_the_default_time_limit_is_the_librarys() -> None:
    import inspect

    from rummy.cli.review import review
    from rummy.games.review import REVIEW_TIME_LIMIT

    assert inspect.signature(review).parameters["time_limit"].default == REVIEW_TIME_LIMIT


def test_the_progress_bar_shows_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rummy.cli.review import _Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for stream, shown in ((io.StringIO(), False), (Terminal(), True)):
        monkeypatch.setattr("sys.stderr", stream)
        progress = _Progress("this process")
        progress.update(1, 4)
        progress.update(4, 4)
        progress.close()
        assert (progress.bar is not None) == shown
        assert ("review on this process" in stream.getvalue()) == shown


def test_a_json_game_reads_as_the_toml_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    house_game().save(path)
    code, out, err = run_main(capsys, "review", path, "--player", "ann", "--json", *LIMIT)
    assert code == 0, err
    (turn,) = json.loads(out)["turns"]
    assert (turn["lost"], turn["mark"]) == (67, "??")


def test_a_hidden_movers_turn_says_why_it_is_not_reviewed(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    from rummy.position import Position
    from tests.core.test_review import HOUSE_WORSE, game_of
    from tests.support.paths import PUZZLE_EXAMPLES

    path = tmp_path / "table.toml"
    game_of(Position.from_file(PUZZLE_EXAMPLES / "house-classic.toml"), ("ann", HOUSE_WORSE), ("bob", "draw")).save(path)
    code, out, err = run_main(capsys, "review", path, *LIMIT)
    assert code == 0, err
    assert "     not reviewed: the mover's hand is hidden" in out
    assert "bob: no turn reviewed (1 skipped)" in out
