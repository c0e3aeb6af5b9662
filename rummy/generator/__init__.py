"""``rummy generate``: puzzles with a unique, verified best answer and a measured difficulty.

Importing the package registers every kind: each family record names its module of kinds
(``Family.puzzles``).
"""

from __future__ import annotations

import importlib

from ..family import FAMILIES as _GAME_FAMILIES
from .candidate_search import (
    Outcome,
    Puzzle,
    Report,
    Request,
    available_cores,
    generate,
    name_prefix,
    validate,
    workers_for,
)
from .difficulty import TIERS, Difficulty, tier_of
from .kinds import FAMILIES, KINDS, FamilySupport, Kind, kind_for, register_family, register_kind

__all__ = [
    "FAMILIES", "KINDS", "TIERS", "Difficulty", "FamilySupport", "Kind", "Outcome", "Puzzle", "Report", "Request",
    "available_cores", "generate", "kind_for", "name_prefix", "register_family", "register_kind", "tier_of", "validate",
    "workers_for",
]

for _family in _GAME_FAMILIES.values():
    if _family.puzzles is not None:
        importlib.import_module(_family.puzzles)  # registers the family's support and its kinds
importlib.import_module(".mined_kinds", __name__)  # after the families: mined puzzles serve House and tile rummy
importlib.import_module(".robber_draw_kinds", __name__)  # after robber_kinds, whose deals it turns into draws
