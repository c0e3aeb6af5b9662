"""Arguments and options shared by the commands, so every command spells them alike.

Only typer and the standard library are imported here: this module is loaded
on every start, before any command runs.

Paths are plain ``Path`` values on purpose: a missing or unreadable file is
reported by the position reader in the project's one-line form, not by
click's multi-line usage error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

JsonFlag = Annotated[
    bool,
    typer.Option("--json", help="Print JSON instead of the human view."),
]

AfterFlag = Annotated[
    bool,
    typer.Option(
        "--after",
        help="Read the file as a proposed end state, as 'check' reads AFTER: plays that are not whole are drawn and marked, not refused.",
    ),
]

PositionPath = Annotated[
    Path,
    typer.Argument(help="A position file (.toml or .json).", show_default=False, metavar="POSITION"),
]

PositionPaths = Annotated[
    list[Path],
    typer.Argument(
        help="Position files (.toml or .json), or folders of them.", show_default=False, metavar="POSITION..."
    ),
]

BeforePath = Annotated[
    Path,
    typer.Argument(help="The position before the turn.", show_default=False, metavar="BEFORE"),
]

AfterPath = Annotated[
    Path,
    typer.Argument(
        help="The position after the turn, with its [turn] table (or the JSON of 'best --json').",
        show_default=False,
        metavar="AFTER",
    ),
]

PresetName = Annotated[
    Optional[str],
    typer.Argument(help="A preset name; without one, every preset is listed.", show_default=False, metavar="PRESET"),
]

TimeLimitOption = Annotated[
    float,
    typer.Option("--time-limit", min=0.0, help="Seconds the solver may search per position."),
]

WorkersOption = Annotated[
    int,
    typer.Option("--workers", min=1, help="Solver threads."),
]

ObjectiveOption = Annotated[
    str,
    typer.Option("--objective", help="What to maximise where the family has more than one (tile rummy: tiles or value)."),
]
