"""Official answers are written as a person plays them (issue 29 §5): no shipped plan lays a card and
takes it away again, unless the rules need it (a House meld no play that stays can replace, or the tile
that frees a fixed joker, which the steps notation puts in the joker's place)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rummy.answer import answer_from_data
from rummy.cards import Card
from rummy.meld_as_laid import meld_as_laid
from rummy.plan import HAND, Plan, Step
from rummy.position import Position
from rummy.vocabulary import Action
from tests.support.paths import REPO_ROOT

ANSWERS = sorted(REPO_ROOT.glob("puzzles/*/*.solution.json"))


def detours(plan: Plan) -> list[tuple[int, int, str]]:
    """(the step that laid a card, the later step that takes it from there, the play): steps counted from 1."""
    laid: dict[str, tuple[int, str]] = {}  # card notation -> (step, play it was laid in)
    found = []
    for number, step in enumerate(plan.steps, 1):
        if step.action in (Action.MOVE, Action.STEAL) and step.source not in (None, HAND):
            for card in step.cards:
                where = laid.get(card.notation())
                if where is not None and where[1] == step.source:
                    found.append((where[0], number, step.source))
        if step.target and step.action != Action.DISCARD:
            for card in step.cards + (step.paid_by or ()):
                laid[card.notation()] = (number, step.target)
    return found


def test_a_detour_is_seen() -> None:
    seven, eight, nine = (Card.from_notation(c) for c in ("7S", "8S", "9S"))
    meld = Step(Action.MELD, (seven, eight, nine), HAND, "new/1", "ann")
    back = Step(Action.MOVE, (seven,), "new/1", "ann/1")
    assert detours(Plan((meld, back), 0, 0)) == [(1, 2, "new/1")]
    straight = Step(Action.PLAY, (seven,), HAND, "ann/1")
    assert detours(Plan((straight, Step(Action.MELD, (eight, nine, Card.from_notation("10S")), HAND, "new/1")),
                        0, 0)) == []


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.name.replace(".solution.json", ""))
def test_no_shipped_plan_lays_a_card_and_takes_it_away_unless_the_rules_need_it(path: Path) -> None:
    before = Position.from_file(path.with_name(path.name.replace(".solution.json", ".toml")))
    answer = answer_from_data(before, json.loads(path.read_text(encoding="utf-8")), str(path))
    assert answer.plan is not None and answer.solution.after is not None
    for laid, _taken, play in detours(answer.plan):
        action = answer.plan.steps[laid - 1].action
        if action == Action.MELD:  # the meld could be laid as it stays only where no legal one does
            assert meld_as_laid(before, answer.solution.after) is answer.solution.after, (path, laid, play)
        else:
            assert action == Action.REPLACE_JOKER, (path, laid, play)
