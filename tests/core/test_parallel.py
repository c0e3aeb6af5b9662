"""Many positions on many processes (``--jobs``) and on a Dask cluster (``--cluster``): the same answers
as one process, in input order when asked, streamed as done otherwise; Ctrl-C stops cleanly."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummy.parallel import InProcess, Processes, jobs_for, runner
from rummy.reader import iter_position_files, position_files
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT
from tests.support.processes import alive, descendants

TIMING = {"seconds", "stats"}


def rummy(*args: str | Path, timeout: float = 300, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummy", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO_ROOT, env=env)


def answers(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


def untimed(answer: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in answer.items() if key not in TIMING}


@pytest.fixture(scope="module")
def one_process() -> list[dict[str, Any]]:
    """The examples answered in one process, one search thread: the reference."""
    result = rummy("best", PUZZLE_EXAMPLES, "--json", "--workers", "1", "--verify")
    assert result.returncode == 0, result.stderr
    return answers(result.stdout)


# ------------------------------------------------------------ the runner
def double(x: int) -> int:
    return 2 * x


def sleepy(x: int) -> int:
    time.sleep(0.01 * (x % 3))
    return x


def test_runners_give_every_result_in_order_or_as_done() -> None:
    for run in (InProcess(), Processes(2)):
        try:
            assert list(run.ordered(double, ((k,) for k in range(40)))) == [2 * k for k in range(40)]
            done = list(run.as_done(sleepy, ((k,) for k in range(40))))
            assert sorted(done) == [(k, k) for k in range(40)]
        finally:
            run.close()


def test_a_runner_reads_its_tasks_a_window_at_a_time() -> None:
    read = []

    def tasks() -> Iterator[tuple[int]]:
        for k in range(10_000):
            read.append(k)
            yield (k,)

    run = Processes(2)
    try:
        results = run.ordered(double, tasks())
        assert next(results) == 0
        assert len(read) == 6  # a window ahead (3 a worker), never the whole input
        results.close()  # stopping early cancels what was submitted and reads no more
        assert len(read) == 6
    finally:
        run.close()


def test_jobs_zero_is_one_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    assert jobs_for(0) == len(os.sched_getaffinity(0))
    assert jobs_for(3) == 3
    assert isinstance(runner(1), InProcess)


def test_the_cluster_comes_from_the_option_else_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummy.parallel import cluster_address

    monkeypatch.delenv("RUMMY_CLUSTER", raising=False)
    assert cluster_address(None) is None and cluster_address("tcp://a:1") == "tcp://a:1"
    monkeypatch.setenv("RUMMY_CLUSTER", "tcp://b:2")
    assert cluster_address(None) == "tcp://b:2" and cluster_address("") is None and cluster_address("tcp://a:1") == "tcp://a:1"


def test_a_picture_of_one_answer_is_made_here_whatever_the_environment(tmp_path: Path) -> None:
    env = {**os.environ, "RUMMY_CLUSTER": "tcp://127.0.0.1:9"}  # nothing answers there
    result = rummy("best", PUZZLE_EXAMPLES / "robber.toml", "--svg", tmp_path / "x.svg", env=env)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "x.svg").is_file()
    here = rummy("best", PUZZLE_EXAMPLES / "robber.toml", "--cluster", "", "--json", env=env)
    assert here.returncode == 0 and json.loads(here.stdout)["gain"] == 355


def test_folders_are_listed_lazily_and_as_before(tmp_path: Path) -> None:
    for given in ([PUZZLE_EXAMPLES], [PUZZLE_EXAMPLES / "robber.toml", REPO_ROOT / "puzzles" / "robber"]):
        assert list(iter_position_files(given)) == position_files(given)
    assert [str(problem) for problem in iter_position_files([tmp_path])] == [
        f"{tmp_path}: a folder with no .toml or .json positions"]


# ----------------------------------------------------------------- best
def test_jobs_give_the_answers_of_one_process(one_process: list[dict[str, Any]]) -> None:
    ordered = rummy("best", PUZZLE_EXAMPLES, "--json", "--jobs", "2", "--ordered", "--verify")
    streamed = rummy("best", PUZZLE_EXAMPLES, "--json", "--jobs", "2", "--verify")
    for result in (ordered, streamed):
        assert result.returncode == 0, result.stderr
    assert [untimed(a) for a in answers(ordered.stdout)] == [untimed(a) for a in one_process]
    by_file = {a["file"]: untimed(a) for a in answers(streamed.stdout)}
    assert by_file == {a["file"]: untimed(a) for a in one_process}
    assert all(a["verified"] for a in answers(streamed.stdout))


def test_the_answers_are_judged_by_the_checker(one_process: list[dict[str, Any]]) -> None:
    from rummy.checker import check
    from rummy.position import Position

    for answer in one_process:
        before = Position.from_file(answer["file"])
        if answer["after"] is None or before.phase != "play":
            continue
        after = Position.from_data(answer["after"], source="after", strict=False)
        verdict = check(before, after)
        assert verdict.legal and verdict.reading["gain"] == pytest.approx(answer["gain"], abs=1e-4), answer["file"]


def test_the_human_view_is_in_input_order_as_one_process_prints_it() -> None:
    files = [PUZZLE_EXAMPLES / name for name in ("robber.toml", "straight.toml", "rummikub.toml", "house-classic.toml")]
    one = rummy("best", *files, "--workers", "1")
    many = rummy("best", *files, "--jobs", "2")
    assert one.returncode == many.returncode == 0, many.stderr
    no_time = re.compile(r"\d+\.\d+ s\)")
    assert no_time.sub("", many.stdout) == no_time.sub("", one.stdout)


def test_stdin_is_named_as_one_process_names_it() -> None:
    text = (PUZZLE_EXAMPLES / "robber.toml").read_text()
    for extra in ((), ("--jobs", "2")):
        result = subprocess.run([sys.executable, "-m", "rummy", "best", "-", "--json", *extra], input=text,
                                capture_output=True, text=True, timeout=120, cwd=REPO_ROOT)
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["file"] == "-"


def test_a_bad_file_among_many_is_one_line_and_the_others_are_answered(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('rules = "robber"\nplayers = 3\n')
    result = rummy("best", PUZZLE_EXAMPLES / "robber.toml", bad, tmp_path / "missing.toml",
                   PUZZLE_EXAMPLES / "straight.toml", "--json", "--jobs", "2", "--ordered")
    assert result.returncode == 2
    assert [Path(a["file"]).name for a in answers(result.stdout)] == ["robber.toml", "straight.toml"]
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and all(line.startswith("rummy: ") for line in lines)
    assert any("bad.toml" in line for line in lines) and any("missing.toml: no such file" in line for line in lines)
    assert "Traceback" not in result.stderr


def test_an_empty_folder_gets_its_line_and_the_others_are_answered(tmp_path: Path) -> None:
    result = rummy("best", PUZZLE_EXAMPLES / "robber.toml", tmp_path, "--json", "--jobs", "2")
    assert result.returncode == 2
    assert [Path(a["file"]).name for a in answers(result.stdout)] == ["robber.toml"]
    assert result.stderr == f"rummy: {tmp_path}: a folder with no .toml or .json positions\n"


def test_svg_and_bad_jobs_are_usage_errors(tmp_path: Path) -> None:
    svg = rummy("best", PUZZLE_EXAMPLES / "robber.toml", "--jobs", "2", "--svg", tmp_path / "x.svg")
    assert svg.returncode == 2 and "--svg" in svg.stderr and not (tmp_path / "x.svg").exists()
    negative = rummy("best", PUZZLE_EXAMPLES / "robber.toml", "--jobs", "-1")
    assert negative.returncode == 2 and negative.stderr.count("\n") == 1


def _still_starting(returncode: int, err: str) -> bool:
    """Whether the Ctrl-C stopped the interpreter before rummy's code ran: died of the signal silently, or
    Python's own KeyboardInterrupt from its start-up imports (``site``), with no frame of the package."""
    if returncode == -signal.SIGINT and not err:
        return True
    package = str(REPO_ROOT / "rummy") + os.sep
    return (returncode in (1, -signal.SIGINT) and err.rstrip().endswith("KeyboardInterrupt")
            and package not in err and "site-packages" + os.sep + "rummy" + os.sep not in err)


