"""The end of a hand (rummy.hand_end): recognised exactly when the rules say, and scored; the scores here
are worked out from rules.md by hand (in the comments), never by calling the scoring code."""

from __future__ import annotations

import pytest

from rummy.hand_end import hand_end, next_hand
from rummy.position import Position
from rummy.reports.play import play_turn
from rummy.rules import PRESETS


def position(text: str) -> Position:
    return Position.from_toml(text, "<test>")


def played(before: Position, turn: str):  # type: ignore[no-untyped-def]
    return play_turn(before, turn, "<turn>", "steps", "test")


CLASSIC = """
rules = "house-classic"
hand_number = 1
to_move = "ann"

[players.ann]
melded = true
hand = "{hand}"
space = ["QS QD QC"]

[players.bob]
melded = true
hand = "9C 9D 3S"
space = ["6S 7S 8S 9S"]

[piles]
discard = "JD"
stock = 20
"""


def test_house_classic_going_out_ends_the_hand_and_scores_it() -> None:
    result = played(position(CLASSIC.format(hand="5H 6H 7H KS")), "play 5H 6H 7H to new/1; discard KS")
    assert result.position is not None and result.ending is not None
    # ann: book of 3 (10) + run of 3 (15) + first out (25); bob: run of 4 (20) - 9 - 9 - 3 = -1, floored at 0.
    assert result.ending.reason == "ann went out"
    assert dict(result.ending.scores or {}) == {"ann": 50, "bob": 0}
    assert result.ending.went_out == "ann"
    assert "ann 50, bob 0" in result.ending.summary()


def test_house_a_turn_that_does_not_go_out_does_not_end_the_hand() -> None:
    result = played(position(CLASSIC.format(hand="5H 6H 7H KS 2C")), "play 5H 6H 7H to new/1; discard KS")
    assert result.position is not None and result.position.to_move == "bob"
    assert result.ending is None


HOUSE_AFTER = """
rules = "{rules}"
hand_number = 2
to_move = "bob"
phase = "{phase}"
{extra}

[players.ann]
melded = true
hand = "{ann}"
space = ["QS QD QC", "5H 6H 7H"]

[players.bob]
melded = true
hand = "9C KH AS"
space = ["6S 7S 8S 9S"]

[piles]
discard = "JD"
{piles}
"""


def house_after(rules: str = "house-classic", ann: str = "4C", extra: str = "", piles: str = "stock = 0",
                phase: str = "draw") -> Position:
    return position(HOUSE_AFTER.format(rules=rules, ann=ann, extra=extra, piles=piles, phase=phase))


def test_house_stock_exhausted_ends_the_hand_after_the_turn_that_emptied_it() -> None:
    ending = hand_end(house_after())
    assert ending is not None and ending.reason == "the stock is exhausted"
    # ann: 10 + 15 - 4 (4C); bob: 20 - (9 + 4 + 11) = -4, floored at 0. Nobody went out: no bonus.
    assert dict(ending.scores or {}) == {"ann": 21, "bob": 0}
    assert ending.went_out is None


@pytest.mark.parametrize("piles", ["stock = 1", 'stock = 0\nupcard = "2D"', "", 'stock = "2D"'])
def test_house_a_stock_with_a_card_left_or_unknown_goes_on(piles: str) -> None:
    assert hand_end(house_after(piles=piles)) is None


def test_house_the_middle_of_a_turn_is_no_hand_end() -> None:
    assert hand_end(house_after(phase="play")) is None  # a draw carried out alone: bob plays on


def test_house_epic_first_out_is_out_for_good_only_after_re_entering() -> None:
    before_reentry = house_after("house-epic", ann="", extra='first_out = "ann"', piles="stock = 9")
    assert hand_end(before_reentry) is None
    again = house_after("house-epic", ann="", extra='first_out = "ann"\nreentered = true', piles="stock = 9")
    ending = hand_end(again)
    assert ending is not None and ending.reason == "ann went out"
    # Epic: no hand penalty; ann: 10 + 15 + bonus = bob's hand (9 + K 4 + A 11 = 24); bob: 20.
    assert dict(ending.scores or {}) == {"ann": 49, "bob": 20}


def test_house_classic_first_out_is_out_for_good_at_once() -> None:
    ending = hand_end(house_after(ann="", extra='first_out = "ann"', piles="stock = 9"))
    assert ending is not None
    # ann: 10 + 15 + 25; bob: 20 - 24 -> 0
    assert dict(ending.scores or {}) == {"ann": 50, "bob": 0}


