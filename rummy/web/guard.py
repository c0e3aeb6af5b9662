"""What every request of ``rummy serve`` passes through: its Host, its answer's headers, and bugs.

Three ASGI middlewares, outermost first:

- ``SecurityHeaders`` adds the headers that keep the page in its own origin
  (``nosniff``, a Content-Security-Policy of the board's own origin, no
  framing, no referrer) to every answer, errors and static files included.
- ``InternalErrors`` turns an exception that escapes an endpoint into the
  JSON 500 every other error has, one line on stderr, never a traceback
  (``RUMMY_DEBUG=1`` prints it, as on the command line).
- ``HostGuard`` answers 421 to a request whose Host is not a name the server
  listens as: a page on another site that rebinds its own name to 127.0.0.1
  (DNS rebinding) reaches the port, but its requests carry that name.

No middleware adds CORS headers: a page of another origin cannot read an answer.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names alone: rummy.cli.serve reads LOOPBACK_NAMES before it knows the web extra is there
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The names this machine's loopback answers to; a Host header names one of them (and any port).
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
# Listening on these, the server is reached by an address it cannot know: any IP address is its own.
ALL_ADDRESSES = ("0.0.0.0", "::", "")
# The page and its API load nothing from elsewhere, not even a data: URL (the icon is static/icon.svg).
CONTENT_SECURITY_POLICY = ("default-src 'self'; frame-ancestors 'none'; "
                           "base-uri 'none'; form-action 'self'")
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)


def error_body(lines: list[str] | tuple[str, ...]) -> dict[str, object]:
    """The JSON of every refusal: the first line, and every line."""
    return {"error": lines[0], "errors": list(lines)}


def error_response(line: str, status: int, close: bool = False) -> ASGIApp:
    from fastapi.responses import JSONResponse

    return JSONResponse(error_body([line]), status_code=status, headers={"connection": "close"} if close else None)


class _HttpMiddleware:
    """An ASGI middleware for HTTP requests (``http``); anything else (the lifespan) passes through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


class SecurityHeaders(_HttpMiddleware):
    """Add ``SECURITY_HEADERS`` to every answer that does not set them itself."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class InternalErrors(_HttpMiddleware):
    """An exception from an endpoint (a bug in rummy) is a JSON 500 and one line on stderr."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as error:  # noqa: BLE001 - the one place a bug in an endpoint is answered
            line = internal_error_line(error)
            tell(f"{scope.get('method', '')} {scope.get('path', '')}: {line}")
            if not started:  # once the answer has begun, the connection closes with it unfinished
                await error_response(line, 500)(scope, receive, send)


def internal_error_line(error: BaseException) -> str:
    from rummy.errors import one_line

    return one_line(f"internal error: {type(error).__name__}: {error} (a bug in rummy)")


def tell(line: str, trace: str | None = None) -> None:
    """A bug, as one ``rummy: ...`` line on the server's stderr; with RUMMY_DEBUG=1 its traceback too
    (``trace``, a worker's; else the exception being handled)."""
    import sys
    import traceback

    from rummy.errors import debugging, print_error

    if debugging() and trace:
        sys.stderr.write(trace)
    elif debugging():
        traceback.print_exc()
    print_error(line)


class HostGuard(_HttpMiddleware):
    """Answer 421 to a request whose Host header is not one of the server's own names."""

    def __init__(self, app: ASGIApp, listening: str) -> None:
        super().__init__(app)
        self.names = allowed_names(listening)
        self.any_address = bare_host(listening) in ALL_ADDRESSES

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = next((value for name, value in scope.get("headers") or [] if name == b"host"), None)
        if host is None:
            refusal = "request: no Host header"
        else:
            written = host.decode("latin-1")
            name = host_name(written)
            if name is not None and (name in self.names or (self.any_address and _is_address(name))):
                await self.app(scope, receive, send)
                return
            refusal = f"request: Host {written!r:.80} is not this server's name (open it as {self.names[0]})"
        await error_response(refusal, 421, close=True)(scope, receive, send)


def allowed_names(listening: str) -> tuple[str, ...]:
    """The names a Host header may give: the loopback's, and the address the server listens on."""
    names = list(LOOPBACK_NAMES)
    own = bare_host(listening)
    if own not in ALL_ADDRESSES and own not in names:
        names.insert(0, own)
    return tuple(names)


def bare_host(host: str) -> str:
    """``--host`` as a Host header names it: lower case, without an IPv6 address's brackets."""
    return host.strip().lower().removeprefix("[").removesuffix("]")


def host_name(header: str) -> str | None:
    """The name in a Host header without its port (``[::1]:8000`` is ``::1``); None if it is malformed."""
    value = header.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket or rest[:1] not in ("", ":"):
            return None
        port = rest[1:]
    else:
        name, _, port = value.partition(":")
    if not name or (port and not (port.isascii() and port.isdigit())):
        return None
    return name


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
