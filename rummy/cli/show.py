"""``rummy show POSITION``: draw a position in the terminal, or print its data as JSON.

The lines are rummy.reports.position's; this module reads the file and prints.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from rummy.cli._options import (
    AfterFlag,
    InlineHandCountOption,
    InlineHandOption,
    InlineMeldedFlag,
    InlinePlayersOption,
    InlineRulesOption,
    InlineTableOption,
    InlineToMoveOption,
    JsonFlag,
    OptionalPositionPath,
    SvgPath,
)
from rummy.cli._output import print_json, print_lines, print_warnings
from rummy.reports.exit_codes import EXIT_OK

if TYPE_CHECKING:
    from pathlib import Path

    from rummy.position import Position
    from rummy.reports.lines import Styled

CodeFlag = Annotated[bool, typer.Option(
    "--code", help="Print the position's code (one line, rummy1_...), which every command takes in place of a file.")]


def show(position_path: OptionalPositionPath = None, json_output: JsonFlag = False, after: AfterFlag = False,
         svg: SvgPath = None, code: CodeFlag = False, rules_name: InlineRulesOption = None,
         table: InlineTableOption = None, hand: InlineHandOption = None, melded: InlineMeldedFlag = False,
         to_move: InlineToMoveOption = None, players: InlinePlayersOption = None,
         hand_count: InlineHandCountOption = None) -> int:
    """Draw a position: rules, whose turn, every player's hand and plays, the piles (--svg: also as a picture;
    --code: its one-line code instead)."""
    from rummy.inline import InlineParts, check_inline_alone

    inline = InlineParts(rules_name, table, hand, melded, to_move, players, hand_count)
    check_inline_alone(inline, 0 if position_path is None else 1)
    inputs = [position_path] if position_path is not None else []
    if svg is not None:
        from rummy.cli._picture import check_svg_path

        check_svg_path(svg, inputs)
    assumed_lines: list[Styled | str] = []
    if position_path is None:
        from rummy.inline import inline_position
        from rummy.reports.inline import assumed_lines as lines_of

        position, assumed = inline_position(inline)
        assumed_lines = lines_of(assumed, position)
    else:
        position = read_position(position_path, after)
    from rummy.reports.position_warnings import position_warnings

    print_warnings(position_warnings(position))
    if svg is not None:
        from rummy.cli._picture import write_svg
        from rummy.svg import position_svg

        write_svg(svg, position_svg(position), inputs)
    if code or json_output:
        from rummy.position_code import position_code

        if code and not json_output:
            sys.stdout.write(position_code(position) + "\n")
        else:
            print_json({**position.to_data(), "code": position_code(position)})
    else:
        from rummy.reports.position import show_lines

        print_lines(assumed_lines + show_lines(position))
    return EXIT_OK


def read_position(path: Path, after: bool = False) -> Position:
    """The file read once (stdin or a pipe cannot be read twice), as
    rummy.reports.position.position_from_text reads it."""
    from rummy.inputs import read_text, source_name, text_kind
    from rummy.reports.position import position_from_text

    text = read_text(path)
    return position_from_text(text, source_name(path), text_kind(path, text), after)
