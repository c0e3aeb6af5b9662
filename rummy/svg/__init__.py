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

The package: ``canvas.py`` holds what every picture is drawn with (the
canvas and its cursor, a card, a row of cards, a play laid out, a line of
``rummy.words`` pieces); ``position_picture.py`` draws a position and a
puzzle sheet; ``plan_picture.py`` a move plan and its legend.
"""

from __future__ import annotations

from .canvas import MARKS
from .plan_picture import LEAVES_WORDS, plan_svg
from .position_picture import position_svg, sheet_svg

__all__ = ["LEAVES_WORDS", "MARKS", "plan_svg", "position_svg", "sheet_svg"]
