"""The checker on fixed jokers (rules.md §6, "Fixed jokers, in end-state form"): one reading for every rule.

In an end state the two copies of a tile cannot be told apart, nor the two
jokers. The checker reads which is which, and the turn is legal when one
reading keeps every rule at once. It once judged the joker lock and "a
freed joker only in a new play of hand tiles" each with a reading of its
own (the table's copy of K6 in the locked play for the one, the rack's copy
of K6 in the freed joker's play for the other, though the play held only
one K6), let two new plays share one rack copy, let two locked plays share
one table copy, took a kept table joker for a hand tile, and matched the
freeing tiles to jokers greedily. Here, each of those: the turn refused
with its breach code, and turns close to it that rules.md allows, accepted.
"""

from __future__ import annotations

import pytest

from rummy.checker import check
from rummy.solution import SolverConfig
from tests.support.judged import judged_best
from tests.support.oracle import brute_force_gain
from tests.support.two_jokers import position

CONFIG = SolverConfig(time_limit=30.0, workers=1)

TILES50_LOOSE = '{ preset = "tiles50", joker_locks_play = false, joker_replace_from_hand = false }'
RUMMIKUB_LOOSE = '{ preset = "rummikub", joker_locks_play = false }'


def verdict(rules: str, table: list[str], hand: str, after_table: list[str], after_hand: str = ""):
    return check(position(rules, table, hand), position(rules, after_table, after_hand))


def assert_legal(*turn) -> None:
    result = verdict(*turn)
    assert result.legal, result.breaches


def assert_refused(code: str, *turn) -> None:
    result = verdict(*turn)
    assert not result.legal
    assert set(result.codes) == {code}, result.breaches


# ------------------------------------------------------------------ the lock and the new play, one copy of a tile
LOCKED_K = ["*=K5 K6 *=K7"]
LOCKED_K_HAND = "K5 O6 R6 B6 K6"


@pytest.mark.parametrize("after_table", [
    ["*=K4 K5 K6 *=K7", "K6 R6 O6 B6"],
    ["K5 K6 *=K7 *=K8", "K6 R6 O6 B6"],
])
def test_tiles50_a_freed_joker_cannot_share_a_play_with_the_locked_plays_tile(after_table) -> None:
    # *=K7 is kept, so K6 (the table's) stays with it; K5 frees *=K5, which may only go into a
    # new play of rack tiles. The one play holding both jokers holds one K6: the table's (and
    # the kept joker, a table tile too).
    assert_refused("freed-joker-misused", "tiles50", LOCKED_K, LOCKED_K_HAND, after_table)
    assert set(verdict("tiles50", LOCKED_K, LOCKED_K_HAND, after_table).breaches[0].cards) == {"*", "K6"}
    # Without the new-play rule, the same turn keeps the lock: the freed joker stays in its play.
    assert_legal("rummikub", LOCKED_K, LOCKED_K_HAND, after_table)


def test_tiles50_the_locked_play_may_stay_while_a_rack_copy_makes_a_new_play() -> None:
    # The table's K6 stays in the locked play, the rack's K6 goes into the new book.
    assert_legal("tiles50", LOCKED_K, LOCKED_K_HAND, ["*=K5 K6 *=K7", "K6 R6 O6 B6"], "K5")


def test_tiles50_a_locked_book_and_a_new_run_one_copy_of_r6() -> None:
    table, hand = ["R6 *=O6 *=B6"], "R4 R7 R5 R6 R7 B6"
    # B6 frees *=B6; *=O6 is kept, so R6 (the table's) stays with it, and so does the freed joker.
    after = ["R6 B6 *=O6 *=K6", "R4 R5 R6 R7"]
    assert_refused("freed-joker-misused", "tiles50", table, hand, after, "R7")
    assert_legal("rummikub", table, hand, after, "R7")
    # The locked book untouched and the rack's tiles in a run of their own: four tiles, legal.
    assert_legal("tiles50", table, hand, ["R6 *=O6 *=B6", "R4 R5 R6 R7"], "R7 B6")


def test_tiles50_a_freed_joker_in_a_new_play_beside_a_locked_plays_copy() -> None:
    # The table's R7 stays in the locked R5 *=R6 R7; B6 frees *=B6, which goes into R7 R8 *=R9
    # with the rack's R7: one copy each, both rules kept.
    assert_legal("tiles50", ["R5 *=R6 R7", "B5 *=B6 B7"], "B6 R7 R8",
                 ["R5 *=R6 R7", "B5 B6 B7", "R7 R8 *=R9"])


