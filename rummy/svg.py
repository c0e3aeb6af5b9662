"""Pictures of positions and move plans as SVG, in the manner of python-chess's ``chess.svg``.

``position_svg(position)`` draws what ``rummy show`` prints, in the same
order and under the same names: the rules and whose turn it is, the shared
table (tile rummy), every player with their hand and their space or plays
(scores where the family scores plays), then the piles. ``plan_svg(answer)``
draws the table before and after the turn, the after-table's cards marked by
what the plan did to them, and the numbered steps beside it. ``sheet_svg(position,
heading, task)`` is a puzzle sheet (``rummy sheets``): the task above the position,
drawn by the same code as ``position_svg``.

Every card is one ``<g class="card">`` element with a ``data-card``
attribute and a ``<title>`` child holding its notation (``7H``, ``R7``,
``*``, ``*=6H``), so tests and screen readers can read the picture; every
row of cards is a ``<g>`` with a ``data-place`` attribute (``ann/1``,
``hand:ann``, ``discard``...). The pictures are built with the standard
library's ``xml.etree.ElementTree`` (no dependency: an SVG is a small XML
document, and ElementTree escapes every name a position file may hold).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from .cards import SUITS, Card, Deck, rank_name
from .plan import plan_departures, plan_marks
from .plays import Play, PlayName, is_whole, readings
from .words import (DRAW_OPTIONS_NOTE, DRAW_OPTIONS_TITLE, OPTIONS_SHOWN, Piece, Strong, breakdown_words, owner_note,
                    declared_draw_words, more_options_words, number, option_words, plain, player_facts,
                    position_facts, rule_changes, rules_summary, sort_for_display, step_words, unit, unvalued_words,
                    verdict_words)

if TYPE_CHECKING:
    from .answer import Answer
    from .plan import Plan
    from .position import Player, Position
    from .rules import Ruleset
    from .solution import DrawChoice

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
class _Canvas:
    """The SVG root and a cursor: rows are laid out top to bottom, the width grows to fit."""

    root: ET.Element = field(default_factory=lambda: ET.Element("svg", xmlns=SVG_NAMESPACE))
    y: float = MARGIN
    width: float = 0

    def reach(self, x: float) -> None:
        self.width = max(self.width, x)

    def text(self, parent: ET.Element, x: float, y: float, words: str, size: int = 14, weight: str = "normal",
             fill: str = "#1a1a1a", anchor: str = "start", **extra: str) -> ET.Element:
        element = ET.SubElement(parent, "text", {"x": _n(x), "y": _n(y), "fill": fill, "font-size": str(size), **extra})
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
        self.root.set("width", _n(width))
        self.root.set("height", _n(height))
        self.root.set("viewBox", f"0 0 {_n(width)} {_n(height)}")
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


def _n(value: float) -> str:
    return f"{value:g}"


def _text_width(words: str, size: int) -> float:
    """A generous estimate of a line's width (no font metrics in the standard library)."""
    return len(words) * size * 0.6


