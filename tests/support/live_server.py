"""Real servers on 127.0.0.1 for tests, on a free port.

``live_server(app)``: a ``rummy serve`` server in a thread of the test
process, uvicorn as ``rummy serve`` configures it
(rummy.web.protocol.server_config), so the connections are held by the same
protocol and limits; stopped on leaving.

``serving(args)``: ``python ARGS`` (``-m rummy serve ...``, or this file) in
a process and session of its own, once its port answers; at the end the
whole session is stopped, whatever the test did. Its solver processes are
its children (``solver_processes``).

Run as a script, this file is a server with test hooks, as ``rummy serve``
runs it but with settings the command line does not offer (the grace, the
bound per address), and ``/api/best`` answered by ``web_work.scripted``:

    python -m tests.support.live_server PORT --workers 2 --grace 1 --time-limit 10 --max-per-client 8
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from tests.support.paths import REPO_ROOT

HOST = "127.0.0.1"
START_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def live_server(app: Any, limits: Any = None) -> Iterator[int]:
    """Serve ``app`` (with ``limits``: rummy.web.protocol.Limits, its defaults if None); the port."""
    import uvicorn

    from rummy.web.protocol import Limits, server_config

    port = free_port()
    running = uvicorn.Server(server_config(app, limits or Limits(), host=HOST, port=port, log_level="error"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_SECONDS
    while not running.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the server did not start within {START_SECONDS:.0f} s")
        time.sleep(0.05)
    try:
        yield port
    finally:
        running.should_exit = True
        thread.join(timeout=20)


@contextmanager
def serving(args: list[str], port: int) -> Iterator[subprocess.Popen[str]]:
    """``python ARGS``, once it listens on ``port``; stopped at the end with every process it started."""
    process = subprocess.Popen([sys.executable, *args], cwd=REPO_ROOT, text=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                with socket.create_connection((HOST, port), timeout=1):
                    break
            except OSError:
                assert time.monotonic() < deadline, f"the server did not start within {START_SECONDS:g} s"
                time.sleep(0.1)
        yield process
    finally:
        _stop_session(process)
        if process.stderr:
            process.stderr.close()


def _stop_session(process: subprocess.Popen[str]) -> None:
    """SIGTERM to the server, then SIGKILL to whatever is left of its session (a failed test may leave workers)."""
    if process.poll() is None:
        process.terminate()
        with suppress(subprocess.TimeoutExpired):
            process.wait(10)
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None, source: str | None = None,
            timeout: float = 30.0) -> tuple[int, bytes]:
    """One request as written, the path unnormalized (http.client sends it as it is); from the
    address ``source`` (any of 127.0.0.0/8 on Linux) if given."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout,
                                            source_address=(source, 0) if source else None)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def post(port: int, path: str, data: dict[str, Any], source: str | None = None,
         timeout: float = 30.0) -> tuple[int, Any]:
    status, body = request(port, "POST", path, json.dumps(data).encode(), {"content-type": "application/json"},
                           source, timeout)
    return status, json.loads(body)


def unanswered(port: int, path: str, data: dict[str, Any], source: str | None = None) -> http.client.HTTPConnection:
    """A request sent and never read: close the connection to hang up."""
    connection = http.client.HTTPConnection(HOST, port, timeout=30,
                                            source_address=(source, 0) if source else None)
    connection.request("POST", path, body=json.dumps(data).encode(), headers={"content-type": "application/json"})
    return connection


def solver_processes(server: int) -> set[int]:
    """The server's worker processes (spawned: ``spawn_main``), not multiprocessing's resource tracker."""
    from tests.support.processes import children

    found = set()
    for pid in children(server):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.add(pid)
    return found


def main() -> None:
    import argparse

    import uvicorn

    from rummy.cli.serve import _bound
    from rummy.reports import page as reports
    from rummy.web.app import Settings, create_app
    from rummy.web.protocol import server_config
    from tests.support import web_work

    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--grace", type=float, default=15.0)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--max-per-client", type=int, default=8)
    args = parser.parse_args()
    reports.best_report = web_work.scripted  # type: ignore[assignment]  # the hook: a worker runs this instead
    app = create_app(Settings(workers=args.workers, max_seconds=args.time_limit, grace_seconds=args.grace,
                              max_per_client=args.max_per_client))
    with _bound(HOST, args.port) as listening:
        uvicorn.Server(server_config(app, log_level="warning")).run(sockets=[listening])


if __name__ == "__main__":
    main()
