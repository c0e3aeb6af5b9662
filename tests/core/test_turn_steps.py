"""Turns written as steps (rummy.turn_steps): the reader, the writer, and the two agreeing on every shipped answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy.checker import check, turn_gain
from rummy.checker.robber import apply_draw
from rummy.errors import PositionError
from rummy.plan import make_plan
from rummy.position import Position
from rummy.steps_notation import looks_like_steps, plain_step, split_steps
from rummy.turn_steps import read_steps, step_from_data, step_text, steps_text
from rummy.vocabulary import Phase
from tests.support.paths import PUZZLE_CASES, REPO_ROOT

REPO = REPO_ROOT
ANSWERS = sorted(REPO.glob("puzzles/*/*.solution.json"))
EXAMPLES = REPO / "puzzles" / "examples"
STEAL = PUZZLE_CASES / "house-classic-steal-easy-s1-0000.toml"


def stored(path: Path) -> tuple[Position, dict, Position]:
    before = Position.from_file(path.with_name(path.name.replace(".solution.json", ".toml")))
    data = json.loads(path.read_text(encoding="utf-8"))
    after = Position.from_data(data["after"], source=str(path), strict=False)
    if before.phase == Phase.DRAW:  # a Robber draw puzzle: its play from the pile taken (steps and gain too)
        before = apply_draw(before, after)[0]
        data = {**data, "steps": [step for step in data["steps"] if step["action"] != "draw"],
                "gain": turn_gain(before, after)}
    return before, data, after


def test_every_family_has_shipped_answers():
    assert {p.parent.name for p in ANSWERS} >= {"house", "tiles", "robber"} and len(ANSWERS) > 300


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.name.replace(".solution.json", ""))
def test_a_shipped_answer_written_as_steps_reads_back(path):
    before, data, after = stored(path)
    # the plan of the answer, and the answer's stored steps: both written and read back
    written = [steps_text(make_plan(before, after), before),
               "\n".join(step_text(step_from_data(step), before) for step in data["steps"])]
    for text in written:
        mine = read_steps(before, text, str(path))
        assert mine.table_key() == after.table_key(), text
        verdict = check(before, mine)
        assert verdict.legal, (text, verdict.codes)
        assert verdict.reading["gain"] == pytest.approx(data["gain"], abs=1e-4)
        assert sorted(mine.mover.hand or ()) == sorted(after.mover.hand or ())


def test_the_after_declares_the_turn():
    before = Position.from_file(PUZZLE_CASES / "house-classic-replace-meld-easy-s1-0000.toml")
    after = read_steps(before, """
        replace ann/1 * with JH       # the joker comes home
        meld 8S 10S *
        play QD to new/2; move * from new/1 to new/2
        steal KD from cat/1 to new/2 paid by QD
        play 9S to new/1
        discard 5D
    """)
    assert after.turn is not None
    assert [r.notation() for r in after.turn.replaced] == ["ann/1 JH"]
    assert [p.notation() for p in after.turn.meld] == ["8S 10S *"]
    assert after.turn.discard is not None and after.turn.discard.notation() == "5D" and after.turn.discard_declared
    assert after.discard_pile[-1].notation() == "5D" and after.mover.hand == () and after.mover.melded
    assert check(before, after).legal


def test_a_steal_paid_by_cards_not_yet_played_plays_them():
    before = Position.from_file(STEAL)
    one = read_steps(before, "play AD AS to new/1; steal AC from bob/1 to new/1 paid by AD; discard 5D")
    other = read_steps(before, "play AS to new/1; steal AC from bob/1 to new/1 paid by AD; discard 5D")
    assert one.table_key() == other.table_key() and check(before, other).legal


def test_lay_off_rummy_and_tiles():
    straight = Position.from_file(EXAMPLES / "straight.toml")
    answer = make_plan(straight, _best_after(straight))
    mine = read_steps(straight, steps_text(answer, straight))
    assert check(straight, mine).legal
    tiles = Position.from_file(EXAMPLES / "rummikub.toml")
    mine = read_steps(tiles, steps_text(make_plan(tiles, _best_after(tiles)), tiles))
    assert check(tiles, mine).legal and mine.turn is not None and not mine.turn.discard_declared


def _best_after(position: Position) -> Position:
    from rummy.answer import best
    from rummy.solution import SolverConfig

    after = best(position, SolverConfig(time_limit=20)).solution.after
    assert after is not None
    return after


def test_an_illegal_turn_is_read_and_left_to_the_checker():
    before = Position.from_file(STEAL)
    after = read_steps(before, "play AD AS 5D to new/1")
    verdict = check(before, after)
    assert not verdict.legal


@pytest.mark.parametrize("text, problem", [
    ("steel AC from bob/1", "step 1: 'steel' is no step"),
    ("play AD AS to new/1; play", "step 2: 'play' needs the cards"),
    ("play AD AS", "step 1: 'play' needs 'to PLAY'"),
    ("steal AC from bob/1", "step 1: 'steal' needs 'to PLAY'"),  # House: a steal names where the card goes
    ("play AD\t \u3000   AS  to new/1; steal AC from bob/1 to new/1 paid by AD; discard KS", "step 3: KS is not in ann's hand"),
    ("play AD to new/2", "step 1: the next new play is new/1, not new/2"),
    ("play 7D to new/1", "step 1: 7D is not in ann's hand"),
    ("play XX to new/1", "step 1: unknown card"),
    ("move 7D from bob/1 to bob/2", "step 1: 7D is not in bob/1"),
    ("move JC from bob/9 to bob/2", "step 1: 'bob/9' names no play"),
    ("move JC from bob to bob/2", "step 1: 'bob' after 'from' is not a play name"),
    ("play AD to new/1 in zed", "step 1: 'zed' is not a player's space"),
    ("discard 5D; play AD AS to new/1", "step 2: the discard ends the turn"),
    ("discard 5D AD", "step 1: one card is discarded"),
    ("play AD to new/1 with AS", "step 1: 'with' does not go with 'play'"),
    ("steal AC from bob/1 to new/1 paid AD", "step 1: expected 'paid by CARDS'"),
    ("replace bob/1 AC with AD", "step 1: only a joker is replaced"),
    ("replace bob/1 *", "step 1: expected 'replace PLAY * with CARD'"),
    ("replace bob/1 * with AD", "step 1: no joker in bob/1"),
    ("play AD to new/1 to new/1", "step 1: 'to' is given twice"),
])
def test_bad_steps_name_the_step_and_quote_it(text, problem):
    with pytest.raises(PositionError) as raised:
        read_steps(Position.from_file(STEAL), text, "turn.txt")
    message = str(raised.value)
    assert message.startswith("turn.txt: ") and problem in message and "\n" not in message
    assert "(in '" in message


def test_no_steps_and_draw_phase_are_refused():
    with pytest.raises(PositionError, match="no steps"):
        read_steps(Position.from_file(STEAL), "  # nothing\n;;\n")
    with pytest.raises(PositionError, match="is in the draw phase: begin the turn with the draw"):
        read_steps(Position.from_file(EXAMPLES / "house-classic-draw.toml"), "discard 5D")


def test_steps_are_told_from_positions_by_content():
    assert looks_like_steps("# my turn\nplay 7H 8H 9H to new/1; discard KS\n")
    assert looks_like_steps("\ufefflay off 7H on bob/1")
    assert not looks_like_steps(STEAL.read_text(encoding="utf-8"))
    assert not looks_like_steps('{"after": {}}')
    assert not looks_like_steps("play = 3\n")
    # a leading ';' separates steps, and starts no TOML or JSON: steps (an empty first step)
    assert looks_like_steps("; play 7H 8H 9H to new/1") and looks_like_steps("# turn\n  ;\n")
    assert looks_like_steps("3. play 7H 8H 9H to new/1") and looks_like_steps("play;discard KS")
    assert not looks_like_steps("3.play 7H") and not looks_like_steps("") and not looks_like_steps("# only\n")
    assert split_steps("a; b\n# c\n d # e\n;") == [(1, "a"), (2, "b"), (3, "d")]
    assert split_steps("\ufeff play \t 7H  \u3000 8H;; discard\x0bKS") == [(1, "play 7H 8H"), (2, "discard"), (3, "KS")]


def test_a_robber_plan_steals_every_play_it_takes():
    """Two equal plays stolen, one grown by 4H, the other by 5H 6H: each steal is a step (a play
    changes owner only by growing, so the plan never matches a stolen play to itself unchanged)."""
    path = PUZZLE_CASES / "robber-steal-medium-s1-0017.solution.json"
    before, _, after = stored(path)
    steals = {step.source: step.cards for step in make_plan(before, after).steps if step.action == "steal"}
    assert set(steals) == {"bob/1", "bob/2", "bob/3", "bob/4"}


# ------------------------------------------------------ best's own words, read back
PLAY_EXAMPLES = [p for p in sorted(EXAMPLES.glob("*.toml")) if Position.from_file(p).phase == "play"]


@pytest.mark.parametrize("path", ANSWERS[::7], ids=lambda p: p.name.replace(".solution.json", ""))
def test_the_plans_own_words_read_back(path):
    """Each step as ``rummy best`` words it (rummy.words.step_words, notes and explanations included)
    reads back to the answer's table."""
    from rummy.words import plain, step_words

    before, _data, after = stored(path)
    plan = make_plan(before, after)
    text = "\n".join(plain(step_words(step), before.rules.deck) for step in plan.steps)
    mine = read_steps(before, text, str(path))
    assert mine.table_key() == after.table_key(), text
    assert check(before, mine).legal, text


