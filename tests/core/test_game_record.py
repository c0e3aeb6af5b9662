"""The game record (rummy.games.record): written and read back unchanged (TOML and JSON), every bound and
unknown key refused in one line, a turn taken back with what it brought about; and its replay
(rummy.games.replay) naming the first turn that does not replay."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.errors import PositionError
from rummy.games import record as game_record
from rummy.games.record import GameRecord, HandRecord, TurnRecord, hand_seed
from rummy.games.replay import GameReplayError, replay
from rummy.position import Position

HOUSE_START = Position.from_toml("""
rules = "house-classic"
hand_number = 1
to_move = "ann"
phase = "draw"

[players.ann]
melded = false
hand = "9C 4C AS QS 8D 8C JS 10H 2H 10D"

[players.bob]
melded = false
hand = "7C 4H 7H 9S 2C QC * JD 5H 9H"

[piles]
discard = "4D"
stock = "KC KS QH 6C 2S 6H 3D * 6D 5D 8S 5C KD AC 3H 10C AD 2D 6S 3S AH 7D JC QD JH 7S 9D 5S 4S 3C KH 10S 8H"
""", "house-start")
PLAYERS = ("ann", "bob")
# Turns that replay from HOUSE_START: ann draws the KC and throws the AS, bob takes the AS... and
# must play it (hot), so bob's "take 1" is followed by a play of it: here bob draws instead.
LEGAL_TURNS = (TurnRecord("ann", "draw"), TurnRecord("ann", "discard AS", "nothing to meld"),
               TurnRecord("bob", "draw"), TurnRecord("bob", "discard QC"))


def game(*turns: TurnRecord, hands: int = 1) -> GameRecord:
    record = GameRecord(HOUSE_START.rules, PLAYERS, (), "Friday")
    for _ in range(hands):
        record = record.with_hand(HandRecord(HOUSE_START, deal=None))
    for turn in turns:
        record = record.with_turn(turn)
    return record


# ------------------------------------------------------------------ round trip
# Printable text of any script (a control character is refused: test "comment-escape" below).
texts = st.text(st.characters(exclude_categories=["Cs", "Cc", "Zl", "Zp"]).filter(lambda c: not "\u202a" <= c <= "\u202e"
                                                                               and not "\u2066" <= c <= "\u2069"),
                min_size=1, max_size=60).filter(str.strip)
turn_records = st.builds(TurnRecord, st.sampled_from(PLAYERS), texts,
                         st.none() | texts)
hand_records = st.builds(
    HandRecord, st.just(HOUSE_START), st.lists(turn_records, max_size=5).map(tuple),
    st.none() | st.integers(0, 2**63 - 1),
    st.none() | st.fixed_dictionaries({"ann": st.integers(-500, 500), "bob": st.floats(-1e6, 1e6)}))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(hand_records, min_size=1, max_size=3), st.none() | texts)
def test_a_record_reads_back_as_itself_in_toml_and_json(hands: list[HandRecord], title: str | None) -> None:
    record = GameRecord(HOUSE_START.rules, PLAYERS, tuple(hands), title)
    assert GameRecord.from_text(record.to_toml(), "g.toml", "toml") == record
    assert GameRecord.from_text(record.to_json(), "g.json", "json") == record
    assert GameRecord.from_data(json.loads(record.to_json())).to_data() == record.to_data()


def test_the_file_reads_as_the_format_says() -> None:
    text = game(*LEGAL_TURNS[:2]).to_toml()
    assert text.startswith("# A rummy game record")
    data = GameRecord.from_text(text).to_data()
    assert data["game"] == {"format": 1, "rules": "house-classic", "players": ["ann", "bob"], "title": "Friday"}
    assert data["hands"][0]["turns"] == [{"player": "ann", "turn": "draw"},
                                         {"player": "ann", "turn": "discard AS", "comment": "nothing to meld"}]
    assert "[[hands.turns]]" in text and "[hands.start]" in text


def test_a_rules_table_is_written_as_game_rules_and_read_back() -> None:
    from dataclasses import replace

    rules = HOUSE_START.rules.with_options({"ace": "low"})
    record = GameRecord(rules, PLAYERS, (HandRecord(replace(HOUSE_START, rules=rules), LEGAL_TURNS[:2]),), "T")
    text = record.to_toml()
    assert "[game.rules]" in text and 'ace = "low"' in text
    assert GameRecord.from_text(text) == record


def test_names_and_texts_of_any_script_read_back() -> None:
    from dataclasses import replace

    names = ("ann\U0001f600", 'b"o\\b')
    start = replace(HOUSE_START, to_move=names[0], players=tuple(
        replace(p, name=n, side=n) for p, n in zip(HOUSE_START.players, names, strict=True)))
    record = GameRecord(start.rules, names, (HandRecord(start, (TurnRecord(names[1], 'x "y"\n\tz', "é \u00a0\u05d0\u4e2d"),),
                                                        result={}),), "ti\u0301tle ✓")
    assert GameRecord.from_text(record.to_toml()) == record
    assert GameRecord.from_text(record.to_json(), kind="json") == record


# ------------------------------------------------------------------ bounds and bad keys
def base_data() -> dict[str, Any]:
    return game(*LEGAL_TURNS[:2]).to_data()


def _set(path: str, value: Any) -> dict[str, Any]:
    data = base_data()
    target: Any = data
    keys = path.split("/")
    for key in keys[:-1]:
        target = target[int(key) if key.isdigit() else key]
    last = keys[-1]
    target[int(last) if last.isdigit() else last] = value
    return data


def _turns(count: int) -> list[dict[str, str]]:
    return [{"player": "ann", "turn": "draw"}] * count


BAD = {
    "unknown-top-key": ({**base_data(), "extra": 1}, "unknown key 'extra'"),
    "unknown-game-key": (_set("game/seed", 3), "unknown key 'seed'"),
    "unknown-hand-key": (_set("hands/0/dealer", "ann"), "unknown key 'dealer'"),
    "unknown-turn-key": (_set("hands/0/turns/0/gain", 3), "unknown key 'gain'"),
    "no-game": ({"hands": []}, "needs a [game] table"),
    "newer-format": (_set("game/format", 2), "newer than this rummy reads"),
    "format-text": (_set("game/format", "1"), "expected a whole number"),
    "format-bool": (_set("game/format", True), "expected a whole number"),
    "no-rules": ({**base_data(), "game": {"players": ["ann", "bob"]}}, "missing 'rules'"),
    "unknown-preset": (_set("game/rules", "poker"), "poker"),
    "one-player": (_set("game/players", ["ann"]), "2 to 8 player names"),
    "nine-players": (_set("game/players", [f"p{i}" for i in range(9)]), "2 to 8 player names"),
    "player-twice": (_set("game/players", ["ann", "ann"]), "named twice"),
    "player-with-space": (_set("game/players", ["ann b", "bob"]), "no spaces"),
    "long-title": (_set("game/title", "t" * (game_record.MAX_TITLE_CHARS + 1)), "at most 200"),
    "title-number": (_set("game/title", 3), "expected a text"),
    "hands-table": (_set("hands", {"start": {}}), "expected a list of hands"),
    "too-many-hands": (_set("hands", [base_data()["hands"][0]] * (game_record.MAX_HANDS + 1)), "at most 200"),
    "hand-not-table": (_set("hands/0", 3), "a hand must be a table"),
    "no-start": (_set("hands/0", {"turns": []}), "missing 'start'"),
    "start-not-table": (_set("hands/0/start", "rummy1_x"), "expected a position"),
    "start-other-rules": (_set("hands/0/start/rules", "house-epic"), "the hand is played under"),
    "start-other-players": (_set("game/players", ["bob", "ann"]), "not the game's"),
    "deal-negative": (_set("hands/0/deal", -1), "expected a seed"),
    "deal-too-large": (_set("hands/0/deal", 2**63), "expected a seed"),
    "deal-bool": (_set("hands/0/deal", True), "expected a seed"),
    "turns-table": (_set("hands/0/turns", {"player": "ann"}), "expected a list of turns"),
    "too-many-turns": (_set("hands/0/turns", _turns(game_record.MAX_TURNS + 1)), "at most 2,000"),
    "turn-not-table": (_set("hands/0/turns/0", "draw"), "a turn must be a table"),
    "turn-of-a-stranger": (_set("hands/0/turns/0/player", "zed"), "'zed' is not a player"),
    "turn-empty": (_set("hands/0/turns/0/turn", "  "), "expected the turn's text"),
    "turn-number": (_set("hands/0/turns/0/turn", 7), "expected the turn's text"),
    "turn-too-long": (_set("hands/0/turns/0/turn", "draw " * 1000), "at most 4,096"),
    "comment-too-long": (_set("hands/0/turns/0/comment", "c" * 1001), "at most 1,000"),
    "comment-number": (_set("hands/0/turns/0/comment", 1), "expected a text"),
    "comment-escape": (_set("hands/0/turns/0/comment", "\x1b[2Jgood move"), "a control character '\\x1b'"),
    "comment-two-lines": (_set("hands/0/turns/0/comment", "one\ntwo"), "on one line"),
    "turn-escape": (_set("hands/0/turns/0/turn", "draw # \x1b]0;x\x07"), "a control character '\\x1b'"),
    "title-bell": (_set("game/title", "Friday\x07"), "a control character '\\x07'"),
    "title-bidi": (_set("game/title", "ann \u202ewins"), "a control character '\\u202e'"),
    "result-list": (_set("hands/0/result", [1, 2]), "expected each player's score"),
    "result-stranger": (_set("hands/0/result", {"zed": 1}), "'zed' is not a player"),
    "result-text": (_set("hands/0/result", {"ann": "3"}), "expected a score"),
    "result-nan": (_set("hands/0/result", {"ann": float("nan")}), "expected a score"),
    "result-inf": (_set("hands/0/result", {"ann": float("inf")}), "expected a score"),
    "result-huge": (_set("hands/0/result", {"ann": 1e10}), "expected a score"),
    "not-a-table": ([1, 2], "must be a table"),
}


@pytest.mark.parametrize(("data", "expected"), BAD.values(), ids=BAD.keys())
def test_every_bound_and_bad_key_is_one_line(data: Any, expected: str) -> None:
    with pytest.raises(PositionError) as caught:
        GameRecord.from_data(copy.deepcopy(data), "g.toml")
    message = str(caught.value)
    assert expected in message and "\n" not in message and message.startswith("g.toml")


def test_a_turn_added_is_held_to_the_files_bounds() -> None:
    with pytest.raises(PositionError, match="at most 1,000"):
        game().with_turn(TurnRecord("ann", "draw", "c" * 1001))
    with pytest.raises(PositionError, match="not a player"):
        game().with_turn(TurnRecord("zed", "draw"))
    with pytest.raises(PositionError, match="no hand yet"):
        GameRecord(HOUSE_START.rules, PLAYERS).with_turn(TurnRecord("ann", "draw"))


# ------------------------------------------------------------------ taking a turn back
def test_undo_takes_back_the_last_turn_and_the_deal_it_brought_about() -> None:
    played = game(*LEGAL_TURNS[:2]).with_result({"ann": 3, "bob": -3})
    dealt = played.with_hand(HandRecord(HOUSE_START, deal=hand_seed(7, 2)))
    back = dealt.without_last_turn()
    assert back == game(LEGAL_TURNS[0])  # the empty hand, the result and the turn all gone
    assert back.without_last_turn() == game()
    with pytest.raises(PositionError, match="no turn to take back"):
        game().without_last_turn()


def test_hand_seeds_are_the_first_then_derived_and_fixed() -> None:
    assert hand_seed(7, 1) == 7
    seeds = [hand_seed(7, n) for n in range(1, 50)]
    assert len(set(seeds)) == len(seeds) and all(0 <= s <= game_record.MAX_SEED for s in seeds)
    assert hand_seed(7, 2) == hand_seed(7, 2) != hand_seed(8, 2)


# ------------------------------------------------------------------ replay
def test_a_legal_game_replays_every_position() -> None:
    hands = replay(game(*LEGAL_TURNS, hands=1))
    assert len(hands) == 1 and len(hands[0].positions) == len(LEGAL_TURNS) + 1
    assert hands[0].positions[0] == HOUSE_START
    last = hands[0].last
    assert (last.to_move, str(last.phase)) == ("ann", "draw")
    assert " ".join(card.notation() for card in last.discard_pile) == "4D AS QC"
    ann, bob = (last.player(name).hand or () for name in PLAYERS)
    assert [c.notation() for c in ann].count("KC") == 1 and "AS" not in [c.notation() for c in ann]
    assert "KS" in [c.notation() for c in bob] and "QC" not in [c.notation() for c in bob]
    assert all(report.verdict.legal for report in hands[0].reports)


@pytest.mark.parametrize(("turns", "turn", "expected"), [
    ((LEGAL_TURNS[0], TurnRecord("ann", "discard 3H"), TurnRecord("ann", "zzz")), 2, "3H"),
    ((LEGAL_TURNS[0], TurnRecord("ann", "play AS 2H 3H to new/1; discard KC")), 2, ""),
    ((LEGAL_TURNS[0], LEGAL_TURNS[1], TurnRecord("ann", "draw")), 3, "bob is to move, not ann"),
    ((TurnRecord("ann", "take 9"),), 1, "take 9"),
    ((LEGAL_TURNS[0], TurnRecord("ann", "frobnicate 3H")), 2, "frobnicate"),
], ids=["card-not-held", "illegal-play", "wrong-player", "bad-draw", "unreadable"])
def test_replay_names_the_first_turn_that_does_not_replay(turns: tuple[TurnRecord, ...], turn: int,
                                                          expected: str) -> None:
    record = game(hands=2)
    record = GameRecord(record.rules, record.players, (record.hands[0], HandRecord(HOUSE_START, turns)))
    with pytest.raises(GameReplayError) as caught:
        replay(record, "g.toml")
    error = caught.value
    bad = turns[turn - 1]
    assert (error.hand, error.turn) == (2, turn)
    message = str(error)
    assert message.startswith(f"g.toml: hand 2, turn {turn} ({bad.player}: '{bad.turn}')") and expected in message
    assert "\n" not in message


def test_hand_seeds_are_derived_as_the_format_says() -> None:
    import hashlib

    digest = hashlib.sha256(b"rummy-selfplay/7/3").digest()
    assert hand_seed(7, 3) == int.from_bytes(digest[:8], "big") & (2**63 - 1)


def test_the_command_line_bounds_a_deal_seed_as_the_dealer_does() -> None:
    from rummy.cli._options import DEAL_SEED_MAX
    from rummy.deal import MAX_SEED

    assert DEAL_SEED_MAX == MAX_SEED == game_record.MAX_SEED