# ------------------------------------------------------------------ a kept table joker is a table card
KEPT_TABLE = ["B7 *=R7 *=O7", "B4 B5 B6"]
KEPT_HAND = "R6 O7 O8 O9"


def test_tiles50_a_kept_joker_is_a_table_tile_in_the_freed_jokers_play() -> None:
    # O7 frees *=O7; *=R7 is kept in R6 *=R7 *=R8, the play the freed joker went into.
    after = ["R6 *=R7 *=R8", "O7 O8 O9", "B4 B5 B6 B7"]
    result = verdict(TILES50_LOOSE, KEPT_TABLE, KEPT_HAND, after)
    assert result.codes == ("freed-joker-misused",)
    assert "*" in result.breaches[0].cards
    # Without the new-play rule the turn is fine.
    assert_legal(RUMMIKUB_LOOSE, KEPT_TABLE, KEPT_HAND, after)


def test_tiles50_a_freed_joker_with_rack_tiles_beside_a_kept_joker_elsewhere() -> None:
    # *=R7 kept in B7 *=R7 O7; the freed joker makes O8 O9 *=O10 with rack tiles only.
    assert_legal(TILES50_LOOSE, KEPT_TABLE, KEPT_HAND, ["B7 *=R7 O7", "O8 O9 *=O10", "B4 B5 B6"], "R6")


def test_tiles50_two_freed_jokers_may_share_a_new_play() -> None:
    # R6 and B6 free both jokers; together with the rack's K4 K5 they make a new run.
    assert_legal("tiles50", ["R5 *=R6 R7", "B5 *=B6 B7"], "R6 B6 K4 K5 K8",
                 ["R5 R6 R7", "B5 B6 B7", "K4 K5 *=K6 *=K7 K8"])


# ------------------------------------------------------------------ two new plays, one rack copy
def test_tiles50_two_new_plays_cannot_share_one_rack_copy() -> None:
    # Two K9 in the freed jokers' plays, one from the rack and one from the table's K9 K10 K11 K12.
    table = ["R5 *=R6 R7", "B5 *=B6 B7", "K9 K10 K11 K12"]
    after = ["R5 R6 R7", "B5 B6 B7", "K10 K11 K12", "K7 K8 K9 *=K10", "O9 K9 *"]
    result = verdict("tiles50", table, "R6 B6 K7 K8 K9 O9", after)
    assert result.codes == ("freed-joker-misused",)
    assert "K9" in result.breaches[0].cards
    # With both copies of K9 from the rack, legal.
    assert_legal("tiles50", table[:2], "R6 B6 K7 K8 K9 O9 K9", [p for p in after if p != "K10 K11 K12"])
    # Without the new-play rule, legal as it stands.
    assert_legal("rummikub", table, "R6 B6 K7 K8 K9 O9", after)


# ------------------------------------------------------------------ two locked plays, one table copy
def test_two_locked_plays_cannot_share_one_copy() -> None:
    # R5 *=R6 R7 and R7 R8 *=R9 keep their jokers and merge; the merged play holds one R7,
    # so one of the two R7 left its locked play.
    table = ["R5 *=R6 R7", "R7 R8 *=R9", "B7 O7 K7"]
    for rules in ("rummikub", "tiles50"):
        result = verdict(rules, table, "R10 K1", ["R5 *=R6 R7 R8 *=R9 R10", "R7 B7 O7 K7"], "K1")
        assert result.codes == ("joker-locked-play",), result.breaches
        assert result.breaches[0].cards == ("R7",)
    # The lock off, legal.
    assert_legal(RUMMIKUB_LOOSE, table, "R10 K1", ["R5 *=R6 R7 R8 *=R9 R10", "R7 B7 O7 K7"], "K1")
    # Locked plays that share no tile merge (they grow, they do not lose).
    assert_legal("rummikub", ["R5 *=R6 R7", "R8 R9 *=R10"], "R11 K1", ["R5 *=R6 R7 R8 R9 *=R10 R11"], "K1")


