"""``rummy play``'s library: the next position carries out exactly the after-position ``check`` judged
(issue 27 §1), for every legal shipped check case and every ``best`` answer on the shipped examples."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rummy.cards import Card
from rummy.errors import RummyError
from rummy.inputs import read_text, source_name, text_kind
from rummy.position import Position
from rummy.reports.play import PlayedTurn, best_turn_text, play_turn
from rummy.vocabulary import Phase
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
    added = position.discard_pile[len(before.discard_pile):]
    assert position.discard_pile[: len(before.discard_pile)] == before.discard_pile
    assert [c.notation(before.rules.deck) for c in added] == ([discard] if discard else [])
    if not position.player(before.to_move).hand:
        assert position.first_out == (before.first_out or before.to_move)
    assert position.stock == after.stock and position.rules == before.rules


def legal_play_phase_cases() -> list[CheckCase]:
    cases = [case for case in own_cases() + shared_cases() if case.legal]
    return [case for case in cases if Position.from_file(case.before).phase == Phase.PLAY]


@pytest.mark.parametrize("case", legal_play_phase_cases(), ids=lambda case: case.name)
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


def play_phase_examples() -> list[Path]:
    return [path for path in sorted(PUZZLE_EXAMPLES.glob("*.toml")) if Position.from_file(path).phase == Phase.PLAY]


@pytest.mark.parametrize("path", play_phase_examples(), ids=lambda path: path.stem)
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


def test_a_draw_phase_position_is_refused_as_not_yet_carried_out() -> None:
    before = Position.from_file(PUZZLE_EXAMPLES / "house-classic-draw.toml")
    with pytest.raises(RummyError, match="draw phase"):
        play_turn(before, "discard KS", "<steps>", "toml", "x")
