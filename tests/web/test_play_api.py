"""``POST /api/play`` and ``POST /api/game`` (issue 27 §5): a turn played, a game record replayed.

Every turn the server plays is judged again here by the checker (the record's text read back
from the position before it); bad input is a 400 with one line, never a 500.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.checker import check
from rummy.position import Position
from rummy.reports.check import answer_from_text, turn_report
from rummy.reports.game_page import MAX_GAME_TURNS
from rummy.web.app import MAX_TEXT, Settings, create_app
from tests.support.paths import REPO_ROOT

KNOWN = (REPO_ROOT / "tests" / "data" / "games" / "rummikub-known.toml").read_text()
BASE_URL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, max_seconds=10)), base_url=BASE_URL) as client:
        yield client


def played(client: TestClient, position: str, turn: str, **more: Any) -> dict[str, Any]:
    response = client.post("/api/play", json={"position": position, "turn": turn, **more})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def rejudged(before_text: str, turn: str) -> None:
    """The turn's record text read back from the position before it and judged again: legal (an
    after-position by the checker itself; a draw in words by check's own judge of it)."""
    before = Position.from_text(before_text, "before", "json" if before_text.startswith("{") else "toml")
    read = answer_from_text(turn, "turn", "toml", before)
    verdict = check(before, read.after) if read.after is not None else turn_report(before, read, "turn").verdict
    assert verdict.legal, verdict.breaches


def one_line_400(response: Any) -> str:
    assert response.status_code == 400, response.text
    body = response.json()
    assert "\n" not in body["error"] and body["errors"][0] == body["error"]
    return str(body["error"])


def test_three_turns_played_and_the_record_replays_to_the_same_positions(client: TestClient) -> None:
    first = played(client, KNOWN, "best", time_limit=5)
    assert first["legal"] is True and first["player"] == "ann"
    assert first["position"]["to_move"] == "bob"
    rejudged(KNOWN, first["turn"])
    again = played(client, KNOWN, first["turn"])  # the record's text plays to the same position
    assert again["position"] == first["position"] and again["code"] == first["code"]
    second_before = json.dumps(first["position"])
    second = played(client, second_before, "play K1 K2 K3 to new/1")
    assert second["legal"] is True and second["turn"] == "play K1 K2 K3 to new/1"
    rejudged(second_before, second["turn"])
    assert second["position"]["to_move"] == "cat"
    assert "K1" not in second["position"]["players"]["bob"]["hand"]
    start = Position.from_text(KNOWN, "start", "toml").to_data()
    record = {"game": {"format": 1, "rules": "rummikub", "players": ["ann", "bob", "cat"]},
              "hands": [{"start": start, "turns": [{"player": "ann", "turn": first["turn"]},
                                                    {"player": "bob", "turn": second["turn"]}]}]}
    response = client.post("/api/game", json={"game": json.dumps(record)})
    assert response.status_code == 200, response.text
    replayed = response.json()
    positions = [entry["position"] for entry in replayed["hands"][0]["positions"]]
    assert positions == [start, first["position"], second["position"]]
    assert replayed["game"]["hands"][0]["turns"][1] == {"player": "bob", "turn": "play K1 K2 K3 to new/1"}


def test_an_illegal_turn_gives_checks_breaches_named_as_its_lines_name_them(client: TestClient) -> None:
    answer = played(client, KNOWN, "play R7 K2 O11 to new/1")
    assert answer["legal"] is False and "position" not in answer
    assert answer["check"]["legal"] is False
    codes = [breach["code"] for breach in answer["view"]["breaches"]]
    assert "not-whole" in codes
    assert any("new/1" in breach["message"] for breach in answer["view"]["breaches"])
    assert answer["view"]["lines"][0].startswith("illegal")


def test_a_record_that_does_not_replay_names_the_turn(client: TestClient) -> None:
    start = Position.from_text(KNOWN, "start", "toml").to_data()
    record = {"game": {"format": 1, "rules": "rummikub", "players": ["ann", "bob", "cat"]},
              "hands": [{"start": start, "turns": [{"player": "ann", "turn": "play R7 K2 O11 to new/1"}]}]}
    line = one_line_400(client.post("/api/game", json={"game": json.dumps(record)}))
    assert line.startswith("game: hand 1, turn 1 (ann: ") and "illegal" in line
    record["hands"][0]["turns"] = [{"player": "bob", "turn": "play K1 K2 K3 to new/1"}]
    assert "ann is to move, not bob" in one_line_400(client.post("/api/game", json={"game": json.dumps(record)}))


@pytest.mark.parametrize(("body", "expected"), [
    ({"position": "rules = 'nope'", "turn": "best"}, "rules"),
    ({"position": KNOWN, "turn": "play ZZ to new/1"}, "ZZ"),
    ({"position": KNOWN, "turn": "x" * (MAX_TEXT + 1)}, "turn: String should have at most"),
    ({"position": KNOWN, "turn": "best", "extra": 1}, "extra"),
    ({"position": KNOWN}, "turn: Field required"),
    ({"position": KNOWN, "turn": "best", "time_limit": 0}, "time_limit"),
])
def test_bad_play_requests_are_one_line_400s(client: TestClient, body: dict[str, Any], expected: str) -> None:
    assert expected in one_line_400(client.post("/api/play", json=body))


