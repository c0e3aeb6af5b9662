"""``rummy serve``: the board in the browser, on this machine (the ``rummy[web]`` extra).

Listens on 127.0.0.1 unless ``--host`` says otherwise. The page and its JSON
API answer what the command line answers (rummy.reports.page); solves run in
``--solvers`` worker processes, each within ``--time-limit`` seconds.
"""

from __future__ import annotations

import socket
from typing import Annotated

import typer

HostOption = Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")]
PortOption = Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")]
SolversOption = Annotated[int, typer.Option("--solvers", min=1, max=64,
                                            help="Worker processes that solve (1 to 64); show answers without one.")]
ServeTimeLimit = Annotated[float, typer.Option("--time-limit", min=0.1, max=600.0,
                                               help=("The longest a solve may search, in seconds "
                                                     "(a request may ask less)."))]


def serve(host: HostOption = "127.0.0.1", port: PortOption = 8000, solvers: SolversOption = 2,
          time_limit: ServeTimeLimit = 30.0) -> int:
    r"""Serve the board in the browser: open http://127.0.0.1:8000 (needs pip install "rummy\[web]")."""
    from rummy.errors import RummyError, print_error

    try:
        import uvicorn

        from rummy.web.app import Settings, create_app
        from rummy.web.guard import LOOPBACK_NAMES
        from rummy.web.protocol import server_config
    except ImportError as error:
        raise RummyError(f"rummy serve needs the web extra ({error.name} is not installed): "
                         "pip install \"rummy[web]\" (or '.[web]' in the repository)") from None
    if host not in LOOPBACK_NAMES:
        print_error(f"listening on {host}: anyone who can reach this machine can use the page")
    listening = _bound(host, port)
    app = create_app(Settings(workers=solvers, max_seconds=time_limit, host=host))
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"rummy serve: http://{shown}:{port}  (Ctrl-C stops it)", err=True)
    with listening:
        # Every connection timed and their number bounded (rummy.web.protocol); requests' Host checked (guard).
        uvicorn.Server(server_config(app, log_level="warning")).run(sockets=[listening])
    return 0


def _bound(host: str, port: int) -> socket.socket:
    """The listening socket, bound here: uvicorn reports a port in use as a log line and exits 1."""
    from rummy.errors import RummyError

    # IPPROTO_TCP said outright: asyncio sets TCP_NODELAY only on sockets that say it (proto 0 would
    # leave Nagle on, and every answer 40 ms late, waiting for a delayed ACK).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
    try:
        listening.bind((host, port))
    except OSError as error:  # the port is taken, the address is not this machine's
        listening.close()
        raise RummyError(f"--host {host} --port {port}: {error.strerror or error}") from None
    return listening
