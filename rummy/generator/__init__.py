"""``rummy generate``: puzzles with a unique, verified best answer and a measured difficulty.

Importing the package registers every kind: one import line per module of kinds.
"""

from __future__ import annotations

from . import tile_kinds  # noqa: F401 - registers the tile family and its kinds
from . import house_kinds  # noqa: F401 - registers the House family and its kinds
from . import robber_kinds  # noqa: F401 - registers the Robber family and its kind
from .difficulty import TIERS, Difficulty, tier_of
from .generator import Outcome, Puzzle, Report, Request, available_cores, generate, name_prefix, validate, workers_for
from .kinds import FAMILIES, KINDS, FamilySupport, Kind, kind_for, register_family, register_kind

__all__ = [
    "FAMILIES", "KINDS", "TIERS", "Difficulty", "FamilySupport", "Kind", "Outcome", "Puzzle", "Report", "Request",
    "available_cores", "generate", "kind_for", "name_prefix", "register_family", "register_kind", "tier_of", "validate",
    "workers_for",
]
