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
from tests.support.greedy_players import assert_climbed, finished_turn, lay_new_plays, optimum_of

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


def test_the_family_names_three_rungs_weakest_first() -> None:
    pos = position("8H 2C", [], ["5H 6H 7H"])
    rungs = ladder_of(pos)
    assert [r.name for r in rungs] == ["extend", "steal-one", "steal-chain"]
    assert [r.tier for r in rungs] == [Tier.EASY, Tier.MEDIUM, Tier.HARD]
    assert [r.greedy for r in rungs] == [True, True, False]
    assert tuple(rungs) == LADDER


@pytest.mark.parametrize("index", range(32))
def test_every_rung_is_legal_cumulative_and_never_past_the_optimum(index: int) -> None:
    pos = random_positions(32)[index]
    optimum = optimum_of(pos, CONFIG)
    found = climb(pos, None, EFFORT)
    assert len(found) == 3
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
    assert alone[0].gain is not None and alone[1].gain is not None and alone[2].gain is not None
    assert alone[0].gain <= alone[1].gain <= alone[2].gain


def test_extend_solves_a_position_of_ones_own_plays() -> None:
    pos = position("8H 9H 2C", ["5H 6H 7H"], ["KS KD KC"])
    assert_climbed(pos, 0, CONFIG, EFFORT, Tier.EASY)


def test_only_steal_one_takes_an_opponents_play() -> None:
    pos = position("8H 2C", ["KS KD KC"], ["5H 6H 7H"])
    assert_climbed(pos, 1, CONFIG, EFFORT, Tier.MEDIUM)


def test_only_steal_chain_keeps_a_card_back_for_the_chain() -> None:
    # 9H takes bob's seven nines (80 now) or his 6H 7H 8H (75 now): greedy takes the nines and
    # 10H stays in hand. Putting 9H on the run lets 10H follow it: 105, and the ace is discarded.
    pos = position("9H 10H AS", [], ["9S 9S 9D 9D 9C 9C 9H", "6H 7H 8H"])
    assert_climbed(pos, 2, CONFIG, EFFORT, Tier.HARD)


def test_no_rung_reaches_a_chain_of_three_held_cards() -> None:
    # Three cards must each go to a place worth less now: past the hard rung's two hold-backs.
    pos = position("9H 10H 5D 6D KC AC AS", [],
                   ["9S 9S 9D 9D 9C 9C 9H", "6H 7H 8H", "5S 5S 5H 5H 5C 5C 5D", "2D 3D 4D",
                    "KS KS KH KH KD KD KC", "10C JC QC"])
    assert_climbed(pos, 3, CONFIG, EFFORT, Tier.EXPERT)


def simple_greedy(pos: Position, order: list[int]) -> Position:
    """A one-order greedy player: hand cards in the given order, each onto the first play it fits
    (own or not) or into a new play of three hand cards; repeated while anything was laid; then
    the costliest card is discarded."""
    from rummy.plays import is_whole

    hand = [pos.mover.hand[i] for i in order] if pos.mover.hand else []
    plays = [(p.name, list(play.cards)) for p in pos.players for play in p.plays]
    laid = True
    while laid:
        laid = False
        for card in list(hand):
            for k, (_owner, cards) in enumerate(plays):
                if is_whole(tuple(cards) + (card,), ROBBER):
                    plays[k] = ("ann", cards + [card])
                    hand.remove(card)
                    laid = True
                    break
        laid = lay_new_plays(hand, plays, "ann", ROBBER) or laid
    return finished_turn(pos, plays, hand, meld=())


@pytest.mark.parametrize("index", range(16))
def test_steal_one_is_at_least_as_strong_as_a_simple_greedy_player_in_any_order(index: int) -> None:
    # Plain (medium) deals only: in a trap deal a first-fit player can stumble on the right place for
    # the trap's card by the luck of the order, where the greedy one takes the bigger steal now.
    from rummy.checker import turn_gain

    pos = random_positions(16, (Tier.MEDIUM,))[index]
    found = climb(pos, None, EFFORT)
    size = len(pos.mover.hand or ())
    for seed in range(6):
        order = list(range(size))
        random.Random(seed).shuffle(order)
        after = simple_greedy(pos, order)
        assert check(pos, after).legal
        assert found[1].gain is not None and found[1].gain >= turn_gain(pos, after)
