"""Better answers told as they are found (``SolverConfig.on_better``, ``best --progress``).

A family's search offers each turn it finds to its ``Announcer``; only a
turn strictly better than every one told before is told, with the bound as
proven so far. Searches of one answer may run on several threads (draw
advice), so offers are serialised. The after-position is made only when
someone listens and the turn is better (``make`` is called then).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from fractions import Fraction
from time import perf_counter

from ..position import Position
from ..solution import Improvement, SolverConfig, as_number


class Announcer:
    def __init__(self, config: SolverConfig, started: float | None = None) -> None:
        self.listener = config.on_better
        self.started = perf_counter() if started is None else started
        self.best: Fraction | None = None
        # The bound of each part of the search (House: the no-meld turns and the meld model), by name:
        # no turn beats the highest.
        self.bounds: dict[str, Fraction] = {}
        self._lock = threading.Lock()

    @property
    def listening(self) -> bool:
        return self.listener is not None

    def bound(self, part: str, bound: Fraction) -> None:
        """What no turn of ``part`` can beat, as proven so far (only ever lowered)."""
        with self._lock:
            known = self.bounds.get(part)
            self.bounds[part] = bound if known is None else min(known, bound)

    def offer(self, gain: Fraction, make: Callable[[], tuple[Position | None, int]], source: str) -> bool:
        """Tell the listener of a turn of ``gain`` if it beats every turn told so far; whether it did."""
        if self.listener is None:
            return False
        with self._lock:
            if self.best is not None and gain <= self.best:
                return False
            self.best = gain
            after, played = make()
            bound = max([gain, *self.bounds.values()])
            self.listener(Improvement(gain=as_number(gain), bound=as_number(bound),
                                      seconds=round(perf_counter() - self.started, 4), after=after,
                                      cards_played=played, source=source))
            return True

