"""What every picture is drawn with: the canvas and its cursor, a card, a row of cards, a play laid
out as a player lays it, a line of ``rummy.words`` pieces, and the sizes and inks they share."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..cards import SUITS, Card, Deck, rank_name
from ..plays import Play, readings
from ..words import Piece, Strong, plain

if TYPE_CHECKING:
    from ..rules import Ruleset

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

# Sizes in pixels.
CARD_W, CARD_H, CARD_GAP = 40, 56, 5
MARGIN = 16
LABEL_W = 96  # the column of play names before each row of cards
ROW_GAP = 8
LINE_H = 22
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CARD_INK = {"S": "#1a1a1a", "H": "#c62828", "D": "#c62828", "C": "#1a1a1a"}
TILE_INK = {"S": "#1a1a1a", "C": "#1565c0", "H": "#c62828", "D": "#e06c00"}  # K B R O
JOKER_INK = "#7b1fa2"
MUTED = "#555555"

# What happened to an after-table card (plan pictures): fill and outline, and the legend's words.
MARKS: dict[str, tuple[str, str, str]] = {
    "played": ("#d9f2d9", "#2e7d32", "played from the hand"),
    "moved": ("#dbe9fb", "#1565c0", "moved (within or between spaces)"),
    "stolen": ("#fde0cc", "#d84315", "stolen"),
    "joker": ("#eedcf7", "#7b1fa2", "put in a joker's place (the joker freed)"),
}
HOT_OUTLINE, WARM_OUTLINE = "#d32f2f", "#ef8f00"


# ------------------------------------------------------------------ canvas
@dataclass
class Canvas:
    """The SVG root and a cursor: rows are laid out top to bottom, the width grows to fit."""

    root: ET.Element = field(default_factory=lambda: ET.Element("svg", xmlns=SVG_NAMESPACE))
    y: float = MARGIN
    width: float = 0

    def reach(self, x: float) -> None:
        self.width = max(self.width, x)

    def text(self, parent: ET.Element, x: float, y: float, words: str, size: int = 14, weight: str = "normal",
             fill: str = "#1a1a1a", anchor: str = "start", **extra: str) -> ET.Element:
        element = ET.SubElement(parent, "text", {"x": svg_number(x), "y": svg_number(y), "fill": fill,
                                                 "font-size": str(size), **extra})
        if weight != "normal":
            element.set("font-weight", weight)
        if anchor != "start":
            element.set("text-anchor", anchor)
        element.text = words
        if anchor == "start":
            self.reach(x + _text_width(words, size))
        return element

    def line(self, words: str, size: int = 14, weight: str = "normal", fill: str = "#1a1a1a", x: float = MARGIN,
             parent: ET.Element | None = None) -> None:
        """One line of text at the cursor."""
        self.text(self.root if parent is None else parent, x, self.y + size, words, size, weight, fill)
        self.y += max(LINE_H, size + 8)

    def gap(self, pixels: float = ROW_GAP) -> None:
        self.y += pixels

    def finish(self, min_width: float = 0) -> str:
        width = max(self.width, min_width) + MARGIN
        height = self.y + MARGIN
        self.root.set("width", svg_number(width))
        self.root.set("height", svg_number(height))
        self.root.set("viewBox", f"0 0 {svg_number(width)} {svg_number(height)}")
        self.root.set("font-family", FONT)
        background = ET.Element("rect", x="0", y="0", width="100%", height="100%", fill="#ffffff")
        self.root.insert(0, background)
        # Indent the document, but not inside a line of text: there whitespace is part of the words.
        lines = [(node, node.text, node.tail, node is line) for line in self.root.iter("text") for node in line.iter()]
        ET.indent(self.root)
        for node, words, tail, is_line in lines:
            node.text = words
            if not is_line:
                node.tail = tail
        return ET.tostring(self.root, encoding="unicode")


def svg_number(value: float) -> str:
    return f"{value:g}"


def _text_width(words: str, size: int) -> float:
    """A generous estimate of a line's width (no font metrics in the standard library)."""
    return len(words) * size * 0.6


