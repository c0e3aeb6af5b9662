"""rummy.web.stream: the NDJSON lines of a streamed solve."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

from rummy.web.stream import streamed_lines


def test_a_stream_cancelled_while_waiting_leaves_no_wait_pending() -> None:
    """The client hangs up while the stream waits for the next line: the wait on the solve's queue is
    cancelled with it (it would stay pending, holding the solve, until the loop ends)."""

    async def scenario() -> tuple[list[Any], list[asyncio.Task[Any]]]:
        loop = asyncio.get_running_loop()
        solve: Any = SimpleNamespace(lines=asyncio.Queue(), answer=loop.create_future())
        stream = streamed_lines(solve, {"progress": {"gain": 1}}, lambda outcome: {"answer": True})
        first = json.loads(await stream.__anext__())
        reading = asyncio.ensure_future(stream.__anext__())
        await asyncio.sleep(0.01)  # the stream now waits for a line or the answer
        reading.cancel()
        await asyncio.gather(reading, return_exceptions=True)
        await asyncio.sleep(0)  # the cancelled wait runs to its end
        left = [task for task in asyncio.all_tasks() if task is not asyncio.current_task() and not task.done()]
        return [first], left

    told, pending = asyncio.run(scenario())
    assert told == [{"progress": {"gain": 1}}]
    assert pending == []


def test_lines_then_the_answer_last() -> None:
    async def scenario() -> list[Any]:
        loop = asyncio.get_running_loop()
        solve: Any = SimpleNamespace(lines=asyncio.Queue(), answer=loop.create_future())
        stream = streamed_lines(solve, {"progress": {"gain": 1}}, lambda outcome: {"answer": outcome})
        got = [json.loads(await stream.__anext__())]
        solve.lines.put_nowait({"progress": {"gain": 2}})
        got.append(json.loads(await stream.__anext__()))
        solve.lines.put_nowait({"progress": {"gain": 3}})
        solve.answer.set_result("done")  # settled with a line still queued: the line comes first
        got += [json.loads(line) async for line in stream]
        return got

    assert asyncio.run(scenario()) == [{"progress": {"gain": 1}}, {"progress": {"gain": 2}},
                                       {"progress": {"gain": 3}}, {"answer": "done"}]
