"""``POST /api/best`` with ``progress``: the best turn so far, streamed as NDJSON (docs/serve.md "Best so far").

Each better turn found is a line ``{"progress": {...}}`` whose ``answer`` the checker judges again; the last line
is the usual answer; bad input found before the search is the usual 400; a refusal once the stream has begun is
its last line; the lines are bounded (a rate and a count); a client that hangs up mid-stream stops its worker.
Wall bounds are for liveness only.
"""

from __future__ import annotations

import asyncio
import json
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():  # starlette would rather have httpx2: a warning, not our concern
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.reports import page as reports
from rummy.web.app import Settings, create_app
from rummy.web.workers import PROGRESS_PER_SECOND, Progress, Relay, SolvePool
from tests.support import web_work
from tests.support.judged import rejudged
from tests.support.live_server import HOST, free_port, serving, solver_processes
from tests.support.paths import MALFORMED_DIR, REPO_ROOT
from tests.support.processes import alive
from tests.support.progress_lines import assert_each_line_better

POSITIONS = REPO_ROOT / "benchmarks" / "positions"
HOUSE = POSITIONS / "house-real" / "real-3p-02.toml"  # a worse turn first, the optimum within a second or so
DRAW = POSITIONS / "house-draw" / "house-20-00.toml"  # the draw phase: draw advice
BASE_URL = "http://127.0.0.1"
LIVENESS = 60.0
# The answer's keys that differ from one search to the next by design (timing, and what it names by it).
TIMED = {"seconds", "stats", "view"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, max_seconds=20)), base_url=BASE_URL) as client:
        yield client


