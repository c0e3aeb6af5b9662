"""``rummy serve``'s connections: how many it holds, what it does past that, and whether a page is answered meanwhile.

    python benchmarks/web_connections.py          # --most 400

Starts ``python -m rummy serve --port P --solvers 1`` on a free 127.0.0.1 port
(its own process group, stopped at the end), with its default limits
(rummy.web.protocol.Limits), then, each step bounded in count and time:

1. Idle connections (nothing sent): opened one by one, up to ``--most``; counts
   the open ones when the server first closes one, and which one it closed.
2. Connections holding half a request (``GET / HTTP/1.1`` and no more): opened
   until one is refused; counts them, then times how long the server keeps them.
3. A page (``GET /``) asked while a long request runs (``best`` on a 50-card
   House position, a few seconds), while the server holds the most idle
   connections it takes, and with nothing else going on: its latency.

Prints the numbers and writes benchmarks/results/web_connections.json.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import select
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from run import machine  # noqa: E402
from web_load import free_port, start_server, stop_server  # noqa: E402

RESULTS = HERE / "results" / "web_connections.json"
LONG_POSITION = HERE / "positions" / "house" / "house-50-09.toml"  # seconds of search
HOST = "127.0.0.1"


def connect(port: int) -> socket.socket:
    return socket.create_connection((HOST, port), timeout=10)


def closed(connections: list[socket.socket], wait: float = 0.0) -> list[int]:
    """The indexes of the connections the server has closed (readable with nothing to read)."""
    readable, _, _ = select.select(connections, [], [], wait)
    ended = []
    for connection in readable:
        try:
            if connection.recv(1, socket.MSG_PEEK) == b"":
                ended.append(connections.index(connection))
        except OSError:
            ended.append(connections.index(connection))
    return sorted(ended)


def page(port: int) -> float:
    """Milliseconds for ``GET /`` on a new connection, answered in full with 200."""
    start = time.perf_counter()
    with connect(port) as connection:
        connection.sendall(f"GET / HTTP/1.1\r\nHost: {HOST}:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
    return round((time.perf_counter() - start) * 1000, 1)


def idle_connections(port: int, most: int) -> dict[str, Any]:
    held: list[socket.socket] = []
    try:
        for _ in range(most):
            held.append(connect(port))
            ended = closed(held, 0.02)
            if ended:
                return {"held": len(held) - len(ended), "closed_on_the_next": ended,
                        "page_ms_while_full": page(port)}
        return {"held": len(held), "closed_on_the_next": None}
    finally:
        for connection in held:
            connection.close()


def half_requests(port: int, most: int) -> dict[str, Any]:
    held: list[socket.socket] = []
    try:
        for _ in range(most):
            connection = connect(port)
            connection.sendall(b"GET / HTTP/1.1\r\n")
            held.append(connection)
            readable, _, _ = select.select(held, [], [], 0.005)  # quick: the first ones' 10 s run meanwhile
            if readable:
                answers = {held.index(c): c.recv(200).split(b"\r\n", 1)[0].decode() for c in readable}
                for c in readable:
                    held.remove(c)
                    c.close()
                return {"held": len(held), "answered": answers, "kept_seconds": kept(held)}
        return {"held": len(held), "answered": None}
    finally:
        for connection in held:
            connection.close()


def kept(held: list[socket.socket]) -> float | None:
    """Seconds until the server has closed every one of ``held`` (at most 60)."""
    start = time.monotonic()
    while time.monotonic() - start < 60:
        if len(closed(held, 0.1)) == len(held):
            return round(time.monotonic() - start, 1)
    return None


def during_a_long_request(port: int) -> dict[str, Any]:
    import httpx

    answer: dict[str, Any] = {}

    def long_request() -> None:
        start = time.perf_counter()
        response = httpx.post(f"http://{HOST}:{port}/api/best", timeout=120,
                              json={"position": LONG_POSITION.read_text(), "time_limit": 8})
        answer.update(status=response.status_code, seconds=round(time.perf_counter() - start, 1),
                      verdict=response.json().get("status"))

    thread = threading.Thread(target=long_request)
    thread.start()
    time.sleep(2)  # the solve is under way
    pages = [page(port) for _ in range(20)]
    still_running = thread.is_alive()
    thread.join(120)
    return {"long_request": answer, "page_ms": pages, "long_request_still_running_after_the_pages": still_running}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--most", type=int, default=400, help="connections opened at most per step")
    options = parser.parse_args()
    port = free_port()
    server = start_server(port, 1)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                page(port)
                break
            except (OSError, AssertionError):
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.2)
        time.sleep(3)  # the solver process's start
        result = {"when": dt.datetime.now().isoformat(timespec="minutes"), "machine": machine(),
                  "idle": idle_connections(port, options.most)}
        time.sleep(1)
        result["half_requests"] = half_requests(port, options.most)
        result["during_a_long_request"] = during_a_long_request(port)
        result["page_ms_quiet"] = [page(port) for _ in range(20)]
    finally:
        stop_server(server)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
