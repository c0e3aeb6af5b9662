"""The House model's set-up is made faster without changing the model (issue 28).

tests/data/house_model_digests.json holds the SHA-256 of the model's proto
(text format) for positions of benchmarks/positions/house, house-real and
house-selfplay, written by ``benchmarks/house_build.py --old <checkout of
3965bc7> --digests tests/data/house_model_digests.json`` from the code
before the set-up was sped up: every variable's domain, every constraint
and the order of both must stay the same.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from rummy.model.house import _branch_model
from rummy.model.house.context import build_context
from rummy.model.house.replacement import replacement_options
from rummy.position import Position
from tests.support.paths import DATA_DIR, REPO_ROOT

DIGESTS: dict[str, str] = json.loads((DATA_DIR / "house_model_digests.json").read_text())


@pytest.mark.parametrize("path", sorted(DIGESTS))
def test_the_model_built_is_the_one_before_the_speed_up(path: str) -> None:
    ctx = build_context(Position.from_file(str(REPO_ROOT / path)))
    m = _branch_model(ctx, replacement_options(ctx), ())
    digest = "none" if m is None else hashlib.sha256(str(m.model.proto).encode()).hexdigest()
    assert digest == DIGESTS[path]


def test_the_golden_digests_cover_every_set() -> None:
    sets = {Path(path).parent.name for path, digest in DIGESTS.items() if digest != "none"}
    assert sets == {"house", "house-real", "house-selfplay"}
