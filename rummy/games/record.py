"""A game record: the rules, the players, each hand's first position and every turn in order.

Like a chess PGN it is append-only and meant to be read by a person: a turn is
written as the text ``rummy check`` reads as AFTER (draw words, steps, or both:
``take 2; play 5D 5H 5S to new/1; discard QC``), so replaying the turns from a
hand's ``start`` rebuilds every position of it (``rummy.games.replay``). The
format is docs/formats.md "Game records"; this module reads and writes it and
knows nothing of how a turn is carried out.
"""

from __future__ import annotations

import hashlib
import json
import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import tomli_w

from rummy.deal import MAX_SEED
from rummy.errors import PositionError, quote
from rummy.position import Position
from rummy.rules import Ruleset, ruleset_from_spec, ruleset_to_spec

FORMAT = 1  # the version written in [game] format; a reader refuses a newer one
GAME_KEYS = ("format", "rules", "players", "title")
HAND_KEYS = ("deal", "start", "turns", "result")
TURN_KEYS = ("player", "turn", "comment")
MAX_HANDS = 200  # a long evening is a few dozen hands
MAX_TURNS = 2_000  # turns in one hand; a hand of House or Rummikub has well under 200
MAX_TURN_CHARS = 4_096  # a whole turn's text: the draw's words and at most MAX_STEP_CHARS of steps
MAX_COMMENT_CHARS = 1_000
MAX_TITLE_CHARS = 200
MAX_PLAYERS = 8
MAX_SCORE = 1e9  # a hand's score, either sign
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def hand_seed(first_seed: int, hand_number: int) -> int:
    """The seed hand ``hand_number`` (from 1) of a dealt game is dealt from: the first hand's seed itself,
    then a seed derived from it (the first 8 bytes of SHA-256 of ``"rummy-selfplay/SEED/NUMBER"``, below
    2**63: the text ``rummy selfplay`` derives its hands' seeds from, so a self-played game goes on under
    ``rummy game add`` as self-play would have dealt it), so a game is dealt again from its first seed
    alone and no two hands share a deal by accident."""
    if hand_number <= 1:
        return first_seed
    digest = hashlib.sha256(f"rummy-selfplay/{first_seed}/{hand_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


@dataclass(frozen=True)
class TurnRecord:
    """One turn as played: who played it and its text (what ``check`` reads as AFTER)."""

    player: str
    turn: str
    comment: str | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player": self.player, "turn": self.turn}
        if self.comment:
            data["comment"] = self.comment
        return data


@dataclass(frozen=True)
class HandRecord:
    """One hand: the position it starts from, its turns, the seed it was dealt from (if rummy dealt it)
    and its result (each player's score for the hand) once it is over."""

    start: Position
    turns: tuple[TurnRecord, ...] = ()
    deal: int | None = None
    result: Mapping[str, float] | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.deal is not None:
            data["deal"] = self.deal
        data["start"] = self.start.to_data()
        if self.turns:
            data["turns"] = [turn.to_data() for turn in self.turns]
        if self.result is not None:
            data["result"] = dict(self.result)
        return data


@dataclass(frozen=True)
class GameRecord:
    """A whole game: its rules, its players in seating order, and its hands in order."""

    rules: Ruleset
    players: tuple[str, ...]
    hands: tuple[HandRecord, ...] = ()
    title: str | None = None

    def __repr__(self) -> str:
        return (f"GameRecord(rules={self.rules.name!r}, players={self.players!r}, "
                f"hands={len(self.hands)}, turns={self.turn_count})")

    # ----------------------------------------------------------- changing
    def with_hand(self, hand: HandRecord) -> GameRecord:
        """The game with a new hand begun (the one before it, if any, is over)."""
        where = f"hands[{len(self.hands)}]"
        if len(self.hands) >= MAX_HANDS:
            raise PositionError(where, f"a game record holds at most {MAX_HANDS} hands")
        _check_start(hand.start, self.rules, self.players, f"{where}.start")
        return replace(self, hands=self.hands + (hand,))

    def with_turn(self, turn: TurnRecord) -> GameRecord:
        """The game with ``turn`` added to its last hand; the turn is held to the bounds a file's is."""
        if not self.hands:
            raise PositionError("game", "the game has no hand yet: begin one first")
        last = self.hands[-1]
        where = f"hands[{len(self.hands) - 1}].turns[{len(last.turns)}]"
        if len(last.turns) >= MAX_TURNS:
            raise PositionError(where, f"a hand holds at most {MAX_TURNS:,} turns")
        turn = _read_turn(turn.to_data(), self.players, where)
        return replace(self, hands=self.hands[:-1] + (replace(last, turns=last.turns + (turn,)),))

    def with_result(self, result: Mapping[str, float]) -> GameRecord:
        """The game with its last hand's result written."""
        if not self.hands:
            raise PositionError("game", "the game has no hand yet")
        return replace(self, hands=self.hands[:-1] + (replace(self.hands[-1], result=dict(result)),))

    def without_last_turn(self) -> GameRecord:
        """The game with its last turn taken back, and what that turn brought about: the hand's result
        and a hand begun after it that has no turn yet (the next deal)."""
        hands = self.hands
        while len(hands) > 1 and not hands[-1].turns:
            hands = hands[:-1]
        if not hands or not hands[-1].turns:
            raise PositionError("game", "the game has no turn to take back")
        last = hands[-1]
        return replace(self, hands=hands[:-1] + (replace(last, turns=last.turns[:-1], result=None),))

    def totals(self, hands: int | None = None) -> dict[str, float]:
        """Each player's total of the results of the first ``hands`` hands (all without), whole numbers as
        ``int``."""
        summed = dict.fromkeys(self.players, 0.0)
        for hand in self.hands[:hands]:
            for name, score in (hand.result or {}).items():
                summed[name] += score
        return {name: int(score) if score.is_integer() else score for name, score in summed.items()}

    @property
    def turn_count(self) -> int:
        return sum(len(hand.turns) for hand in self.hands)

    # ------------------------------------------------------------ writing
    def to_data(self) -> dict[str, Any]:
        game: dict[str, Any] = {"format": FORMAT, "rules": ruleset_to_spec(self.rules),
                                "players": list(self.players)}
        if self.title:
            game["title"] = self.title
        return {"game": game, "hands": [hand.to_data() for hand in self.hands]}

    def to_toml(self) -> str:
        """The record as TOML, in reading order: [game], then each hand's deal and start, its turns one
        [[hands.turns]] table each, and its result."""
        data = self.to_data()
        game = data["game"]
        rules = game["rules"]
        # One line for the names (tomli_w puts each on a line of its own); a JSON string is a TOML one.
        players = "players = [" + ", ".join(json.dumps(name, ensure_ascii=False) for name in game["players"]) + "]\n"
        parts = [HEADER, "[game]\n", tomli_w.dumps({"format": game["format"]}),
                 tomli_w.dumps({"rules": rules}) if isinstance(rules, str) else "", players,
                 tomli_w.dumps({"title": game["title"]}) if "title" in game else ""]
        if not isinstance(rules, str):  # a rules table last, as [game.rules]: keys after its header are its own
            parts.append("\n" + tomli_w.dumps({"game": {"rules": rules}}))
        for hand in data["hands"]:
            head = {key: hand[key] for key in ("deal", "start") if key in hand}
            parts.append("\n" + tomli_w.dumps({"hands": [head]}))
            for turn in hand.get("turns", ()):
                parts.append("\n[[hands.turns]]\n" + tomli_w.dumps(turn))
            if "result" in hand:
                parts.append("\n[hands.result]\n" + tomli_w.dumps(hand["result"]))
        return "".join(parts)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_data(), indent=indent, ensure_ascii=False) + "\n"

    def save(self, path: str | Path, overwrite: bool = True) -> None:
        """Write the game (JSON or TOML by the suffix) in one step, never through a link (``overwrite=False``:
        nor over an existing file)."""
        from rummy.files import write_atomic

        path = Path(path)
        write_atomic(path, self.to_json() if path.suffix.lower() == ".json" else self.to_toml(), overwrite)

    def save_over(self, path: str | Path, was: str) -> None:
        """Write the game over the file ``path`` read as the text ``was``, in one step, unless the file has
        changed since (another run wrote it: a RummyError, nothing written; rummy.files.replace_unchanged)."""
        from rummy.files import replace_unchanged
        from rummy.inputs import read_text

        path = Path(path)
        text = self.to_json() if path.suffix.lower() == ".json" else self.to_toml()
        replace_unchanged(path, text, lambda: read_text(path) == was,
                          "changed since it was read (another 'rummy game' command at the same time?): nothing "
                          "written; run the command again")

    # ------------------------------------------------------------ reading
    @classmethod
    def from_file(cls, path: str | Path) -> GameRecord:
        return cls.read_file(path)[0]

    @classmethod
    def read_file(cls, path: str | Path) -> tuple[GameRecord, str]:
        """The game in the file and the file's text (to write it again with ``save_over``)."""
        from rummy.inputs import read_text, source_name

        text = read_text(path)
        kind = "json" if str(path).lower().endswith(".json") or text.lstrip().startswith("{") else "toml"
        return cls.from_text(text, source_name(path), kind), text

    @classmethod
    def from_text(cls, text: str, source: str = "<game>", kind: str = "toml") -> GameRecord:
        from rummy.parsing import parse_json, parse_toml

        data = parse_json(text, source) if kind == "json" else parse_toml(text, source)
        return cls.from_data(data, source)

    @classmethod
    def from_data(cls, data: Any, source: str = "<game>") -> GameRecord:
        return _read_game(data, source)


