"""Positions: the state of a game at the mover's play (or draw) phase.

A ``Position`` parses and prints its own file format (formats.md, TOML or
JSON). Reading validates everything and raises ``PositionError`` naming the
place (``file: players.ann.space[2]``) and quoting the bad input.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

import tomli_w

from .cards import Card, cards_notation
from .errors import NotationError, PositionError, RulesError
from .plays import Play, readings
from .rules import Ruleset, ruleset_from_spec, ruleset_to_spec

PHASES = ("play", "draw")
TOP_KEYS = ("rules", "hand_number", "to_move", "phase", "first_out", "table", "players", "piles", "turn")
PLAYER_KEYS = ("side", "melded", "hand", "hand_count", "hot", "warm", "space", "plays", "layoffs")
PILE_KEYS = ("discard", "stock")
TURN_KEYS = ("meld", "replaced", "discard")


@dataclass(frozen=True)
class Attached:
    """Cards a player laid off on a play in someone else's space (personal tables)."""

    target: str
    cards: tuple[Card, ...]

    def notation(self, deck: str = "cards") -> str:
        return f"{self.target} {cards_notation(self.cards, deck)}"


@dataclass(frozen=True)
class Replacement:
    """A joker replaced before melding: the play (named as before the turn) and the card put in."""

    play: str
    card: Card

    def notation(self, deck: str = "cards") -> str:
        return f"{self.play} {self.card.notation(deck)}"


@dataclass(frozen=True)
class Turn:
    """What the end state cannot show. ``None`` means not declared (to be inferred)."""

    meld: tuple[Play, ...] | None = None
    replaced: tuple[Replacement, ...] | None = None
    discard: Card | None = None
    discard_declared: bool = False


@dataclass(frozen=True)
class Player:
    name: str
    side: str
    melded: bool = False
    hand: tuple[Card, ...] | None = None
    hand_count: int | None = None
    hot: tuple[Card, ...] = ()
    warm: tuple[Card, ...] = ()
    plays: tuple[Play, ...] = ()
    layoffs: tuple[Attached, ...] = ()

    @property
    def hand_size(self) -> int:
        return len(self.hand) if self.hand is not None else (self.hand_count or 0)


