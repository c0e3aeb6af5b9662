"""A whole turn in one text on the command line (issue 27, docs/formats.md "Turn text"): ``check`` and
``play`` read ``take 2; play ...; discard QC`` alike, as one draw-phase turn; ``best`` prints the turn as
one text (a ``turn:`` line, the ``turn`` key of ``--json``) that ``play`` reads back to ``best``'s next
position; the draw's words are named ``turn`` in messages; a failed demand is read in words."""

from __future__ import annotations

import json

import pytest

from rummy.position import Position
from tests.support.cli import feed_stdin, run_main
from tests.support.paths import PUZZLE_EXAMPLES

ROBBER_TURN = "take; steal bob/2 by adding KD; discard QD"  # best's own words for a Robber steal read too
HOUSE_TURN = "take 4; play KS to ann/1; play 5D 5H 5S to new/1; play 6D 7D 8D 9D to new/2; discard QC"


@pytest.mark.parametrize(("name", "turn", "draw"), [
    ("robber-draw", ROBBER_TURN, {"draw": "pile", "from": "pile", "top": "KD"}),
    ("house-classic-draw", HOUSE_TURN, {"from": "discard", "take": 4}),
    ("house-epic-draw", "demand 6H from bob; play 4H 5H 6H 7H 8H to new/1; discard KS",
     {"from": "demand", "card": "6H", "player": "bob"}),
])
def test_check_and_play_read_a_whole_draw_phase_turn_as_one_turn(capsys: pytest.CaptureFixture[str], name: str,
                                                                  turn: str, draw: dict[str, object]) -> None:
    path = PUZZLE_EXAMPLES / f"{name}.toml"
    code, printed, _ = run_main(capsys, "check", path, turn, "--json")
    verdict = json.loads(printed)
    assert code == 0 and verdict["legal"], verdict
    assert draw.items() <= verdict["reading"]["draw"].items()
    code, printed, _ = run_main(capsys, "play", path, turn, "--json")
    position = json.loads(printed)  # the next mover's hand is hidden: read as data (docs/notes-i27-play.md)
    assert code == 0 and position["to_move"] != Position.from_file(path).to_move and position["phase"] == "draw"


def test_an_illegal_whole_turn_gets_the_verdict_of_the_draw_and_the_play(capsys: pytest.CaptureFixture[str]) -> None:
    path = PUZZLE_EXAMPLES / "robber-draw.toml"
    code, printed, _ = run_main(capsys, "check", path, "take; steal AS KS from ann/1; discard QD", "--json")
    assert code == 1 and "pile-top-not-melded" in [b["code"] for b in json.loads(printed)["breaches"]]
    played = run_main(capsys, "play", path, "take; steal AS KS from ann/1; discard QD", "--json")
    assert played[0] == 1 and json.loads(played[1]) == json.loads(printed)


@pytest.mark.parametrize("name", ["house-classic-draw", "robber-draw", "house-upcard", "rummikub", "house-classic"])
def test_best_prints_its_turn_as_one_text_that_play_reads_back(capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    path = PUZZLE_EXAMPLES / f"{name}.toml"
    code, printed, _ = run_main(capsys, "best", path, "--json")
    turn = json.loads(printed)["turn"]
    code, lines, _ = run_main(capsys, "best", path)
    assert code == 0 and f"turn: {turn}" in lines.splitlines()
    best_next = json.loads(run_main(capsys, "play", path, "best", "--json")[1])
    feed_stdin(monkeypatch, turn + "\n")
    code, printed, _ = run_main(capsys, "play", path, "-", "--json")
    assert code == 0 and json.loads(printed) == best_next
    if Position.from_file(path).phase == "draw":  # the argument itself: a turn starting with its draw
        code, printed, _ = run_main(capsys, "play", path, turn, "--json")
        assert code == 0 and json.loads(printed) == best_next


def test_the_turn_in_words_is_named_turn_not_its_words_twice(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "check", PUZZLE_EXAMPLES / "house-classic-draw.toml", "draw")
    assert code == 2
    assert err.strip() == ("rummy: " + str(PUZZLE_EXAMPLES / "house-classic-draw.toml")
                           + " -> turn: draw: the stock's cards are not listed: name the card drawn (draw 7H)")
    code, _, err = run_main(capsys, "play", PUZZLE_EXAMPLES / "house-classic-draw.toml", "take 4; play 2C to new/1")
    assert code == 2 and err.strip().endswith("turn: step 2: 2C is not in ann's hand "
                                              "(it holds 6D 7D 5S 5H QC 2H KS JH 5D 8D 9D) (in 'play 2C to new/1')")


def test_a_failed_demand_in_words_passes_the_turn(capsys: pytest.CaptureFixture[str]) -> None:
    path = PUZZLE_EXAMPLES / "house-epic-draw.toml"
    code, printed, _ = run_main(capsys, "check", path, "demand 6H from bob failed", "--json")
    assert code == 0 and json.loads(printed)["reading"]["draw"] == {
        "from": "demand", "card": "6H", "player": "bob", "failed": True}
    code, printed, _ = run_main(capsys, "play", path, "demand 6H from bob failed", "--json")
    before, position = Position.from_file(path).to_data(), json.loads(printed)
    assert code == 0 and position["to_move"] == "bob"
    assert position["players"]["bob"] == before["players"]["bob"]
    assert position["players"]["ann"]["space"] == before["players"]["ann"]["space"]
    code, _, err = run_main(capsys, "check", path, "demand 6H from bob failed; discard KS")
    assert code == 2 and "a failed demand ends the turn: no step comes after it" in err


def test_a_stock_card_named_is_in_checks_reading(capsys: pytest.CaptureFixture[str]) -> None:
    path = PUZZLE_EXAMPLES / "house-classic-draw.toml"
    code, printed, _ = run_main(capsys, "check", path, "draw 7H", "--json")
    assert code == 0 and json.loads(printed)["reading"]["draw"] == {"from": "stock", "cards": ["7H"]}
