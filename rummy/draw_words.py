"""A draw written as words, ``rummy play``'s TURN when the turn is a draw (issue 27 §1):

- ``draw CARD``: the top card of the stock, when the user knows it (``draw`` alone where the
  position lists the stock: its top card); in tile rummy, the tile a player who plays nothing draws;
  ``draw 3`` or ``draw 7H 8C 2S``: House Epic's first out re-entering the hand (three stock cards);
- ``take N`` (``take`` alone: 1): the top N cards of the discard pile (House, lay-off rummy);
- ``open``, ``pass``: take the upcard, or leave it (House, while the stock is not opened);
- ``demand CARD from PLAYER``: House Epic; ``demand CARD from PLAYER failed``: the player asked had
  no such card (a hidden hand), so the turn ends with nothing moved.

``read_draw`` reads the words (linear: whitespace split once, at most a few words) into a
``DrawTaken`` and the card named; ``rummy.next_position.drawn_position`` carries the draw out
with the checker's own code (``rummy.checker.draw_apply``). ``draw_text`` writes them back.

A whole draw-phase turn is one text (docs/formats.md "Turn text"): the draw's words as its first
step, then the play's steps, ``take 2; play 5D 5H 5S to new/1; discard QC``; ``split_turn``
splits it there.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Deck
from .checker.draw_apply import REENTRY_DRAW
from .errors import PositionError, quote
from .position import DrawTaken
from .steps_notation import split_steps
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
    failed: bool = False  # a demand the player asked could not meet: the turn ends


def looks_like_draw(text: str) -> bool:
    """Whether ``text`` is a draw in words, alone or as the first step of a whole turn: its first
    step's first word one of ``DRAW_WORDS`` and no ``=`` in that step ("draw = 1" is TOML)."""
    first = _first_step(text)
    if len(first) > MAX_DRAW_CHARS or "=" in first:
        return False
    words = first.split(maxsplit=1)
    return bool(words) and words[0].lower() in DRAW_WORDS


def _first_step(text: str) -> str:
    """The text up to the first step separator (``;`` or a new line), comments and blanks passed over;
    linear (no split of the whole text)."""
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip().lstrip("\ufeff")
        if line:
            return line.split(";", 1)[0].strip()
    return ""


def split_turn(text: str) -> tuple[str, str]:
    """A whole turn's text split into the draw's words (its first step) and the steps of the play
    after it ("" where the draw stands alone); for texts ``looks_like_draw`` accepts."""
    steps = split_steps(text)
    if not steps:
        return "", ""
    return steps[0][1], "; ".join(step for _, step in steps[1:])


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
    failed = verb == "demand" and len(rest) == 4 and rest[3].lower() == "failed"
    if verb == "demand" and (len(rest) == 3 or failed) and rest[1].lower() == "from":
        return WrittenDraw(DrawTaken(DrawSource.DEMAND, card=card(rest[0]), player=rest[2]), failed=failed)
    raise PositionError(source, f"{shown} is no draw (draw [CARD], take [N], open, pass, "
                        "demand CARD from PLAYER [failed]; "
                        "re-entering: draw 3)")


def draw_text(taken: DrawTaken, deck: Deck = "cards", card: Card | None = None, failed: bool = False,
              cards: tuple[Card, ...] = ()) -> str:
    """The words ``read_draw`` reads for a draw: ``draw 7H`` (``card``: the stock card drawn, where
    known), ``take 2`` (Robber Rummy's pile, taken whole: ``take``), ``open``, ``pass``, ``demand QS
    from bob`` (``failed``: ``... failed``)."""
    source = taken.source
    if source == DrawSource.STOCK:  # House Epic's re-entry draws several: ``draw 7H 8C 2S`` or ``draw 3``
        if len(cards) > 1:
            return "draw " + " ".join(c.notation(deck) for c in cards)
        if card is None and (taken.take or 1) > 1:
            return f"draw {taken.take}"
        return f"draw {card.notation(deck)}" if card is not None else "draw"
    if source == DrawSource.PILE:
        return "take"
    if source == DrawSource.DISCARD:
        return f"take {taken.take or 1}"
    if source == DrawSource.DEMAND:
        if taken.card is None or taken.player is None:
            raise ValueError("a demand names the card and the player asked")
        return f"demand {taken.card.notation(deck)} from {taken.player}" + (" failed" if failed else "")
    return str(source)
