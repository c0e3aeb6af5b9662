"""``check`` from the draw phase for House Rummy and lay-off rummy (rules.md §5 "Draw advice", §8;
docs/checker.md "Judging from the draw phase"): the draw applied first, declared or read from the
end state, then the play phase judged by the family's judge; the gain measured from before the draw."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from rummy.answer import Answer, verify_answer
from rummy.cards import Card
from rummy.checker import check
from rummy.checker.draw_apply import apply_draw_taken
from rummy.checker.draw_judge import judge_random_draw
from rummy.cli.app import main
from rummy.end_states import read_end_state_or_draw
from rummy.errors import PositionError
from rummy.position import DrawTaken, Position
from rummy.rules import preset
from rummy.solution import DrawChoice, DrawOption, Solution
from rummy.vocabulary import DrawSource, Status

HOUSE = ("house-classic", "house-epic")
LAYOFF = ("straight", "traditional")
ANN = {"melded": True, "hand": "5H 6H 2C KS", "space": ["9C 10C JC"]}
BOB = {"hand_count": 5, "space": ["QD QH QC"]}


def position(rules: str, players: dict[str, dict[str, Any]], discard: str = "", stock: Any = 20, upcard: str | None = None,
             phase: str = "draw", turn: dict[str, Any] | None = None, strict: bool = True) -> Position:
    data: dict[str, Any] = {"rules": rules, "to_move": "ann", "phase": phase, "players": players,
                            "piles": {"discard": discard, "stock": stock}}
    if preset(rules).family.hands_in_game:
        data["hand_number"] = 1
    if upcard is not None:
        data["piles"]["upcard"] = upcard
    if turn is not None:
        data["turn"] = turn
    return Position.from_data(data, strict=strict)


def after(rules: str, players: dict[str, dict[str, Any]], **kwargs: Any) -> Position:
    return position(rules, players, phase="play", strict=False, **kwargs)


def with_ann(**changes: Any) -> dict[str, Any]:
    return {**ANN, **changes}


def codes(before: Position, end: Position) -> tuple[str, ...]:
    return tuple(str(code) for code in check(before, end).codes)


def draw_of(before: Position, end: Position) -> dict[str, Any]:
    draw: dict[str, Any] = check(before, end).reading["draw"]
    return draw


def legal(before: Position, end: Position, gain: float | None = None) -> dict[str, Any]:
    verdict = check(before, end)
    assert verdict.legal, [b.message for b in verdict.breaches]
    if gain is not None:
        assert verdict.reading["gain"] == gain
    return verdict.reading


# ------------------------------------------------------- House: the discard pile
@pytest.mark.parametrize("rules, gain", [("house-classic", 28), ("house-epic", 15)])
def test_taking_the_top_discard_and_playing_it_is_legal_and_read(rules: str, gain: int) -> None:
    """Classic: +15 on the table, the hand 5H 6H 2C KS (17) down to KS (4); Epic counts no hand."""
    before = position(rules, {"ann": ANN, "bob": BOB}, discard="4S 8D 7H")
    end = {"ann": with_ann(hand="KS", space=["9C 10C JC", "5H 6H 7H"]), "bob": BOB}
    reading = legal(before, after(rules, end, discard="4S 8D 2C"), gain)
    assert reading["draw"] == {"draw": "discard", "from": "discard", "take": 1, "cards": ["7H"], "hot": ["7H"]}
    assert "draw inferred" in reading["inferred"]
    declared = legal(before, after(rules, end, discard="4S 8D 2C", turn={"draw": {"from": "discard", "take": 1}}), gain)
    assert "draw inferred" not in declared["inferred"]


@pytest.mark.parametrize("rules", HOUSE)
def test_a_declared_draw_the_pile_does_not_follow_is_a_draw_mismatch(rules: str) -> None:
    """Declared: the top card; the pile shows two taken (8D, 7H) and 2C discarded."""
    before = position(rules, {"ann": ANN, "bob": BOB}, discard="4S 8D 7H")
    end = {"ann": with_ann(hand="KS 8D", space=["9C 10C JC", "5H 6H 7H"]), "bob": BOB}
    verdict = check(before, after(rules, end, discard="4S 2C", turn={"draw": {"from": "discard", "take": 1}}))
    assert verdict.codes[0] == "draw-mismatch" and "the discard pile changed below its top" not in str(verdict.breaches)
    assert "(7H)" in verdict.breaches[0].message and "4S 8D" in verdict.breaches[0].message
    assert "4S 2C" in verdict.breaches[0].message
    # Read from the end state instead: two cards taken, and the hot 8D kept.
    assert codes(before, after(rules, end, discard="4S 2C")) == ("hot-card-unplayed",)


@pytest.mark.parametrize("rules", HOUSE)
def test_the_bottom_card_taken_is_hot(rules: str) -> None:
    """Taking two: 8D (the bottom one) must be played; kept in hand it is a breach."""
    before = position(rules, {"ann": ANN, "bob": BOB}, discard="4S 8D 7H")
    end = {"ann": with_ann(hand="KS 8D", space=["9C 10C JC", "5H 6H 7H"]), "bob": BOB}
    verdict = check(before, after(rules, end, discard="4S 2C"))
    assert verdict.codes == ("hot-card-unplayed",)
    assert verdict.reading["draw"]["hot"] == ["8D"] and verdict.reading["draw"]["warm"] == ["7H"]


@pytest.mark.parametrize("rules, gain", [("house-classic", 21), ("house-epic", 10)])
def test_the_top_card_of_two_is_warm(rules: str, gain: int) -> None:
    """Classic: book +10, and the hand 8S 8C 2C KS (22) down to KS 7H (11): the 7H drawn and kept counts
    against the mover (from the position after the draw: +10, 37 down to 11, less 15 for 7H 8D drawn)."""
    ann = with_ann(hand="8S 8C 2C KS")
    before = position(rules, {"ann": ann, "bob": BOB}, discard="4S 8D 7H")
    space = ["9C 10C JC", "8D 8S 8C"]
    legal(before, after(rules, {"ann": {**ann, "hand": "KS 7H", "space": space}, "bob": BOB}, discard="4S 2C"), gain)
    assert codes(before, after(rules, {"ann": {**ann, "hand": "KS 2C", "space": space}, "bob": BOB},
                               discard="4S 7H")) == ("warm-discard",)


def test_cards_between_top_and_bottom_are_cold_in_classic_and_warm_in_epic() -> None:
    ann = with_ann(hand="9S 9H 2C")
    end_ann = {**ann, "hand": "2C 7H", "space": ["9C 10C JC", "9D 9S 9H"]}
    for rules in HOUSE:
        before = position(rules, {"ann": ann, "bob": BOB}, discard="4S 9D 8D 7H")
        end = after(rules, {"ann": end_ann, "bob": BOB}, discard="4S 8D")
        assert draw_of(before, end)["take"] == 3
    # Classic: book +10, hand 9S 9H 2C (20) down to 2C 7H (9).
    legal(position("house-classic", {"ann": ann, "bob": BOB}, discard="4S 9D 8D 7H"),
          after("house-classic", {"ann": end_ann, "bob": BOB}, discard="4S 8D"), 21)
    epic = position("house-epic", {"ann": ann, "bob": BOB}, discard="4S 9D 8D 7H")
    assert codes(epic, after("house-epic", {"ann": end_ann, "bob": BOB}, discard="4S 8D")) == ("warm-discard",)
    kept = {**end_ann, "hand": "8D 7H"}
    reading = legal(epic, after("house-epic", {"ann": kept, "bob": BOB}, discard="4S 2C"), 10)
    assert reading["draw"]["warm"] == ["7H", "8D"]


@pytest.mark.parametrize("rules", HOUSE)
def test_taking_more_than_the_pile_holds(rules: str) -> None:
    before = position(rules, {"ann": ANN, "bob": BOB}, discard="7H")
    end = {"ann": with_ann(hand="KS", space=["9C 10C JC", "5H 6H 7H"]), "bob": BOB}
    assert codes(before, after(rules, end, discard="2C", turn={"draw": {"from": "discard", "take": 2}})) == ("pile-too-short",)


# ---------------------------------------------------------------- House: the stock
@pytest.mark.parametrize("rules, gain", [("house-classic", 28), ("house-epic", 15)])
@pytest.mark.parametrize("stock, stock_after", [(["7H", "KC"], ["KC"]), (20, 19)])
def test_a_stock_card_is_cold_listed_or_unseen(rules: str, gain: int, stock: Any, stock_after: Any) -> None:
    before = position(rules, {"ann": ANN, "bob": BOB}, discard="4S", stock=stock)
    end = {"ann": with_ann(hand="KS", space=["9C 10C JC", "5H 6H 7H"]), "bob": BOB}
    reading = legal(before, after(rules, end, discard="4S 2C", stock=stock_after), gain)
    assert reading["draw"] == {"draw": "stock", "from": "stock", "cards": ["7H"]}
    # The card is cold: discarding it is fine (what it costs in hand: Classic 2C stays, 7H goes).
    kept = {"ann": with_ann(hand="5H 6H 2C KS"), "bob": BOB}
    legal(before, after(rules, kept, discard="4S 7H", stock=stock_after, turn={"draw": {"from": "stock"}}), 0)
    assert codes(before, after(rules, end, discard="4S 2C", stock=stock)) == ("conservation",)


@pytest.mark.parametrize("rules", HOUSE)
def test_an_empty_stock_and_a_card_in_sight_cannot_be_drawn(rules: str) -> None:
    end = {"ann": with_ann(hand="KS", space=["9C 10C JC", "5H 6H 7H"]), "bob": BOB}
    empty = position(rules, {"ann": ANN, "bob": BOB}, discard="4S", stock=0)
    assert "empty-stock" in codes(empty, after(rules, end, discard="4S 2C", stock=0, turn={"draw": {"from": "stock"}}))
    known = {"hand": "7H 4D 9H", "space": ["QD QH QC"]}
    before = position(rules, {"ann": ANN, "bob": known}, discard="4S")
    found = codes(before, after(rules, {**end, "bob": known}, discard="4S 2C", stock=19, turn={"draw": {"from": "stock"}}))
    assert found == ("conservation",)


# ---------------------------------------------------------- House: the upcard
@pytest.mark.parametrize("rules, gain", [("house-classic", 28), ("house-epic", 15)])
@pytest.mark.parametrize("stock_after", [30, 29])
def test_opening_the_stock_takes_the_upcard_warm(rules: str, gain: int, stock_after: int) -> None:
    before = position(rules, {"ann": ANN, "bob": BOB}, stock=30, upcard="7H")
    end = {"ann": with_ann(hand="KS", space=["9C 10C JC", "5H 6H 7H"]), "bob": BOB}
    reading = legal(before, after(rules, end, discard="2C", stock=stock_after), gain)
    assert reading["draw"] == {"draw": "open", "from": "open", "cards": ["7H"], "warm": ["7H"]}
    kept = {"ann": with_ann(hand="5H 6H 2C KS"), "bob": BOB}
    assert codes(before, after(rules, kept, discard="7H", stock=30, turn={"draw": {"from": "open"}})) == ("warm-discard",)
    shown = codes(before, after(rules, end, discard="2C", stock=30, upcard="8C", turn={"draw": {"from": "open"}}))
    assert shown == ("draw-mismatch",)
    assert "conservation" in codes(before, after(rules, end, discard="2C", stock=27, turn={"draw": {"from": "open"}}))


@pytest.mark.parametrize("rules", HOUSE)
def test_no_stock_card_is_drawn_from_under_the_upcard(rules: str) -> None:
    end = {"ann": with_ann(hand="KS 3D", space=["9C 10C JC", "5H 6H 4H"]), "bob": BOB}
    ann = with_ann(hand="5H 6H 4H 2C KS")
    before = position(rules, {"ann": ann, "bob": BOB}, stock=30, upcard="7H")
    found = codes(before, after(rules, end, discard="2C", stock=29, upcard="7H", turn={"draw": {"from": "stock"}}))
    assert found == ("stock-not-opened",)


@pytest.mark.parametrize("rules", HOUSE)
def test_a_pass_moves_nothing_and_gains_nothing(rules: str) -> None:
    players = {"ann": ANN, "bob": BOB}
    before = position(rules, players, stock=30, upcard="7H")
    reading = legal(before, after(rules, players, stock=30, upcard="7H"), 0)
    assert reading["draw"]["from"] == "pass" and "draw inferred" in reading["inferred"]
    declared = {"draw": {"from": "pass"}}
    legal(before, after(rules, players, stock=30, upcard="7H", turn=declared), 0)
    assert codes(before, after(rules, players, stock=30, turn=declared)) == ("draw-mismatch",)
    moved = {"ann": with_ann(hand="5H 6H KS"), "bob": BOB}
    assert codes(before, after(rules, moved, discard="2C", stock=30, upcard="7H", turn=declared)) == ("draw-mismatch",)
    opened = position(rules, players, stock=30)
    assert codes(opened, after(rules, players, stock=30, turn=declared)) == ("no-upcard",)
    assert "no-upcard" in codes(opened, after(rules, players, stock=30, turn={"draw": {"from": "open"}}))


# -------------------------------------------------------------- House: demands
KNOWN_BOB = {"hand": "7H 4D 9H", "space": ["QD QH QC"]}
PLAYED = with_ann(hand="KS", space=["9C 10C JC", "5H 6H 7H"])


def test_a_demand_from_a_known_hand_is_read_and_hot() -> None:
    before = position("house-epic", {"ann": ANN, "bob": KNOWN_BOB}, discard="4S")
    end = {"ann": PLAYED, "bob": {**KNOWN_BOB, "hand": "4D 9H"}}
    reading = legal(before, after("house-epic", end, discard="4S 2C"), 15)
    assert reading["draw"] == {"draw": "demand", "from": "demand", "card": "7H", "player": "bob", "cards": ["7H"], "hot": ["7H"]}
    kept = {"ann": with_ann(hand="5H 6H 7H KS"), "bob": {**KNOWN_BOB, "hand": "4D 9H"}}
    assert codes(before, after("house-epic", kept, discard="4S 2C")) == ("hot-card-unplayed",)


def test_a_demand_from_a_hidden_hand_takes_one_of_its_cards() -> None:
    before = position("house-epic", {"ann": ANN, "bob": {**BOB, "hand_count": 3}}, discard="4S")
    end = {"ann": PLAYED, "bob": {**BOB, "hand_count": 2}}
    reading = legal(before, after("house-epic", end, discard="4S 2C", turn={"draw": {"from": "demand", "card": "7H",
                                                                                        "player": "bob"}}))
    assert reading["draw"]["card"] == "7H"
    assert draw_of(before, after("house-epic", end, discard="4S 2C"))["from"] == "demand"
    # bob's hand unchanged: the card came from the stock.
    assert draw_of(before, after("house-epic", {**end, "bob": {**BOB, "hand_count": 3}}, discard="4S 2C", stock=19))["from"] == "stock"


def test_a_demand_where_the_rules_have_none_or_from_oneself_is_not_allowed() -> None:
    end = {"ann": PLAYED, "bob": {**KNOWN_BOB, "hand": "4D 9H"}}
    declared = {"draw": {"from": "demand", "card": "7H", "player": "bob"}}
    classic = position("house-classic", {"ann": ANN, "bob": KNOWN_BOB}, discard="4S")
    assert codes(classic, after("house-classic", end, discard="4S 2C", turn=declared)) == ("demand-not-allowed",)
    assert "demand-not-allowed" not in codes(classic, after("house-classic", end, discard="4S 2C"))  # not read
    epic = position("house-epic", {"ann": ANN, "bob": KNOWN_BOB}, discard="4S")
    itself = {"draw": {"from": "demand", "card": "2C", "player": "ann"}}
    assert "demand-not-allowed" in codes(epic, after("house-epic", end, discard="4S 2C", turn=itself))


def test_a_demanded_card_must_be_held_and_not_the_last_one() -> None:
    end = {"ann": PLAYED, "bob": {**KNOWN_BOB, "hand": "4D 9H"}}
    holds = {"hand": "8C 4D 9H", "space": ["QD QH QC"]}
    before = position("house-epic", {"ann": ANN, "bob": holds}, discard="4S")
    found = codes(before, after("house-epic", end, discard="4S 2C", turn={"draw": {"from": "demand", "card": "7H", "player": "bob"}}))
    assert "demand-not-held" in found
    last = {"hand": "7H", "space": ["QD QH QC"]}
    before = position("house-epic", {"ann": ANN, "bob": last}, discard="4S")
    declared = {"draw": {"from": "demand", "card": "7H", "player": "bob"}}
    assert codes(before, after("house-epic", {**end, "bob": {**last, "hand": ""}}, discard="4S 2C",
                               turn=declared)) == ("demand-last-card",)


def test_a_failed_demand_ends_the_turn_and_is_read_only_when_declared() -> None:
    players = {"ann": ANN, "bob": BOB}
    before = position("house-epic", players, discard="4S")
    declared = {"draw": {"from": "demand", "card": "QS", "player": "bob"}}
    reading = legal(before, after("house-epic", players, discard="4S", turn=declared), 0)
    assert reading["draw"]["failed"] is True
    assert not check(before, after("house-epic", players, discard="4S")).legal
    known = {"ann": ANN, "bob": KNOWN_BOB}
    before = position("house-epic", known, discard="4S")
    held = {"draw": {"from": "demand", "card": "7H", "player": "bob"}}
    assert codes(before, after("house-epic", known, discard="4S", turn=held)) == ("draw-mismatch",)


def test_a_partner_may_be_asked() -> None:
    cat = {"hand": "7H 4D 9H", "space": []}
    players = {"ann": ANN, "bob": BOB, "cat": cat, "dan": {"hand_count": 4}}
    before = position("house-epic", players, discard="4S")
    end = {**players, "ann": PLAYED, "cat": {**cat, "hand": "4D 9H"}}
    reading = legal(before, after("house-epic", end, discard="4S 2C"), 15)
    assert reading["draw"]["player"] == "cat"


# ------------------------------------------------------------------- lay-off rummy
LAYOFF_ANN = {"hand": "5H 6H 2C KS"}
LAYOFF_BOB = {"hand_count": 5, "space": ["9C 10C JC"]}


@pytest.mark.parametrize("rules", LAYOFF)
def test_lay_off_takes_the_top_discard_and_may_not_discard_it_again(rules: str) -> None:
    before = position(rules, {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}, discard="4S 8D 7H")
    melded = {"ann": {"hand": "KS", "space": ["5H 6H 7H"]}, "bob": LAYOFF_BOB}
    # Cards gone from the hand after the draw 5H 6H 7H 2C (20), minus the card drawn (7H).
    reading = legal(before, after(rules, melded, discard="4S 8D 2C"), 13)
    assert reading["draw"] == {"draw": "discard", "from": "discard", "take": 1, "cards": ["7H"], "warm": ["7H"]}
    again = {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}
    assert codes(before, after(rules, again, discard="4S 8D 7H")) == ("warm-discard",)
    two = {"draw": {"from": "discard", "take": 2}}
    assert "too-many-taken" in codes(before, after(rules, melded, discard="4S 2C", turn=two))
    empty = position(rules, {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB})
    assert "pile-too-short" in codes(empty, after(rules, again, discard="2C", turn={"draw": {"from": "discard"}}))


@pytest.mark.parametrize("rules", LAYOFF)
def test_lay_off_stock_draws_are_cold_and_cost_what_they_keep(rules: str) -> None:
    before = position(rules, {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}, discard="4S", stock=["KC", "3D"])
    legal(before, after(rules, {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}, discard="4S KC", stock=["3D"]), 0)
    kept = {"ann": {"hand": "5H 6H KS KC"}, "bob": LAYOFF_BOB}
    legal(before, after(rules, kept, discard="4S 2C", stock=["3D"]), 2 - 10)
    empty = position(rules, {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}, discard="4S", stock=0)
    assert "empty-stock" in codes(empty, after(rules, kept, discard="4S 2C", stock=0, turn={"draw": {"from": "stock"}}))


@pytest.mark.parametrize("rules", LAYOFF)
@pytest.mark.parametrize("draw", [{"from": "open"}, {"from": "pass"}, {"from": "demand", "card": "7H", "player": "bob"},
                                  {"from": "pile"}])
def test_lay_off_has_no_upcard_demand_or_pile(rules: str, draw: dict[str, Any]) -> None:
    before = position(rules, {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}, discard="4S")
    with pytest.raises(PositionError, match="no draw of lay-off rummy"):
        check(before, after(rules, {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}, discard="4S", turn={"draw": draw}))


@pytest.mark.parametrize("draw", [{"from": "open", "take": 2}, {"from": "discard", "card": "7H"},
                                  {"from": "demand", "card": "7H", "player": "zed"}, {"from": "pile"}])
def test_a_declaration_with_fields_of_another_draw_is_bad_input(draw: dict[str, Any]) -> None:
    before = position("house-epic", {"ann": ANN, "bob": BOB}, discard="4S")
    with pytest.raises(PositionError, match=r"turn\.draw"):
        check(before, after("house-epic", {"ann": ANN, "bob": BOB}, discard="4S", turn={"draw": draw}))


# ------------------------------------------------------------ a random draw alone
def test_a_random_draw_is_judged_alone() -> None:
    hidden = position("house-epic", {"ann": ANN, "bob": BOB}, discard="4S")
    verdict = judge_random_draw(hidden, DrawTaken(DrawSource.STOCK))
    assert verdict.legal and "the draw alone" in verdict.reading["judged"]
    demand = judge_random_draw(hidden, DrawTaken(DrawSource.DEMAND, card=Card(7, "H"), player="bob"))
    unseen = hidden.unseen_cards()
    assert demand.legal and demand.reading["draw"]["probability"] == round(5 / sum(unseen.values()), 4)
    upcard = position("house-classic", {"ann": ANN, "bob": BOB}, stock=30, upcard="7H")
    assert judge_random_draw(upcard, DrawTaken(DrawSource.STOCK)).codes == ("stock-not-opened",)
    empty = position("straight", {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}, discard="4S", stock=0)
    assert judge_random_draw(empty, DrawTaken(DrawSource.STOCK)).codes == ("empty-stock",)
    classic = position("house-classic", {"ann": ANN, "bob": BOB}, discard="4S")
    assert judge_random_draw(classic, DrawTaken(DrawSource.DEMAND, card=Card(7, "H"), player="bob")).codes == ("demand-not-allowed",)
    last = position("house-epic", {"ann": ANN, "bob": {**BOB, "hand_count": 1}}, discard="4S")
    assert judge_random_draw(last, DrawTaken(DrawSource.DEMAND, card=Card(7, "H"), player="bob")).codes == ("demand-last-card",)


@pytest.mark.parametrize("draw, says", [
    (DrawTaken(DrawSource.DISCARD, take=1), "certain draw"),
    (DrawTaken(DrawSource.PASS), "certain draw"),
    (DrawTaken(DrawSource.DEMAND, card=Card(7, "H"), player="cat"), "hand is known"),
    (DrawTaken(DrawSource.DEMAND, card=Card(4, "S"), player="bob"), "in sight"),
    (DrawTaken(DrawSource.PILE), "no draw of House Rummy"),
])
def test_a_certain_draw_alone_is_bad_input(draw: DrawTaken, says: str) -> None:
    before = position("house-epic", {"ann": ANN, "bob": BOB, "cat": {"hand": "7H 8S", "space": []}}, discard="4S",
                      stock=30, upcard="9S")
    with pytest.raises(PositionError, match=says):
        judge_random_draw(before, draw)
    listed = position("traditional", {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}, stock=["KC"])
    with pytest.raises(PositionError, match="the stock is listed"):
        judge_random_draw(listed, DrawTaken(DrawSource.STOCK))
    with pytest.raises(PositionError, match="no draw of lay-off rummy"):
        judge_random_draw(listed, DrawTaken(DrawSource.OPEN))


def run(*args: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


def test_the_cli_judges_a_random_demand_alone_and_a_drawn_turn(tmp_path: Path) -> None:
    before = position("house-epic", {"ann": ANN, "bob": BOB}, discard="4S 8D 7H")
    before_file = tmp_path / "before.toml"
    before_file.write_text(before.to_toml())
    draw = {"from": "demand", "card": "QS", "player": "bob", "probability": 0.1}
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"status": "optimal", "after": None, "draw": draw, "steps": [{"action": "draw", **draw}]}))
    assert read_end_state_or_draw(answer, random_draw=True) == (None, DrawTaken(DrawSource.DEMAND, None, Card(12, "S"), "bob"))
    code, out, err = run("check", before_file, answer)
    assert code == 0 and "the draw alone" in out, err
    end = after("house-epic", {"ann": with_ann(hand="KS", space=["9C 10C JC", "5H 6H 7H"]), "bob": BOB}, discard="4S 8D 2C",
                turn={"draw": {"from": "discard", "take": 1}})
    after_file = tmp_path / "after.toml"
    after_file.write_text(end.to_toml())
    code, out, err = run("check", before_file, after_file, "--json")
    assert code == 0, err
    assert json.loads(out)["reading"]["draw"]["take"] == 1 and json.loads(out)["reading"]["gain"] == 15


def test_verify_answer_judges_a_random_demand_alone() -> None:
    before = position("house-epic", {"ann": ANN, "bob": BOB}, discard="4S")
    option = DrawOption(DrawSource.DEMAND, 1.5, card=Card(12, "S"), player="bob", probability=Fraction(1, 10))
    answer = Answer(before, Solution(Status.OPTIMAL, 1.5, 1.5, None, draw=DrawChoice((option,))), None)
    verdict = verify_answer(answer)
    assert verdict is not None and verdict.legal and verdict.reading["draw"]["player"] == "bob"


# ---------------------------------------------------------- best's answers agree
def answer_cases() -> list[Position]:
    known = {"hand": "7H 4D 9H", "space": ["QD QH QC"]}
    return [
        *(position(rules, {"ann": with_ann(hand="8S 8C 2C KS 4H"), "bob": {**BOB, "hand_count": 3}}, discard="4S 8D 7H",
                   stock=["3C", "JD"]) for rules in HOUSE),
        *(position(rules, {"ann": LAYOFF_ANN, "bob": LAYOFF_BOB}, discard="4S 8D 7H", stock=["3C", "JD"]) for rules in LAYOFF),
        position("house-epic", {"ann": ANN, "bob": known}, discard="4S", stock=20),  # a certain demand
        position("house-classic", {"ann": ANN, "bob": BOB}, stock=30, upcard="7H"),  # open
        position("house-classic", {"ann": ANN, "bob": BOB}, stock=30, upcard="AS"),  # pass
        position("house-epic", {"ann": ANN, "bob": {**BOB, "hand_count": 2}}, stock=20),  # a random draw
    ]


@pytest.mark.parametrize("before", answer_cases(), ids=lambda p: f"{p.rules.name}")
def test_best_answers_from_the_draw_phase_are_accepted_at_their_value(before: Position) -> None:
    """The value ``best`` gives a certain draw is the gain ``check`` reads for its whole turn."""
    from rummy.answer import best
    from rummy.solution import SolverConfig

    answer = best(before, SolverConfig(time_limit=20))
    assert answer.solution.status == Status.OPTIMAL
    verdict = verify_answer(answer)
    assert verdict is not None and verdict.legal, verdict.breaches
    chosen = answer.solution.chosen_draw
    assert chosen is not None and verdict.reading["draw"]["from"] == chosen.source
    if answer.solution.after is None:
        assert "judged" in verdict.reading
    else:
        assert verdict.reading["gain"] == pytest.approx(answer.solution.gain)


# --------------------------------------------------------------------- property
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.data())
def test_any_certain_cold_draw_then_a_plain_discard_is_legal_and_worth_what_moved(data: st.DataObject) -> None:
    """Any certain draw without a hot card (a listed stock, the upcard, lay-off's top discard), applied
    by the checker's own code, then a turn that only discards a cold card: legal, declared or read,
    and worth the discarded card's penalty less the drawn card's where the hand counts."""
    name = data.draw(st.sampled_from(HOUSE + LAYOFF), label="rules")
    rules = preset(name)
    family = rules.family
    deck = data.draw(st.permutations(sorted(rules.deck_cards)), label="deck")
    hand_size = data.draw(st.integers(1, 5), label="hand")
    hand, rest = deck[:hand_size], list(deck[hand_size:])
    options = ["stock"] + (["open"] if family.stock_upcard else ["discard"])
    kind = data.draw(st.sampled_from(options), label="draw")
    pile = rest[:data.draw(st.integers(1 if kind == "discard" else 0, 3), label="pile")]
    rest = rest[len(pile):]
    stock_cards = rest[:data.draw(st.integers(1, 3), label="stock")]
    text = " ".join(c.notation() for c in hand)
    players = {"ann": {"hand": text}, "bob": {"hand_count": 4}}
    upcard = stock_cards[0].notation() if kind == "open" else None
    stock: Any = 30 if kind == "open" else [c.notation() for c in stock_cards]
    before = position(name, players, discard=" ".join(c.notation() for c in pile), stock=stock, upcard=upcard)
    taken = DrawTaken(DrawSource(kind), take=1 if kind == "discard" else None)
    applied = apply_draw_taken(before, taken)
    assert applied.start is not None and not applied.breaches and not applied.hot
    start = applied.start
    mover = start.mover
    cold = [c for c in mover.hand or () if c not in applied.warm]
    discard = data.draw(st.sampled_from(cold), label="discard")
    left = list(mover.hand or ())
    left.remove(discard)
    end = replace(start.replace_player(replace(mover, hand=tuple(left), hot=(), warm=())),
                  discard_pile=start.discard_pile + (discard,))
    note(end.to_toml())
    (drawn,) = applied.drawn
    penalty = family.penalty
    worth = penalty(discard, rules) - penalty(drawn, rules) if family.hand_counts_against(rules) else 0
    declared = Position.from_toml(end.to_toml() + f'\n[turn]\ndraw = {{from = "{kind}"}}\n', strict=False)
    for turn in (end, declared):
        verdict = check(before, turn)
        assert verdict.legal, [b.message for b in verdict.breaches]
        assert verdict.reading["gain"] == worth
        assert verdict.reading["draw"]["cards"] == [drawn.notation()]
