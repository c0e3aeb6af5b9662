"""``rummy play``'s library: the next position carries out exactly the after-position ``check`` judged
(issue 27 §1), for every legal shipped check case and every ``best`` answer on the shipped examples
(draw-phase ones too: the draw, then the play)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from rummy.cards import Card
from rummy.errors import RummyError
from rummy.inputs import read_text, source_name, text_kind
from rummy.position import DrawTaken, Position, Turn
from rummy.reports.play import PlayedTurn, best_turn_text, play_turn
from rummy.vocabulary import DrawSource, Phase
from tests.checker.test_check_cases import CheckCase, own_cases, shared_cases
from tests.support.paths import PUZZLE_EXAMPLES


def plain(cards: tuple[Card, ...] | None) -> Counter[Card]:
    return Counter(card.plain() for card in cards or ())


def assert_carries_out(before: Position, played: PlayedTurn) -> None:
    """The next position is the judged after-position, with the turn passed on."""
    after, position = played.after, played.position
    assert played.report.verdict.legal, played.report.verdict.breaches
    assert position is not None
    assert position.table_key() == after.table_key()
    for judged, now in zip(after.players, position.players, strict=True):
        assert judged.name == now.name
        assert plain(judged.hand) == plain(now.hand) and judged.hand_size == now.hand_size
        assert [a.cards for a in judged.layoffs] == [a.cards for a in now.layoffs]
        assert not now.hot and not now.warm
    assert position.to_move != before.to_move
    names = [p.name for p in before.players]
    skipped = names[names.index(before.to_move) + 1:] + names[: names.index(before.to_move)]
    passed_over = skipped[: skipped.index(position.to_move)]
    assert all(position.player(name).hand_size == 0 for name in passed_over)  # only players out are passed over
    family = before.rules.family
    assert position.phase == (Phase.DRAW if family.draw_judge is not None else Phase.PLAY)
    assert position.turn is None and position.puzzle is None
    discard = played.report.verdict.reading.get("discard")
    if before.phase == Phase.PLAY:
        added = position.discard_pile[len(before.discard_pile):]
        assert position.discard_pile[: len(before.discard_pile)] == before.discard_pile
        assert [c.notation(before.rules.deck) for c in added] == ([discard] if discard else [])
    elif discard:  # the draw took from the pile or not: the discard is on top of what it left
        assert position.discard_pile[-1].notation(before.rules.deck) == discard
        assert [c.plain() for c in position.discard_pile] == [c.plain() for c in after.discard_pile]
    if not position.player(before.to_move).hand:
        assert position.first_out == (before.first_out or before.to_move)
    assert position.stock == after.stock and position.rules == before.rules


def legal_cases() -> list[CheckCase]:
    return [case for case in own_cases() + shared_cases() if case.legal]


@pytest.mark.parametrize("case", legal_cases(), ids=lambda case: case.name)
def test_every_legal_check_case_plays_to_the_after_check_judged(case: CheckCase) -> None:
    before = Position.from_file(case.before)
    text = read_text(case.after)
    try:
        played = play_turn(before, text, source_name(case.after), text_kind(case.after, text), "case")
    except RummyError as error:
        # The one turn not carried out yet: a tile turn that plays nothing (the mover draws instead).
        assert "draw a tile" in str(error), error
        return
    assert_carries_out(before, played)


@pytest.mark.parametrize("path", sorted(PUZZLE_EXAMPLES.glob("*.toml")), ids=lambda path: path.stem)
def test_best_on_every_shipped_example_plays_to_the_after_check_judged(path: Path) -> None:
    before = Position.from_file(path)
    text = best_turn_text(before, 20.0)
    played = play_turn(before, text, "best", "json", str(path))  # re-judged by the checker inside
    assert_carries_out(before, played)


def test_an_illegal_turn_gives_no_position_and_checks_breaches() -> None:
    before = Position.from_file(PUZZLE_EXAMPLES / "house-classic.toml")
    played = play_turn(before, "discard 2H", "<steps>", "toml", "x")
    assert played.position is None
    assert {"hot-card-unplayed", "hot-discard"} <= set(played.report.verdict.codes)


def test_a_random_draw_alone_is_refused_as_not_yet_carried_out() -> None:
    before = Position.from_file(PUZZLE_EXAMPLES / "straight-draw.toml")
    answer = json.dumps({"status": "optimal", "gain": 1, "bound": 1, "after": None,
                         "draw": {"from": "stock"}, "steps": [{"action": "draw", "from": "stock"}]})
    with pytest.raises(RummyError, match="random draw alone"):
        play_turn(before, answer, "answer.json", "json", "x")


def test_a_pass_passes_the_turn_with_nothing_moved() -> None:
    before = Position.from_file(PUZZLE_EXAMPLES / "house-upcard.toml")
    after = replace(before, phase=Phase.PLAY, turn=Turn(draw=DrawTaken(DrawSource.PASS)))
    played = play_turn(before, after.to_toml(), "after.toml", "toml", "x")
    assert played.position is not None, played.report.verdict.breaches
    assert played.position.upcard == before.upcard and played.position.table_key() == before.table_key()
    assert played.position.to_move != before.to_move and played.position.phase == Phase.DRAW


def with_hands_shown(position: Position) -> Position:
    """The position with every hidden hand given, from the cards it does not show: the next mover's hand
    known, so the next position reads back strictly (docs/notes-i27-play.md, item 1: a hidden mover)."""
    unseen = sorted(position.unseen_cards().elements())
    for player in position.players:
        if player.hand is None:
            count = player.hand_size
            position = position.replace_player(replace(player, hand=tuple(unseen[:count]), hand_count=None))
            unseen = unseen[count:]
    return position


@pytest.mark.parametrize("name", ["house-classic", "house-classic-draw", "robber", "straight", "rummikub"])
def test_the_next_position_reads_back_strictly_as_itself(name: str) -> None:
    before = Position.from_toml(with_hands_shown(Position.from_file(PUZZLE_EXAMPLES / f"{name}.toml")).to_toml())
    played = play_turn(before, best_turn_text(before, 20.0), "best", "json", name)
    assert_carries_out(before, played)
    assert played.position is not None and played.position.mover.hand is not None
    assert Position.from_toml(played.position.to_toml()) == played.position