def many_copies(folder: Path, count: int) -> Path:
    folder.mkdir()
    source = (PUZZLE_EXAMPLES / "house-classic.toml").read_text()
    for k in range(count):
        (folder / f"p{k:03}.toml").write_text(source)
    return folder


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("early", [False, True], ids=["after-an-answer", "at-start"])
def test_ctrl_c_stops_the_workers_and_keeps_what_was_printed(tmp_path: Path, jobs: str, early: bool) -> None:
    folder = many_copies(tmp_path / "many", 400)
    # A terminal's Ctrl-C goes to the whole process group: the command, its fork server, its workers.
    process = subprocess.Popen([sys.executable, "-m", "rummy", "best", str(folder), "--json", "--jobs", jobs],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT,
                               start_new_session=True)
    assert process.stdout is not None
    if early:
        time.sleep(0.3)  # still starting: importing, listing, starting the pool
        printed = []
    else:
        printed = [process.stdout.readline()]  # an answer streamed as soon as it is done
        assert json.loads(printed[0])["gain"] == 94
    workers = descendants(process.pid)
    os.killpg(process.pid, signal.SIGINT)
    rest, err = process.communicate(timeout=60)
    if early and not rest and _still_starting(process.returncode, err):
        # On a loaded machine the Ctrl-C can land while the interpreter itself is still starting, before
        # any of rummy runs: the program dies of the signal, as any Python program would, having printed
        # nothing of its own and left no worker behind (no pool was started yet).
        assert [pid for pid in workers if alive(pid)] == []
        return
    # 130, or death by SIGINT once it has said so (a shell shows both as 130): OR-Tools' start-up can leave
    # SIGINT pending past rummy's own handling (seen when it lands while OR-Tools loads)
    assert process.returncode in (130, -signal.SIGINT), (process.returncode, err)
    printed += rest.splitlines()
    assert all(json.loads(line)["gain"] == 94 for line in printed) and len(printed) < 400
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "rummy: interrupted", err
    if not early or len(err.splitlines()) > 1:
        assert re.search(r"interrupted after \d+ of 400 answers", err) or jobs == "1", err
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in workers if alive(pid)] == []


