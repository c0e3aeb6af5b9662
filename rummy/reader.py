"""Reading position files: bounded, validating, every refusal naming its place.

``Position.from_file`` and its siblings come here. Reading raises
``PositionError`` naming the place (``file: players.ann.space[2]``) and
quoting the bad input, shortened.

Reading is bounded (formats.md "Limits"): a file of at most ``MAX_FILE_BYTES``
(a regular file, a pipe, or stdin as ``-``; never a device: rummy.inputs reads
files and lists folders), parsed by rummy.parsing (nested at most ``MAX_DEPTH``
levels), then validated here: at most ``MAX_PLAYERS`` players and ``MAX_CARDS``
cards, and reading time grows linearly with the file. What no single key shows
(plays whole, card counts, a known mover) is checked on the position read, by
rummy.reader_checks. What ``check`` reads as the position after a turn (an
answer's ``after`` or draw) is rummy.end_states.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from .cards import LARGEST_DECK, Card, notation_of, read_token
from .errors import NotationError, PositionError, PositionErrors, RulesError, RummyError, quote

# Reading files is rummy.inputs'; its names are given here too, where they always were.
from .inputs import MAX_FILE_BYTES as MAX_FILE_BYTES
from .inputs import PUZZLE_INDEX as PUZZLE_INDEX
from .inputs import SOLUTION_SUFFIX as SOLUTION_SUFFIX
from .inputs import STDIN as STDIN
from .inputs import is_position_name as is_position_name
from .inputs import iter_position_files as iter_position_files
from .inputs import position_files as position_files
from .inputs import read_text as read_text
from .inputs import source_name as source_name
from .inputs import text_kind as text_kind
from .parsing import check_tree, child_place
from .plays import Play
from .position import Attached, DrawTaken, Player, Position, PuzzleStatement, ReadingNotes, Replacement, Turn

# The checks of the position read are rummy.reader_checks'; the hidden mover's refusal is given here too.
from .reader_checks import ReadChecks
from .reader_checks import hidden_mover_error as hidden_mover_error
from .reader_checks import known_mover_hand as known_mover_hand
from .rules import Ruleset, ruleset_from_spec
from .table_bag import arranged_table, bag_problem
from .themes.registry import THEMES
from .vocabulary import DrawSource, FirstOutBonus, Phase, Tier

# ----------------------------------------------------------------- limits
# Far beyond any real position, small enough that a hostile file is refused
# at once (docs/formats.md "Limits"; docs/position.schema.json agrees).
MAX_PLAYERS = 8
MAX_CARDS = 256  # cards written in one position, all places together (the largest deck: 106)
TOO_MANY_CARDS = f"more than {MAX_CARDS} cards in the position; no deck holds more than {LARGEST_DECK}"
MAX_NAME_LENGTH = 32  # player and side names
MAX_HAND_NUMBER = 100  # House: 1-6
RESERVED_NAMES = ("table", "new")  # plans name plays table/K and new/K
# A play's name in lay-offs and replacements: OWNER/INDEX.
# (% formatting: in an f-string every brace of the regular expression would be doubled.)
PLAY_NAME = r"[^\s/]{1,%d}/[1-9][0-9]{0,2}" % MAX_NAME_LENGTH  # noqa: UP031
_LAYOFF_RE = re.compile(r"\s*(%s)\s+([^\s,].*)" % PLAY_NAME, re.DOTALL)  # noqa: UP031
_CARD_TOKEN_RE = re.compile(r"[^\s,]+")  # the same split as str.split() after commas become spaces
_REPLACED_RE = re.compile(r"\s*(%s)\s+(\S+)\s*" % PLAY_NAME)  # noqa: UP031

PHASES = tuple(Phase)
TOP_KEYS = ("rules", "hand_number", "to_move", "phase", "first_out", "reentered", "last_turns", "first_out_points",
            "table", "players", "piles", "turn", "puzzle", "code")
PLAYER_KEYS = ("side", "melded", "hand", "hand_count", "hot", "warm", "space", "plays", "layoffs")
PILE_KEYS = ("discard", "stock", "upcard")
TURN_KEYS = ("meld", "replaced", "discard", "draw")
DRAW_KEYS = ("from", "take", "card", "player")
PUZZLE_KEYS = ("kind", "tier", "task", "target", "rules_note", "themes")
MAX_PUZZLE_THEMES = 8  # names in [puzzle] themes
MAX_PUZZLE_TEXT = 500  # characters of [puzzle] task and rules_note
MAX_PUZZLE_KIND = 32
MAX_TARGET = 1_000_000  # a gain no turn reaches


def name_problem(name: Any, what: str = "player name") -> str | None:
    """Why ``name`` cannot name a player (None when it can)."""
    if not isinstance(name, str):
        return f"expected a {what}, got {quote(name)}"
    if not 1 <= len(name) <= MAX_NAME_LENGTH:
        return f"a {what} has 1 to {MAX_NAME_LENGTH} characters, got {quote(name)}"
    if "/" in name or not name.isprintable() or any(c.isspace() for c in name):
        return f"{quote(name)} cannot be a {what}: no spaces, '/' or control characters"
    if name in RESERVED_NAMES:
        return f"{quote(name)} cannot be a {what}: plays are named {name}/1, {name}/2, ... in plans"
    return None


def side_problem(side: Any) -> str | None:
    if not isinstance(side, str) or not side:
        return f"expected a side name, got {quote(side)}"
    if len(side) > MAX_NAME_LENGTH:
        return f"a side name has at most {MAX_NAME_LENGTH} characters, got {quote(side)}"
    if not side.isprintable():
        return f"{quote(side)} cannot be a side name: no control characters"
    return None


def _count(value: Any, limit: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= limit


# --------------------------------------------------------------------- reader
def read_position(data: Any, source: str = "<position>", strict: bool = True,
                  mover_may_be_hidden: bool = False) -> Position:
    """Read position data. ``strict=False`` reads a proposed end state: plays
    that are not whole and impossible card counts are left for the checker
    to report, everything else is still refused. ``mover_may_be_hidden``: a
    mover given by ``hand_count`` is read (a turn entered for an opponent:
    play, check, show, games); else it is refused (``hidden_mover_error``)."""
    if not isinstance(data, Mapping):
        raise PositionError(source, f"a position must be a table of keys, got {quote(data)}")
    check_tree(data, source)
    reader = Reader(source, strict, mover_may_be_hidden)
    try:
        return reader.position(data)
    except PositionError as error:
        # Unknown cards met before this error are independent of it: every one is reported.
        if reader.card_errors and not isinstance(error, PositionErrors):
            raise reader.all_errors(error) from None
        raise


def read_puzzle_statement(data: Any, source: str = "<puzzle>") -> PuzzleStatement:
    """A ``[puzzle]`` table alone, read as a position's is (``PuzzleStatement.from_data``)."""
    if isinstance(data, Mapping):
        check_tree(data, source)
    return Reader(source).puzzle(data)