@pytest.mark.parametrize("path", PLAY_EXAMPLES, ids=lambda p: p.stem)
def test_the_steps_best_prints_are_a_turn_check_reads(path):
    """Every numbered line ``rummy best`` prints, its number stripped, fed to ``rummy check POSITION -``:
    a legal turn with best's gain."""
    import os
    import re
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "RUMMY_DEBUG")}

    def rummy(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "rummy", *args], cwd=REPO, input=stdin, capture_output=True,
                              text=True, timeout=60, env=env)

    gain = json.loads(rummy("best", str(path), "--json").stdout)["gain"]
    printed = rummy("best", str(path)).stdout
    steps = [m.group(1) for m in re.finditer(r"^\s*\d+\.\s+(.*)$", printed, re.MULTILINE)]
    assert steps, printed
    result = rummy("check", str(path), "-", "--json", stdin="\n".join(steps) + "\n")
    assert result.returncode == 0, (steps, result.stdout, result.stderr)
    verdict = json.loads(result.stdout)
    assert verdict["legal"] and verdict["reading"]["gain"] == pytest.approx(gain, abs=1e-4), steps


@pytest.mark.parametrize("words, steps", [
    ("steal ann/1 by adding AS KS (now cat's)", "steal AS KS from ann/1"),
    ("12. play 2C 2H from your hand to new/1 (bob's space), paying for the steal of *", "play 2C 2H to new/1 in bob"),
    ("steal * (joker as a 2) from cat/1 (where it stood for 9D or QD) to new/1, paid by 2C",
     "steal * from cat/1 to new/1 paid by 2C"),
    ("move QS from bob/1 to bob/2: keeps bob's plays whole after the steal of 10H", "move QS from bob/1 to bob/2"),
    ("meld AS 2S 3S as new/1 (ann's space)", "meld AS 2S 3S in ann"),
    ("replace the joker of bob/1 (standing for 6H) with 6H (the joker goes to your hand)", "replace bob/1 * with 6H"),
    ("play 7H 8H 9H to new/1", "play 7H 8H 9H to new/1"),
])
def test_best_words_are_read_as_steps(words, steps):
    assert plain_step(words) == steps


