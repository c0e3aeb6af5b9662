"""``rummy.games.review``: every turn of a game against the best turn from the position as its player saw
it; losses and marks on hand-made games of House, tile rummy and lay-off rummy, each best answer re-judged
by the checker."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rummy.answer import answer_from_data, verify_answer
from rummy.games.record import GameRecord, HandRecord, TurnRecord
from rummy.games.replay import GameReplayError
from rummy.games.review import CARD_SCALE, GameReview, MarkScale, as_seen_by, mark_scale, review_game
from rummy.position import Position
from rummy.reports.play import play_turn
from rummy.vocabulary import Phase, Status
from tests.support.paths import PUZZLE_EXAMPLES

TIME_LIMIT = 10.0  # generous: these positions are proven in well under a second

# ann's turn from house-classic.toml without the 7H steal and the 8H 9H run: 27 where the best scores 94.
HOUSE_WORSE = "play 2C 2H to new/1; steal * from cat/1 (* 10D JD) to new/1 paid by 2C; play 9D to cat/1; discard KS"
BOB_PLAY = "play 2S to ann/2 (2H 2C *); play KC KH KS to new/1; steal * from ann/2 to new/1 paid by KC; discard 8D"


def house_start() -> Position:
    """house-classic.toml with every hand known, as a self-played record starts."""
    text = (PUZZLE_EXAMPLES / "house-classic.toml").read_text()
    text = text.replace("hand_count = 4", 'hand = "KC KH 8D 2S"').replace("hand_count = 5", 'hand = "4D 5D 6D 9C 10C"')
    return Position.from_text(text, "house", "toml")


def game_of(start: Position, *turns: tuple[str, str]) -> GameRecord:
    game = GameRecord(start.rules, tuple(p.name for p in start.players), (HandRecord(start),))
    for player, text in turns:
        game = game.with_turn(TurnRecord(player, text))
    return game


def house_game() -> GameRecord:
    return game_of(house_start(), ("ann", HOUSE_WORSE), ("bob", "take 1"), ("bob", BOB_PLAY))


def assert_best_answers_rejudged(review: GameReview) -> int:
    """Every best answer of the review judged by the checker from the position it was searched from
    (as the player saw it): legal, and worth the gain the review reports. The count judged."""
    judged = 0
    for turn in review.turns:
        if turn.best_answer is None or turn.searched is None:
            continue
        for player in turn.searched.players:  # searched as the player saw it
            assert player.name == turn.player or player.hand is None
        verdict = verify_answer(answer_from_data(turn.searched, turn.best_answer, "review"))
        if verdict is None:
            continue
        assert verdict.legal, (turn, verdict.breaches)
        if turn.searched.phase == Phase.PLAY and turn.best_gain is not None and "gain" in verdict.reading:
            assert float(verdict.reading["gain"]) == pytest.approx(turn.best_gain, abs=1e-3)
        judged += 1
    return judged


def test_a_worse_house_turn_loses_exactly_the_difference_and_is_marked() -> None:
    review = review_game(house_game(), time_limit=TIME_LIMIT)
    ann, draw, play = review.turns
    # The checker's gain of the turn played, and of the best turn from the same position.
    start = house_start()
    played = play_turn(start, HOUSE_WORSE, "turn", "toml", "test").report.verdict.reading["gain"]
    assert (ann.gain, ann.best_gain, ann.status) == (played, 94, Status.OPTIMAL)
    assert played == 27 and ann.lost == 67
    assert ann.mark == "??"  # 67 >= 20 points and >= half of 94
    assert ann.best_text is not None and "steal 7H from bob/1" in ann.best_text
    assert draw.phase == Phase.DRAW and draw.draw is not None
    assert draw.draw.played == {"from": "discard", "take": 1} and draw.draw.lost == 0 and draw.lost == 0
    assert draw.draw.played_value == draw.draw.best_value
    assert play.played_best and play.mark is None
    assert assert_best_answers_rejudged(review) == 3
    ann_summary, bob_summary = review.summaries()
    assert (ann_summary.turns, ann_summary.lost, ann_summary.best_turns, ann_summary.marks["??"]) == (1, 67, 0, 1)
    assert (bob_summary.turns, bob_summary.lost, bob_summary.best_share) == (2, 0, 1.0)
    assert review.worst() == (ann,)


def test_the_player_filter_reviews_that_players_turns_only() -> None:
    review = review_game(house_game(), "bob", time_limit=TIME_LIMIT)
    assert [(t.player, t.turn) for t in review.turns] == [("bob", 2), ("bob", 3)]
    assert [s.player for s in review.summaries()] == ["bob"]
    with pytest.raises(ValueError, match="not a player of this game"):
        review_game(house_game(), "zed", time_limit=TIME_LIMIT)


def test_the_search_is_made_as_the_player_saw_it() -> None:
    start = house_start()
    view = as_seen_by(start, "ann")
    assert view.player("ann").hand == start.player("ann").hand
    assert (view.player("bob").hand, view.player("bob").hand_count) == (None, 4)
    assert (view.player("cat").hand, view.player("cat").hand_count) == (None, 5)
    assert isinstance(as_seen_by(start, "ann").stock, int)


def test_a_tile_turn_that_draws_instead_of_playing_loses_every_tile() -> None:
    start = Position.from_file(PUZZLE_EXAMPLES / "rummikub.toml")
    review = review_game(game_of(start, ("ann", "draw B5")), time_limit=TIME_LIMIT)
    (turn,) = review.turns
    assert (turn.gain, turn.best_gain, turn.status) == (0, 6, Status.OPTIMAL)
    assert turn.lost == 6 and turn.mark == "??"  # 6 tiles >= 6 and >= half of 6
    assert assert_best_answers_rejudged(review) == 1


def test_a_lay_off_turn_that_only_discards() -> None:
    start = Position.from_file(PUZZLE_EXAMPLES / "traditional.toml")
    review = review_game(game_of(start, ("ann", "discard KS")), time_limit=TIME_LIMIT)
    (turn,) = review.turns
    played = play_turn(start, "discard KS", "turn", "toml", "test").report.verdict.reading["gain"]
    assert (turn.gain, turn.best_gain) == (played, 59) and played == 10
    assert turn.lost == 49 and turn.mark == "??"
    assert assert_best_answers_rejudged(review) == 1


def test_a_lay_off_draw_is_reviewed_against_the_best_draw() -> None:
    start = Position.from_file(PUZZLE_EXAMPLES / "straight-draw.toml")
    review = review_game(game_of(start, ("cat", "draw 9H; discard 9H")), time_limit=TIME_LIMIT)
    (turn,) = review.turns
    assert turn.draw is not None and turn.draw.played == {"from": "stock"}
    assert turn.draw.played_value is not None and turn.draw.best_value >= turn.draw.played_value
    # The whole turn's loss: the draw's (values from before the draw) and the play's after it.
    assert turn.gain is not None and turn.play_best_gain is not None
    assert turn.lost == pytest.approx(turn.draw.lost + max(0.0, turn.play_best_gain - turn.gain), abs=1e-4)
    assert turn.best_gain == turn.draw.best_value  # the best whole turn: the best draw and the best play after it
    assert turn.mark == mark_scale("layoff").mark(turn.lost, turn.draw.best_value)
    assert assert_best_answers_rejudged(review) >= 1


def test_a_turn_that_beats_a_search_stopped_at_its_limit_loses_nothing() -> None:
    def weak_search(tasks: Any) -> list[dict[str, Any]]:
        return [{"status": "feasible", "gain": 20, "bound": 200, "steps": [], "after": None} for _ in tasks]

    review = review_game(game_of(house_start(), ("ann", HOUSE_WORSE)), solve=weak_search)
    (turn,) = review.turns
    assert turn.beat_search and turn.lost == 0 and turn.mark is None and turn.status == Status.FEASIBLE


def test_marks_need_the_absolute_and_the_relative_threshold() -> None:
    assert CARD_SCALE.mark(4.9, 10) is None
    assert CARD_SCALE.mark(5, 10) == "?!" and CARD_SCALE.mark(5, 60) is None  # 5 of 60 is under 10%
    assert CARD_SCALE.mark(10, 40) == "?" and CARD_SCALE.mark(20, 40) == "??"
    assert MarkScale((1, 3, 6)).mark(3, 6) == "?"


def test_a_game_that_fails_to_replay_names_the_turn(tmp_path: Path) -> None:
    game = game_of(house_start(), ("ann", HOUSE_WORSE), ("bob", "take 1"), ("bob", BOB_PLAY.replace("8D", "9S")))
    with pytest.raises(GameReplayError, match=r"hand 1, turn 3 \(bob: ") as raised:
        review_game(game, time_limit=TIME_LIMIT)
    assert (raised.value.hand, raised.value.turn) == (1, 3)


def test_a_hidden_movers_turns_are_listed_and_skipped() -> None:
    # A real table's record: bob's hand is hidden (hand_count); his turns are entered as seen.
    start = Position.from_file(PUZZLE_EXAMPLES / "house-classic.toml")
    game = game_of(start, ("ann", HOUSE_WORSE), ("bob", "draw"), ("bob", "play 6S to bob/2; discard 2D"))
    review = review_game(game, time_limit=TIME_LIMIT)
    ann, bob_draw, bob_play = review.turns
    assert ann.reviewed and (ann.lost, ann.mark) == (67, "??")
    for turn in (bob_draw, bob_play):
        assert not turn.reviewed and turn.skipped is not None and "hidden" in turn.skipped
        assert turn.mark is None and turn.best_answer is None
    bob = review.summaries()[1]
    assert (bob.player, bob.turns, bob.skipped, bob.lost_per_turn) == ("bob", 0, 2, None)


def test_a_robber_turn_that_takes_the_pile_but_steals_little() -> None:
    start = Position.from_file(PUZZLE_EXAMPLES / "robber-draw.toml")
    review = review_game(game_of(start, ("cat", "take; steal KD from bob/2 (KH KH KC); discard QD")),
                         time_limit=TIME_LIMIT)
    (turn,) = review.turns
    # The draw is the best one (the pile); the play after it falls short of the best play from there.
    assert turn.draw is not None and turn.draw.played == {"from": "pile"} and turn.draw.lost == 0
    assert turn.best_gain == 405 and turn.gain is not None and turn.play_best_gain is not None
    assert turn.lost == turn.play_best_gain - turn.gain > 0
    assert turn.mark == "??"
    assert assert_best_answers_rejudged(review) == 1


def test_a_worse_draw_alone_loses_the_difference_of_the_draw_values() -> None:
    start = Position.from_file(PUZZLE_EXAMPLES / "house-classic-draw.toml")
    review = review_game(game_of(start, ("ann", "take 2")), time_limit=TIME_LIMIT)
    (turn,) = review.turns
    assert turn.draw is not None and turn.draw.played == {"from": "discard", "take": 2}
    # best --json on the same view values each draw: take 4 is worth 63, take 2 40 (house-classic-draw.toml).
    assert (turn.draw.best_value, turn.draw.played_value) == (63, 40)
    assert turn.gain is None and turn.lost == turn.draw.lost == 23
    assert turn.mark == "?"  # 23 >= 20 but under half of 63; >= 10 and 25% of 63
    assert assert_best_answers_rejudged(review) == 1


@pytest.mark.parametrize("name", ["rummikub-3p", "robber-3p", "straight-2p"])
def test_the_self_played_games_are_reviewed(name: str) -> None:
    """benchmarks/results/selfplay (rummy selfplay's games): every turn reviewed, every best answer
    judged legal; rummikub-3p's table holds a joker that could stand for several cards (a position
    written as data would not read back: the searches take the position itself)."""
    from tests.support.paths import REPO_ROOT

    game = GameRecord.from_file(REPO_ROOT / "benchmarks" / "results" / "selfplay" / f"{name}.toml")
    review = review_game(game, time_limit=TIME_LIMIT)
    assert review.turns and all(turn.reviewed for turn in review.turns)
    assert len(review.turns) == sum(len(hand.turns) for hand in game.hands)
    assert assert_best_answers_rejudged(review) > 0
