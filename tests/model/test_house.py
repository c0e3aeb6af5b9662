"""The House Rummy model (rummy.model.house): known answers and one case per rule.

Every answer is also checked for the invariants of rules.md §4 (whole plays,
conservation, opponents' hands untouched) and, where the checker exists,
re-judged by it, with its own reading of the gain.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from rummy.answer import best
from rummy.cards import Card, parse_cards
from rummy.model.house import _branch_model, greedy_house, solve_house
from rummy.model.house.context import build_context
from rummy.model.house.objective import gain_ceiling
from rummy.model.house.replacement import replacement_options
from rummy.plays import is_whole
from rummy.position import Position, Replacement
from rummy.scoring import hand_penalty
from rummy.solution import Solution, SolverConfig
from tests.support.judged import judged
from tests.support.oracle import brute_force_gain
from tests.support.paths import REPO_ROOT, SHARED_DIR
from tests.support.positions import EPIC_BOB
from tests.support.random_positions import random_house

try:  # the independent checker (rummy/checker), when present
    from rummy.checker import check, turn_gain
except ImportError:  # pragma: no cover - only while the checker is being written
    check = turn_gain = None

SHARED = SHARED_DIR
CONFIG = SolverConfig(time_limit=60)


def house_examples() -> list[Path]:
    folder = SHARED / "examples" / "best"
    if not folder.is_dir():
        return []
    return [p for p in sorted(folder.glob("*.toml")) if "preset: house-" in p.read_text(encoding="utf-8")]


def expected_gain(path: Path) -> float:
    match = re.match(r"#\s*expect gain\s*=\s*(-?[\d.]+)", path.read_text(encoding="utf-8").splitlines()[0])
    assert match, f"{path.name}: no '# expect gain = N' line"
    return float(match.group(1))


def position(text: str) -> Position:
    return Position.from_toml(text)


def solve(before: Position) -> Solution:
    solution = solve_house(before, CONFIG)
    if solution.after is not None:
        assert_sound(before, solution)
    return solution


def plays_of(after: Position, name: str) -> list[list[Card]]:
    return [sorted(c.plain() for c in play.cards) for play in after.player(name).plays]


def cards(text: str) -> list[Card]:
    return sorted(parse_cards(text))


def assert_sound(before: Position, solution: Solution) -> None:
    """rules.md §4 on the answer, then the checker's verdict and gain."""
    after = solution.after
    assert after is not None
    rules = before.rules
    for name, play in after.named_plays().items():
        assert is_whole(play.cards, rules), f"{name} {play} is not whole"
    turn = after.turn
    assert turn is not None and turn.discard_declared
    discarded = [turn.discard] if turn.discard is not None else []
    assert list(after.discard_pile) == list(before.discard_pile) + discarded
    table_before = Counter(c.plain() for c in before.table_cards())
    table_after = Counter(c.plain() for c in after.table_cards())
    hand_before = Counter(c.plain() for c in before.mover.hand or ())
    hand_after = Counter(c.plain() for c in after.mover.hand or ())
    assert table_before + hand_before == table_after + hand_after + Counter(discarded), "cards not conserved"
    for p_before, p_after in zip(before.players, after.players):
        if p_before.name != before.to_move:
            assert (p_before.hand, p_before.hand_count) == (p_after.hand, p_after.hand_count)
    assert Counter(c.plain() for c in after.mover.hot + after.mover.warm) <= hand_after
    # Re-read as a file would be: the answer must be a valid position.
    Position.from_toml(after.to_toml())
    if check is not None:
        verdict = check(before, after)
        assert verdict.legal, [(b.code, b.message) for b in verdict.breaches]
        assert float(turn_gain(before, after)) == pytest.approx(float(solution.gain), abs=1e-6)


# ---------------------------------------------------------------- examples
@pytest.mark.parametrize("path", house_examples(), ids=lambda p: p.name)
def test_shared_example_reaches_its_known_gain(path: Path) -> None:
    before = Position.from_file(path)
    solution = solve(before)
    assert solution.status == "optimal"
    assert solution.gain == pytest.approx(expected_gain(path), abs=1e-9)
    assert solution.bound == solution.gain


