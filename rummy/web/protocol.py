"""The connections of ``rummy serve``: every one timed, and only so many open at once.

uvicorn's HTTP/1.1 protocol (h11) closes a connection idle after an answer
(keep-alive), but not one that sends nothing, half its headers or half its
body: each would hold a socket, and a file descriptor, for ever. This
subclass of it gives each part of a request a deadline, counted from the
part's start (a byte now and then does not extend it):

- the request line and headers: ``header_seconds`` from the connection's start,
  or from the first byte after the previous answer;
- the body: ``body_seconds`` from the end of the headers;
- between requests: ``keep_alive_seconds`` from the previous answer.

Past its deadline the connection is closed. While the app works on a request
(a solve may take its whole time limit) no deadline runs; but an answer the
client does not read (its writes stalled: the socket's buffer full, as with
pipelined requests whose answers are never read) closes the connection after
``write_seconds`` without progress.

At most ``max_connections`` connections are open. Past that, a new one closes
the oldest connection that has sent nothing since it opened or since its last
answer (as nginx reuses idle keep-alive connections); when every connection
is in the middle of a request, the new one is answered 503 and closed.

The protocol is given to uvicorn outright (``server_config``), so uvicorn
never picks another (httptools, when installed) without these limits.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from dataclasses import dataclass
from typing import Any, Literal

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from rummy.web.guard import SECURITY_HEADERS, error_body

Stage = Literal["headers", "body", "idle"]
FILES_KEPT = 64  # file descriptors left for the server itself (workers' pipes, files read) under the open-files limit


@dataclass(frozen=True)
class Limits:
    header_seconds: float = 10.0  # the request line and headers
    body_seconds: float = 30.0  # the body, after the headers (256 KB at most: BodyLimit)
    keep_alive_seconds: float = 5.0  # waiting for the next request on an open connection
    max_connections: int = 256  # open at once
    write_seconds: float = 30.0  # an answer's writing stalled (the client reads nothing)

    def within_open_files(self) -> Limits:
        """These limits with at most as many connections as the open-files limit leaves room for."""
        try:
            import resource

            soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        except (ImportError, OSError, ValueError):  # no such limit here (Windows)
            return self
        if soft == resource.RLIM_INFINITY or soft - FILES_KEPT >= self.max_connections:
            return self
        from dataclasses import replace

        return replace(self, max_connections=max(1, soft - FILES_KEPT))


def server_config(app: Any, limits: Limits = Limits(), **options: Any) -> uvicorn.Config:
    """Uvicorn's Config for ``app``, its connections held by ``limits`` (a protocol of its own)."""
    fitted = limits.within_open_files()
    protocol = type("LimitedH11Protocol", (LimitedH11Protocol,), {"limits": fitted})
    return uvicorn.Config(app, http=protocol, timeout_keep_alive=max(1, math.ceil(fitted.keep_alive_seconds)),
                          **options)


class LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each part of a request and a bound on connections."""

    limits = Limits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stage: Stage | None = None
        self.stage_since = 0.0
        self.deadline: asyncio.TimerHandle | None = None
        self.heard = False  # a byte since the connection opened or since its last answer
        self.refused = False
        self.write_stalled: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if not self._room():
            self.refused = True
            self.transport = transport
            transport.write(_refusal())
            transport.close()
            return
        super().connection_made(transport)
        self._follow()

    def data_received(self, data: bytes) -> None:
        self.heard = True
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        self.heard = False
        super().on_response_complete()
        self._follow()

    def pause_writing(self) -> None:
        """The socket's buffer is full: the client reads nothing; it has ``write_seconds`` to start again."""
        super().pause_writing()
        if self.write_stalled is None:
            self.write_stalled = self.loop.call_later(self.limits.write_seconds, self._stalled)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._stop_write_deadline()

    def _stalled(self) -> None:
        self.write_stalled = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _stop_write_deadline(self) -> None:
        if self.write_stalled is not None:
            self.write_stalled.cancel()
            self.write_stalled = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._stop_write_deadline()
        self.stage = None
        if not self.refused:
            super().connection_lost(exc)

    # -- deadlines
    def _follow(self) -> None:
        """Start the deadline of the part of a request the connection is in, if it has moved on."""
        stage = self._stage()
        if stage == self.stage:
            return
        self._disarm()
        self.stage, self.stage_since = stage, time.monotonic()
        if stage is not None:
            seconds = {"headers": self.limits.header_seconds, "body": self.limits.body_seconds,
                       "idle": self.limits.keep_alive_seconds}[stage]
            self.deadline = self.loop.call_later(seconds, self._expire)

    def _stage(self) -> Stage | None:
        if self.transport is None or self.transport.is_closing():
            return None
        theirs = self.conn.their_state
        if theirs is h11.SEND_BODY:
            return "body"
        if theirs is h11.IDLE and self.conn.our_state is h11.IDLE:
            # a new connection has sent nothing yet, but its first request is due as any request's headers are
            return "headers" if self.heard or self.cycle is None else "idle"
        return None  # the request is whole: the app answers it, or the connection closes

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _expire(self) -> None:
        self.deadline = None
        self.stage = None
        if not self.transport.is_closing():
            self.transport.close()

    # -- the bound on connections
    def _room(self) -> bool:
        """Is there room for one more connection (after closing the oldest idle one, if need be)?"""
        open_ones = [c for c in self.connections if not _closing(c)]
        if len(open_ones) < self.limits.max_connections:
            return True
        idle = [c for c in open_ones if isinstance(c, LimitedH11Protocol) and c.stage in ("headers", "idle")
                and not c.heard]
        if not idle:
            return False
        min(idle, key=lambda c: c.stage_since)._expire()
        return True

    def send_400_response(self, msg: str) -> None:
        """Uvicorn's answer to a request it cannot parse, as JSON with the page's headers."""
        body = json.dumps(error_body(["request: not valid HTTP/1.1"])).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close"), *SECURITY_HEADERS]
        try:
            self.transport.write(self.conn.send(h11.Response(status_code=400, headers=headers, reason=b"Bad Request"))
                                 or b"")
            self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
            self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        except h11.LocalProtocolError:  # an answer had already begun
            pass
        self.transport.close()


def _closing(connection: Any) -> bool:
    transport = getattr(connection, "transport", None)
    return transport is None or transport.is_closing()


def _refusal() -> bytes:
    body = json.dumps(error_body(["request: too many connections open; try again in a few seconds"])).encode()
    head = [b"HTTP/1.1 503 Service Unavailable", b"content-type: application/json",
            b"content-length: " + str(len(body)).encode(), b"connection: close", b"retry-after: 5",
            *(name + b": " + value for name, value in SECURITY_HEADERS)]
    return b"\r\n".join(head) + b"\r\n\r\n" + body
