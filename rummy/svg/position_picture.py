"""A position as a picture (``position_svg``), and a puzzle sheet: the task above the position (``sheet_svg``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from ..plays import PlayName, is_whole
from ..words import (
    declared_draw_words,
    player_facts,
    position_facts,
    rule_changes,
    rules_summary,
    sort_for_display,
    unit,
)
from .canvas import (
    CARD_H,
    CARD_W,
    LABEL_W,
    MARGIN,
    MUTED,
    ROW_GAP,
    TEXT_WRAP,
    Canvas,
    card_back,
    card_row,
    picture_title,
    play_row,
    wrap,
)

if TYPE_CHECKING:
    from ..position import Player, Position


def position_svg(position: Position) -> str:
    """The position as an SVG picture: what ``rummy show`` prints, in its order and names."""
    canvas = Canvas()
    picture_title(canvas, f"{position.rules.name}: {position.to_move} to move ({position.phase} phase)")
    _draw_position(canvas, position)
    return canvas.finish()


def sheet_svg(position: Position, heading: str, task: str) -> str:
    """A puzzle sheet: the heading (the puzzle's name), the task set, then the position as ``position_svg`` draws it."""
    canvas = Canvas()
    picture_title(canvas, f"{heading}: {task}")
    group = ET.SubElement(canvas.root, "g", {"data-section": "task"})
    canvas.line(heading, 20, "bold", parent=group)
    for words in wrap(task, TEXT_WRAP):
        canvas.line(words, 16, "bold", "#1565c0", parent=group)
    canvas.gap(ROW_GAP * 2)
    _draw_position(canvas, position)
    return canvas.finish()


def _draw_position(canvas: Canvas, position: Position) -> None:
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

def _header(canvas: Canvas, position: Position) -> None:
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


def _shared_table(canvas: Canvas, position: Position) -> None:
    rules = position.rules
    named = position.named_plays()
    canvas.line(f"table: {len(named)} plays" if named else "table: empty", 16, "bold")
    for name, play in named.items():
        play_row(canvas, rules, name, name, play.cards, "" if is_whole(play.cards, rules) else "not a whole play")


def _player(canvas: Canvas, position: Position, player: Player) -> None:
    rules = position.rules
    mover = player.name == position.to_move
    heading = f"{player.name}{' (to move)' if mover else ''}: " + ", ".join(player_facts(position, player))
    canvas.line(heading, 16, "bold", "#2e7d32" if mover else "#1a1a1a")
    _hand(canvas, position, player)
    if not rules.family.shared_table:
        _owned_plays(canvas, position, player)


def _hand(canvas: Canvas, position: Position, player: Player, label: str = "hand") -> None:
    rules = position.rules
    place = f"hand:{player.name}"
    if player.hand is None:
        group = ET.SubElement(canvas.root, "g", {"class": "place", "data-place": place})
        top = canvas.y
        canvas.text(group, MARGIN, top + CARD_H / 2 + 5, label, 14, fill=MUTED)
        start = MARGIN + LABEL_W
        shown = min(player.hand_count or 0, 3)
        for i in range(shown):
            card_back(group, start + i * 8, top)
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
    card_row(canvas, place, label, hand, rules.deck, "; ".join(notes) if hand else "(empty)", hot=player.hot,
             warm=player.warm)


def _owned_plays(canvas: Canvas, position: Position, player: Player) -> None:
    from ..scoring import play_score

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
        play_row(canvas, rules, name, name, play.cards, note)
        for layer, attached in position.layoffs_on(name):
            card_row(canvas, f"{name}+{layer}", "   +", attached, rules.deck, f"laid off by {layer}")
    if rules.family.scores_by_space:
        canvas.line(f"space total: {total} points", 14, "bold", x=MARGIN + 12)


def _piles(canvas: Canvas, position: Position) -> None:
    rules = position.rules
    deck = rules.deck
    if rules.discard or position.discard_pile:
        card_row(canvas, "discard", "discard", position.discard_pile, deck,
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
                card_back(group, MARGIN + LABEL_W + i * 3, top + i * -2 + 4)
        canvas.text(group, MARGIN + LABEL_W + CARD_W + 18, top + CARD_H / 2 + 5, f"{stock} {unit(rules)}", 14)
        canvas.y = top + CARD_H + ROW_GAP
    else:
        card_row(canvas, "stock", "stock", stock, deck, f"{len(stock)} {unit(rules)}, top first", bold_label=True)
    if position.upcard is not None:
        card_row(canvas, "upcard", "upcard", (position.upcard,), deck,
                 "the stock's face-up top card (the stock is not opened)", bold_label=True)


def _turn(canvas: Canvas, position: Position) -> None:
    """The [turn] declarations of an after-position, as ``rummy show`` lists them."""
    turn = position.turn
    assert turn is not None
    rules = position.rules
    deck = rules.deck
    canvas.line("turn (declared)", 16, "bold")
    if turn.meld:
        for i, play in enumerate(turn.meld, 1):
            play_row(canvas, rules, f"turn-meld/{i}", "meld", play.cards)
    else:
        canvas.line("meld: " + ("none" if turn.meld is not None else "not declared"), 14, x=MARGIN + 12)
    if turn.replaced:
        canvas.line("replaced: " + ", ".join(f"{r.play} {r.card.notation(deck)}" for r in turn.replaced), 14,
                    x=MARGIN + 12)
    else:
        canvas.line("replaced: " + ("none" if turn.replaced is not None else "not declared"), 14, x=MARGIN + 12)
    if turn.discard is not None:
        canvas.line(f"discard: {turn.discard.notation(deck)}", 14, x=MARGIN + 12)
    else:
        canvas.line("discard: none" if turn.discard_declared else "discard: not declared", 14, x=MARGIN + 12)
    if turn.draw is not None:
        canvas.line(f"draw: {declared_draw_words(turn.draw, deck)}", 14, x=MARGIN + 12)