def test_worked_example_of_the_brief() -> None:
    """001: bob steals 6D into 5D 6D 7D, puts 6S into ann's 6C 6H, discards a 9."""
    path = SHARED / "examples" / "best" / "001.toml"
    if not path.is_file():
        pytest.skip("shared examples not found")
    before = Position.from_file(path)
    solution = solve(before)
    after = solution.after
    assert solution.gain == 42
    assert cards("5D 6D 7D") in plays_of(after, "bob")
    assert plays_of(after, "ann") == [cards("6C 6H 6S")]
    assert after.turn.discard in parse_cards("9D 9S")
    assert sorted(after.mover.hand) == sorted([*parse_cards("5H"), *(c for c in parse_cards("9D 9S") if c != after.turn.discard)])
    assert solution.cards_played == 3


# ------------------------------------------------------------- steals, spite
MELDED_BOB = """
rules = "house-classic"
hand_number = 1
to_move = "bob"
players.ann = {{melded = true, hand_count = 4, space = [{ann}]}}
players.bob = {{melded = true, hand = "{hand}", space = [{bob}]}}
piles = {{discard = "3H", stock = 20}}
"""


def melded_bob(ann: str, bob: str, hand: str) -> Position:
    return position(MELDED_BOB.format(ann=ann, bob=bob, hand=hand))


def test_an_unpaid_steal_is_not_taken() -> None:
    # 8H would lengthen bob's run, but nothing from the hand could pay for it.
    before = melded_bob('"5H 6H 7H 8H"', '"9H 10H JH"', "2C")
    solution = solve(before)
    assert solution.gain == 2 + 25  # discard 2C and go out
    assert plays_of(solution.after, "ann") == [cards("5H 6H 7H 8H")]
    assert plays_of(solution.after, "bob") == [cards("9H 10H JH")]


def test_a_paid_steal_may_cost_the_victim_ten_points() -> None:
    # 5S leaves ann's book of 4 (20 -> 10: the most one stolen card allows)
    # for bob's new run 5S 6S 7S, paid by 6S and 7S.
    before = melded_bob('"5S 5H 5D 5C"', "", "6S 7S")
    solution = solve(before)
    assert solution.gain == 15 + 10 + 13 + 25
    assert plays_of(solution.after, "bob") == [cards("5S 6S 7S")]
    assert plays_of(solution.after, "ann") == [cards("5H 5D 5C")]
    assert solution.after.turn.discard is None


def test_spite_is_forbidden() -> None:
    # Three runs of ann (45) could be re-laid as three books of 3 (30): that
    # would lower her score with nothing stolen.
    before = melded_bob('"5H 6H 7H", "5D 6D 7D", "5C 6C 7C"', "", "2S")
    solution = solve(before)
    assert solution.gain == 2 + 25
    assert sorted(plays_of(solution.after, "ann")) == sorted([cards("5H 6H 7H"), cards("5D 6D 7D"), cards("5C 6C 7C")])


def test_partners_score_together() -> None:
    # 4 players, ann and cat one side. cat's 5S joins 6S 7S from ann's hand
    # (in ann's space as a paid steal, or in cat's own space): the side
    # loses cat's book of 4 (20 -> 10) and gains the run (15); ann goes out.
    before = position("""
rules = "house-classic"
hand_number = 1
to_move = "ann"
players.ann = {melded = true, hand = "6S 7S"}
players.bob = {melded = true, hand_count = 3}
players.cat = {melded = true, hand_count = 3, space = ["5S 5H 5D 5C"]}
players.dan = {melded = true, hand_count = 3}
piles = {discard = "3D", stock = 20}
""")
    solution = solve(before)
    assert solution.gain == 15 - 10 + 13 + 25
    side = plays_of(solution.after, "ann") + plays_of(solution.after, "cat")
    assert sorted(side) == sorted([cards("5S 6S 7S"), cards("5H 5D 5C")])


# ------------------------------------------------------------------- melds
UNMELDED_BOB = """
rules = "house-classic"
hand_number = {hand_number}
to_move = "bob"
players.ann = {{melded = true, hand_count = 4, space = [{ann}]}}
players.bob = {{melded = false, hand = "{hand}"}}
piles = {{discard = "3D", stock = 20}}
"""


def unmelded_bob(hand: str, hand_number: int, ann: str = "") -> Position:
    return position(UNMELDED_BOB.format(hand=hand, hand_number=hand_number, ann=ann))


