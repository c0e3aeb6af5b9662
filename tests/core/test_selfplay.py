"""Self-play (rummy.games.selfplay, ``rummy selfplay``): whole hands played by the engine in every seat,
every turn judged by the checker as it is made (play_turn), the game record replaying to the same positions.

Short games only (small time limits); the full list is benchmarks/run_selfplay.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rummy.deal import deal
from rummy.games.record import GameRecord
from rummy.games.replay import replay
from rummy.games.selfplay import SelfPlayed, hand_seed, seat_view, selfplay
from rummy.hand_end import hand_end
from rummy.rules import preset
from rummy.vocabulary import Phase


def replays_to_the_same_positions(played: SelfPlayed) -> None:
    """The game file, read back, replays (every turn judged again) to the positions self-play made."""
    game = GameRecord.from_text(played.game.to_toml(), "game.toml")
    assert game == played.game
    hands = replay(game, "game.toml")
    assert [hand.positions for hand in hands] == list(played.positions)
    for hand in hands:
        assert all(report.verdict.legal for report in hand.reports)


def test_the_view_hides_the_other_hands_and_the_stock_order() -> None:
    position = deal(preset("house-classic"), ("ann", "bob", "cat"), 3)
    view = seat_view(position)
    assert view.mover == position.mover
    for name in ("bob", "cat"):
        assert view.player(name).hand is None and view.player(name).hand_count == 8
    assert isinstance(position.stock, tuple) and view.stock == len(position.stock)
    assert view.upcard == position.upcard  # face up: everyone sees it


def test_hand_seeds_start_from_the_seed_and_differ() -> None:
    assert hand_seed(7, 1) == 7
    assert len({hand_seed(7, k) for k in range(1, 7)}) == 6
    assert hand_seed(7, 2) == hand_seed(7, 2) != hand_seed(8, 2)


def test_a_straight_deal_is_played_out() -> None:
    played = selfplay(preset("straight"), ("ann", "bob"), 1, time_limit=0.5)
    hand = played.game.hands[0]
    assert hand.deal == 1 and hand.start == deal(preset("straight"), ("ann", "bob"), 1)
    last = played.positions[0][-1]
    assert hand_end(last, played.positions[0][-2]) is not None and hand_end(hand.start) is None
    ending = played.endings[0]
    assert ending.scores is not None and hand.result == ending.scores  # the hand's result, in the record
    # Every turn is one text: the draw, then the play.
    assert all(turn.turn.split()[0] in ("draw", "take") and "; " in turn.turn for turn in hand.turns)
    assert len(played.timings) >= 2
    replays_to_the_same_positions(played)


def test_a_two_player_rummikub_game_is_played_out() -> None:
    played = selfplay(preset("rummikub"), ("ann", "bob"), 2, time_limit=0.5)
    last = played.positions[0][-1]
    assert played.endings[0] == hand_end(last, played.positions[0][-2]) and last.phase == Phase.PLAY
    assert played.game.hands[0].result is not None
    texts = [turn.turn for turn in played.game.hands[0].turns]
    assert any(text.startswith("draw ") for text in texts)  # nothing to play: the pool's top tile
    assert any(text.startswith("meld ") for text in texts)
    replays_to_the_same_positions(played)


def test_a_robber_deal_is_played_out() -> None:
    played = selfplay(preset("robber"), ("ann", "bob"), 4, time_limit=0.5)
    assert hand_end(played.positions[0][-1]) == played.endings[0] and played.game.hands[0].result is not None
    replays_to_the_same_positions(played)


@pytest.mark.slow
def test_a_house_hand_is_played_out() -> None:
    played = selfplay(preset("house-classic"), ("ann", "bob"), 5, time_limit=0.5)
    assert hand_end(played.positions[0][-1]) == played.endings[0] and played.game.hands[0].result is not None
    texts = [turn.turn for turn in played.game.hands[0].turns]
    assert texts[0].split(";")[0] in ("open", "pass")  # the upcard on the unopened stock
    # One text a turn: the draw, then the play (play_turn reads it as one draw-phase turn).
    assert all(text.split(";")[0].split()[0] in ("open", "pass", "draw", "take", "demand") for text in texts)
    replays_to_the_same_positions(played)


def test_the_command_writes_a_game_that_replays(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = subprocess.run([sys.executable, "-m", "rummy", "selfplay", "--rules", "straight", "--players", "ann,bob",
                             "--seed", "3", "--time-limit", "0.5", "--out", str(out)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "hand 1, turn 1 (ann)" in result.stderr and f"game written to {out}" in result.stderr
    game = GameRecord.from_file(out)
    assert game.players == ("ann", "bob") and game.hands[0].deal == 3
    assert replay(game)[0].positions[0] == game.hands[0].start
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # written in one step, nothing left over


@pytest.mark.parametrize(("options", "problem"), [
    (["--rules", "house-classic", "--players", "5"], "2 to 4 players"),
    (["--rules", "house-classic", "--players", "3", "--hands", "7"], "a game of house-classic is 6 hands"),
    (["--rules", "nope", "--players", "3"], "unknown preset"),
    (["--rules", "straight", "--players", "ann,ann"], "named twice"),
    (["--rules", "straight", "--players", "1"], "from 2 to 8 players"),
    (["--rules", "straight", "--players", "2", "--out", "missing/game.toml"], "no such folder"),
])
def test_bad_options_are_one_line(tmp_path: Path, options: list[str], problem: str) -> None:
    out = tmp_path / "game.toml"
    result = subprocess.run([sys.executable, "-m", "rummy", "selfplay", "--out", str(out), *options],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rummy: ") and problem in lines[0], result.stderr
    assert not out.exists()


def test_a_link_is_not_written_through(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.toml"
    target.write_text("keep")
    link = tmp_path / "game.toml"
    link.symlink_to(target)
    result = subprocess.run([sys.executable, "-m", "rummy", "selfplay", "--rules", "straight", "--players", "2",
                             "--out", str(link)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "symbolic link" in result.stderr
    assert target.read_text() == "keep"


def test_a_turn_the_checker_refuses_is_a_bug_exit_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """An engine turn the checker refuses stops the game: one line naming the turn and its breach, exit 3,
    the game up to that turn written (and replaying)."""
    import rummy.games.selfplay as module
    from rummy.cli.app import main

    real = module._SeatTurn.play

    def second_turn_discards_the_card_taken(seat):  # type: ignore[no-untyped-def]
        if seat.where.startswith("hand 1, turn 2 "):
            top = seat.position.discard_pile[-1].notation()
            return seat._carry(seat.position, f"take 1; discard {top}")
        return real(seat)

    monkeypatch.setattr(module._SeatTurn, "play", second_turn_discards_the_card_taken)
    out = tmp_path / "game.toml"
    code = main(["selfplay", "--rules", "straight", "--players", "2", "--seed", "1", "--time-limit", "0.5",
                 "--quiet", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 3
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rummy: selfplay: a bug in rummy: hand 1, turn 2 (bob): "
                                                   "the checker refused the engine's turn 'take 1; discard ")
    assert f"written to {out}" in lines[0]
    game = GameRecord.from_file(out)
    assert len(game.hands[0].turns) == 1 and len(replay(game)[0].positions) == 2


def test_a_tile_drawn_from_the_listed_pool_is_its_top_tile() -> None:
    """Self-play's tile draws: from a dealt position (the pool listed) the top tile is drawn, legally; another
    tile is not the pool's top (rummy.next_position)."""
    from rummy.errors import RummyError
    from rummy.reports.play import play_turn

    position = deal(preset("rummikub"), ("ann", "bob"), 1)
    assert isinstance(position.stock, tuple)
    top, other = position.stock[0], position.stock[1]
    played = play_turn(position, f"draw {top.notation('tiles')}", "turn", "toml", "t")
    assert played.position is not None and played.report.verdict.legal
    assert played.position.player("ann").hand == (*(position.player("ann").hand or ()), top)
    assert played.position.stock == position.stock[1:] and played.position.to_move == "bob"
    if other != top:
        with pytest.raises(RummyError, match="top card"):
            play_turn(position, f"draw {other.notation('tiles')}", "turn", "toml", "t")


