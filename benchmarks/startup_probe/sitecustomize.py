"""benchmarks/startup.py's probe: loaded by ``site`` in each measured ``rummy best`` process (its folder is put
first on PYTHONPATH), it notes the wall clock at each step of the start-up and writes them, as JSON, to the file
``$RUMMY_STARTUP_MARKS`` names when the process exits. Nothing of rummy is changed: the functions marked are wrapped
as their modules finish loading (a finder of its own, first on ``sys.meta_path``, only for the modules named below).

Marks (the first time each happens): ``site`` (this module runs: the interpreter is up), ``cli`` (rummy.cli.app
loaded), ``read`` (Position.from_text returned), ``cp_model`` (ortools' cp_model loaded), ``search`` (the family's
solver called: the search starts), ``solve_start`` and ``solve_end`` (CP-SAT's first ``CpSolver.solve``), ``exit``;
each as the wall clock and, under ``cpu``, as the CPU time the process has used so far (all its threads).
"""

from __future__ import annotations

import os
import sys
import time

_MARKS: dict[str, float | str] = {"site": time.time()}
_CPU: dict[str, float] = {"site": time.process_time()}  # CPU seconds of every thread of the process so far
_PATH = os.environ.get("RUMMY_STARTUP_MARKS")


def _mark(name: str) -> None:
    if name not in _MARKS:
        _MARKS[name] = time.time()
        _CPU[name] = time.process_time()


def _write() -> None:
    _mark("exit")
    import json

    with open(_PATH, "w", encoding="utf-8") as out:  # type: ignore[arg-type]
        json.dump({**_MARKS, "cpu": _CPU}, out)


def _after_cli(module: object) -> None:
    _mark("cli")
    _MARKS["tree"] = os.path.dirname(os.path.dirname(os.path.dirname(module.__file__)))  # type: ignore[attr-defined]


def _after_position(module: object) -> None:
    position = module.Position  # type: ignore[attr-defined]
    from_text = position.from_text.__func__

    def marked(cls: type, *args: object, **kwargs: object) -> object:
        read = from_text(cls, *args, **kwargs)
        _mark("read")
        return read

    position.from_text = classmethod(marked)


def _after_answer(module: object) -> None:
    solver_for = module.solver_for  # type: ignore[attr-defined]

    def marked_solver_for(*args: object, **kwargs: object) -> object:
        solver = solver_for(*args, **kwargs)

        def marked_solver(*a: object, **k: object) -> object:
            _mark("search")
            return solver(*a, **k)

        return marked_solver

    module.solver_for = marked_solver_for  # type: ignore[attr-defined]


def _after_cp_model(module: object) -> None:
    _mark("cp_model")
    solver = module.CpSolver  # type: ignore[attr-defined]
    solve = solver.solve

    def marked_solve(self: object, *args: object, **kwargs: object) -> object:
        _mark("solve_start")
        status = solve(self, *args, **kwargs)
        _mark("solve_end")
        return status

    solver.solve = marked_solve


_AFTER = {"rummy.cli.app": _after_cli, "rummy.position": _after_position, "rummy.answer": _after_answer,
          "ortools.sat.python.cp_model": _after_cp_model}


class _Loader:
    def __init__(self, loader: object, after: object) -> None:
        self.loader, self.after = loader, after

    def create_module(self, spec: object) -> object:
        return self.loader.create_module(spec)  # type: ignore[attr-defined]

    def exec_module(self, module: object) -> None:
        self.loader.exec_module(module)  # type: ignore[attr-defined]
        self.after(module)  # type: ignore[operator]

    def __getattr__(self, name: str) -> object:
        return getattr(self.loader, name)


class _Finder:
    @classmethod
    def find_spec(cls, name: str, path: object = None, target: object = None) -> object:
        after = _AFTER.get(name)
        if after is None:
            return None
        for finder in sys.meta_path:
            if finder is cls or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                spec.loader = _Loader(spec.loader, after)
                return spec
        return None


if _PATH:
    import atexit

    sys.meta_path.insert(0, _Finder)  # type: ignore[arg-type]
    atexit.register(_write)
