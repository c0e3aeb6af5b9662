"""The NDJSON answers of ``rummy serve`` (``POST /api/best`` with ``progress``: docs/serve.md "Best so far").

A streamed solve's progress lines, as its worker sends them (rummy.web.workers.Relay), then its answer, or
a refusal as the last line; the stream stops, and its solve is withdrawn, when the client hangs up.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

import anyio
from fastapi.responses import StreamingResponse

from rummy.web.workers import Outcome, Solve, TookTooLong

if TYPE_CHECKING:
    from starlette.types import Receive, Scope, Send


class NdjsonStream(StreamingResponse):
    """An NDJSON stream that stops when the client hangs up, whatever the server's ASGI version (Starlette
    listens for it only below 2.4), and calls ``on_close`` however it ends: the solve behind it withdrawn."""

    media_type = "application/x-ndjson"

    def __init__(self, lines: AsyncIterator[bytes], on_close: Callable[[], None]) -> None:
        super().__init__(lines)
        self.on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with anyio.create_task_group() as group:
                async def stream() -> None:
                    await self.stream_response(send)
                    group.cancel_scope.cancel()

                group.start_soon(stream)
                await self.listen_for_disconnect(receive)
                group.cancel_scope.cancel()
        finally:
            self.on_close()


def _line(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode() + b"\n"


async def one_line_stream(data: Any) -> AsyncIterator[bytes]:
    yield _line(data)


async def streamed_lines(solve: Solve, first: dict[str, Any],
                         last_line: Callable[[Outcome | TookTooLong], Any]) -> AsyncIterator[bytes]:
    """The progress lines of ``solve`` as they come (``first`` already taken from its queue), then the last
    line, ``last_line`` of its outcome: the answer, or the refusal."""
    lines = solve.lines
    assert lines is not None  # a streamed solve
    yield _line(first)
    while True:
        waiting = asyncio.ensure_future(lines.get())
        try:
            await asyncio.wait((waiting, solve.answer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            # also when the stream is cancelled (the client gone, the server stopping): a pending get left
            # behind was logged as "Task was destroyed but it is pending!"
            told = waiting.done()
            if not told:
                waiting.cancel()
        if told:
            yield _line(waiting.result())
            continue
        while not lines.empty():  # every line was put before the answer was settled
            yield _line(lines.get_nowait())
        try:
            outcome: Outcome | TookTooLong = solve.answer.result()
        except TookTooLong as error:
            outcome = error
        yield _line(last_line(outcome))
        return
