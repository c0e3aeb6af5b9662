"""``rummy game new/add/undo/show``: a game recorded turn by turn (House's draw phase, tiles, Robber, Straight),
each turn as ``play`` reads it; ``show --turn N`` is ``play`` chained N times; writes are atomic and never
through a link; bad input is one line, exit 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rummy.games.record import GameRecord, HandRecord, TurnRecord
from rummy.position import Position
from tests.support.cli import run_main
from tests.support.paths import PUZZLE_EXAMPLES

HOUSE = """
rules = "house-classic"
hand_number = 1
to_move = "ann"
phase = "draw"

[players.ann]
melded = false
hand = "9C 4C AS QS 8D 8C JS 10H 2H 10D"

[players.bob]
melded = false
hand = "7C 4H 7H 9S 2C QC * JD 5H 9H"

[piles]
discard = "4D"
stock = "KC KS QH 6C 2S 6H 3D * 6D 5D 8S 5C KD AC 3H 10C AD 2D 6S 3S AH 7D JC QD JH 7S 9D 5S 4S 3C KH 10S 8H"
"""

ROBBER = """
rules = "robber"
to_move = "ann"
phase = "draw"

[players.ann]
hand = "5D 3S 10H QD 9D 2C 5H QC 3C 9C JC 6S KS"

[players.bob]
hand = "3H 4D 4H 6C 4C 10D AH 7S JD KC 4S JH 8C"

[piles]
discard = "2D"
stock = "6H KH QH 7D AC 8S 2S 10S 5S 9H AS 5C 8D 2H JS 3D 10C 6D QS 8H 7C 7H 9S AD KD"
"""

STRAIGHT = """
rules = "straight"
to_move = "ann"
phase = "draw"

[players.ann]
hand = "5D 3S 10H QD 9D 2C 5H QC 3C 9C"

[players.bob]
hand = "3H 4D 4H 6C 4C 10D AH 7S JD KC"

[piles]
discard = "2D"
stock = "6H KH QH 7D AC 8S 2S 10S 5S 9H AS 5C 8D 2H JS 3D 10C 6D QS 8H 7C 7H 9S AD KD 4S JH 8C KS JC 6S"
"""

TILES = """
rules = "rummikub"
to_move = "ann"

[players.ann]
melded = false
hand = "R10 R11 R12 K3 B5 O7 O9"

[players.bob]
melded = false
hand = "K2 B3 R8 B13 B10 K10 K1"