def test_a_meld_below_the_cost_is_not_laid() -> None:
    before = unmelded_bob("5H 6H 7H 9C", hand_number=5)  # a run of 3 is 15; hand 5 costs 20
    solution = solve(before)
    assert solution.gain == 9  # only the discard
    assert solution.after.turn.discard == Card.from_notation("9C")
    assert solution.after.turn.meld == ()
    assert not solution.after.mover.melded
    assert solution.after.mover.plays == ()


def test_a_meld_at_the_cost_is_laid_and_the_mover_goes_out() -> None:
    before = unmelded_bob("5H 6H 7H 9C", hand_number=1)
    solution = solve(before)
    assert solution.gain == 15 + 27 + 25
    assert [sorted(p.cards) for p in solution.after.turn.meld] == [cards("5H 6H 7H")]
    assert solution.after.mover.melded


def test_unmelded_mover_may_not_touch_the_table() -> None:
    # 8H fits ann's run, but bob has not melded and cannot meld (one card).
    before = unmelded_bob("8H", hand_number=1, ann='"5H 6H 7H"')
    solution = solve(before)
    assert plays_of(solution.after, "ann") == [cards("5H 6H 7H")]
    assert solution.after.turn.discard == Card.from_notation("8H")
    assert solution.gain == 8 + 25


def test_a_replaced_joker_completes_the_meld() -> None:
    # 7H goes in for ann's joker; the joker makes bob's book 9D 9S * (10 = cost).
    before = unmelded_bob("7H 9D 9S", hand_number=1, ann='"5H 6H *"')
    solution = solve(before)
    assert solution.gain == 10 + 25 + 25
    turn = solution.after.turn
    assert turn.replaced == (Replacement("ann/1", Card.from_notation("7H")),)
    assert [sorted(p.cards) for p in turn.meld] == [sorted(parse_cards("9D 9S *"))]
    assert plays_of(solution.after, "ann") == [cards("5H 6H 7H")]


REPLACE_WITHOUT_MELD = """
rules = "house-epic"
hand_number = 1
to_move = "bob"
players.ann = {melded = true, hand_count = 4, space = ["5H * *"]}
players.bob = {melded = false, hand = "5S 9C"}
piles = {discard = "3D", stock = 20}
"""


def test_replacing_a_joker_without_melding() -> None:
    # Epic, no meld possible: 5S in for a joker turns ann's 5H * * (a run, 15)
    # into the book 5H 5S * (10). Legal before melding, and worth 5 to bob;
    # the released joker is then the discard (keeping 9C is the tie-break).
    solution = solve_house(position(REPLACE_WITHOUT_MELD), CONFIG)
    assert solution.gain == 5
    turn = solution.after.turn
    assert turn.replaced == (Replacement("ann/1", Card.from_notation("5S")),)
    assert turn.discard == Card.joker()
    assert turn.meld == ()
    assert solution.after.mover.hand == (Card.from_notation("9C"),)
    assert not solution.after.mover.melded


def test_the_checker_accepts_a_replacement_in_a_play_with_two_jokers() -> None:
    before = position(REPLACE_WITHOUT_MELD)
    solve(before)


def test_meld_cards_never_pay_for_a_steal() -> None:
    # After melding 5S 6S 7S bob could take 8S from ann's book of 4 into his
    # run, but the run holds only meld cards: nothing pays.
    before = unmelded_bob("5S 6S 7S", hand_number=1, ann='"8S 8H 8D 8C"')
    solution = solve(before)
    assert solution.gain == 15 + 18 + 25
    assert plays_of(solution.after, "ann") == [cards("8S 8H 8D 8C")]


def test_a_released_joker_played_after_the_meld_pays_for_a_steal() -> None:
    # JC goes in for ann's joker; bob melds 4D 4H 4C, then lays the released
    # joker in his spade run together with 8S taken from ann's book of 4.
    # Only the joker can pay there (no 4 fits a spade run).
    before = position("""
rules = "house-classic"
hand_number = 1
to_move = "bob"
players.ann = {melded = true, hand_count = 4, space = ["9C 10C *", "8S 8H 8D 8C"]}
players.bob = {melded = false, hand = "JC 4D 4H 4C", space = ["9S 10S JS"]}
piles = {discard = "3D", stock = 20}
""")
    solution = solve(before)
    assert solution.gain == 20 + 10 + 14 + 25
    turn = solution.after.turn
    assert turn.replaced == (Replacement("ann/1", Card.from_notation("JC")),)
    assert [sorted(p.cards) for p in turn.meld] == [cards("4D 4H 4C")]
    assert sorted(plays_of(solution.after, "bob")) == sorted([cards("4D 4H 4C"), sorted(parse_cards("8S 9S 10S JS *"))])
    assert sorted(plays_of(solution.after, "ann")) == sorted([cards("9C 10C JC"), cards("8H 8D 8C")])


