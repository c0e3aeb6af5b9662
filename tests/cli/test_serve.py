"""``rummy serve``: its refusals on one line (exit 2), and a real server that answers and stops cleanly."""

from __future__ import annotations

import http.client
import io
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout

import pytest

from rummy.cli.app import main
from tests.support.live_server import free_port, request, serving
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT
from tests.support.processes import alive, children

WITHOUT_FASTAPI = "import sys; sys.modules['fastapi'] = None; from rummy.cli.app import main; sys.exit(main(['serve']))"


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_a_port_out_of_range_is_one_line() -> None:
    code, out, err = cli("serve", "--port", "70000")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "--port" in err and "70000" in err


def test_a_port_in_use_is_one_line_and_exit_2() -> None:
    pytest.importorskip("fastapi", reason="rummy serve needs the web extra: pip install 'rummy[web]'")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "rummy", "serve", "--port", str(port), "--solvers", "1"],
                              cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    assert done.stderr.splitlines() == [f"rummy: --host 127.0.0.1 --port {port}: Address already in use"]
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_without_the_web_extra_it_says_what_to_install() -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_FASTAPI], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and 'pip install "rummy[web]"' in lines[0] and "fastapi" in lines[0], done.stderr


@pytest.fixture()
def server() -> Iterator[tuple[subprocess.Popen[str], int]]:
    pytest.importorskip("fastapi", reason="rummy serve needs the web extra: pip install 'rummy[web]'")
    port = free_port()
    with serving(["-m", "rummy", "serve", "--port", str(port), "--solvers", "1", "--time-limit", "5"], port) as process:
        yield process, port


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_serve_answers_and_stops_with_its_workers(server: tuple[subprocess.Popen[str], int], stop: int) -> None:
    import json

    process, port = server
    status, body = request(port, "GET", "/api/positions")
    assert status == 200 and json.loads(body)["collections"]
    text = (PUZZLE_EXAMPLES / "house-classic.toml").read_text()
    status, body = request(port, "POST", "/api/best", json.dumps({"position": text}).encode(),
                           {"content-type": "application/json"})
    assert status == 200 and json.loads(body)["status"] == "optimal"
    for path in ("/api/positions/examples/../../pyproject.toml", "/api/positions/../../../etc/passwd",
                 "/api/positions/examples/%2e%2e%2f%2e%2e%2fpyproject.toml"):
        status, body = request(port, "GET", path)
        assert status == 404, (path, body)
    workers = children(process.pid)
    assert workers  # the solver (and multiprocessing's resource tracker)
    process.send_signal(stop)
    process.wait(20)
    assert process.stderr is not None and "Traceback" not in process.stderr.read()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:  # not left behind by a failing test either
        os.kill(pid, signal.SIGKILL)
    assert not left, "a solver process outlived the server"


def test_a_streamed_body_over_the_limit_is_413_from_the_real_server(server: tuple[subprocess.Popen[str], int]) -> None:
    _, port = server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest("POST", "/api/show")
        connection.putheader("content-type", "application/json")
        connection.putheader("transfer-encoding", "chunked")
        connection.endheaders()
        status = None
        try:
            for _ in range(80):  # 320 KB in 4 KB chunks
                chunk = b"#" * 4096
                connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            connection.send(b"0\r\n\r\n")
        except OSError:
            pass  # the server may answer and close before the body ends
        response = connection.getresponse()
        status = response.status
        assert b"KB" in response.read()
    finally:
        connection.close()
    assert status == 413



def test_the_listening_socket_is_tcp_so_answers_are_not_held_back() -> None:
    """asyncio turns Nagle off (TCP_NODELAY) only on sockets made with IPPROTO_TCP; with proto 0
    every answer waited for the client's delayed ACK: 40 ms for a 1 ms request."""
    from rummy.cli.serve import _bound

    with _bound("127.0.0.1", 0) as listening:
        assert listening.proto == socket.IPPROTO_TCP


def test_a_small_request_is_answered_without_a_delayed_ack(server: tuple[subprocess.Popen[str], int]) -> None:
    import statistics

    _, port = server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    seconds = []
    try:
        for _ in range(15):
            start = time.perf_counter()
            connection.request("GET", "/api/positions/examples/house-classic")
            response = connection.getresponse()
            response.read()
            seconds.append(time.perf_counter() - start)
            assert response.status == 200
    finally:
        connection.close()
    assert statistics.median(seconds) < 0.035, seconds  # about 1 ms; 40+ ms with Nagle on


def test_the_real_server_refuses_other_hosts_and_bounds_its_connections(server: tuple[subprocess.Popen[str], int]) -> None:
    """rummy serve itself: a rebound name is refused (421), and past its bound on open connections
    (rummy.web.protocol.Limits) a connection is refused 503 while every one holds half a request."""
    import json
    import resource

    from rummy.web.protocol import Limits

    _, port = server
    status, body = request(port, "GET", "/api/positions", headers={"Host": f"evil.example:{port}"})
    assert status == 421 and json.loads(body)["error"].startswith("request: Host 'evil.example:")
    status, _ = request(port, "GET", "/api/positions/examples/robber", headers={"Host": f"localhost:{port}"})
    assert status == 200
    bound = Limits().max_connections
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < bound + 200:
        pytest.skip("too few open files allowed here to hold the server's bound of connections")
    held = []
    try:
        for _ in range(bound):
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            held.append(connection)
            connection.sendall(b"GET / HTTP/1.1\r\n")
        time.sleep(0.5)  # for the server to read what each sent
        with socket.create_connection(("127.0.0.1", port), timeout=10) as refused:
            answer = refused.recv(65536)
        assert answer.startswith(b"HTTP/1.1 503 "), answer[:200]
    finally:
        for connection in held:
            connection.close()
    assert request(port, "GET", "/")[0] == 200  # closed by the client: room again
