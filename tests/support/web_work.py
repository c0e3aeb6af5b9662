"""Stand-ins for the web API's solves, run in its worker processes (tests/web/test_api.py).

A worker unpickles a function by its module and name, so these live in a
module of their own that imports nothing heavy (no pytest, no FastAPI).
"""

from __future__ import annotations

import os
import time
from typing import Any


def limits(**kwargs: Any) -> dict[str, Any]:
    """A report that says which time limit the solve was given."""
    return {"time_limit": kwargs.get("time_limit"), "pid": os.getpid()}


def slow(**kwargs: Any) -> dict[str, Any]:
    """A solve that takes ``sleep`` seconds (default 1.5), whatever its limit."""
    time.sleep(float(kwargs.get("sleep", 1.5)))
    return {"slept": True, "pid": os.getpid()}


def sleepy(**_: Any) -> dict[str, Any]:
    """A solve that never stops by itself."""
    time.sleep(600)
    return {}


def dies(**_: Any) -> dict[str, Any]:
    """A worker that dies mid-solve (a crash in native code looks the same)."""
    os._exit(13)


def broken(**_: Any) -> dict[str, Any]:
    """A solve with a bug in it."""
    raise KeyError("no such thing")


def pid(**_: Any) -> dict[str, Any]:
    return {"pid": os.getpid()}


def echo(**kwargs: Any) -> dict[str, Any]:
    """The arguments the solve was given, as its report."""
    return dict(kwargs)


def scripted(**kwargs: Any) -> dict[str, Any]:
    """A best report told by the position's text: ``sleep 2.5`` sleeps that long first; with the pid.
    Streamed (``progress``), it first tells a progress line with its pid."""
    words = str(kwargs.get("text", "")).split()
    stream = kwargs.get("stream")
    if stream is not None:
        pid = os.getpid()
        stream.offer(lambda: {"progress": {"pid": pid}})
    if words[:1] == ["sleep"]:
        time.sleep(float(words[1]))
    return {"pid": os.getpid(), "text": kwargs.get("text")}


def touch(**kwargs: Any) -> dict[str, Any]:
    """A solve that leaves a mark (the file ``path``): whether it ever ran."""
    with open(str(kwargs["path"]), "w", encoding="utf-8") as mark:
        mark.write("ran")
    return {"pid": os.getpid()}


def until_told(**kwargs: Any) -> dict[str, Any]:
    """A solve that lasts until the test says so: ``text`` names a folder; it writes ``started`` there,
    then waits (at most 30 s) for ``stop`` to appear."""
    from pathlib import Path

    folder = Path(kwargs["text"])
    (folder / "started").write_text("")
    deadline = time.monotonic() + 30
    while not (folder / "stop").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return {"told": (folder / "stop").exists()}


def many_lines(**kwargs: Any) -> dict[str, Any]:
    """A streamed solve that offers ``count`` numbered progress lines as fast as it can (a few ms apart),
    then answers how many it offered and in how many seconds."""
    stream = kwargs["stream"]
    count = int(kwargs.get("count", 300))
    started = time.monotonic()
    for number in range(count):
        stream.offer(lambda number=number: {"progress": {"n": number}})
        time.sleep(0.003)
    return {"offered": count, "seconds": time.monotonic() - started}


def told_then_refused(**kwargs: Any) -> dict[str, Any]:
    """A streamed solve that tells a line, then finds its input bad (a RummyError after the stream began)."""
    from rummy.errors import RummyError

    kwargs["stream"].offer(lambda: {"progress": {"gain": 1}})
    time.sleep(1.0)  # the line is sent meanwhile: the relay sends the first at once
    raise RummyError("position: found wrong late")


def told_then_broken(**kwargs: Any) -> dict[str, Any]:
    """A streamed solve that tells a line, then hits a bug."""
    kwargs["stream"].offer(lambda: {"progress": {"gain": 1}})
    time.sleep(1.0)
    raise KeyError("no such thing")
