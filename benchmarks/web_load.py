"""``rummy serve`` under load: does ``show`` stay quick while solves run?

    python benchmarks/web_load.py                 # --seconds 30 --clients 20 --solvers 2 --idle-seconds 5

Starts ``python -m rummy serve --port P --solvers N`` on a free 127.0.0.1 port
(in its own process group, so it and its solver processes are stopped at the
end, on an error or on Ctrl-C too) and waits until it answers. Then, on the
shipped examples (puzzles/examples/*.toml):

1. ``show`` idle: one client, one request at a time, no solves (the baseline).
2. ``show`` by all the clients at once, still no solves (what concurrency alone costs).
3. The load: ``--clients`` clients (asyncio, httpx), each looping over a mix of
   requests for ``--seconds``: ``show`` (70 %), ``best`` (15 %) and ``check``
   (15 %: the turn is the example's own ``best --json`` answer, fetched first).

Per endpoint: requests, errors (any status other than 2xx, or no answer),
median, p90 and maximum latency in ms; and the ratio of show's median under
load to its idle median. The clients run on the same machine as the server,
so they take some of its CPU too. Target (the issue): no errors, show's median
under 100 ms while solves run.

Prints a Markdown table and writes benchmarks/results/web_load.json.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from run import machine  # noqa: E402  (shared with the tile benchmark)

EXAMPLES = ROOT / "puzzles" / "examples"
RESULTS = HERE / "results" / "web_load.json"
MIX = (("show", 0.70), ("best", 0.15), ("check", 0.15))
SHOW_TARGET_MS = 100.0
START_SECONDS = 60.0  # the server's start (imports, the worker processes)
REQUEST_SECONDS = 60.0  # one request at most (the server's own solve limit is 30 s + grace)
DRAIN_SECONDS = 30.0  # after the load: requests still running may finish


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(port: int, solvers: int, root: Path = ROOT,
                 stderr: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """``rummy serve`` in a session of its own, run from ``root`` (its ``rummy`` package is the one served)."""
    return subprocess.Popen([sys.executable, "-m", "rummy", "serve", "--port", str(port), "--solvers", str(solvers)],
                            cwd=root, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group (the server and its solvers), then SIGKILL if need be."""
    if server.poll() is None:
        try:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(10)
        except subprocess.TimeoutExpired:
            pass
        except ProcessLookupError:
            return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)  # whatever is left of the group
    server.wait(10)


async def wait_until_up(client: httpx.AsyncClient, server: subprocess.Popen[bytes]) -> float:
    start = time.monotonic()
    while True:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped at start (exit {server.returncode})")
        try:
            if (await client.get("/api/positions", timeout=5)).status_code == 200:
                return time.monotonic() - start
        except httpx.TransportError:
            pass
        if time.monotonic() - start > START_SECONDS:
            raise SystemExit(f"the server did not answer within {START_SECONDS:.0f} s")
        await asyncio.sleep(0.1)


class Record:
    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.samples: list[str] = []  # a few errors, as they came

    def add(self, name: str, seconds: float, error: str | None) -> None:
        self.latencies.setdefault(name, []).append(seconds * 1000)
        self.errors.setdefault(name, 0)
        if error is not None:
            self.errors[name] += 1
            if len(self.samples) < 10:
                self.samples.append(f"{name}: {error}")

    def summary(self, name: str) -> dict[str, Any]:
        values = sorted(self.latencies.get(name, []))
        if not values:
            return {"count": 0, "errors": 0, "median_ms": None, "p90_ms": None, "max_ms": None}
        p90 = statistics.quantiles(values, n=10)[8] if len(values) >= 2 else values[0]
        return {"count": len(values), "errors": self.errors[name], "median_ms": round(statistics.median(values), 1),
                "p90_ms": round(p90, 1), "max_ms": round(values[-1], 1)}


async def ask(client: httpx.AsyncClient, record: Record, name: str, body: dict[str, Any]) -> None:
    start = time.monotonic()
    error = None
    try:
        response = await client.post(f"/api/{name}", json=body, timeout=REQUEST_SECONDS)
        if not 200 <= response.status_code < 300:
            error = f"{response.status_code} {response.text[:200]}"
    except httpx.HTTPError as failure:
        error = f"{type(failure).__name__}: {failure}"
    record.add(name, time.monotonic() - start, error)


def request_body(name: str, example: dict[str, str]) -> dict[str, Any]:
    if name == "show":
        return {"position": example["text"]}
    if name == "best":
        return {"position": example["text"], "time_limit": 10}
    return {"before": example["text"], "after": example["answer"]}


