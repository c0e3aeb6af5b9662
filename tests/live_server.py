"""A real ``rummy serve`` server in a thread of the test process, on 127.0.0.1 and a free port.

uvicorn as ``rummy serve`` configures it (rummy.web.protocol.server_config), so the
connections are held by the same protocol and limits; stopped on leaving.
"""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

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