# ------------------------------------------------------------------- cards
def _card(canvas: Canvas, parent: ET.Element, x: float, y: float, card: Card, deck: Deck,
          stand_in: str | None = None, mark: str | None = None, outline: str | None = None,
          dashed: bool = False, leaves: str | None = None) -> ET.Element:
    """One card (or tile) at (x, y): a rounded rectangle, its rank and suit symbol, its notation as title.

    ``mark``: what the plan did to it (filled and outlined in its colour); ``leaves``: how the plan
    takes it from its play (a dashed outline in that colour)."""
    notation = card.notation(deck)
    group = ET.SubElement(parent, "g", {"class": "card", "data-card": notation})
    if mark is not None:
        group.set("data-mark", mark)
    if leaves is not None:
        group.set("data-leaves", leaves)
    ET.SubElement(group, "title").text = notation
    fill, stroke, width = ("#fdf8ec" if deck == "tiles" else "#ffffff"), "#8a8a8a", "1.2"
    if card.is_joker:
        fill = "#f7effc"
    if mark is not None:
        fill, stroke, width = MARKS[mark][0], MARKS[mark][1], "2.5"
    if outline is not None:
        stroke, width = outline, "3"
    if leaves is not None:
        stroke, width, dashed = MARKS[leaves][1], "3", True
    rect = ET.SubElement(group, "rect", {"x": svg_number(x), "y": svg_number(y), "width": svg_number(CARD_W),
                                         "height": svg_number(CARD_H), "rx": "6", "ry": "6", "fill": fill,
                                         "stroke": stroke, "stroke-width": width})
    if dashed:
        rect.set("stroke-dasharray", "5 3")
    middle = x + CARD_W / 2
    if card.is_joker:
        canvas.text(group, middle, y + 24, "★", 20, fill=JOKER_INK, anchor="middle")
        shown = stand_in or (card.stands_for.notation(deck) if card.stands_for is not None else None)
        canvas.text(group, middle, y + 46, f"={shown}" if shown else "joker", 11 if shown else 10,
                    weight="bold" if shown else "normal", fill=JOKER_INK, anchor="middle")
    elif deck == "tiles":
        ink = TILE_INK[card.suit]
        canvas.text(group, middle, y + 36, str(card.rank), 22, "bold", ink, "middle")
        ET.SubElement(group, "circle", cx=svg_number(middle), cy=svg_number(y + 46), r="3", fill=ink)
    else:
        ink = CARD_INK[card.suit]
        canvas.text(group, middle, y + 24, rank_name(card.rank), 18, "bold", ink, "middle")
        canvas.text(group, middle, y + 46, SUIT_GLYPHS[card.suit], 20, fill=ink, anchor="middle")
    canvas.reach(x + CARD_W)
    return group


def card_back(parent: ET.Element, x: float, y: float) -> None:
    ET.SubElement(parent, "rect", {"x": svg_number(x), "y": svg_number(y), "width": svg_number(CARD_W),
                                   "height": svg_number(CARD_H), "rx": "6", "ry": "6", "fill": "#5c6bc0",
                                   "stroke": "#3949ab", "stroke-width": "1.2"})


def card_row(canvas: Canvas, place: str, label: str, cards: Iterable[Card], deck: Deck, note: str = "",
             stand_ins: Iterable[str | None] | None = None, marks: Iterable[str | None] | None = None,
             hot: Iterable[Card] = (), warm: Iterable[Card] = (), x: float = MARGIN, bold_label: bool = False,
             parent: ET.Element | None = None, leaves: Iterable[str | None] | None = None) -> ET.Element:
    """A labelled row of cards at the cursor, with a note after it."""
    group = ET.SubElement(canvas.root if parent is None else parent, "g", {"class": "place", "data-place": place})
    cards = tuple(cards)
    top = canvas.y
    canvas.text(group, x, top + CARD_H / 2 + 5, label, 14, "bold" if bold_label else "normal",
                MUTED if not bold_label else "#1a1a1a")
    start = x + max(LABEL_W, _text_width(label, 14) + 10)
    stand_list = list(stand_ins) if stand_ins is not None else [None] * len(cards)
    mark_list = list(marks) if marks is not None else [None] * len(cards)
    leave_list = list(leaves) if leaves is not None else [None] * len(cards)
    hot_left, warm_left = list(hot), list(warm)
    for i, card in enumerate(cards):
        outline, dashed = None, False
        if card in hot_left:
            hot_left.remove(card)
            outline = HOT_OUTLINE
        elif card in warm_left:
            warm_left.remove(card)
            outline, dashed = WARM_OUTLINE, True
        _card(canvas, group, start + i * (CARD_W + CARD_GAP), top, card, deck, stand_list[i], mark_list[i], outline,
              dashed, leave_list[i])
    end = start + len(cards) * (CARD_W + CARD_GAP)
    if note:
        canvas.text(group, end + 8 if cards else start, top + CARD_H / 2 + 5, note, 13, fill=MUTED)
    canvas.y = top + CARD_H + ROW_GAP
    return group