async def clients(client: httpx.AsyncClient, record: Record, examples: list[dict[str, str]], count: int,
                  seconds: float, mix: tuple[tuple[str, float], ...], seed: int) -> None:
    """``count`` clients, each asking one request after another until ``seconds`` have passed."""
    stop = time.monotonic() + seconds
    names = [name for name, _ in mix]
    weights = [weight for _, weight in mix]

    async def one(number: int) -> None:
        chance = random.Random(seed * 1000 + number)
        while time.monotonic() < stop:
            name = chance.choices(names, weights)[0]
            await ask(client, record, name, request_body(name, chance.choice(examples)))

    tasks = [asyncio.create_task(one(number)) for number in range(count)]
    done, pending = await asyncio.wait(tasks, timeout=seconds + DRAIN_SECONDS)
    for task in pending:  # a request past the drain: counted as an error
        task.cancel()
        record.add("unfinished", 0.0, "still running after the drain")
    for task in done:
        task.result()


async def measure(port: int, args: argparse.Namespace, server: subprocess.Popen[bytes]) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=args.clients + 5, max_keepalive_connections=args.clients + 5)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits) as client:
        started = await wait_until_up(client, server)
        examples = []
        for path in sorted(EXAMPLES.glob("*.toml")):
            text = path.read_text(encoding="utf-8")
            response = await client.post("/api/best", json={"position": text, "time_limit": 10},
                                         timeout=REQUEST_SECONDS)
            response.raise_for_status()
            answer = {key: value for key, value in response.json().items() if key != "view"}
            examples.append({"name": path.stem, "text": text, "answer": json.dumps(answer)})
        for example in examples:  # warm: every example shown once
            (await client.post("/api/show", json={"position": example["text"]})).raise_for_status()

        idle = Record()
        await clients(client, idle, examples, 1, args.idle_seconds, (("show", 1.0),), args.seed)
        crowd = Record()
        await clients(client, crowd, examples, args.clients, args.idle_seconds, (("show", 1.0),), args.seed + 1)
        load = Record()
        await clients(client, load, examples, args.clients, args.seconds, MIX, args.seed + 2)

    endpoints = {name: load.summary(name) for name, _ in MIX}
    if "unfinished" in load.latencies:
        endpoints["unfinished"] = load.summary("unfinished")
    show_idle = idle.summary("show")
    show_crowd = crowd.summary("show")
    show_load = endpoints["show"]
    errors = sum(summary["errors"] for summary in endpoints.values()) + show_idle["errors"] + show_crowd["errors"]
    ratio = show_load["median_ms"] / show_idle["median_ms"] if show_idle["median_ms"] else None
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "settings": {"seconds": args.seconds, "idle_seconds": args.idle_seconds, "clients": args.clients,
                     "solvers": args.solvers, "mix": dict(MIX), "examples": len(examples), "seed": args.seed},
        "server_start_seconds": round(started, 2),
        "endpoints": endpoints,
        "show_idle_1_client": show_idle,
        "show_no_solves_all_clients": show_crowd,
        "show_ratio_load_to_idle": round(ratio, 2) if ratio is not None else None,
        "errors": errors,
        "error_samples": load.samples + idle.samples + crowd.samples,
        "target": {"errors": 0, "show_median_ms_under_load": SHOW_TARGET_MS},
        "met": errors == 0 and show_load["median_ms"] is not None and show_load["median_ms"] < SHOW_TARGET_MS,
    }


def table(result: dict[str, Any]) -> str:
    settings = result["settings"]
    rows = [("show, idle (1 client, no solves)", result["show_idle_1_client"]),
            (f"show, {settings['clients']} clients, no solves", result["show_no_solves_all_clients"])]
    rows += [(f"{name}, {settings['clients']} clients, under load", summary)
             for name, summary in result["endpoints"].items()]
    lines = ["| requests | count | errors | median ms | p90 ms | max ms |", "|---|---:|---:|---:|---:|---:|"]
    for label, summary in rows:
        lines.append(f"| {label} | {summary['count']} | {summary['errors']} | {summary['median_ms']} | "
                     f"{summary['p90_ms']} | {summary['max_ms']} |")
    lines.append("")
    lines.append(f"show's median under load / idle: {result['show_ratio_load_to_idle']}; "
                 f"target (no errors, show median < {SHOW_TARGET_MS:.0f} ms under load): "
                 f"{'met' if result['met'] else 'NOT met'}")
    lines.append(f"{settings['seconds']:g} s of load, {settings['solvers']} solver processes, "
                 f"{settings['examples']} examples; {result['machine']}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30.0, help="the load's length (default 30)")
    parser.add_argument("--idle-seconds", type=float, default=5.0, help="each show-only phase's length (default 5)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--solvers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"where to write the results (default {RESULTS})")
    args = parser.parse_args()
    port = free_port()
    server = start_server(port, args.solvers)
    try:
        result = asyncio.run(asyncio.wait_for(
            measure(port, args, server),
            START_SECONDS + 2 * args.idle_seconds + args.seconds + 3 * DRAIN_SECONDS + 120))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        stop_server(server)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))
    if result["error_samples"]:
        print("\nerrors (first few):", *result["error_samples"], sep="\n  ")
    return 0 if result["met"] else 1


if __name__ == "__main__":
    sys.exit(main())
