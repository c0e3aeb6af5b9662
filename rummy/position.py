"""Positions: the state of a game at the mover's play (or draw) phase.

A ``Position`` reads and writes its own file format (formats.md, TOML or
JSON): ``Position.from_file``, ``to_toml``, ``to_json``, ``save``. The
reading itself, bounded and validating, lives in ``rummy.reader``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tomli_w

from .cards import Card, Deck, cards_notation
from .errors import PositionError, quote
from .plays import Play, PlayName
from .rules import Ruleset, ruleset_to_spec
from .vocabulary import DrawSource, Phase

# A final table up to order (``Position.table_key``): per space (or "table"), its plays as sorted plain cards.
TableKey = tuple[tuple[str, tuple[tuple[Card, ...], ...]], ...]


@dataclass(frozen=True)
class Attached:
    """Cards a player laid off on a play in someone else's space (personal tables)."""

    target: str
    cards: tuple[Card, ...]

    def notation(self, deck: Deck = "cards") -> str:
        return f"{self.target} {cards_notation(self.cards, deck)}"


@dataclass(frozen=True)
class DrawTaken:
    """The draw that began a turn judged from the draw phase (``[turn] draw``): where from,
    and for the discard pile how many cards, for a demand which card from whom."""

    source: DrawSource
    take: int | None = None
    card: Card | None = None
    player: str | None = None

    def to_data(self, deck: Deck = "cards") -> dict[str, Any]:
        data: dict[str, Any] = {"from": str(self.source)}
        if self.take is not None:
            data["take"] = self.take
        if self.card is not None:
            data["card"] = self.card.notation(deck)
        if self.player is not None:
            data["player"] = self.player
        return data


@dataclass(frozen=True)
class Replacement:
    """A joker replaced before melding: the play (named as before the turn) and the card put in."""

    play: str
    card: Card

    def notation(self, deck: Deck = "cards") -> str:
        return f"{self.play} {self.card.notation(deck)}"


@dataclass(frozen=True)
class Turn:
    """What the end state cannot show. ``None`` means not declared (to be inferred)."""

    meld: tuple[Play, ...] | None = None
    replaced: tuple[Replacement, ...] | None = None
    discard: Card | None = None
    discard_declared: bool = False
    draw: DrawTaken | None = None  # a turn judged from the draw phase: the draw that began it


@dataclass(frozen=True)
class PuzzleStatement:
    """A puzzle's own statement (``[puzzle]``): what it asks, never how. Not part of the game
    state: ``best`` and the checker ignore it, and positions compare equal without it."""

    kind: str  # the puzzle kind, e.g. "steal" (rummy.vocabulary.PuzzleKind for generated puzzles)
    tier: str  # easy, medium, hard or expert
    task: str  # the task in words
    target: int | float  # the best turn's gain (tile kinds: tiles played)
    rules_note: str | None = None
    themes: tuple[str, ...] = ()  # the ideas the best turn needs (rummy.themes), in THEMES order

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "tier": self.tier, "task": self.task, "target": self.target}
        if self.rules_note is not None:
            data["rules_note"] = self.rules_note
        if self.themes:
            data["themes"] = list(self.themes)
        return data

    @classmethod
    def from_data(cls, data: Any, source: str = "<puzzle>") -> PuzzleStatement:
        """Read a ``[puzzle]`` table strictly (``rummy.reader``): a PositionError names the place."""
        from .reader import read_puzzle_statement

        return read_puzzle_statement(data, source)