FOUR = """
rules = "house-classic"
hand_number = 1
to_move = "bob"
phase = "draw"
first_out = "ann"

[players.ann]
melded = true
hand = ""
space = ["QS QD QC"]

[players.bob]
melded = true
hand = "9C"
space = ["6S 7S 8S 9S"]

[players.cat]
melded = true
hand = "{cat}"
space = ["5H 6H 7H"]

[players.dan]
melded = true
hand = "KD"
space = ["2D 3D 4D"]

[piles]
stock = 20
"""


def test_house_four_players_the_hand_ends_when_a_whole_side_is_out() -> None:
    assert hand_end(position(FOUR.format(cat="10C"))) is None  # ann is out, her partner cat is not
    ending = hand_end(position(FOUR.format(cat="")))
    assert ending is not None and "ann and cat" in ending.reason
    # ann+cat: 10 + 15 + 25 = 50; bob+dan: 20 - 9 + 15 - 4 (KD) = 22. Partners write their side's score.
    assert dict(ending.scores or {}) == {"ann": 50, "bob": 22, "cat": 50, "dan": 22}
    assert sorted(ending.side_scores.values()) == [22, 50]


def test_house_a_hidden_hand_the_score_needs_leaves_the_hand_unscored() -> None:
    hidden = position(HOUSE_AFTER.format(rules="house-classic", ann="4C", extra="", piles="stock = 0",
                                         phase="draw").replace('hand = "4C"', "hand_count = 1"))
    ending = hand_end(hidden)
    assert ending is not None and ending.scores is None and "ann" in (ending.unscored or "")


ROBBER = """
rules = "robber"
to_move = "bob"
phase = "draw"

[players.ann]
hand = "{ann}"
plays = ["9S 10S JS QS", "3H 3S 3C"]

[players.bob]
hand = "KS 5D"
plays = ["6D 7D 8D"]

[piles]
discard = "QD"
stock = {stock}
"""


def test_robber_going_out_and_the_stock_run_out_end_the_hand() -> None:
    # ann: run 9-Q of spades (5 + 10 + 10 + 10) x 2 = 70, book of threes 15, empty hand: 85.
    # bob: run 6-8 of diamonds (5 x 3) x 2 = 30, less K (10) and 5 (5): 15.
    out = hand_end(position(ROBBER.format(ann="", stock=30)))
    assert out is not None and out.reason == "ann went out"
    assert dict(out.scores or {}) == {"ann": 85, "bob": 15}
    run_out = hand_end(position(ROBBER.format(ann="2C", stock=0)))
    assert run_out is not None and run_out.reason == "the stock is exhausted"
    assert dict(run_out.scores or {}) == {"ann": 80, "bob": 15}  # the 2 in hand costs 5
    assert hand_end(position(ROBBER.format(ann="2C", stock=1))) is None


LAYOFF = """
rules = "{rules}"
to_move = "{to_move}"
phase = "{phase}"

[players.ann]
hand = "{ann}"
space = [{space}]

[players.bob]
hand = "QS 2H AD"
space = ["9D 10D JD"]

[piles]
discard = "8H"
stock = 20
"""


def layoff(rules: str, ann: str, space: str, to_move: str = "bob", phase: str = "draw") -> Position:
    return position(LAYOFF.format(rules=rules, ann=ann, space=space, to_move=to_move, phase=phase))


def test_straight_going_out_scores_the_others_hands_doubled_for_going_rummy() -> None:
    after = layoff("straight", "", '"7S 7H 7C"')
    rummy_before = layoff("straight", "7S 7H 7C", "", to_move="ann", phase="play")
    # bob's hand: QS 45 + 2 + A 1 = 48; going rummy (nothing laid before) doubles it.
    ending = hand_end(after, rummy_before)
    assert ending is not None and ending.reason == "ann went rummy"
    assert dict(ending.scores or {}) == {"ann": 96, "bob": 0}
    laid_before = layoff("straight", "7C", '"7S 7H 7D"', to_move="ann", phase="play")
    plain = hand_end(layoff("straight", "", '"7S 7H 7D 7C"'), laid_before)
    assert plain is not None and dict(plain.scores or {}) == {"ann": 48, "bob": 0}
    assert hand_end(layoff("straight", "4C", '"7S 7H 7C"')) is None


