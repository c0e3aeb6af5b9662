"""The Robber Rummy model (rummy.model.robber): rules, scoring, draw phase, brute force.

Every answer is re-judged by the checker and its gain recomputed from the
two end states. A small brute-force search with its own legality and
scoring (written here, sharing no code with the model) is compared with the
model on seeded random small positions.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import product

import pytest

from rummy.cards import SUITS, Card, parse_cards
from rummy.checker import check, turn_gain
from rummy.checker.robber import judge_draw_alone
from rummy.model.extend.growth import growths, new_plays
from rummy.model.extend.select import select
from rummy.model.robber import pile_openings, robber_gain, robber_problem, solve_robber, stock_draws
from rummy.plays import readings
from rummy.position import Position
from rummy.rules import preset
from rummy.solution import DrawOption, SolverConfig
from rummy.vocabulary import DrawSource
from tests.support.oracle import assert_the_oracles_gain
from tests.support.paths import REPO_ROOT
from tests.support.random_positions import deal_hand_near

ROOT = REPO_ROOT
ROBBER = preset("robber")
CONFIG = SolverConfig(time_limit=20)


def position(players: dict, to_move: str = "cat", discard: str = "4C", stock=40, phase: str = "play") -> Position:
    data = {"rules": "robber", "to_move": to_move, "phase": phase, "players": players,
            "piles": {"discard": discard, "stock": stock}}
    return Position.from_data(data)


def solved(before: Position, **kwargs):
    solution = solve_robber(before, kwargs.pop("config", CONFIG))
    assert solution.status == "optimal", solution.reason
    if before.phase == "draw" and solution.after is None:
        # A random draw is answered alone: the checker judges the draw.
        chosen = solution.draw.chosen
        assert (chosen.source, chosen.value, chosen.cards) == (DrawSource.STOCK, solution.gain, ())
        assert 0 <= chosen.scores_chance <= 1
        assert judge_draw_alone(before, solution.draw.chosen.source).legal
    else:
        after = solution.after
        # The answer is a valid position file and a legal turn worth what it claims.
        Position.from_data(after.to_data())
        verdict = check(before, after)
        assert verdict.legal, [b.message for b in verdict.breaches]
        assert robber_gain(before, after) == solution.gain
        assert float(turn_gain(before, after)) == pytest.approx(solution.gain)
    return solution


def plays_of(after: Position, name: str) -> list[str]:
    return [p.notation(after.rules) for p in after.player(name).plays]


# ------------------------------------------------------------------ scoring
def test_the_sources_run_example_is_worth_120_and_stealing_it_gains_its_old_value_too() -> None:
    before = position({
        "ann": {"hand_count": 5, "plays": ["9S 10S JS QS"]},
        "cat": {"hand": "KS AS"},
    })
    solution = solved(before)
    # 9-10-J-Q-K-A = 120 for cat, ann loses 9-10-J-Q = 70, the K and A leave cat's hand (10 + 15).
    assert solution.gain == 120 + 70 + 25
    assert plays_of(solution.after, "cat") == ["9S 10S JS QS KS AS"]
    assert solution.after.player("ann").plays == ()
    assert solution.after.turn.discard is None  # out without a discard


def test_hand_of_2_3_4_5_J_A_costs_45_and_going_out_with_it_saves_that() -> None:
    before = position({
        "ann": {"hand_count": 5, "plays": ["2S 2H 2C", "3S 3H 3D", "4S 4H 4C", "5S 5H 5D", "JS JH JC", "AS AH AD"]},
        "cat": {"hand": "2D 3C 4D 5C JD AC"},
    })
    solution = solved(before)
    steals = 7 * (5 + 5 + 5 + 5 + 10 + 15)  # each book: new value (4 cards) + old value (3 cards)
    assert solution.gain == steals + 45
    assert solution.after.player("cat").hand == ()
    assert solution.cards_played == 6


def test_low_ace_counts_5_in_a_run_and_15_in_a_book() -> None:
    low = solved(position({"ann": {"hand_count": 5}, "cat": {"hand": "AH 2H 3H"}}))
    assert low.gain == 2 * (5 + 5 + 5) + (15 + 5 + 5)
    book = solved(position({"ann": {"hand_count": 5}, "cat": {"hand": "AH AS AC"}}))
    assert book.gain == 45 + 45


# -------------------------------------------------------------------- rules
def test_plays_are_never_merged() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["3H 4H 5H", "7H 8H 9H"]}, "cat": {"hand": "6H"}})
    solution = solved(before)
    assert solution.gain == (40 + 30) + 5
    for play in solution.after.player("cat").plays:
        assert len(play) == 4
    assert len(solution.after.player("ann").plays) == 1


def test_stealing_needs_a_hand_card() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["3H 4H 5H"]}, "cat": {"hand": "9C KD"}})
    solution = solved(before)
    assert plays_of(solution.after, "ann") == ["3H 4H 5H"]
    assert solution.after.player("cat").plays == ()
    assert solution.gain == 10 and solution.after.turn.discard == Card(13, "D")


def test_stealing_from_an_opponent_beats_growing_a_partners_play() -> None:
    before = position({
        "ann": {"side": "A", "hand_count": 5, "plays": ["6D 7D 8D 9D"]},
        "bob": {"side": "B", "hand_count": 5, "plays": ["7D 8D 9D"]},
        "cat": {"side": "A", "hand": "10D 2C"},
        "dan": {"side": "B", "hand_count": 5},
    })
    solution = solved(before)
    # Partner: 60 - 40 = 20. Opponent: 50 + 30 = 80. Then the 10 leaves the hand, the 2 is discarded.
    assert solution.gain == 80 + 10 + 5
    assert plays_of(solution.after, "ann") == ["6D 7D 8D 9D"]
    assert solution.after.player("bob").plays == ()


def test_partner_play_moves_to_the_mover() -> None:
    before = position({
        "ann": {"side": "A", "hand_count": 5, "plays": ["7D 8D 9D"]},
        "bob": {"side": "B", "hand_count": 5},
        "cat": {"side": "A", "hand": "10D 2C", "plays": ["QS QH QC"]},
    })
    solution = solved(before)
    assert solution.gain == (50 - 30) + 10 + 5
    assert plays_of(solution.after, "cat") == ["QS QH QC", "7D 8D 9D 10D"]
    assert solution.after.player("ann").plays == ()


def test_going_out_with_a_final_discard() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["9S 10S JS QS"]}, "cat": {"hand": "KS AS 7C"}})
    solution = solved(before)
    assert solution.after.player("cat").hand == ()
    assert solution.after.turn.discard == Card(7, "C")
    assert solution.gain == 120 + 70 + 25 + 5


def test_warm_card_is_not_discarded_but_its_twin_may_be() -> None:
    before = position({"ann": {"hand_count": 5}, "cat": {"hand": "KD 2C", "warm": "KD"}})
    solution = solved(before)
    assert solution.after.turn.discard == Card(2, "C")
    twins = position({"ann": {"hand_count": 5}, "cat": {"hand": "KD KD 2C", "warm": "KD"}})
    solution = solved(twins)
    assert solution.after.turn.discard == Card(13, "D")
    assert solution.after.player("cat").warm == parse_cards("KD")


def test_no_legal_turn_when_only_a_warm_card_remains() -> None:
    before = position({"ann": {"hand_count": 5}, "cat": {"hand": "KD", "warm": "KD"}})
    solution = solve_robber(before, CONFIG)
    assert solution.status == "no-legal-turn"
    assert "KD" in solution.reason


def test_hot_cards_must_be_played() -> None:
    played = solved(position({"ann": {"hand_count": 5}, "cat": {"hand": "9C 9D 9S AH", "hot": "9C"}}))
    assert played.after.player("cat").hand == () and played.after.turn.discard == Card(1, "H")
    stuck = solve_robber(position({"ann": {"hand_count": 5}, "cat": {"hand": "9C 5D KS", "hot": "9C"}}), CONFIG)
    assert stuck.status == "no-legal-turn" and "9C" in stuck.reason


def test_two_short_melds_preferred_to_one_long_one() -> None:
    solution = solved(position({"ann": {"hand_count": 5}, "cat": {"hand": "3H 4H 5H 6H 7H 8H"}}))
    assert solution.gain == 2 * 30 + 30
    assert sorted(plays_of(solution.after, "cat")) == ["3H 4H 5H", "6H 7H 8H"]


def test_a_to_k_to_a_run_goes_out() -> None:
    cards = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    solution = solved(position({"ann": {"hand_count": 5}, "cat": {"hand": cards}}))
    assert solution.after.player("cat").hand == ()
    run = 2 * (5 + 8 * 5 + 4 * 10 + 15)
    assert solution.gain == run + 15 + 8 * 5 + 4 * 10 + 15


def test_an_eight_card_book_is_stolen() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["7S 7S 7H 7H 7D 7D 7C"]}, "cat": {"hand": "7C 2D"}})
    solution = solved(before)
    assert plays_of(solution.after, "cat") == ["7S 7S 7H 7H 7D 7D 7C 7C"]
    assert solution.gain == 40 + 35 + 5 + 5


# ---------------------------------------------------------------- draw phase
def draw_position(pile: str, hand: str, stock=40, plays=None) -> Position:
    return position({"ann": {"hand_count": 6, "plays": plays or ["9S 10S JS QS"]}, "bob": {"hand_count": 6},
                     "cat": {"hand": hand}}, discard=pile, stock=stock, phase="draw")


def test_taking_the_pile_melds_its_top_card_and_keeps_the_rest() -> None:
    before = draw_position("KD QD JD 2C KS", "AS 5H")
    solution = solved(before)
    assert solution.draw.chosen.source == DrawSource.PILE
    after = solution.after
    assert after.discard_pile == (solution.after.turn.discard,)
    assert "9S 10S JS QS KS AS" in plays_of(after, "cat")
    assert Card(13, "S") not in after.player("cat").hand
    assert solution.gain == solution.draw.value_of(DrawSource.PILE)
    assert solution.draw.value_of(DrawSource.PILE) > solution.draw.value_of(DrawSource.STOCK)
    # formats.md: the option chosen (the whole pile, top card first) and every option, best first.
    assert solution.draw.chosen.to_data("cards") == {"from": "pile", "cards": ["KS", "2C", "JD", "QD", "KD"], "top": "KS"}
    assert [o.source for o in solution.draw.options] == ["pile", "stock"]
    assert [o.value for o in solution.draw.options] == [
        solution.gain, pytest.approx(solution.draw.value_of(DrawSource.STOCK), abs=1e-3)]


def test_top_card_may_join_a_play_with_hand_cards_but_not_other_pile_cards() -> None:
    # The 9 joins 5-6-7 only with the hand's 8; the pile's own 8 may not help.
    openings = pile_openings(draw_position("8H 9H", "8H 2C", plays=["5H 6H 7H"]))
    assert [plays_of(o, "cat") for o, _, _ in openings] == [["5H 6H 7H 8H 9H"]]
    assert pile_openings(draw_position("8H 9H", "2C", plays=["5H 6H 7H"])) == []


def test_top_cards_new_play_grows_with_pile_cards_and_is_declared_as_it_ends() -> None:
    before = draw_position("5H 6H 4H", "2H 3H 9C")
    solution = solved(before)
    assert solution.draw.chosen.source == DrawSource.PILE
    assert plays_of(solution.after, "cat") == ["2H 3H 4H 5H 6H"]
    assert [p.notation(ROBBER) for p in solution.after.turn.meld] == ["2H 3H 4H 5H 6H"]
    # 5 cards of a run (50) and 2H 3H 9C out of the hand (the 9C discarded); the pile cards came and went.
    assert solution.gain == 50 + 15


def test_unmeldable_top_card_means_the_stock() -> None:
    before = draw_position("AS 2D", "7C 9H")
    solution = solved(before)
    assert solution.draw.chosen.source == DrawSource.STOCK and solution.draw.value_of(DrawSource.PILE) is None
    # A random draw: the answer is the draw alone, the only option, worth its expectation.
    assert solution.after is None and solution.cards_played == 0
    (only,) = solution.draw.options
    assert (only.source, only.value, only.cards) == (DrawSource.STOCK, solution.gain, ())
    assert solution.gain == pytest.approx(solution.draw.value_of(DrawSource.STOCK), abs=1e-3)


def test_stock_expectation_is_the_mean_over_unseen_cards_and_deterministic() -> None:
    before = draw_position("2D", "7C 7D JH")
    first = solve_robber(before, SolverConfig(seed=1))
    second = solve_robber(before, SolverConfig(seed=2))
    assert first.stats == {**second.stats, "wall_time": first.stats["wall_time"]} and first.draw == second.draw
    draws = stock_draws(before)
    assert sum(w for _, w in draws) == 104 - 4 - 3 - 1 == first.draw.unseen
    total = 0.0
    for card, weight in draws:
        drawn = replace(before.replace_player(replace(before.mover, hand=before.mover.hand + (card,))), phase="play")
        total += weight * robber_gain(before, solve_robber(drawn, CONFIG).after)
    assert first.draw.value_of(DrawSource.STOCK) == pytest.approx(total / first.draw.unseen, abs=1e-3)


def test_a_listed_stock_gives_its_top_card() -> None:
    before = draw_position("2D", "7C 7D JH", stock="7H 3S")
    assert stock_draws(before) == [(Card(7, "H"), 1)]
    solution = solved(before)
    # The book of 7s (15); 7C 7D and the discarded J leave the hand (20); the drawn 7H was never in it.
    assert solution.draw.value_of(DrawSource.STOCK) == 15 + 10 + 10 == solution.gain
    # A certain draw: the answer is the whole turn, the stock one card shorter, checked above.
    assert solution.draw.chosen == DrawOption(DrawSource.STOCK, solution.gain, (Card(7, "H"),))
    assert solution.draw.chosen.to_data("cards") == {"from": "stock", "cards": ["7H"]}
    assert solution.after.stock == (Card(3, "S"),)
    assert plays_of(solution.after, "cat") == ["7H 7D 7C"]


def test_empty_stock_and_unmeldable_pile_is_no_legal_turn() -> None:
    solution = solve_robber(draw_position("2D", "7C 9H", stock=0), CONFIG)
    assert solution.status == "no-legal-turn"


# --------------------------------------------------------------- examples
def test_shipped_example_is_optimal_and_steals_the_spade_run() -> None:
    before = Position.from_file(ROOT / "puzzles" / "examples" / "robber.toml")
    solution = solved(before)
    assert "9S 10S JS QS KS AS" in plays_of(solution.after, "cat")


# ----------------------------------------------------- growths are all whole
@pytest.mark.parametrize("seed", range(30))
def test_every_growth_and_new_play_is_whole(seed: int) -> None:
    rng = random.Random(seed)
    before = random_position(rng, hand_size=rng.randint(6, 20), plays=rng.randint(1, 6))
    hand = Counter(before.mover.hand)
    for play in before.named_plays().values():
        for added in growths(play.cards, hand, ROBBER):
            assert readings(play.cards + added, ROBBER), (play, added)
            assert not Counter(added) - hand
    for cards in new_plays(hand, ROBBER):
        assert readings(cards, ROBBER) and not Counter(cards) - hand


@pytest.mark.parametrize("seed", range(12))
def test_exhaustive_search_and_cp_sat_agree(seed: int) -> None:
    rng = random.Random(100 + seed)
    before = random_position(rng, hand_size=rng.randint(5, 14), plays=rng.randint(2, 8))
    problem = robber_problem(before)
    quick = select(problem, 20)
    model = select(problem, 20, force_cp_sat=True)
    assert (quick is None) == (model is None)
    if quick is not None:
        assert quick.value == model.value


# --------------------------------------------------------------- brute force
SMALL_RANKS = (1, 2, 3, 4, 12, 13)
SMALL_SUITS = ("S", "H")


def random_position(rng: random.Random, hand_size: int, plays: int, small: bool = False) -> Position:
    """Whole plays and a hand dealt from two packs (a few ranks and suits when ``small``)."""
    ranks = SMALL_RANKS if small else tuple(range(1, 14))
    suits = SMALL_SUITS if small else SUITS
    deck = Counter({Card(r, s): 2 for r in ranks for s in suits})
    owners = ["ann", "bob", "cat", "dan"]
    owned: dict[str, list[str]] = {name: [] for name in owners}
    for _ in range(plays * 4):
        if sum(len(v) for v in owned.values()) >= plays:
            break
        play = _random_play(rng, deck, ranks, suits)
        if play:
            deck -= Counter(play)
            owned[rng.choice(owners)].append(" ".join(c.notation() for c in play))
    table = [c for plays_ in owned.values() for text in plays_ for c in parse_cards(text)]
    hand = deal_hand_near(rng, deck, hand_size, table)
    sides = {"ann": "A", "bob": "B", "cat": "A", "dan": "B"} if rng.random() < 0.3 else {n: n for n in owners}
    players = {}
    for name in owners:
        entry: dict = {"side": sides[name], "plays": owned[name]}
        if name == "cat":
            entry["hand"] = " ".join(c.notation() for c in hand)
            if hand and rng.random() < 0.3:
                entry["warm"] = hand[0].notation()
        else:
            entry["hand_count"] = 3
        players[name] = entry
    return position(players, discard="", stock=10)


def _random_play(rng: random.Random, deck: Counter, ranks, suits) -> tuple[Card, ...] | None:
    if rng.random() < 0.5:
        rank = rng.choice(ranks)
        cards = [c for c in deck.elements() if c.rank == rank]
        rng.shuffle(cards)
        size = rng.randint(3, 4)
        return tuple(cards[:size]) if len(cards) >= size else None
    suit = rng.choice(suits)
    starts = [r for r in range(1, 13) if all((r + i - 1) % 13 + 1 in ranks for i in range(3))]
    start = rng.choice(starts)
    length = rng.randint(3, 4)
    cards = tuple(Card((start + i - 1) % 13 + 1, suit) for i in range(length))
    if start + length - 1 > 14 or any(deck[c] < n for c, n in Counter(cards).items()):
        return None
    return cards if is_whole_here(cards) else None


def _points(rank: int, ace_high: bool) -> int:
    if rank == 1:
        return 15 if ace_high else 5
    return 10 if rank >= 10 else 5


def is_whole_here(cards) -> bool:
    return score_here(cards) is not None


def score_here(cards) -> int | None:
    """Robber value of a whole play (best reading), None when not whole. Independent of rummy.plays."""
    cards = list(cards)
    n = len(cards)
    if n < 3:
        return None
    best = None
    if len({c.rank for c in cards}) == 1 and n <= 8:
        best = sum(_points(c.rank, True) for c in cards)
    if len({c.suit for c in cards}) == 1 and n <= 14:
        have = sorted(c.rank for c in cards)
        for start in range(1, 16 - n):
            window = [(start + i - 1) % 13 + 1 for i in range(n)]
            if start + n - 1 > 14 or sorted(window) != have:
                continue
            value = 2 * sum(_points(r, start + i == 14) for i, r in enumerate(window))
            best = value if best is None else max(best, value)
    return best


def brute_force_gain(before: Position) -> int | None:
    """Best gain over every placement of every hand card and every discard."""
    mover = before.mover
    hand = list(mover.hand)
    table = [(p.side, play.cards) for p in before.players for play in p.plays]
    warm = Counter(mover.warm)
    best = None
    max_new = len(hand) // 3
    targets = [("keep", 0)] + [("table", i) for i in range(len(table))] + [("new", j) for j in range(max_new)]
    for placement in product(targets, repeat=len(hand)):
        news = sorted({j for kind, j in placement if kind == "new"})
        if news != list(range(len(news))):
            continue  # new plays numbered in order of first use: skip relabellings
        extra: dict[int, list[Card]] = {}
        fresh: dict[int, list[Card]] = {}
        kept: list[Card] = []
        for card, (kind, j) in zip(hand, placement):
            if kind == "keep":
                kept.append(card)
            else:
                (extra if kind == "table" else fresh).setdefault(j, []).append(card)
        gain = 0
        ok = True
        for i, cards in extra.items():
            side, old = table[i]
            new = score_here(old + tuple(cards))
            if new is None:
                ok = False
                break
            gain += new - score_here(old) if side == mover.side else new + score_here(old)
        if not ok:
            continue
        for cards in fresh.values():
            value = score_here(cards)
            if value is None:
                ok = False
                break
            gain += value
        if not ok:
            continue
        gain += sum(_points(c.rank, True) for c in hand) - sum(_points(c.rank, True) for c in kept)
        if not kept:
            best = gain if best is None else max(best, gain)
            continue
        left = Counter(kept)
        for card in left:
            if Counter(hand)[card] > warm[card]:
                total = gain + _points(card.rank, True)
                best = total if best is None else max(best, total)
    return best


@pytest.mark.parametrize("seed", range(30))
def test_model_matches_brute_force_on_small_positions(seed: int) -> None:
    rng = random.Random(seed)
    before = random_position(rng, hand_size=rng.randint(3, 6), plays=rng.randint(1, 3), small=True)
    expected = brute_force_gain(before)
    solution = solve_robber(before, CONFIG)
    assert_the_oracles_gain(before, solution, expected)
    if expected is None:
        return
    verdict = check(before, solution.after)
    assert verdict.legal, [b.message for b in verdict.breaches]
    assert robber_gain(before, solution.after) == expected
