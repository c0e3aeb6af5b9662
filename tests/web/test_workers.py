"""One visitor must not lock out the others: the solve pool of ``rummy serve`` (rummy.web.workers).

First the pool alone (no HTTP): a withdrawn solve is dropped if queued and
stops its worker if running, an overrun or a death stops only its own
worker, one client's solves are bounded, closing stops everything. Then a
real server on 127.0.0.1: abandoned solves of a real position are cancelled
and a new visitor is answered; an overrun on one worker leaves the other's
request alone; one address is refused beyond its bound. Wall bounds here are
for liveness only (generous); the waits themselves are measured in
benchmarks/abandoned_solves.py.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="rummy serve needs the web extra: pip install 'rummy[web]'")

from rummy.web.workers import Busy, SolvePool, TookTooLong
from tests.support import web_work
from tests.support.live_server import free_port, post, serving, solver_processes, unanswered
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT
from tests.support.processes import alive

DRAW_POSITION = REPO_ROOT / "benchmarks" / "positions" / "house-draw" / "unmelded-10-11-04.toml"  # 10 s at limit 10
LIVENESS = 30.0  # "answered at all": a generous bound, never a measure of speed


def wait_dead(pid: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def with_pool(pool: SolvePool, scenario: Callable[[SolvePool], Awaitable[None]]) -> None:
    try:
        asyncio.run(asyncio.wait_for(scenario(pool), 120))
    finally:
        left = pool.pids()
        pool.close()
    assert all(wait_dead(pid) for pid in left)


async def warm_pids(pool: SolvePool) -> set[int]:
    """Every worker warm, and their pids: as many overlapping solves as there are workers."""
    outcomes = await asyncio.gather(*(pool.run(web_work.slow, 30, sleep=1.0) for _ in range(pool.workers)))
    pids = {outcome.report["pid"] for outcome in outcomes}
    assert len(pids) == pool.workers
    return pids


# ------------------------------------------------------------------------------ the pool alone
def test_a_queued_solve_withdrawn_never_reaches_a_worker(tmp_path: Path) -> None:
    mark = tmp_path / "ran"

    async def scenario(pool: SolvePool) -> None:
        # the one worker holds the first solve until told: the others wait behind it whatever the machine's load
        running = asyncio.ensure_future(pool.run(web_work.until_told, 30, text=str(tmp_path)))
        queued = asyncio.ensure_future(pool.run(web_work.touch, 30, path=str(mark)))
        withdrawn = pool.submit(web_work.touch, 30, "someone", path=str(mark))
        await asyncio.sleep(0.1)
        queued.cancel()
        pool.withdraw(withdrawn)
        (tmp_path / "stop").write_text("")
        assert (await running).report["told"] is True
        assert (await pool.run(web_work.pid, 30)).report["pid"]  # and the worker is free again
        assert pool.in_flight == 0
        counts = pool.counts()
        assert (counts.dropped, counts.stopped, counts.answered, counts.processes) == (2, 0, 2, 1)

    with_pool(SolvePool(1, 8), scenario)
    assert not mark.exists()


def test_a_running_solve_withdrawn_stops_only_its_worker() -> None:
    async def scenario(pool: SolvePool) -> None:
        pids = await warm_pids(pool)
        other = asyncio.ensure_future(pool.run(web_work.slow, 30, sleep=3.0))
        doomed = asyncio.ensure_future(pool.run(web_work.sleepy, 30))
        await asyncio.sleep(1.0)
        doomed.cancel()
        survivor = (await other).report["pid"]
        (stopped,) = pids - {survivor}
        assert wait_dead(stopped) and alive(survivor)
        assert (await pool.run(web_work.pid, 30)).report["pid"] in pool.pids() - {stopped}
        counts = pool.counts()
        assert (counts.stopped, counts.died, counts.overran, counts.processes) == (1, 0, 0, 3)

    with_pool(SolvePool(2, 8), scenario)


@pytest.mark.parametrize("trouble", ["overrun", "death"])
def test_an_overrun_or_a_death_fails_only_its_own_solve(trouble: str) -> None:
    async def scenario(pool: SolvePool) -> None:
        pids = await warm_pids(pool)
        pool.grace = 0.5
        other = asyncio.ensure_future(pool.run(web_work.slow, 30, sleep=3.0))
        await asyncio.sleep(0.2)
        with pytest.raises(TookTooLong) as refusal:
            if trouble == "overrun":
                await pool.run(web_work.sleepy, 0.2)
            else:
                await pool.run(web_work.dies, 30)
        words = "longer than 0.2 s" if trouble == "overrun" else "stopped unexpectedly"
        assert words in str(refusal.value)
        outcome = await other  # the other visitor's solve, on the other worker: untouched
        assert outcome.report["slept"] is True
        (lost,) = pids - {outcome.report["pid"]}
        assert wait_dead(lost) and alive(outcome.report["pid"])
        counts = pool.counts()
        assert (counts.overran, counts.died) == ((1, 0) if trouble == "overrun" else (0, 1))
        assert (await pool.run(web_work.pid, 30)).report["pid"] != lost  # replaced

    with_pool(SolvePool(2, 8), scenario)


def test_one_client_has_only_so_many_solves_running_or_waiting() -> None:
    async def scenario(pool: SolvePool) -> None:
        mine = [pool.submit(web_work.sleepy, 30, "10.0.0.1") for _ in range(2)]
        with pytest.raises(Busy) as refusal:
            pool.submit(web_work.pid, 30, "10.0.0.1")
        assert str(refusal.value).startswith("busy: 2 solves from 10.0.0.1 ") and "\n" not in str(refusal.value)
        theirs = pool.submit(web_work.pid, 30, "10.0.0.2")  # another address still gets in
        with pytest.raises(Busy, match="busy: 3 solves are running or waiting"):
            pool.submit(web_work.pid, 30, "10.0.0.3")  # and the global bound holds
        for solve in mine:
            pool.withdraw(solve)
        assert (await theirs.answer).report["pid"]
        pool.withdraw(theirs)
        pool.withdraw(theirs)  # twice is harmless
        assert pool.in_flight == 0
        pool.withdraw(pool.submit(web_work.pid, 30, "10.0.0.1"))  # free again

    with_pool(SolvePool(1, 3, max_per_client=2), scenario)


def test_close_stops_every_worker_and_every_waiting_solve() -> None:
    async def scenario(pool: SolvePool) -> None:
        pids = await warm_pids(pool)
        running = asyncio.ensure_future(pool.run(web_work.sleepy, 30))
        queued = asyncio.ensure_future(pool.run(web_work.pid, 30))
        await asyncio.sleep(0.5)
        pool.close()
        for solve in (running, queued):
            with pytest.raises(TookTooLong, match="the server is stopping"):
                await solve
        assert all(wait_dead(pid) for pid in pids)
        assert not pool.pids()
        with pytest.raises(Busy, match="stopping"):
            pool.submit(web_work.pid, 30)

    with_pool(SolvePool(1, 8), scenario)


# ------------------------------------------------------------------------------ a real server
def body(path: Path, time_limit: float = 10) -> dict[str, Any]:
    return {"position": path.read_text(encoding="utf-8"), "time_limit": time_limit}


def answered_within(port: int, path: str, data: dict[str, Any], source: str | None = None) -> tuple[int, Any]:
    """The answer, which must come within LIVENESS seconds (the connection's timeout fails the test)."""
    return post(port, path, data, source, timeout=LIVENESS)


def first_solver(server: int) -> int:
    deadline = time.monotonic() + LIVENESS
    while not (pids := solver_processes(server)):
        assert time.monotonic() < deadline, "no solver process"
        time.sleep(0.1)
    (pid,) = pids
    return pid


@pytest.fixture()
def rummy_serve() -> Iterator[tuple[int, int]]:
    """``rummy serve --solvers 1 --time-limit 10``: (its pid, its port)."""
    port = free_port()
    with serving(["-m", "rummy", "serve", "--port", str(port), "--solvers", "1", "--time-limit", "10"], port) as server:
        yield server.pid, port


def test_abandoned_solves_are_cancelled_and_a_new_visitor_is_answered(rummy_serve: tuple[int, int]) -> None:
    """The issue's case, smaller: 6 solves of 10 s whose clients hang up after 1 s. Kept, they would hold
    the one worker for a minute; the new visitor is answered within 30 s only if they were dropped."""
    from tests.support.judged import rejudged

    server, port = rummy_serve
    classic = PUZZLE_EXAMPLES / "house-classic.toml"
    status, warm = answered_within(port, "/api/best", body(classic))
    assert status == 200, warm
    worker = first_solver(server)
    hung = [unanswered(port, "/api/best", body(DRAW_POSITION)) for _ in range(6)]
    time.sleep(1.0)
    for connection in hung:
        connection.close()
    assert wait_dead(worker, LIVENESS), "the abandoned running solve kept its worker"
    status, shown = answered_within(port, "/api/show", {"position": classic.read_text(encoding="utf-8")})
    assert status == 200 and shown["rules"] == warm["rules"]
    status, best = answered_within(port, "/api/best", body(classic))
    assert status == 200 and best["status"] == "optimal", best
    rejudged(classic, {key: value for key, value in best.items() if key != "view"})
    assert len(solver_processes(server)) == 1  # the replacement alone: none left behind


def hooked(port: int, *options: str) -> list[str]:
    return ["-m", "tests.support.live_server", str(port), *options]


def test_an_overrun_stops_only_its_worker_on_a_real_server() -> None:
    port = free_port()
    with serving(hooked(port, "--workers", "2", "--grace", "1", "--time-limit", "10"), port) as server:
        warm: list[tuple[int, Any]] = []
        threads = [threading.Thread(target=lambda: warm.append(answered_within(port, "/api/best",
                                                                               {"position": "sleep 1"})))
                   for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(LIVENESS)
        pids = {answer["pid"] for status, answer in warm if status == 200}
        assert len(pids) == 2, warm
        other: list[tuple[int, Any]] = []
        visitor = threading.Thread(target=lambda: other.append(answered_within(port, "/api/best",
                                                                               {"position": "sleep 4"})))
        visitor.start()
        time.sleep(0.3)
        status, refusal = answered_within(port, "/api/best", {"position": "sleep 600", "time_limit": 0.2})
        assert status == 503 and "longer than 0.2 s" in refusal["error"], refusal
        visitor.join(LIVENESS)
        assert other and other[0][0] == 200, other  # before: 503 "a solver process stopped unexpectedly"
        survivor = other[0][1]["pid"]
        (overran,) = pids - {survivor}
        assert wait_dead(overran) and alive(survivor)
        status, answer = answered_within(port, "/api/best", {"position": "pid"})
        assert status == 200 and answer["pid"] != overran
        assert survivor in solver_processes(server.pid) and len(solver_processes(server.pid)) == 2


def test_one_address_is_refused_beyond_its_bound_on_a_real_server() -> None:
    port = free_port()
    with serving(hooked(port, "--workers", "1", "--max-per-client", "2", "--time-limit", "30"), port) as server:
        status, first = answered_within(port, "/api/best", {"position": "pid"})
        assert status == 200
        hung = [unanswered(port, "/api/best", {"position": "sleep 600"}) for _ in range(2)]
        time.sleep(0.5)
        status, refusal = answered_within(port, "/api/best", {"position": "pid"})
        assert status == 503 and refusal["errors"] == [refusal["error"]], refusal
        assert refusal["error"].startswith("busy: 2 solves from 127.0.0.1 ")
        elsewhere: list[tuple[int, Any]] = []
        other = threading.Thread(target=lambda: elsewhere.append(
            answered_within(port, "/api/best", {"position": "pid"}, source="127.0.0.2")))
        other.start()  # another address gets in: queued behind the sleeper
        time.sleep(0.5)
        assert not elsewhere
        for connection in hung:
            connection.close()  # the sleeper's worker stopped, the queued one dropped
        other.join(LIVENESS)
        assert elsewhere and elsewhere[0][0] == 200, elsewhere
        assert elsewhere[0][1]["pid"] != first["pid"] and wait_dead(first["pid"])
        assert solver_processes(server.pid) == {elsewhere[0][1]["pid"]}
        status, _ = answered_within(port, "/api/best", {"position": "pid"})
        assert status == 200  # 127.0.0.1's own solves are gone with its connections
