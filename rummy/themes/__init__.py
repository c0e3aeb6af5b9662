"""Puzzle themes: the ideas a puzzle's best turn needs, read from the turn itself (docs/themes.md).

``THEMES`` lists every theme (``Theme``: name, title, idea); ``themes_of(before, after, kind)``
says which of them the turn ``before -> after`` needs, in ``THEMES`` order. Each family has its
own detectors (one module a family); none calls a solver, so the generator runs them on every
candidate. A theme that only restates a kind's own task is never given to that kind. A turn that
needs none of them gets ``plain-play`` alone (an easy puzzle's theme; the generator counts it as no
theme above easy).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..position import Position
from .registry import PLAIN_PLAY, THEMES, Theme

__all__ = ["PLAIN_PLAY", "THEMES", "Theme", "family_themes", "idea_themes", "themes_of"]


def _detectors(family: str) -> tuple[Mapping[str, Callable[..., bool]], Mapping[str, frozenset[str]]]:
    # Imported here: the reader checks names against THEMES, and the detectors import the plan,
    # which imports the position, which imports the reader.
    from . import house, layoff, robber, tiles

    modules = {"house": house, "tile": tiles, "robber": robber, "layoff": layoff}
    module = modules.get(family)
    if module is None:
        return {}, {}
    return module.DETECTORS, module.TASK_THEMES


def family_themes(family: str, kind: str | None = None) -> tuple[str, ...]:
    """The themes a puzzle of ``family`` (and ``kind``) can be given, in THEMES order."""
    detectors, task_themes = _detectors(family)
    left_out = task_themes.get(kind, frozenset()) if kind is not None else frozenset()
    found = tuple(name for name in THEMES if name in detectors and name not in left_out)
    return found + (PLAIN_PLAY,) if detectors else found


def themes_of(before: Position, after: Position, kind: str | None = None) -> tuple[str, ...]:
    """The themes the turn ``before -> after`` needs, in THEMES order. ``kind``: the puzzle kind,
    whose own task is no theme of it (a play-all tile puzzle is never tagged ``going-out``). A
    ``before`` in the draw phase is read from the position its draw led to."""
    from .turn import turn_view

    family = before.rules.family.name
    detectors, _ = _detectors(family)
    view = turn_view(before, after, kind)
    found = tuple(name for name in family_themes(family, kind) if name in detectors and detectors[name](view))
    return found or ((PLAIN_PLAY,) if detectors else ())


def idea_themes(themes: tuple[str, ...]) -> tuple[str, ...]:
    """The themes that name an idea: all but the ``plain-play`` fallback."""
    return tuple(name for name in themes if name != PLAIN_PLAY)
