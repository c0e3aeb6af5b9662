"""What every progress line of ``best --progress`` and of ``POST /api/best`` with ``progress`` must do: say more
than the line before it (docs/formats.md "Progress lines")."""

from __future__ import annotations

from itertools import pairwise
from typing import Any


def assert_each_line_better(told: list[dict[str, Any]]) -> None:
    """Each progress object beats the one before: a higher gain; or, the library's contract allows it, the same
    gain with a lower bound, or (draw advice) more options valued or an option valued higher. Never a lower
    gain, never a line that says nothing new."""
    for before, after in pairwise(told):
        better = after["gain"] > before["gain"]
        tighter = after["gain"] == before["gain"] and after["bound"] < before["bound"]
        more_valued = after["gain"] >= before["gain"] and after.get("valued", 0) > before.get("valued", 0)
        refined = (after["gain"] >= before["gain"] and bool(after.get("options"))
                   and after["options"] != before.get("options"))
        assert better or tighter or more_valued or refined, f"a line that beats nothing: {before} then {after}"