def test_bad_game_requests_are_one_line_400s(client: TestClient) -> None:
    assert "game" in one_line_400(client.post("/api/game", json={"game": "[game]\nrules = 3"}))
    assert "not a position's code" in one_line_400(client.post("/api/game", json={"game": "rummy1_abc"}))
    assert "[game]" in one_line_400(client.post("/api/game", json={"game": "{}"}))
    start = Position.from_text(KNOWN, "start", "toml").to_data()
    turns = [{"player": "ann", "turn": "pass"}] * (MAX_GAME_TURNS + 1)
    record = {"game": {"format": 1, "rules": "rummikub", "players": ["ann", "bob", "cat"]},
              "hands": [{"start": start, "turns": turns}]}
    too_long = one_line_400(client.post("/api/game", json={"game": json.dumps(record)}))
    assert f"at most {MAX_GAME_TURNS}" in too_long
    assert client.post("/api/game", json={"game": "x" * (300 * 1024)}).status_code == 413


def test_a_dealt_house_hand_played_by_best_and_draw_words_replays_from_its_record(client: TestClient) -> None:
    from rummy.deal import deal
    from rummy.rules import ruleset_from_spec

    start = deal(ruleset_from_spec("house-classic"), ["ann", "bob", "cat"], 7)
    assert start.phase == "draw" and start.upcard is not None
    position, turns = start.to_toml(), []
    positions = [start.to_data()]
    for turn in ("open", "best", "best", "best"):
        answer = played(client, position, turn, time_limit=3)
        assert answer["legal"] is True, answer
        rejudged(position, answer["turn"])  # the record's text, judged again by the checker
        turns.append({"player": answer["player"], "turn": answer["turn"]})
        positions.append(answer["position"])
        position = json.dumps(answer["position"])
    assert turns[0] == {"player": "ann", "turn": "open"}
    assert positions[1]["phase"] == "play" and positions[1]["to_move"] == "ann"  # open: ann plays on
    record = {"game": {"format": 1, "rules": "house-classic", "players": ["ann", "bob", "cat"]},
              "hands": [{"deal": 7, "start": start.to_data(), "turns": turns}]}
    response = client.post("/api/game", json={"game": json.dumps(record)})
    assert response.status_code == 200, response.text
    assert [entry["position"] for entry in response.json()["hands"][0]["positions"]] == positions


def test_rummy_plays_a_seat_from_its_own_view_on_the_whole_position(client: TestClient) -> None:
    response = client.post("/api/deal", json={"rules": "house-classic", "players": ["you", "ann", "bob"], "seed": 3})
    assert response.status_code == 200, response.text
    dealt = response.json()
    assert dealt["seed"] == 3 and dealt["position"]["to_move"] == "you"
    again = client.post("/api/deal", json={"rules": "house-classic", "players": ["you", "ann", "bob"], "seed": 3})
    assert again.json()["position"] == dealt["position"]  # a seed deals the same hand again
    position = json.dumps(dealt["position"])
    for mover in ("you", "ann"):
        response = client.post("/api/rummy-turn", json={"position": position, "time_limit": 3})
        assert response.status_code == 200, response.text
        turns = response.json()["turns"]
        assert 1 <= len(turns) <= 2 and {turn["player"] for turn in turns} == {mover}
        for turn in turns:  # each turn kept is legal from the position before it, and plays to the one given
            rejudged(position, turn["turn"])
            assert played(client, position, turn["turn"])["position"] == turn["position"]
            position = json.dumps(turn["position"])
    assert json.loads(position)["to_move"] == "bob"


@pytest.mark.parametrize(("path", "body", "expected"), [
    ("/api/deal", {"rules": "nope", "players": ["a", "b"]}, "nope"),
    ("/api/deal", {"rules": "house-classic", "players": ["a"]}, "players"),
    ("/api/deal", {"rules": "house-classic", "players": ["a"] * 9}, "players"),
    ("/api/deal", {"rules": "house-classic", "players": ["a", "a"]}, "named twice"),
    ("/api/deal", {"rules": "house-classic", "players": ["a", "b"], "seed": -1}, "seed"),
    ("/api/deal", {"rules": "house-classic", "players": ["a", "x" * 41]}, "players.1"),
    ("/api/rummy-turn", {"position": "rules = 'nope'"}, "rules"),
    ("/api/rummy-turn", {"position": KNOWN, "time_limit": -1}, "time_limit"),
])
def test_bad_deal_and_rummy_turn_requests_are_one_line_400s(client: TestClient, path: str, body: dict[str, Any],
                                                             expected: str) -> None:
    assert expected in one_line_400(client.post(path, json=body))


def test_the_turn_that_ends_a_hand_says_so_with_its_scores(client: TestClient) -> None:
    dealt = client.post("/api/deal", json={"rules": "straight", "players": ["you", "ann"], "seed": 5}).json()
    position, ending, turns = json.dumps(dealt["position"]), None, 0
    while ending is None and turns < 120:  # a Straight hand for two ends in a few dozen turns
        answer = client.post("/api/rummy-turn", json={"position": position, "time_limit": 1})
        assert answer.status_code == 200, answer.text
        for turn in answer.json()["turns"]:
            turns += 1
            assert played(client, position, turn["turn"])["ending"] == turn["ending"]  # /api/play says it too
            position, ending = json.dumps(turn["position"]), turn["ending"]
    assert ending is not None, "no end of the hand"
    assert set(ending["scores"]) == {"you", "ann"} and ending["summary"].startswith(ending["reason"])
    out = ending["went_out"]
    assert json.loads(position)["players"][out].get("hand", "") == ""


def test_the_deal_of_a_later_hand_goes_round_the_table(client: TestClient) -> None:
    body = {"rules": "house-classic", "players": ["you", "ann", "bob"], "seed": 3}
    movers = [client.post("/api/deal", json={**body, "hand": hand}).json()["position"]["to_move"] for hand in (1, 2, 3)]
    assert movers == ["you", "ann", "bob"]
    assert "hands 1 to 6" in one_line_400(client.post("/api/deal", json={**body, "hand": 7}))
    assert "hand" in one_line_400(client.post("/api/deal", json={**body, "hand": 0}))
