"""How long does a new visitor of ``rummy serve`` wait after abandoned solves? (issue 24, section 2)

    python benchmarks/abandoned_solves.py        # --abandoned 32 --hang-up 1 --solvers 2 --addresses one
    python benchmarks/abandoned_solves.py --source /tmp/main-copy   # another checkout's code (before a change)

Starts ``python -m rummy serve --port P --solvers N`` on a free 127.0.0.1
port (web_load.py's helpers: a session of its own, stopped at the end), run
from ``--source`` (the ``rummy`` package found there is the one served;
default this repository). Waits until it answers and every solver is warm
(one ``best`` each), then:

1. ``--abandoned`` clients each send ``POST /api/best`` of
   ``positions/house-draw/unmelded-10-11-04.toml`` with ``time_limit`` 10
   (a solve that uses all of it) and hang up, the answer unread, after
   ``--hang-up`` seconds. With ``--addresses many`` each comes from an
   address of its own (127.0.0.2, 127.0.0.3, ...: Linux routes all of
   127.0.0.0/8 to this machine), so that no bound per address refuses them
   and only their cancellation protects the next visitor.
2. Right after the hang-ups, a new visitor from 127.0.0.1 asks ``show``
   (one request), then ``best`` of ``puzzles/examples/house-classic.toml``
   (solved in well under a second), asking again 0.5 s after each 503,
   for at most ``--patience`` seconds.

Reports the visitor's wait, counted from the hang-ups: to its ``show``
answer, to its first ``best`` answer (and the 503s before it); and whether
the server wrote a traceback. Prints a Markdown row and writes
results/abandoned_solves.json (or ``--json``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import machine  # noqa: E402
from web_load import ROOT, free_port, start_server, stop_server, wait_until_up  # noqa: E402

DRAW_POSITION = HERE / "positions" / "house-draw" / "unmelded-10-11-04.toml"
VISITOR_POSITION = ROOT / "puzzles" / "examples" / "house-classic.toml"
RESULTS = HERE / "results" / "abandoned_solves.json"
RETRY_SECONDS = 0.5


def http_request(path: str, data: dict[str, Any]) -> bytes:
    body = json.dumps(data).encode()
    head = (f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n")
    return head.encode() + body


async def abandon(port: int, source: str, request: bytes, hang_up: float) -> None:
    """One client: sends the request, waits, closes the socket without reading the answer."""
    _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(request)
    await writer.drain()
    await asyncio.sleep(hang_up)
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()


async def visitor(client: httpx.AsyncClient, patience: float) -> dict[str, Any]:
    """The new visitor, from the hang-ups on: its show, then its best until one is answered."""
    start = time.monotonic()
    text = VISITOR_POSITION.read_text(encoding="utf-8")
    show = await client.post("/api/show", json={"position": text}, timeout=patience)
    shown = time.monotonic() - start
    refused: dict[str, int] = {}
    while True:
        try:
            response = await client.post("/api/best", json={"position": text, "time_limit": 10},
                                         timeout=max(1.0, patience - (time.monotonic() - start)))
        except httpx.TimeoutException:
            return {"show_status": show.status_code, "show_seconds": round(shown, 2), "best_status": None,
                    "best_seconds": None, "refusals": refused}
        if response.status_code != 503 or time.monotonic() - start > patience:
            break
        line = response.json().get("error", "")[:60]
        refused[line] = refused.get(line, 0) + 1
        await asyncio.sleep(RETRY_SECONDS)
    return {"show_status": show.status_code, "show_seconds": round(shown, 2), "best_status": response.status_code,
            "best_seconds": round(time.monotonic() - start, 2), "best_answer": response.json().get("status"),
            "refusals": refused}


async def measure(port: int, args: argparse.Namespace, server: Any) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        await wait_until_up(client, server)
        warm = VISITOR_POSITION.read_text(encoding="utf-8")
        answers = await asyncio.gather(*(client.post("/api/best", json={"position": warm}, timeout=120)
                                         for _ in range(args.solvers)))
        assert all(answer.status_code == 200 for answer in answers), [answer.text for answer in answers]
        request = http_request("/api/best", {"position": DRAW_POSITION.read_text(encoding="utf-8"), "time_limit": 10})
        sources = [f"127.0.0.{2 + number}" if args.addresses == "many" else "127.0.0.1"
                   for number in range(args.abandoned)]
        await asyncio.gather(*(abandon(port, source, request, args.hang_up) for source in sources))
        return await visitor(client, args.patience)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--abandoned", type=int, default=32, help="abandoned best requests (default 32; at most 250)")
    parser.add_argument("--hang-up", type=float, default=1.0, help="seconds before each hangs up (default 1)")
    parser.add_argument("--solvers", type=int, default=2)
    parser.add_argument("--addresses", choices=("one", "many"), default="one",
                        help="the abandoned requests from 127.0.0.1 (one), or each from its own address (many)")
    parser.add_argument("--patience", type=float, default=400.0, help="the visitor's longest wait (default 400 s)")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout whose rummy is served")
    parser.add_argument("--label", default="", help="a name for the code served, in the results")
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"where to write the results (default {RESULTS})")
    args = parser.parse_args()
    if not 1 <= args.abandoned <= 250:
        parser.error("--abandoned: from 1 to 250")
    port = free_port()
    with tempfile.TemporaryFile() as stderr:
        server = start_server(port, args.solvers, args.source.resolve(), stderr)
        try:
            result = asyncio.run(asyncio.wait_for(measure(port, args, server), args.patience + 300))
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        finally:
            stop_server(server)
        stderr.seek(0)
        traceback = b"Traceback" in stderr.read()
    result = {"date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "machine": machine(),
              "code": args.label or str(args.source), "abandoned": args.abandoned, "hang_up_seconds": args.hang_up,
              "addresses": args.addresses, "solvers": args.solvers, **result, "server_traceback": traceback}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print("| code | abandoned from | visitor's show | visitor's first best | 503s first |")
    print("|---|---|---:|---:|---:|")
    best = f"{result['best_seconds']} s" if result["best_status"] == 200 else f"none ({result['best_status']})"
    print(f"| {result['code']} | {args.abandoned} x {'127.0.0.1' if args.addresses == 'one' else 'own addresses'} | "
          f"{result['show_seconds']} s | {best} | {sum(result['refusals'].values())} |")
    if result["refusals"]:
        print("503s:", result["refusals"])
    return 0 if result["best_status"] == 200 and not traceback else 1


if __name__ == "__main__":
    sys.exit(main())
