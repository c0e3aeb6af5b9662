"""Lines of text in styled pieces, and cards coloured by their suit or colour.

Styles are rich style names (``"bold red"``) carried as plain strings: this
module imports nothing beyond the standard library (it is loaded on every
start of the command line). Only the command line's ``print_lines``
(rummy.cli._output) turns styles into colours, on a terminal; the server
sends the plain text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummy.cards import Card, Deck

# Hearts and diamonds red, spades and clubs in the terminal's own colour.
# Tiles by their colour; K is drawn in the default colour (black on a light
# terminal) because literal black vanishes on dark ones.
CARD_SUIT_STYLES = {"S": "", "H": "red", "D": "red", "C": ""}
ORANGE = "dark_orange"
TILE_SUIT_STYLES = {"S": "bold", "C": "bold blue", "H": "bold red", "D": f"bold {ORANGE}"}
JOKER_STYLE = "bold magenta"
HOT_STYLE = "underline"
WARM_STYLE = "italic"


@dataclass(frozen=True)
class Styled:
    """A line of text in styled pieces (rich style names such as ``"bold red"``).

    Reports build these; only the command line's ``print_lines`` decides whether
    styles become colours, so rich is never imported when output goes to a file or a pipe.
    """

    segments: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, *parts: str | tuple[str, str] | Styled) -> Styled:
        segments: list[tuple[str, str]] = []
        for part in parts:
            if isinstance(part, Styled):
                segments.extend(part.segments)
            elif isinstance(part, tuple):
                segments.append(part)
            else:
                segments.append((part, ""))
        return cls(tuple(segments))

    def __add__(self, other: str | tuple[str, str] | Styled) -> Styled:
        return Styled.of(self, other)

    def join(self, pieces: Iterable[Styled]) -> Styled:
        """The pieces with this text between them (like ``str.join``)."""
        segments: list[tuple[str, str]] = []
        for i, piece in enumerate(pieces):
            if i:
                segments.extend(self.segments)
            segments.extend(piece.segments)
        return Styled(tuple(segments))

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.segments)

    def __str__(self) -> str:
        return self.plain


def text(*parts: str | tuple[str, str] | Styled) -> Styled:
    """A line from plain strings, ``(string, style)`` pairs and Styled pieces."""
    return Styled.of(*parts)


def card_style(card: Card, deck: Deck) -> str:
    if card.is_joker:
        return JOKER_STYLE
    styles = TILE_SUIT_STYLES if deck == "tiles" else CARD_SUIT_STYLES
    return styles[card.suit]


def card_text(card: Card, deck: Deck, extra_style: str = "") -> Styled:
    style = " ".join(s for s in (card_style(card, deck), extra_style) if s)
    return Styled(((card.notation(deck), style),))


def cards_text(
    cards: Iterable[Card], deck: Deck, hot: Iterable[Card] = (), warm: Iterable[Card] = ()
) -> Styled:
    """Cards space-separated and coloured; hot cards underlined, warm in italics."""
    hot_left, warm_left = list(hot), list(warm)
    pieces = []
    for card in cards:
        extra = ""
        if card in hot_left:
            hot_left.remove(card)
            extra = HOT_STYLE
        elif card in warm_left:
            warm_left.remove(card)
            extra = WARM_STYLE
        pieces.append(card_text(card, deck, extra))
    return text(" ").join(pieces)


def words_text(words: Iterable[str | tuple[Card, ...]], deck: Deck, style: str = "", strong: str = "bold") -> Styled:
    """``rummy.words`` pieces as a line: cards coloured, ``Strong`` words in ``strong``, the rest in ``style``."""
    from rummy.words import Strong

    parts: list[Styled] = []
    for piece in words:
        if isinstance(piece, str):
            parts.append(text((piece, " ".join(filter(None, (style, strong if isinstance(piece, Strong) else ""))))))
        else:
            parts.append(text(" ").join(card_text(card, deck, style) for card in piece))
    return text(*parts)
