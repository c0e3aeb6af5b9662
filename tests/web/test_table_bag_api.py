"""The server reads a tile table given as a bag as the command line does: laid out, or a 400 with the
reader's one line."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():  # starlette would rather have httpx2: a warning, not our concern
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.web.app import Settings, create_app
from tests.support.live_server import HOST, live_server

BASE_URL = "http://127.0.0.1"
BAG = ('rules = "rummikub"\nto_move = "ann"\ntable = "{table}"\n'
       'players.ann = {{melded = true, hand = "R4"}}\nplayers.bob = {{hand_count = 3}}\n')


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, max_seconds=5.0)), base_url=BASE_URL) as client:
        yield client


def test_show_lays_a_bag_out(client: TestClient) -> None:
    response = client.post("/api/show", json={"position": BAG.format(table="R1 R2 R3 B5 B6 B7")})
    assert response.status_code == 200
    assert response.json()["table"] == ["R1 R2 R3", "B5 B6 B7"]


def test_a_bag_that_cannot_be_laid_out_is_a_400_naming_the_tiles(client: TestClient) -> None:
    response = client.post("/api/show", json={"position": BAG.format(table="R1 R2 R3 B5 B6 K9")})
    assert response.status_code == 400
    assert response.json()["errors"] == ["position: table: B5 B6 K9 fit in no play with the other tiles of the "
                                         "bag: the table cannot be arranged"]


def test_the_page_is_told_the_table_came_from_a_bag(client: TestClient) -> None:
    """show's and best's views say it in the command line's words, for the position panel and the answer."""
    words = "table arranged by rummy from a bag of 6 tiles"
    shown = client.post("/api/show", json={"position": BAG.format(table="R1 R2 R3 B5 B6 B7")}).json()
    assert shown["view"]["table_bag_words"] == words
    assert f"  ({words})" in shown["view"]["lines"]
    best = client.post("/api/best", json={"position": BAG.format(table="R1 R2 R3 B5 B6 B7"), "time_limit": 5}).json()
    assert (best["table_bag"], best["view"]["table_bag_words"]) == (6, words)
    assert best["verified"] is True and best["cards_played"] == 1  # R4 onto R1 R2 R3, judged by the checker


def test_a_table_given_as_plays_says_nothing_of_a_bag(client: TestClient) -> None:
    given = BAG.replace('table = "{table}"', 'table = ["R1 R2 R3", "B5 B6 B7"]').format()
    shown = client.post("/api/show", json={"position": given}).json()
    assert shown["view"]["table_bag_words"] is None
    best = client.post("/api/best", json={"position": given, "time_limit": 5}).json()
    assert "table_bag" not in best and best["view"]["table_bag_words"] is None


# ------------------------------------------------ a bag's search in the server's threads
LIVENESS = 20.0  # the longest any wait below may take: a bound for a hung test, never reached when it passes


def post_show(port: int, text: str, source: str | None = None) -> tuple[int, dict[str, Any]]:
    """POST /api/show; ``source``: the client's own address (another loopback address is another visitor)."""
    if source is not None:
        connection = http.client.HTTPConnection(HOST, port, timeout=LIVENESS, source_address=(source, 0))
        connection.request("POST", "/api/show", body=json.dumps({"position": text}),
                           headers={"content-type": "application/json"})
        answer = connection.getresponse()
        status, body = answer.status, json.loads(answer.read())
        connection.close()
        return status, body
    request = urllib.request.Request(f"http://{HOST}:{port}/api/show", data=json.dumps({"position": text}).encode(),
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=LIVENESS) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def wait_for_reads(app: Any, waiting: int) -> None:
    """Until ``waiting`` reads wait for a reader thread: a loaded machine may take its time to get there."""
    deadline = time.monotonic() + LIVENESS
    while app.state.reading.statistics().tasks_waiting < waiting:
        assert time.monotonic() < deadline, f"fewer than {waiting} reads waiting after {LIVENESS:.0f} s"
        time.sleep(0.02)


def held_searches(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Semaphore, threading.Event]:
    """Every bag's search held until ``release`` is set (``searching`` counts the ones started), then
    stopped without a whole arrangement: the slowest search the 10 s limit allows, on demand."""
    from rummy.rules import preset
    from rummy.table_bag import Arrangement

    searching, release = threading.Semaphore(0), threading.Event()

    def held_search(bag: tuple[Any, ...], rules: Any, seconds: float, /) -> Arrangement:
        searching.release()
        release.wait(LIVENESS)
        return Arrangement((), bag, proven=False)

    monkeypatch.setattr(type(preset("rummikub").family), "arrange_function", lambda _: held_search)
    return searching, release


def test_bag_searches_wait_for_their_own_threads_and_other_visitors_are_served(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each bag's search may take 10 s: reads run in ``readers`` threads of their own, past ``max_waiting``
    waiting reads a 503 answers at once, and the rest of the server (here the presets) is served meanwhile."""
    searching, release = held_searches(monkeypatch)
    answers: list[tuple[int, dict[str, Any]]] = []
    text = BAG.format(table="R1 R2 R3 B5 B6 B7")
    app = create_app(Settings(workers=1, readers=1, max_waiting=1))
    with live_server(app) as port:
        shows = [threading.Thread(target=lambda: answers.append(post_show(port, text))) for _ in range(2)]
        try:
            shows[0].start()
            assert searching.acquire(timeout=LIVENESS)
            shows[1].start()  # waits for the one reader
            wait_for_reads(app, 1)
            status, busy = post_show(port, text)
            assert (status, busy["error"]) == (503, "busy: 1 position waiting to be read; try again shortly")
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/presets", timeout=LIVENESS) as presets:
                assert presets.status == 200
            assert len(answers) == 0  # the first search is still held
        finally:
            release.set()
            for show in shows:
                show.join(LIVENESS)
    assert [status for status, _ in answers] == [400, 400]  # each search stopped without a whole arrangement
    assert all("give the table as plays" in answer["error"] for _, answer in answers)


def test_one_visitor_cannot_fill_the_read_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """A client with ``max_per_client`` reads in hand is refused at once; another address still gets in line."""
    searching, release = held_searches(monkeypatch)
    answers: list[tuple[int, dict[str, Any]]] = []
    text = BAG.format(table="R1 R2 R3 B5 B6 B7")
    app = create_app(Settings(workers=1, readers=1, max_waiting=32, max_per_client=2))
    with live_server(app) as port:
        mine = [threading.Thread(target=lambda: answers.append(post_show(port, text))) for _ in range(2)]
        other = threading.Thread(target=lambda: answers.append(post_show(port, text, source="127.0.0.2")))
        try:
            mine[0].start()
            assert searching.acquire(timeout=LIVENESS)
            mine[1].start()  # in line for the one reader: this client's second
            wait_for_reads(app, 1)
            status, busy = post_show(port, text)
            assert (status, busy["error"]) == (503, "busy: 2 positions of yours are being read; "
                                                    "wait for them to be answered")
            other.start()  # another visitor is not refused: it waits its turn
            wait_for_reads(app, 2)
            assert len(answers) == 0
        finally:
            release.set()
            for thread in (*mine, other):
                thread.join(LIVENESS)
    assert [status for status, _ in answers] == [400, 400, 400]  # all three read (their held searches failed)
