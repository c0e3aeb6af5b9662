"""Draws written as words (``rummy play POSITION "take 3"``): read by rummy.draw_words, carried out by
the checker's own draw code (rummy.next_position.drawn_position), the play after them played on."""

from __future__ import annotations

import pytest

from rummy.cards import Card
from rummy.draw_words import looks_like_draw, read_draw
from rummy.errors import RummyError
from rummy.position import Position
from rummy.reports.play import best_turn_text, play_turn
from rummy.vocabulary import DrawSource, Phase
from tests.support.paths import PUZZLE_EXAMPLES


def example(name: str) -> Position:
    return Position.from_file(PUZZLE_EXAMPLES / f"{name}.toml")


@pytest.mark.parametrize(("text", "source", "take", "card", "player"), [
    ("draw 7H", DrawSource.STOCK, None, "7H", None),
    ("  DRAW  ", DrawSource.STOCK, None, None, None),
    ("draw 3", DrawSource.STOCK, 3, None, None),  # House Epic's re-entry
    ("draw 7H 8C 2S", DrawSource.STOCK, 3, "7H", None),
    ("take 3", DrawSource.DISCARD, 3, None, None),
    ("take", DrawSource.DISCARD, 1, None, None),
    ("open", DrawSource.OPEN, None, None, None),
    ("pass", DrawSource.PASS, None, None, None),
    ("demand qs from bob", DrawSource.DEMAND, None, "QS", "bob"),
])
def test_draw_words_read(text: str, source: DrawSource, take: int | None, card: str | None,
                         player: str | None) -> None:
    assert looks_like_draw(text)
    written = read_draw(text)
    named = written.card if source == DrawSource.STOCK else written.taken.card
    assert written.taken.source == source and written.taken.take == take and written.taken.player == player
    assert named == (Card.from_notation(card) if card else None)


@pytest.mark.parametrize("text", ["take 0", "take three", "draw 7H 8H 9H 10H", "draw 4", "draw 0",
                                  "open now", "demand QS bob", "draw 7X"])
def test_bad_draw_words_are_one_error(text: str) -> None:
    with pytest.raises(RummyError):
        read_draw(text)


@pytest.mark.parametrize("text", ["draw = 1\n", "play 7H to new/1", 'rules = "house-classic"', "x" * 300])
def test_what_is_no_draw_is_left_to_checks_reader(text: str) -> None:
    assert not looks_like_draw(text)


def test_taking_from_the_pile_gives_the_play_phase_then_the_play_passes_the_turn() -> None:
    before = example("house-classic-draw")
    played = play_turn(before, "take 4", "draw", "toml", "x")
    drawn = played.position
    assert drawn is not None and drawn.phase == Phase.PLAY and drawn.to_move == before.to_move
    top_four = tuple(c.plain() for c in reversed(before.discard_pile[-4:]))
    assert drawn.discard_pile == before.discard_pile[:-4]
    assert drawn.mover.hot == (top_four[-1],) and drawn.mover.warm == (top_four[0],)
    after_play = play_turn(drawn, best_turn_text(drawn, 20.0), "best", "json", "x")
    assert after_play.position is not None and after_play.position.to_move == "bob"
    assert after_play.position.phase == Phase.DRAW


def test_open_makes_the_upcard_warm_and_pass_leaves_it_for_the_next_player() -> None:
    before = example("house-upcard")
    assert before.upcard is not None
    opened = play_turn(before, "open", "draw", "toml", "x").position
    assert opened is not None and opened.upcard is None and opened.mover.warm == (before.upcard.plain(),)
    passed = play_turn(before, "pass", "draw", "toml", "x").position
    assert passed is not None and passed.upcard == before.upcard and passed.to_move == "bob"
    assert passed.phase == Phase.DRAW and passed.table_key() == before.table_key()


def test_an_illegal_draw_gives_its_breaches() -> None:
    played = play_turn(example("straight-draw"), "take 2", "draw", "toml", "x")
    assert played.position is None and "too-many-taken" in played.report.verdict.codes
    assert any("too-many-taken" in str(line) for line in played.report.lines)


def test_a_tile_drawn_passes_the_turn_and_must_be_unseen() -> None:
    before = example("rummikub")
    unseen = sorted(before.unseen_cards())[0]
    played = play_turn(before, f"draw {unseen.notation('tiles')}", "draw", "toml", "x")
    assert played.position is not None and played.position.to_move != before.to_move
    assert played.position.player(before.to_move).hand_size == before.mover.hand_size + 1
    seen = next(c for c in before.mover.hand or () if before.unseen_cards()[c.plain()] == 0)
    refused = play_turn(before, f"draw {seen.notation('tiles')}", "draw", "toml", "x")
    assert refused.position is None and "conservation" in refused.report.verdict.codes


@pytest.mark.parametrize(("name", "text", "says"), [
    ("house-classic", "draw 7S", "play phase"),
    ("house-classic-draw", "draw", "name the card drawn"),
    ("robber-draw", "take", "melds its top card"),
])
def test_draws_that_cannot_be_carried_out_are_bad_input(name: str, text: str, says: str) -> None:
    with pytest.raises(RummyError, match=says):
        play_turn(example(name), text, "draw", "toml", "x")
