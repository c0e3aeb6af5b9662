"""A draw written as words, ``rummy play``'s TURN when the turn is a draw (issue 27 §1):

- ``draw CARD``: the top card of the stock, when the user knows it (``draw`` alone where the
  position lists the stock: its top card); in tile rummy, the tile a player who plays nothing draws;
  ``draw 3`` or ``draw 7H 8C 2S``: House Epic's first out re-entering the hand (three stock cards);
- ``take N`` (``take`` alone: 1): the top N cards of the discard pile (House, lay-off rummy);
- ``open``, ``pass``: take the upcard, or leave it (House, while the stock is not opened);
- ``demand CARD from PLAYER``: House Epic.

``read_draw`` reads the words (linear: whitespace split once, at most a few words) into a
``DrawTaken`` and the card named; ``rummy.next_position.drawn_position`` carries the draw out
with the checker's own code (``rummy.checker.draw_apply``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .checker.draw_apply import REENTRY_DRAW
from .errors import PositionError, quote
from .position import DrawTaken
from .vocabulary import DrawSource

DRAW_WORDS = ("draw", "take", "open", "pass", "demand")
MAX_DRAW_CHARS = 200  # "demand QS from bob" and the like: a longer text is no draw


@dataclass(frozen=True)
class WrittenDraw:
    """A draw read from its words: where from, and the card named (``draw 7H``), if any."""

    taken: DrawTaken
    card: Card | None = None
    # Every card named, top first: ``draw 7H 8C 2S``, House Epic's re-entry draw of three (``card`` is the first).
    cards: tuple[Card, ...] = ()


def looks_like_draw(text: str) -> bool:
    """Whether ``text`` is a draw in words: short, its first word one of ``DRAW_WORDS``."""
    if len(text) > MAX_DRAW_CHARS or "=" in text or "\n" in text.strip():  # "draw = 1" is TOML
        return False
    words = text.split()
    return bool(words) and words[0].lower() in DRAW_WORDS


def read_draw(text: str, source: str = "<draw>") -> WrittenDraw:
    """The draw the words say; a PositionError naming ``source`` where they say none."""
    if len(text) > MAX_DRAW_CHARS:
        raise PositionError(source, f"a draw of {len(text):,} characters; a draw is at most {MAX_DRAW_CHARS}")
    words = text.split()
    verb, rest = (words[0].lower(), words[1:]) if words else ("", [])
    shown = quote(" ".join(words))

    def card(word: str) -> Card:
        try:
            return Card.from_notation(word).plain()
        except ValueError as error:
            raise PositionError(source, f"{error} (in {shown})") from None

    if verb == "draw" and len(rest) == 1 and rest[0].isdecimal():  # draw 3: House Epic's re-entry
        if not 1 <= int(rest[0]) <= REENTRY_DRAW:
            raise PositionError(source, f"draw N: N is how many stock cards, 1 to {REENTRY_DRAW} (in {shown})")
        return WrittenDraw(DrawTaken(DrawSource.STOCK, take=int(rest[0])))
    if verb == "draw" and len(rest) <= REENTRY_DRAW:
        named = tuple(card(word) for word in rest)
        take = len(named) if len(named) > 1 else None
        return WrittenDraw(DrawTaken(DrawSource.STOCK, take=take), named[0] if named else None, named)
    if verb == "take" and len(rest) <= 1:
        if rest and not (rest[0].isdecimal() and 1 <= int(rest[0]) <= 256):
            raise PositionError(source, f"take N: N is how many cards from the discard pile, 1 or more (in {shown})")
        return WrittenDraw(DrawTaken(DrawSource.DISCARD, take=int(rest[0]) if rest else 1))
    if verb in ("open", "pass") and not rest:
        return WrittenDraw(DrawTaken(DrawSource(verb)))
    if verb == "demand" and len(rest) == 3 and rest[1].lower() == "from":
        return WrittenDraw(DrawTaken(DrawSource.DEMAND, card=card(rest[0]), player=rest[2]))
    raise PositionError(source, f"{shown} is no draw (draw [CARD], take [N], open, pass, demand CARD from PLAYER; "
                                "re-entering: draw 3)")
