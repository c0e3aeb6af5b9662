"""``rummy serve`` against a real server on 127.0.0.1: slow connections closed, open ones bounded, Host checked.

The server runs in a thread (tests/support/live_server.py) with short deadlines and a small bound
(rummy.web.protocol.Limits), configured by ``server_config`` as ``rummy serve`` is. Every wait is bounded; only the loopback address is used.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="rummy serve needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("uvicorn", reason="rummy serve needs the web extra: pip install 'rummy[web]'")

from rummy.reports import page as reports
from rummy.web.app import Settings, create_app
from rummy.web.protocol import Limits
from tests.support import web_work
from tests.support.live_server import HOST, live_server

LIMITS = Limits(header_seconds=0.5, body_seconds=0.5, keep_alive_seconds=0.5, max_connections=8, write_seconds=0.5)
CLOSED_WITHIN = 10.0  # a liveness bound, far above LIMITS' deadlines: a connection left open fails the test
SETTLE = 0.3  # for the server to take in what was sent (milliseconds) before the next step relies on it


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with live_server(create_app(Settings(workers=1)), LIMITS) as port:
        yield port


def connect(port: int) -> socket.socket:
    return socket.create_connection((HOST, port), timeout=CLOSED_WITHIN)


def until_closed(connection: socket.socket, most: float = CLOSED_WITHIN) -> bytes | None:
    """What the server sends until it closes the connection; None if it is still open after ``most`` seconds."""
    connection.settimeout(most)
    received = b""
    try:
        while len(received) < 1 << 20:
            chunk = connection.recv(65536)
            if not chunk:
                return received
            received += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        return received
    return None


def is_open(connection: socket.socket) -> bool:
    """Nothing to read, and no end: the server holds it open (checked without waiting)."""
    connection.setblocking(False)
    try:
        return connection.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        connection.setblocking(True)


def get(port: int, path: str = "/", host: str | None = None, connection: socket.socket | None = None) -> bytes:
    """One GET with ``Connection: close``, as written (Host: the address unless told); the whole answer."""
    connection = connection or connect(port)
    with connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: {f'{HOST}:{port}' if host is None else host}\r\nConnection: close\r\n\r\n"
                           .encode())
        answer = until_closed(connection)
    assert answer is not None, "the server kept the connection after answering"
    return answer


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def body(answer: bytes) -> dict[str, object]:
    data: dict[str, object] = json.loads(answer.partition(b"\r\n\r\n")[2])
    return data


# ----------------------------------------------------------------- slow connections
@pytest.mark.parametrize("sent", [
    b"",  # nothing at all
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # half the headers
    b"POST /api/show HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"po",
    b"POST /api/show HTTP/1.1\r\nHost: 127.0.0.1\r\ntransfer-encoding: chunked\r\n\r\n4\r\n{\"po\r\n",
], ids=["nothing", "half-headers", "half-body", "half-chunked-body"])
def test_a_connection_that_stops_sending_is_closed_unanswered(port: int, sent: bytes) -> None:
    with connect(port) as connection:
        connection.sendall(sent)
        assert until_closed(connection) == b""


def test_headers_sent_a_byte_at_a_time_do_not_keep_the_connection(port: int) -> None:
    """A deadline counts from the headers' start: bytes that keep coming do not move it."""
    with connect(port) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        for _ in range(200):  # 10 s at most, 20 times the deadline
            try:
                connection.sendall(b"a")
            except OSError:
                break
            if not is_open(connection):
                break
            time.sleep(0.05)
        assert until_closed(connection, 2.0) == b""


def test_a_kept_alive_connection_is_closed_when_idle_and_served_until_then(port: int) -> None:
    import http.client

    client = http.client.HTTPConnection(HOST, port, timeout=CLOSED_WITHIN)
    try:
        for _ in range(3):  # the same connection, each request within the keep-alive deadline
            client.request("GET", "/api/positions/examples/robber")
            response = client.getresponse()
            assert response.status == 200 and b"robber" in response.read()
        assert client.sock is not None
        assert until_closed(client.sock) == b""
    finally:
        client.close()


