"""The time of one answer, shared by every CP-SAT run (and every other search) that makes it.

Each family's solve starts a ``Clock`` at its time limit, asks it how long a
run may take, and counts each run's effort into it; ``stats()`` is the
answer's ``stats`` (``branches``, ``wall_time``, and ``method`` where a
family chooses among methods).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from time import perf_counter


@dataclass
class Clock:
    deadline: float
    branches: int = 0
    solver_seconds: float = 0.0
    methods: Counter[str] = field(default_factory=Counter)

    @classmethod
    def from_now(cls, seconds: float) -> Clock:
        return cls(perf_counter() + seconds)

    def left(self) -> float:
        """Seconds to the deadline (0 once it has passed)."""
        return max(0.0, self.deadline - perf_counter())

    def count(self, branches: int, seconds: float, method: str | None = None) -> None:
        self.branches += branches
        self.solver_seconds += seconds
        if method:
            self.methods[method] += 1

    def stats(self) -> dict[str, int | float | str]:
        stats: dict[str, int | float | str] = {"branches": self.branches, "wall_time": round(self.solver_seconds, 4)}
        if self.methods:
            stats["method"] = "+".join(sorted(self.methods))
        return stats
