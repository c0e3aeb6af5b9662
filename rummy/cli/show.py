"""``rummy show POSITION``: draw a position in the terminal, or print its data as JSON.

The lines are rummy.reports.position's; this module reads the file and prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummy.cli._options import AfterFlag, JsonFlag, PositionPath, SvgPath
from rummy.cli._output import print_json, print_lines, print_warnings
from rummy.reports.exit_codes import EXIT_OK

if TYPE_CHECKING:
    from pathlib import Path

    from rummy.position import Position


def show(position_path: PositionPath, json_output: JsonFlag = False, after: AfterFlag = False,
         svg: SvgPath = None) -> int:
    """Draw a position: rules, whose turn, every player's hand and plays, the piles (--svg: also as a picture)."""
    if svg is not None:
        from rummy.cli._picture import check_svg_path

        check_svg_path(svg, [position_path])
    position = read_position(position_path, after)
    from rummy.reports.position_warnings import position_warnings

    print_warnings(position_warnings(position))
    if svg is not None:
        from rummy.cli._picture import write_svg
        from rummy.svg import position_svg

        write_svg(svg, position_svg(position), [position_path])
    if json_output:
        print_json(position.to_data())
    else:
        from rummy.reports.position import show_lines

        print_lines(show_lines(position))
    return EXIT_OK


def read_position(path: Path, after: bool = False) -> Position:
    """The file read once (stdin or a pipe cannot be read twice), as
    rummy.reports.position.position_from_text reads it."""
    from rummy.inputs import read_text, source_name, text_kind
    from rummy.reports.position import position_from_text

    text = read_text(path)
    return position_from_text(text, source_name(path), text_kind(path, text), after)
