"""Tile rummy's theme detectors on hand-made turns, each with a turn that must not have the theme."""

from __future__ import annotations

from rummy.position import Position
from tests.themes.turns import position, themes


def tiles(table: list[str], hand: str, rules: str = "rummikub-lenient", strict: bool = True) -> Position:
    return position(rules, {"ann": {"melded": True, "hand": hand}, "bob": {"melded": True, "hand_count": 9}},
                    table=table, strict=strict)


def turn(table: list[str], hand: str, table_after: list[str], hand_after: str, kind: str | None = "max",
         rules: str = "rummikub-lenient") -> tuple[str, ...]:
    return themes(tiles(table, hand, rules), tiles(table_after, hand_after, rules, strict=False), kind)


PARALLEL = ["R1 R2 R3", "B1 B2 B3", "K1 K2 K3"]


def test_parallel_runs_laid_again_as_groups():
    found = turn(PARALLEL, "O1 O2 O3 O9", ["R1 B1 K1 O1", "R2 B2 K2 O2", "R3 B3 K3 O3"], "O9")
    assert "runs-into-groups" in found
    assert "groups-into-runs" not in found


def test_a_new_run_beside_the_runs_is_no_regrouping():
    found = turn(PARALLEL, "O1 O2 O3 O9", PARALLEL + ["O1 O2 O3"], "O9")
    assert "runs-into-groups" not in found and "split-and-insert" not in found


def test_groups_laid_again_as_runs():
    groups = ["R1 B1 K1", "R2 B2 K2", "R3 B3 K3"]
    found = turn(groups, "K4 O9", ["R1 R2 R3", "B1 B2 B3", "K1 K2 K3 K4"], "O9")
    assert "groups-into-runs" in found
    assert "runs-into-groups" not in found


def test_one_run_end_into_a_group_is_not_runs_into_groups():
    # Only one run feeds the group: the idea is two runs taken apart, not one end card borrowed.
    found = turn(["R1 R2 R3 R4", "O7 O8 O9"], "B4 K4 O1",
                 ["R1 R2 R3", "R4 B4 K4", "O7 O8 O9"], "O1")
    assert "runs-into-groups" not in found


def test_a_run_split_to_let_a_tile_in():
    found = turn(["R1 R2 R3 R4 R5 R6"], "R4 O9", ["R1 R2 R3 R4", "R4 R5 R6"], "O9")
    assert "split-and-insert" in found


def test_a_run_grown_at_its_end_is_no_split():
    found = turn(["R1 R2 R3 R4 R5 R6"], "R7 O9", ["R1 R2 R3 R4 R5 R6 R7"], "O9")
    assert "split-and-insert" not in found


def test_a_flexible_joker_moved_to_another_play_is_reused():
    found = turn(["R5 * R7", "B9 B10 B11"], "R6 O1", ["R5 R6 R7", "B9 B10 B11 *"], "O1")
    assert "joker-reuse" in found
    assert "fixed-joker-swap" not in found


def test_a_joker_left_in_its_play_is_not_reused():
    found = turn(["R5 * R7", "B9 B10 B11"], "R8 O1", ["R5 * R7 R8", "B9 B10 B11"], "O1")
    assert "joker-reuse" not in found


def test_a_fixed_joker_freed_from_the_rack():
    found = turn(["R5 *=R6 R7", "B9 B10 B11"], "R6 O1", ["R5 R6 R7", "B9 B10 B11 *=B12"], "O1", rules="rummikub")
    assert "fixed-joker-swap" in found
    assert "joker-reuse" not in found  # a fixed joker's swap is its own theme


def test_a_tile_that_fits_the_table_kept_in_the_rack_is_a_sacrifice():
    found = turn(["R1 R2 R3", "B5 B6 B7"], "R4 K7 K8 K9", ["R1 R2 R3", "B5 B6 B7", "K7 K8 K9"], "R4")
    assert "sacrifice" in found


def test_a_kept_tile_that_fits_nowhere_is_no_sacrifice():
    found = turn(["R1 R2 R3", "B5 B6 B7"], "O11 K7 K8 K9", ["R1 R2 R3", "B5 B6 B7", "K7 K8 K9"], "O11")
    assert "sacrifice" not in found


def test_going_out_is_a_theme_of_max_but_never_of_play_all():
    args = (["R1 R2 R3"], "R4 R5", ["R1 R2 R3 R4 R5"], "")
    assert "going-out" in turn(*args, kind="max")
    assert "going-out" not in turn(*args, kind="play-all")
    assert "going-out" not in turn(["R1 R2 R3"], "R4 R9", ["R1 R2 R3 R4"], "R9", kind="max")
