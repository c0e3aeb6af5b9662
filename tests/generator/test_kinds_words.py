"""The tasks say what each kind's gain counts (issue 29 §5), in words true for every puzzle of the kind."""

from __future__ import annotations

from rummy.generator import KINDS
from rummy.rules import preset


def test_house_tasks_count_what_the_preset_counts() -> None:
    for name in ("steal", "replace-meld", "meld-steal", "across"):
        kind = KINDS["house", name]
        classic, epic = kind.task_for(preset("house-classic")), kind.task_for(preset("house-epic"))
        assert classic.startswith("score the most") and "table points" in classic and "table points" in epic
        # Classic counts the hand penalty (the discard included) and 25 for going out first; Epic neither
        assert "out of your hand (the discard included)" in classic and "25 for going out first" in classic
        assert "out of your hand" not in epic and "opponents' hands" in epic and "25" not in epic


def test_every_task_is_one_line_within_the_statement_limit() -> None:
    presets = {"house": "house-classic", "tile": "rummikub", "robber": "robber", "layoff": "straight"}
    for (family, _), kind in KINDS.items():
        task = kind.task_for(preset(presets.get(family, "house-classic")))
        assert task and "\n" not in task and len(task) <= 500 and not task.endswith(".")