HEADER = "# A rummy game record (docs/formats.md \"Game records\"): replay it with 'rummy game show'.\n"


def _read_game(data: Any, source: str) -> GameRecord:
    if not isinstance(data, Mapping):
        raise PositionError(source, f"a game record must be a table (object), got {quote(data)}")
    if "game" not in data and "players" in data and "rules" in data:
        raise PositionError(source, "a position, not a game record: begin a game from it with 'rummy game new "
                            "GAME --position FILE'")
    _known_keys(data, ("game", "hands"), source)
    game = data.get("game")
    if not isinstance(game, Mapping):
        raise PositionError(source, "a game record needs a [game] table (format, rules, players)")
    where = f"{source}: game"
    _known_keys(game, GAME_KEYS, where)
    version = game.get("format", FORMAT)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise PositionError(f"{where}.format", f"expected a whole number, got {quote(version)}")
    if version > FORMAT:
        raise PositionError(f"{where}.format", f"format {version} is newer than this rummy reads ({FORMAT})")
    if "rules" not in game:
        raise PositionError(where, "missing 'rules' (a preset name or a table)")
    try:
        rules = ruleset_from_spec(game["rules"])
    except ValueError as error:
        raise PositionError(f"{where}.rules", str(error)) from None
    players = read_players(game.get("players"), f"{where}.players")
    title = read_title(game.get("title"), f"{where}.title")
    hands_data = data.get("hands", [])
    if not isinstance(hands_data, list):
        raise PositionError(f"{source}: hands", f"expected a list of hands ([[hands]]), got {quote(hands_data)}")
    if len(hands_data) > MAX_HANDS:
        raise PositionError(f"{source}: hands", f"{len(hands_data):,} hands; a game record holds at most {MAX_HANDS}")
    hands = tuple(_read_hand(hand, rules, players, f"{source}: hands[{i}]") for i, hand in enumerate(hands_data))
    return GameRecord(rules, players, hands, title)