# ------------------------------------------------------------- generate
GENERATE = ("generate", "--rules", "robber", "--kind", "steal", "--difficulty", "medium", "--count", "4", "--seed", "5")


def puzzle_texts(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.glob("*.toml"))}


def test_generate_makes_the_same_puzzles_whatever_the_jobs(tmp_path: Path) -> None:
    made = {}
    for jobs in ("1", "2", "0"):
        out = tmp_path / f"jobs{jobs}"
        result = rummy(*GENERATE, "--jobs", jobs, "--out", out)
        assert result.returncode == 0, result.stderr
        made[jobs] = puzzle_texts(out)
    assert len(made["1"]) == 4 and made["1"] == made["2"] == made["0"]


def test_ctrl_c_in_generate_keeps_the_puzzles_and_their_index(tmp_path: Path) -> None:
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "rummy", "generate", "--rules", "robber", "--kind", "steal",
                                "--count", "400", "--seed", "2", "--jobs", "2", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT,
                               start_new_session=True)
    assert process.stderr is not None
    for _ in range(5):
        assert process.stderr.readline().startswith("made ")  # one line a puzzle made
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err, err
    said = re.search(r"interrupted: (\d+) puzzles written", err)
    assert said, err
    index = json.loads((out / "index.json").read_text())["puzzles"]
    files = sorted(p.name for p in out.glob("*.toml"))
    assert len(index) == len(files) == int(said.group(1)) >= 5
    assert sorted(entry["position"] for entry in index) == files
    assert all((out / entry["solution"]).is_file() for entry in index)