# Unknown cards reported from one file, at most (one line each); the rest are counted.
MAX_CARD_ERRORS = 20
# Written after an unknown card: the notation of the deck the rules name.
CARD_HINTS = {
    "tiles": "colours K B R O (Y for O), e.g. R7 or K13; * a joker",
    "cards": "suits S H D C, e.g. 7H, 10S or QC; * a joker",
}
# A placeholder for an unknown card, so that reading goes on to find the other problems;
# the file is refused before any check could see it.
_UNREAD = Card(1, "S")


def first_words(text: str, limit: int) -> list[str]:
    """The words of text, separated by spaces or commas, at most ``limit`` + 1 of them: a huge text
    is refused after the first few, never split whole."""
    words = []
    for match in _CARD_TOKEN_RE.finditer(text):
        words.append(match.group())
        if len(words) > limit:
            break
    return words


class Reader(ReadChecks):
    """Reads position data, keeping track of the place for error messages (``ReadChecks.fail``)."""

    def __init__(self, source: str, strict: bool = True, mover_may_be_hidden: bool = False) -> None:
        super().__init__(source, strict, mover_may_be_hidden)
        self.cards_read = 0
        self.card_errors: list[PositionError] = []
        # For the warnings (ReadingNotes): players without 'melded', tokens in the other deck's notation.
        self.melded_unstated: list[str] = []
        self.other_notation: dict[str, tuple[str, tuple[Card, ...]]] = {}

    def note_notation(self, place: str, token: str, notation: str | None, cards: tuple[Card, ...]) -> None:
        """The first token of a place written in the other deck's notation (``7H`` in a tile game)."""
        rules = getattr(self, "rules", None)  # cards are read after the rules
        if notation is not None and rules is not None and notation != rules.deck and place not in self.other_notation:
            self.other_notation[place] = (token, cards)

    def notes(self) -> ReadingNotes:
        return ReadingNotes(self.source, tuple(self.melded_unstated),
                            tuple((place, token, cards) for place, (token, cards) in self.other_notation.items()))

    def card_error(self, place: str, error: NotationError) -> None:
        """An unknown card: noted with the deck's notation, reading goes on (every one is reported)."""
        message = str(error)
        rules = getattr(self, "rules", None)  # cards are read after the rules
        if message.startswith("unknown card") and ":" not in message and rules is not None:
            message = f"{message} ({CARD_HINTS[rules.deck]})"
        error_place, _ = self.where(place, message)
        if not any(seen.place == error_place and seen.problem == message for seen in self.card_errors):
            self.card_errors.append(self.fail(place, message))  # the same card twice in one place: once

    def all_errors(self, last: PositionError | None = None) -> PositionError:
        """The unknown cards found (and the error that stopped reading, if any): one error, or several."""
        found, self.card_errors = self.card_errors, []  # reported once
        errors = found[:MAX_CARD_ERRORS]
        more = len(found) - len(errors)
        if more:
            errors.append(self.fail("", f"and {more} more unknown card{'s' if more > 1 else ''}"))
        if last is not None:
            errors.append(last)
        return errors[0] if len(errors) == 1 else PositionErrors(errors)

    def position(self, data: Mapping[str, Any]) -> Position:
        self.unknown_keys(data, TOP_KEYS, "")
        if "code" in data and not isinstance(data["code"], str):
            # show --json writes the position's code beside its data; derived from the rest, it is not read.
            raise self.fail("code", f"expected the position's code as text, got {quote(data['code'])}")
        if "rules" not in data:
            raise self.fail("rules", "missing: name a preset, e.g. rules = \"house-classic\"")
        try:
            rules = ruleset_from_spec(data["rules"])
        except RulesError as error:
            raise self.fail("rules", str(error)) from None
        self.rules = rules
        phase = data.get("phase", Phase.PLAY)
        if not isinstance(phase, str) or phase not in PHASES:
            raise self.fail("phase", f"{quote(phase)} is not one of {', '.join(PHASES)}")
        hand_number = data.get("hand_number")
        hands = rules.family.hands_in_game
        if hands is not None:
            if hand_number is None:
                raise self.fail("hand_number",
                                f"missing: {rules.family.long_name} needs the hand of the game (1-{hands})")
            if not _count(hand_number, hands) or hand_number < 1:
                raise self.fail("hand_number", f"{quote(hand_number)} is not a hand of the game (1-{hands})")
        elif hand_number is not None and (not _count(hand_number, MAX_HAND_NUMBER) or hand_number < 1):
            raise self.fail("hand_number", f"{quote(hand_number)} is not a hand number (1 to {MAX_HAND_NUMBER})")

        players_data = data.get("players")
        if not isinstance(players_data, Mapping) or not players_data:
            raise self.fail("players", "missing: at least one [players.NAME] table")
        if len(players_data) > MAX_PLAYERS:
            raise self.fail("players", f"{len(players_data)} players; a position has at most {MAX_PLAYERS}")
        names = list(players_data)
        for name in names:
            problem = name_problem(name)
            if problem:
                raise self.fail("players", problem)
        default_sides = self.default_sides(players_data)
        players = tuple(self.player(name, players_data[name], default_sides[name]) for name in names)
        table: tuple[Play, ...] = ()
        bag: tuple[Card, ...] | None = None
        if "table" in data:
            if not rules.family.shared_table:
                raise self.fail("table", f"only shared tables (tile rummy) use 'table'; "
                                         f"{rules.name} lays plays under players.NAME.{rules.family.plays_key}")
            if isinstance(data["table"], str):  # a bag: tiles without their plays, arranged below
                bag = self.cards(data["table"], "table")
            else:
                table = self.plays(data["table"], "table")

        to_move = data.get("to_move")
        if to_move is None:
            raise self.fail("to_move", "missing: name the player to move")
        if not isinstance(to_move, str) or to_move not in players_data:
            raise self.fail("to_move", f"{quote(to_move)} is not a player (players: {', '.join(names)})")
        first_out = data.get("first_out")
        if first_out is not None and (not isinstance(first_out, str) or first_out not in players_data):
            raise self.fail("first_out", f"{quote(first_out)} is not a player")
        reentered = data.get("reentered", False)
        if not isinstance(reentered, bool):
            raise self.fail("reentered", f"{quote(reentered)} is not true or false")
        if reentered and (first_out is None or rules.first_out_bonus != FirstOutBonus.HANDS):
            raise self.fail("reentered", "only House Epic's first out re-enters: give first_out, in house-epic")
        last_turns = self.last_turns(data.get("last_turns"), names, rules)
        points = data.get("first_out_points")
        if points is not None and (isinstance(points, bool) or not isinstance(points, int)
                                   or not 0 <= points <= MAX_TARGET):
            raise self.fail("first_out_points", f"{quote(points)} is not a number of points (0 to {MAX_TARGET:,})")
        if points is not None and (first_out is None or rules.first_out_bonus != FirstOutBonus.HANDS):
            raise self.fail("first_out_points", "only House Epic's first out has these points: give first_out, "
                            "in house-epic")

        discard_pile, stock = self.piles(data.get("piles", {}))
        upcard = self.upcard(data.get("piles", {}), rules)
        turn = self.turn(data["turn"]) if "turn" in data else None
        puzzle = self.puzzle(data["puzzle"]) if "puzzle" in data else None
        position = Position(
            rules=rules, players=players, to_move=to_move, phase=Phase(phase), hand_number=hand_number,
            first_out=first_out, reentered=reentered, last_turns=last_turns, first_out_points=points, table=table,
            discard_pile=discard_pile,
            stock=stock, turn=turn, upcard=upcard, puzzle=puzzle, reading=self.notes(),
        )
        if self.card_errors:  # before the checks, which would see the placeholders
            raise self.all_errors()
        if bag is not None:
            position = self.arranged(position, bag)
        self.check_consistency(position)
        return position

    def arranged(self, position: Position, bag: tuple[Card, ...]) -> Position:
        """The table given as a bag, laid out by rummy.table_bag (strictly read: within the deck's counts)."""
        rules = position.rules
        if (problem := bag_problem(bag, rules)) is not None:
            raise self.fail("table", problem)
        if self.strict and bag:
            self.check_counts(replace(position, table=(Play(bag),), table_bag=len(bag)))
        try:
            plays = arranged_table(bag, rules)
        except RummyError as error:
            raise self.fail("table", str(error)) from None
        return replace(position, table=plays, table_bag=len(bag))

    def last_turns(self, value: Any, names: list[str], rules: Ruleset) -> tuple[str, ...] | None:
        """House's last round (``last_turns = ["bob", "cat"]``): players, each once, who have one more turn."""
        if value is None:
            return None
        if rules.family.name != "house":
            raise self.fail("last_turns", f"only House Rummy has a last round after full out, not {rules.name}")
        if not isinstance(value, list) or not all(isinstance(v, str) and v in names for v in value):
            raise self.fail("last_turns", f"{quote(value)} is not a list of players (players: {', '.join(names)})")
        if len(set(value)) != len(value):
            raise self.fail("last_turns", f"{quote(value)} names a player twice")
        return tuple(value)

    def default_sides(self, players_data: Mapping[str, Any]) -> dict[str, str]:
        names = list(players_data)
        explicit = any(isinstance(v, Mapping) and "side" in v for v in players_data.values())
        if self.rules.family.four_players_in_pairs and len(names) == 4 and not explicit:
            return {name: "A" if i % 2 == 0 else "B" for i, name in enumerate(names)}
        return {name: name for name in names}

    def unknown_keys(self, data: Mapping[str, Any], known: Iterable[str], place: str) -> None:
        """Every key known here, and none of them null (JSON's null is no value: leave the key out)."""
        for key, value in data.items():
            if key not in known:
                if key == "game" and not place and "hands" in data:  # the file a 'rummy game' command keeps
                    raise self.fail("", "a game record, not a position: 'rummy game show GAME --turn N' shows its "
                                    "positions, 'rummy game add GAME TURN' plays on")
                raise self.fail(child_place(place, key), f"unknown key {quote(key)} (known here: {', '.join(known)})")
            if value is None:
                raise self.fail(child_place(place, key), "null is not a value here; leave the key out")

    def cards(self, value: Any, place: str) -> tuple[Card, ...]:
        budget = MAX_CARDS - self.cards_read
        if isinstance(value, str):
            # At most budget + 1 are taken: a 50 MB hand is refused after 257 cards, not split whole.
            tokens = first_words(value, budget)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            tokens = value
        else:
            raise self.fail(place, f"expected cards as text like \"7H 8H *\", got {quote(value)}")
        cards: list[Card] = []
        for token in tokens:
            try:
                written = read_token(token)  # a shorthand stands for several cards, at most a deck's
            except NotationError as error:
                self.card_error(place, error)
                cards.append(_UNREAD)
            else:
                self.note_notation(place, token, written.notation, written.cards)
                cards.extend(written.cards)
            if len(cards) > budget:
                raise self.fail(place, TOO_MANY_CARDS)
        self.cards_read += len(cards)
        return tuple(cards)

    def entries(self, value: Any, place: str, expected: str, what: str) -> list[Any]:
        """A list of ``what`` (plays, lay-offs, replacements): each holds a card, so a position has at
        most MAX_CARDS."""
        if not isinstance(value, list):
            raise self.fail(place, f"expected {expected}, got {quote(value)}")
        if len(value) > MAX_CARDS:
            raise self.fail(place, f"{len(value)} {what}; a position holds at most {MAX_CARDS} cards")
        return value

    def plays(self, value: Any, place: str) -> tuple[Play, ...]:
        value = self.entries(value, place, "a list of plays like [\"5S 6S 7S\"]", "plays")
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
            raise self.fail(place, f"expected a table of the player's keys, got {quote(data)}")
        self.unknown_keys(data, PLAYER_KEYS, place)
        side = data.get("side", default_side)
        problem = side_problem(side)
        if problem:
            raise self.fail(f"{place}.side", problem)
        melded = data.get("melded", False)
        if "melded" not in data:
            self.melded_unstated.append(name)
        if not isinstance(melded, bool):
            raise self.fail(f"{place}.melded", f"expected true or false, got {quote(melded)}")
        if "hand" in data and "hand_count" in data:
            raise self.fail(place, "give either hand or hand_count, not both")
        hand = self.cards(data["hand"], f"{place}.hand") if "hand" in data else None
        hand_count = data.get("hand_count")
        if hand is None:
            if hand_count is None:
                raise self.fail(place, "missing: hand (the cards) or hand_count (how many)")
            if not _count(hand_count, MAX_CARDS):
                raise self.fail(f"{place}.hand_count", f"{quote(hand_count)} is not a card count (0 to {MAX_CARDS})")
        hot = self.cards(data.get("hot", ""), f"{place}.hot")
        warm = self.cards(data.get("warm", ""), f"{place}.warm")
        family = self.rules.family
        plays: tuple[Play, ...] = ()
        for key, kind in (("space", "player spaces"), ("plays", "owned plays")):
            if key in data:
                if family.shared_table or key != family.plays_key:
                    raise self.fail(f"{place}.{key}", f"{self.rules.name} has no {kind} ({self.where_plays()})")
                plays = self.plays(data[key], f"{place}.{key}")
        layoffs: tuple[Attached, ...] = ()
        if "layoffs" in data:
            if not family.layoffs_attached:
                raise self.fail(f"{place}.layoffs", f"{self.rules.name} has no lay-offs attached to other plays")
            layoffs = self.layoffs(data["layoffs"], f"{place}.layoffs")
        return Player(name, side, melded, hand, hand_count if hand is None else None, hot, warm, plays, layoffs)

    def where_plays(self) -> str:
        if self.rules.family.shared_table:
            return "its plays go in the top-level 'table'"
        return f"plays go under players.NAME.{self.rules.family.plays_key}"

    def layoffs(self, value: Any, place: str) -> tuple[Attached, ...]:
        value = self.entries(value, place, "a list like [\"bob/1 QD\"]", "lay-offs")
        result = []
        for i, item in enumerate(value, 1):
            match = _LAYOFF_RE.fullmatch(item) if isinstance(item, str) else None
            if match is None:
                raise self.fail(f"{place}[{i}]", f"expected \"PLAY CARDS\" like \"bob/1 QD\", got {quote(item)}")
            target, rest = match.groups()
            result.append(Attached(target, self.cards(rest, f"{place}[{i}]")))
        return tuple(result)

    def piles(self, data: Any) -> tuple[tuple[Card, ...], int | tuple[Card, ...] | None]:
        if not isinstance(data, Mapping):
            raise self.fail("piles", f"expected a table with discard and stock, got {quote(data)}")
        self.unknown_keys(data, PILE_KEYS, "piles")
        discard = self.cards(data.get("discard", ""), "piles.discard")
        stock = data.get("stock")
        if stock is None:
            return discard, None
        if isinstance(stock, int) and not isinstance(stock, bool):
            if not _count(stock, MAX_CARDS):
                raise self.fail("piles.stock", f"{quote(stock)} is not a card count (0 to {MAX_CARDS})")
            return discard, stock
        if not isinstance(stock, (str, list)):
            raise self.fail("piles.stock", f"expected a number or the cards, got {quote(stock)}")
        return discard, self.cards(stock, "piles.stock")

    def upcard(self, data: Mapping[str, Any], rules: Ruleset) -> Card | None:
        """House's face-up stock card (``piles.upcard``), while the stock is not opened."""
        value = data.get("upcard")
        if value is None:
            return None
        if not rules.family.stock_upcard:
            raise self.fail("piles.upcard", f"{rules.name} has no face-up stock card (only House Rummy does)")
        if not isinstance(value, str) or len(value.replace(",", " ").split()) != 1:
            raise self.fail("piles.upcard", f"expected one card, got {quote(value)}")
        return self.card(value, "piles.upcard")

    def draw_taken(self, data: Any, place: str = "turn.draw", answer: bool = False) -> DrawTaken:
        """``[turn] draw``: the draw that began a turn judged from the draw phase. With ``answer``,
        formats.md's ``draw`` of a ``best --json`` answer (its other keys, ``cards``, ``top``,
        ``probability``, ..., are what the answer adds, not read)."""
        if not isinstance(data, Mapping):
            raise self.fail(place, f"expected a table like {{from = \"discard\", take = 2}}, got {quote(data)}")
        if not answer:
            self.unknown_keys(data, DRAW_KEYS, place)
        source = data.get("from")
        if not isinstance(source, str) or source not in set(DrawSource):
            raise self.fail(f"{place}.from", f"{quote(source)} is not one of {', '.join(DrawSource)}")
        take = data.get("take")
        if take is not None and (not _count(take, MAX_CARDS) or take < 1):
            raise self.fail(f"{place}.take", f"{quote(take)} is not a number of cards (1 or more)")
        card = data.get("card")
        if card is not None and not isinstance(card, str):
            raise self.fail(f"{place}.card", f"expected one card, got {quote(card)}")
        player = data.get("player")
        if player is not None and not isinstance(player, str):
            raise self.fail(f"{place}.player", f"expected a player's name, got {quote(player)}")
        return DrawTaken(DrawSource(source), take, self.card(card, f"{place}.card") if card is not None else None,
                         player)

    def turn(self, data: Any) -> Turn:
        if not isinstance(data, Mapping):
            raise self.fail("turn", f"expected a [turn] table, got {quote(data)}")
        self.unknown_keys(data, TURN_KEYS, "turn")
        meld = self.plays(data["meld"], "turn.meld") if "meld" in data else None
        replaced = None
        if "replaced" in data:
            value = self.entries(data["replaced"], "turn.replaced", "a list like [\"bob/1 7H\"]", "replacements")
            items = []
            for i, item in enumerate(value, 1):
                place = f"turn.replaced[{i}]"
                match = _REPLACED_RE.fullmatch(item) if isinstance(item, str) else None
                if match is None:
                    raise self.fail(place, f"expected \"PLAY CARD\" like \"bob/1 7H\", got {quote(item)}")
                play, card = match.group(1), self.card(match.group(2), place)
                if card.is_joker:
                    raise self.fail(place, "a joker is replaced by a natural card, not a joker")
                items.append(Replacement(play, card))
            replaced = tuple(items)
        discard = None
        declared = "discard" in data
        if declared:
            value = data["discard"]
            if not isinstance(value, str):
                raise self.fail("turn.discard", f"expected one card, or \"\" for none, got {quote(value)}")
            if value.strip():
                if len(value.replace(",", " ").split()) > 1:
                    raise self.fail("turn.discard", f"one card is discarded, got {quote(value)}")
                discard = self.card(value, "turn.discard")
        draw = self.draw_taken(data["draw"]) if "draw" in data else None
        return Turn(meld, replaced, discard, declared, draw)

    def puzzle(self, data: Any) -> PuzzleStatement:
        """``[puzzle]``: the puzzle's statement (kind, tier, task, target, rules_note)."""
        if not isinstance(data, Mapping):
            raise self.fail("puzzle", f"expected a [puzzle] table with kind, tier, task and target, got {quote(data)}")
        self.unknown_keys(data, PUZZLE_KEYS, "puzzle")
        for key in ("kind", "tier", "task", "target"):
            if key not in data:
                raise self.fail(f"puzzle.{key}", "missing: a [puzzle] table gives kind, tier, task and target")
        kind = data["kind"]
        if not isinstance(kind, str) or not 1 <= len(kind) <= MAX_PUZZLE_KIND or not kind.isprintable():
            raise self.fail("puzzle.kind", f"expected a puzzle kind like \"steal\" "
                                           f"(1 to {MAX_PUZZLE_KIND} characters), got {quote(kind)}")
        tier = data["tier"]
        if not isinstance(tier, str) or tier not in set(Tier):
            raise self.fail("puzzle.tier", f"{quote(tier)} is not one of {', '.join(Tier)}")
        texts: dict[str, str] = {}
        for key in ("task", "rules_note"):
            if key not in data:
                continue
            value = data[key]
            if not isinstance(value, str) or not value.strip():
                raise self.fail(f"puzzle.{key}", f"expected text, got {quote(value)}")
            if len(value) > MAX_PUZZLE_TEXT:
                raise self.fail(f"puzzle.{key}", f"{len(value)} characters; at most {MAX_PUZZLE_TEXT}")
            if not all(c.isprintable() or c == "\n" for c in value):
                raise self.fail(f"puzzle.{key}", f"{quote(value)} holds control characters")
            texts[key] = value
        target = data["target"]
        if isinstance(target, bool) or not isinstance(target, (int, float)) or not -MAX_TARGET <= target <= MAX_TARGET:
            # NaN fails the comparison too
            raise self.fail("puzzle.target", f"expected the best turn's gain, a number "
                                             f"(at most {MAX_TARGET:,} either way), got {quote(target)}")
        themes = self.puzzle_themes(data["themes"]) if "themes" in data else ()
        return PuzzleStatement(kind, tier, texts["task"], target, texts.get("rules_note"), themes)

    def puzzle_themes(self, value: Any) -> tuple[str, ...]:
        """``[puzzle] themes``: 1 to 8 names of known themes (rummy.themes.THEMES), none twice."""
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_PUZZLE_THEMES:
            raise self.fail("puzzle.themes", f"expected a list of 1 to {MAX_PUZZLE_THEMES} theme names, "
                                             f"got {quote(value)}")
        for index, name in enumerate(value):
            place = f"puzzle.themes[{index}]"
            if not isinstance(name, str):
                raise self.fail(place, f"expected a theme name, got {quote(name)}")
            if name not in THEMES:
                raise self.fail(place, f"unknown theme {quote(name)} (known: {', '.join(THEMES)})")
            if name in value[:index]:
                raise self.fail(place, f"theme {quote(name)} given twice")
        return tuple(value)

    def card(self, text: str, place: str) -> Card:
        """One card, written alone (no list, no commas)."""
        self.cards_read += 1
        if self.cards_read > MAX_CARDS:
            raise self.fail(place, TOO_MANY_CARDS)
        try:
            card = Card.from_notation(text)
        except NotationError as error:
            self.card_error(place, error)
            return _UNREAD
        self.note_notation(place, text.strip(), notation_of(text.strip()), (card,))
        return card


def iter_positions(paths: Iterable[str | Path]) -> Iterator[tuple[Path, Position]]:
    """Positions from files and folders (``position_files``)."""
    for path in position_files(paths):
        yield path, Position.from_file(path)