# ------------------------------------------------------------------- cards
def _card(canvas: _Canvas, parent: ET.Element, x: float, y: float, card: Card, deck: Deck,
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
    rect = ET.SubElement(group, "rect", {"x": _n(x), "y": _n(y), "width": _n(CARD_W), "height": _n(CARD_H), "rx": "6",
                                         "ry": "6", "fill": fill, "stroke": stroke, "stroke-width": width})
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
        ET.SubElement(group, "circle", cx=_n(middle), cy=_n(y + 46), r="3", fill=ink)
    else:
        ink = CARD_INK[card.suit]
        canvas.text(group, middle, y + 24, rank_name(card.rank), 18, "bold", ink, "middle")
        canvas.text(group, middle, y + 46, SUIT_GLYPHS[card.suit], 20, fill=ink, anchor="middle")
    canvas.reach(x + CARD_W)
    return group


def _card_back(parent: ET.Element, x: float, y: float) -> None:
    ET.SubElement(parent, "rect", {"x": _n(x), "y": _n(y), "width": _n(CARD_W), "height": _n(CARD_H), "rx": "6",
                                   "ry": "6", "fill": "#5c6bc0", "stroke": "#3949ab", "stroke-width": "1.2"})


def _row(canvas: _Canvas, place: str, label: str, cards: Iterable[Card], deck: Deck, note: str = "",
         stand_ins: Iterable[str | None] | None = None, marks: Iterable[str | None] | None = None,
         hot: Iterable[Card] = (), warm: Iterable[Card] = (), x: float = MARGIN, bold_label: bool = False,
         parent: ET.Element | None = None, leaves: Iterable[str | None] | None = None) -> ET.Element:
    """A labelled row of cards at the cursor, with a note after it."""
    group = ET.SubElement(canvas.root if parent is None else parent, "g", {"class": "place", "data-place": place})
    cards = tuple(cards)
    top = canvas.y
    canvas.text(group, x, top + CARD_H / 2 + 5, label, 14, "bold" if bold_label else "normal", MUTED if not bold_label else "#1a1a1a")
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
        _card(canvas, group, start + i * (CARD_W + CARD_GAP), top, card, deck, stand_list[i], mark_list[i], outline, dashed,
              leave_list[i])
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
            shown.append(rank_name(next(iter(options)).rank) if rules.deck == "cards" else str(next(iter(options)).rank))
        else:
            shown.append(None)
    first = found[0]
    if first.kind == "book":
        order = sorted(range(len(cards)), key=lambda i: (cards[i].is_joker, SUITS.index(first.stand_ins[i].suit)))
    else:
        order = sorted(range(len(cards)), key=lambda i: first.positions[i])
    assert tuple(cards[i] for i in order) == first.ordered()
    return tuple(cards[i] for i in order), tuple(shown[i] for i in order)


def _play_row(canvas: _Canvas, rules: Ruleset, place: str, label: str, cards: tuple[Card, ...], note: str = "",
              marks: dict[Card, list[str]] | None = None, x: float = MARGIN, parent: ET.Element | None = None,
              leaves: dict[Card, list[str]] | None = None) -> None:
    ordered, stand_ins = laid_out(cards, rules)
    row_marks = _take_marks(ordered, marks) if marks is not None else None
    row_leaves = _take_marks(ordered, leaves) if leaves is not None else None
    _row(canvas, place, label, ordered, rules.deck, note, stand_ins, row_marks, x=x, parent=parent, leaves=row_leaves)


def _take_marks(cards: tuple[Card, ...], marks: dict[Card, list[str]]) -> list[str | None]:
    """Each card's mark, taken from the marks the plan left on its play (one per card)."""
    left_marks = {card: list(found) for card, found in marks.items()}
    result: list[str | None] = []
    for card in cards:
        left = left_marks.get(card.plain())
        result.append(left.pop(0) if left else None)
    return result


# ---------------------------------------------------------------- position
def position_svg(position: Position) -> str:
    """The position as an SVG picture: what ``rummy show`` prints, in its order and names."""
    canvas = _Canvas()
    _title(canvas, f"{position.rules.name}: {position.to_move} to move ({position.phase} phase)")
    _draw_position(canvas, position)
    return canvas.finish()


def sheet_svg(position: Position, heading: str, task: str) -> str:
    """A puzzle sheet: the heading (the puzzle's name), the task set, then the position as ``position_svg`` draws it."""
    canvas = _Canvas()
    _title(canvas, f"{heading}: {task}")
    group = ET.SubElement(canvas.root, "g", {"data-section": "task"})
    canvas.line(heading, 20, "bold", parent=group)
    for words in _wrap(task, SHEET_WRAP):
        canvas.line(words, 16, "bold", "#1565c0", parent=group)
    canvas.gap(ROW_GAP * 2)
    _draw_position(canvas, position)
    return canvas.finish()


# Characters a line of a sheet's task holds before it wraps.
SHEET_WRAP = 90


def _wrap(words: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(words, width) or [""]


def _draw_position(canvas: _Canvas, position: Position) -> None:
    """The position's header, table, players, piles and declared turn, at the canvas's cursor."""
    _header(canvas, position)
    rules = position.rules
    if rules.family.shared_table:
        canvas.gap()
        _shared_table(canvas, position)
    for player in position.players:
        canvas.gap()
        _player(canvas, position, player)
    canvas.gap()
    _piles(canvas, position)
    if position.turn is not None:
        canvas.gap()
        _turn(canvas, position)


def _title(canvas: _Canvas, words: str) -> None:
    ET.SubElement(canvas.root, "title").text = words


def _header(canvas: _Canvas, position: Position) -> None:
    rules = position.rules
    canvas.line(f"rules: {rules.name}", 18, "bold")
    changes = rule_changes(rules)
    if changes:
        canvas.line(changes.strip(), 14, "bold")
    canvas.line(rules_summary(rules), 13, fill=MUTED)
    facts = position_facts(position)
    if facts:
        canvas.line(", ".join(facts), 14)
    canvas.line(f"to move: {position.to_move} ({position.phase} phase)", 16, "bold", "#2e7d32")


def _shared_table(canvas: _Canvas, position: Position) -> None:
    rules = position.rules
    named = position.named_plays()
    canvas.line(f"table: {len(named)} plays" if named else "table: empty", 16, "bold")
    for name, play in named.items():
        _play_row(canvas, rules, name, name, play.cards, "" if is_whole(play.cards, rules) else "not a whole play")


def _player(canvas: _Canvas, position: Position, player: Player) -> None:
    rules = position.rules
    mover = player.name == position.to_move
    heading = f"{player.name}{' (to move)' if mover else ''}: " + ", ".join(player_facts(position, player))
    canvas.line(heading, 16, "bold", "#2e7d32" if mover else "#1a1a1a")
    _hand(canvas, position, player)
    if not rules.family.shared_table:
        _owned_plays(canvas, position, player)


def _hand(canvas: _Canvas, position: Position, player: Player, label: str = "hand") -> None:
    rules = position.rules
    place = f"hand:{player.name}"
    if player.hand is None:
        group = ET.SubElement(canvas.root, "g", {"class": "place", "data-place": place})
        top = canvas.y
        canvas.text(group, MARGIN, top + CARD_H / 2 + 5, label, 14, fill=MUTED)
        start = MARGIN + LABEL_W
        shown = min(player.hand_count or 0, 3)
        for i in range(shown):
            _card_back(group, start + i * 8, top)
        canvas.text(group, start + (shown - 1) * 8 + CARD_W + 10 if shown else start, top + CARD_H / 2 + 5,
                    f"{player.hand_count} {unit(rules)}, not known", 13, fill=MUTED)
        canvas.y = top + CARD_H + ROW_GAP
        return
    hand = sort_for_display(player.hand)
    notes = []
    if player.hot:
        notes.append("red outline: hot (must be played this turn)")
    if player.warm:
        notes.append("dashed orange: warm (may not be discarded this turn)")
    _row(canvas, place, label, hand, rules.deck, "; ".join(notes) if hand else "(empty)", hot=player.hot, warm=player.warm)


def _owned_plays(canvas: _Canvas, position: Position, player: Player) -> None:
    from .scoring import play_score

    rules = position.rules
    named = {name: play for name, play in position.named_plays().items() if PlayName(name).owner == player.name}
    label = rules.family.plays_key
    if not named:
        canvas.line(f"{label}: empty", 14, fill=MUTED, x=MARGIN + 12)
        return
    total = 0
    for name, play in named.items():
        cards = position.play_with_layoffs(name)
        note = ""
        if not is_whole(cards, rules):
            note = "not a whole play"
        elif rules.family.scores_plays:
            score = play_score(cards, rules)
            total += score
            note = f"{score} points"
        _play_row(canvas, rules, name, name, play.cards, note)
        for layer, attached in position.layoffs_on(name):
            _row(canvas, f"{name}+{layer}", "   +", attached, rules.deck, f"laid off by {layer}")
    if rules.family.scores_by_space:
        canvas.line(f"space total: {total} points", 14, "bold", x=MARGIN + 12)


def _piles(canvas: _Canvas, position: Position) -> None:
    rules = position.rules
    deck = rules.deck
    if rules.discard or position.discard_pile:
        _row(canvas, "discard", "discard", position.discard_pile, deck,
             "bottom to top" if position.discard_pile else "empty", bold_label=True)
    stock = position.stock
    if stock is None:
        canvas.line("stock: not given", 14, "bold")
    elif isinstance(stock, int):
        group = ET.SubElement(canvas.root, "g", {"class": "place", "data-place": "stock"})
        top = canvas.y
        canvas.text(group, MARGIN, top + CARD_H / 2 + 5, "stock", 14, "bold")
        if stock:
            for i in range(min(stock, 3)):
                _card_back(group, MARGIN + LABEL_W + i * 3, top + i * -2 + 4)
        canvas.text(group, MARGIN + LABEL_W + CARD_W + 18, top + CARD_H / 2 + 5, f"{stock} {unit(rules)}", 14)
        canvas.y = top + CARD_H + ROW_GAP
    else:
        _row(canvas, "stock", "stock", stock, deck, f"{len(stock)} {unit(rules)}, top first", bold_label=True)
    if position.upcard is not None:
        _row(canvas, "upcard", "upcard", (position.upcard,), deck, "the stock's face-up top card (the stock is not opened)",
             bold_label=True)


def _turn(canvas: _Canvas, position: Position) -> None:
    """The [turn] declarations of an after-position, as ``rummy show`` lists them."""
    turn = position.turn
    assert turn is not None
    rules = position.rules
    deck = rules.deck
    canvas.line("turn (declared)", 16, "bold")
    if turn.meld:
        for i, play in enumerate(turn.meld, 1):
            _play_row(canvas, rules, f"turn-meld/{i}", "meld", play.cards)
    else:
        canvas.line("meld: " + ("none" if turn.meld is not None else "not declared"), 14, x=MARGIN + 12)
    if turn.replaced:
        canvas.line("replaced: " + ", ".join(f"{r.play} {r.card.notation(deck)}" for r in turn.replaced), 14, x=MARGIN + 12)
    else:
        canvas.line("replaced: " + ("none" if turn.replaced is not None else "not declared"), 14, x=MARGIN + 12)
    if turn.discard is not None:
        canvas.line(f"discard: {turn.discard.notation(deck)}", 14, x=MARGIN + 12)
    else:
        canvas.line("discard: none" if turn.discard_declared else "discard: not declared", 14, x=MARGIN + 12)
    if turn.draw is not None:
        canvas.line(f"draw: {declared_draw_words(turn.draw, deck)}", 14, x=MARGIN + 12)


# -------------------------------------------------------------------- plans
def plan_svg(answer: Answer, heading: str | None = None) -> str:
    """The turn as a picture: the verdict, the draw options (draw phase), the table before and
    after, the steps; every line in the words ``rummy best`` prints (``rummy.words``).

    ``heading`` (a puzzle's answer sheet: its name) is written above the rest."""
    solution = answer.solution
    position = answer.position
    rules = position.rules
    deck = rules.deck
    canvas = _Canvas()
    title = f"{rules.name}: the best turn for {position.to_move}"
    _title(canvas, f"{heading}: {title}" if heading else title)
    if heading:
        canvas.line(heading, 20, "bold")
    canvas.line(title, 18, "bold")
    group = ET.SubElement(canvas.root, "g", {"data-section": "verdict"})
    _words_line(canvas, verdict_words(answer, timed=False), deck, parent=group)
    breakdown = breakdown_words(answer)
    if breakdown:
        _words_line(canvas, breakdown, deck, 13, fill=MUTED, parent=group)
    if solution.draw is not None and solution.draw.chosen is not None:
        canvas.gap()
        _draw_options(canvas, solution.draw, deck, solution.stats.get("draws_not_valued_in_time", 0))
    plan = answer.plan
    after = solution.after
    start = position
    if solution.draw is not None and solution.draw.start is not None:
        start = solution.draw.start
    table_top = canvas.y + ROW_GAP
    canvas.y = table_top
    lines_width, canvas.width = canvas.width, 0  # the steps go beside the tables, not beside the lines above
    left = ET.SubElement(canvas.root, "g", {"data-section": "before"})
    canvas.line("before the turn" if start is position else "after the draw, before the play", 16, "bold", parent=left)
    departures = plan_departures(plan, start) if plan is not None and after is not None else None
    _table(canvas, start, None, None, left, departures)
    _space_totals(canvas, start, left)
    if plan is not None and after is not None:
        canvas.gap(ROW_GAP * 2)
        right = ET.SubElement(canvas.root, "g", {"data-section": "after"})
        canvas.line("after the turn", 16, "bold", parent=right)
        _table(canvas, after, plan, position.to_move, right)
        _space_totals(canvas, after, right)
        tables_bottom = canvas.y
        column = canvas.width + 40
        canvas.y = table_top
        used = {mark for cards in plan_marks(plan, after).values() for marks in cards.values() for mark in marks}
        leaving = any(cards for cards in (departures or {}).values())
        _steps(canvas, plan, deck, column, used, leaving)
        canvas.y = max(canvas.y, tables_bottom)
    return canvas.finish(lines_width)


def _words_line(canvas: _Canvas, words: Iterable[Piece], deck: Deck, size: int = 14, weight: str = "normal",
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


def _draw_options(canvas: _Canvas, draw: DrawChoice, deck: Deck, unvalued: int) -> None:
    """The draw options as ``rummy best`` lists them: rank, value, what each takes; then the draw taken."""
    group = ET.SubElement(canvas.root, "g", {"data-section": "draw-options"})
    _words_line(canvas, (Strong(DRAW_OPTIONS_TITLE),), deck, 16, parent=group)
    for words in _wrap(DRAW_OPTIONS_NOTE.strip(" ()"), SHEET_WRAP):
        canvas.line(words, 13, fill=MUTED, parent=group)
    for rank, option in enumerate(draw.options[:OPTIONS_SHOWN], 1):
        row = ET.SubElement(group, "g", {"data-option": str(rank)})
        top = canvas.y
        ink = "#2e7d32" if rank == 1 else "#1a1a1a"
        weight = "bold" if rank == 1 else "normal"
        canvas.text(row, MARGIN + 24, top + 14, f"{rank}.", 14, weight, ink, "end")
        canvas.text(row, MARGIN + 90, top + 14, number(option.value), 14, weight, ink, "end")
        _words_line(canvas, option_words(option, draw), deck, x=MARGIN + 104, parent=row)
    more = more_options_words(draw)
    if more is not None:
        canvas.line(more, 13, fill=MUTED, x=MARGIN + 104, parent=group)
    if unvalued:
        _words_line(canvas, unvalued_words(unvalued), deck, 13, fill="#ef8f00", parent=group)
    chosen = draw.chosen
    assert chosen is not None
    _words_line(canvas, ("take: ", *(Strong(p) if isinstance(p, str) else p for p in option_words(chosen, draw))),
                deck, parent=group)


def _table(canvas: _Canvas, position: Position, plan: Plan | None, mover: str | None, parent: ET.Element,
           departures: dict[str, dict[Card, list[str]]] | None = None) -> None:
    """The plays (with plan names and marks when ``plan`` is given; the cards leaving them with
    ``departures``) and the mover's hand."""
    rules = position.rules
    marks = plan_marks(plan, position) if plan is not None else None
    names = plan.names if plan is not None else {}
    for name in position.named_plays():
        shown = names.get(name, name)
        note = owner_note(name, shown, rules)
        if rules.family.scores_plays:
            from .scoring import play_score

            cards = position.play_with_layoffs(name)
            if is_whole(cards, rules):
                note = ", ".join(filter(None, (note, f"{play_score(cards, rules)} points")))
        _play_row(canvas, rules, name, shown, position.play_with_layoffs(name), note,
                  marks[name] if marks is not None else None, parent=parent,
                  leaves=departures.get(name) if departures is not None else None)
    player = position.player(mover or position.to_move)
    hand = sort_for_display(player.hand or ())
    _row(canvas, f"hand:{player.name}", f"{player.name}'s hand", hand, rules.deck, "" if hand else "(empty)",
         parent=parent)


# Characters a line of the steps column holds before it wraps, and the indent of the lines it wraps to (pixels).
STEP_WRAP, STEP_INDENT = 64, 18


def _space_totals(canvas: _Canvas, position: Position, parent: ET.Element) -> None:
    """Each space's score under its table (families that score by space), as ``rummy show`` gives it."""
    rules = position.rules
    if not rules.family.scores_by_space:
        return
    from .scoring import play_score

    totals = {player.name: 0 for player in position.players}
    for name in position.named_plays():
        cards = position.play_with_layoffs(name)
        if is_whole(cards, rules):
            totals[PlayName(name).owner] = totals.get(PlayName(name).owner, 0) + play_score(cards, rules)
    words = ", ".join(f"{owner} {total}" for owner, total in totals.items())
    canvas.line(f"space totals: {words} points", 14, "bold", x=MARGIN + 12, parent=parent)


def _steps(canvas: _Canvas, plan: Plan, deck: Deck, x: float, used: set[str], leaving: bool) -> None:
    """The steps, then a legend of the marks this picture uses (``used``: after the turn; ``leaving``:
    cards marked as leaving their play before it)."""
    group = ET.SubElement(canvas.root, "g", {"data-section": "steps"})
    canvas.line("steps", 16, "bold", x=x, parent=group)
    for rank, step in enumerate(plan.steps, 1):
        for i, line in enumerate(_wrap_words((f"{rank}. ", *step_words(step)), deck, STEP_WRAP)):
            _words_line(canvas, line, deck, x=x if i == 0 else x + STEP_INDENT, parent=group)
    if used:
        canvas.gap(ROW_GAP * 2)
        canvas.line("marks on the table after the turn", 14, "bold", x=x, parent=group)
    for mark, (fill, stroke, words) in MARKS.items():
        if mark not in used:
            continue
        ET.SubElement(group, "rect", {"x": _n(x), "y": _n(canvas.y + 2), "width": "22", "height": "16", "rx": "3",
                                      "fill": fill, "stroke": stroke, "stroke-width": "2"})
        canvas.line(words, 13, x=x + 30, parent=group)
    if not leaving:
        return
    canvas.gap(ROW_GAP)
    canvas.line("marks on the table before the turn", 14, "bold", x=x, parent=group)
    ET.SubElement(group, "rect", {"x": _n(x), "y": _n(canvas.y + 2), "width": "22", "height": "16", "rx": "3",
                                  "fill": "#ffffff", "stroke": MUTED, "stroke-width": "2", "stroke-dasharray": "5 3"})
    canvas.line(LEAVES_WORDS, 13, x=x + 30, parent=group)


LEAVES_WORDS = "leaves this play (dashed, in the colour of what happens to it)"


def _wrap_words(words: tuple[Piece, ...], deck: Deck, width: int) -> list[tuple[Piece, ...]]:
    """Pieces in lines of about ``width`` characters, broken between words, never inside a card's notation."""
    import re

    tokens: list[Piece] = []
    for piece in words:
        if isinstance(piece, str):
            kind = Strong if isinstance(piece, Strong) else str
            tokens += [kind(token) for token in re.findall(r"\S*\s*", piece) if token]
        else:
            tokens += [(card,) for card in piece]
    lines: list[list[Piece]] = [[]]
    length = 0
    for token in tokens:
        size = len(token) if isinstance(token, str) else len(token[0].notation(deck)) + 1
        if length + size > width and lines[-1] and not (isinstance(token, str) and not token.strip()):
            lines.append([])
            length = 0
        if isinstance(token, tuple) and lines[-1] and isinstance(lines[-1][-1], tuple):
            lines[-1][-1] = lines[-1][-1] + token  # cards next to each other stay one piece, spaced
        else:
            lines[-1].append(token)
        length += size
    return [tuple(line) for line in lines]
