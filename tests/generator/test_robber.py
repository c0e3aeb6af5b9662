"""Robber Rummy puzzles: the exclusion hook of the Robber model, the same-answer form, the ``steal`` kind
(never easy; its traps; its puzzles graded by the ladder).

The hook is checked against a brute force written here: every selection of
choices the hand allows, each read into its final table by this file's own
reading; excluding a table must forbid exactly the selections that give it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from rummy.answer import best
from rummy.cards import Card
from rummy.checker import check
from rummy.errors import RummyError
from rummy.generator import FAMILIES, KINDS, TIERS, Request, generate, validate
from rummy.generator.deck import DeckPool
from rummy.generator.robber_kinds import (
    SHAPES,
    STEAL_TIERS,
    TRAPS,
    _plant_trap,
    _steal_gain,
    accept_steal,
    canonical,
    make_steal,
)
from rummy.ladder import climb, ladder_of
from rummy.model.extend.select import select
from rummy.model.robber import excluded_counts, robber_problem, solve_robber
from rummy.plays import Play, is_whole
from rummy.position import Position
from rummy.rules import preset
from rummy.scoring import penalty
from rummy.solution import SolverConfig
from rummy.vocabulary import Tier
from tests.support.judged import judged
from tests.support.oracle import assert_each_final_state_once_best_first, every_selection

ROBBER = preset("robber")
CONFIG = SolverConfig(time_limit=10, workers=1)


def position(players: dict, to_move: str = "cat", discard: str = "4C", stock: int = 40) -> Position:
    data = {"rules": "robber", "to_move": to_move, "phase": "play", "players": players,
            "piles": {"discard": discard, "stock": stock}}
    return Position.from_data(data)


def tables_of(after: Position) -> dict[str, list[str]]:
    return {p.name: sorted(play.notation(after.rules) for play in p.plays) for p in after.players}


def every_answer(before: Position) -> list:
    """Solve again and again, each time excluding every table found, until no turn is left."""
    found, excluded = [], []
    for _ in range(200):
        solution = judged(before, solve_robber(before, replace(CONFIG, exclude=tuple(excluded))))
        if solution.status == "no-legal-turn":
            return found + [solution]
        assert solution.status == "optimal"
        found.append(solution)
        excluded.append(solution.after)
    raise AssertionError("more than 200 tables")


# ------------------------------------------------------------------ the hook
def test_an_excluded_best_table_is_not_answered_again_and_the_second_is_legal() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["7H 8H 9H", "QS QH QD"]}, "cat": {"hand": "10H QC 2D"}})
    first = judged(before, solve_robber(before, CONFIG))
    second = judged(before, solve_robber(before, replace(CONFIG, exclude=(first.after,))))
    assert first.status == second.status == "optimal"
    assert canonical(second.after) != canonical(first.after)
    assert second.gain <= first.gain
    verdict = check(before, second.after)
    assert verdict.legal, [b.message for b in verdict.breaches]


def test_excluding_nothing_changes_nothing() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["7H 8H 9H", "QS QH QD"]}, "cat": {"hand": "10H QC 2D"}})
    plain, hooked = judged(before, solve_robber(before, CONFIG)), judged(before, solve_robber(before, replace(CONFIG, exclude=())))
    assert plain.after == hooked.after and plain.gain == hooked.gain


def test_excluding_every_table_leaves_no_legal_turn_with_a_reason() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["7H 8H 9H"]}, "cat": {"hand": "10H 6H 2D"}})
    answers = every_answer(before)
    last = answers[-1]
    assert last.status == "no-legal-turn" and last.after is None
    assert "excluded" in last.reason
    tables = [canonical(s.after) for s in answers[:-1]]
    assert len(tables) == len(set(tables))  # each table once
    # 10H and 6H each onto the run or not, or both; the 6H alone also makes no play: 4 tables.
    assert len(tables) == 4


def test_identical_plays_of_one_owner_are_one_table() -> None:
    # Stealing either copy of 3H 4H 5H leaves the same table: excluded once, both are gone.
    before = position({"ann": {"hand_count": 5, "plays": ["3H 4H 5H", "3H 4H 5H"]}, "cat": {"hand": "6H 9C"}})
    first = judged(before, solve_robber(before, CONFIG))
    assert tables_of(first.after)["cat"] == ["3H 4H 5H 6H"]
    second = judged(before, solve_robber(before, replace(CONFIG, exclude=(first.after,))))
    assert tables_of(second.after)["cat"] == []  # no steal of the other copy
    problem = robber_problem(before, (first.after,))
    assert len(problem.forbidden) == 2  # grow copy 1, grow copy 2
    assert select(problem, 10, force_cp_sat=True).counts not in problem.forbidden


def test_an_own_play_grown_beside_a_new_play_is_the_new_play_grown_instead() -> None:
    # 3H 4H 5H + 6H and a new 3H 4H 5H, or the old one alone and a new 3H 4H 5H 6H: one table.
    before = position({"ann": {"hand_count": 5, "plays": ["9S 10S JS"]},
                       "cat": {"hand": "3H 4H 5H 6H 2C", "plays": ["3H 4H 5H"]}})
    first = judged(before, solve_robber(before, CONFIG))
    assert tables_of(first.after)["cat"] == ["3H 4H 5H", "3H 4H 5H 6H"]
    problem = robber_problem(before, (first.after,))
    assert len(problem.forbidden) == 2
    for force in (False, True):
        again = select(problem, 10, force_cp_sat=force)
        assert again.counts not in problem.forbidden
    second = judged(before, solve_robber(before, replace(CONFIG, exclude=(first.after,))))
    assert tables_of(second.after)["cat"] != ["3H 4H 5H", "3H 4H 5H 6H"]


def test_the_exhaustive_search_and_cp_sat_honour_the_same_exclusions() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["7H 8H 9H", "QS QH QD", "2C 3C 4C"]},
                       "cat": {"hand": "10H 6H QC 5C AC QS 9D"}})
    excluded: list[Position] = []
    for _ in range(6):
        problem = robber_problem(before, tuple(excluded))
        quick, model = select(problem, 10), select(problem, 10, force_cp_sat=True)
        assert quick.method == "enumeration" and model.method == "cp-sat"
        assert quick.value == model.value
        assert quick.counts not in problem.forbidden and model.counts not in problem.forbidden
        excluded.append(judged(before, solve_robber(before, replace(CONFIG, exclude=tuple(excluded)))).after)


def test_the_draw_phase_refuses_exclusions() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["7H 8H 9H"]}, "cat": {"hand": "10H 2D"}})
    drawing = replace(before, phase="draw")
    with pytest.raises(RummyError):
        solve_robber(drawing, replace(CONFIG, exclude=(before,)))


# ------------------------------------------- the hook against a brute force
RANKS, SUITS_USED = (3, 4, 5, 6, 7), ("H", "S")


def small_position(rng: random.Random) -> Position:
    """Few ranks and suits, so plays repeat; sometimes partners; the mover may own plays."""
    deck = Counter({Card(r, s): 2 for r in RANKS for s in SUITS_USED})
    names = ["ann", "bob", "cat"]
    sides = {"ann": "A", "bob": "B", "cat": "A"} if rng.random() < 0.4 else {n: n for n in names}
    owned: dict[str, list[str]] = {n: [] for n in names}
    for _ in range(rng.randint(3, 6)):
        if rng.random() < 0.6:
            suit, start = rng.choice(SUITS_USED), rng.randint(3, 5)
            cards = [Card(r, suit) for r in range(start, start + 3)]
        else:
            rank = rng.choice(RANKS)
            cards = [Card(rank, rng.choice(SUITS_USED)) for _ in range(3)]
        if all(deck[c] >= n for c, n in Counter(cards).items()):
            deck -= Counter(cards)
            owned[rng.choice(names)].append(" ".join(c.notation() for c in cards))
    pool = sorted(deck.elements())
    rng.shuffle(pool)
    hand = pool[: rng.randint(3, 7)]
    players = {}
    for name in names:
        entry: dict = {"side": sides[name], "plays": owned[name]}
        if name == "cat":
            entry["hand"] = " ".join(c.notation() for c in hand)
        else:
            entry["hand_count"] = 3
        players[name] = entry
    return position(players, discard="", stock=10)


def brute_force_tables(before: Position) -> dict[tuple, set[tuple[int, ...]]]:
    """Every selection the hand allows, grouped by the final table it gives (read here, not by the model)."""
    problem = robber_problem(before)
    choices = problem.choices
    table = [(p.name, play.cards) for p in before.players for play in p.plays]
    mover = before.to_move
    groups: dict[tuple, set[tuple[int, ...]]] = {}

    def read(counts: list[int]) -> tuple:
        lists: dict[str, list[tuple]] = {p.name: [] for p in before.players}
        grown = {choices[i].target: choices[i].added for i, n in enumerate(counts) if n and choices[i].target is not None}
        for index, (owner, cards) in enumerate(table):
            if index in grown:
                lists[mover].append(tuple(sorted(cards + grown[index])))
            else:
                lists[owner].append(tuple(sorted(cards)))
        for i, n in enumerate(counts):
            if n and choices[i].target is None:
                lists[mover] += [tuple(sorted(choices[i].added))] * n
        return tuple((name, tuple(sorted(plays))) for name, plays in sorted(lists.items()))

    def leaf(counts: list[int], left: Counter) -> None:
        groups.setdefault(read(counts), set()).add(tuple(counts))


    every_selection(choices, problem.hand, leaf)
    return groups


def position_with_table(before: Position, key: tuple, rng: random.Random) -> Position:
    """``before`` with the final table ``key`` laid out, each list in a shuffled order."""
    lists = dict(key)
    players = []
    for p in before.players:
        plays = [Play(cards) for cards in lists[p.name]]
        rng.shuffle(plays)
        players.append(replace(p, plays=tuple(plays)))
    return replace(before, players=tuple(players))


@pytest.mark.parametrize("seed", range(20))
def test_excluding_a_table_forbids_exactly_the_selections_that_give_it(seed: int) -> None:
    rng = random.Random(seed)
    before = small_position(rng)
    choices = robber_problem(before).choices
    groups = brute_force_tables(before)
    for key, selections in groups.items():
        excluded = position_with_table(before, key, rng)
        assert set(excluded_counts(before, choices, excluded)) == selections


@pytest.mark.parametrize("seed", range(6))
def test_solving_with_exclusions_visits_every_table_once(seed: int) -> None:
    before = small_position(random.Random(seed))
    tables = brute_force_tables(before)
    answers = every_answer(before)
    assert_each_final_state_once_best_first(answers, canonical, tables)
    for solution in answers[:-1][:3]:
        assert check(before, solution.after).legal
    # CP-SAT, with the same exclusions at every step, finds the same value and never an excluded selection.
    for step in range(len(answers)):
        problem = robber_problem(before, tuple(s.after for s in answers[:step]))
        quick, model = select(problem, 10), select(problem, 10, force_cp_sat=True)
        assert (quick is None) == (model is None) == (step == len(answers) - 1)
        if model is not None:
            assert model.value == quick.value and model.counts not in problem.forbidden


def test_a_new_play_laid_twice_is_excluded_with_its_count() -> None:
    # Two copies of 3H 4H 5H in hand: laying it twice, once, or not are three tables.
    before = position({"ann": {"hand_count": 5, "plays": ["9S 10S JS"]}, "cat": {"hand": "3H 4H 5H 3H 4H 5H 2C"}})
    problem = robber_problem(before)
    assert max(c.copies for c in problem.choices) == 2
    first = judged(before, solve_robber(before, CONFIG))
    assert tables_of(first.after)["cat"] == ["3H 4H 5H", "3H 4H 5H"]
    problem = robber_problem(before, (first.after,))
    for force in (False, True):
        again = select(problem, 10, force_cp_sat=force)
        assert again.counts not in problem.forbidden and again.value < first.gain


# ----------------------------------------------------------- the same answer
def test_canonical_ignores_the_order_of_plays_and_cards_and_the_discard() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["7H 8H 9H", "QS QH QD"]}, "cat": {"hand": "10H QC 2D 3D"}})
    after = judged(before, solve_robber(before, CONFIG)).after
    shuffled = replace(after, players=tuple(
        replace(p, plays=tuple(Play(tuple(reversed(play.cards))) for play in reversed(p.plays))) for p in after.players))
    other_discard = replace(after, discard_pile=after.discard_pile[:-1] + (Card(3, "D"),))
    assert canonical(shuffled) == canonical(after) == canonical(other_discard)
    assert canonical(before) != canonical(after)


def test_canonical_tells_owners_apart() -> None:
    cat_owns = position({"ann": {"hand_count": 5}, "cat": {"hand": "2D", "plays": ["7H 8H 9H"]}})
    ann_owns = position({"ann": {"hand_count": 5, "plays": ["7H 8H 9H"]}, "cat": {"hand": "2D"}})
    assert canonical(cat_owns) != canonical(ann_owns)
    assert FAMILIES["robber"].ambiguity(ann_owns, cat_owns) is None


# ------------------------------------------------------------------ the kind
def test_an_answer_that_steals_nothing_is_rejected() -> None:
    before = position({"ann": {"hand_count": 5, "plays": ["7H 8H 9H"]}, "cat": {"hand": "2S 3S 4S 9C"}},
                      to_move="cat")
    answer = best(before, CONFIG)
    assert accept_steal(before, answer) == "no steal in the answer"
    stealing = position({"ann": {"hand_count": 5, "plays": ["7H 8H 9H"]}, "cat": {"hand": "10H 9C"}})
    assert accept_steal(stealing, best(stealing, CONFIG)) is None


def test_the_kind_is_never_easy_and_easy_is_refused_in_one_line() -> None:
    # Every answer steals, and extend (the easy rung) never steals.
    assert KINDS["robber", "steal"].tiers == STEAL_TIERS == (Tier.MEDIUM, Tier.HARD, Tier.EXPERT)
    with pytest.raises(RummyError) as refused:
        validate(Request(rules="robber", kind="steal", count=1, tier=Tier.EASY))
    assert str(refused.value) == "--difficulty: kind 'steal' is never easy (its tiers: medium, hard, expert)"


@pytest.mark.parametrize("tier", STEAL_TIERS)
def test_deals_are_valid_and_reproducible(tier: Tier) -> None:
    made = 0
    for i in range(8):
        dealt = make_steal(random.Random(f"t/{tier}/{i}"), ROBBER, tier)
        assert dealt == make_steal(random.Random(f"t/{tier}/{i}"), ROBBER, tier)
        if dealt is None:
            continue
        made += 1
        assert Position.from_data(dealt.to_data()) == dealt  # strict: whole plays, counts within two packs
        size = len(dealt.mover.hand or ())
        if tier in TRAPS:  # each trap's X and chain, then the extra cards
            shape = TRAPS[tier]
            assert 2 * shape.traps[0] + shape.extra[0] <= size <= 3 * shape.traps[1] + shape.extra[1]
        else:
            low, high = SHAPES[tier].hand
            assert low <= size <= high
        assert 2 <= len(dealt.players) <= 3 and dealt.phase == "play"
        assert dealt.discard_pile and dealt.stock > 0
        assert all(p.hand_count for p in dealt.players if p.name != dealt.to_move)
        assert sum(len(p.plays) for p in dealt.players if p.name != dealt.to_move) >= 2
        assert all(is_whole(play.cards, ROBBER) for p in dealt.players for play in p.plays)
    assert made >= 2


def own_gain(play: list[Card], card: Card) -> int:
    score = ROBBER.family.play_score
    return score(tuple(play) + (card,), ROBBER) - score(tuple(play), ROBBER) + penalty(card, ROBBER)


@pytest.mark.parametrize("seed", range(12))
def test_a_trap_is_a_card_whose_best_place_now_loses_the_chain(seed: int) -> None:
    rng = random.Random(seed)
    pool = DeckPool(ROBBER)
    planted = _plant_trap(rng, pool, ROBBER, 15, [], [])
    assert planted is not None
    run, big, (x, *chain) = planted
    assert 1 <= len(chain) <= 2
    assert is_whole(tuple(run), ROBBER) and is_whole(tuple(big), ROBBER)
    assert is_whole(tuple(run) + (x,), ROBBER) and is_whole(tuple(big) + (x,), ROBBER)
    assert not any(is_whole(tuple(play) + (c,), ROBBER) for c in chain for play in (run, big, big + [x]))
    # Greedy: X steals the big play (strictly more now). Right: X on the run, the chain after it.
    now_big, now_run = _steal_gain(big, x, ROBBER), _steal_gain(run, x, ROBBER)
    assert now_big > now_run
    grown, chained = run + [x], now_run
    for card in chain:
        assert is_whole(tuple(grown) + (card,), ROBBER)
        chained += own_gain(grown, card)
        grown = grown + [card]
    assert chained - now_big >= 15


@pytest.mark.parametrize("tier", STEAL_TIERS)
def test_generated_puzzles_are_past_every_rung_below_their_tier(tier: Tier) -> None:
    assert "out of your hand" in KINDS["robber", "steal"].task_for(preset("robber"))  # the hand penalty counts
    # spread=False: two puzzles test the grading; the spread rule is tested in tests/generator/test_themes_generate.py.
    report = generate(Request(rules="robber", kind="steal", count=2, tier=tier, seed=3, workers=1, max_candidates=60,
                              spread=False))
    assert len(report.puzzles) == 2
    for puzzle in report.puzzles:
        assert puzzle.tier == tier
        after = Position.from_data(puzzle.answer["after"])
        assert check(puzzle.position, after).legal
        assert accept_steal(puzzle.position, best(puzzle.position, CONFIG)) is None
        assert isinstance(puzzle.margin, str) or puzzle.margin >= FAMILIES["robber"].margin_bars[TIERS.index(tier)]
        # The best table again, excluded: the second answer is strictly worse.
        second = judged(puzzle.position, solve_robber(puzzle.position, replace(CONFIG, exclude=(after,))))
        assert second.status == "no-legal-turn" or second.gain < puzzle.answer["gain"]
        # The ladder: every rung's turn is legal; the rungs below the tier fall short, the tier's rung reaches it.
        optimum = Fraction(puzzle.answer["gain"])
        found = climb(puzzle.position, None)
        rungs = ladder_of(puzzle.position)
        for rung, step in zip(rungs, found):
            assert step.after is not None and step.gain is not None
            assert check(puzzle.position, step.after).legal, step.rung
            assert step.gain <= optimum
            if TIERS.index(rung.tier) < TIERS.index(tier):
                assert step.gain < optimum, step.rung
            elif rung.tier == tier:
                assert step.gain == optimum and puzzle.difficulty.rung == rung.name
        if tier == Tier.EXPERT:
            assert all(step.gain is not None and step.gain < optimum for step in found)
            assert puzzle.difficulty.rung is None
