"""Hints follow their levels on every shipped puzzle (issue 29 §5), judged by the project's readers and
checker, not by the hint code: 1 the idea (a theme, never how many cards the turn plays), 2 a key card or
play, 3 a first move after which the table is whole, 4 the whole turn, which ``rummy check`` accepts."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from rummy.cards import Card
from rummy.checker import check
from rummy.draw_words import read_draw, split_turn
from rummy.errors import RummyError
from rummy.meld_as_laid import meld_as_laid
from rummy.plays import is_whole
from rummy.position import Position
from rummy.puzzle_hints import hints, puzzle_themes
from rummy.turn_steps import read_steps
from rummy.turn_text import read_whole_turn
from rummy.vocabulary import Phase
from tests.support.paths import REPO_ROOT


def _shipped() -> list[Path]:
    puzzles = []
    for index in sorted((REPO_ROOT / "puzzles").glob("*/index.json")):  # new folders (puzzles/mined) too
        puzzles += [index.parent / entry["position"] for entry in json.loads(index.read_text("utf-8"))["puzzles"]]
    return puzzles


SHIPPED = _shipped()
# What only a turn's end does: a start of the turn may still owe it.
UNFINISHED = {"missing-discard", "hot-card-unplayed"}


def _answer(path: Path) -> tuple[Position, Position, dict]:
    before = Position.from_file(path)
    data = json.loads(path.with_name(path.stem + ".solution.json").read_text("utf-8"))
    return before, Position.from_data(data["after"], source=str(path), strict=False), data


def _hand_cards_played(before: Position, after: Position) -> int:
    left = Counter(c.plain() for c in after.player(before.to_move).hand or ())
    return sum((Counter(c.plain() for c in before.mover.hand or ()) - left).values())


def _names_a_card_or_play(text: str, before: Position) -> bool:
    plays = {str(name) for name in before.named_plays()}
    for word in re.findall(r"[\w/*]+", text):
        if word in plays:
            return True
        try:
            if Card.from_notation(word).notation(before.rules.deck) == word:
                return True
        except (RummyError, ValueError):
            continue
    return False


def _turn(before: Position, text: str, source: str) -> Position:
    """A hint's turn as ``rummy check`` reads it: steps; from a draw-phase puzzle (Robber's pile), the draw's
    words, then steps."""
    if before.phase != Phase.DRAW:
        return read_steps(before, text, source)
    words, steps = split_turn(text)
    return read_whole_turn(before, read_draw(words, source), steps, source)


def test_every_shipped_folder_is_read() -> None:
    assert {p.parent.name for p in SHIPPED} >= {"house", "tiles", "robber", "layoff"} and len(SHIPPED) >= 475


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_hints_follow_their_levels(path: Path) -> None:
    before, after, data = _answer(path)
    idea, key, first, whole = (h.text for h in hints(before, after, data["gain"], 4))
    # 1: every theme named by its title; 1 and 2: no count of the cards the turn plays (it gives going out away)
    for theme in puzzle_themes(before, meld_as_laid(before, after)):  # the answer as the official plan reads it
        assert theme.title in idea, idea
    played = _hand_cards_played(before, after)
    target = before.puzzle.target if before.puzzle is not None else data["gain"]
    # numbers standing alone (not a card's 10 of 10H, not a play's 3 of bob/3, not the 2 of K-A-2): none
    # is that count
    alone = re.compile(r"(?<![\w/-])\d+(?![\w/-])")
    for text in (idea, key):
        if played != target:
            assert str(played) not in alone.findall(text), text
        assert " of your " not in text
    # 2: a card or a play of the table
    assert key.startswith("Key") and _names_a_card_or_play(key, before), key
    # 3: a start of the turn that stands: every play whole, nothing wrong but what the turn's end does
    steps = first.split(": ", 1)[1]
    partial = _turn(before, steps, str(path))
    assert set(check(before, partial).codes) <= UNFINISHED, (first, check(before, partial).codes)
    assert all(is_whole(partial.play_with_layoffs(name), before.rules) for name in partial.named_plays()), first
    # 4: the whole turn, numbered, as rummy check reads it: legal, the stored answer's table and gain
    assert whole.startswith("Whole turn: take; 1. " if before.phase == Phase.DRAW else "Whole turn: 1. ")
    turn = _turn(before, whole.removeprefix("Whole turn: "), str(path))
    verdict = check(before, turn)
    assert verdict.legal and turn.table_key() == after.table_key(), (whole, verdict.codes)
    assert verdict.reading["gain"] == pytest.approx(data["gain"], abs=1e-4)


def test_level_1_names_the_statements_themes_before_detecting_any() -> None:
    from dataclasses import replace

    from rummy.themes import THEMES

    path = REPO_ROOT / "puzzles" / "house" / "house-classic-steal-medium-s1-0004.toml"
    before, after, data = _answer(path)
    assert before.puzzle is not None
    stated = replace(before, puzzle=replace(before.puzzle, themes=("sacrifice",)))
    (idea,) = (h.text for h in hints(stated, after, data["gain"], 1))
    assert idea.startswith("Idea: " + THEMES["sacrifice"].title + " (")
    detected = {t.title for t in puzzle_themes(replace(before, puzzle=None), after)} - {"sacrifice"}
    assert detected and not any(title in idea for title in detected)
