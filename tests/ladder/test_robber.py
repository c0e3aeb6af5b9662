"""Robber Rummy's human-like players (rummy.ladder.robber): legal turns, never past the optimum,
cumulative rungs, and each rung's reach on hand-made positions."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rummy.checker import check
from rummy.generator.robber_kinds import make_steal
from rummy.ladder import Effort, Found, best_found, climb, ladder_of
from rummy.ladder.robber import LADDER
from rummy.position import Position
from rummy.rules import preset
from rummy.solution import SolverConfig
from rummy.vocabulary import Tier
from tests.ladder.greedy_players import ROBBER_PLAYERS, ROBBER_SEEDED
from tests.support.greedy_players import assert_climbed, optimum_of

ROBBER = preset("robber")
CONFIG = SolverConfig(time_limit=10, workers=1)
TOLERANCE = Fraction(1, 1_000_000)
EFFORT = Effort(states=3000, turns=500)


def position(ann: str, ann_plays: list[str], bob_plays: list[str], discard: str = "4C") -> Position:
    data = {"rules": "robber", "to_move": "ann", "phase": "play",
            "players": {"ann": {"side": "ann", "melded": bool(ann_plays), "hand": ann, "plays": ann_plays},
                        "bob": {"side": "bob", "melded": True, "hand_count": 6, "plays": bob_plays}},
            "piles": {"discard": discard, "stock": 40}}
    return Position.from_data(data)


def gains(found: list[Found]) -> list[Fraction | None]:
    return [f.gain for f in found]


def random_positions(count: int, tiers: tuple[Tier, ...] = (Tier.MEDIUM, Tier.HARD, Tier.EXPERT)) -> list[Position]:
    """Deals of ``robber_kinds.make_steal`` by fixed seeds, the tiers in turn (hard and expert: trap deals)."""
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        made = make_steal(random.Random(7000 + seed), ROBBER, tiers[seed % len(tiers)])
        seed += 1
        if made is not None:
            found.append(made)
    return found


def test_the_family_names_four_rungs_weakest_first() -> None:
    pos = position("8H 2C", [], ["5H 6H 7H"])
    rungs = ladder_of(pos)
    assert [r.name for r in rungs] == ["extend", "steal-one", "steal-chain", "lookahead"]
    assert [r.tier for r in rungs] == [Tier.EASY, Tier.MEDIUM, Tier.MEDIUM, Tier.HARD]
    assert [r.greedy for r in rungs] == [True, True, False, False]
    assert tuple(rungs) == LADDER


@pytest.mark.parametrize("index", range(32))
def test_every_rung_is_legal_cumulative_and_never_past_the_optimum(index: int) -> None:
    pos = random_positions(32)[index]
    optimum = optimum_of(pos, CONFIG)
    found = climb(pos, None, EFFORT)
    assert len(found) == 4
    previous: Fraction | None = None
    for step in found:
        assert step.after is not None and step.gain is not None
        assert check(pos, step.after).legal, step.rung
        assert step.gain <= optimum + TOLERANCE
        if previous is not None:
            assert step.gain >= previous
        previous = step.gain
    # Each rung's own proposals alone are legal too, and a stronger rung never does worse.
    alone = [best_found(rung, pos, EFFORT) for rung in LADDER]
    assert all(f.after is not None and check(pos, f.after).legal for f in alone)
    gains_alone = [f.gain for f in alone]
    assert all(g is not None for g in gains_alone)
    assert gains_alone == sorted(gains_alone)  # type: ignore[type-var]


def test_extend_solves_a_position_of_ones_own_plays() -> None:
    pos = position("8H 9H 2C", ["5H 6H 7H"], ["KS KD KC"])
    assert_climbed(pos, 0, CONFIG, EFFORT, Tier.EASY)


def test_only_steal_one_takes_an_opponents_play() -> None:
    pos = position("8H 2C", ["KS KD KC"], ["5H 6H 7H"])
    assert_climbed(pos, 1, CONFIG, EFFORT, Tier.MEDIUM)


# A trap (generator/robber_traps.py): 9H fits bob's 5H-8H (B) and his 10H JH QH (A), where it gains more
# now (135 against 95: A is the bigger play, the best steal and the best run for it). On B it lets the
# second 10H and JH follow (155).
HEARTS_TRAP = (["9H", "10H", "JH"], ["5H 6H 7H 8H", "10H JH QH"])
SPADES_TRAP = (["8S", "9S", "10S"], ["4S 5S 6S 7S", "9S 10S JS"])
CLUBS_TRAP = (["JC", "QC", "KC"], ["7C 8C 9C 10C", "QC KC AC"])
DIAMONDS_TRAP = (["10D", "JD", "QD"], ["6D 7D 8D 9D", "JD QD KD"])


def trapped(*traps: tuple[list[str], list[str]], dead: str = "2C", b_first: bool = False) -> Position:
    hand = [card for cards, _ in traps for card in cards] + dead.split()
    plays = [play for _, (b, a) in traps for play in ((b, a) if b_first else (a, b))]
    return position(" ".join(hand), [], plays)


def test_only_steal_chain_puts_one_card_below_its_best_place_for_the_chain() -> None:
    assert_climbed(trapped(HEARTS_TRAP), 2, CONFIG, EFFORT, Tier.MEDIUM)


def test_a_first_fit_player_finds_a_trap_whose_run_comes_first_so_steal_one_does() -> None:
    # The same trap with B first in table order: the first play 9H fits is the right one.
    assert_climbed(trapped(HEARTS_TRAP, b_first=True), 1, CONFIG, EFFORT, Tier.MEDIUM)


def test_only_lookahead_resolves_two_or_three_traps() -> None:
    assert_climbed(trapped(HEARTS_TRAP, SPADES_TRAP), 3, CONFIG, EFFORT, Tier.HARD)
    assert_climbed(trapped(HEARTS_TRAP, SPADES_TRAP, CLUBS_TRAP), 3, CONFIG, EFFORT, Tier.HARD)


def test_no_rung_resolves_four_traps() -> None:
    # Four cards must each go to a place worth less now: past lookahead's three hold-backs.
    assert_climbed(trapped(HEARTS_TRAP, SPADES_TRAP, CLUBS_TRAP, DIAMONDS_TRAP), 4, CONFIG, EFFORT, Tier.EXPERT)


def test_lookahead_tries_only_hold_backs_that_open_a_follower() -> None:
    # 9H on B opens nothing when the chain cards are away: lookahead never puts it there, and needs not.
    pos = trapped((["9H"], ["5H 6H 7H 8H", "10H JH QH"]))
    found = climb(pos, None, EFFORT)
    assert found[1].gain == found[3].gain == optimum_of(pos, CONFIG)


@pytest.mark.parametrize("index", range(24))
def test_steal_one_is_at_least_as_strong_as_every_simple_greedy_player(index: int) -> None:
    # Every deal of the generator (plain, one trap, two or more), every simple player of
    # tests/ladder/greedy_players.py, first-fit in eight card orders.
    from rummy.checker import turn_gain

    pos = random_positions(24)[index]
    steal_one = best_found(LADDER[1], pos, EFFORT)
    assert steal_one.gain is not None
    for name, player in ROBBER_PLAYERS.items():
        for seed in range(8 if name in ROBBER_SEEDED else 1):
            after = player(pos, seed)
            assert check(pos, after).legal, name
            assert steal_one.gain >= turn_gain(pos, after), (name, seed)