def laid_out(play: Play | tuple[Card, ...], rules: Ruleset) -> tuple[tuple[Card, ...], tuple[str | None, ...]]:
    """A play's cards as a player lays them out (``Play.ordered``), and what each joker stands for
    where every reading of the play agrees (a book's joker whose suit is open: its rank)."""
    cards = play.cards if isinstance(play, Play) else tuple(play)
    found = readings(cards, rules)
    if not found:
        return cards, tuple(None for _ in cards)
    shown: list[str | None] = []
    for i, card in enumerate(cards):
        if not card.is_joker or card.stands_for is not None:
            shown.append(None)
            continue
        options = {reading.stand_ins[i] for reading in found}
        if len(options) == 1:
            shown.append(next(iter(options)).notation(rules.deck))
        elif len({option.rank for option in options}) == 1:
            shown.append(rank_name(next(iter(options)).rank) if rules.deck == "cards"
                         else str(next(iter(options)).rank))
        else:
            shown.append(None)
    first = found[0]
    if first.kind == "book":
        order = sorted(range(len(cards)), key=lambda i: (cards[i].is_joker, SUITS.index(first.stand_ins[i].suit)))
    else:
        order = sorted(range(len(cards)), key=lambda i: first.positions[i])
    assert tuple(cards[i] for i in order) == first.ordered()
    return tuple(cards[i] for i in order), tuple(shown[i] for i in order)


def play_row(canvas: Canvas, rules: Ruleset, place: str, label: str, cards: tuple[Card, ...], note: str = "",
             marks: dict[Card, list[str]] | None = None, x: float = MARGIN, parent: ET.Element | None = None,
             leaves: dict[Card, list[str]] | None = None) -> None:
    ordered, stand_ins = laid_out(cards, rules)
    row_marks = _take_marks(ordered, marks) if marks is not None else None
    row_leaves = _take_marks(ordered, leaves) if leaves is not None else None
    card_row(canvas, place, label, ordered, rules.deck, note, stand_ins, row_marks, x=x, parent=parent,
             leaves=row_leaves)


def _take_marks(cards: tuple[Card, ...], marks: dict[Card, list[str]]) -> list[str | None]:
    """Each card's mark, taken from the marks the plan left on its play (one per card)."""
    left_marks = {card: list(found) for card, found in marks.items()}
    result: list[str | None] = []
    for card in cards:
        left = left_marks.get(card.plain())
        result.append(left.pop(0) if left else None)
    return result


def picture_title(canvas: Canvas, words: str) -> None:
    ET.SubElement(canvas.root, "title").text = words


# ------------------------------------------------------------------- words
# Characters a line of text holds before it wraps (a sheet's task, the draw options' note).
TEXT_WRAP = 90


def wrap(words: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(words, width) or [""]


def words_line(canvas: Canvas, words: Iterable[Piece], deck: Deck, size: int = 14, weight: str = "normal",
               fill: str = "#1a1a1a", x: float = MARGIN, parent: ET.Element | None = None) -> ET.Element:
    """``rummy.words`` pieces as one line of text at the cursor: each card a ``<tspan>`` in its ink,
    ``Strong`` words a bold one, plain words between them."""
    words = tuple(words)
    element = canvas.text(canvas.root if parent is None else parent, x, canvas.y + size, "", size, weight, fill)
    last = element  # plain words go after the last <tspan> (its tail), or into the line itself before any

    def add(words_here: str) -> None:
        if last is element:
            element.text = (element.text or "") + words_here
        else:
            last.tail = (last.tail or "") + words_here

    for piece in words:
        spans: list[tuple[str, dict[str, str]]]
        if isinstance(piece, tuple):
            spans = [(card.notation(deck), {"fill": _ink(card, deck)}) for card in piece]
        elif isinstance(piece, Strong):
            spans = [(piece, {"font-weight": "bold"})]
        else:
            add(piece)
            continue
        for i, (text, attributes) in enumerate(spans):
            if i:
                add(" ")
            last = ET.SubElement(element, "tspan", attributes)
            last.text = text
    canvas.reach(x + _text_width(plain(words, deck), size))
    canvas.y += max(LINE_H, size + 8)
    return element


def _ink(card: Card, deck: Deck) -> str:
    if card.is_joker:
        return JOKER_INK
    return (TILE_INK if deck == "tiles" else CARD_INK)[card.suit]