def streamed(client: TestClient, data: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    """The response and its lines, each one JSON object."""
    with client.stream("POST", "/api/best", json={**data, "progress": True}) as response:
        lines = [json.loads(line) for line in response.iter_lines() if line]
    return response, lines


def test_each_better_turn_is_a_line_its_answer_judged_and_the_usual_answer_comes_last(client: TestClient) -> None:
    text = HOUSE.read_text(encoding="utf-8")
    response, lines = streamed(client, {"position": text, "time_limit": 10})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-ndjson"
    *told, last = lines
    assert told, "House tells its better turns"
    gains = [line["progress"]["gain"] for line in told]
    assert_each_line_better([line["progress"] for line in told])
    for line in told:
        progress = line["progress"]
        assert set(progress) >= {"gain", "bound", "seconds", "source", "status", "turn", "after", "cards_played",
                                 "answer"}
        answer = progress["answer"]
        assert progress["status"] == answer["status"] == "feasible"
        assert progress["bound"] >= progress["gain"] and answer["gain"] == progress["gain"]
        assert answer["after"] == progress["after"] and answer["turn"] == progress["turn"]
        assert answer["verified"] is True and answer["view"]["lines"]
        rejudged(HOUSE, {key: value for key, value in answer.items() if key != "view"})
    assert "progress" not in last and last["gain"] >= gains[-1]
    usual = client.post("/api/best", json={"position": text, "time_limit": 10}).json()
    assert {k: v for k, v in last.items() if k not in TIMED} == {k: v for k, v in usual.items() if k not in TIMED}
    rejudged(HOUSE, {key: value for key, value in last.items() if key != "view"})


def test_a_draw_phase_position_streams_its_options_as_they_are_valued(client: TestClient) -> None:
    """Draw advice tells each option valued (where it does: else the answer alone comes); the last line is
    the usual answer with every option."""
    text = DRAW.read_text(encoding="utf-8")
    response, lines = streamed(client, {"position": text, "time_limit": 10})
    assert response.status_code == 200
    *told, last = lines
    assert_each_line_better([line["progress"] for line in told])
    for line in told:
        progress = line["progress"]
        assert {"options", "valued", "total"} <= set(progress)
        assert 0 <= progress["valued"] <= progress["total"]
        assert progress["answer"]["status"] == "feasible"
        assert [o["value"] for o in progress["options"]] == sorted((o["value"] for o in progress["options"]),
                                                                    reverse=True)
    assert last["status"] in ("optimal", "feasible") and last["options"]
    rejudged(DRAW, {key: value for key, value in last.items() if key != "view"})


@pytest.mark.parametrize("data", [
    {"position": (MALFORMED_DIR / "unknown-card.toml").read_text(encoding="utf-8")},
    {"position": HOUSE.read_text(encoding="utf-8"), "objective": "tiles"},
    {"position": "x" * 10, "time_limit": -1},
], ids=["unknown-card", "objective", "time-limit"])
def test_bad_input_found_before_the_search_is_the_usual_400(client: TestClient, data: dict[str, Any]) -> None:
    response = client.post("/api/best", json={**data, "progress": True})
    assert response.status_code == 400, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error", "errors"} and body["errors"][0] == body["error"] and "\n" not in body["error"]
    assert "Traceback" not in response.text


@pytest.mark.parametrize("stand_in, status_words", [
    (web_work.told_then_refused, "position: found wrong late"),
    (web_work.told_then_broken, "internal error: KeyError"),
])
def test_a_refusal_once_the_stream_has_begun_is_its_last_line(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                              stand_in: Any, status_words: str) -> None:
    monkeypatch.setattr(reports, "best_report", stand_in)
    response, lines = streamed(client, {"position": "x"})
    assert response.status_code == 200
    assert lines[0] == {"progress": {"gain": 1}}
    last = lines[-1]
    assert set(last) == {"error", "errors"} and last["error"].startswith(status_words), last
    assert last["errors"] == [last["error"]] and len(lines) == 2


def test_the_lines_are_bounded_and_come_in_order_the_answer_last(client: TestClient,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """300 lines offered within a second or two: at most PROGRESS_PER_SECOND a second reach the client (a
    newer one replacing the one waiting), in the order offered."""
    monkeypatch.setattr(reports, "best_report", web_work.many_lines)
    response, lines = streamed(client, {"position": "x"})
    assert response.status_code == 200
    *told, last = lines
    assert last["offered"] == 300
    numbers = [line["progress"]["n"] for line in told]
    assert numbers and numbers == sorted(set(numbers))  # the first may be replaced by a newer before it is sent
    assert len(numbers) <= 2 + last["seconds"] * PROGRESS_PER_SECOND, (len(numbers), last["seconds"])


def test_a_solve_that_tells_nothing_streams_its_answer_alone(client: TestClient,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reports, "best_report", web_work.pid)
    response, lines = streamed(client, {"position": "x"})
    assert response.status_code == 200 and response.headers["content-type"] == "application/x-ndjson"
    assert len(lines) == 1 and set(lines[0]) == {"pid"}


def test_the_relay_sends_the_newest_line_at_most_so_often_and_drops_the_waiting_one_on_close() -> None:
    sent: list[Progress] = []
    relay = Relay(sent.append, per_second=2, most=3)
    relay.offer(lambda: {"n": 0})
    deadline = time.monotonic() + LIVENESS
    while not sent and time.monotonic() < deadline:
        time.sleep(0.01)
    for number in range(1, 50):  # within the half second after the first: only the newest is kept
        relay.offer(lambda number=number: {"n": number})
    while len(sent) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    relay.offer(lambda: {"n": 50})
    relay.offer(lambda: {"n": 51})
    relay.close()
    assert [progress.line["n"] for progress in sent] == [0, 49], "the newest of a burst; the one waiting dropped"
    many: list[Progress] = []
    relay = Relay(many.append, per_second=1000, most=3)
    for number in range(20):
        relay.offer(lambda number=number: {"n": number})
        time.sleep(0.01)
    relay.close()
    assert len(many) == 3, "no more than ``most`` lines"


def test_a_pool_solve_streams_its_lines_before_its_answer() -> None:
    async def scenario() -> None:
        pool = SolvePool(1, 4)
        try:
            solve = pool.submit(web_work.many_lines, 30, streams=True, count=20)
            outcome = await asyncio.wait_for(solve.answer, LIVENESS)
            assert outcome.report["offered"] == 20
            assert solve.lines is not None and not solve.lines.empty()
            numbers = [solve.lines.get_nowait()["progress"]["n"] for _ in range(solve.lines.qsize())]
            assert numbers == sorted(set(numbers))
            pool.withdraw(solve)
        finally:
            pool.close()

    asyncio.run(scenario())


def test_a_client_that_hangs_up_mid_stream_stops_its_worker() -> None:
    """The page's Stop button aborts the fetch: the server sees the connection close and kills the worker
    at once, not when the solve would have ended (600 s); the next visitor is answered by its replacement.
    While it streams, the solve counts against its client's bound, as any solve does."""
    import http.client

    from tests.support.live_server import post

    port = free_port()
    with serving(["-m", "tests.support.live_server", str(port), "--workers", "1", "--time-limit", "30",
                  "--grace", "600", "--max-per-client", "1"], port) as server:
        connection = http.client.HTTPConnection(HOST, port, timeout=LIVENESS)
        connection.request("POST", "/api/best", body=json.dumps({"position": "sleep 600", "progress": True}),
                           headers={"content-type": "application/json"})
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("content-type") == "application/x-ndjson"
        first = json.loads(response.readline())
        pid = first["progress"]["pid"]
        assert alive(pid)
        status, refusal = post(port, "/api/best", {"position": "pid", "progress": True}, timeout=LIVENESS)
        assert status == 503 and refusal["error"].startswith("busy: 1 solves from 127.0.0.1 "), refusal
        connection.close()  # the Stop button
        assert wait_dead(pid), "the worker of a stream nobody reads was stopped"
        replacement = http.client.HTTPConnection(HOST, port, timeout=LIVENESS)
        replacement.request("POST", "/api/best", body=json.dumps({"position": "pid"}),
                            headers={"content-type": "application/json"})
        answer = json.loads(replacement.getresponse().read())
        replacement.close()
        assert answer["pid"] != pid and solver_processes(server.pid) == {answer["pid"]}


def wait_dead(pid: int, seconds: float = LIVENESS) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)



def test_a_stream_cancelled_while_it_waits_leaves_no_task_behind() -> None:
    """The client gone (or the server stopping) while the stream waited for a line: its pending wait was
    left behind, logged at shutdown as "Task was destroyed but it is pending!"."""
    from types import SimpleNamespace

    from rummy.web.stream import streamed_lines

    async def cancel_mid_wait() -> list[asyncio.Task[Any]]:
        solve = SimpleNamespace(lines=asyncio.Queue(), answer=asyncio.get_running_loop().create_future())
        lines = streamed_lines(solve, {"progress": {"n": 0}}, lambda outcome: {})  # type: ignore[arg-type]
        assert json.loads(await lines.__anext__()) == {"progress": {"n": 0}}
        reading = asyncio.ensure_future(lines.__anext__())
        await asyncio.sleep(0.05)  # it waits for a line or the answer
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        await asyncio.sleep(0)  # the cancelled wait's own cancellation runs
        return [task for task in asyncio.all_tasks() if task is not asyncio.current_task() and not task.done()]

    assert asyncio.run(cancel_mid_wait()) == []