def test_a_locked_plays_copy_may_be_the_racks() -> None:
    # R7 from the rack joins B7 O7 K7; the locked play keeps its own R7 (copies are interchangeable).
    assert_legal("rummikub", ["R5 *=R6 R7", "B7 O7 K7"], "R7 K1", ["R5 *=R6 R7", "R7 B7 O7 K7"], "K1")
    # But the locked play may not lose its R7 to the book while the rack's fills nothing.
    assert_refused("joker-locked-play", "rummikub", ["R4 R5 *=R6 R7", "B7 O7 K7"], "K1",
                   ["R4 R5 *=R6", "R7 B7 O7 K7"], "K1")


# ------------------------------------------------------------------ which rack tile frees which joker
def test_freeing_tiles_are_matched_to_jokers() -> None:
    # *=O5 can only be freed by O5; the book's joker by K5 or O5. K5 must free the book's joker.
    table = ["R5 B5 *", "O3 O4 *=O5"]
    after = ["R5 B5 K5", "O3 O4 O5", "R1 R2 *=R3", "B1 B2 *=B3"]
    assert_legal("rummikub", table, "K5 O5 R1 R2 B1 B2", after)
    # One freeing tile for two jokers: one of them is not freed.
    assert_refused("joker-not-freed", "rummikub", ["R5 B5 *", "O2 O3 O4 *=O5"], "O5 R1 R2 B1 B2",
                   ["R5 B5 O5", "O2 O3 O4", "R1 R2 *=R3", "B1 B2 *=B3"])


# ------------------------------------------------------------------ the reading names each joker
def test_the_reading_names_each_joker_of_a_play() -> None:
    result = verdict("rummikub", ["R5 *=R6 *=R7 R8"], "R6 R7 B4 B5 B8", ["R5 R6 R7 R8", "B4 B5 *=B6 *=B7 B8"])
    assert result.legal, result.breaches
    jokers = result.reading["jokers"]
    assert jokers == {"table/1 joker 1": "freed by R6, now in table/2", "table/1 joker 2": "freed by R7, now in table/2"}


def test_the_reading_keeps_the_play_name_for_a_single_joker() -> None:
    result = verdict("rummikub", ["R5 *=R6 R7", "R8 R9 R10"], "R11 K1", ["R5 *=R6 R7 R8 R9 R10 R11"], "K1")
    assert result.reading["jokers"] == {"table/1": "kept as R6 in table/1"}


def test_one_joker_kept_one_freed_each_named() -> None:
    # R1 frees *=R1; *=R2 is kept, and the freed joker stays in its locked play (rummikub).
    result = verdict("rummikub", ["*=R1 *=R2 R3"], "R1 R4 O13 O12", ["R1 *=R2 R3 R4 *=R5"], "O13 O12")
    assert result.legal, result.breaches
    assert result.reading["jokers"] == {"table/1 joker 1": "freed by R1, now in table/1",
                                        "table/1 joker 2": "kept as R2 in table/1"}
    # The freed joker leaving the locked play breaks the lock (or, read the other way round,
    # the joker that went is not freed).
    result = verdict("rummikub", ["*=R1 *=R2 R3"], "R1 R4 O11 O12 O13", ["R1 *=R2 R3 R4", "*=O10 O11 O12 O13"])
    assert not result.legal
    assert set(result.codes) <= {"joker-locked-play", "joker-not-freed"}, result.breaches


# ------------------------------------------------------------------ the model's answers, judged by the stricter checker
@pytest.mark.parametrize("rules", ("rummikub", "tiles50", '{ preset = "rummikub", joker_replace_from_hand = false }'))
@pytest.mark.parametrize(("table", "hand"), [
    (["R5 *=R6 R7", "R7 R8 *=R9", "B7 O7 K7"], "R10 K1"),  # two locked plays, two R7
    (["R5 *=R6 R7", "R7 R8 *=R9"], "B7 O7 K7"),
    (["R5 *=R6 R7", "B7 O7 K7"], "R7 R8 K1"),  # a locked play's tile and the rack's copy
    (["R5 *=R6 R7", "B5 *=B6 B7", "K9 K10 K11 K12"], "R6 B6 K7 K8 O9"),  # two freed jokers, one K9 of the rack
    (["*=K5 K6 *=K7"], "K5 O6 R6 B6 K6"),
])
def test_best_is_the_exhaustive_search_on_these_shapes(rules: str, table: list[str], hand: str) -> None:
    """``best`` answers what the exhaustive search (judged by this checker) finds, and the checker accepts it."""
    before = position(rules, table, hand)
    solution = judged_best(before, CONFIG).solution
    assert solution.status in ("optimal", "draw")
    assert solution.gain == brute_force_gain(before), before.to_toml()
