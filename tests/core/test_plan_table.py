"""Plans a player can follow at a real table (issue 26 §5): a fixed joker the turn frees is a step of
its own, and a play of the table is named with its cards where the plan first names it; every plan
still reads back through the steps reader and the checker judges it legal."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from rummy.answer import answer_data, best
from rummy.checker import check
from rummy.plan import make_plan
from rummy.position import Position, Turn
from rummy.reports.page import words_pieces, words_plain
from rummy.steps_notation import plain_step
from rummy.turn_steps import read_steps, step_from_data, step_text, steps_text
from rummy.vocabulary import Action
from rummy.words import plain, step_words
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT

FIXED = PUZZLE_EXAMPLES / "rummikub-fixed-joker.toml"
TILES = REPO_ROOT / "puzzles" / "tiles"
FREED = "the joker is now free and must be played this turn"


def lines(before: Position, after: Position) -> list[str]:
    plan = make_plan(before, after)
    return [plain(step_words(step), before.rules.deck) for step in plan.steps]


def reads_back_legal(before: Position, after: Position) -> None:
    """The plan, in best's words and in the steps notation, read back: the same table, a legal turn."""
    plan = make_plan(before, after)
    for text in ("\n".join(lines(before, after)), steps_text(plan, before)):
        mine = read_steps(before, text)
        assert mine.table_key() == after.table_key(), text
        verdict = check(before, mine)
        assert verdict.legal, (text, verdict.codes)


def test_the_fixed_joker_example_frees_its_joker_in_a_step_of_its_own() -> None:
    before = Position.from_file(FIXED)
    answer = best(before)
    assert answer.plan is not None and answer.solution.after is not None
    said = [plain(step_words(step), "tiles") for step in answer.plan.steps]
    assert said[0] == f"replace the joker of table/1 (R5 R6 *=R7) with R7 ({FREED})"
    # the freed joker goes on from the hand, saying what it stands for where it goes
    (joker_play,) = [line for line in said if line.startswith("play *")]
    assert joker_play == "play * K3 K4 (joker as K2) from your hand to new/1"
    # the joker of B2 B3 * B5 stays (kept as B4): no replacement for it, and no joker moved from the table
    assert sum(line.startswith("replace") for line in said) == 1 and not any(" * " in line for line in said
                                                                            if line.startswith("move"))
    reads_back_legal(before, answer.solution.after)
    data = answer_data(answer)
    assert data["steps"][0] == {"action": "replace-joker", "card": "R7", "from": "hand", "to": "table/1",
                                "stands_for": ["R7"], "why": FREED, "play_cards": {"table/1": ["R5", "R6", "*=R7"]}}


def test_a_joker_freed_into_its_own_play_is_replaced_first() -> None:
    """R5 R6 *=R7 takes R7 and R8 from the hand and keeps its joker, now as R9: the joker was freed
    (it stands for another tile) and played again. The model's after declares no replacement."""
    before = Position.from_toml("""
rules = "rummikub"
to_move = "ann"
table = ["R5 R6 *=R7", "K8 K9 K10"]
players.ann = {melded = true, hand = "R7 R8 B1"}
players.bob = {melded = true, hand_count = 5}
""")
    stepped = read_steps(before, "replace table/1 * with R7; play R8 *=R9 to table/1")
    assert check(before, stepped).legal
    after = replace(stepped, turn=Turn(meld=(), replaced=(), discard=None, discard_declared=False))
    said = lines(before, after)
    assert said == [f"replace the joker of table/1 (R5 R6 *=R7) with R7 ({FREED})",
                    "play * R8 (joker as R9) from your hand to table/1"]
    reads_back_legal(before, after)


def test_a_flexible_joker_is_moved_not_replaced() -> None:
    """rummikub-lenient: a table joker may move freely; nothing frees it, so no replacement step."""
    before = Position.from_toml("""
rules = "rummikub-lenient"
to_move = "ann"
table = ["R5 R6 *"]
players.ann = {melded = true, hand = "R7 K3 K4 B1"}
players.bob = {melded = true, hand_count = 5}
""")
    after = read_steps(before, "play R7 to table/1; play K3 K4 to new/1; move * from table/1 to new/1")
    assert check(before, after).legal
    said = lines(before, after)
    assert not any(line.startswith("replace") for line in said), said
    assert said == ["play R7 from your hand to table/1 (* R5 R6)", "play K3 K4 from your hand to new/1",
                    "move * from table/1 (where it stood for R4 or R7) to new/1"]


FIXED_ANSWERS = sorted(p for p in TILES.glob("*.solution.json") if p.name.startswith(("rummikub-m", "rummikub-p",
                                                                                          "tiles50")))


def stored(path: Path) -> tuple[Position, Position]:
    before = Position.from_file(path.with_name(path.name.replace(".solution.json", ".toml")))
    data = json.loads(path.read_text(encoding="utf-8"))
    return before, Position.from_data(data["after"], source=str(path), strict=False)


