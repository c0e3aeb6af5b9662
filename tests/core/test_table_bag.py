"""A tile table given as a bag (one string of tiles): laid out in whole plays by rummy, or refused
naming the tiles that fit nowhere; and the position of issue 26 that another solver's suite answers
with nine tiles, where rummy's rules allow eight."""

from __future__ import annotations

from collections import Counter

import pytest

from rummy.answer import best
from rummy.cards import Card, parse_cards
from rummy.checker import check
from rummy.errors import PositionError
from rummy.plays import Play, is_whole
from rummy.position import Position
from rummy.rules import Ruleset, preset
from rummy.solution import SolverConfig
from rummy.table_bag import ARRANGE_SECONDS, Arrangement, BagNotArranged, arranged_table, stray_tiles
from rummy.vocabulary import Status
from tests.support.judged import judged


def parse_plays(plays: list[str]) -> tuple[Play, ...]:
    return tuple(Play(parse_cards(play)) for play in plays)


def run(colour: str, low: int, high: int) -> str:
    return " ".join(f"{colour}{n}" for n in range(low, high + 1))


# The "Done when" position of issue 26, from another Rummikub solver's test suite.
OTHER_SUITE_TABLE = (f"{run('R', 5, 13)} {run('B', 7, 13)} B10 B1 O1 O10 O11 {run('K', 3, 7)} "
                     f"{run('K', 9, 11)} K1 K13 *")
OTHER_SUITE_HAND = "R2 R12 B2 O2 O5 O6 O8 K2 K12"


def position(table: str, hand: str = "R9", rules: str = "rummikub-lenient", melded: bool = True) -> Position:
    return Position.from_data({"rules": rules, "to_move": "ann", "table": table,
                               "players": {"ann": {"melded": melded, "hand": hand}, "bob": {"hand_count": 14}}})


def assert_laid_out(bag: str, laid: Position) -> None:
    """Every tile of the bag is in a whole play, and nothing else is."""
    rules = laid.rules
    assert all(is_whole(play.cards, rules) for play in laid.table)
    assert Counter(c.plain() for p in laid.table for c in p.cards) == Counter(c.plain() for c in parse_cards(bag))
    assert laid.table_bag == len(parse_cards(bag))


@pytest.mark.parametrize(("bag", "rules"), [
    ("R1 R2 R3 B5 B6 B7 K10 R10 O10", "rummikub"),
    ("R1 R2 R3 R4 R5 R6 R7 B7 K7 O7", "rummikub-lenient"),
    ("R1 R3 * B8 B9 B10 B11 B12 O12 K12", "rummikub-lenient"),
    ("R1 R3 *=R2 B8 B9 *=B10", "rummikub"),
    ("K4 O4 *=B4 R5 R6 R7", "tiles50"),
    ("R1 R2 R3 R1 R2 R3 B1 B2 B3 O13 K13 R13", "yourturnmyturn"),
    (OTHER_SUITE_TABLE, "rummikub-lenient"),
])
def test_a_bag_is_laid_out_in_whole_plays_the_checker_accepts(bag: str, rules: str) -> None:
    laid = position(bag, rules=rules)
    assert_laid_out(bag, laid)
    # A turn that leaves the laid-out table as it is, is legal: the checker finds every play whole.
    assert check(laid, laid).legal
    # And the position solves as any other, its answer re-judged.
    judged(laid, best(laid, SolverConfig(time_limit=20)).solution)


def test_a_fixed_joker_keeps_the_card_the_bag_gives_it() -> None:
    laid = position("R1 R3 *=R2 K5 O5 *=B5", rules="rummikub")
    jokers = [c for p in laid.table for c in p.cards if c.is_joker]
    assert sorted(j.stands_for.notation("tiles") for j in jokers if j.stands_for) == ["B5", "R2"]


def test_an_empty_bag_is_an_empty_table() -> None:
    laid = position("")
    assert laid.table == ()


@pytest.mark.parametrize(("bag", "named"), [
    ("R1 R2 R3 K9", "K9 fits in no play"),
    ("R1 R2 R3 K9 O13", "K9 O13 fit in no play"),
    ("R5 R6 B1 O1", "R5 R6 B1 O1 fit in no play"),  # B1 O1 are short of a third colour
])
def test_a_bag_with_tiles_no_play_can_hold_names_them(bag: str, named: str) -> None:
    with pytest.raises(PositionError) as caught:
        position(bag)
    assert caught.value.place.endswith("table")
    assert named in caught.value.problem


