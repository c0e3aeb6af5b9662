"""House Rummy's human-like players (rummy.ladder.house): legal turns, never past the optimum,
cumulative rungs, each rung's reach on hand-made positions, and the greedy rungs against simple greedy players."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rummy.cards import Card
from rummy.checker import check
from rummy.generator.house_kinds import make_across, make_meld_steal, make_replace_meld, make_steal
from rummy.ladder import Effort, best_found, climb, ladder_of
from rummy.ladder.house import LADDER
from rummy.position import Position
from rummy.rules import preset
from rummy.solution import SolverConfig
from rummy.vocabulary import Tier
from tests.ladder.greedy_players import house_players
from tests.support.greedy_players import assert_climbed, finished_turn, lay_new_plays, optimum_of

CLASSIC, EPIC = preset("house-classic"), preset("house-epic")
CONFIG = SolverConfig(time_limit=20, workers=1)
TOLERANCE = Fraction(1, 1_000_000)
EFFORT = Effort(states=1500, turns=300)
MAKERS = (make_steal, make_replace_meld, make_meld_steal, make_across)


def position(hand: str, space: list[str], bob: list[str], melded: bool = True, hand_number: int = 2,
             rules: str = "house-classic") -> Position:
    data = {"rules": rules, "hand_number": hand_number, "to_move": "ann", "phase": "play",
            "players": {"ann": {"side": "ann", "melded": melded, "hand": hand, "space": space},
                        "bob": {"side": "bob", "melded": True, "hand_count": 6, "space": bob}},
            "piles": {"discard": "9C", "stock": 20}}
    return Position.from_data(data)


def random_positions(count: int) -> list[Position]:
    """Small deals of every kind, Classic and Epic, by fixed seeds; some with jokers on the table and in hand."""
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(9100 + seed)
        maker = MAKERS[seed % len(MAKERS)]
        rules = CLASSIC if seed % 3 else EPIC
        made = maker(rng, rules, Tier.EASY if maker is not make_across else Tier.MEDIUM)
        seed += 1
        if made is not None:
            found.append(made)
    return found


POSITIONS = random_positions(32)


def test_the_family_names_four_rungs_weakest_first_the_lookahead_last() -> None:
    rungs = ladder_of(POSITIONS[0])
    assert [r.name for r in rungs] == ["extend", "steal-one", "steal-and-shift", "lookahead"]
    assert [r.tier for r in rungs] == [Tier.EASY, Tier.MEDIUM, Tier.MEDIUM, Tier.HARD]
    assert [r.greedy for r in rungs] == [True, True, False, False]
    assert tuple(rungs) == LADDER


def test_the_random_positions_hold_jokers_on_the_table_and_in_hand() -> None:
    on_table = sum(any(c.is_joker for c in p.table_cards()) for p in POSITIONS)
    in_hand = sum(any(c.is_joker for c in p.mover.hand or ()) for p in POSITIONS)
    assert on_table >= 3 and in_hand >= 3


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_every_rung_is_legal_cumulative_and_never_past_the_optimum(index: int) -> None:
    pos = POSITIONS[index]
    optimum = optimum_of(pos, CONFIG)
    found = climb(pos, None, EFFORT)
    assert len(found) == 4
    previous: Fraction | None = None
    for step in found:
        assert step.after is not None and step.gain is not None, step.rung
        assert check(pos, step.after).legal, step.rung
        assert step.gain <= optimum + TOLERANCE
        if previous is not None:
            assert step.gain >= previous
        previous = step.gain
    # Each rung's own best proposal is a legal turn too (not only what the ladder kept from below).
    for rung in LADDER:
        alone = best_found(rung, pos, EFFORT)
        assert alone.after is not None and check(pos, alone.after).legal, rung.name
        assert alone.gain is not None and alone.gain <= optimum + TOLERANCE


def test_extend_solves_laying_off_on_ones_own_run() -> None:
    pos = position("8H 9H 2C", ["5H 6H 7H"], ["KS KD KC"])
    assert_climbed(pos, 0, CONFIG, EFFORT, Tier.EASY)


def test_extend_melds_from_the_hand_before_laying_off() -> None:
    pos = position("7S 7D 7C 8H 9H 10H JH 2C", [], ["KS KD KC"], melded=False, hand_number=5)
    assert_climbed(pos, 0, CONFIG, EFFORT)


def test_only_steal_one_steals_a_card_paid_by_hand_cards() -> None:
    pos = position("7S 7D 2C", ["QS QD QC"], ["4H 5H 6H 7H"])
    assert_climbed(pos, 1, CONFIG, EFFORT, Tier.MEDIUM)


def test_only_steal_one_replaces_a_joker_before_melding() -> None:
    # Not melded, hand 5: cost 20. The 8H frees bob's joker, which makes 4S 4D * a meld with 3C 3D 3S.
    pos = position("8H 4S 4D 3C 3D 3S 2C", [], ["6H 7H * 9H"], melded=False, hand_number=5)
    assert_climbed(pos, 1, CONFIG, EFFORT)


def test_only_steal_and_shift_cuts_the_robbed_run() -> None:
    # 5H is in the middle of bob's run: stealing it cuts the run into 2H 3H 4H and 6H 7H 8H.
    pos = position("5S 5D 2C", ["QS QD QC"], ["2H 3H 4H 5H 6H 7H 8H"])
    assert_climbed(pos, 2, CONFIG, EFFORT, Tier.MEDIUM)


def test_steal_one_moves_a_spare_card_of_the_movers_own_into_a_steal() -> None:
    # 9H stolen with 9D makes a book only with ann's own 9S, the end of her run (a greedy player's move).
    pos = position("9D 3C", ["9S 10S JS QS"], ["6H 7H 8H 9H"])
    assert_climbed(pos, 1, CONFIG, EFFORT, Tier.MEDIUM)


def test_only_lookahead_gives_a_card_away_to_make_a_steal_legal() -> None:
    # 4H cannot leave bob's 4H 5H 6H, until ann gives him her 7H: then 4H 4S 4D is hers (a sacrifice).
    pos = position("4S 4D 2C", ["7H 8H 9H 10H"], ["4H 5H 6H"])
    assert_climbed(pos, 3, CONFIG, EFFORT, Tier.HARD)


def simple_greedy(pos: Position, order: list[int]) -> Position:
    """The review's one-order greedy player, for a melded mover: hand cards in the given order, each
    onto the first play of the mover's side it fits; else one card stolen from another space's play
    (the rest staying whole) into a new play with two hand cards or into the mover's play with one;
    repeated while anything was laid; then the costliest card is discarded."""
    from rummy.plays import is_whole

    rules = pos.rules
    hand = [(pos.mover.hand or ())[i] for i in order]
    side = pos.mover.side
    plays = [(p.name, list(play.cards)) for p in pos.players for play in p.plays]
    ours = {p.name for p in pos.players if p.side == side}

    def steal_with(card: Card) -> bool:
        for k, (owner, cards) in enumerate(plays):
            if owner == "ann":
                continue
            for t in cards:
                rest = list(cards)
                rest.remove(t)
                if not is_whole(tuple(rest), rules):
                    continue
                for j, (mine, own) in enumerate(plays):
                    if mine == "ann" and is_whole(tuple(own) + (t, card), rules):
                        plays[k] = (owner, rest)
                        plays[j] = (mine, own + [t, card])
                        hand.remove(card)
                        return True
                for other in hand:
                    if other != card and is_whole((t, card, other), rules):
                        plays[k] = (owner, rest)
                        plays.append(("ann", [t, card, other]))
                        hand.remove(card)
                        hand.remove(other)
                        return True
        return False

    laid = True
    while laid:
        laid = False
        for card in list(hand):
            if card not in hand:
                continue
            fit = next((k for k, (owner, cards) in enumerate(plays)
                        if owner in ours and is_whole(tuple(cards) + (card,), rules)), None)
            if fit is not None:
                plays[fit] = (plays[fit][0], plays[fit][1] + [card])
                hand.remove(card)
                laid = True
            elif steal_with(card):
                laid = True
        laid = lay_new_plays(hand, plays, "ann", rules) or laid
    return finished_turn(pos, plays, hand, meld=None)


MELDED = [p for p in POSITIONS if p.mover.melded]


@pytest.mark.parametrize("index", range(len(MELDED)))
def test_steal_one_is_at_least_as_strong_as_the_reviews_greedy_player_in_any_order(index: int) -> None:
    from rummy.checker import turn_gain

    pos = MELDED[index]
    found = climb(pos, None, Effort(states=20_000, turns=300))
    size = len(pos.mover.hand or ())
    for seed in range(6):
        order = list(range(size))
        random.Random(seed).shuffle(order)
        after = simple_greedy(pos, order)
        if not check(pos, after).legal:
            continue  # the simple player broke a rule (spite, an unpaid steal): no turn to compare
        assert found[1].gain is not None and found[1].gain >= turn_gain(pos, after)


def test_no_rung_gives_the_meld_cards_away_to_make_two_steals_legal() -> None:
    # The best turn (70) steals AC and 3C off cat's AC 2C 3C and leaves cat 2S 2H 2C, made of two of
    # ann's own cards moved across: past every rung, so the puzzle is expert.
    data = {"rules": "house-classic", "hand_number": 5, "to_move": "ann", "phase": "play",
            "players": {"ann": {"side": "ann", "melded": True, "hand": "4S 3D QH AD 9H",
                                "space": ["AS 2S 3S", "5H 6H 7H 8H", "KH AH 2H", "10C JC QC KC"]},
                        "bob": {"side": "bob", "melded": False, "hand_count": 9, "space": []},
                        "cat": {"side": "cat", "melded": True, "hand_count": 9, "space": ["AC 2C 3C"]}},
            "piles": {"discard": "6S JD", "stock": 12}}
    pos = Position.from_data(data)
    assert_climbed(pos, 4, CONFIG, EFFORT, Tier.EXPERT)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_steal_one_is_at_least_as_strong_as_every_simple_greedy_player(index: int) -> None:
    # tests/ladder/greedy_players.py: one-pass greedy House players written apart from the ladder
    # (first-fit in random orders, best-gain-now, steals first, biggest plays first); each turn is judged
    # by the checker (None: the player's turn broke a rule).
    pos = POSITIONS[index]
    found = climb(pos, None, Effort(states=20_000, turns=300))
    steal_one = found[1].gain
    assert steal_one is not None
    for name, gain in house_players(pos, seeds=3):
        assert gain is None or steal_one >= gain, name
