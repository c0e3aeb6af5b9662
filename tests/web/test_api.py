"""The JSON API of ``rummy serve`` (rummy.web): the command line's answers, its errors, its limits.

Every answer is compared with what ``rummy best/show/check/hint --json`` prints
for the same text (run in this process), every best answer is judged again by
the checker, and every refusal is a 400 (or 404, 413, 503) with one line, never
a 500 or a traceback.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():  # starlette would rather have httpx2: a warning, not our concern
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.cli.app import main
from rummy.reports import page as reports
from rummy.web import workers
from rummy.web.app import MAX_BODY_BYTES, Settings, create_app
from rummy.web.workers import Busy, SolvePool, TookTooLong
from tests.support import web_work
from tests.support.judged import rejudged
from tests.support.paths import MALFORMED_DIR, PUZZLE_EXAMPLES, REPO_ROOT
from tests.support.processes import alive
from tests.support.themed_puzzles import first_shipped

EXAMPLES = sorted(PUZZLE_EXAMPLES.glob("*.toml"))
PUZZLES = REPO_ROOT / "puzzles"
HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
# A shipped puzzle with its stored answer.
SHIPPED_PUZZLE = first_shipped("house")  # the index's first: the collections are remade now and then
# Keys that differ between the API and the command line by design.
# ("warnings": the API lists them always, the command line's --json only where there are some.)
DIFFERENT = {"file", "seconds", "stats", "view", "verified", "warnings", "toml"}
SERVER_MOST = 20.0  # the module's server: the longest a solve may search
BASE_URL = "http://127.0.0.1"  # a Host the server answers (TestClient's own, "testserver", is refused: rummy.web.guard)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """One app, one solver process, for the whole module; the pool is closed on leaving."""
    with TestClient(create_app(Settings(workers=1, max_seconds=SERVER_MOST)), base_url=BASE_URL) as client:
        yield client


def cli(*args: str | Path) -> tuple[int, str, str]:
    """``rummy ARGS`` in this process: (exit code, stdout, stderr)."""
    from unittest import mock

    out, err = io.StringIO(), io.StringIO()
    # --time-limit counts from the process's start (rummy.deadline): here, the test run's, minutes ago
    with redirect_stdout(out), redirect_stderr(err), mock.patch("rummy.deadline.process_age", return_value=0.0):
        code = main([str(arg) for arg in args])
    return code, out.getvalue(), err.getvalue()


def cli_json(*args: str | Path) -> Any:
    code, out, err = cli(*args, "--json")
    assert code in (0, 1), err
    return json.loads(out)


def without(data: dict[str, Any], keys: set[str] = DIFFERENT) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in keys}


def refused(response: Any, status: int = 400) -> list[str]:
    """A refusal as the API gives it: the status, ``{"error": one line, "errors": [lines]}``, no traceback."""
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) == {"error", "errors"}, body
    assert isinstance(body["error"], str) and body["error"] and "\n" not in body["error"]
    assert body["errors"] and body["errors"][0] == body["error"]
    assert all(isinstance(line, str) and "\n" not in line for line in body["errors"])
    assert "Traceback" not in response.text
    return list(body["errors"])


def cli_lines(err: str, path: Path, place: str) -> list[str]:
    """The command line's error lines as the API words them: no ``rummy:`` prefix, the place for the file."""
    lines = err.splitlines()
    assert lines and all(line.startswith("rummy: ") for line in lines), err
    return [line.removeprefix("rummy: ").replace(str(path), place) for line in lines]


