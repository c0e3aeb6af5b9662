"""The lay-off rummy model (rummy.model.layoff): Straight and traditional Rummy.

Every answer is re-judged by the checker. A brute-force search with its own
legality and values (written here, sharing no code with the model) is
compared with the model on seeded random small positions and rule variations.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest

from rummy.cards import SUITS, Card, parse_cards
from rummy.checker import check, turn_gain
from rummy.model.extend.growth import growths, new_plays
from rummy.model.extend.select import select
from rummy.model.layoff import layoff_problem, solve_layoff
from rummy.plays import readings
from rummy.position import Attached, Position
from rummy.rules import preset
from rummy.solution import SolverConfig
from tests.support.oracle import assert_the_oracles_gain
from tests.support.paths import REPO_ROOT
from tests.support.random_positions import LAYOFF_VARIATIONS, random_layoff_position

ROOT = REPO_ROOT
CONFIG = SolverConfig(time_limit=20)


def position(players: dict, rules="traditional", to_move: str = "cat", discard: str = "9H", stock: int = 20) -> Position:
    data = {"rules": rules, "to_move": to_move, "players": players, "piles": {"discard": discard, "stock": stock}}
    return Position.from_data(data)


def solved(before: Position, force_cp_sat: bool = False):
    solution = solve_layoff(before, CONFIG, force_cp_sat=force_cp_sat)
    assert solution.status == "optimal", solution.reason
    after = solution.after
    Position.from_data(after.to_data())
    verdict = check(before, after)
    assert verdict.legal, [b.message for b in verdict.breaches]
    assert float(turn_gain(before, after)) == pytest.approx(solution.gain)
    return solution


def space(after: Position, name: str) -> list[str]:
    return [p.notation(after.rules) for p in after.player(name).plays]


# ------------------------------------------------------------------ rules
def test_one_meld_a_turn_unless_the_variation_allows_more() -> None:
    players = {"bob": {"hand_count": 5}, "cat": {"hand": "4C 5C 6C KS KD KH 2D"}}
    one = solved(position(players))
    assert len(one.after.turn.meld) == 1 and one.gain == 30 + 6  # the kings, then the 6C discarded
    several = solved(position(players, rules={"preset": "traditional", "plays_per_turn": "none"}))
    assert len(several.after.turn.meld) == 2
    assert several.gain == 15 + 30 + 2
    assert several.after.player("cat").hand == ()


def test_layoff_needs_a_meld_first() -> None:
    players = {"bob": {"hand_count": 5, "space": ["9D 10D JD"]}, "cat": {"hand": "QD 2C 3S"}}
    free = solved(position(players))
    assert free.after.player("cat").layoffs == (Attached("bob/1", parse_cards("QD")),)
    strict = solved(position(players, rules={"preset": "traditional", "layoff_needs_meld": True}))
    assert strict.after.player("cat").layoffs == ()
    assert strict.gain == 10  # only the discard
    with_meld = position({**players, "cat": {"hand": "QD 2C 3C 4C 8S"}},
                         rules={"preset": "traditional", "layoff_needs_meld": True})
    solution = solved(with_meld)
    assert solution.after.player("cat").layoffs == (Attached("bob/1", parse_cards("QD")),)
    assert solution.gain == 10 + 9 + 8


def test_a_mover_with_a_meld_on_the_table_has_made_the_first_play() -> None:
    """layoff_needs_meld reads "after one's first play": a meld in the mover's space counts, whatever
    the melded flag says; the model lays off and the checker agrees."""
    from rummy.checker import check

    players = {"bob": {"hand_count": 5, "space": ["9D 10D JD"]},
               "cat": {"hand": "QD 2C 3S", "space": ["5H 6H 7H"], "melded": False}}
    before = position(players, rules={"preset": "traditional", "layoff_needs_meld": True})
    solution = solved(before)
    assert solution.after.player("cat").layoffs == (Attached("bob/1", parse_cards("QD")),)
    assert check(before, solution.after).legal


def test_keep_one_to_discard_forbids_playing_the_last_card() -> None:
    players = {"bob": {"hand_count": 5}, "cat": {"hand": "4C 5C 6C"}}
    assert solved(position(players)).gain == 15
    keep = solved(position(players, rules={"preset": "traditional", "keep_one_to_discard": True}))
    assert keep.gain == 6 and keep.after.turn.discard == Card(6, "C")
    four = position({**players, "cat": {"hand": "4C 5C 6C 7C"}}, rules={"preset": "traditional", "keep_one_to_discard": True})
    solution = solved(four)
    assert solution.gain == 22 and solution.after.turn.discard is not None
    assert solution.after.player("cat").hand == ()


def test_the_warm_card_is_not_discarded() -> None:
    solution = solved(position({"bob": {"hand_count": 5}, "cat": {"hand": "KS 2C 3D", "warm": "KS"}}))
    assert solution.after.turn.discard == Card(3, "D") and solution.gain == 3
    assert solution.after.player("cat").warm == parse_cards("KS")


def test_no_legal_turn_when_the_last_card_is_warm_and_must_be_kept() -> None:
    rules = {"preset": "traditional", "keep_one_to_discard": True}
    solution = solve_layoff(position({"bob": {"hand_count": 5}, "cat": {"hand": "KS", "warm": "KS"}}, rules), CONFIG)
    assert solution.status == "no-legal-turn" and "KS" in solution.reason


@pytest.mark.parametrize("rules, meld", [("straight", True), ("traditional", False)])
def test_aces_follow_the_preset(rules: str, meld: bool) -> None:
    solution = solved(position({"bob": {"hand_count": 5}, "cat": {"hand": "QH KH AH 2C"}}, rules))
    assert bool(solution.after.turn.meld) == meld


def test_around_the_corner_variation() -> None:
    players = {"bob": {"hand_count": 5}, "cat": {"hand": "KH AH 2H 9C"}}
    assert not solved(position(players, "straight")).after.turn.meld
    circular = solved(position(players, {"preset": "straight", "ace": "circular"}))
    assert space(circular.after, "cat") == ["KH AH 2H"] and circular.after.player("cat").hand == ()


def test_queen_of_spades_is_worth_45_in_straight() -> None:
    solution = solved(position({"bob": {"hand_count": 5}, "cat": {"hand": "QS 10H 2C"}}, "straight"))
    assert solution.after.turn.discard == Card(12, "S") and solution.gain == 45


def test_going_out_is_found() -> None:
    solution = solved(position({"bob": {"hand_count": 5, "space": ["7S 7D 7C"]}, "cat": {"hand": "4H 5H 6H 7H 2C"}}))
    assert solution.after.player("cat").hand == ()
    assert solution.gain == 4 + 5 + 6 + 7 + 2


def test_going_out_wins_ties_of_value_with_zero_valued_aces() -> None:
    rules = {"preset": "traditional", "ace_points": 0}
    solution = solved(position({"bob": {"hand_count": 5}, "cat": {"hand": "AS 5H 6H 7H"}}, rules))
    assert solution.after.player("cat").hand == ()


def test_jokers_are_wild() -> None:
    rules = {"preset": "traditional", "jokers": 2}
    solution = solved(position({"bob": {"hand_count": 5, "space": ["9D 10D JD"]}, "cat": {"hand": "* 5H 7H QD 2C"}}, rules))
    assert solution.after.player("cat").hand == ()
    assert solution.gain == 15 + 5 + 7 + 10 + 2


def test_own_meld_grows_in_place_and_other_layoffs_merge_per_play() -> None:
    before = position({
        "bob": {"hand_count": 5, "space": ["9D 10D JD"]},
        "cat": {"hand": "8S QD 2C", "space": ["5S 6S 7S"], "layoffs": ["bob/1 8D"], "melded": True},
    })
    solution = solved(before)
    assert space(solution.after, "cat") == ["5S 6S 7S 8S"]
    assert solution.after.player("cat").layoffs == (Attached("bob/1", parse_cards("8D QD")),)
    assert solution.after.player("cat").hand == ()


def test_on_own_meld_held_whole_by_another_players_layoff_the_card_is_a_layoff() -> None:
    solution = solved(Position.from_file(ROOT / "puzzles" / "examples" / "traditional.toml"))
    assert space(solution.after, "ann")[0] == "AH 2H 3H"
    assert Attached("ann/1", parse_cards("5H 6H")) in solution.after.player("ann").layoffs


@pytest.mark.parametrize("name", ["straight", "traditional"])
def test_shipped_examples_are_optimal(name: str) -> None:
    solved(Position.from_file(ROOT / "puzzles" / "examples" / f"{name}.toml"))


def test_draw_phase_is_refused() -> None:
    before = Position.from_data({"rules": "straight", "to_move": "cat", "phase": "draw",
                                 "players": {"bob": {"hand_count": 3}, "cat": {"hand": "2C"}}})
    with pytest.raises(ValueError):
        solve_layoff(before, CONFIG)


# -------------------------------------------------------- random positions
def value_here(card: Card, rules) -> int:
    if card.is_joker:
        return rules.joker_points
    if card.rank == 12 and card.suit == "S":
        return rules.queen_of_spades_points
    if card.rank == 1:
        return rules.ace_points
    return min(card.rank, 10)


def whole_here(cards, rules) -> bool:
    """Independent of rummy.plays: books of distinct suits, runs in a window the ace rule allows."""
    cards = list(cards)
    naturals = [c for c in cards if not c.is_joker]
    n = len(cards)
    if not naturals:
        return False
    if len({c.rank for c in naturals}) == 1 and 3 <= n <= 4 and len({c.suit for c in naturals}) == len(naturals):
        return True
    if len({c.suit for c in naturals}) != 1 or not 3 <= n <= 13:
        return False
    top = {"low": 13, "high_or_low": 14, "circular": 25}[rules.ace]
    for start in range(1, 14):
        if start + n - 1 > top:
            break
        window = Counter((start + i - 1) % 13 + 1 for i in range(n))
        if not Counter(c.rank for c in naturals) - window:
            return True
    return False


def brute_force_gain(before: Position) -> int | None:
    rules = before.rules
    mover = before.mover
    hand = list(mover.hand)
    names = list(before.named_plays())
    units = [before.play_with_layoffs(name) for name in names]
    warm = Counter(mover.warm)
    melded = mover.melded or bool(mover.plays) or bool(mover.layoffs)  # the first play is made
    best = None
    targets = [("keep", 0)] + [("table", i) for i in range(len(units))] + [("new", j) for j in range(len(hand) // 3)]
    for placement in product(targets, repeat=len(hand)):
        news = sorted({j for kind, j in placement if kind == "new"})
        if news != list(range(len(news))):
            continue
        if rules.plays_per_turn is not None and len(news) > rules.plays_per_turn:
            continue
        grew = any(kind == "table" for kind, _ in placement)
        if grew and rules.layoff_needs_meld and not melded and not news:
            continue
        groups: dict[tuple, list[Card]] = {}
        kept = []
        for card, (kind, j) in zip(hand, placement):
            if kind == "keep":
                kept.append(card)
            else:
                groups.setdefault((kind, j), []).append(card)
        if rules.keep_one_to_discard and not kept:
            continue
        if not all(whole_here((units[j] if kind == "table" else ()) + tuple(cards), rules)
                   for (kind, j), cards in groups.items()):
            continue
        value = sum(value_here(c, rules) for c in hand) - sum(value_here(c, rules) for c in kept)
        if not kept:
            best = value if best is None else max(best, value)
        for card in set(kept):
            if Counter(hand)[card] > warm[card]:
                total = value + value_here(card, rules)
                best = total if best is None else max(best, total)
    return best


@pytest.mark.parametrize("seed", range(32))
def test_model_matches_brute_force_on_small_positions(seed: int) -> None:
    rng = random.Random(seed)
    rules = LAYOFF_VARIATIONS[seed % len(LAYOFF_VARIATIONS)]
    before = random_layoff_position(rng, rules, hand_size=rng.randint(3, 6), plays=rng.randint(1, 3), small=True)
    expected = brute_force_gain(before)
    solution = solve_layoff(before, CONFIG)
    assert_the_oracles_gain(before, solution, expected)
    if expected is None:
        return
    solved(before)


@pytest.mark.parametrize("seed", range(24))
def test_growths_are_whole_and_both_search_paths_agree(seed: int) -> None:
    rng = random.Random(1000 + seed)
    rules = LAYOFF_VARIATIONS[seed % len(LAYOFF_VARIATIONS)]
    before = random_layoff_position(rng, rules, hand_size=rng.randint(4, 11), plays=rng.randint(1, 5), small=False)
    hand = Counter(c.plain() for c in before.mover.hand)
    for name in before.named_plays():
        unit = before.play_with_layoffs(name)
        for added in growths(unit, hand, before.rules):
            assert readings(unit + added, before.rules), (unit, added)
    for cards in new_plays(hand, before.rules):
        assert readings(cards, before.rules)
    problem, _ = layoff_problem(before)
    quick, model = select(problem, 20), select(problem, 20, force_cp_sat=True)
    assert (quick is None) == (model is None)
    if quick is not None:
        assert quick.value == model.value
        solved(before, force_cp_sat=True)


def test_joker_path_finds_what_the_natural_path_finds() -> None:
    from rummy.model.extend import growth as extend_growth

    rules = preset("straight")
    rng = random.Random(7)
    deck = [Card(r, s) for r in range(1, 14) for s in SUITS]
    for _ in range(40):
        hand = Counter(rng.sample(deck, 9))
        natural: set = set()
        joker: set = set()
        extend_growth._natural_new_runs(hand, rules, natural)
        extend_growth._joker_runs((), hand, rules, joker)
        assert natural == joker