@dataclass(frozen=True)
class Position:
    rules: Ruleset
    players: tuple[Player, ...]
    to_move: str
    phase: str = "play"
    hand_number: int | None = None
    first_out: str | None = None
    table: tuple[Play, ...] = ()
    discard_pile: tuple[Card, ...] = ()
    stock: int | tuple[Card, ...] | None = None
    turn: Turn | None = None

    # ------------------------------------------------------------ navigation
    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def mover(self) -> Player:
        return self.player(self.to_move)

    def side_of(self, name: str) -> str:
        return self.player(name).side

    def table_key(self) -> tuple:
        """The table up to the order of plays and of cards in a play, identical cards alike.

        Space by space (or ``table`` for a shared table): equal keys mean the
        same final arrangement, whatever the hands and the discard.
        """
        def plays_key(plays: tuple[Play, ...]) -> tuple:
            return tuple(sorted(tuple(sorted(c.plain() for c in play.cards)) for play in plays))

        if self.rules.table == "shared":
            return (("table", plays_key(self.table)),)
        return tuple((p.name, plays_key(p.plays)) for p in self.players)

    def named_plays(self) -> dict[str, Play]:
        """Every play on the table under the name plans use: ``ann/2``, ``table/3``."""
        if self.rules.table == "shared":
            return {f"table/{i}": play for i, play in enumerate(self.table, 1)}
        return {f"{p.name}/{i}": play for p in self.players for i, play in enumerate(p.plays, 1)}

    def play_with_layoffs(self, name: str) -> tuple[Card, ...]:
        """A play and every card laid off on it (personal tables)."""
        cards = list(self.named_plays()[name].cards)
        for p in self.players:
            for attached in p.layoffs:
                if attached.target == name:
                    cards.extend(attached.cards)
        return tuple(cards)

    def table_cards(self) -> list[Card]:
        cards = [c for play in self.named_plays().values() for c in play.cards]
        cards += [c for p in self.players for a in p.layoffs for c in a.cards]
        return cards

    def known_cards(self) -> list[Card]:
        cards = self.table_cards()
        for p in self.players:
            cards += list(p.hand or ())
        cards += list(self.discard_pile)
        if isinstance(self.stock, tuple):
            cards += list(self.stock)
        return cards

    def replace_player(self, player: Player) -> Position:
        return replace(self, players=tuple(player if p.name == player.name else p for p in self.players))

    # ------------------------------------------------------------- reading
    @classmethod
    def from_file(cls, path: str | Path, strict: bool = True) -> Position:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise PositionError(str(path), "no such file") from None
        except (OSError, UnicodeDecodeError) as error:
            raise PositionError(str(path), f"cannot read: {error}") from None
        if path.suffix.lower() == ".json":
            return cls.from_json(text, source=str(path), strict=strict)
        return cls.from_toml(text, source=str(path), strict=strict)

    @classmethod
    def from_toml(cls, text: str, source: str = "<toml>", strict: bool = True) -> Position:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise PositionError(source, f"not valid TOML: {error}") from None
        return cls.from_data(data, source, strict)

    @classmethod
    def from_json(cls, text: str, source: str = "<json>", strict: bool = True) -> Position:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise PositionError(source, f"not valid JSON: {error}") from None
        if not isinstance(data, dict):
            raise PositionError(source, "a position must be a JSON object")
        return cls.from_data(data, source, strict)

    @classmethod
    def from_data(cls, data: Mapping[str, Any], source: str = "<position>", strict: bool = True) -> Position:
        """Read position data. ``strict=False`` reads a proposed end state: plays
        that are not whole and impossible card counts are left for the checker
        to report, everything else is still refused."""
        return _Reader(source, strict).position(data)

    # ------------------------------------------------------------- writing
    def to_data(self) -> dict[str, Any]:
        deck = self.rules.deck
        data: dict[str, Any] = {"rules": ruleset_to_spec(self.rules)}
        if self.hand_number is not None:
            data["hand_number"] = self.hand_number
        data["to_move"] = self.to_move
        data["phase"] = self.phase
        if self.first_out is not None:
            data["first_out"] = self.first_out
        if self.rules.table == "shared":
            data["table"] = [play.notation(self.rules) for play in self.table]
        players: dict[str, Any] = {}
        for p in self.players:
            entry: dict[str, Any] = {"side": p.side, "melded": p.melded}
            if p.hand is not None:
                entry["hand"] = cards_notation(p.hand, deck)
            else:
                entry["hand_count"] = p.hand_count
            if p.hot:
                entry["hot"] = cards_notation(p.hot, deck)
            if p.warm:
                entry["warm"] = cards_notation(p.warm, deck)
            if self.rules.table in ("spaces", "personal"):
                entry["space"] = [play.notation(self.rules) for play in p.plays]
            elif self.rules.table == "owned_plays":
                entry["plays"] = [play.notation(self.rules) for play in p.plays]
            if p.layoffs:
                entry["layoffs"] = [a.notation(deck) for a in p.layoffs]
            players[p.name] = entry
        data["players"] = players
        piles: dict[str, Any] = {"discard": cards_notation(self.discard_pile, deck)}
        if isinstance(self.stock, tuple):
            piles["stock"] = cards_notation(self.stock, deck)
        elif self.stock is not None:
            piles["stock"] = self.stock
        data["piles"] = piles
        if self.turn is not None:
            turn: dict[str, Any] = {}
            if self.turn.meld is not None:
                turn["meld"] = [play.notation(self.rules) for play in self.turn.meld]
            if self.turn.replaced is not None:
                turn["replaced"] = [r.notation(deck) for r in self.turn.replaced]
            if self.turn.discard is not None:
                turn["discard"] = self.turn.discard.notation(deck)
            elif self.turn.discard_declared:
                turn["discard"] = ""
            data["turn"] = turn
        return data

    def to_toml(self) -> str:
        return tomli_w.dumps(self.to_data())

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_data(), indent=indent, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.write_text(self.to_json() if path.suffix.lower() == ".json" else self.to_toml(), encoding="utf-8")