# ------------------------------------------------------------ temperatures



def epic_bob(hand: str, hot: str = "", warm: str = "") -> Position:
    return position(EPIC_BOB.format(hand=hand, hot=hot, warm=warm))


def test_a_hot_card_must_be_played_even_at_a_loss() -> None:
    # Without the rule bob would just discard 8H (gain 0); hot, it must go
    # on ann's run (-5), and discarding 2C then goes out (+ ann's KS: 4).
    solution = solve(epic_bob("8H 2C", hot="8H"))
    assert solution.status == "optimal"
    assert solution.gain == -5 + 4
    assert plays_of(solution.after, "ann") == [cards("5H 6H 7H 8H")]


def test_without_the_hot_card_the_same_hand_loses_nothing() -> None:
    solution = solve(epic_bob("8H 2C"))
    assert solution.gain == 0


def test_a_hot_card_that_cannot_be_played_leaves_no_legal_turn() -> None:
    solution = solve_house(epic_bob("8H 2C", hot="2C"), CONFIG)
    assert solution.status == "no-legal-turn"
    assert solution.after is None
    assert "2C" in solution.reason


def test_a_warm_card_is_not_discarded() -> None:
    before = position(MELDED_BOB.format(ann="", bob="", hand="KS 2C").replace('hand = "KS 2C"', 'hand = "KS 2C", warm = "KS"'))
    solution = solve(before)
    assert solution.after.turn.discard == Card.from_notation("2C")
    assert solution.gain == 2
    assert solution.after.mover.warm == (Card.from_notation("KS"),)


def test_only_warm_cards_left_means_no_discard() -> None:
    before = position(MELDED_BOB.format(ann="", bob="", hand="KS").replace('hand = "KS"', 'hand = "KS", warm = "KS"'))
    solution = solve(before)
    assert solution.after.turn.discard is None
    assert solution.after.turn.discard_declared
    assert solution.gain == 0


# -------------------------------------------------------------- going out
def test_going_out_first_earns_25_in_classic() -> None:
    solution = solve(melded_bob("", "", "5H 6H 7H"))
    assert solution.gain == 15 + 18 + 25
    assert solution.after.mover.hand == ()


def test_no_bonus_once_someone_went_out() -> None:
    before = position(MELDED_BOB.format(ann="", bob="", hand="5H 6H 7H").replace('to_move = "bob"', 'to_move = "bob"\nfirst_out = "ann"'))
    solution = solve(before)
    assert solution.gain == 15 + 18


def test_epic_bonus_is_the_opponents_known_hands() -> None:
    solution = solve(epic_bob("5C 6C 7C"))
    assert solution.gain == 15 + 4  # ann holds KS


def test_epic_bonus_from_unknown_hands_uses_the_mean_unseen_penalty() -> None:
    before = position(EPIC_BOB.format(hand="5C 6C 7C", hot="", warm="").replace('hand = "KS"', "hand_count = 2"))
    solution = solve(before)
    unseen = list(before.unseen_cards().elements())
    bonus = 2 * Fraction(hand_penalty(unseen, before.rules), len(unseen))
    assert solution.gain == pytest.approx(float(15 + bonus), abs=1e-9)
    assert solution.status == "optimal"


def test_going_out_by_discarding_the_last_card() -> None:
    solution = solve(melded_bob('"5H 6H 7H"', "", "9C"))
    assert solution.gain == 9 + 25
    assert solution.after.turn.discard == Card.from_notation("9C")


