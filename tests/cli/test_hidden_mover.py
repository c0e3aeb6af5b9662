"""A hidden mover on the command line and the API: ``play`` chains through hidden players' turns (ann's
best, bob's draw and steps, cat's take and steps), ``check`` and ``show`` read such a position, ``best``,
``hint`` and ``play best`` refuse it in one line (exit 2; the API: 400), ``check --best`` judges the turn
and leaves the best turn unanswered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy.checker import check
from rummy.position import Position
from rummy.reports import page
from rummy.reports.play import play_turn
from tests.support.cli import feed_stdin, run_cli, run_main
from tests.support.paths import PUZZLE_EXAMPLES

HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"  # ann known; bob and cat hidden


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, position: Path, turn: str,
         out: Path) -> Position:
    """``rummy play POSITION TURN --out OUT`` (TURN on stdin when it is steps), the next position read back."""
    if turn.startswith(("play", "discard")):
        feed_stdin(monkeypatch, turn + "\n")
        code, _, err = run_main(capsys, "play", position, "-", "--out", out)
    else:
        code, _, err = run_main(capsys, "play", position, turn, "--out", out)
    assert code == 0, err
    return Position.from_file(out, mover_may_be_hidden=True)


def test_play_chains_through_hidden_players_turns(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    start = Position.from_file(HOUSE)
    first = play(capsys, monkeypatch, HOUSE, "best", tmp_path / "1.toml")  # ann's best turn: she goes out
    assert first.to_move == "bob" and first.phase == "draw" and first.mover.hand is None
    drawn = play(capsys, monkeypatch, tmp_path / "1.toml", "draw", tmp_path / "2.toml")
    assert drawn.to_move == "bob" and drawn.phase == "play" and drawn.mover.hand_count == 5
    assert isinstance(first.stock, int) and drawn.stock == first.stock - 1
    bob = play(capsys, monkeypatch, tmp_path / "2.toml", "play 6S to bob/2; discard 2D", tmp_path / "3.toml")
    assert bob.to_move == "cat" and bob.player("bob").hand_count == 3
    assert bob.discard_pile[-1].notation() == "2D"
    took = play(capsys, monkeypatch, tmp_path / "3.toml", "take 2", tmp_path / "4.toml")
    assert took.mover.hand_count == 7 and [c.notation() for c in took.mover.hot] == ["KS"]
    cat = play(capsys, monkeypatch, tmp_path / "4.toml", "play KS KH KC to new/1; discard 5D", tmp_path / "5.toml")
    assert cat.player("cat").hand_count == 3 and cat.to_move == "bob"  # ann is out: passed over
    def cards(position: Position) -> int:  # every card of the deck is somewhere, counted
        assert isinstance(position.stock, int)
        return (sum(p.hand_size for p in position.players) + position.stock + len(position.discard_pile)
                + len(position.table_cards()))

    assert cards(cat) == cards(start)
    # each turn, read back from its file, is legal for the checker too
    before = Position.from_file(tmp_path / "4.toml", mover_may_be_hidden=True)
    turn = play_turn(before, "play KS KH KC to new/1; discard 5D", "steps", "toml", "here")
    assert check(before, turn.after).legal


def test_check_and_show_read_a_hidden_mover(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "play", HOUSE, "best", "--out", tmp_path / "next.toml")
    assert code == 0, err
    code, out, err = run_main(capsys, "show", tmp_path / "next.toml")
    assert code == 0, err
    assert "bob  (to move)" in out and "4 cards, not known" in out
    code, out, err = run_main(capsys, "check", "--best", "--json", tmp_path / "next.toml", "draw")
    assert code == 0, err
    code, out, err = run_main(capsys, "play", tmp_path / "next.toml", "draw", "--out", tmp_path / "drawn.toml")
    assert code == 0, err
    steps = tmp_path / "steps.txt"
    steps.write_text("play 6S to bob/2; discard 2D\n")
    code, out, err = run_main(capsys, "check", "--best", "--json", tmp_path / "drawn.toml", steps)
    assert code == 0, err
    data = json.loads(out)
    assert data["legal"] is True and "hidden" in data["reading"]["hidden_hand"]
    assert data["best"] == {"status": "unknown", "reason": "bob's hand is hidden"}
    code, out, err = run_main(capsys, "check", "--best", tmp_path / "drawn.toml", steps)
    assert code == 0 and "the best turn: not answered (bob's hand is hidden)" in out


@pytest.mark.parametrize("command", [["best"], ["hint"], ["play", "{}", "best"], ["best", "--json"]])
def test_best_hint_and_play_best_refuse_a_hidden_mover_in_one_line(tmp_path: Path, command: list[str]) -> None:
    position = tmp_path / "game.toml"
    position.write_text(HOUSE.read_text().replace('to_move = "ann"', 'to_move = "bob"'))
    args = [arg.replace("{}", str(position)) for arg in command]
    if "{}" not in command:
        args.insert(1, str(position))
    result = run_cli(*args)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr == (f"rummy: {position}: players.bob: bob's hand is hidden (hand_count): best answers for "
                             f"a known hand; enter bob's turn with 'rummy play {position} STEPS'\n")


def test_the_api_refuses_best_and_checks_a_hidden_mover() -> None:
    pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
    pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")
    import warnings

    with warnings.catch_warnings():  # starlette would rather have httpx2: a warning, not our concern
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from rummy.web.app import Settings, create_app

    text = HOUSE.read_text().replace('to_move = "ann"', 'to_move = "bob"')
    with TestClient(create_app(Settings(workers=1, max_seconds=5)), base_url="http://127.0.0.1") as client:
        response = client.post("/api/best", json={"position": text})
        assert response.status_code == 400, response.text
        assert response.json()["error"] == ("position: players.bob: bob's hand is hidden (hand_count): best answers "
                                            "for a known hand; enter bob's turn with 'rummy play position STEPS'")
        checked = client.post("/api/check", json={"before": text, "after": "play 6S to bob/2; discard 2D"})
        assert checked.status_code == 200, checked.text
        assert checked.json()["legal"] is True
    assert page.steps_report(text, "play 6S to bob/2")["view"]


def test_a_hidden_movers_whole_turn_in_one_text(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The draw and the steps of a hidden opponent's turn in one text, as a game record stores it: judged
    through the witness hand, as the two texts entered one after the other are (review of issue 27)."""
    play(capsys, monkeypatch, HOUSE, "best", tmp_path / "1.toml")
    whole = play(capsys, monkeypatch, tmp_path / "1.toml", "draw; play 6S to bob/2; discard 2D", tmp_path / "w.toml")
    play(capsys, monkeypatch, tmp_path / "1.toml", "draw", tmp_path / "2.toml")
    split = play(capsys, monkeypatch, tmp_path / "2.toml", "play 6S to bob/2; discard 2D", tmp_path / "s.toml")
    assert whole == split and whole.player("bob").hand_count == 3
    code, out, err = run_main(capsys, "check", tmp_path / "1.toml", "draw; play 6S to bob/2; discard 2D")
    assert code == 0 and out.startswith("legal") and "bob's hand is hidden" in out, err
    code, out, err = run_main(capsys, "check", tmp_path / "1.toml",
                              "draw; play 2C to bob/2; discard 2D")
    assert code == 2 and "2C is not in bob's hidden hand" in err


def test_steps_typed_as_the_argument(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A play phase's steps typed as TURN (no file of that name) read as 'game add' reads them."""
    play(capsys, monkeypatch, HOUSE, "best", tmp_path / "1.toml")
    play(capsys, monkeypatch, tmp_path / "1.toml", "draw", tmp_path / "2.toml")
    code, out, err = run_main(capsys, "play", tmp_path / "2.toml", "play 6S to bob/2; discard 2D")
    assert code == 0, err
    assert Position.from_text(out, "out", mover_may_be_hidden=True).player("bob").hand_count == 3
    code, out, err = run_main(capsys, "check", tmp_path / "2.toml", "play 6S to bob/2; discard 2D")
    assert code == 0 and out.startswith("legal"), err


def test_a_hand_left_unscored_by_two_hidden_hands_names_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    code, _, err = run_main(capsys, "play", HOUSE, "best", "--out", tmp_path / "1.toml")
    assert code == 0
    assert "not scored: bob and cat's hands are hidden (hand_count): the score counts their cards" in err