def read_title(value: Any, where: str) -> str | None:
    if value is not None and (not isinstance(value, str) or len(value) > MAX_TITLE_CHARS):
        raise PositionError(where, f"expected a text of at most {MAX_TITLE_CHARS} characters, got {quote(value)}")
    if value is not None:
        _refuse_control_characters(value, where)
    return value or None


def read_players(value: Any, where: str) -> tuple[str, ...]:
    from rummy.reader import name_problem

    if not isinstance(value, list) or not 2 <= len(value) <= MAX_PLAYERS:
        raise PositionError(where, f"expected a list of 2 to {MAX_PLAYERS} player names, got {quote(value)}")
    for name in value:
        problem = name_problem(name)
        if problem:
            raise PositionError(where, problem)
    if len(set(value)) != len(value):
        raise PositionError(where, f"a player is named twice in {quote(value)}")
    return tuple(value)


def _read_hand(data: Any, rules: Ruleset, players: tuple[str, ...], where: str) -> HandRecord:
    if not isinstance(data, Mapping):
        raise PositionError(where, f"a hand must be a table, got {quote(data)}")
    _known_keys(data, HAND_KEYS, where)
    deal = data.get("deal")
    if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal <= MAX_SEED):
        raise PositionError(f"{where}.deal", f"expected a seed, a whole number from 0, got {quote(deal)}")
    if "start" not in data:
        raise PositionError(where, "missing 'start' (the position the hand starts from)")
    start = read_start(data["start"], f"{where}.start")
    _check_start(start, rules, players, f"{where}.start")
    turns_data = data.get("turns", [])
    if not isinstance(turns_data, list):
        raise PositionError(f"{where}.turns", f"expected a list of turns ([[hands.turns]]), got {quote(turns_data)}")
    if len(turns_data) > MAX_TURNS:
        raise PositionError(f"{where}.turns", f"{len(turns_data):,} turns; a hand holds at most {MAX_TURNS:,}")
    turns = tuple(_read_turn(turn, players, f"{where}.turns[{i}]") for i, turn in enumerate(turns_data))
    result = data.get("result")
    if result is not None:
        result = _read_result(result, players, f"{where}.result")
    return HandRecord(start, turns, deal, result)