# -------------------------------------------------------------- cluster
@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    distributed = pytest.importorskip("distributed", reason="dask distributed is not installed (pip install '.[cluster]')")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local.scheduler_address


@pytest.mark.cluster
def test_a_cluster_gives_the_answers_of_one_process(cluster: str, one_process: list[dict[str, Any]]) -> None:
    ordered = rummy("best", PUZZLE_EXAMPLES, "--json", "--cluster", cluster, "--ordered", "--verify")
    assert ordered.returncode == 0, ordered.stderr
    assert [untimed(a) for a in answers(ordered.stdout)] == [untimed(a) for a in one_process]
    # the address from the environment, answers streamed as done
    env = {**os.environ, "RUMMY_CLUSTER": cluster}
    streamed = rummy("best", PUZZLE_EXAMPLES, "--json", "--verify", env=env)
    assert streamed.returncode == 0, streamed.stderr
    assert {a["file"]: untimed(a) for a in answers(streamed.stdout)} == {a["file"]: untimed(a) for a in one_process}


@pytest.mark.cluster
def test_a_cluster_makes_the_same_puzzles(cluster: str, tmp_path: Path) -> None:
    here = rummy(*GENERATE, "--out", tmp_path / "here")
    there = rummy(*GENERATE, "--cluster", cluster, "--out", tmp_path / "there")
    assert here.returncode == there.returncode == 0, there.stderr
    assert puzzle_texts(tmp_path / "there") == puzzle_texts(tmp_path / "here") and len(puzzle_texts(tmp_path / "here")) == 4


@pytest.mark.slow
def test_no_scheduler_at_the_address_is_one_line() -> None:
    pytest.importorskip("distributed", reason="dask distributed is not installed (pip install '.[cluster]')")
    result = rummy("best", PUZZLE_EXAMPLES / "robber.toml", "--cluster", "tcp://127.0.0.1:9", timeout=120)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "--cluster tcp://127.0.0.1:9" in result.stderr


def test_without_dask_the_cluster_option_says_what_to_install() -> None:
    code = ("import sys; sys.modules['distributed'] = None; from rummy.cli.app import main; "
            "sys.exit(main(['best', sys.argv[1], '--cluster', 'tcp://127.0.0.1:9']))")
    result = subprocess.run([sys.executable, "-c", code, str(PUZZLE_EXAMPLES / "robber.toml")],
                            capture_output=True, text=True, timeout=120, cwd=REPO_ROOT)
    assert result.returncode == 2 and 'pip install "rummy[cluster]"' in result.stderr
    assert result.stderr.count("\n") == 1


def excepthook_name() -> str:
    return f"{sys.excepthook.__module__}.{sys.excepthook.__name__}"


def test_workers_start_from_a_fork_server_that_keeps_an_orphans_start_quiet() -> None:
    # Ctrl-C while the pool starts: a worker still starting finds its parent gone; the fork server
    # reports that with sys.excepthook, which in the workers is rummy.worker_start's.
    pool = Processes(1)
    try:
        assert list(pool.ordered(excepthook_name, [()])) == ["rummy.worker_start.quiet_when_parent_gone"]
    finally:
        pool.close()


@pytest.mark.parametrize("error", [FileNotFoundError(2, "No such file or directory"), EOFError()])
def test_a_start_that_finds_the_parent_gone_prints_nothing(error: BaseException, capsys: pytest.CaptureFixture[str]) -> None:
    from rummy.worker_start import quiet_when_parent_gone

    quiet_when_parent_gone(type(error), error, None)
    assert capsys.readouterr().err == ""


def test_any_other_failure_to_start_keeps_its_traceback() -> None:
    # The hook installs itself on import: a fresh interpreter shows what a worker would print.
    code = "import rummy.worker_start\nraise ValueError('a real failure')\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT)
    assert done.returncode == 1 and "Traceback" in done.stderr and "ValueError: a real failure" in done.stderr
    code = "import rummy.worker_start\nraise FileNotFoundError(2, 'gone')\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT)
    assert done.returncode == 1 and done.stderr == ""