# --------------------------------------------------------------------- reader
class _Reader:
    """Reads position data, keeping track of the place for error messages."""

    def __init__(self, source: str, strict: bool = True) -> None:
        self.source = source
        self.strict = strict

    def fail(self, place: str, problem: str) -> PositionError:
        return PositionError(f"{self.source}: {place}" if place else self.source, problem)

    def position(self, data: Mapping[str, Any]) -> Position:
        self.unknown_keys(data, TOP_KEYS, "")
        if "rules" not in data:
            raise self.fail("rules", "missing: name a preset, e.g. rules = \"house-classic\"")
        try:
            rules = ruleset_from_spec(data["rules"])
        except RulesError as error:
            raise self.fail("rules", str(error)) from None
        self.rules = rules
        phase = data.get("phase", "play")
        if phase not in PHASES:
            raise self.fail("phase", f"{phase!r} is not one of {', '.join(PHASES)}")
        hand_number = data.get("hand_number")
        if rules.family == "house":
            if hand_number is None:
                raise self.fail("hand_number", "missing: House Rummy needs the hand of the game (1-6)")
            if not isinstance(hand_number, int) or isinstance(hand_number, bool) or not 1 <= hand_number <= 6:
                raise self.fail("hand_number", f"{hand_number!r} is not a hand of the game (1-6)")
        elif hand_number is not None and (not isinstance(hand_number, int) or isinstance(hand_number, bool) or hand_number < 1):
            raise self.fail("hand_number", f"{hand_number!r} is not a positive whole number")

        players_data = data.get("players")
        if not isinstance(players_data, Mapping) or not players_data:
            raise self.fail("players", "missing: at least one [players.NAME] table")
        names = list(players_data)
        default_sides = self.default_sides(players_data)
        players = tuple(self.player(name, players_data[name], default_sides[name]) for name in names)
        if "table" in data:
            if rules.table != "shared":
                raise self.fail("table", f"only shared tables (tile rummy) use 'table'; {rules.name} lays plays under players.NAME.{'plays' if rules.table == 'owned_plays' else 'space'}")
            table = self.plays(data["table"], "table")
        else:
            table = ()

        to_move = data.get("to_move")
        if to_move is None:
            raise self.fail("to_move", "missing: name the player to move")
        if to_move not in players_data:
            raise self.fail("to_move", f"{to_move!r} is not a player (players: {', '.join(names)})")
        first_out = data.get("first_out")
        if first_out is not None and first_out not in players_data:
            raise self.fail("first_out", f"{first_out!r} is not a player")

        discard_pile, stock = self.piles(data.get("piles", {}))
        turn = self.turn(data["turn"]) if "turn" in data else None
        position = Position(
            rules=rules, players=players, to_move=to_move, phase=phase, hand_number=hand_number,
            first_out=first_out, table=table, discard_pile=discard_pile, stock=stock, turn=turn,
        )
        self.check_consistency(position)
        return position

    def default_sides(self, players_data: Mapping[str, Any]) -> dict[str, str]:
        names = list(players_data)
        explicit = any(isinstance(v, Mapping) and "side" in v for v in players_data.values())
        if self.rules.family == "house" and len(names) == 4 and not explicit:
            return {name: "A" if i % 2 == 0 else "B" for i, name in enumerate(names)}
        return {name: name for name in names}

    def unknown_keys(self, data: Mapping[str, Any], known: Iterable[str], place: str) -> None:
        for key in data:
            if key not in known:
                where = f"{place}.{key}" if place else key
                raise self.fail(where, f"unknown key {key!r} (known here: {', '.join(known)})")

    def cards(self, value: Any, place: str) -> tuple[Card, ...]:
        if isinstance(value, str):
            tokens = value.replace(",", " ").split()
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            tokens = value
        else:
            raise self.fail(place, f"expected cards as text like \"7H 8H *\", got {value!r}")
        cards = []
        for token in tokens:
            try:
                cards.append(Card.from_notation(token))
            except NotationError as error:
                raise self.fail(place, str(error)) from None
        return tuple(cards)

    def plays(self, value: Any, place: str) -> tuple[Play, ...]:
        if not isinstance(value, list):
            raise self.fail(place, f"expected a list of plays like [\"5S 6S 7S\"], got {value!r}")
        result = []
        for i, item in enumerate(value, 1):
            cards = self.cards(item, f"{place}[{i}]")
            if not cards:
                raise self.fail(f"{place}[{i}]", "an empty play")
            result.append(Play(cards))
        return tuple(result)

    def player(self, name: str, data: Any, default_side: str) -> Player:
        place = f"players.{name}"
        if not isinstance(data, Mapping):
            raise self.fail(place, "expected a table of the player's keys")
        self.unknown_keys(data, PLAYER_KEYS, place)
        side = data.get("side", default_side)
        if not isinstance(side, str) or not side:
            raise self.fail(f"{place}.side", f"expected a side name, got {side!r}")
        melded = data.get("melded", False)
        if not isinstance(melded, bool):
            raise self.fail(f"{place}.melded", f"expected true or false, got {melded!r}")
        if "hand" in data and "hand_count" in data:
            raise self.fail(place, "give either hand or hand_count, not both")
        hand = self.cards(data["hand"], f"{place}.hand") if "hand" in data else None
        hand_count = data.get("hand_count")
        if hand is None:
            if hand_count is None:
                raise self.fail(place, "missing: hand (the cards) or hand_count (how many)")
            if not isinstance(hand_count, int) or isinstance(hand_count, bool) or hand_count < 0:
                raise self.fail(f"{place}.hand_count", f"{hand_count!r} is not a card count")
        hot = self.cards(data.get("hot", ""), f"{place}.hot")
        warm = self.cards(data.get("warm", ""), f"{place}.warm")
        table_kind = self.rules.table
        plays: tuple[Play, ...] = ()
        if "space" in data:
            if table_kind not in ("spaces", "personal"):
                raise self.fail(f"{place}.space", f"{self.rules.name} has no player spaces ({self.where_plays()})")
            plays = self.plays(data["space"], f"{place}.space")
        if "plays" in data:
            if table_kind != "owned_plays":
                raise self.fail(f"{place}.plays", f"{self.rules.name} has no owned plays ({self.where_plays()})")
            plays = self.plays(data["plays"], f"{place}.plays")
        layoffs: tuple[Attached, ...] = ()
        if "layoffs" in data:
            if table_kind != "personal":
                raise self.fail(f"{place}.layoffs", f"{self.rules.name} has no lay-offs attached to other plays")
            layoffs = self.layoffs(data["layoffs"], f"{place}.layoffs")
        return Player(name, side, melded, hand, hand_count if hand is None else None, hot, warm, plays, layoffs)

    def where_plays(self) -> str:
        return {
            "shared": "its plays go in the top-level 'table'",
            "spaces": "plays go under players.NAME.space",
            "owned_plays": "plays go under players.NAME.plays",
            "personal": "plays go under players.NAME.space",
        }[self.rules.table]

    def layoffs(self, value: Any, place: str) -> tuple[Attached, ...]:
        if not isinstance(value, list):
            raise self.fail(place, "expected a list like [\"bob/1 QD\"]")
        result = []
        for i, item in enumerate(value, 1):
            if not isinstance(item, str) or len(item.split()) < 2:
                raise self.fail(f"{place}[{i}]", f"expected \"PLAY CARDS\" like \"bob/1 QD\", got {item!r}")
            target, rest = item.split(None, 1)
            result.append(Attached(target, self.cards(rest, f"{place}[{i}]")))
        return tuple(result)

    def piles(self, data: Any) -> tuple[tuple[Card, ...], int | tuple[Card, ...] | None]:
        if not isinstance(data, Mapping):
            raise self.fail("piles", "expected a table with discard and stock")
        self.unknown_keys(data, PILE_KEYS, "piles")
        discard = self.cards(data.get("discard", ""), "piles.discard")
        stock = data.get("stock")
        if stock is None:
            return discard, None
        if isinstance(stock, bool):
            raise self.fail("piles.stock", f"expected a number or the cards, got {stock!r}")
        if isinstance(stock, int):
            if stock < 0:
                raise self.fail("piles.stock", f"{stock} is not a card count")
            return discard, stock
        return discard, self.cards(stock, "piles.stock")

    def turn(self, data: Any) -> Turn:
        if not isinstance(data, Mapping):
            raise self.fail("turn", "expected a [turn] table")
        self.unknown_keys(data, TURN_KEYS, "turn")
        meld = self.plays(data["meld"], "turn.meld") if "meld" in data else None
        replaced = None
        if "replaced" in data:
            value = data["replaced"]
            if not isinstance(value, list):
                raise self.fail("turn.replaced", "expected a list like [\"bob/1 7H\"]")
            items = []
            for i, item in enumerate(value, 1):
                place = f"turn.replaced[{i}]"
                if not isinstance(item, str) or len(item.split()) != 2:
                    raise self.fail(place, f"expected \"PLAY CARD\" like \"bob/1 7H\", got {item!r}")
                play, card_text = item.split()
                (card,) = self.cards(card_text, place)
                if card.is_joker:
                    raise self.fail(place, "a joker is replaced by a natural card, not a joker")
                items.append(Replacement(play, card))
            replaced = tuple(items)
        discard = None
        declared = "discard" in data
        if declared:
            cards = self.cards(data["discard"], "turn.discard")
            if len(cards) > 1:
                raise self.fail("turn.discard", f"one card is discarded, got {data['discard']!r}")
            discard = cards[0] if cards else None
        return Turn(meld, replaced, discard, declared)

    # ------------------------------------------------------------ consistency
    def check_consistency(self, position: Position) -> None:
        rules = position.rules
        if self.strict:
            self.check_plays_whole(position)
            self.check_counts(position)
        for p in position.players:
            place = f"players.{p.name}"
            if (p.hot or p.warm) and p.hand is None:
                raise self.fail(place, "hot and warm cards need a known hand")
            missing = Counter(c.plain() for c in p.hot + p.warm) - Counter(c.plain() for c in p.hand or ())
            if missing:
                card = next(iter(missing))
                key = "hot" if card in p.hot else "warm"
                raise self.fail(f"{place}.{key}", f"{card.notation(rules.deck)} is not in the hand")
        if position.mover.hand is None:
            raise self.fail(f"players.{position.to_move}", "the mover's hand must be known: give hand, not hand_count")
        if rules.family != "tile" and len(position.players) < 2:
            raise self.fail("players", f"{rules.name} needs at least 2 players")
        if rules.family == "house" and len(position.players) > 4:
            raise self.fail("players", "House Rummy is for 2 to 4 players")
        for p in position.players:
            for attached in p.layoffs:
                if attached.target not in position.named_plays():
                    raise self.fail(f"players.{p.name}.layoffs", f"{attached.target!r} names no play")
        if position.turn and position.turn.replaced:
            for i, r in enumerate(position.turn.replaced, 1):
                if "/" not in r.play:
                    raise self.fail(f"turn.replaced[{i}]", f"{r.play!r} is not a play name like bob/1")

    def check_plays_whole(self, position: Position) -> None:
        rules = position.rules
        for name, play in position.named_plays().items():
            place = self.play_place(position, name)
            cards = position.play_with_layoffs(name)
            found = readings(cards, rules)
            if not found:
                raise self.fail(place, f"{cards_notation(cards, rules.deck)!r} is not a whole play under {rules.name}")
            if len(cards) != len(play.cards) and not readings(play.cards, rules):
                raise self.fail(place, f"{play.notation(deck=rules.deck)!r} is not a whole play without its lay-offs")
            if rules.joker_mode == "fixed" and _ambiguous_joker(found):
                raise self.fail(
                    place,
                    f"the joker in {cards_notation(cards, rules.deck)!r} could stand for more than one card; "
                    f"say which, e.g. *={found[0].joker_stand_ins()[0].notation(rules.deck)}",
                )

    def play_place(self, position: Position, name: str) -> str:
        owner, index = name.split("/")
        if owner == "table":
            return f"table[{index}]"
        key = "plays" if position.rules.table == "owned_plays" else "space"
        return f"players.{owner}.{key}[{index}]"

    def check_counts(self, position: Position) -> None:
        rules = position.rules
        counts = Counter(c.plain() for c in position.known_cards())
        for card, n in sorted(counts.items()):
            allowed = rules.jokers if card.is_joker else rules.copies
            if n > allowed:
                what = "jokers" if card.is_joker else f"copies of {card.notation(rules.deck)}"
                raise self.fail(
                    self.first_place_of(position, card),
                    f"{n} {what} in the position, but the {rules.name} deck holds {allowed}",
                )
        total = sum(counts.values()) + sum(p.hand_count or 0 for p in position.players)
        if isinstance(position.stock, int):
            total += position.stock
        if total > len(rules.deck_cards):
            raise self.fail("", f"{total} cards in the position, but the {rules.name} deck holds {len(rules.deck_cards)}")

    def first_place_of(self, position: Position, card: Card) -> str:
        for name, play in position.named_plays().items():
            if card in play.cards:
                return self.play_place(position, name)
        for p in position.players:
            if any(card in attached.cards for attached in p.layoffs):
                return f"players.{p.name}.layoffs"
        for p in position.players:
            if card in (p.hand or ()):
                return f"players.{p.name}.hand"
        if card in position.discard_pile:
            return "piles.discard"
        return "piles.stock"


def _ambiguous_joker(found: tuple) -> bool:
    """A fixed joker whose card the play does not settle (rules.md §6)."""
    runs = [r for r in found if r.kind == "run"]
    if not runs:
        return False
    if len(runs) < len(found):
        return True
    return len({r.joker_stand_ins() for r in runs}) > 1


def iter_positions(paths: Iterable[str | Path]) -> Iterator[tuple[Path, Position]]:
    """Positions from files and folders (a folder: its .toml and .json files, sorted)."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in sorted(list(path.glob("*.toml")) + list(path.glob("*.json"))):
                yield child, Position.from_file(child)
        else:
            yield path, Position.from_file(path)