def test_a_request_that_takes_its_time_in_the_app_is_not_cut_and_a_page_is_answered_meanwhile(
        port: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadlines cover reading a request, never the app's work on it (a solve may take its whole limit)."""
    monkeypatch.setattr(reports, "best_report", web_work.until_told)
    long_answer: list[bytes | None] = []

    def ask() -> None:
        with connect(port) as connection:
            request = json.dumps({"position": str(tmp_path)}).encode()
            connection.sendall(b"POST /api/best HTTP/1.1\r\nHost: 127.0.0.1\r\nconnection: close\r\n"
                               b"content-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (len(request), request))
            long_answer.append(until_closed(connection, 60))

    asking = threading.Thread(target=ask)
    asking.start()
    deadline = time.monotonic() + 60  # a worker's start
    while not (tmp_path / "started").exists() and time.monotonic() < deadline and asking.is_alive():
        time.sleep(0.02)
    assert (tmp_path / "started").exists(), long_answer
    time.sleep(3 * LIMITS.body_seconds)  # past every deadline of reading
    page = get(port)
    assert status(page) == 200 and b"<!doctype html>" in page
    assert asking.is_alive() and not long_answer  # the long request is still being answered
    (tmp_path / "stop").write_text("")
    asking.join(60)
    assert long_answer and long_answer[0] is not None
    assert status(long_answer[0]) == 200 and body(long_answer[0]) == {"told": True}


# ------------------------------------------------------------------ the bound on open connections
def test_past_the_bound_a_new_connection_closes_the_oldest_idle_one(port: int) -> None:
    idle = [connect(port) for _ in range(LIMITS.max_connections)]
    try:
        time.sleep(SETTLE)
        assert all(is_open(connection) for connection in idle)
        newest = connect(port)
        assert until_closed(idle[0]) == b""  # the oldest made room
        assert status(get(port, connection=newest)) == 200
        assert all(is_open(connection) for connection in idle[1:])
    finally:
        for connection in idle:
            connection.close()


def test_past_the_bound_with_every_connection_mid_request_a_new_one_is_refused_503(port: int) -> None:
    held = [connect(port) for _ in range(LIMITS.max_connections)]
    try:
        for connection in held:
            connection.sendall(b"GET / HTTP/1.1\r\n")
        time.sleep(SETTLE)
        with connect(port) as refused:
            answer = until_closed(refused)
        assert answer is not None and status(answer) == 503
        assert "too many connections" in str(body(answer)["error"])
        assert b"x-content-type-options: nosniff" in answer.lower()
        for connection in held:  # their deadline closes them, and the server answers again
            assert until_closed(connection) == b""
        assert status(get(port)) == 200
    finally:
        for connection in held:
            connection.close()


# ------------------------------------------------------------------ the Host header
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST:{port}", "127.0.0.1:{port}", "[::1]:{port}",
                                  "[::1]"])
def test_the_servers_own_names_are_answered(port: int, host: str) -> None:
    answer = get(port, "/api/positions/examples/robber", host=host.format(port=port))
    assert status(answer) == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example", "localhost.",
                                  "127.0.0.2", "[::1]x", "localhost:port", ""])
def test_any_other_host_is_refused_421(port: int, host: str) -> None:
    """A page on another site whose name now points to 127.0.0.1 (DNS rebinding) sends its own name."""
    answer = get(port, "/api/positions/examples/robber", host=host.format(port=port))
    assert status(answer) in (400, 421), answer  # an empty Host is malformed HTTP to h11: 400 before the app
    assert b"robber" not in answer.partition(b"\r\n\r\n")[2]
    assert str(body(answer)["error"]).startswith("request: ")


def test_a_request_without_host_is_refused(port: int) -> None:
    with connect(port) as connection:
        connection.sendall(b"GET /api/positions HTTP/1.0\r\n\r\n")
        answer = until_closed(connection)
    assert answer is not None and status(answer) == 421 and body(answer)["error"] == "request: no Host header"


def test_http_that_is_not_http_is_a_json_400_with_the_headers(port: int) -> None:
    with connect(port) as connection:
        connection.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        answer = until_closed(connection)
    assert answer is not None and status(answer) == 400
    assert body(answer)["error"] == "request: not valid HTTP/1.1"
    assert b"content-security-policy: default-src 'self'" in answer.lower()


def test_the_bound_leaves_room_under_a_low_open_files_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import resource

    from rummy.web.protocol import FILES_KEPT, server_config

    monkeypatch.setattr(resource, "getrlimit", lambda _: (300, 4096))
    assert Limits().within_open_files().max_connections == 300 - FILES_KEPT
    assert Limits(max_connections=100).within_open_files().max_connections == 100
    protocol = server_config(object(), Limits(max_connections=1000)).http
    assert isinstance(protocol, type) and protocol.limits.max_connections == 300 - FILES_KEPT
    monkeypatch.setattr(resource, "getrlimit", lambda _: (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    assert Limits(max_connections=100_000).within_open_files().max_connections == 100_000


def test_a_client_that_reads_no_answer_is_closed_once_the_writing_stalls(port: int) -> None:
    """Pipelined requests whose answers are never read fill the socket's buffers: the server's writing
    stalls, and past ``write_seconds`` the connection is closed (it would otherwise hold a place for ever)."""
    requests = 200
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as connection:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        connection.settimeout(CLOSED_WITHIN)
        connection.connect((HOST, port))
        one = f"GET /api/positions HTTP/1.1\r\nHost: {HOST}:{port}\r\n\r\n".encode()
        connection.sendall(one * requests)
        time.sleep(LIMITS.write_seconds * 4 + SETTLE)  # reading nothing meanwhile
        received, ended = 0, False
        try:
            while received < 64 << 20:
                chunk = connection.recv(1 << 16)
                if not chunk:
                    ended = True
                    break
                received += len(chunk)
        except (TimeoutError, ConnectionResetError):
            ended = not isinstance(sys.exc_info()[1], socket.timeout)
    answer_size = len(get(port, "/api/positions"))
    assert ended, "the server kept the connection whose client read nothing"
    assert received < requests * answer_size // 2, "the answers were all sent: the writing never stalled"
