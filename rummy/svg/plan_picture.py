"""A move plan as a picture (``plan_svg``): the verdict, the draw options, the table before and after
the turn with its cards marked by what the plan did to them, and the numbered steps with the marks' legend."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from ..cards import Card, Deck
from ..plan import plan_departures, plan_marks
from ..plays import PlayName, is_whole
from ..words import (
    DRAW_OPTIONS_NOTE,
    DRAW_OPTIONS_TITLE,
    OPTIONS_SHOWN,
    Piece,
    Strong,
    Words,
    breakdown_words,
    more_options_words,
    number,
    option_words,
    owner_note,
    sort_for_display,
    step_words,
    unvalued_words,
    verdict_words,
)
from .canvas import (
    MARGIN,
    MARKS,
    MUTED,
    ROW_GAP,
    TEXT_WRAP,
    Canvas,
    card_row,
    picture_title,
    play_row,
    svg_number,
    words_line,
    wrap,
)

if TYPE_CHECKING:
    from ..answer import Answer
    from ..plan import Plan
    from ..position import Position
    from ..solution import DrawChoice


def plan_svg(answer: Answer, heading: str | None = None, title: str | None = None,
             verdict: Words | None = None) -> str:
    """The turn as a picture: the verdict, the draw options (draw phase), the table before and
    after, the steps; every line in the words ``rummy best`` prints (``rummy.words``).

    ``heading`` (a puzzle's answer sheet: its name) is written above the rest; ``title`` stands for
    "RULES: the best turn for PLAYER" and ``verdict`` for the answer's verdict (a review's picture of
    the turn played, which is no answer of the search)."""
    solution = answer.solution
    position = answer.position
    rules = position.rules
    deck = rules.deck
    canvas = Canvas()
    title = title or f"{rules.name}: the best turn for {position.to_move}"
    picture_title(canvas, f"{heading}: {title}" if heading else title)
    if heading:
        canvas.line(heading, 20, "bold")
    canvas.line(title, 18, "bold")
    group = ET.SubElement(canvas.root, "g", {"data-section": "verdict"})
    words_line(canvas, verdict or verdict_words(answer, timed=False), deck, parent=group)
    breakdown = breakdown_words(answer)
    if breakdown:
        words_line(canvas, breakdown, deck, 13, fill=MUTED, parent=group)
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


def _draw_options(canvas: Canvas, draw: DrawChoice, deck: Deck, unvalued: int) -> None:
    """The draw options as ``rummy best`` lists them: rank, value, what each takes; then the draw taken."""
    group = ET.SubElement(canvas.root, "g", {"data-section": "draw-options"})
    words_line(canvas, (Strong(DRAW_OPTIONS_TITLE),), deck, 16, parent=group)
    for words in wrap(DRAW_OPTIONS_NOTE.strip(" ()"), TEXT_WRAP):
        canvas.line(words, 13, fill=MUTED, parent=group)
    for rank, option in enumerate(draw.options[:OPTIONS_SHOWN], 1):
        row = ET.SubElement(group, "g", {"data-option": str(rank)})
        top = canvas.y
        ink = "#2e7d32" if rank == 1 else "#1a1a1a"
        weight = "bold" if rank == 1 else "normal"
        canvas.text(row, MARGIN + 24, top + 14, f"{rank}.", 14, weight, ink, "end")
        canvas.text(row, MARGIN + 90, top + 14, number(option.value), 14, weight, ink, "end")
        words_line(canvas, option_words(option, draw), deck, x=MARGIN + 104, parent=row)
    more = more_options_words(draw)
    if more is not None:
        canvas.line(more, 13, fill=MUTED, x=MARGIN + 104, parent=group)
    if unvalued:
        words_line(canvas, unvalued_words(unvalued), deck, 13, fill="#ef8f00", parent=group)
    chosen = draw.chosen
    assert chosen is not None
    words_line(canvas, ("take: ", *(Strong(p) if isinstance(p, str) else p for p in option_words(chosen, draw))),
               deck, parent=group)


def _table(canvas: Canvas, position: Position, plan: Plan | None, mover: str | None, parent: ET.Element,
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
            from ..scoring import play_score

            cards = position.play_with_layoffs(name)
            if is_whole(cards, rules):
                note = ", ".join(filter(None, (note, f"{play_score(cards, rules)} points")))
        play_row(canvas, rules, name, shown, position.play_with_layoffs(name), note,
                 marks[name] if marks is not None else None, parent=parent,
                 leaves=departures.get(name) if departures is not None else None)
    player = position.player(mover or position.to_move)
    hand = sort_for_display(player.hand or ())
    card_row(canvas, f"hand:{player.name}", f"{player.name}'s hand", hand, rules.deck, "" if hand else "(empty)",
             parent=parent)


# Characters a line of the steps column holds before it wraps, and the indent of the lines it wraps to (pixels).
STEP_WRAP, STEP_INDENT = 64, 18


def _space_totals(canvas: Canvas, position: Position, parent: ET.Element) -> None:
    """Each space's score under its table (families that score by space), as ``rummy show`` gives it."""
    rules = position.rules
    if not rules.family.scores_by_space:
        return
    from ..scoring import play_score

    totals = {player.name: 0 for player in position.players}
    for name in position.named_plays():
        cards = position.play_with_layoffs(name)
        if is_whole(cards, rules):
            totals[PlayName(name).owner] = totals.get(PlayName(name).owner, 0) + play_score(cards, rules)
    words = ", ".join(f"{owner} {total}" for owner, total in totals.items())
    canvas.line(f"space totals: {words} points", 14, "bold", x=MARGIN + 12, parent=parent)


def _steps(canvas: Canvas, plan: Plan, deck: Deck, x: float, used: set[str], leaving: bool) -> None:
    """The steps, then a legend of the marks this picture uses (``used``: after the turn; ``leaving``:
    cards marked as leaving their play before it)."""
    group = ET.SubElement(canvas.root, "g", {"data-section": "steps"})
    canvas.line("steps", 16, "bold", x=x, parent=group)
    for rank, step in enumerate(plan.steps, 1):
        for i, line in enumerate(_wrap_words((f"{rank}. ", *step_words(step)), deck, STEP_WRAP)):
            words_line(canvas, line, deck, x=x if i == 0 else x + STEP_INDENT, parent=group)
    if used:
        canvas.gap(ROW_GAP * 2)
        canvas.line("marks on the table after the turn", 14, "bold", x=x, parent=group)
    for mark, (fill, stroke, words) in MARKS.items():
        if mark not in used:
            continue
        ET.SubElement(group, "rect", {"x": svg_number(x), "y": svg_number(canvas.y + 2), "width": "22", "height": "16",
                                      "rx": "3", "fill": fill, "stroke": stroke, "stroke-width": "2"})
        canvas.line(words, 13, x=x + 30, parent=group)
    if not leaving:
        return
    canvas.gap(ROW_GAP)
    canvas.line("marks on the table before the turn", 14, "bold", x=x, parent=group)
    ET.SubElement(group, "rect", {"x": svg_number(x), "y": svg_number(canvas.y + 2), "width": "22", "height": "16",
                                  "rx": "3", "fill": "#ffffff", "stroke": MUTED, "stroke-width": "2",
                                  "stroke-dasharray": "5 3"})
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