REENTERING = """
rules = "house-epic"
hand_number = 2
to_move = "dan"
phase = "draw"
first_out = "dan"
first_out_points = 49
[players.ann]
side = "A"
melded = false
hand = "AH 6H 10D 4D 10C"
space = []
[players.bob]
side = "B"
melded = true
hand = "2D"
space = [
    "AC 2C 3C 4C",
    "3H 4H 5H",
]
[players.cat]
side = "A"
melded = true
hand = "JC"
space = [
    "7S 8S 9S",
    "4S 5S 6S",
]
[players.dan]
side = "B"
melded = true
hand = ""
space = [
    "8H 8D 8C",
    "10H * QH",
]
[piles]
discard = "JS 2S"
stock = "QD 3S KH QS AS 7H 6C JD AD KC 6D 10S KS 5C KD 5D JH QC 9H 9D 3D 7C * 9C 2H 7D"
"""


def test_epic_first_out_reenters_drawing_three_from_the_stock() -> None:
    """House Epic: dan went out first and is back; a stock draw then takes the stock's top three cards."""
    from rummy.games.selfplay import _SeatTurn
    from rummy.position import Position
    from rummy.reports.play import play_turn

    position = Position.from_toml(REENTERING, "reentering.toml")
    seat = _SeatTurn(position, 0.5, "t", False, set())
    assert seat._stock_draw(position) == "draw 3"
    text, played = seat._then_play("draw 3")
    assert text.startswith("draw QD 3S KH; ") and played.position is not None
    assert played.position.reentered and played.position.to_move == "ann"
    assert play_turn(position, text, "turn", "toml", "t").position == played.position


def test_a_hand_that_goes_round_in_a_cycle_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A hand whose position comes round again and again (seats taking each other's discards) is stopped,
    not played forever: said in one line, exit 1, the game so far written. (The repeat count is lowered here
    so that the first position stops it.)"""
    import rummy.games.selfplay as module
    from rummy.cli.app import main

    monkeypatch.setattr(module, "CYCLE_REPEATS", 1)
    out = tmp_path / "game.toml"
    code = main(["selfplay", "--rules", "straight", "--players", "2", "--seed", "1", "--time-limit", "0.5",
                 "--quiet", "--out", str(out)])
    lines = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(lines) == 1
    assert lines[0] == (f"rummy: selfplay: hand 1 stopped after turn 1: the same position came round 1 times; "
                        f"the game so far is written to {out}")
    game = GameRecord.from_file(out)
    assert len(game.hands[0].turns) == 1 and game.hands[0].result is None