# ------------------------------------------------------------ 1. same answers as the command line
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_best_answers_as_the_command_line_and_the_checker_agrees(client: TestClient, path: Path) -> None:
    response = client.post("/api/best", json={"position": path.read_text(encoding="utf-8"), "time_limit": 20})
    assert response.status_code == 200, response.text
    answer = response.json()
    expected = cli_json("best", path, "--workers", "1", "--verify", "--time-limit", "20")
    assert without(answer) == without(expected)
    assert answer["verified"] is True and "view" in answer
    verdict = rejudged(path, answer)
    assert verdict["legal"] is True, verdict["breaches"]
    assert verdict["reading"]["gain"] == answer["gain"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_show_answers_as_the_command_line(client: TestClient, path: Path) -> None:
    response = client.post("/api/show", json={"position": path.read_text(encoding="utf-8")})
    assert response.status_code == 200, response.text
    assert without(response.json()) == cli_json("show", path)


def test_show_after_reads_an_after_position_as_show_after_does(client: TestClient, tmp_path: Path) -> None:
    answer = cli_json("best", HOUSE)
    after = tmp_path / "after.json"
    after.write_text(json.dumps(answer["after"]), encoding="utf-8")
    response = client.post("/api/show", json={"position": after.read_text(), "after": True, "format": "json"})
    assert response.status_code == 200, response.text
    assert without(response.json()) == cli_json("show", after, "--after")


def steps_of_best(path: Path) -> str:
    """``best``'s printed steps, fed back as ``rummy check`` reads them (formats.md)."""
    code, out, err = cli("best", path)
    assert code == 0, err
    steps = [line for line in out.splitlines() if line.strip()[:1].isdigit() and ". " in line]
    assert steps, out
    return "\n".join(steps) + "\n"


def test_check_a_legal_turn_of_steps_as_the_command_line(client: TestClient, tmp_path: Path) -> None:
    steps = steps_of_best(HOUSE)
    turn = tmp_path / "turn.txt"
    turn.write_text(steps, encoding="utf-8")
    response = client.post("/api/check", json={"before": HOUSE.read_text(), "after": steps})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["legal"] is True
    assert without(answer) == cli_json("check", HOUSE, turn)


def test_texts_with_a_byte_order_mark_read_as_the_command_line_reads_such_files(
        client: TestClient, tmp_path: Path) -> None:
    """The command line decodes files as utf-8-sig; a text pasted with its byte-order mark reads the same."""
    mark = "\ufeff"
    before, answer = tmp_path / "before.toml", tmp_path / "answer.json"
    before.write_text(mark + HOUSE.read_text(), encoding="utf-8")
    answer.write_text(mark + json.dumps(cli_json("best", HOUSE, "--workers", "1")), encoding="utf-8")
    shown = client.post("/api/show", json={"position": before.read_text(encoding="utf-8")})
    assert shown.status_code == 200, shown.text
    assert without(shown.json()) == cli_json("show", before)
    checked = client.post("/api/check", json={"before": before.read_text(encoding="utf-8"),
                                              "after": answer.read_text(encoding="utf-8")})
    assert checked.status_code == 200, checked.text
    assert checked.json()["legal"] is True
    assert without(checked.json()) == cli_json("check", before, answer)


def test_check_an_illegal_turn_as_the_command_line(client: TestClient, tmp_path: Path) -> None:
    steps = "play 2C 2H to new/1; discard KS"  # a pair is no play
    turn = tmp_path / "turn.txt"
    turn.write_text(steps, encoding="utf-8")
    response = client.post("/api/check", json={"before": HOUSE.read_text(), "after": steps})
    assert response.status_code == 200, response.text  # an illegal turn is an answer, not bad input
    answer = response.json()
    assert answer["legal"] is False and answer["breaches"]
    assert without(answer) == cli_json("check", HOUSE, turn)


STRAIGHT = PUZZLE_EXAMPLES / "straight.toml"
HOUSE_TURN = ("play 2H 2C to new/1; move * from cat/1 to new/1; play 8H 9H to new/2; move 7H from bob/1 to new/2; "
              "play 9D to cat/1; discard KS")
STRAIGHT_TURN = "play 4C 5C 6C to new/1; play 7D to ann/1; play AD KD to bob/1; discard QS"  # lay-offs on lay-offs


@pytest.mark.parametrize(("path", "turn"), [(HOUSE, HOUSE_TURN), (STRAIGHT, STRAIGHT_TURN)], ids=["house", "straight"])
def test_steps_draw_the_table_check_reads(client: TestClient, path: Path, turn: str) -> None:
    before = path.read_text()
    checked = client.post("/api/check", json={"before": before, "after": turn})
    assert checked.status_code == 200 and checked.json()["legal"] is True, checked.text
    after = checked.json()["view"]["after"]
    # The whole turn, and each of its first steps: the table check's reading leaves, named alike.
    response = client.post("/api/steps", json={"before": before, "steps": turn})
    assert response.status_code == 200, response.text
    assert response.json() == {"view": after}
    for count in range(len(turn.split(";"))):
        part = "; ".join(turn.split("; ")[:count])
        response = client.post("/api/steps", json={"before": before, "steps": part})
        assert response.status_code == 200, (part, response.text)
        if count == 0:  # no steps: the table as show draws it
            shown = client.post("/api/show", json={"position": before}).json()["view"]
            assert response.json()["view"] == without(shown, {"lines", "table_bag_words"})  # show says more: how the table was given


def test_steps_keep_lay_offs_where_they_are(client: TestClient) -> None:
    response = client.post("/api/steps", json={"before": STRAIGHT.read_text(), "steps": "play KD to bob/1"})
    assert response.status_code == 200, response.text
    bob = next(p for p in response.json()["view"]["plays"] if p["name"] == "bob/1")
    assert bob["cards"] == ["9D", "10D", "JD"]
    assert bob["layoffs"] == [{"by": "ann", "cards": ["QD"]}, {"by": "cat", "cards": ["KD"]}]


def test_steps_name_every_play_as_the_next_step_can(client: TestClient) -> None:
    """A new play emptied gives its name to none: the plays drawn keep the steps' names (new/2 stays
    new/2), so that a step naming a drawn play means that play."""
    turn = "play 2C 2H to new/1; play 8H 9H to new/2; move 2C 2H from new/1 to new/2"
    response = client.post("/api/steps", json={"before": HOUSE.read_text(), "steps": turn})
    assert response.status_code == 200, response.text
    plays = {p["name"]: p["cards"] for p in response.json()["view"]["plays"]}
    assert "new/1" not in plays and sorted(plays["new/2"]) == ["2C", "2H", "8H", "9H"]
    response = client.post("/api/steps", json={"before": HOUSE.read_text(), "steps": turn + "; move 8H from new/2 to new/3"})
    plays = {p["name"]: p["cards"] for p in response.json()["view"]["plays"]}
    assert plays["new/3"] == ["8H"] and sorted(plays["new/2"]) == ["2C", "2H", "9H"]


@pytest.mark.parametrize(("steps", "words"), [
    ("play KD to bob/1; play 5S to new/1", "steps: step 2: 5S is not in cat's hand"),
    ("play KD to bob/1; fly KD to the moon", "steps: step 2:"),
    ("play KD to bob/9", "steps: step 1:"),
])
def test_a_step_that_cannot_be_taken_is_a_400_naming_it(client: TestClient, steps: str, words: str) -> None:
    lines = refused(client.post("/api/steps", json={"before": STRAIGHT.read_text(), "steps": steps}))
    assert lines[0].startswith(words), lines


def test_a_steal_without_to_is_a_400_from_check_and_steps(client: TestClient) -> None:
    """Issue 24: once an ``assert`` (a 500, and a traceback from /api/steps); the command line's line."""
    steal = "steal 7H from bob/1"
    checked = refused(client.post("/api/check", json={"before": HOUSE.read_text(), "after": steal}))
    assert checked == [f"after: step 1: 'steal' needs 'to PLAY' (in '{steal}')"]
    stepped = refused(client.post("/api/steps", json={"before": HOUSE.read_text(), "steps": steal}))
    assert stepped == [f"steps: step 1: 'steal' needs 'to PLAY' (in '{steal}')"]


def test_a_long_run_of_spaces_is_read_as_one(client: TestClient) -> None:
    """``play`` + 131,000 spaces + ``x``, under the body limit: read as ``play x`` (once quadratic: minutes)."""
    steps = "play" + " " * 131_000 + "x"
    lines = refused(client.post("/api/steps", json={"before": HOUSE.read_text(), "steps": steps}))
    assert lines == ["steps: step 1: unknown card 'x' (in 'play x')"]


def test_check_and_steps_read_a_leading_semicolon_alike(client: TestClient) -> None:
    """One rule for both (formats.md "Turns written as steps"): a text that starts with ';' is steps."""
    turn = "; " + HOUSE_TURN
    checked = client.post("/api/check", json={"before": HOUSE.read_text(), "after": turn})
    assert checked.status_code == 200 and checked.json()["legal"] is True, checked.text
    stepped = client.post("/api/steps", json={"before": HOUSE.read_text(), "steps": turn})
    assert stepped.status_code == 200, stepped.text
    assert stepped.json() == {"view": checked.json()["view"]["after"]}


def test_steps_refuse_what_check_reads_as_a_position(client: TestClient) -> None:
    lines = refused(client.post("/api/steps", json={"before": HOUSE.read_text(), "steps": HOUSE.read_text()}))
    assert lines[0].startswith("steps: not a turn written as steps: 'rules' is no step"), lines


def test_check_best_as_check_dash_dash_best(client: TestClient, tmp_path: Path) -> None:
    """A best --json answer as the turn, and ``best: true``: how far from the best, as ``--best`` says."""
    answer_text = json.dumps(cli_json("best", HOUSE))
    turn = tmp_path / "answer.json"
    turn.write_text(answer_text, encoding="utf-8")
    response = client.post("/api/check", json={"before": HOUSE.read_text(), "after": answer_text, "best": True})
    assert response.status_code == 200, response.text
    answer = response.json()
    expected = cli_json("check", HOUSE, turn, "--best")
    assert "best" in answer and answer["best"]["short_of_best"] == 0
    assert without(answer) == without(expected)
    assert without(answer["best"], {"seconds"}) == without(expected["best"], {"seconds"})


@pytest.mark.parametrize("level", [1, 4])
def test_hint_by_id_and_by_text_as_the_command_line(client: TestClient, level: int) -> None:
    path = PUZZLES / f"{SHIPPED_PUZZLE}.toml"
    expected = cli_json("hint", path, "--level", str(level))
    by_id = client.post("/api/hint", json={"id": SHIPPED_PUZZLE, "level": level})
    assert by_id.status_code == 200, by_id.text
    assert by_id.json()["hints"] == expected and len(expected) == level
    by_text = client.post("/api/hint", json={"puzzle": path.read_text(), "level": level, "time_limit": 20})
    assert by_text.status_code == 200, by_text.text
    assert by_text.json()["hints"] == expected


def test_a_robber_draw_puzzle_is_hinted_as_the_command_line(client: TestClient) -> None:
    index = json.loads((REPO_ROOT / "puzzles" / "robber-draw" / "index.json").read_text(encoding="utf-8"))
    path = REPO_ROOT / "puzzles" / "robber-draw" / index["puzzles"][0]["position"]
    expected = cli_json("hint", path, "--level", "4")
    by_id = client.post("/api/hint", json={"id": f"robber-draw/{path.stem}", "level": 4})
    assert by_id.status_code == 200, by_id.text
    assert by_id.json()["hints"] == expected and expected[3]["text"].startswith("Whole turn: take; 1. ")


# ------------------------------------------------------------------------------- 2. bad input
@pytest.mark.parametrize("name", ["bad-toml-syntax.toml", "unknown-card.toml", "missing-to-move.toml",
                                  "bad-json-syntax.json", "wrong-option-type.json"])
def test_a_bad_position_is_the_command_lines_line(client: TestClient, name: str) -> None:
    path = MALFORMED_DIR / name
    code, _, err = cli("show", path, "--json")
    assert code == 2
    expected = cli_lines(err, path, "position")
    assert refused(client.post("/api/show", json={"position": path.read_text()})) == expected
    assert refused(client.post("/api/best", json={"position": path.read_text()})) == expected


def test_every_problem_of_a_position_is_a_line_of_its_own(client: TestClient, tmp_path: Path) -> None:
    path = tmp_path / "two.toml"
    path.write_text('rules = "rummikub"\nhand_number = 1\nto_move = "ann"\ntable = ["R1 R2 Q3", "B5 B6 B7"]\n\n'
                    '[players.ann]\nhand = "G9 K4 K5"\nmelded = true\n\n[players.bob]\nhand_count = 8\n')
    code, _, err = cli("best", path)
    assert code == 2
    expected = cli_lines(err, path, "position")
    assert len(expected) == 2
    assert refused(client.post("/api/best", json={"position": path.read_text()})) == expected


def test_a_json_position_named_as_json_is_read_as_json(client: TestClient) -> None:
    """Told by content, '[' opens a TOML table; the format says what the file's suffix says."""
    path = MALFORMED_DIR / "not-an-object.json"
    _, _, err = cli("show", path)
    sent = {"position": path.read_text(), "format": "json"}
    assert refused(client.post("/api/show", json=sent)) == cli_lines(err, path, "position")


def test_check_names_before_and_after_where_the_command_line_names_the_files(client: TestClient, tmp_path: Path) -> None:
    bad = MALFORMED_DIR / "unknown-card.toml"
    turn = tmp_path / "turn.txt"
    turn.write_text("play 2C 2H to new/1; discard KS", encoding="utf-8")
    _, _, err = cli("check", bad, turn)
    assert refused(client.post("/api/check", json={"before": bad.read_text(), "after": turn.read_text()})) == \
        cli_lines(err, bad, "before")
    turn.write_text("play 9S to new/1; discard KS", encoding="utf-8")  # 9S is not in ann's hand
    code, _, err = cli("check", HOUSE, turn)
    assert code == 2
    lines = refused(client.post("/api/check", json={"before": HOUSE.read_text(), "after": turn.read_text()}))
    assert lines == cli_lines(err, turn, "after") and lines[0].startswith("after: step 1: ")


def test_hint_names_the_puzzle(client: TestClient) -> None:
    draw = PUZZLE_EXAMPLES / "house-classic-draw.toml"  # hints are for the play phase
    code, _, err = cli("hint", draw)
    assert code == 2
    assert refused(client.post("/api/hint", json={"puzzle": draw.read_text()})) == cli_lines(err, draw, "puzzle")
    assert refused(client.post("/api/hint", json={}))[0].startswith("puzzle: ")


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/best", {"position": "x", "time_limit": -1}, "time_limit"),
    ("/api/best", {"position": "x", "time_limit": "soon"}, "time_limit"),
    ("/api/best", {"position": "x", "objective": "most"}, "objective"),
    ("/api/best", {"position": "x", "seed": -1}, "seed"),
    ("/api/hint", {"puzzle": "x", "level": 5}, "level"),
    ("/api/hint", {"puzzle": "x", "level": "two"}, "level"),
    ("/api/show", {"position": "x", "colour": True}, "colour"),
    ("/api/show", {"position": 7}, "position"),
    ("/api/show", {"position": "x", "format": "yaml"}, "format"),
    ("/api/show", {}, "position"),
    ("/api/check", {"before": "x"}, "after"),
    ("/api/check", {"before": "x", "after": "y", "best": "maybe"}, "best"),
    ("/api/check", {"before": "x", "after": "y", "best": "yes"}, "best"),
    ("/api/show", {"position": "x", "after": 1}, "after"),
    ("/api/best", {"position": "x", "progress": "yes"}, "progress"),
    ("/api/best", {"position": "x", "progress": "true"}, "progress"),
    ("/api/best", {"position": "x", "progress": 1}, "progress"),
    ("/api/best", {"position": "x", "progress": None}, "progress"),
])
def test_a_wrong_option_is_a_400_naming_it(client: TestClient, path: str, body: dict[str, Any], field: str) -> None:
    lines = refused(client.post(path, json=body))
    assert any(line.startswith(f"{field}: ") for line in lines), lines


