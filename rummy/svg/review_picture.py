"""A game review as a picture (``rummy review --svg``) or a page (``--html``): one row per turn, then
the worst three turns, the turn played and the best turn drawn side by side by ``plan_svg``."""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from ..words import Strong, number
from .canvas import MARGIN, Canvas, picture_title

if TYPE_CHECKING:
    from ..games.review import GameReview, TurnReview

SIDE_GAP = 40  # between the played and the best picture
WORST_SHOWN = 3


def review_rows(review: GameReview) -> list[tuple[str, ...]]:
    """The table's rows: hand, turn, player, played, gain, best, lost, mark (text cells)."""
    rows: list[tuple[str, ...]] = []
    for turn in review.turns:
        if turn.skipped is not None:
            rows.append((str(turn.hand), str(turn.turn), turn.player, turn.text, "", "", "", f"not reviewed: "
                         f"{turn.skipped}"))
            continue
        gain = number(turn.gain) if turn.gain is not None else (
            f"draw worth {number(turn.draw.played_value)}" if turn.draw and turn.draw.played_value is not None else "")
        best = number(turn.best_gain) if turn.best_gain is not None else ""
        if turn.status is not None and turn.status != "optimal" and best:
            best += " (feasible)"
        rows.append((str(turn.hand), str(turn.turn), turn.player, turn.text, gain, best, number(turn.lost),
                     turn.mark or ""))
    return rows


HEADINGS = ("hand", "turn", "player", "played", "gain", "best", "lost", "mark")


def side_by_side(turn: TurnReview) -> tuple[str | None, str | None]:
    """The turn played and the best turn as ``plan_svg`` pictures (None where one cannot be drawn:
    a draw alone has no play to draw)."""
    from ..answer import answer_from_data, planned
    from ..errors import RummyError
    from ..solution import Solution
    from ..vocabulary import Status
    from .plan_picture import plan_svg

    played = best = None
    if turn.play_start is not None and turn.played_after is not None and turn.gain is not None:
        try:
            answer = planned(turn.play_start, Solution(Status.FEASIBLE, turn.gain, turn.gain, turn.played_after))
            played = plan_svg(answer, title=f"turn {turn.turn}: the turn {turn.player} played",
                              verdict=("gain ", Strong(number(turn.gain)), f"  (lost {number(turn.lost)})"))
        except (RummyError, KeyError, ValueError):
            played = None
    if turn.best_answer is not None and turn.searched is not None:
        try:
            best = plan_svg(answer_from_data(turn.searched, turn.best_answer, "review"),
                            title=f"turn {turn.turn}: the best turn for {turn.player}")
        except (RummyError, KeyError, ValueError):
            best = None
    return played, best


def review_html(review: GameReview, source: str) -> str:
    from ..reports.review import marks_legend

    game = review.game
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>review of {html.escape(source)}</title>",
           "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
           "td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}"
           ".pictures{display:flex;gap:2em;align-items:flex-start;overflow-x:auto}.pictures svg{flex:none}"
           "</style></head><body>",
           f"<h1>Review of {html.escape(source)}</h1>",
           f"<p>{html.escape(game.rules.name)}; {html.escape(', '.join(game.players))}; "
           f"{number(review.time_limit)} s a position. Marks: {html.escape(marks_legend(review))}.</p>",
           '<table class="turns"><thead><tr>' + "".join(f"<th>{h}</th>" for h in HEADINGS) + "</tr></thead><tbody>"]
    for row in review_rows(review):
        out.append("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>")
    out.append("</tbody></table><h2>Summary</h2><ul>")
    from ..reports.review import summary_line

    out.extend(f"<li>{html.escape(str(summary_line(summary)).strip())}</li>" for summary in review.summaries())
    out.append("</ul>")
    worst = review.worst(WORST_SHOWN)
    if worst:
        out.append("<h2>The worst turns</h2>")
    for turn in worst:
        out.append(f'<h3>hand {turn.hand}, turn {turn.turn} ({html.escape(turn.player)}): lost '
                   f'{number(turn.lost)} {html.escape(turn.mark or "")}</h3><div class="pictures">')
        for picture in side_by_side(turn):
            out.append(_without_declaration(picture) if picture else "<p>(no picture: a draw alone)</p>")
        out.append("</div>")
    out.append("</body></html>\n")
    return "\n".join(out)


def _without_declaration(svg: str) -> str:
    return svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg


def _plain_tags(element: ET.Element) -> ET.Element:
    """A parsed picture's tags without their namespace: the canvas writes ``xmlns`` once, on its root."""
    for node in element.iter():
        if node.tag.startswith("{"):
            node.tag = node.tag.split("}", 1)[1]
    return element


def review_svg(review: GameReview, source: str) -> str:
    """The review as one SVG: the rows as lines of text, then each of the worst turns' two pictures
    nested side by side."""
    from ..reports.review import marks_legend, summary_line

    canvas = Canvas()
    picture_title(canvas, f"review of {source}")
    canvas.line(f"review of {source}: {review.game.rules.name}, {', '.join(review.game.players)}", 18, "bold")
    canvas.line(f"marks: {marks_legend(review)}", 12)
    canvas.gap()
    canvas.line("  ".join(HEADINGS), 13, "bold")
    rows = ET.SubElement(canvas.root, "g", {"data-section": "turns"})
    for row in review_rows(review):
        canvas.line(" | ".join(cell for cell in row if cell), 13, parent=rows)
    canvas.gap()
    for summary in review.summaries():
        canvas.line(str(summary_line(summary)).strip(), 14, "bold")
    for turn in review.worst(WORST_SHOWN):
        canvas.gap()
        canvas.line(f"hand {turn.hand}, turn {turn.turn} ({turn.player}): lost {number(turn.lost)} {turn.mark or ''}",
                    16, "bold")
        x, tallest = float(MARGIN), 0.0
        group = ET.SubElement(canvas.root, "g", {"data-section": f"worst {turn.hand}.{turn.turn}"})
        for picture in side_by_side(turn):
            if picture is None:
                continue
            nested = _plain_tags(ET.fromstring(picture))
            width, height = float(nested.get("width", "0")), float(nested.get("height", "0"))
            nested.set("x", str(x))
            nested.set("y", str(canvas.y))
            group.append(nested)
            x += width + SIDE_GAP
            tallest = max(tallest, height)
        canvas.reach(x)
        canvas.y += tallest
    return canvas.finish()


__all__ = ["review_html", "review_rows", "review_svg", "side_by_side"]
