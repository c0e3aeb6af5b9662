"""One text for a whole turn (issue 27, rummy.turn_text): the canonical text of every legal turn reads
back through ``play_turn`` (the one reader ``check`` and ``play`` share) to the same next position; a
whole draw-phase turn (the draw's words, then steps) is judged by ``check`` as one draw-phase turn."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import Card
from rummy.draw_words import WrittenDraw, draw_text, looks_like_draw, read_draw, split_turn
from rummy.errors import RummyError
from rummy.inputs import read_text, source_name, text_kind
from rummy.position import DrawTaken, Position
from rummy.reports.play import PlayedTurn, best_turn_text, play_turn
from rummy.turn_text import judged_turn_text, turn_text
from rummy.vocabulary import DrawSource, Phase
from tests.checker.test_check_cases import CheckCase
from tests.core.test_next_position import assert_carries_out, legal_cases
from tests.support.paths import PUZZLE_EXAMPLES


def _sorted_cards(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.notation()))


def in_hand_order(position: Position | None, plays_in_order: bool = True) -> Position | None:
    """The position with every known hand sorted (a hand's order is no part of the game); unless
    ``plays_in_order``, its plays left out (compare ``table_key``): a hand-written after-position lists
    plays and their cards in any order, which the steps cannot say."""
    if position is None:
        return None
    return replace(position, table=position.table if plays_in_order else (), players=tuple(
        replace(p, hand=_sorted_cards(p.hand) if p.hand else p.hand, plays=p.plays if plays_in_order else (),
                layoffs=p.layoffs if plays_in_order else ())
        for p in position.players))


def laid_out(position: Position) -> list[tuple[str, tuple[Card, ...]]]:
    """Every play with the cards laid off on it, by owner, up to order (lay-off rummy: cards laid off
    on the mover's own play may be written grown or as a lay-off)."""
    return sorted((name.owner, tuple(sorted((c.plain() for c in position.play_with_layoffs(name)),
                                            key=lambda c: c.notation())))
                  for name in position.named_plays())


def assert_reads_back(before: Position, played: PlayedTurn, exactly: bool = True) -> str:
    """The turn's text, played from ``before``, gives the same next position as the turn itself (with
    ``exactly``, its plays in the same order, so named alike: ``best``'s answers)."""
    assert played.position is not None, played.report.verdict.breaches
    text = turn_text(before, played.after, played.report.verdict.reading)
    assert "\n" not in text
    again = play_turn(before, text, "turn", "toml", "turn")
    assert again.report.verdict.legal, (text, again.report.verdict.breaches)
    assert in_hand_order(again.position, exactly) == in_hand_order(played.position, exactly), text
    assert laid_out(again.position) == laid_out(played.position), text
    assert_carries_out(before, again)
    return text


@pytest.mark.parametrize("case", legal_cases(), ids=lambda case: case.name)
def test_every_legal_check_case_reads_back_from_its_turn_text(case: CheckCase) -> None:
    before = Position.from_file(case.before)
    text = read_text(case.after)
    try:
        played = play_turn(before, text, source_name(case.after), text_kind(case.after, text), "case")
    except RummyError as error:
        assert "draw a tile" in str(error), error  # tile rummy's turn that plays nothing: 'draw R7'
        return
    written = assert_reads_back(before, played, exactly=False)
    assert played.report.data["turn"] == written  # check --json's turn
    if before.phase == Phase.DRAW:  # the draw's words come first
        assert looks_like_draw(written), written


@pytest.mark.parametrize("path", sorted(PUZZLE_EXAMPLES.glob("*.toml")), ids=lambda path: path.stem)
def test_best_on_every_shipped_example_reads_back_from_its_turn_text(path: Path) -> None:
    before = Position.from_file(path)
    played = play_turn(before, best_turn_text(before, 20.0), "best", "json", str(path))
    written = assert_reads_back(before, played)
    assert judged_turn_text(before, played.after) == written
    if before.phase == Phase.DRAW:
        assert looks_like_draw(written) and ";" in written, written


def test_the_draw_phase_examples_write_their_draws_in_words() -> None:
    texts = {}
    for name in ("house-classic-draw", "house-upcard", "robber-draw", "straight-draw", "rummikub-fixed-joker",
                 "house-classic"):
        before = Position.from_file(PUZZLE_EXAMPLES / f"{name}.toml")
        played = play_turn(before, best_turn_text(before, 20.0), "best", "json", name)
        texts[name] = assert_reads_back(before, played)
    assert texts["house-classic-draw"].startswith("take 4; play KS to ann/1")
    assert texts["house-upcard"].startswith("open; ")
    assert texts["robber-draw"].startswith("take; steal ")  # the pile taken, its top card KD melded at once
    assert "KD from bob/2" in texts["robber-draw"]
    assert "*=" in texts["rummikub-fixed-joker"]  # a fixed joker's card, which its play leaves open
    assert "steal" in texts["house-classic"] and "paid by" in texts["house-classic"]  # House steals


def test_a_whole_draw_phase_turn_is_judged_as_one_turn() -> None:
    before = Position.from_file(PUZZLE_EXAMPLES / "house-classic-draw.toml")
    text = "take 4; play KS to ann/1; play 5D 5H 5S to new/1; play 6D 7D 8D 9D to new/2; discard QC"
    played = play_turn(before, text, "turn", "toml", "x")
    reading = played.report.verdict.reading
    assert played.report.verdict.legal and reading["draw"]["from"] == "discard" and reading["draw"]["take"] == 4
    assert played.after.turn is not None and played.after.turn.draw == DrawTaken(DrawSource.DISCARD, take=4)
    assert played.position is not None and played.position.to_move == "bob"
    # the draw's own rule judged with the play: taking 4 leaves the hot JH to be played
    illegal = play_turn(before, "take 4; play 5D 5H 5S to new/1; discard QC", "turn", "toml", "x")
    assert not illegal.report.verdict.legal and "hot-card-unplayed" in illegal.report.verdict.codes


def test_a_step_after_the_draw_is_numbered_from_two() -> None:
    before = Position.from_file(PUZZLE_EXAMPLES / "house-classic-draw.toml")
    with pytest.raises(RummyError, match=r"turn: step 3: .*2C is not in ann's hand"):
        play_turn(before, "take 4; play KS to ann/1; play 2C to new/1", "turn", "toml", "x")


@pytest.mark.parametrize(("name", "text", "problem"), [
    ("house-upcard", "pass; meld 6S 7S 8S", "'pass' ends the turn: no step comes after it"),
    ("house-classic", "take 2; discard KS", "in the play phase: the draw is made"),
    ("robber-draw", "take 2; discard QD", "taking the pile takes all 4 of its cards"),
])
def test_a_draw_that_cannot_begin_a_whole_turn_is_bad_input(name: str, text: str, problem: str) -> None:
    before = Position.from_file(PUZZLE_EXAMPLES / f"{name}.toml")
    with pytest.raises(RummyError, match=problem):
        play_turn(before, text, "turn", "toml", "x")


def test_robber_take_alone_says_to_give_the_whole_turn() -> None:
    before = Position.from_file(PUZZLE_EXAMPLES / "robber-draw.toml")
    with pytest.raises(RummyError, match=r"give the whole turn, e\.g\. 'take; "):
        play_turn(before, "take", "turn", "toml", "x")


# ------------------------------------------------------------ the draw's words, written and read back
_cards = st.sampled_from(["7H", "QS", "10D", "AC", "2C", "KH"]).map(Card.from_notation)
_draws = st.one_of(
    st.builds(lambda: DrawTaken(DrawSource.STOCK)),
    st.builds(lambda n: DrawTaken(DrawSource.DISCARD, take=n), st.integers(1, 256)),
    st.just(DrawTaken(DrawSource.OPEN)),
    st.just(DrawTaken(DrawSource.PASS)),
    st.builds(lambda c, p: DrawTaken(DrawSource.DEMAND, card=c, player=p), _cards,
              st.sampled_from(["bob", "cat", "Ann_2"])),
)
_steps = st.lists(st.sampled_from(["play 5D 5H 5S to new/1", "discard QC", "move 7H from bob/1 to new/2",
                                   "steal 8D from bob/2", "lay off 7D on ann/1"]), max_size=4)


@given(_draws, st.one_of(st.none(), _cards), st.booleans(), _steps)
def test_the_draw_words_written_read_back_as_the_same_draw(taken: DrawTaken, card: Card | None, failed: bool,
                                                          steps: list[str]) -> None:
    card = card if taken.source == DrawSource.STOCK else None
    failed = failed and taken.source == DrawSource.DEMAND
    words = draw_text(taken, "cards", card, failed)
    assert read_draw(words) == WrittenDraw(taken, card, cards=(card,) if card is not None else (), failed=failed)
    whole = "; ".join([words, *steps])
    assert looks_like_draw(whole)
    assert split_turn(whole) == (words, "; ".join(steps))


@pytest.mark.parametrize("text", ["play 7H 8H 9H to new/1; discard KS", "draw = 1", "[turn]\ndraw = 'x'", ""])
def test_steps_and_positions_are_no_draw(text: str) -> None:
    assert not looks_like_draw(text)


# ------------------------------------------- whole turns with draws, written and read back (a property)
DRAW_PHASE_EXAMPLES = [path for path in sorted(PUZZLE_EXAMPLES.glob("*.toml"))
                       if Position.from_file(path).phase == Phase.DRAW]


@st.composite
def whole_turns(draw: st.DrawFn) -> tuple[Position, str]:
    """A draw-phase example and a whole turn on it: a draw its family has (a stock card the position
    does not show, the top N of the pile, the upcard), then the discard of a card of the hand after it."""
    before = Position.from_file(draw(st.sampled_from(DRAW_PHASE_EXAMPLES)))
    deck = before.rules.deck
    unseen = sorted(c for c, n in before.unseen_cards().items() if n > 0 and not c.is_joker)
    options = [f"draw {draw(st.sampled_from(unseen)).notation(deck)}"] if before.upcard is None else ["open"]
    if before.discard_pile:
        options.append("take" if before.rules.family.answers_draw_phase
                       else f"take {draw(st.integers(1, len(before.discard_pile)))}")
    words = draw(st.sampled_from(options))
    hand = [c.notation(deck) for c in before.mover.hand or ()]
    discard = draw(st.sampled_from(sorted(set(hand))))
    return before, f"{words}; discard {discard}"


@settings(max_examples=40, deadline=None)
@given(whole_turns())
def test_a_whole_turn_with_its_draw_reads_back_as_written(turn: tuple[Position, str]) -> None:
    before, text = turn
    played = play_turn(before, text, "turn", "toml", "x")
    assert played.after.turn is not None
    if not played.report.verdict.legal:  # a hot card left, a warm card discarded, the pile's top unmelded
        return
    written = assert_reads_back(before, played)
    assert written == text  # the canonical text of a draw and a discard is the one given