def test_a_bag_that_no_arrangement_holds_whole_says_what_is_left_out() -> None:
    # Every tile could be in some play, but not all at once: the second R2 has no place.
    with pytest.raises(PositionError, match=r"the 4 tiles cannot all be laid in whole plays: at most 3 can, "
                                            r"leaving out R2"):
        position("R1 R2 R3 R2")


def test_a_search_stopped_by_its_time_limit_is_refused_not_guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(bag: tuple[Card, ...], rules: Ruleset, time_limit: float, /) -> Arrangement:
        assert time_limit == ARRANGE_SECONDS
        return Arrangement(parse_plays(["R1 R2 R3"]), bag[3:], proven=False)

    monkeypatch.setattr(type(preset("rummikub-lenient").family), "arrange_function", lambda self: stopped)
    with pytest.raises(BagNotArranged, match=r"no arrangement of all 6 tiles was found within 10 s \(the best found "
                                             r"leaves out B5 B6 B7\); give the table as plays"):
        arranged_table(parse_cards("R1 R2 R3 B5 B6 B7"), preset("rummikub-lenient"))


def test_stray_tiles_count_jokers_and_pinned_jokers() -> None:
    rules = preset("rummikub-lenient")
    assert stray_tiles(parse_cards("R1 R3 * K9"), rules) == parse_cards("K9")
    assert stray_tiles(parse_cards("R1 R3 *"), rules) == ()
    assert stray_tiles(parse_cards("R1 *=R2 R3"), rules) == ()
    assert stray_tiles(parse_cards("R1 *=R5 R3"), rules) == parse_cards("R1 *=R5 R3")


@pytest.mark.parametrize("rules", ["rummikub", "tiles50"])  # the fixed-joker presets
def test_a_fixed_joker_bag_without_stand_ins_is_refused(rules: str) -> None:
    with pytest.raises(PositionError, match=r"table: 1 joker without a stand-in: under .* jokers are fixed"):
        position("R1 R2 R3 *", rules=rules)


def test_a_bag_beyond_the_deck_is_refused_before_any_search() -> None:
    with pytest.raises(PositionError, match=r"table: 3 copies of R1 in the position, but the rummikub-lenient "
                                            r"deck holds 2"):
        position("R1 R1 R1 R2 R3")


def test_a_bag_with_unknown_tiles_names_every_one() -> None:
    with pytest.raises(PositionError) as caught:
        position("R1 R2 X3 R4 QQ")
    assert str(caught.value).count("unknown card") == 2


def test_a_bag_outside_tile_rummy_is_refused() -> None:
    with pytest.raises(PositionError, match="only shared tables"):
        Position.from_data({"rules": "house-classic", "hand_number": 1, "to_move": "ann", "table": "7H 8H 9H",
                            "players": {"ann": {"hand": "2C"}, "bob": {"hand_count": 3}}})


def test_the_position_written_back_gives_the_plays() -> None:
    laid = position("R1 R2 R3 B5 B6 B7")
    data = laid.to_data()
    assert isinstance(data["table"], list) and len(data["table"]) == 2
    assert Position.from_data(data) == laid


# ------------------------------------------------ the other suite's nine tiles
def test_the_other_suites_position_plays_eight_tiles_proven_optimal() -> None:
    laid = position(OTHER_SUITE_TABLE, OTHER_SUITE_HAND)
    solution = judged(laid, best(laid, SolverConfig(time_limit=60)).solution)
    assert solution.status == Status.OPTIMAL
    assert solution.gain == 8 and solution.cards_played == 8


def test_the_other_suites_nine_tiles_take_a_table_tile_back() -> None:
    """That suite's integer program lets a rack count go to -1 (docs/rules.md, "Nine tiles or eight"):
    nine tiles placed, B10 back in the rack. The checker refuses it."""
    laid = position(OTHER_SUITE_TABLE, OTHER_SUITE_HAND)
    data = laid.to_data()
    data["table"] = ["R9 R10 R11 R12", "B12 K12 R12", "B13 K13 R13", "B2 O2 R2", "B1 K1 O1", "K2 K3 K4",
                     "K5 O5 R5", "K6 O6 R6", "B7 K7 R7", "B8 O8 R8", "B9 K9 *", "B10 K10 O10", "B11 K11 O11"]
    data["players"]["ann"]["hand"] = "B10"
    after = Position.from_data(data, strict=False)
    assert all(is_whole(play.cards, laid.rules) for play in after.table)
    verdict = check(laid, after)
    assert list(verdict.codes) == ["table-card-to-hand"]
    assert "B10 left the table" in verdict.breaches[0].message