def read_start(data: Any, where: str) -> Position:
    """A hand's first position, as a position file gives it (its hands may be hidden)."""
    if not isinstance(data, Mapping):
        raise PositionError(where, f"expected a position (a table), got {quote(data)}")
    return Position.from_data(data, where, mover_may_be_hidden=True)


def _check_start(start: Position, rules: Ruleset, players: tuple[str, ...], where: str) -> None:
    if start.rules != rules:
        raise PositionError(f"{where}.rules", f"the hand is played under {quote(ruleset_to_spec(start.rules))}, "
                            f"the game under {quote(ruleset_to_spec(rules))}")
    names = tuple(p.name for p in start.players)
    if names != players:
        raise PositionError(f"{where}.players", f"the hand's players {', '.join(names)} are not the game's "
                            f"{', '.join(players)} (in seating order)")


def _read_turn(data: Any, players: tuple[str, ...], where: str) -> TurnRecord:
    if not isinstance(data, Mapping):
        raise PositionError(where, f"a turn must be a table (player, turn), got {quote(data)}")
    _known_keys(data, TURN_KEYS, where)
    player, text, comment = data.get("player"), data.get("turn"), data.get("comment")
    if player not in players:
        raise PositionError(f"{where}.player", f"{quote(player)} is not a player of this game "
                            f"({', '.join(players)})")
    if not isinstance(text, str) or not text.strip():
        raise PositionError(f"{where}.turn", f"expected the turn's text (steps or a draw), got {quote(text)}")
    if len(text) > MAX_TURN_CHARS:
        raise PositionError(f"{where}.turn", f"a turn of {len(text):,} characters; at most {MAX_TURN_CHARS:,}")
    _refuse_control_characters(text, f"{where}.turn", "\n\t")
    if comment is not None and (not isinstance(comment, str) or len(comment) > MAX_COMMENT_CHARS):
        raise PositionError(f"{where}.comment", f"expected a text of at most {MAX_COMMENT_CHARS:,} characters")
    if comment is not None:
        _refuse_control_characters(comment, f"{where}.comment")
    return TurnRecord(player, text, comment or None)


def _refuse_control_characters(text: str, where: str, allowed: str = "") -> None:
    """A text 'game show' prints (a turn, a comment, the title) holds no control character (an escape
    sequence in a shared game file would drive the reader's terminal), no line separator and no bidi
    control (which reorders what the terminal shows); a turn may span lines. Other format characters (an
    emoji's zero-width joiner) are fine."""
    bad = next((c for c in text if c not in allowed and (unicodedata.category(c) in ("Cc", "Zl", "Zp")
                                                         or c in BIDI_CONTROLS)), None)
    if bad is not None:
        raise PositionError(where, f"a control character {bad!r} in {quote(text)}: give printable text"
                            + (" (new lines are allowed)" if "\n" in allowed else " on one line"))


def _read_result(data: Any, players: tuple[str, ...], where: str) -> dict[str, float]:
    if not isinstance(data, Mapping):
        raise PositionError(where, f"expected each player's score, got {quote(data)}")
    result: dict[str, float] = {}
    for name, score in data.items():
        if name not in players:
            raise PositionError(where, f"{quote(name)} is not a player of this game")
        if not isinstance(score, (int, float)) or isinstance(score, bool) or not math.isfinite(score) \
                or abs(score) > MAX_SCORE:
            raise PositionError(f"{where}.{name}", f"expected a score, got {quote(score)}")
        result[name] = score
    return result


def _known_keys(data: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    unknown = [key for key in data if key not in known]
    if unknown:
        raise PositionError(where, f"unknown key {quote(unknown[0])} (known: {', '.join(known)})")


__all__ = ["FORMAT", "GameRecord", "HandRecord", "TurnRecord", "hand_seed", "read_players", "read_start",
           "read_title"]
