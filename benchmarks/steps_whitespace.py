"""The steps reader on long runs of whitespace (issue 24): ``play`` + N spaces + ``x``.

    python benchmarks/steps_whitespace.py              # --spaces 131000 --reader-sizes 1000,10000,100000,1000000

1. The reader alone (``rummy.turn_steps.read_steps`` on puzzles/examples/house-classic.toml),
   for each of ``--reader-sizes``: best of three, in ms. Linear reading: ten times the spaces,
   about ten times the time.
2. One ``POST /api/steps`` through FastAPI's TestClient (one solver process, not used), with
   ``--spaces`` spaces (131,000: under the 256 KB body limit), wall and CPU time.

Before the fix (the "paying ..." note matched before whitespace was collapsed) the request
took minutes; see benchmarks/README.md, "Steps reader on whitespace".
"""

from __future__ import annotations

import argparse
import contextlib
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HOUSE = REPO / "puzzles" / "examples" / "house-classic.toml"


def steps_with_spaces(spaces: int) -> str:
    return "play" + " " * spaces + "x"


def reader_ms(spaces: int) -> float:
    from rummy.errors import RummyError
    from rummy.position import Position
    from rummy.turn_steps import read_steps

    before = Position.from_file(HOUSE)
    text = steps_with_spaces(spaces)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        with contextlib.suppress(RummyError):  # "unknown card 'x'": the answer; the time is what counts here
            read_steps(before, text)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def api_request(spaces: int) -> tuple[float, float, int, str]:
    """(wall s, CPU s, status, body) of one /api/steps request."""
    warnings.simplefilter("ignore")  # starlette's TestClient warns about httpx versions
    from fastapi.testclient import TestClient

    from rummy.web.app import Settings, create_app

    body = {"before": HOUSE.read_text(encoding="utf-8"), "steps": steps_with_spaces(spaces)}
    with TestClient(create_app(Settings(workers=1))) as client:
        start, cpu = time.perf_counter(), time.process_time()
        response = client.post("/api/steps", json=body)
        return time.perf_counter() - start, time.process_time() - cpu, response.status_code, response.text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spaces", type=int, default=131_000, help="spaces in the /api/steps request")
    parser.add_argument("--reader-sizes", default="1000,10000,100000,1000000", help="spaces given to the reader alone")
    args = parser.parse_args()
    print("| spaces | reader (ms, best of 3) |\n|---:|---:|")
    for size in (int(n) for n in args.reader_sizes.split(",")):
        print(f"| {size:,} | {reader_ms(size):.2f} |")
    wall, cpu, status, text = api_request(args.spaces)
    print(f"\nPOST /api/steps, play + {args.spaces:,} spaces + x: wall {wall:.3f} s, CPU {cpu:.3f} s, "
          f"status {status}: {text[:120]}")


if __name__ == "__main__":
    main()
