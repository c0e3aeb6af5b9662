"""Issue 28's proof levers for House (house/cuts, house/paid_total, house/redundant, house/branching): rows and strategies that
must never change the best turn, only how fast it is proven.

Every answer is judged by the checker; the optimum is the brute-force oracle's on small positions and the
model's without the levers on larger ones.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rummy.model.house import _branch_model, branching, cuts, paid_total, redundant, solve_house
from rummy.model.house.context import build_context
from rummy.model.house.replacement import replacement_options
from rummy.model.house.state import HouseModel
from rummy.position import Position
from rummy.solution import Solution, SolverConfig
from tests.support.judged import judged
from tests.support.oracle import brute_force_gain
from tests.support.random_positions import random_house

CONFIG = SolverConfig(time_limit=60, workers=1)
LEVERS = (cuts, paid_total, redundant, branching)
Switch = Callable[[bool], None]


@pytest.fixture
def switch(monkeypatch: pytest.MonkeyPatch) -> Switch:
    """A function turning every lever on or off for the rest of the test."""
    def set_levers(on: bool) -> None:
        for lever in LEVERS:
            monkeypatch.setattr(lever, "ENABLED", on)
        monkeypatch.setattr(paid_total, "MELDED_TOO", on)  # valid in both branches, though kept for one
    return set_levers


def solved(position: Position) -> Solution:
    return judged(position, solve_house(position, CONFIG))


def model_of(text: str) -> HouseModel:
    ctx = build_context(Position.from_toml(text))
    m = _branch_model(ctx, replacement_options(ctx), ())
    assert m is not None
    return m


@pytest.mark.parametrize("seed", range(40))
def test_with_every_lever_the_answer_is_the_oracles_best(seed: int, switch: Switch) -> None:
    position = random_house(seed)
    switch(True)
    answer = solved(position)
    expected = brute_force_gain(position)
    if expected is None:
        assert answer.status == "no-legal-turn"
        return
    assert answer.status == "optimal"
    assert answer.gain == pytest.approx(float(expected))  # Epic's bonus makes fractions; the answer says floats


@pytest.mark.parametrize("seed", range(40))
def test_the_levers_keep_the_optimum_on_larger_positions(seed: int, switch: Switch) -> None:
    position = random_house(seed, max_table_plays=5, hand_size=(5, 9))
    switch(False)
    without = solved(position)
    switch(True)
    with_levers = solved(position)
    assert (with_levers.status, with_levers.gain) == (without.status, without.gain)


FOUR_SEVENS = """
rules = "house-classic"
hand_number = 2
to_move = "ann"
phase = "play"
[players.ann]
side = "ann"
melded = true
hand = "7S 7H 7D 7C 2S 9D"
space = ["JS QS KS"]
[players.bob]
side = "bob"
melded = true
hand_count = 4
space = ["4D 5D 6D"]
[piles]
discard = ""
stock = 23
"""


def test_books_of_one_rank_that_meet_pairwise_share_one_row(switch: Switch) -> None:
    switch(True)
    m = model_of(FOUR_SEVENS)
    sevens = [b for b in m.books if m.slot(b.slots[0]).card.rank == 7]
    book_vars = {b.var.index for b in sevens}
    rows = [set(c.at_most_one.literals) for c in m.model.proto.constraints]
    rows_of_books = [row for row in rows if row and row <= book_vars]
    # 7S 7H 7D 7C make four books of three and one of four; no card lies in all five.
    assert any(len(row) >= 5 for row in rows_of_books), rows_of_books


def test_going_out_is_counted_and_twin_jokers_are_ordered(switch: Switch) -> None:
    switch(False)
    twins = model_of(FOUR_SEVENS.replace("2S 9D", "* *"))
    no_jokers = model_of(FOUR_SEVENS)
    switch(True)
    # One row counting the cards on the table when going out; one ordering the two hand jokers.
    assert redundant.add_redundant(twins) == 2
    assert redundant.add_redundant(no_jokers) == 1


def test_the_decisions_begin_with_going_out(switch: Switch) -> None:
    switch(True)
    m = model_of(FOUR_SEVENS)
    assert m.goes_out is not None
    assert branching.decision_literals(m)[0].index == m.goes_out.index


def test_the_paid_total_is_added_where_a_card_may_be_stolen(switch: Switch) -> None:
    unmelded = FOUR_SEVENS.replace('melded = true\nhand = "7S 7H 7D 7C 2S 9D"', 'melded = false\nhand = "7S 7H 7D 9H"')
    switch(False)
    may_steal = model_of(unmelded.replace('space = ["4D 5D 6D"]', 'space = ["10H JH QH KH"]'))
    nothing_to_steal = model_of(unmelded.replace('space = ["4D 5D 6D"]', "space = []"))
    assert may_steal.melding and nothing_to_steal.melding
    switch(True)
    assert paid_total.add_paid_total(may_steal)
    assert not paid_total.add_paid_total(nothing_to_steal)