# ------------------------------------------------------------ tie-breaks
def test_an_untouched_table_stays_in_its_order() -> None:
    before = melded_bob('"5H 6H 7H", "9S 9D 9C", "JC QC KC AC"', '"2D 3D 4D"', "8H 2S")
    solution = solve(before)
    # 8H only fits ann's run (-5); then 2S is discarded and bob goes out.
    assert solution.gain == -5 + 8 + 2 + 25
    ann = [p.notation() for p in solution.after.player("ann").plays]
    assert ann[:2] == ["9S 9D 9C", "JC QC KC AC"]
    assert sorted(solution.after.player("ann").plays[2].cards) == cards("5H 6H 7H 8H")
    assert solution.after.player("bob").plays == before.player("bob").plays


@pytest.mark.parametrize("runs", [
    '"AS 2S 3S 4S 5S 6S *", "7S 8S 9S 10S JS QS KS"',  # the joker must stand for a natural of the other run
    '"6S 7S 8S", "9S 10S *", "JS QS KS"',
])
def test_runs_whose_joker_stands_for_a_card_of_another_run_may_stay(runs: str) -> None:
    before = melded_bob(runs, "", "2C")
    solution = solve(before)
    assert solution.status == "optimal"
    assert solution.gain == 2 + 25
    assert solution.after.player("ann").plays == before.player("ann").plays


def test_out_of_time_still_answers_with_a_legal_turn_and_a_bound() -> None:
    before = melded_bob('"5H 6H 7H 8H", "9S 9D 9C", "JC QC KC AC", "2D 3D 4D *"', '"10H JH QH", "4S 4C 4H"',
                        "3C 5D 5C 6S 7S 8S 9H KH")
    solution = solve_house(before, SolverConfig(time_limit=0.01))
    assert solution.status in ("optimal", "feasible")
    assert solution.bound >= solution.gain
    assert_sound(before, solution)


# ------------------------------------------------------------------ under a time limit
# The greedy turn (house_greedy), completed by the model, is a legal turn: the checker accepts it.
# Whatever stops the search, the answer is at least as good as that turn. ``gain_ceiling`` never
# falls below the best gain (oracle and benchmark positions), so a "feasible" answer's bound means
# something.
BENCHMARK = sorted((REPO_ROOT / "benchmarks" / "positions" / "house").glob("*.toml"))
AMPLE = SolverConfig(time_limit=60, workers=1)


def ceiling(position: Position) -> float:
    ctx = build_context(position)
    m = _branch_model(ctx, replacement_options(ctx), ())
    return float(gain_ceiling(m)) if m is not None else float("inf")


@pytest.mark.parametrize("path", [p for p in BENCHMARK if p.stem < "house-40"], ids=lambda p: p.stem)
def test_the_greedy_turn_is_legal_and_no_better_than_the_best(path: Path) -> None:
    position = Position.from_file(path)
    greedy = judged(position, greedy_house(position, AMPLE))
    optimal = judged(position, solve_house(position, AMPLE))
    assert optimal.status == "optimal"
    if greedy.status == "feasible":
        assert greedy.gain <= optimal.gain
    assert optimal.gain <= ceiling(position)


@pytest.mark.parametrize("seed", range(40))
def test_the_ceiling_is_never_below_the_oracles_best(seed: int) -> None:
    position = random_house(seed)
    best_gain = brute_force_gain(position)
    if best_gain is None:
        return
    assert best_gain <= ceiling(position)


@pytest.mark.parametrize("seed", range(40))
def test_the_greedy_turn_on_small_positions_is_judged_legal(seed: int) -> None:
    position = random_house(seed, max_table_plays=4, hand_size=(4, 8))
    greedy = judged(position, greedy_house(position, AMPLE))
    assert greedy.status in ("feasible", "unknown")
    if greedy.status == "feasible":
        assert greedy.gain <= greedy.bound


@pytest.mark.parametrize("path", [p for p in BENCHMARK if p.stem >= "house-40"], ids=lambda p: p.stem)
def test_a_time_limited_answer_is_at_least_the_greedy_turn(path: Path) -> None:
    position = Position.from_file(path)
    greedy = greedy_house(position, AMPLE)
    answer = best(position, SolverConfig(time_limit=0.2, workers=2)).solution
    judged(position, answer)
    assert answer.status in ("optimal", "feasible")
    if greedy.status == "feasible":
        assert answer.gain >= greedy.gain
    assert answer.gain <= answer.bound <= max(ceiling(position), answer.gain)
