"""Lay-off rummy puzzles: the exclusion hook of the lay-off model, the same-answer form, the kinds
``go-out`` and ``most-points``.

The hook is checked against a brute force written here: every selection of
choices and every discard the hand allows, each laid out by the model and
read into its final state; excluding a state must forbid exactly the
(selection, discard) pairs that give it, and solving again and again with
every state found excluded must visit each state once, best first.

The generator's tests grade with the real ladder (``rummy.ladder.layoff``):
a medium or hard puzzle is not solved by the rungs below its tier, its own
rung reaches the optimum, and every rung's turn is legal.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from rummy.answer import Answer
from rummy.cards import Card
from rummy.checker import check
from rummy.errors import RummyError
from rummy.generator import FAMILIES, KINDS, Request, generate, kind_for
from rummy.generator.candidate_search import validate
from rummy.generator.layoff_kinds import SHAPES, accept_go_out, accept_most_points, canonical, deal
from rummy.ladder import climb, ladder_of
from rummy.model.extend.select import Selection
from rummy.model.layoff import _after, excluded_pairs, final_state, layoff_problem, solve_layoff
from rummy.plays import is_whole
from rummy.position import Position
from rummy.rules import preset
from rummy.solution import Solution, SolverConfig
from rummy.vocabulary import PuzzleKind, Tier
from tests.support.judged import judged
from tests.support.oracle import assert_each_final_state_once_best_first, every_selection

CONFIG = SolverConfig(time_limit=10, workers=1)


def position(players: dict, rules: object = "traditional", to_move: str = "cat", discard: str = "JC",
             stock: int = 20) -> Position:
    data = {"rules": rules, "to_move": to_move, "phase": "play", "players": players,
            "piles": {"discard": discard, "stock": stock}}
    return Position.from_data(data)


def every_answer(before: Position, force_cp_sat: bool = False, most: int = 400) -> list:
    """Solve again and again, each time excluding every final state found, until no turn is left
    (at most ``most`` answers)."""
    found, excluded = [], []
    for _ in range(most):
        solution = solve_layoff(before, replace(CONFIG, exclude=tuple(excluded)), force_cp_sat=force_cp_sat)
        if solution.status == "no-legal-turn":
            return found + [solution]
        assert solution.status == "optimal"
        judged(before, solution)
        found.append(solution)
        excluded.append(solution.after)
    if most < 400:
        return found
    raise AssertionError("more than 400 final states")


# ------------------------------------------------------------------ the hook
BASIC = {"bob": {"hand_count": 5, "space": ["7H 8H 9H"]}, "cat": {"hand": "10H 6H KS QD 2C 3C 4C"}}


def test_an_excluded_best_state_is_not_answered_again_and_the_second_is_legal() -> None:
    before = position(BASIC)
    first = judged(before, solve_layoff(before, CONFIG))
    second = judged(before, solve_layoff(before, replace(CONFIG, exclude=(first.after,))))
    assert first.status == second.status == "optimal"
    assert final_state(second.after) != final_state(first.after)
    assert second.gain <= first.gain


def test_excluding_nothing_changes_nothing() -> None:
    before = position(BASIC)
    plain = solve_layoff(before, CONFIG)
    hooked = solve_layoff(before, replace(CONFIG, exclude=()))
    assert plain.after == hooked.after and plain.gain == hooked.gain


def test_the_discard_is_part_of_the_excluded_state() -> None:
    # Lay off 10H and 6H, meld 2C 3C 4C, discard the king or the queen (10 points each): excluded, the
    # same table comes back with the other one discarded, another state as good.
    before = position(BASIC)
    first = judged(before, solve_layoff(before, CONFIG))
    second = judged(before, solve_layoff(before, replace(CONFIG, exclude=(first.after,))))
    assert final_state(second.after)[0] == final_state(first.after)[0]
    assert {first.after.turn.discard, second.after.turn.discard} == {Card(13, "S"), Card(12, "D")}
    assert second.gain == first.gain
    third = judged(before, solve_layoff(before, replace(CONFIG, exclude=(first.after, second.after))))
    assert third.gain < first.gain


def test_excluding_every_state_leaves_no_legal_turn_with_a_reason() -> None:
    before = position({"bob": {"hand_count": 5, "space": ["7H 8H 9H"]}, "cat": {"hand": "10H 6H 2D"}})
    answers = every_answer(before)
    last = answers[-1]
    assert last.status == "no-legal-turn" and last.after is None and "excluded" in last.reason
    states = [final_state(s.after) for s in answers[:-1]]
    assert len(states) == len(set(states))
    # No meld: lay off neither (3 discards), 10H alone (2), 6H alone (2) or both (2D discarded): 8 states.
    assert len(states) == 8


def test_going_out_without_a_discard_is_another_state_than_going_out_with_one() -> None:
    before = position({"bob": {"hand_count": 5, "space": ["7H 8H 9H"]}, "cat": {"hand": "10H 6H"}})
    answers = every_answer(before)[:3]
    assert all(s.after.player("cat").hand == () and s.gain == 16 for s in answers)  # going out, three ways
    assert {s.after.turn.discard for s in answers} == {None, Card(10, "H"), Card(6, "H")}
    assert len({final_state(s.after) for s in answers}) == 3  # so the go-out kind rejects such a hand


def test_a_lay_off_on_either_of_two_plays_is_two_states() -> None:
    # 9S fits bob's run and cat's book: which play gets it is the answer.
    before = position({"bob": {"hand_count": 4, "space": ["6S 7S 8S"]}, "ann": {"hand_count": 4, "space": ["9H 9D 9C"]},
                       "cat": {"hand": "9S 2D"}}, discard="KC")
    answers = every_answer(before)
    out = [s for s in answers[:-1] if s.after.player("cat").hand == ()]
    assert all(s.after.turn.discard == Card(2, "D") and s.gain == 11 for s in out)
    assert len(out) == 2 and len({final_state(s.after) for s in out}) == 2


def test_excluding_with_cp_sat_finds_what_the_enumeration_finds() -> None:
    before = position({"bob": {"hand_count": 5, "space": ["7H 8H 9H", "QS QH QC", "2S 3S 4S"]},
                       "cat": {"hand": "10H 6H QD 5S AS 9C 9D 9S KD"}})
    quick, model = every_answer(before, most=10), every_answer(before, force_cp_sat=True, most=10)
    assert [s.gain for s in quick] == [s.gain for s in model]
    assert len({final_state(s.after) for s in model}) == 10


# ------------------------------------------- the hook against a brute force
RANKS = (1, 2, 3, 4, 5, 6, 7)
SUITS_USED = ("H", "S", "D")
VARIATIONS: tuple[object, ...] = (
    "traditional", "straight",
    {"preset": "traditional", "plays_per_turn": "none"},
    {"preset": "traditional", "layoff_needs_meld": True},
    {"preset": "straight", "keep_one_to_discard": True},
)


TWO_PACKS = {"preset": "traditional", "copies": 2, "plays_per_turn": "none"}


def small_position(rng: random.Random) -> Position:
    """Few ranks and suits, so cards fit several plays; an earlier lay-off now and then; rule
    variations; with two packs, identical plays and a hand that can copy a play of its own."""
    rules = rng.choice(VARIATIONS + (TWO_PACKS, TWO_PACKS))
    resolved = preset(rules) if isinstance(rules, str) else preset(str(rules["preset"])).with_options(
        {k: v for k, v in rules.items() if k != "preset"})
    deck = Counter({Card(r, s): resolved.copies for r in RANKS for s in SUITS_USED})
    names = ["ann", "bob", "cat"]
    spaces: dict[str, list[list[Card]]] = {n: [] for n in names}
    laid: list[list[Card]] = []
    for _ in range(rng.randint(2, 4)):
        if laid and rng.random() < 0.3:
            cards = list(rng.choice(laid))
        elif rng.random() < 0.6:
            suit, start = rng.choice(SUITS_USED), rng.randint(1, 5)
            cards = [Card(r, suit) for r in range(start, start + 3)]
        else:
            rank = rng.choice(RANKS)
            cards = [Card(rank, s) for s in SUITS_USED]
        if all(deck[c] >= n for c, n in Counter(cards).items()):
            deck -= Counter(cards)
            laid.append(cards)
            spaces[rng.choice(names)].append(cards)
    layoffs: dict[str, list[str]] = {n: [] for n in names}
    owners = [(n, i) for n in names for i in range(1, len(spaces[n]) + 1)]
    if owners and rng.random() < 0.5:
        owner, i = rng.choice(owners)
        play = spaces[owner][i - 1]
        fitting = [c for c in sorted(deck) if deck[c] > 0 and is_whole(tuple(play) + (c,), resolved)]
        if fitting:
            card = rng.choice(fitting)
            deck[card] -= 1
            layoffs[rng.choice(["bob", "ann"])].append(f"{owner}/{i} {card.notation()}")
    pool = sorted(deck.elements())
    rng.shuffle(pool)
    hand = pool[: rng.randint(3, 6)]
    if resolved.copies == 2 and spaces["cat"] and rng.random() < 0.5:  # a copy of one of cat's plays, to grow or lay
        copy = spaces["cat"][0]
        if all(deck[c] >= n for c, n in Counter(copy).items()):
            hand = copy + [c for c in hand if c not in copy][:2]
    players = {}
    for name in names:
        entry: dict = {"space": [" ".join(c.notation() for c in p) for p in spaces[name]], "layoffs": layoffs[name],
                       # The checker reads "melded before" from ``melded`` alone, the model also from plays
                       # on the table: positions here keep the two consistent (as the generator's deals do).
                       "melded": bool(spaces[name] or layoffs[name])}
        if name == "cat":
            entry["hand"] = " ".join(c.notation() for c in hand)
        else:
            entry["hand_count"] = 3
        players[name] = entry
    return position(players, rules=rules, discard="KC", stock=10)


def brute_force_states(before: Position) -> dict:
    """Every legal (selection, discard) pair, grouped by the final state the model lays out for it."""
    problem, names = layoff_problem(before)
    choices = problem.choices
    total = sum(problem.hand.values())
    groups: dict = {}

    def leaf(counts: list[int], left: Counter) -> None:
        new = sum(n for c, n in zip(choices, counts) if c.target is None)
        grew = any(n for c, n in zip(choices, counts) if c.target is not None)
        if problem.max_new is not None and new > problem.max_new:
            return
        if problem.growth_needs_new and grew and not new:
            return
        remaining = sum(left.values())
        discards: list[Card | None] = [c for c in left if left[c] > 0]
        if remaining == 0:
            if problem.keep_one:
                return
            discards = [None]
        for discard in discards:
            value = sum(c.value * n for c, n in zip(choices, counts))
            value += problem.discard_value[discard] if discard is not None else 0
            selection = Selection(tuple(counts), discard, value, value, True, "brute", 0.0)
            after, _ = _after(before, problem, names, selection)
            groups.setdefault(final_state(after), set()).add((tuple(counts), discard))


    assert total == sum(problem.hand.values())
    every_selection(choices, problem.hand, leaf)
    return groups


def representative(before: Position, pairs: set) -> Position:
    problem, names = layoff_problem(before)
    counts, discard = sorted(pairs, key=str)[0]
    return _after(before, problem, names, Selection(counts, discard, 0, 0, True, "brute", 0.0))[0]


@pytest.mark.parametrize("seed", range(30))
def test_excluding_a_state_forbids_exactly_the_pairs_that_give_it(seed: int) -> None:
    before = small_position(random.Random(seed))
    problem, names = layoff_problem(before)
    groups = brute_force_states(before)
    legal = {pair for pairs in groups.values() for pair in pairs}
    for state, pairs in groups.items():
        excluded = representative(before, pairs)
        barred = excluded_pairs(before, problem, names, (excluded,))
        forbidden = {(counts, discard) for counts, discards in barred.items() for discard in discards}
        assert forbidden & legal == pairs, state


@pytest.mark.parametrize("players", [
    # Two identical plays of bob: 6H laid off on either is one state.
    {"bob": {"hand_count": 4, "space": ["3H 4H 5H", "3H 4H 5H"]}, "cat": {"hand": "6H 9C"}},
    # cat's own 3H 4H 5H grown by 6H beside a new 3H 4H 5H, or left alone beside a new 3H 4H 5H 6H: one state.
    {"bob": {"hand_count": 4, "space": ["9S 10S JS"]},
     "cat": {"hand": "3H 4H 5H 6H 2C", "space": ["3H 4H 5H"], "melded": True}},
])
def test_one_state_from_two_selections_is_excluded_whole(players: dict) -> None:
    before = position(players, rules=TWO_PACKS)
    problem, names = layoff_problem(before)
    groups = brute_force_states(before)
    first = judged(before, solve_layoff(before, CONFIG))
    pairs = groups[final_state(first.after)]
    assert len(pairs) == 2
    barred = excluded_pairs(before, problem, names, (first.after,))
    assert {(counts, d) for counts, discards in barred.items() for d in discards} == pairs
    for force in (False, True):
        second = judged(before, solve_layoff(before, replace(CONFIG, exclude=(first.after,)), force_cp_sat=force))
        assert final_state(second.after) != final_state(first.after)
        assert second.gain < first.gain


@pytest.mark.parametrize("seed", range(12))
def test_solving_with_exclusions_visits_every_state_once_best_first(seed: int) -> None:
    before = small_position(random.Random(seed))
    groups = brute_force_states(before)
    found = assert_each_final_state_once_best_first(every_answer(before), final_state, groups)
    assert set(found) == set(groups)


# ----------------------------------------------------------- the same answer
def test_canonical_ignores_order_but_tells_discards_and_lay_off_targets_apart() -> None:
    before = position(BASIC)
    after = solve_layoff(before, CONFIG).after
    shuffled = replace(after, players=tuple(
        replace(p, plays=tuple(reversed(p.plays))) for p in after.players))
    assert canonical(shuffled) == canonical(after)
    other_discard = replace(after, turn=replace(after.turn, discard=Card(12, "D")))
    assert canonical(other_discard) != canonical(after)
    assert canonical(before) != canonical(after)
    assert FAMILIES["layoff"].ambiguity(before, after) is None


# ------------------------------------------------------------------ the kinds
def test_the_kinds_are_registered_and_offered() -> None:
    assert {PuzzleKind("go-out"), PuzzleKind("most-points")} <= set(PuzzleKind)
    for rules in ("straight", "traditional"):
        # the gain counts every card out of the hand, so the task names the meld and the discard too
        assert kind_for("go-out", preset(rules)).task_for(preset(rules)).startswith("go out this turn: ")
        most = kind_for("most-points", preset(rules)).task_for(preset(rules))
        assert all(word in most for word in ("melded", "laid off", "discarded"))
    assert KINDS["layoff", "go-out"].families == ("layoff",)
    bars = FAMILIES["layoff"].margin_bars
    assert list(bars) == sorted(bars) and bars[0] == 0


@pytest.mark.parametrize("kind", ["go-out", "most-points"])
def test_expert_is_refused_at_once(kind: str) -> None:
    # keep-for-layoff searches the whole turn: no lay-off puzzle is ever expert.
    assert Tier.EXPERT not in KINDS["layoff", kind].tiers
    with pytest.raises(RummyError, match=f"kind '{kind}' is never expert"):
        validate(Request(rules="straight", kind=kind, count=1, tier=Tier.EXPERT))


def test_going_out_is_never_hard() -> None:
    # a unique turn that goes out leaves nothing best-meld could still play
    assert KINDS["layoff", "go-out"].tiers == (Tier.EASY, Tier.MEDIUM)
    assert KINDS["layoff", "most-points"].tiers == (Tier.EASY, Tier.MEDIUM, Tier.HARD)
    with pytest.raises(RummyError, match="kind 'go-out' is never hard"):
        validate(Request(rules="straight", kind="go-out", count=1, tier=Tier.HARD))


@pytest.mark.parametrize("rules", ["straight", "traditional"])
def test_hard_most_points_hands_hold_a_warm_card_no_play_takes(rules: str) -> None:
    ruleset = preset(rules)
    for i in range(8):
        dealt = deal(random.Random(f"w/{i}"), ruleset, Tier.HARD, False)
        if dealt is None:
            continue
        mover = dealt.mover
        assert len(mover.warm) == 1 and mover.warm[0] in mover.hand
        table = [tuple(dealt.play_with_layoffs(name)) for name in dealt.named_plays()]
        assert table and not any(is_whole(cards + mover.warm, ruleset) for cards in table)


@pytest.mark.parametrize("rules", ["straight", "traditional"])
@pytest.mark.parametrize("tier", sorted(SHAPES))
def test_deals_are_valid_reproducible_and_sized_by_tier(rules: str, tier: Tier) -> None:
    ruleset = preset(rules)
    for going_out in (True, False):
        for i in range(6):
            dealt = deal(random.Random(f"t/{tier}/{i}"), ruleset, tier, going_out)
            assert dealt == deal(random.Random(f"t/{tier}/{i}"), ruleset, tier, going_out)
            if dealt is None:
                continue
            assert Position.from_data(dealt.to_data()) == dealt  # strict: whole plays, one pack
            assert 1 <= len(dealt.mover.hand) <= SHAPES[tier].hand[1]
            assert 2 <= len(dealt.players) <= 3 and dealt.phase == "play"
            assert dealt.discard_pile and dealt.stock > 0
            assert all(p.hand_count and p.hand_count > 0 for p in dealt.players if p.name != dealt.to_move)
            assert sum(len(p.plays) for p in dealt.players if p.name != dealt.to_move) >= SHAPES[tier].opponent_plays[0]


# Every tier a kind reaches under both presets (docs/generate.md, "Lay-off rummy": a unique go-out turn is
# one where nothing more fits, which best-meld always finds, so go-out is never hard).
REACHED = [("go-out", Tier.EASY), ("go-out", Tier.MEDIUM), ("most-points", Tier.EASY), ("most-points", Tier.MEDIUM),
           ("most-points", Tier.HARD)]


@pytest.mark.parametrize("rules", ["straight", "traditional"])
@pytest.mark.parametrize("kind, tier", REACHED)
def test_generated_puzzles_are_legal_unique_graded_and_read_back(rules: str, kind: str, tier: Tier,
                                                                 tmp_path: Path) -> None:
    report = generate(Request(rules=rules, kind=kind, count=2, tier=tier, seed=1, workers=1, max_candidates=150))
    assert len(report.puzzles) == 2, report.rejected
    accept = accept_go_out if kind == "go-out" else accept_most_points
    for puzzle in report.puzzles:
        before = puzzle.position
        assert puzzle.tier == tier
        path = tmp_path / f"{puzzle.name}.toml"
        path.write_text(before.to_toml())
        assert Position.from_file(path, strict=True) == before
        assert all(p.hand_count for p in before.players if p.name != before.to_move)
        after = Position.from_data(puzzle.answer["after"], strict=True)
        verdict = check(before, after)
        assert verdict.legal, [b.message for b in verdict.breaches]
        emptied = after.player(before.to_move).hand == ()
        assert emptied == (kind == "go-out")
        first = judged(before, solve_layoff(before, CONFIG))
        assert first.gain == puzzle.answer["gain"]
        assert accept(before, _answer(before, first)) is None
        # Unique: the best state excluded, the next answer is strictly worse (or there is none).
        second = solve_layoff(before, replace(CONFIG, exclude=(first.after,)))
        assert second.status == "no-legal-turn" or second.gain < first.gain
        margin = puzzle.margin
        assert isinstance(margin, str) or margin >= FAMILIES["layoff"].margin_bars[list(Tier).index(tier)]
        # The ladder: the rungs below the tier miss the optimum, the tier's own rung reaches it, and
        # every turn a rung proposes as its best is legal.
        rungs = ladder_of(before)
        found = climb(before, None)
        level = [r.tier for r in rungs].index(tier)
        for rung, step in zip(rungs, found):
            assert step.gain is None or step.gain <= first.gain
            if step.after is not None:
                assert check(before, step.after).legal, rung.name
            reaches = step.gain is not None and step.gain >= first.gain
            assert reaches == (rungs.index(rung) >= level), (rung.name, step.gain, first.gain)
        assert puzzle.difficulty.rung == rungs[level].name


def _answer(position: Position, solution: Solution) -> Answer:
    return Answer(position, solution, None)


def test_go_out_rejects_a_hand_left_and_most_points_a_hand_emptied() -> None:
    out = position({"bob": {"hand_count": 5, "space": ["7H 8H 9H"]}, "cat": {"hand": "10H 6H KS"}})
    stuck = position({"bob": {"hand_count": 5, "space": ["7H 8H 9H"]}, "cat": {"hand": "10H KS 2D"}})
    solved_out, solved_stuck = solve_layoff(out, CONFIG), solve_layoff(stuck, CONFIG)
    assert accept_go_out(out, _answer(out, solved_out)) is None
    assert accept_go_out(stuck, _answer(stuck, solved_stuck)) == "hand not emptied"
    assert accept_most_points(stuck, _answer(stuck, solved_stuck)) is None
    assert accept_most_points(out, _answer(out, solved_out)) == "goes out"