[piles]
stock = 50
"""

# A game at a real table: only cat's hand is known, the stock is a count (the turns name what was seen).
REAL_TABLE = (PUZZLE_EXAMPLES / "straight-draw.toml").read_text()

# Each game: its start, then turns typed as a user types them (steps, draw words), each legal.
GAMES = {
    "real-table-hidden-hands": (REAL_TABLE, ["draw 9S", "discard 9S", "draw", "discard 2C", "take 1",
                                             "play AC 2C 3C to new/1; discard 9H", "draw 8D; discard 8D"]),
    # a hidden mover's whole turn in one text (ann: "draw; discard 2C"), judged through the hidden witness
    "real-table-whole-turns": (REAL_TABLE, ["draw 9S; discard 9S", "draw; discard 2C"]),
    "house-draw-phase": (HOUSE, ["draw", "discard AS", "draw", "discard QC", "draw"]),
    "robber": (ROBBER, ["draw", "discard KS", "draw", "discard KC", "draw"]),
    "straight": (STRAIGHT, ["draw", "discard QD", "take 1", "discard KC"]),
    "tiles": (TILES, ["play R10 R11 R12 to new/1", "draw K5", "draw O2"]),
}


def start_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "start.toml"
    path.write_text(text)
    return path


def new_game(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, name: str = "game.toml") -> Path:
    game = tmp_path / name
    code, out, err = run_main(capsys, "game", "new", game, "--position", start_file(tmp_path, text), "--title", "T")
    assert code == 0, err
    assert err == "" and "hand 1" in out
    return game


@pytest.mark.parametrize("name", GAMES)
def test_new_add_show_undo(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    start, turns = GAMES[name]
    game = new_game(capsys, tmp_path, start)
    saved = [game.read_text()]
    for number, turn in enumerate(turns, start=1):
        code, out, err = run_main(capsys, "game", "add", game, turn, "--comment", f"c{number}")
        assert code == 0, err
        assert out.startswith(f"hand 1, turn {number}: ")
        saved.append(game.read_text())
    record = GameRecord.from_file(game)
    assert [t.turn for t in record.hands[0].turns] == turns  # steps and draw words stored as typed
    assert [t.comment for t in record.hands[0].turns] == [f"c{n}" for n in range(1, len(turns) + 1)]
    code, out, err = run_main(capsys, "game", "show", game)
    assert code == 0, err
    for number, turn in enumerate(turns, start=1):
        assert f"{number:>4}. " in out and turn in out and f"# c{number}" in out
    code, out, _ = run_main(capsys, "game", "show", game, "--json")
    listed = json.loads(out)
    assert [t["turn"] for t in listed["hands"][0]["turns"]] == turns
    assert listed["to_move"] == Position.from_data(_shown(capsys, game, len(turns)), "x", strict=False, mover_may_be_hidden=True).to_move
    for back in range(len(turns), 0, -1):  # undo turn by turn: the file as it was before each turn
        code, out, err = run_main(capsys, "game", "undo", game)
        assert code == 0, err
        assert out.startswith(f"took back hand 1, turn {back}: ")
        assert game.read_text() == saved[back - 1]
    code, _, err = run_main(capsys, "game", "undo", game)
    assert code == 2 and err == f"rummy: {game}: the game has no turn to take back\n"


def _shown(capsys: pytest.CaptureFixture[str], game: Path, turn: int, *more: str) -> dict[str, object]:
    code, out, err = run_main(capsys, "game", "show", game, "--turn", str(turn), "--json", *more)
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    data.pop("code")
    return data


@pytest.mark.parametrize("name", GAMES)
def test_show_turn_n_is_play_chained_n_times(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    start, turns = GAMES[name]
    game = new_game(capsys, tmp_path, start)
    position = start_file(tmp_path, start)
    assert _shown(capsys, game, 0) == Position.from_file(position, mover_may_be_hidden=True).to_data()
    for number, turn in enumerate(turns, start=1):
        assert run_main(capsys, "game", "add", game, turn)[0] == 0
        turn_file = tmp_path / f"turn{number}.txt"
        turn_file.write_text(turn + "\n")
        after = tmp_path / f"after{number}.toml"
        code, _, err = run_main(capsys, "play", position, turn_file, "--out", after)
        assert code == 0, err
        position = after
    for number in range(len(turns) + 1):
        expected = start_file(tmp_path, start) if number == 0 else tmp_path / f"after{number}.toml"
        assert _shown(capsys, game, number) == Position.from_file(expected, mover_may_be_hidden=True).to_data()
    code, out, _ = run_main(capsys, "game", "show", game, "--turn", str(len(turns)))
    assert code == 0 and out.startswith(f"hand 1, after turn {len(turns)} (")
    assert "to move: " in out  # drawn as 'rummy show' draws it


def test_an_illegal_turn_is_refused_with_checks_breaches_and_nothing_written(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = new_game(capsys, tmp_path, HOUSE)
    assert run_main(capsys, "game", "add", game, "take 1")[0] == 0
    before = game.read_text()
    code, out, _ = run_main(capsys, "game", "add", game, "discard AS", "--json")  # the hot 4D left in the hand
    assert code == 1
    assert json.loads(out)["legal"] is False and "hot-card-unplayed" in out
    assert game.read_text() == before


def test_a_game_that_does_not_replay_names_its_first_bad_turn(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    game = new_game(capsys, tmp_path, HOUSE)
    for turn in ("draw", "discard AS", "draw"):
        assert run_main(capsys, "game", "add", game, turn)[0] == 0
    game.write_text(game.read_text().replace('turn = "discard AS"', 'turn = "discard 3H"'))
    for command in (("show",), ("add", "discard 9S"), ("undo",), ("show", "--turn", "1")):
        code, out, err = run_main(capsys, "game", *command, game) if command == ("undo",) else \
            run_main(capsys, "game", command[0], game, *command[1:])
        assert code == 2 and out == ""
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"rummy: {game}: hand 1, turn 2 (ann: 'discard 3H'): "), err


def test_writes_are_atomic_and_never_through_a_link(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    real = new_game(capsys, tmp_path, HOUSE, "real.toml")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    kept = real.read_text()
    for command in (("add", link, "draw"), ("undo", link), ("new", link, "--position", tmp_path / "start.toml",
                                                            "--force")):
        code, out, err = run_main(capsys, "game", *command)
        assert code == 2 and out == "" and len(err.splitlines()) == 1 and "link" in err, err
    assert real.read_text() == kept and link.is_symlink()
    code, out, _ = run_main(capsys, "game", "show", link)  # reading through a link is fine
    assert code == 0 and "no turn yet" in out
    assert run_main(capsys, "game", "add", real, "draw")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.toml", "real.toml", "start.toml"]  # no temp file
    inode = os.stat(real).st_ino
    assert run_main(capsys, "game", "add", real, "discard AS")[0] == 0
    assert os.stat(real).st_ino != inode  # a new file put in place, not the old one written over


def test_new_refuses_an_existing_game_unless_forced(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = new_game(capsys, tmp_path, HOUSE)
    run_main(capsys, "game", "add", game, "draw")
    kept = game.read_text()
    code, _, err = run_main(capsys, "game", "new", game, "--position", tmp_path / "start.toml")
    assert code == 2 and err == f"rummy: {game}: exists; give --force to overwrite it\n"
    assert game.read_text() == kept and not (tmp_path / "fresh.toml").exists()
    code, _, err = run_main(capsys, "game", "new", game, "--position", tmp_path / "start.toml", "--force")
    assert code == 0, err
    assert GameRecord.from_file(game).hands[0].turns == ()


def test_a_json_game_is_written_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = new_game(capsys, tmp_path, STRAIGHT, "game.json")
    assert run_main(capsys, "game", "add", game, "draw")[0] == 0
    data = json.loads(game.read_text())
    assert data["game"]["rules"] == "straight" and data["hands"][0]["turns"] == [{"player": "ann", "turn": "draw"}]


def test_svg_draws_the_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = new_game(capsys, tmp_path, HOUSE)
    run_main(capsys, "game", "add", game, "draw")
    picture = tmp_path / "turn1.svg"
    code, out, err = run_main(capsys, "game", "show", game, "--turn", "1", "--svg", picture)
    assert code == 0 and "picture written to" in err and out.startswith("hand 1, after turn 1 (ann: draw)")
    svg = picture.read_text()
    assert svg.lstrip().startswith("<svg")
    after = tmp_path / "after.toml"
    assert run_main(capsys, "play", tmp_path / "start.toml", "draw", "--out", after)[0] == 0
    shown = tmp_path / "shown.svg"
    assert run_main(capsys, "show", after, "--svg", shown)[0] == 0
    assert svg == shown.read_text()  # the position after turn 1, drawn as 'rummy show' draws it
    last = tmp_path / "last.svg"
    code, _, err = run_main(capsys, "game", "show", game, "--svg", last)
    assert code == 0 and last.read_text() == svg  # without --turn: after the last turn


@pytest.mark.parametrize(("args", "expected"), [
    (("new", "{fresh}", "--rules", "house-classic", "--players", "ann,bob"), "give --deal SEED"),
    (("new", "{fresh}", "--deal", "3", "--position", "{start}"), "one of them"),
    (("new", "{fresh}", "--deal", "3", "--players", "ann,bob"), "--rules PRESET"),
    (("new", "{fresh}", "--deal", "3", "--rules", "poker", "--players", "ann,bob"), "poker"),
    (("new", "{fresh}", "--deal", "3", "--rules", "house-classic", "--players", "ann"), "--players"),
    (("new", "{fresh}", "--deal", "3", "--rules", "house-classic", "--players", "ann,ann"), "named twice"),
    (("new", "{fresh}", "--deal", "3", "--rules", "house-classic", "--players", "ann,,bob"), "--players"),
    (("new", "{fresh}", "--position", "{start}", "--rules", "straight"), "played under"),
    (("new", "{fresh}", "--position", "{start}", "--players", "bob,ann"), "not the game's"),
    (("new", "{fresh}", "--position", "{start}", "--title", "t" * 201), "--title"),
    (("new", "{fresh}", "--position", "nowhere.toml"), "nowhere.toml"),
    (("new", "-", "--position", "{start}"), "GAME -"),
    (("add", "{other}", "draw"), "no such game file"),
    (("add", "{bad}", "draw"), "unknown key 'extra'"),
    (("show", "{empty}", "--turn", "0"), "the game has no hand"),
    (("undo", "{empty}"), "the game has no hand"),
    (("add", "{game}", "draw", "--comment", "c" * 1001), "--comment"),
    (("add", "{game}", "take 99"), "turn: draw: ann is in the play phase"),
    (("add", "{game}", "nowhere.txt"), "nowhere.txt"),
    (("show", "{game}", "--turn", "5"), "--turn 5: hand 1 has turns 1 to 1"),
    (("show", "{game}", "--hand", "2"), "--hand 2: the game has hands 1 to 1"),
    (("show", "{game}", "--turn", "-1"), "--turn"),
    (("show", "{game}", "--svg", "-"), "--svg -"),
    (("show", "{game}", "--svg", "{game}"), "input file"),
], ids=lambda value: value if isinstance(value, str) and len(value) < 30 else None)
def test_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...],
                                      expected: str) -> None:
    game = new_game(capsys, tmp_path, HOUSE)
    run_main(capsys, "game", "add", game, "draw")
    bad = tmp_path / "bad.toml"
    bad.write_text(game.read_text() + "extra = 1\n")
    empty = tmp_path / "empty.toml"
    empty.write_text('[game]\nrules = "straight"\nplayers = ["ann", "bob"]\n')
    names = {"game": str(game), "fresh": str(tmp_path / "fresh.toml"), "start": str(tmp_path / "start.toml"), "other": str(tmp_path / "other.toml"),
             "bad": str(bad), "empty": str(empty)}
    kept = game.read_text()
    code, out, err = run_main(capsys, "game", *(arg.format(**names) for arg in args))
    lines = err.splitlines()
    assert code == 2, err
    assert out == "" and len(lines) == 1 and lines[0].startswith("rummy: ") and expected in lines[0], err
    assert game.read_text() == kept and not (tmp_path / "fresh.toml").exists()


# ------------------------------------------------------------------ dealt games, best, the end of a hand
def test_a_dealt_game_starts_from_rummys_deal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from rummy.deal import deal
    from rummy.rules import preset

    game = tmp_path / "dealt.toml"
    code, out, err = run_main(capsys, "game", "new", game, "--rules", "straight", "--players", "ann, bob,cat",
                              "--deal", "11")
    assert code == 0, err
    assert "hand 1 (dealt from seed 11)" in out
    hand = GameRecord.from_file(game).hands[0]
    assert hand.deal == 11 and hand.start == deal(preset("straight"), ("ann", "bob", "cat"), 11)
    assert isinstance(hand.start.stock, tuple)  # the stock listed: every turn replays with full knowledge


ALMOST_OUT = """
rules = "straight"
to_move = "ann"
phase = "play"