def test_an_unknown_key_with_a_new_line_is_named_on_one_line(client: TestClient) -> None:
    """Found by the property test below: the key was echoed as it came, new line and all."""
    lines = refused(client.post("/api/show", json={"position": "x", "a\nb": 1}))
    assert lines == ["'a\\nb': Extra inputs are not permitted"]


def test_a_time_limit_that_is_no_number_is_refused_and_an_endless_one_capped(client: TestClient,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    def send(limit: str) -> Any:
        content = f'{{"position": "x", "time_limit": {limit}}}'.encode()
        return client.post("/api/best", content=content, headers={"content-type": "application/json"})

    assert refused(send("NaN"))[0].startswith("time_limit: ")
    monkeypatch.setattr(reports, "best_report", web_work.limits)
    assert send("Infinity").json()["time_limit"] == send("1e308").json()["time_limit"] == SERVER_MOST


@pytest.mark.parametrize("content", [b"", b"not json", b"[1, 2]", b'"a string"', b"{", b"\xff\xfe"])
def test_a_body_that_is_no_request_object_is_a_400(client: TestClient, content: bytes) -> None:
    refused(client.post("/api/show", content=content, headers={"content-type": "application/json"}))


# ------------------------------------------------------------------------------------ 3. limits
def test_a_body_over_the_limit_is_413_by_its_length(client: TestClient) -> None:
    big = json.dumps({"position": "#" * (MAX_BODY_BYTES + 10)})
    lines = refused(client.post("/api/show", content=big, headers={"content-type": "application/json"}), 413)
    assert "KB" in lines[0]


def test_a_streamed_body_over_the_limit_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"position": "'
        for _ in range(MAX_BODY_BYTES // 4096 + 2):
            yield b"#" * 4096
        yield b'"}'

    response = client.post("/api/show", content=chunks(), headers={"content-type": "application/json"})
    refused(response, 413)


def test_a_streamed_body_under_the_limit_is_read_whole(client: TestClient) -> None:
    text = HOUSE.read_bytes()
    body = json.dumps({"position": text.decode()}).encode()

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(body), 100):
            yield body[start:start + 100]

    response = client.post("/api/show", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 200, response.text
    assert without(response.json()) == cli_json("show", HOUSE)


def test_a_position_over_its_length_is_a_400(client: TestClient) -> None:
    """Under the body's limit, over a position's (128 K characters)."""
    lines = refused(client.post("/api/show", json={"position": "é" * (MAX_BODY_BYTES // 2 - 100)}))
    assert lines[0].startswith("position: ")


@pytest.fixture(scope="module")
def small() -> Iterator[TestClient]:
    """A server whose solves may last half a second and at most one at a time."""
    with TestClient(create_app(Settings(workers=1, max_waiting=1, max_seconds=0.5)), base_url=BASE_URL) as client:
        yield client


def test_a_time_limit_above_the_servers_is_capped(small: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    start = time.monotonic()
    response = small.post("/api/best", json={"position": (PUZZLE_EXAMPLES / "house-epic-draw.toml").read_text(),
                                             "time_limit": 100})
    assert response.status_code == 200, response.text
    assert response.json()["status"] in ("optimal", "feasible")
    assert time.monotonic() - start < 15  # a worker's start-up, half a second of search, the draw advice
    monkeypatch.setattr(reports, "best_report", web_work.limits)  # what the worker is told
    given_limit = small.post("/api/best", json={"position": "x", "time_limit": 100}).json()["time_limit"]
    assert given_limit == 0.5
    assert small.post("/api/best", json={"position": "x"}).json()["time_limit"] == 0.5  # no limit asked
    assert small.post("/api/best", json={"position": "x", "time_limit": 0.2}).json()["time_limit"] == 0.2


def test_limits_say_the_default_time_limit_and_the_most_a_request_gets(client: TestClient, small: TestClient) -> None:
    """The page's time-limit control is bounded by these (rummy/web/static/timelimit.js)."""
    assert client.get("/api/limits").json() == {"time_limit": 10.0, "max_time_limit": SERVER_MOST}
    assert small.get("/api/limits").json() == {"time_limit": 0.5, "max_time_limit": 0.5}  # the default is capped too


def test_more_solves_than_the_pool_takes_are_refused_as_busy(small: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reports, "best_report", web_work.slow)
    small.post("/api/best", json={"position": "x", "time_limit": 0.1})  # the worker started
    statuses: list[int] = []

    def ask() -> None:
        statuses.append(small.post("/api/best", json={"position": "x"}).status_code)

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
        time.sleep(0.2)
    for thread in threads:
        thread.join(30)
    assert sorted(statuses) == [200, 503]
    monkeypatch.setattr(reports, "best_report", web_work.pid)
    assert small.post("/api/best", json={"position": "x"}).status_code == 200  # free again


def test_a_solve_past_its_limit_and_grace_is_stopped_and_the_next_one_works(
        small: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reports, "best_report", web_work.pid)
    first = small.post("/api/best", json={"position": "x"}).json()["pid"]  # a started worker
    monkeypatch.setattr(reports, "best_report", web_work.sleepy)
    monkeypatch.setattr(small.app.state.pool, "grace", 0.5)  # type: ignore[attr-defined]
    start = time.monotonic()
    lines = refused(small.post("/api/best", json={"position": "x", "time_limit": 0.2}), 503)
    assert time.monotonic() - start < 10
    assert "longer than 0.2 s" in lines[0]
    assert wait_dead(first)  # the worker that overran was stopped
    monkeypatch.undo()
    monkeypatch.setattr(reports, "best_report", web_work.pid)
    response = small.post("/api/best", json={"position": "x"})
    assert response.status_code == 200 and response.json()["pid"] != first


def test_a_worker_that_dies_is_a_503_and_the_next_solve_works(small: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reports, "best_report", web_work.dies)
    lines = refused(small.post("/api/best", json={"position": "x"}), 503)
    assert "stopped unexpectedly" in lines[0]
    monkeypatch.setattr(reports, "best_report", web_work.pid)
    assert small.post("/api/best", json={"position": "x"}).status_code == 200
    best = small.post("/api/best", json={"position": HOUSE.read_text(), "time_limit": 0.5})
    monkeypatch.undo()
    assert best.status_code == 200, best.text


def test_a_worker_killed_while_idle_is_replaced(small: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the fix, the broken pool refused every later submit with an uncaught BrokenProcessPool: a 500, forever."""
    import signal

    monkeypatch.setattr(reports, "best_report", web_work.pid)
    idle = small.post("/api/best", json={"position": "x"}).json()["pid"]
    os.kill(idle, signal.SIGKILL)
    assert wait_dead(idle)
    time.sleep(0.3)  # the executor notices
    first = small.post("/api/best", json={"position": "x"})
    assert first.status_code in (200, 503), first.text
    if first.status_code == 503:
        assert "stopped unexpectedly" in refused(first, 503)[0]
    second = small.post("/api/best", json={"position": "x"})
    assert second.status_code == 200 and second.json()["pid"] != idle



def wait_dead(pid: int, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def test_the_solve_pool_on_its_own() -> None:
    """SolvePool directly: busy beyond max_waiting, an overrun stopped, a dead worker replaced, close stops all."""
    pool = SolvePool(1, 1)

    async def scenario() -> None:
        first = (await pool.run(web_work.pid, 5)).report["pid"]
        slow = asyncio.ensure_future(pool.run(web_work.slow, 5, sleep=1.0))
        await asyncio.sleep(0.1)
        with pytest.raises(Busy):
            await pool.run(web_work.pid, 5)
        assert (await slow).report["slept"] is True
        pool.grace = 0.3
        with pytest.raises(TookTooLong):
            await pool.run(web_work.sleepy, 0.1)
        pool.grace = workers.GRACE_SECONDS
        assert wait_dead(first)
        with pytest.raises(TookTooLong):
            await pool.run(web_work.dies, 5)
        last = (await pool.run(web_work.pid, 5)).report["pid"]
        assert last != first
        pool.close()
        assert wait_dead(last)  # closing stops the workers, not only asks them

    try:
        asyncio.run(scenario())
    finally:
        pool.close()


# -------------------------------------------------------------------------- 4. shipped positions
def test_every_shipped_position_is_listed_and_served_as_on_disk(client: TestClient) -> None:
    listing = client.get("/api/positions").json()
    collections = {c["name"]: c for c in listing["collections"]}
    on_disk = {folder.name for folder in PUZZLES.iterdir() if folder.is_dir() and any(folder.glob("*.toml"))}
    assert set(collections) == on_disk
    assert {p["name"] for p in collections["examples"]["positions"]} == {p.stem for p in EXAMPLES}
    for name, collection in collections.items():
        assert collection["positions"], name
        for entry in collection["positions"]:
            assert entry["id"] == f"{name}/{entry['name']}"
            response = client.get(f"/api/positions/{entry['id']}")
            assert response.status_code == 200, entry
            served = response.json()
            path = PUZZLES / name / f"{entry['name']}.toml"
            assert served["text"] == path.read_text(encoding="utf-8"), entry["id"]
            assert served["has_solution"] == path.with_name(f"{path.stem}.solution.json").is_file()


@pytest.mark.parametrize("url", [
    "/api/positions/examples/%2e%2e%2f%2e%2e%2fpyproject.toml", "/api/positions/%2e%2e/%2e%2e", "/api/positions/examples/%2e%2e%2fREADME",
    "/api/positions/..%2f..%2fpyproject/toml", "/api/positions/examples/%2fetc%2fpasswd",
    "/api/positions/examples/house-classic.toml", "/api/positions/examples/nosuch", "/api/positions/etc/passwd",
    "/api/positions/house/index", "/api/positions/tiles/..%2f..%2fREADME",
])
def test_an_unlisted_id_is_404_and_nothing_is_read(client: TestClient, monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    read: list[str] = []
    original = Path.read_text

    def spy(self: Path, *args: Any, **kwargs: Any) -> str:
        read.append(str(self))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", spy)
    response = client.get(url)
    assert response.status_code == 404, (url, response.text)
    refused(response, 404)
    assert read == []


@pytest.mark.parametrize("bad_id", ["../pyproject", "examples/../../pyproject", "/etc/passwd", "examples/nosuch",
                                    "house/..", "%2e%2e/x"])
def test_hint_by_an_unlisted_id_is_404(client: TestClient, bad_id: str) -> None:
    refused(client.post("/api/hint", json={"id": bad_id}), 404)


def test_hint_by_id_uses_the_stored_answer(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The id hands the hint its puzzle's stored answer, and with it no search is made: the hints
    come even with a tiny time limit, and even when the search would fail."""
    path = PUZZLES / f"{SHIPPED_PUZZLE}.toml"
    expected = cli_json("hint", path, "--level", "2")
    response = client.post("/api/hint", json={"id": SHIPPED_PUZZLE, "level": 2, "time_limit": 0.001})
    assert response.status_code == 200, response.text
    assert response.json()["hints"] == expected
    monkeypatch.setattr(reports, "hint_report", web_work.echo)
    given_to_worker = client.post("/api/hint", json={"id": SHIPPED_PUZZLE, "level": 2}).json()
    assert given_to_worker["text"] == path.read_text(encoding="utf-8")
    assert given_to_worker["solution_text"] == path.with_name(f"{path.stem}.solution.json").read_text(encoding="utf-8")
    monkeypatch.undo()

    import rummy.reports.hint

    def no_search(*_: Any) -> Any:
        raise AssertionError("searched although the stored answer was given")

    monkeypatch.setattr(rummy.reports.hint, "solved_answer", no_search)
    report = reports.hint_report(path.read_text(), 2, solution_text=given_to_worker["solution_text"], time_limit=0.001)
    assert report["hints"] == expected


# ---------------------------------------------------------------------------------- 5. OpenAPI
def test_openapi_describes_every_endpoint_and_its_fields(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for name in ("show", "best", "check", "hint"):
        assert "post" in paths[f"/api/{name}"], name
    assert "get" in paths["/api/positions"] and "get" in paths["/api/positions/{collection}/{name}"]
    assert "get" in paths["/api/limits"]
    models = schema["components"]["schemas"]
    fields = {name: set(models[name]["properties"]) for name in ("ShowRequest", "BestRequest", "CheckRequest", "HintRequest")}
    assert fields["ShowRequest"] == {"position", "format", "after"}
    assert fields["BestRequest"] == {"position", "format", "time_limit", "objective", "seed", "progress"}
    assert fields["CheckRequest"] == {"before", "after", "before_format", "after_format", "best", "time_limit"}
    assert fields["HintRequest"] == {"puzzle", "id", "format", "level", "time_limit"}
    assert models["ShowRequest"]["required"] == ["position"]
    assert set(models["CheckRequest"]["required"]) == {"before", "after"}


# ------------------------------------------------------------------------------ 6. nothing written
def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    skipped = {".git", ".venv", ".hypothesis", ".pytest_cache", "__pycache__", ".mypy_cache"}
    found = {}
    for folder, names, files in os.walk(root):
        names[:] = [name for name in names if name not in skipped]
        for name in files:
            path = Path(folder, name)
            status = path.lstat()
            found[str(path.relative_to(root))] = (status.st_mtime_ns, status.st_size)
    return found


def test_nothing_is_written(client: TestClient) -> None:
    before = snapshot(REPO_ROOT)
    assert any(name.startswith("puzzles/") for name in before)
    text = HOUSE.read_text()
    assert client.post("/api/show", json={"position": text}).status_code == 200
    assert client.post("/api/best", json={"position": text}).status_code == 200
    assert client.post("/api/check", json={"before": text, "after": "play 2C 2H to new/1; discard KS",
                                           "best": True}).status_code == 200
    assert client.post("/api/hint", json={"id": SHIPPED_PUZZLE, "level": 4}).status_code == 200
    assert client.post("/api/hint", json={"puzzle": (PUZZLES / f"{SHIPPED_PUZZLE}.toml").read_text()}).status_code == 200
    assert client.get("/api/positions").status_code == 200
    assert client.get(f"/api/positions/{SHIPPED_PUZZLE}").status_code == 200
    assert client.get("/").status_code == 200
    assert snapshot(REPO_ROOT) == before


# ------------------------------------------------------------------------- 7. never a 500
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)
position_text = st.one_of(
    st.text(max_size=200),
    st.sampled_from([HOUSE.read_text(), (PUZZLE_EXAMPLES / "rummikub.toml").read_text()]).map(
        lambda text: text[: len(text) // 2]),
    st.lists(st.sampled_from(["rules = ", '"house-classic"', "\n", "[players.ann]", "hand = ", '"7H 8H"', "to_move",
                              "=", '"ann"', "hand_number = 1", "{", "}", "[", "]", "play 7H to new/1", ";"]),
             max_size=20).map(" ".join),
)


def json_bytes(value: Any) -> bytes:
    return json.dumps(value).encode()


def assert_answered_or_refused(client: TestClient, path: str, body: bytes) -> None:
    """Any body: an answer (200) or a refusal on one line (400, 413), never a 500."""
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code in (200, 400, 413), response.text
    if response.status_code != 200:
        refused(response, response.status_code)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=st.one_of(
    st.binary(max_size=100),
    json_values.map(json_bytes),
    st.fixed_dictionaries({"position": position_text}, optional={"after": json_values, "format": json_values})
    .map(json_bytes),
))
def test_show_never_fails_with_a_500(client: TestClient, body: bytes) -> None:
    assert_answered_or_refused(client, "/api/show", body)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=st.one_of(
    json_values.map(json_bytes),
    st.fixed_dictionaries({"before": position_text, "after": position_text},
                          optional={"best": json_values, "time_limit": json_values})
    .map(json_bytes),
))
def test_check_never_fails_with_a_500(client: TestClient, body: bytes) -> None:
    assert_answered_or_refused(client, "/api/check", body)