def test_a_semicolon_in_a_note_separates_no_steps():
    assert split_steps("play R7 to table/1 (R5 R6 *; the reds): x; discard KS (a; b (c; d)); e") == [
        (1, "play R7 to table/1 (R5 R6 *; the reds): x"), (2, "discard KS (a; b (c; d))"), (3, "e")]
    assert split_steps("play R7 to table/1 (R5; x") == [(1, "play R7 to table/1 (R5; x")]  # unclosed: one step
    assert split_steps("a ) ; b") == [(1, "a )"), (2, "b")]
    before = Position.from_file(EXAMPLES / "rummikub-lenient.toml")
    after = read_steps(before, "play R5 to table/1 (R6 R7 *; the reds)")
    assert after == read_steps(before, "play R5 to table/1")


def test_the_old_replacement_note_after_a_semicolon_is_no_step():
    assert split_steps("replace the joker of bob/1 with 3D; the joker goes to your hand; discard 8H") == [
        (1, "replace the joker of bob/1 with 3D"), (2, "discard 8H")]


def test_in_robber_playing_onto_another_players_play_steals_it():
    before = Position.from_file(EXAMPLES / "robber.toml")
    for text in ("play AS KS to ann/1; discard 2C", "lay off AS KS on ann/1; discard 2C", "steal AS KS from ann/1; discard 2C"):
        after = read_steps(before, text)
        verdict = check(before, after)
        assert verdict.legal, (text, verdict.codes)
        assert verdict.reading["stolen"] == ["ann/1 -> cat/2"]


@pytest.mark.parametrize("path", ANSWERS[::25], ids=lambda p: p.name.replace(".solution.json", ""))
def test_the_table_after_each_step_ends_at_the_turns_end(path):
    from collections import Counter

    from rummy.turn_steps import step_tables

    before, _, after = stored(path)
    plan = make_plan(before, after)
    tables = step_tables(before, steps_text(plan, before))
    assert len(tables) == len(plan.steps)
    last = tables[-1]
    # the last table holds the after-position's plays, card for card, and its hand
    assert Counter(tuple(sorted(c.plain() for c in cards)) for _, _, cards in last.plays) == \
        Counter(tuple(sorted(c.plain() for c in after.play_with_layoffs(name))) for name in after.named_plays())
    assert Counter(last.hand) == Counter(after.mover.hand or ())
    assert (last.discard is not None) == (after.turn is not None and after.turn.discard is not None)
    # every table keeps the cards of the turn: the table's and the hand's, less a discard
    everything = Counter(c.plain() for name in before.named_plays() for c in before.play_with_layoffs(name)) + \
        Counter(c.plain() for c in before.mover.hand or ())
    for table in tables:
        held = Counter(c.plain() for _, _, cards in table.plays for c in cards) + Counter(c.plain() for c in table.hand)
        held += Counter([table.discard.plain()] if table.discard is not None else [])
        assert held == everything