[players.ann]
hand = "5D"
space = ["7S 7H 7C"]

[players.bob]
hand = "3H 4D 4H 6C"
space = ["9D 10D JD"]

[piles]
discard = "2D"
stock = "6H KH QH 7D AC 8S 2S 10S 5S 9H AS 5C 8D 2H JS 3D 10C 6D QS 8H KD 4S JH 8C KS JC 6S"
"""


def _dealt_game_ending(tmp_path: Path, results: tuple[dict[str, float], ...] = ()) -> Path:
    """A dealt Straight game whose last hand starts with ann about to go out (hands before it with ``results``)."""
    from dataclasses import replace

    from rummy.deal import deal

    start = Position.from_toml(ALMOST_OUT, "almost-out")
    record = GameRecord(start.rules, ("ann", "bob"))
    for number, result in enumerate(results, start=1):
        record = record.with_hand(HandRecord(deal(start.rules, ("ann", "bob"), number, number), deal=number))
        record = record.with_result(result)
    record = record.with_hand(HandRecord(start, deal=5))
    game = tmp_path / "ending.toml"
    replace(record).save(game)
    return game


def test_the_turn_that_ends_a_hand_writes_its_result_and_deals_the_next(capsys: pytest.CaptureFixture[str],
                                                                        tmp_path: Path) -> None:
    from rummy.deal import deal
    from rummy.games.record import hand_seed

    game = _dealt_game_ending(tmp_path)
    kept = game.read_text()
    code, out, err = run_main(capsys, "game", "add", game, "discard 5D")
    assert code == 0, err
    seed = hand_seed(5, 2)
    assert "hand 1 is over: ann went out; ann 17, bob 0" in out and f"hand 2 (dealt from seed {seed})" in out
    record = GameRecord.from_file(game)
    assert record.hands[0].result == {"ann": 17, "bob": 0}
    assert record.hands[1].deal == seed and record.hands[1].turns == ()
    assert record.hands[1].start == deal(record.rules, record.players, seed, 2)
    assert record.hands[1].start.to_move == "bob"  # the deal passed to the left
    code, out, _ = run_main(capsys, "game", "show", game)
    assert code == 0 and "result: ann 17, bob 0" in out and "(no turn yet)" in out
    code, out, _ = run_main(capsys, "game", "show", game, "--hand", "1")
    assert code == 0 and "   1. ann: discard 5D" in out and "hand 2" not in out and "to move" not in out
    assert Position.from_data(_shown(capsys, game, 0, "--hand", "2"), "h2") == record.hands[1].start
    assert _shown(capsys, game, 1, "--hand", "1")["first_out"] == "ann"
    code, out, err = run_main(capsys, "game", "undo", game)  # the turn, its result and the deal all go
    assert code == 0, err
    assert game.read_text() == kept


def test_a_hand_that_ends_the_game_deals_no_more(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = _dealt_game_ending(tmp_path, ({"ann": 490, "bob": 0},))  # Straight is played to 500
    code, out, err = run_main(capsys, "game", "add", game, "discard 5D", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["result"] == {"ann": 17, "bob": 0} and "500" in data["game_over"] and "next_hand" not in data
    assert len(GameRecord.from_file(game).hands) == 2
    code, out, _ = run_main(capsys, "game", "show", game)
    assert code == 0 and "result: ann 17, bob 0\n      totals: ann 507, bob 0\n" in out
    assert "hand 2 is over and no hand follows it" in out
    assert json.loads(run_main(capsys, "game", "show", game, "--json")[1])["totals"] == {"ann": 507, "bob": 0}
    code, _, err = run_main(capsys, "game", "add", game, "draw")
    assert code == 2 and "hand 2 is over" in err and len(err.splitlines()) == 1


def test_a_turn_after_the_hand_ended_does_not_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = _dealt_game_ending(tmp_path)
    record = GameRecord.from_file(game)
    from dataclasses import replace

    hand = replace(record.hands[0], turns=(TurnRecord("ann", "discard 5D"), TurnRecord("bob", "draw")))
    replace(record, hands=(hand,)).save(game)
    code, _, err = run_main(capsys, "game", "show", game)
    assert code == 2
    assert err == f"rummy: {game}: hand 1, turn 2 (bob: 'draw'): the hand ended at turn 1 (ann went out)\n"


@pytest.mark.parametrize(("name", "before_best"), [("house-draw-phase", 1), ("robber", 1), ("straight", 0),
                                                   ("tiles", 0)])
def test_best_is_stored_as_a_text_that_replays_to_the_same_position(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, before_best: int) -> None:
    from rummy.games.edit import add_turn, replayed
    from rummy.reports.play import best_turn_text, play_turn

    start, turns = GAMES[name]
    game = new_game(capsys, tmp_path, start)
    for turn in turns[:before_best]:
        assert run_main(capsys, "game", "add", game, turn)[0] == 0
    played = replayed(GameRecord.from_file(game), str(game))
    before = played.position
    answer = best_turn_text(before, 20.0)
    expected = play_turn(before, answer, "best", "json", "best").position
    assert expected is not None
    added = add_turn(played, answer, "best", "json", "best")
    assert added.game is not None and added.turn is not None and added.played.report.verdict.legal
    assert added.position == expected
    again = replayed(added.game, "again")
    assert again.position == expected  # the stored text replays to the very position best's answer gave
    assert added.turn.turn == added.turn.turn.strip() and "\n" not in added.turn.turn
    # and on the command line: 'game add best' then 'game show --turn' replays it
    code, out, err = run_main(capsys, "game", "add", game, "best", "--json")
    assert code == 0, err
    stored = json.loads(out)["text"]
    assert GameRecord.from_file(game).hands[0].turns[-1].turn == stored
    assert Position.from_data(_shown(capsys, game, before_best + 1), "shown", strict=False, mover_may_be_hidden=True) == \
        play_turn(before, stored, "turn", "toml", "stored").position


def test_the_shipped_example_game_replays(capsys: pytest.CaptureFixture[str]) -> None:
    from rummy.games.edit import replayed
    from tests.support.paths import REPO_ROOT

    example = REPO_ROOT / "examples" / "games" / "house-classic.toml"
    record = GameRecord.from_file(example)
    game = replayed(record, str(example))
    assert record.hands[0].deal == 7 and len(record.hands[0].turns) >= 8
    assert all(report.verdict.legal for hand in game.hands for report in hand.reports)
    assert any(";" in turn.turn and turn.turn.split()[0] in ("draw", "take") for turn in record.hands[0].turns)
    from rummy.deal import deal

    assert record.hands[0].start == deal(record.rules, record.players, 7)  # dealt as 'game new --deal 7' deals
    assert record.to_toml() == example.read_text()  # written as rummy writes it
    code, out, err = run_main(capsys, "game", "show", example)
    assert code == 0 and err == "" and out.startswith("Friday at Kim's: house-classic, ann bob cat")


def test_a_long_replay_shows_a_bar_on_a_terminals_stderr(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(capsys, tmp_path, HOUSE)
    for turn in GAMES["house-draw-phase"][1][:3]:
        run_main(capsys, "game", "add", game, turn)
    code, quiet_out, err = run_main(capsys, "game", "show", game)
    assert code == 0 and err == ""  # not a terminal: no bar
    monkeypatch.setattr("rummy.cli.game.PROGRESS_TURNS", 2)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    code, out, err = run_main(capsys, "game", "show", game)
    assert code == 0 and out == quiet_out and "replaying the game" in err


def test_typed_steps_too_long_for_a_record_are_stored_as_the_turns_text(capsys: pytest.CaptureFixture[str],
                                                                         tmp_path: Path) -> None:
    game = new_game(capsys, tmp_path, TILES)
    padded = tmp_path / "turn.txt"
    padded.write_text("# my turn, long explained\n" * 200 + "play R10 R11 R12 to new/1\n")
    code, out, err = run_main(capsys, "game", "add", game, padded)
    assert code == 0, err
    stored = GameRecord.from_file(game).hands[0].turns[0].turn
    assert len(stored) < 100 and "R10 R11 R12" in stored and out.startswith(f"hand 1, turn 1: ann: {stored}")


def test_every_bound_and_bad_key_of_a_file_is_one_line_exit_2(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    from tests.core.test_game_record import BAD

    for name, (data, expected) in BAD.items():
        game = tmp_path / f"{name}.json"
        game.write_text(json.dumps(data))
        for command in (("show",), ("add", "draw"), ("undo",)):
            code, out, err = run_main(capsys, "game", command[0], game, *command[1:])
            lines = err.splitlines()
            assert code == 2 and out == "" and len(lines) == 1 and lines[0].startswith("rummy: "), (name, err)
            if name not in ("result-nan", "result-inf"):  # JSON has no NaN: its reader may refuse them first
                assert expected in lines[0], (name, err)


def test_best_for_a_hidden_mover_is_refused_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = new_game(capsys, tmp_path, REAL_TABLE)
    for turn in ("draw 9S", "discard 9S"):
        assert run_main(capsys, "game", "add", game, turn)[0] == 0
    kept = game.read_text()
    code, out, err = run_main(capsys, "game", "add", game, "best")
    assert code == 2 and out == "" and game.read_text() == kept
    assert err == (f"rummy: {game} -> best: ann's hand is hidden (hand_count): best answers for a known hand; enter "
                   f"ann's turn as it was played, e.g. rummy game add {game} 'draw; discard 7H'\n")


def test_a_game_starts_from_a_position_code(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from rummy.position_code import position_code

    start = Position.from_toml(STRAIGHT, "straight")
    game = tmp_path / "coded.toml"
    code, _, err = run_main(capsys, "game", "new", game, "--position", position_code(start))
    assert code == 0, err
    assert GameRecord.from_file(game).hands[0].start == start


def test_the_next_hand_of_a_real_table_game_is_begun_by_hand(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    from rummy.deal import deal

    game = new_game(capsys, tmp_path, ALMOST_OUT)
    code, _, err = run_main(capsys, "game", "hand", game, "--deal", "4")
    assert code == 2 and err == "rummy: --deal: hand 1 is not over (it has no result yet): play it to its end " \
                               "before the next hand\n"
    code, out, err = run_main(capsys, "game", "add", game, "discard 5D")
    assert code == 0 and "hand 1 is over" in out and "hand 2" not in out, err  # not dealt: no deal to go on from
    code, _, err = run_main(capsys, "game", "add", game, "draw")
    assert code == 2 and "hand 1 is over" in err and "rummy game hand" in err
    code, out, err = run_main(capsys, "game", "hand", game, "--position", tmp_path / "start.toml")
    assert code == 0 and out.startswith("hand 2 (from the position given)"), err
    code, _, err = run_main(capsys, "game", "undo", game)  # the hand begun goes with the turn that ended hand 1
    assert code == 0, err
    assert [len(h.turns) for h in GameRecord.from_file(game).hands] == [0]
    run_main(capsys, "game", "add", game, "discard 5D")
    code, out, err = run_main(capsys, "game", "hand", game, "--deal", "4", "--json")
    assert code == 0, err
    assert json.loads(out) == {"hand": 2, "deal": 4, "to_move": "bob", "phase": "draw"}
    record = GameRecord.from_file(game)
    assert record.hands[1].start == deal(record.rules, record.players, 4, 2)
    code, _, err = run_main(capsys, "game", "hand", game, "--deal", "4", "--position", tmp_path / "start.toml")
    assert code == 2 and "one of them" in err
    code, _, err = run_main(capsys, "game", "hand", game, "--position", PUZZLE_EXAMPLES / "robber.toml")
    assert code == 2 and "robber.toml" in err and len(err.splitlines()) == 1


def test_a_hand_ended_at_a_real_table_says_it_is_not_scored(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    """Bob (hidden) goes out in one text, draw and steps: the hand ends, its result cannot be scored (ann's
    hand is hidden), and 'game show' says so rather than an empty 'result:' (review of issue 27)."""
    game = new_game(capsys, tmp_path, REAL_TABLE)
    for turn in ("take 1; discard KD", "draw", "discard 2C", "draw; play 8D to bob/1; play 4H 4S 4D to new/1; "
                 "discard 5H"):
        code, out, err = run_main(capsys, "game", "add", game, turn)
        assert code == 0, err
    assert "hand 1 is over: bob went out; not scored" in out
    code, out, err = run_main(capsys, "game", "show", game)
    assert code == 0, err
    assert "result: not scored (a hidden hand" in out


def test_a_game_changed_while_a_turn_was_added_is_not_overwritten(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Two 'game add' at once: the one that writes second finds the file changed since it read it and writes
    nothing (one line, exit 2), so no turn reported added is lost (review of issue 27)."""
    from rummy.games import edit

    game = new_game(capsys, tmp_path, HOUSE)
    real_add_turn = edit.add_turn

    def add_while_another_writes(*args: object, **kwargs: object) -> object:
        added = real_add_turn(*args, **kwargs)  # type: ignore[arg-type]
        other = GameRecord.from_file(game)  # the other run's turn lands first
        other.with_turn(TurnRecord("ann", "draw")).save(game)
        return added

    monkeypatch.setattr(edit, "add_turn", add_while_another_writes)
    code, out, err = run_main(capsys, "game", "add", game, "draw")
    assert code == 2 and out == ""
    assert err == f"rummy: {game}: changed since it was read (another 'rummy game' command at the same time?): " \
                  "nothing written; run the command again\n"
    assert [t.turn for t in GameRecord.from_file(game).hands[0].turns] == ["draw"]  # the other's turn, kept
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no lock or temporary file left
    monkeypatch.setattr(edit, "add_turn", real_add_turn)
    code, out, err = run_main(capsys, "game", "undo", game)
    assert code == 0, err
    assert GameRecord.from_file(game).hands[0].turns == ()


