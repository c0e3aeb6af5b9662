"""``rummy play POSITION TURN``: the position after a turn, to play a game on turn by turn.

TURN is read as ``check`` reads AFTER (a position with its ``[turn]`` table, a
``best --json`` answer, steps from a file or stdin ``-``), or is the word
``best``: the best turn, or a draw in words (``"draw 7H"``, ``"take 3"``, ``open``,
``pass``, ``"demand QS from bob"``: rummy.draw_words). A legal turn prints the next position (TOML, or
``--json``; ``--out FILE`` writes it in one step, never through a link); an
illegal one is refused with ``check``'s verdict and exit 1. A turn that ends the hand
says so on stderr (``the hand is over: ann went out; ann 35, bob 0``; with ``--json``
one line ``{"hand_end": {...}}``), stdout staying the position. The answer is
rummy.reports.play's; this module reads the files and prints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from rummy.cli._options import JsonFlag, PositionPath, TimeLimitOption
from rummy.cli._output import print_answer, print_json, print_warnings
from rummy.reports.exit_codes import EXIT_NEGATIVE, EXIT_NO_ANSWER, EXIT_OK

TurnPath = Annotated[
    Path,
    typer.Argument(
        help="The turn: a file, or - for stdin, holding the position after it (with its \\[turn] table), the JSON "
             "of 'best --json', or its steps as 'best' prints them; the word best, for the best turn; or a draw: "
             "'draw 7H', 'take 3', open, pass, 'demand QS from bob'.",
        show_default=False, metavar="TURN",
    ),
]

OutPath = Annotated[
    Path | None,
    typer.Option("--out", metavar="FILE", show_default=False,
                 help="Write the next position to FILE (TOML, or JSON for a .json name) in one step, never through "
                      "a link nor over POSITION, instead of printing it."),
]


def play(position_path: PositionPath, turn_path: TurnPath, json_output: JsonFlag = False, out: OutPath = None,
         time_limit: TimeLimitOption = 30.0) -> int:
    """Play a turn: print the position after it, the next player to move (exit 0), or refuse an illegal
    turn with every breach, as 'check' lists them (exit 1; nothing is written).

    rummy play game.toml best --out next.toml

    echo 'play 7H 8H 9H to new/1; discard KS' | rummy play game.toml -

    rummy play game.toml "take 2"
    """
    from rummy.cli.check import turn_argument_name, turn_text
    from rummy.errors import NoTurnInAnswer
    from rummy.inputs import argument_name
    from rummy.position import Position
    from rummy.reports.check import nothing_to_judge
    from rummy.reports.play import BEST_TURN, best_turn_text, play_turn
    from rummy.reports.position_warnings import position_warnings

    if out is not None:
        from rummy.cli._picture import check_output_path
        from rummy.errors import RummyError

        if str(out) == "-":
            raise RummyError("--out -: give a file name (without --out the position is printed)")
        check_output_path(out, [position_path, turn_path], "--out")
    before = Position.from_file(position_path, mover_may_be_hidden=True)
    print_warnings(position_warnings(before))
    where = f"{argument_name(position_path)} -> {turn_argument_name(turn_path)}"
    try:
        if str(turn_path) == BEST_TURN and not turn_path.exists():
            from rummy.inputs import source_name
            from rummy.reader import known_mover_hand

            known_mover_hand(before, source_name(position_path))  # refused as 'best' refuses it
            text, source, kind = best_turn_text(before, time_limit), "best", "json"
        else:  # a file, stdin, or a turn in words ("draw 7H", "take 2; play ...", "pass"), read as check reads AFTER
            text, source, kind = turn_text(turn_path)
        played = play_turn(before, text, source, kind, where)
    except NoTurnInAnswer as empty:  # best found no turn: nothing to play
        data, lines = nothing_to_judge(empty)
        print_answer(data, lines, json_output)
        return EXIT_NO_ANSWER
    if played.position is None:
        print_answer(played.report.data, played.report.lines, json_output)
        return EXIT_NEGATIVE
    position = played.position
    if out is not None:
        from rummy.files import write_atomic

        write_atomic(out, position.to_json() + "\n" if out.suffix.lower() == ".json" else position.to_toml())
        sys.stderr.write(f"next position written to {out} ({position.to_move} to move)\n")
    elif json_output:
        print_json(position.to_data())
    else:
        sys.stdout.write(position.to_toml())
    if played.ending is not None:  # stdout stays the position, read back strictly; the hand's end goes beside it
        import json

        ending = played.ending
        sys.stderr.write(json.dumps({"hand_end": ending.to_data()}) + "\n" if json_output
                         else f"the hand is over: {ending.summary()}\n")
    return EXIT_OK
