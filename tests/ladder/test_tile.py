"""Tile rummy's human-like players (rummy.ladder.tile): extend, split-and-swap, rearrange-three, lookahead.

On seeded random small positions (flexible and fixed jokers, jokers on the
table and in the rack, melded and unmelded movers) every rung's turn is legal,
never beats the solver's optimum, and the rungs are cumulative; hand-made
positions show what each rung reaches and what it does not.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from rummy.answer import best
from rummy.cards import JOKER, Card
from rummy.checker import check
from rummy.generator.tile_deal import DealShape, deal, position_of, with_extra
from rummy.ladder import Effort, climb, ladder_of, ladder_tier, solving_rung
from rummy.ladder.tile import LADDER
from rummy.ladder.tile_moves import TileGame, decode, encode
from rummy.plays import Play, readings, settled_stand_ins
from rummy.position import Position
from rummy.rules import preset
from rummy.solution import SolverConfig
from rummy.vocabulary import Tier
from tests.support.random_positions import random_tiles

CONFIG = SolverConfig(time_limit=20.0, workers=1)
EFFORT = Effort(states=3_000)


def position(table: list[str], hand: str, rules: str = "rummikub-lenient", melded: bool = True) -> Position:
    return Position.from_data({
        "rules": rules, "to_move": "ann", "phase": "play", "table": table,
        "players": {"ann": {"side": "ann", "melded": melded, "hand": hand},
                    "bob": {"side": "bob", "melded": True, "hand_count": 5}},
        "piles": {"discard": "", "stock": 40},
    })


def gains(before: Position, effort: Effort = EFFORT) -> list[Fraction | None]:
    return [found.gain for found in climb(before, None, effort)]


def optimum(before: Position) -> Fraction:
    return Fraction(best(before, CONFIG).solution.gain)


def _pin_jokers(play: Play, rules) -> Play:
    """A fixed joker says what it stands for where its play leaves it open (as the reader demands)."""
    if not any(c.is_joker for c in play.cards) or settled_stand_ins(play.cards, rules) is not None:
        return play
    stands = iter(readings(play.cards, rules)[0].joker_stand_ins())
    return Play(tuple(c.with_stand_in(next(stands)) if c.is_joker else c for c in play.cards))


PRESETS = ("rummikub-lenient", "rummikub", "tiles50", "yourturnmyturn")


def random_position(seed: int) -> Position:
    """Half random_tiles' deals, half the generator's deals backwards from an answer (racks that play),
    under every tile preset (fixed and flexible jokers); some with a joker in the rack, some unmelded
    movers (with a threshold their racks can reach)."""
    rng = random.Random(9_000 + seed)
    rules = preset(PRESETS[seed % len(PRESETS)])
    if seed % 2:
        dealt = None
        while dealt is None:
            dealt = deal(rng, rules, DealShape(plays=(3, 5), window=(5, 7), rack=(2, 5), jokers=(0, 2)))
        if rng.random() < 0.4:
            dealt = with_extra(rng, rules, dealt, 1)
        before = position_of(rules, dealt, rng)
    else:
        before = random_tiles(seed, max_table_plays=3, rack_size=(3, 6))
        before = replace(before, rules=rules, table=tuple(_pin_jokers(p, rules) for p in before.table))
    jokers_seen = sum(1 for c in before.known_cards() if c.is_joker)
    mover = before.mover
    if rng.random() < 0.3 and jokers_seen < before.rules.jokers and mover.hand:
        before = before.replace_player(replace(mover, hand=mover.hand[1:] + (JOKER,)))
    if seed % 4 in (0, 3):  # the first plays of an unmelded mover, who holds a run of three
        unseen = before.unseen_cards()
        runs = [tuple(Card(r + k, suit) for k in range(3)) for suit in "SHDC" for r in range(1, 12)
                if all(unseen[Card(r + k, suit)] for k in range(3))]
        hand = (before.mover.hand or ()) + rng.choice(runs)
        before = replace(before, rules=before.rules.with_options({"initial_meld": rng.choice((6, 15, 25))}))
        before = before.replace_player(replace(before.mover, melded=False, hand=hand))
    return before


@pytest.mark.parametrize("seed", range(36))
def test_every_rung_plays_legal_turns_within_the_optimum_cumulatively(seed: int) -> None:
    before = random_position(seed)
    best_gain = optimum(before)
    found = climb(before, None, EFFORT)
    assert [f.rung for f in found] == [r.name for r in LADDER]
    previous = Fraction(-1)
    for step, rung in zip(found, LADDER):
        if step.after is not None:
            verdict = check(before, step.after)
            assert verdict.legal, (rung.name, before.to_toml(), step.after.to_toml(), verdict.breaches)
            assert step.gain is not None and step.gain <= best_gain, (rung.name, step.gain, best_gain, before.to_toml())
            assert step.gain >= previous
            previous = step.gain
        # A rung's own best proposal is a legal turn (the ladder does not have to throw it away).
        proposals = list(rung.turns(before, EFFORT))
        if proposals:
            assert check(before, proposals[0]).legal, (rung.name, before.to_toml(), proposals[0].to_toml())
    if not before.mover.melded:  # the table is never touched before the initial meld
        for step in found:
            if step.after is not None and step.gain:
                assert list(step.after.table[:len(before.table)]) == list(before.table)


def test_random_positions_are_varied() -> None:
    positions = [random_position(seed) for seed in range(36)]
    assert {p.rules.name for p in positions} >= {"rummikub", "tiles50", "rummikub-lenient", "yourturnmyturn"}
    assert any(any(c.is_joker for play in p.table for c in play.cards) for p in positions)
    assert any(any(c.is_joker for c in p.mover.hand or ()) for p in positions)
    assert any(not p.mover.melded for p in positions)


# ------------------------------------------------------------------ each rung's reach
def test_extend_adds_to_run_ends_and_group_colours_and_lays_new_plays() -> None:
    before = position(["R5 R6 R7", "K9 O9 B9"], "R8 R4 R9 K2 K3 K4")
    assert gains(before) == [6, 6, 6, 6]
    assert ladder_tier(before, 6, EFFORT) == Tier.EASY


def test_split_and_swap_inserts_a_tile_by_splitting_a_run() -> None:
    before = position(["R3 R4 R5 R6 R7"], "R5")
    assert optimum(before) == 1
    assert gains(before) == [0, 1, 1, 1]
    assert ladder_tier(before, 1, EFFORT) == Tier.MEDIUM


def test_split_and_swap_frees_a_fixed_joker_with_the_tile_it_stands_for() -> None:
    before = position(["R5 *=R6 R7"], "R6 K9 K10", rules="rummikub")
    assert optimum(before) == 3
    found = climb(before, None, EFFORT)
    assert [f.gain for f in found] == [0, 3, 3, 3]
    assert found[1].after is not None and found[1].after.mover.hand == ()


def test_split_and_swap_takes_an_end_tile_to_make_a_new_play() -> None:
    before = position(["R4 R5 R6 R7", "O2 O3 O4 O5"], "B4 K4")
    assert gains(before) == [0, 2, 2, 2]


def test_rearrange_two_turns_two_runs_into_groups() -> None:
    before = position(["R3 R4 R5", "O3 O4 O5"], "B3 B4 K5")
    assert optimum(before) == 3
    assert gains(before) == [0, 0, 3, 3]
    assert ladder_tier(before, 3, EFFORT) == Tier.MEDIUM


def test_rearrange_three_solves_a_crossing_of_three_plays() -> None:
    before = position(["R3 R4 R5", "O3 O4 O5", "B3 B4 B5"], "K3 K4")
    assert optimum(before) == 2
    assert gains(before) == [0, 0, 2, 2]
    assert ladder_tier(before, 2, EFFORT) == Tier.MEDIUM


def test_two_different_switches_are_the_lookaheads() -> None:
    """Runs into groups at 3-4, groups into runs at 4-6: one pool of three plays undoes one; lookahead both."""
    before = position(["K4 R4 B4", "K5 R5 B5", "K6 R6 B6", "R9 R10 R11", "O9 O10 O11", "B9 B10 B11"],
                      "K7 R3 K9 K10")
    assert optimum(before) == 4
    assert gains(before) == [0, 0, 2, 4]
    assert ladder_tier(before, 4, EFFORT) == Tier.HARD


def test_three_switches_are_beyond_every_rung() -> None:
    before = position(["R1 R2 R3", "O1 O2 O3", "B1 B2 B3", "R6 R7 R8", "O6 O7 O8", "B6 B7 B8",
                       "R11 R12 R13", "O11 O12 O13", "B11 B12 B13"], "K1 K2 K7 K8 K11 K12")
    assert optimum(before) == 6
    assert gains(before) == [0, 0, 2, 4]
    assert solving_rung(climb(before, 6, EFFORT), 6) is None
    assert ladder_tier(before, 6, EFFORT) == Tier.EXPERT


def test_lookahead_frees_a_joker_and_lays_it_in_its_second_switch() -> None:
    """K12 frees the joker of K9 K10 K11 *; the joker then completes R4 O4 * of a second switch."""
    before = position(["R3 R4 R5", "O3 O4 O5", "K9 K10 K11 *", "R9 R10 R11", "O9 O10 O11", "B9 B10 B11"],
                      "K12 B3 B5 K9 K10")
    best_gain = optimum(before)
    found = climb(before, None, EFFORT)
    assert found[-1].gain == best_gain
    assert found[-1].after is not None and check(before, found[-1].after).legal


def test_the_lookahead_budget_is_counts() -> None:
    """Fewer pools: the same position is out of reach (the effort is counts, never the clock)."""
    from rummy.ladder.tile_lookahead import Lookahead, LookaheadBudget
    before = position(["K4 R4 B4", "K5 R5 B5", "K6 R6 B6", "R9 R10 R11", "O9 O10 O11", "B9 B10 B11"],
                      "K7 R3 K9 K10")

    class Small(Lookahead):
        budget = LookaheadBudget(second_pools=0)

    best = max((_gain(before, after) for after in Small().turns(before, EFFORT)), default=0)
    assert best == 2


def _gain(before: Position, after: Position) -> Fraction:
    return Fraction(before.rules.family.turn_gain(before, after))


def test_the_initial_meld_is_new_plays_of_rack_tiles_worth_the_threshold() -> None:
    before = position(["R5 R6 R7"], "R8 K10 O10 B10 K1 K2 K3", melded=False)
    found = climb(before, None, EFFORT)
    assert [f.gain for f in found] == [6, 6, 6, 6]  # the tens (30) and K1 K2 K3; R8 may not join the table's run yet
    after = found[0].after
    assert after is not None and after.table[0] == before.table[0] and len(after.table) == 3
    assert after.mover.hand == (Card(8, "H"),)
    small = position(["R5 R6 R7"], "R8 K1 K2 K3 O9", melded=False)
    assert gains(small) == [0, 0, 0, 0]  # K1 K2 K3 is worth 6 of the 30 needed


def test_at_most_max_cards_per_turn() -> None:
    before = position(["R5 R6 R7"], "R8 R9 R10 K1 K2 K3", rules="rummikub-lenient")
    assert gains(before)[0] == 6
    capped = position(["R5 R6 R7"], "R8 R9 R10 K1 K2 K3", rules="yourturnmyturn")
    capped = replace(capped, rules=capped.rules.with_options({"max_cards_per_turn": 4}))
    assert gains(capped) == [4, 4, 4, 4]


def test_the_search_is_bounded_by_the_effort() -> None:
    before = position(["R3 R4 R5 R6 R7"], "R5 K1 K2 K3")
    # Only the position itself: nothing played; lookahead's switches have counts of their own (LookaheadBudget).
    assert gains(before, Effort(states=1)) == [0, 0, 0, 1]
    assert gains(before, Effort(states=200)) == [3, 4, 4, 4]


def test_tile_codes_read_back() -> None:
    game = TileGame(position(["R5 *=R6 R7"], "R6", rules="rummikub"))
    assert sorted(game.start.table[0]) == sorted((encode(Card(5, "H")), encode(Card(7, "H")), 64 + encode(Card(6, "H"))))
    assert [decode(t) for t in game.start.table[0]] == [Card(5, "H"), Card(7, "H"), Card.joker(Card(6, "H"))]
    assert game.locked(game.start.table[0])
    assert not TileGame(position(["R5 * R7"], "R6")).locked(game.start.table[0])  # flexible jokers lock nothing


def test_the_ladder_is_the_families() -> None:
    rungs = ladder_of(position([], "R1"))
    assert [r.name for r in rungs] == ["extend", "split-and-swap", "rearrange-three", "lookahead"]
    assert [r.tier for r in rungs] == [Tier.EASY, Tier.MEDIUM, Tier.MEDIUM, Tier.HARD]
    assert [r.greedy for r in rungs] == [True, True, False, False]


def test_a_fixed_joker_of_a_book_of_three_reads_as_either_missing_colour() -> None:
    # R7 O7 * : the joker is B7 or K7 (rules.md §6); B7 from the rack makes it the K7 of a book of four.
    before = position(["R7 O7 *"], "B7", rules="rummikub")
    found = climb(before, None, EFFORT)
    assert [f.gain for f in found] == [1, 1, 1, 1]
    assert found[0].after is not None and check(before, found[0].after).legal


def test_a_fixed_joker_said_to_stand_for_one_colour_is_freed_by_that_tile_only() -> None:
    # *=B6 is written: O6 does not free it (it would in an unwritten K6 R6 *), B6 does.
    before = position(["K6 R6 *=B6", "B1 B2 B3"], "O6 O1 O2", rules="rummikub")
    for rung in LADDER:
        for after in list(rung.turns(before, EFFORT))[:5]:
            assert check(before, after).legal, (rung.name, after.to_toml())
    assert gains(before) == [1, 1, 1, 1]  # O6 joins the book; the joker stays
    open_joker = position(["K6 R6 *", "B1 B2 B3"], "O6 O1 O2", rules="rummikub")
    assert gains(open_joker) == [1, 3, 3, 3]  # O6 frees it, and O1 O2 * is a new play


@pytest.mark.parametrize("rules", ["rummikub", "tiles50"])
def test_a_freed_joker_goes_into_a_new_play_of_rack_tiles_under_tiles50(rules: str) -> None:
    # R12 frees the joker, which makes B1 B2 * with rack tiles; B4 taken off the run may then join
    # that play under rummikub, never under tiles50 (freed_joker_new_play_only). The second position
    # is one where split-and-swap's best proposals once did (B1 B2 * B4 with the freed joker).
    before = position(["R10 R11 *=R12", "B4 B5 B6 B7"], "R12 B1 B2", rules=rules)
    assert gains(before) == [0, 3, 3, 3]
    found = position(["* R10 R11 R12 R13", "K4 R4 O4 B4", "B4 B5 B6 B7 B8"], "B2 K3 K8 B1 R8 R9", rules=rules)
    for start in (before, found):
        for rung in LADDER:
            for after in list(rung.turns(start, EFFORT))[:8]:
                assert check(start, after).legal, (rung.name, after.to_toml())