def test_shipped_fixed_joker_answers_free_their_jokers_in_steps_and_read_back() -> None:
    """Every shipped rummikub and tiles50 answer: the checker's freed jokers, one replacement step each
    (the tile put in from the hand), the right note for the preset, and the plan read back legal."""
    from rummy.checker.tile import freed_jokers

    assert len(FIXED_ANSWERS) >= 20
    replaced = 0
    for path in FIXED_ANSWERS:
        before, after = stored(path)
        plan = make_plan(before, after)
        replacements = [(s.target, s.cards) for s in plan.steps if s.action == Action.REPLACE_JOKER]
        assert sorted(replacements) == sorted((play, (tile,)) for play, tile in freed_jokers(before, after)), path
        for step in plan.steps:
            if step.action == Action.REPLACE_JOKER:
                replaced += 1
                new_play_only = before.rules.freed_joker_new_play_only
                assert step.why == FREED + (", in a new play of tiles from your hand" if new_play_only else "")
        reads_back_legal(before, after)
    assert replaced >= 3, "no shipped answer frees a joker: pick others"


HOUSE_CASES = sorted((REPO_ROOT / "tests" / "data" / "puzzle_cases").glob("*.solution.json"))[::4]
ANSWERS = sorted(REPO_ROOT.glob("puzzles/*/*.solution.json"))[::9] + HOUSE_CASES


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.name.replace(".solution.json", ""))
def test_each_play_is_named_with_its_cards_where_the_plan_first_names_it(path: Path) -> None:
    before, after = stored(path)
    if before.phase != "play":
        pytest.skip("a draw-phase answer: its plan starts after the draw")
    plan = make_plan(before, after)
    plays = before.named_plays()
    seen: set[str] = set()
    for step in plan.steps:
        for name in step.names_plays():
            cards = step.play_cards(name)
            if name in plays and name not in seen:
                assert cards is not None, (path.name, step)
                assert Counter(cards) == Counter(before.play_with_layoffs(name)), (path.name, name)
                seen.add(name)
                said = plain(step_words(step), before.rules.deck)
                shown = " ".join(c.notation(before.rules.deck) for c in cards)
                assert f"{name} ({shown}" in said and f"{name} ({shown}" in step_text(step, before), said
            else:
                assert cards is None, (path.name, step)
        # new plays are laid by the step that first names them: the step's own cards say what they are
        assert all(name in plays for name, _ in step.named)
    assert seen == {name for step in plan.steps for name in step.names_plays() if name in plays}
    reads_back_legal(before, after)


def test_the_notes_are_passed_over_by_the_steps_reader() -> None:
    assert plain_step("play B6 to table/2 (B2 B3 * B5)") == "play B6 to table/2"
    assert plain_step("move R9 from table/4 (R6 R7 R8 R9 R10) to new/1") == "move R9 from table/4 to new/1"
    assert plain_step(f"replace the joker of table/1 (R5 R6 *=R7) with R7 ({FREED})") == "replace table/1 * with R7"
    assert plain_step("replace the joker of table/2 (R6 O6 B6 *, the joker standing for K6) with K6 "
                      f"({FREED}, in a new play of tiles from your hand)") == "replace table/2 * with K6"
    assert plain_step("steal bob/1 (QS JS 10S) by adding 9S (now ann's)") == "steal 9S from bob/1"


def test_best_json_steps_carry_the_cards_of_the_plays_they_first_name_and_read_back() -> None:
    before = Position.from_file(FIXED)
    data = answer_data(best(before))
    named = [step["play_cards"] for step in data["steps"] if "play_cards" in step]
    assert named == [{"table/1": ["R5", "R6", "*=R7"]}, {"table/2": ["B2", "B3", "*", "B5"]},
                     {"table/4": ["R12", "O12", "B12"]}, {"table/6": ["O5", "O6", "O7", "O8"]}]
    # a stored answer's steps, written again, keep the notes, and read back
    written = [step_text(step_from_data(step), before) for step in data["steps"]]
    assert written[:2] == ["replace table/1 (R5 R6 *=R7) * with R7", "play B6 to table/2 (B2 B3 * B5)"]
    assert check(before, read_steps(before, "\n".join(written))).legal


def test_the_page_gets_each_steps_words_in_pieces_its_cards_apart() -> None:
    before = Position.from_file(FIXED)
    answer = best(before)
    assert answer.plan is not None
    step = answer.plan.steps[0]
    pieces = words_pieces(step_words(step), "tiles")
    assert pieces == ["replace the joker of ", "table/1", " (", ["R5", "R6", "*=R7"], ")", " with ", ["R7"],
                      f" ({FREED})"]
    assert "".join(p if isinstance(p, str) else " ".join(p) for p in pieces) == words_plain(step_words(step), "tiles")