@dataclass(frozen=True)
class ReadingNotes:
    """What the reader noticed in a position's text that the game state does not keep, for the
    warnings of rummy.reports.warnings (legal input that is probably not meant); no answer reads it."""

    source: str  # where the text came from, as error lines name it
    melded_unstated: tuple[str, ...] = ()  # players whose table leaves ``melded`` out (read as false)
    # Cards written in the other deck's notation (``7H`` in a tile game): the place, the token and
    # the cards it was read as; the first such token of each place.
    other_notation: tuple[tuple[str, str, tuple[Card, ...]], ...] = ()


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
    phase: Phase = Phase.PLAY
    hand_number: int | None = None
    first_out: str | None = None
    table: tuple[Play, ...] = ()
    discard_pile: tuple[Card, ...] = ()
    stock: int | tuple[Card, ...] | None = None
    turn: Turn | None = None
    upcard: Card | None = None  # House: the stock's face-up top card while the stock is not opened
    # House Epic: first out has taken their re-entry turn (rules.md §5), so an empty hand of theirs
    # is out for good (rummy.hand_end); set by the re-entry draw (rummy.checker.draw_apply).
    reentered: bool = False
    # House: full out came by a last card played, not discarded: the players still in the hand who have
    # their one more turn yet, in order (the seed's rule 20); empty: the hand is over. None: no last round.
    last_turns: tuple[str, ...] | None = None
    # House Epic: first out's bonus, the penalty of their opponents' hands at the moment they went out
    # (rules.md §5), kept for the hand's end (rummy.hand_end); None: not known (or not gone out).
    first_out_points: int | None = None
    # A puzzle's statement ([puzzle]): no part of the game state, so not compared.
    puzzle: PuzzleStatement | None = field(default=None, compare=False)
    # The table was given as a bag of this many tiles and laid out by rummy (rummy.table_bag): said
    # where the position is shown, no part of the game state (the table is the plays), so not compared.
    table_bag: int | None = field(default=None, compare=False)
    # What the reader noticed in the text (None: not read from text); no part of the game state either.
    reading: ReadingNotes | None = field(default=None, compare=False, repr=False)

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

    def table_key(self) -> TableKey:
        """The table up to the order of plays and of cards in a play, identical cards alike.

        Space by space (or ``table`` for a shared table): equal keys mean the
        same final arrangement, whatever the hands and the discard.
        """
        def plays_key(plays: tuple[Play, ...]) -> tuple[tuple[Card, ...], ...]:
            return tuple(sorted(tuple(sorted(c.plain() for c in play.cards)) for play in plays))

        if self.rules.family.shared_table:
            return (("table", plays_key(self.table)),)
        return tuple((p.name, plays_key(p.plays)) for p in self.players)

    def named_plays(self) -> dict[PlayName, Play]:
        """Every play on the table under the name plans use: ``ann/2``, ``table/3``."""
        if self.rules.family.shared_table:
            return {PlayName.of("table", i): play for i, play in enumerate(self.table, 1)}
        return {PlayName.of(p.name, i): play for p in self.players for i, play in enumerate(p.plays, 1)}

    def play_with_layoffs(self, name: str) -> tuple[Card, ...]:
        """A play and every card laid off on it (personal tables)."""
        cards = self.named_plays()[PlayName(name)].cards
        return cards + tuple(card for _, attached in self.layoffs_on(name) for card in attached)

    def layoffs_on(self, name: str) -> list[tuple[str, tuple[Card, ...]]]:
        """The cards laid off on a play, by the player who laid them off."""
        return [(p.name, attached.cards) for p in self.players for attached in p.layoffs if attached.target == name]

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
        if self.upcard is not None:
            cards.append(self.upcard)
        return cards

    def unseen_cards(self) -> Counter[Card]:
        """The deck's cards the position does not show, as plain cards with their copies:
        what hidden hands and an unlisted stock hold between them. Hot and warm cards of a hidden
        hand (seen taken: docs/formats.md "A hidden mover") are known, so not unseen."""
        seen_in_hidden = [c for p in self.players if p.hand is None for c in p.hot + p.warm]
        return Counter(c.plain() for c in self.rules.deck_cards) \
            - Counter(c.plain() for c in self.known_cards() + seen_in_hidden)

    def replace_player(self, player: Player) -> Position:
        return replace(self, players=tuple(player if p.name == player.name else p for p in self.players))

    # ------------------------------------------------------------- reading
    @classmethod
    def from_file(cls, path: str | Path, strict: bool = True, mover_may_be_hidden: bool = False) -> Position:
        """Read a position file (``-``: stdin); TOML or JSON by suffix, else by content; a position code
        by content, or given in place of the path (rummy.inputs.is_code_argument)."""
        from .inputs import read_text, source_name, text_kind

        text = read_text(path)
        return cls.from_text(text, source=source_name(path), kind=text_kind(path, text), strict=strict,
                             mover_may_be_hidden=mover_may_be_hidden)

    @classmethod
    def from_text(cls, text: str, source: str, kind: str = "toml", strict: bool = True,
                  mover_may_be_hidden: bool = False) -> Position:
        """``kind``: ``toml``, ``json`` or ``code`` (a position code, rummy.position_code).
        ``mover_may_be_hidden``: read a mover given by ``hand_count`` (rummy.reader.read_position)."""
        if kind == "code":
            from .position_code import position_from_code

            return position_from_code(text, source, strict, mover_may_be_hidden)
        if kind == "json":
            return cls.from_json(text, source=source, strict=strict, mover_may_be_hidden=mover_may_be_hidden)
        return cls.from_toml(text, source=source, strict=strict, mover_may_be_hidden=mover_may_be_hidden)

    @classmethod
    def from_toml(cls, text: str, source: str = "<toml>", strict: bool = True,
                  mover_may_be_hidden: bool = False) -> Position:
        return cls.from_data(position_data(text, source, "toml"), source, strict, mover_may_be_hidden)

    @classmethod
    def from_json(cls, text: str, source: str = "<json>", strict: bool = True,
                  mover_may_be_hidden: bool = False) -> Position:
        return cls.from_data(position_data(text, source, "json"), source, strict, mover_may_be_hidden)

    @classmethod
    def from_data(cls, data: Mapping[str, Any], source: str = "<position>", strict: bool = True,
                  mover_may_be_hidden: bool = False) -> Position:
        """Read position data. ``strict=False`` reads a proposed end state: plays
        that are not whole and impossible card counts are left for the checker
        to report, everything else is still refused."""
        from .reader import read_position

        return read_position(data, source, strict, mover_may_be_hidden)

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
        if self.reentered:
            data["reentered"] = True
        if self.last_turns is not None:
            data["last_turns"] = list(self.last_turns)
        if self.first_out_points is not None:
            data["first_out_points"] = self.first_out_points
        if self.rules.family.shared_table:
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
            if not self.rules.family.shared_table:
                entry[self.rules.family.plays_key] = [play.notation(self.rules) for play in p.plays]
            if p.layoffs:
                entry["layoffs"] = [a.notation(deck) for a in p.layoffs]
            players[p.name] = entry
        data["players"] = players
        piles: dict[str, Any] = {"discard": cards_notation(self.discard_pile, deck)}
        if isinstance(self.stock, tuple):
            piles["stock"] = cards_notation(self.stock, deck)
        elif self.stock is not None:
            piles["stock"] = self.stock
        if self.upcard is not None:
            piles["upcard"] = self.upcard.notation(deck)
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
            if self.turn.draw is not None:
                turn["draw"] = self.turn.draw.to_data(deck)
            data["turn"] = turn
        if self.puzzle is not None:
            data["puzzle"] = self.puzzle.to_data()
        return data

    def to_toml(self) -> str:
        return tomli_w.dumps(self.to_data())

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_data(), indent=indent, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        """Write the position (JSON or TOML by the suffix) in one step, never through a link."""
        from .files import write_atomic

        path = Path(path)
        write_atomic(path, self.to_json() if path.suffix.lower() == ".json" else self.to_toml())


def position_data(text: str, source: str, kind: str = "toml") -> Mapping[str, Any]:
    """A TOML or JSON position's data, parsed (within rummy.parsing's limits) but not yet read: what
    ``Position.from_data`` reads. A caller that must look at it first (is there a [turn]?) parses once."""
    from .parsing import parse_json, parse_toml

    if kind != "json":
        return parse_toml(text, source)
    data = parse_json(text, source)
    if not isinstance(data, dict):
        raise PositionError(source, f"a position must be a JSON object, got {quote(data)}")
    return data
