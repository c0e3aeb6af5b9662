"""Lay-off rummy's human-like players (rummy.ladder.layoff): lay-off, best-meld, keep-for-layoff, lookahead.

On seeded random small positions (rule variations with jokers, several
melds a turn, lay-offs only after a meld, keep one to discard, warm cards;
melded and unmelded movers) every rung's turn is legal, never beats the
solver's optimum, the rungs are cumulative, and lookahead, a search of the
whole turn within its budget, reaches the optimum. The greedy rungs do at
least as well as the simple greedy players of tests/ladder/greedy_players.py.
Hand-made positions show what each rung reaches and what it does not.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from rummy.answer import best
from rummy.cards import JOKER, Card
from rummy.checker import check
from rummy.ladder import Effort, best_found, climb, ladder_of, ladder_tier, solving_rung
from rummy.ladder.layoff import LADDER
from rummy.position import Position
from rummy.solution import SolverConfig
from rummy.vocabulary import Status, Tier
from tests.ladder.greedy_players import LAYOFF_PLAYERS
from tests.support.random_positions import LAYOFF_VARIATIONS, random_layoff_position

CONFIG = SolverConfig(time_limit=20.0, workers=1)


def position(players: dict, rules="traditional", to_move: str = "cat") -> Position:
    return Position.from_data({"rules": rules, "to_move": to_move, "players": players,
                               "piles": {"discard": "9H", "stock": 20}})


DEFAULT_EFFORT = Effort()


def gains(before: Position, effort: Effort = DEFAULT_EFFORT) -> list[Fraction | None]:
    return [found.gain for found in climb(before, None, effort)]


def optimum(before: Position) -> Fraction | None:
    solution = best(before, CONFIG).solution
    if solution.status == Status.NO_LEGAL_TURN:
        return None
    assert solution.status == Status.OPTIMAL
    return Fraction(solution.gain)


def random_layoff(seed: int) -> Position:
    rng = random.Random(7_000 + seed)
    rules = LAYOFF_VARIATIONS[seed % len(LAYOFF_VARIATIONS)]
    before = random_layoff_position(rng, rules, hand_size=rng.randint(3, 8), plays=rng.randint(1, 4), small=seed % 2 == 0)
    mover = before.mover
    if before.rules.jokers and mover.hand and rng.random() < 0.7:  # a joker (or two) in the hand
        jokers = (JOKER,) * rng.randint(1, before.rules.jokers)
        before = before.replace_player(replace(mover, hand=mover.hand[len(jokers) - 1:] + jokers))
    return before


@pytest.mark.parametrize("seed", range(40))
def test_every_rung_plays_legal_turns_within_the_optimum_cumulatively(seed: int) -> None:
    before = random_layoff(seed)
    best_gain = optimum(before)
    found = climb(before, None)
    assert [f.rung for f in found] == [r.name for r in LADDER]
    previous = Fraction(-1)
    for step, rung in zip(found, LADDER):
        if step.after is None:
            continue
        verdict = check(before, step.after)
        assert verdict.legal, (rung.name, before.to_toml(), step.after.to_toml(), verdict.breaches)
        assert best_gain is not None and step.gain is not None and step.gain <= best_gain, (rung.name, before.to_toml())
        assert step.gain >= previous
        previous = step.gain
        proposals = list(rung.turns(before, Effort()))
        assert proposals and check(before, proposals[0]).legal, (rung.name, before.to_toml())
    # lookahead searches the whole turn: it finds the optimum (or, like the solver, no legal turn).
    assert found[-1].gain == best_gain, before.to_toml()


def test_random_positions_are_varied() -> None:
    positions = [random_layoff(seed) for seed in range(40)]
    assert any(p.rules.jokers and any(c.is_joker for c in p.mover.hand) for p in positions)
    assert any(p.mover.warm for p in positions)
    assert any(not p.mover.melded for p in positions) and any(p.mover.melded for p in positions)
    assert any(p.rules.keep_one_to_discard for p in positions) and any(p.rules.layoff_needs_meld for p in positions)


# ------------------------------------------------------------------ each rung's reach
def test_lay_off_lays_off_melds_and_discards_the_costliest() -> None:
    before = position({"bob": {"hand_count": 5, "space": ["9D 10D JD"]}, "cat": {"hand": "QD 4C 5C 6C 2H"}})
    assert gains(before) == [10 + 15 + 2, 27, 27, 27]
    assert ladder_tier(before, 27) == Tier.EASY
    after = climb(before, None)[0].after
    assert after is not None and after.mover.hand == () and after.turn is not None and after.turn.discard == Card(2, "H")


def test_best_meld_melds_three_of_a_run_of_four_to_keep_one_to_discard() -> None:
    # The biggest meld is the whole hand, which keep_one_to_discard forbids; a run of three is not.
    before = position({"bob": {"hand_count": 5}, "cat": {"hand": "5H 6H 7H 8H"}},
                      rules={"preset": "traditional", "keep_one_to_discard": True})
    assert optimum(before) == 26
    assert gains(before) == [8, 26, 26, 26]
    assert ladder_tier(before, 26) == Tier.MEDIUM


def test_keep_for_layoff_keeps_a_card_to_discard_when_the_rest_is_warm() -> None:
    # Laying off 4C leaves only the warm 9S, which may not be discarded: 4C is taken back and discarded.
    before = position({"bob": {"hand_count": 5, "space": ["5C 6C 7C"]}, "cat": {"hand": "4C 9S", "warm": "9S"}})
    assert optimum(before) == 4
    assert gains(before) == [None, None, 4, 4]
    assert ladder_tier(before, 4) == Tier.MEDIUM


def test_lookahead_lays_the_joker_off_as_the_missing_card_rather_than_in_the_meld() -> None:
    # Lay-offs wait for a meld. Every greedy player melds the joker into its run (* 8C 9C 10C, the biggest
    # and richest meld) and strands 6H; the 5H is on bob's book, so only a joker lets 6H follow AH-4H.
    rules = {"preset": "straight", "jokers": 2, "layoff_needs_meld": True}
    before = position({"bob": {"hand_count": 5, "space": ["AH 2H 3H 4H", "5S 5H 5D", "KS KH KD KC"]},
                       "cat": {"hand": "6H 8C * 9C 10C QD 4S"}}, rules)
    assert optimum(before) == 27 + 15 + 6 + 10
    assert gains(before) == [52, 52, 52, 58]
    assert ladder_tier(before, 58) == Tier.HARD
    for player in LAYOFF_PLAYERS:
        for order in range(8):
            after = player(before, random.Random(order))
            assert after is None or before.rules.family.turn_gain(before, after) < 58, player.__name__


def test_beyond_the_effort_no_rung_reaches_the_optimum() -> None:
    before = position({"bob": {"hand_count": 5, "space": ["5C 6C 7C", "9D 10D JD"]}, "cat": {"hand": "4C 8C QD KD 2S"}})
    assert optimum(before) == 4 + 8 + 10 + 10 + 2
    little = Effort(states=2)
    assert all(g is None or g < 34 for g in gains(before, little))
    assert solving_rung(climb(before, 34, little), 34) is None
    assert ladder_tier(before, 34, little) == Tier.EXPERT
    assert gains(before) == [34, 34, 34, 34]


def test_layoff_needs_meld_and_plays_per_turn_are_kept() -> None:
    rules = {"preset": "traditional", "layoff_needs_meld": True}
    before = position({"bob": {"hand_count": 5, "space": ["9D 10D JD"]}, "cat": {"hand": "QD 2C 3S"}}, rules)
    assert gains(before) == [10, 10, 10, 10]  # only the discard: no meld, so no lay-off
    two = position({"bob": {"hand_count": 5}, "cat": {"hand": "4C 5C 6C KS KD KH 2D"}})
    assert gains(two) == [30 + 6 + 2 - 2, 36, 36, 36]  # one meld (the kings), the 6C discarded


def test_the_ladder_is_the_families() -> None:
    rungs = ladder_of(position({"bob": {"hand_count": 5}, "cat": {"hand": "2C"}}))
    assert [r.name for r in rungs] == ["lay-off", "best-meld", "keep-for-layoff", "lookahead"]
    assert [r.tier for r in rungs] == [Tier.EASY, Tier.MEDIUM, Tier.MEDIUM, Tier.HARD]
    assert [r.greedy for r in rungs] == [True, True, False, False]


def test_lay_offs_on_a_play_holding_a_joker() -> None:
    rules = {"preset": "traditional", "jokers": 2}
    before = position({"bob": {"hand_count": 5, "space": ["5H * 7H"]}, "cat": {"hand": "8H 4H 6H KS"}}, rules)
    assert optimum(before) == 8 + 4 + 6 + 10
    assert gains(before) == [28, 28, 28, 28]


def test_lay_off_lays_off_a_card_the_meld_needs_best_meld_melds_it() -> None:
    # 7H fits bob's run: the greedy player lays it off first and is left with 7S 7D and the king;
    # best-meld melds the three sevens and discards the king.
    before = position({"bob": {"hand_count": 5, "space": ["4H 5H 6H"]}, "cat": {"hand": "7H 7S 7D KC"}})
    assert optimum(before) == 31
    assert gains(before) == [7 + 10, 31, 31, 31]
    assert ladder_tier(before, 31) == Tier.MEDIUM


def test_temperatures_are_read_as_the_checker_reads_them() -> None:
    """Of two copies held with one hot, one must be played and the other may be discarded; a card
    may not be discarded when every copy held is warm (rules.md §4, checker/extend.py)."""
    from rummy.ladder.moves import Temperatures

    two_one_hot = Temperatures(["7H", "7H", "KS"], hot=["7H"], warm=[])
    assert two_one_hot.hot_left_unplayed(["7H", "7H"])
    assert not two_one_hot.hot_left_unplayed(["7H"])
    assert two_one_hot.discardable("7H") and two_one_hot.discardable("KS")
    one_hot = Temperatures(["7H", "KS"], hot=["7H"], warm=[])
    assert one_hot.hot_left_unplayed(["7H"]) and not one_hot.discardable("7H")
    warm = Temperatures(["QD", "QD"], hot=[], warm=["QD"])
    assert warm.discardable("QD")
    assert not Temperatures(["QD"], hot=[], warm=["QD"]).discardable("QD")


# ------------------------------------------------------------------ the simple greedy players
@pytest.mark.parametrize("seed", range(0, 120, 3))
def test_the_greedy_rungs_do_at_least_as_well_as_every_simple_greedy_player(seed: int) -> None:
    """best-meld searches every order of the greedy players' moves (lay-offs anywhere; the biggest meld,
    the richest, the biggest holding a card that fits nowhere), so no one-order player beats it."""
    before = random_layoff(seed)
    found = None
    for rung in LADDER:
        found = best_found(rung, before, Effort(), found)
        if rung.name == "best-meld":
            break
    assert found is not None
    for player in LAYOFF_PLAYERS:
        for order in range(4):
            after = player(before, random.Random(seed * 100 + order))
            if after is None:
                continue
            verdict = check(before, after)
            assert verdict.legal, (player.__name__, before.to_toml(), verdict.breaches)
            gain = before.rules.family.turn_gain(before, after)
            assert found.gain is not None and gain <= found.gain, (player.__name__, before.to_toml())