def test_a_dealt_tile_game_draws_from_its_listed_pool(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Rummikub dealt by rummy lists its pool: 'draw' takes its top tile (it was refused: 'cannot have come from
    the pool: every copy is accounted for'), and 'best' where nothing is worth playing is that draw (it was
    refused: 'plays nothing, so they draw a tile instead') (review of issue 27)."""
    game = tmp_path / "tiles.toml"
    code, _, err = run_main(capsys, "game", "new", game, "--rules", "rummikub", "--players", "ann,bob", "--deal", "3")
    assert code == 0, err
    top = GameRecord.from_file(game).hands[0].start.stock
    assert isinstance(top, tuple)
    code, out, err = run_main(capsys, "game", "add", game, "draw")
    assert code == 0, err
    record = GameRecord.from_file(game)
    assert record.hands[0].turns[-1].turn == "draw"
    code, out, err = run_main(capsys, "game", "show", game, "--turn", "1", "--json")
    assert code == 0, err
    hand = json.loads(out)["players"]["ann"]["hand"].split()
    assert top[0].notation(record.rules.deck) in hand and len(hand) == 15
    for _ in range(8):  # whatever best finds, it is carried out: a play, or the draw where nothing is worth it
        code, out, err = run_main(capsys, "game", "add", game, "best", "--time-limit", "5")
        assert code == 0, err
    assert "draw" in [t.turn for t in GameRecord.from_file(game).hands[0].turns[1:]]


EPIC_TO_REENTRY = ("demand 10D from bob; meld 9D 10D JD; play 7S 8S 9S to new/2; discard 10H",
                   "take 1; meld 8H 9H 10H; discard 10C", "demand KH from bob; play KD KH KS to new/1; discard 6D",
                   "open; play 4D 4H 4S to new/1; discard 6S", "take 1; play 6S to ann/2 (7S 8S 9S); discard 3D",
                   "draw JC; discard 5C")


def test_best_for_a_house_epic_reentry_draws_three_then_plays(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    """Ann went out first in House Epic and re-enters: 'best' is the re-entry draw of three, then the best play
    (it was the draw advice's one card from the stock, which the checker refused as illegal) (review of issue
    27)."""
    game = tmp_path / "epic.toml"
    code, _, err = run_main(capsys, "game", "new", game, "--rules", "house-epic", "--players", "ann,bob", "--deal",
                            "21")
    assert code == 0, err
    for turn in EPIC_TO_REENTRY:
        code, _, err = run_main(capsys, "game", "add", game, turn)
        assert code == 0, (turn, err)
    assert GameRecord.from_file(game).hands[0].turns[-1].player == "bob"
    code, out, err = run_main(capsys, "game", "add", game, "best", "--time-limit", "10")
    assert code == 0, (out, err)
    stored = GameRecord.from_file(game).hands[0].turns[-1]
    assert stored.player == "ann" and stored.turn.startswith("draw 3; "), stored


def test_a_game_file_where_a_position_goes_and_back_says_which_it_is(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    """The mix-up a new user makes ('rummy play GAME best', 'game show POSITION') is named, not an unknown key."""
    game = new_game(capsys, tmp_path, HOUSE)
    for command in (("play", game, "best"), ("show", game), ("best", game), ("game", "new", tmp_path / "g2.toml",
                                                                             "--position", game)):
        code, out, err = run_main(capsys, *command)
        assert code == 2 and out == "", err
        assert err == f"rummy: {game}: a game record, not a position: 'rummy game show GAME --turn N' shows its " \
                      "positions, 'rummy game add GAME TURN' plays on\n"
    start = tmp_path / "start.toml"
    code, out, err = run_main(capsys, "game", "show", start)
    assert code == 2 and err == f"rummy: {start}: a position, not a game record: begin a game from it with " \
                                "'rummy game new GAME --position FILE'\n"


def test_a_tile_game_whose_pool_is_empty_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Once the listed pool is drawn out, a player who plays nothing passes ('pass', or 'draw' alone); a tile named
    is refused (it was drawn from nowhere: the unseen check passed over a listed pool) (review of issue 27)."""
    game = tmp_path / "tiles.toml"
    code, _, err = run_main(capsys, "game", "new", game, "--rules", "rummikub", "--players", "ann,bob", "--deal", "3")
    assert code == 0, err
    record = GameRecord.from_file(game)
    pool = record.hands[0].start.stock
    assert isinstance(pool, tuple)
    turns = tuple(TurnRecord(("ann", "bob")[i % 2], "draw") for i in range(len(pool)))
    for turn in turns:
        record = record.with_turn(turn)
    record.save(game)
    mover = ("ann", "bob")[len(pool) % 2]
    kept = game.read_text()
    code, out, err = run_main(capsys, "game", "add", game, "draw R5")
    assert code == 2 and err.endswith("the pool is empty: there is no tile to draw; write 'pass'\n") and out == ""
    assert game.read_text() == kept
    code, out, err = run_main(capsys, "game", "add", game, "pass")
    assert code == 0, err
    code, out, err = run_main(capsys, "game", "show", game, "--turn", str(len(pool) + 1), "--json")
    assert code == 0, err
    after = json.loads(out)
    assert after["to_move"] != mover and after["piles"]["stock"] in ("", [], 0)
