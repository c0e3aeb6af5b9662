"""``rummy generate``'s bounded resources: processes, and how files are written (rummy/files.py).

No link is written through, no file is left half-written, no puzzle file is
overwritten, runs into one folder at once keep every puzzle in the index,
and ``--workers`` never starts more processes than there are cores.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from multiprocessing import get_context
from pathlib import Path
from types import SimpleNamespace

import pytest

from rummy.errors import RummyError
from rummy.files import FileKept, Folder, UnsafePath, write_atomic
from rummy.generator import Request, available_cores, candidate_search, collection, generate, workers_for
from rummy.generator.collection import Collection, read_index, update_index
from tests.support.paths import REPO_ROOT

# A small, fast run: two easy tile puzzles take well under a second of solving.
FAST = ("generate", "--rules", "rummikub-lenient", "--kind", "play-all", "--difficulty", "easy", "--workers", "1")


def cli(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "rummy", *map(str, args)]


def env() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "RUMMY_DEBUG")}


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cli(*args), cwd=REPO_ROOT, capture_output=True, text=True, env=env(), timeout=120)


def refused(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and not p.is_symlink()}


def fake_puzzle(name: str) -> SimpleNamespace:
    """What the index reads of a puzzle."""
    return SimpleNamespace(name=name, kind="play-all", tier="easy", rules="rummikub", answer={"gain": 1}, margin=1, seed=0,
                           themes=())


# ----------------------------------------------------------------- links
def test_a_symlinked_out_is_refused_and_nothing_is_written_outside(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "out").symlink_to(outside)
    result = run_cli(*FAST, "--count", "1", "--seed", "1", "--out", tmp_path / "out")
    refused(result, "--out", "symbolic link")
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("target", ["index.json", "rummikub-lenient-play-all-easy-s1-0000.toml",
                                    "rummikub-lenient-play-all-easy-s1-0003.solution.json", ".index.lock"])
def test_a_symlink_at_a_name_generate_writes_is_refused(tmp_path, target):
    out, outside = tmp_path / "out", tmp_path / "outside"
    out.mkdir()
    outside.mkdir()
    (outside / "victim").write_text("keep me\n")
    (out / target).symlink_to(outside / "victim")
    result = run_cli(*FAST, "--count", "1", "--seed", "1", "--out", out)
    refused(result, "--out", target, "symbolic link")
    assert listing(outside) == {"victim": b"keep me\n"}
    assert sorted(p.name for p in out.iterdir()) == [target]


@pytest.mark.parametrize("replace", [True, False])
@pytest.mark.parametrize("dangling", [True, False])
def test_the_writer_never_writes_through_nor_replaces_a_link(tmp_path, replace, dangling):
    outside = tmp_path / "outside"
    outside.mkdir()
    if not dangling:
        (outside / "victim").write_text("keep me\n")
    (tmp_path / "name").symlink_to(outside / "victim")
    with pytest.raises(UnsafePath, match="symbolic link"):
        write_atomic(tmp_path / "name", "new\n", replace=replace)
    assert (tmp_path / "name").is_symlink()
    assert listing(outside) == ({} if dangling else {"victim": b"keep me\n"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["name", "outside"]  # no temporary file left


def test_a_linked_folder_is_refused_by_the_writer(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(UnsafePath, match="symbolic link"):
        Folder(tmp_path / "link", create=True)
    with pytest.raises(UnsafePath, match="symbolic link"):
        write_atomic(tmp_path / "link" / "file", "x")
    assert list((tmp_path / "real").iterdir()) == []


# ---------------------------------------------------------------- atomic
def test_a_write_that_fails_midway_leaves_the_old_file_whole_and_no_partial_file(tmp_path, monkeypatch):
    (tmp_path / "index.json").write_text("old\n")
    real_write = os.write

    def fail_after_some(fd, data):
        if fd <= 2:
            return real_write(fd, data)
        real_write(fd, bytes(data[:3]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", fail_after_some)
    with pytest.raises(RummyError, match="No space left"):
        write_atomic(tmp_path / "index.json", "new content\n" * 100)
    with pytest.raises(RummyError, match="No space left"):
        write_atomic(tmp_path / "fresh.json", "new content\n" * 100, replace=False)
    monkeypatch.undo()
    assert listing(tmp_path) == {"index.json": b"old\n"}


def test_an_interrupted_write_leaves_no_partial_file(tmp_path, monkeypatch):
    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "a.toml", "data", replace=False)
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_a_write_replaces_whole_or_keeps_what_must_be_kept(tmp_path):
    write_atomic(tmp_path / "f.json", "one\n")
    write_atomic(tmp_path / "f.json", "two\n")
    assert (tmp_path / "f.json").read_text() == "two\n"
    with pytest.raises(FileKept, match="not overwritten"):
        write_atomic(tmp_path / "f.json", "three\n", replace=False)
    assert listing(tmp_path) == {"f.json": b"two\n"}


def test_a_puzzle_whose_second_file_is_taken_leaves_nothing_of_it(tmp_path, monkeypatch):
    (tmp_path / "p.solution.json").write_text("the user's\n")
    files = {"p.toml": "position\n", "p.solution.json": "solution\n"}
    monkeypatch.setattr(collection, "puzzle_files", lambda puzzle, command: files)
    with pytest.raises(FileKept):
        collection.write_puzzle(tmp_path, SimpleNamespace(name="p"), "")
    assert listing(tmp_path) == {"p.solution.json": b"the user's\n"}


# ----------------------------------------------------------- never overwrite
def test_a_folder_holding_the_runs_puzzle_names_is_refused_before_any_work(tmp_path):
    prefix = "rummikub-lenient-play-all-easy-s1-"
    (tmp_path / f"{prefix}0007.toml").write_text("the user's puzzle\n")
    (tmp_path / "rummikub-lenient-play-all-easy-s11-0001.toml").write_text("another seed\n")
    with pytest.raises(FileKept, match=f"{prefix}0007.*never overwritten"):
        Collection(tmp_path, prefix)
    Collection(tmp_path, "rummikub-lenient-play-all-easy-s2-").close()  # other names: fine


# ----------------------------------------------------------------- index
def _add_many(args: tuple[str, int]) -> None:
    folder, worker = args
    for i in range(20):
        update_index(Path(folder), [fake_puzzle(f"w{worker}-{i:02d}")])


def test_index_updates_from_many_processes_at_once_keep_every_entry(tmp_path):
    with get_context("fork").Pool(6) as pool:
        pool.map(_add_many, [(str(tmp_path), w) for w in range(6)])
    entries = read_index(tmp_path)
    assert sorted(entries) == sorted(f"w{w}-{i:02d}" for w in range(6) for i in range(20))
    assert sorted(p.name for p in tmp_path.iterdir()) == [".index.lock", "index.json"]


def test_the_index_lock_is_waited_for_a_bounded_time(tmp_path):
    folder = Folder(tmp_path)
    fd = os.open(tmp_path / ".index.lock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(RummyError, match="locked by another process"), folder.lock(".index.lock", wait=0.05):
            pass
    finally:
        os.close(fd)
        folder.close()


@pytest.mark.parametrize("text", ["[" * 100_000, '{"puzzles": [1, 2]}', '{"puzzles": {"a": 1}}', "\xff", ""])
def test_an_unreadable_index_is_one_clear_error(tmp_path, text):
    (tmp_path / "index.json").write_bytes(text.encode("latin-1"))
    with pytest.raises(RummyError, match="not a puzzle index"):
        read_index(tmp_path)


def test_an_index_too_large_is_refused_unread(tmp_path, monkeypatch):
    (tmp_path / "index.json").write_text('{"puzzles": []}' + " " * 100)
    monkeypatch.setattr(collection, "INDEX_LIMIT", 50)
    with pytest.raises(RummyError, match="larger than 50 bytes"):
        read_index(tmp_path)


def test_concurrent_runs_into_one_folder_all_end_in_a_valid_index(tmp_path):
    out = tmp_path / "out"
    seeds = range(1, 7)
    runs = [subprocess.Popen(cli(*FAST, "--count", "2", "--seed", seed, "--out", out), cwd=REPO_ROOT, env=env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for seed in seeds]
    made = []
    for run in runs:
        stdout, stderr = run.communicate(timeout=300)
        assert run.returncode == 0, stderr
        assert "made 2 of 2" in stdout
        made += [line.split(": ")[1].split(" ")[0] for line in stderr.splitlines() if line.startswith("made ")]
    index = json.loads((out / "index.json").read_text())
    names = [entry["name"] for entry in index["puzzles"]]
    assert names == sorted(made) and len(names) == 2 * len(seeds)
    for entry in index["puzzles"]:
        assert (out / entry["position"]).is_file() and (out / entry["solution"]).is_file()
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
    # The same run again would make the same puzzles: refused, nothing touched.
    before = listing(out)
    refused(run_cli(*FAST, "--count", "2", "--seed", "3", "--out", out), "--out", "never overwritten", "-s3-")
    assert listing(out) == before


# --------------------------------------------------------------- workers
def test_workers_are_never_more_than_the_cores():
    cores = available_cores()
    assert cores >= 1
    assert workers_for(Request("rummikub", "play-all", 1, workers=10**6)) == cores
    assert workers_for(Request("rummikub", "play-all", 1, workers=1)) == 1


def test_the_pool_is_sized_by_the_cores(monkeypatch):
    from rummy.parallel import InProcess

    sizes = []

    def recording(jobs, cluster=None):
        sizes.append((jobs, cluster))
        return InProcess()

    monkeypatch.setattr(candidate_search, "runner", recording)
    monkeypatch.setattr(candidate_search, "available_cores", lambda: 2)
    report = generate(Request("rummikub-lenient", "play-all", 1, "easy", seed=1, workers=32))
    assert sizes == [(2, None)] and len(report.puzzles) == 1
    sizes.clear()
    generate(Request("rummikub-lenient", "play-all", 1, "easy", seed=1, workers=0))  # 0: one a core
    assert sizes == [(2, None)]


def test_workers_above_the_cores_are_lowered_with_a_note(tmp_path):
    cores = available_cores()
    result = run_cli(*FAST[:-1], str(cores + 30), "--count", "1", "--seed", "1", "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert f"--workers {cores + 30} lowered to {cores}" in result.stderr
    assert len(read_index(tmp_path / "out")) == 1