def test_traditional_losers_write_their_hands_as_penalty_points() -> None:
    ending = hand_end(layoff("traditional", "", '"7S 7H 7C"'))
    assert ending is not None and ending.lower_wins
    assert dict(ending.scores or {}) == {"ann": 0, "bob": 13}  # Q 10 + 2 + A 1


TILES = """
rules = "rummikub-lenient"
to_move = "bob"
phase = "play"
table = ["R1 R2 R3"]

[players.ann]
melded = true
hand = "{ann}"

[players.bob]
melded = true
hand = "{bob}"

[piles]
stock = {stock}
"""


def tiles(ann: str, bob: str, stock: int) -> Position:
    return position(TILES.format(ann=ann, bob=bob, stock=stock))


def test_tile_rummy_going_out_the_winner_takes_the_others_racks() -> None:
    ending = hand_end(tiles("", "R5 K13 *", 10))
    assert ending is not None and ending.reason == "ann went out"
    assert dict(ending.scores or {}) == {"ann": 48, "bob": -48}  # 5 + 13 + joker 30


def test_tile_rummy_an_empty_pool_ends_the_hand_only_when_nobody_can_play() -> None:
    assert hand_end(tiles("K9", "B5", 3)) is None  # tiles left to draw
    assert hand_end(tiles("R4", "B5", 0)) is None  # ann can lay R4 on R1 R2 R3
    ending = hand_end(tiles("K9", "B5", 0))
    assert ending is not None and ending.reason == "the pool is empty and nobody can play"
    # bob's rack is the lowest (5 against 9): he takes ann's 9 less his own 5; ann loses her 9.
    assert dict(ending.scores or {}) == {"ann": -9, "bob": 4}


def test_next_hand_passes_the_deal_left_and_adds_up_the_totals() -> None:
    ending = hand_end(house_after())
    assert ending is not None
    rules = PRESETS["house-classic"]
    following = next_hand(ending, rules, ("ann", "bob"), 1, "bob", {"ann": 5, "bob": 7})
    assert (following.hand_number, following.dealer, following.first) == (2, "ann", "bob")
    assert dict(following.totals) == {"ann": 26, "bob": 7}
    assert following.game_over is None
    assert next_hand(ending, rules, ("ann", "bob"), 6, "ann").game_over is not None  # six hands a game
    three = next_hand(ending, rules, ("ann", "bob", "cat"), 1, "cat")
    assert (three.dealer, three.first) == ("ann", "bob")


def test_next_hand_ends_a_robber_game_at_400() -> None:
    ending = hand_end(position(ROBBER.format(ann="", stock=30)))
    assert ending is not None
    done = next_hand(ending, PRESETS["robber"], ("ann", "bob"), 3, "ann", {"ann": 320, "bob": 100})
    assert done.game_over is not None and "ann wins" in done.game_over


def test_house_full_out_by_a_card_played_gives_the_others_one_more_turn() -> None:
    # The seed's rule 20: ann plays her last card (no discard closes the pile): bob has one more turn.
    before = position(CLASSIC.format(hand="5H 6H 7H").replace("stock = 20", 'stock = "2D 3H"'))
    out = played(before, "play 5H 6H 7H to new/1")
    assert out.position is not None and out.ending is None
    assert out.position.last_turns == ("bob",) and out.position.to_move == "bob"
    assert Position.from_toml(out.position.to_toml(), "<again>") == out.position
    drawn = played(out.position, "draw")
    assert drawn.position is not None and drawn.ending is None
    last = played(drawn.position, "discard 2D")
    assert last.position is not None and last.position.last_turns == ()
    ending = last.ending
    assert ending is not None and ending.reason == "ann went out"
    # ann: 10 + 15 + 25; bob: 20 - (9 + 9 + 3), floored at 0.
    assert dict(ending.scores or {}) == {"ann": 50, "bob": 0}


def test_house_last_turns_are_read_strictly() -> None:
    from rummy.errors import PositionError

    with pytest.raises(PositionError, match="last_turns"):
        house_after(extra='last_turns = ["zed"]')
    with pytest.raises(PositionError, match="last_turns"):
        house_after(extra='last_turns = ["bob", "bob"]')
    assert hand_end(house_after(extra='last_turns = ["bob"]', piles="stock = 5")) is None