# Three rules rummy can relax would give nine without a tile taken back (docs/rules.md): each of these
# arrangements plays all nine, and is legal exactly when the rule it breaks is relaxed.
NINE_TILE_ARRANGEMENTS = [
    ("book_distinct_suits", False, "K12 R12 R12",
     ["O8 * O10 O11", "B1 K1 O1", "B10 B11 B12", "B8 B9 B10", "B13 K13 R13", "B2 O2 R2", "B7 K7 R7",
      "K9 K10 K11", "K12 R12 R12", "K2 K3 K4", "K5 O5 R5", "K6 O6 R6", "R8 R9 R10 R11"]),
    ("run_min", 2, "B10 B11",
     ["O8 * O10 O11", "B1 K1 O1", "B10 B11", "B8 B9 B10", "B12 K12 R12", "B13 K13 R13", "B2 O2 R2",
      "B7 K7 R7", "K9 K10 K11", "K2 K3 K4", "K5 O5 R5", "K6 O6 R6", "R8 R9 R10 R11 R12"]),
    ("book_min", 2, "B10 R10",
     ["B13 K13 *", "B1 K1 O1", "B10 K10 O10", "B10 R10", "B11 K11 O11", "B12 K12 R12", "B2 O2 R2",
      "B7 K7 R7", "B8 O8 R8", "B9 K9 R9", "K2 K3 K4", "K5 O5 R5", "K6 O6 R6", "R11 R12 R13"]),
]


@pytest.mark.parametrize(("option", "value", "odd_play", "table"), NINE_TILE_ARRANGEMENTS,
                         ids=[case[0] for case in NINE_TILE_ARRANGEMENTS])
def test_nine_tiles_break_one_rule(option: str, value: object, odd_play: str, table: list[str]) -> None:
    laid = position(OTHER_SUITE_TABLE, OTHER_SUITE_HAND)

    def end_state(rules: object) -> tuple[Position, Position]:
        data = laid.to_data()
        data["rules"] = rules
        start = Position.from_data(data)
        data["table"] = table
        data["players"]["ann"]["hand"] = ""
        return start, Position.from_data(data, strict=False)

    before, after = end_state("rummikub-lenient")
    verdict = check(before, after)
    assert not verdict.legal and list(verdict.codes) == ["not-whole"]
    assert f"({odd_play})" in verdict.breaches[0].message
    before, after = end_state({"preset": "rummikub-lenient", option: value})
    verdict = check(before, after)
    assert verdict.legal, verdict.breaches
    assert verdict.reading["gain"] == 9


@pytest.mark.parametrize("bag", ["* * * * R1 R2 R3", "* * * R5 R6 R7"])
def test_an_after_bag_with_more_jokers_than_the_deck_is_refused_not_arranged(bag: str) -> None:
    """Read without the deck's counts (an after-position), a bag could hold enough jokers for a play of
    jokers alone, which the arrangement cannot lay: one reader line, never an internal error."""
    data = {"rules": "rummikub-lenient", "to_move": "ann", "table": bag,
            "players": {"ann": {"melded": True, "hand": "R9"}, "bob": {"hand_count": 14}}}
    jokers = bag.count("*")
    with pytest.raises(PositionError, match=rf"table: {jokers} jokers in the bag, but the rummikub-lenient deck "
                                            r"holds 2"):
        Position.from_data(data, strict=False)


def test_show_arranges_a_bag_once_and_refuses_one_beyond_the_deck_before_any_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``rummy show`` (and /api/show) read a position once: it was read leniently, then again strictly,
    so every bag was searched twice, and a bag beyond the deck's counts was searched before the
    strict read refused it."""
    from rummy.reports.position import position_from_text

    arrange = preset("rummikub-lenient").family.arrange_function()
    searches: list[int] = []

    def counted(bag: tuple[Card, ...], rules: Ruleset, seconds: float, /) -> Arrangement:
        searches.append(len(bag))
        return arrange(bag, rules, seconds)

    monkeypatch.setattr(type(preset("rummikub-lenient").family), "arrange_function", lambda _: counted)
    text = ('rules = "rummikub-lenient"\nto_move = "ann"\ntable = "{}"\n'
            'players.ann = {{melded = true, hand = "R9"}}\nplayers.bob = {{hand_count = 14}}\n')
    assert len(position_from_text(text.format("R1 R2 R3 B5 B6 B7"), "p.toml", "toml").table) == 2
    assert searches == [6]
    with pytest.raises(PositionError, match="table: 3 copies of R1 in the position"):
        position_from_text(text.format("R1 R1 R1 R2 R3"), "p.toml", "toml")
    assert searches == [6]
