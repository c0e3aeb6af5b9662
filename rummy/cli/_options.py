"""Arguments and options shared by the commands, so every command spells them alike.

Only typer, the standard library, rummy.vocabulary (itself standard library
only) and rummy.rules (for the presets' names) are imported here: this module
is loaded on every start, before any command runs.

An option with a fixed set of words is typed by its ``rummy.vocabulary`` enum,
so ``--help`` lists the choices, the shell completes them, and a word not
among them is a usage error (one line, exit 2). ``Preset``, the choices of
``generate --rules``, is built from ``rummy.rules.PRESETS``, so a new preset is
offered by itself. The PRESET argument of ``rummy rules`` stays text: a wrong
one gets rummy's own message, and completion offers the names.

Paths are plain ``Path`` values on purpose: a missing or unreadable file is
reported by the position reader in the project's one-line form, not by
click's multi-line usage error (``-`` is stdin; devices and FIFOs nobody
writes to are refused there, see rummy.inputs.read_text).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rummy.rules import PRESETS
from rummy.vocabulary import Objective, Word

if TYPE_CHECKING:
    Preset = Word  # to mypy: some word; its members are only known when PRESETS is built
else:
    Preset = Word("Preset", {name.upper().replace("-", "_"): name for name in PRESETS}, module=__name__)
    Preset.__doc__ = "The presets' names, in the order of rummy.rules.PRESETS (generate --rules)."

JsonFlag = Annotated[
    bool,
    typer.Option("--json", help="Print JSON instead of the human view."),
]

AfterFlag = Annotated[
    bool,
    typer.Option(
        "--after",
        help=("Read the file as a proposed end state, as 'check' reads AFTER: plays that are not whole are drawn "
              "and marked, not refused."),
    ),
]

PositionPath = Annotated[
    Path,
    typer.Argument(help="A position file (.toml or .json), a position code (rummy1_...), or - for stdin.",
                   show_default=False, metavar="POSITION"),
]

PositionPaths = Annotated[
    list[Path],
    typer.Argument(
        help="Position files (.toml or .json), folders of them, position codes (rummy1_...), or - for stdin.",
        show_default=False,
        metavar="POSITION...",
    ),
]

BeforePath = Annotated[
    Path,
    typer.Argument(help="The position before the turn: a file, a position code (rummy1_...), or - for stdin.",
                   show_default=False, metavar="BEFORE"),
]

AfterPath = Annotated[
    Path,
    typer.Argument(
        # "\\[": help is rich markup, where a bare [turn] is a tag and vanishes.
        help="A file, or - for stdin, holding the position after the turn (with its \\[turn] table), the JSON "
             "of 'best --json', or the turn written as steps, as 'best' prints them (see the example above); or a "
             "draw: 'draw 7H', 'take 3', open, pass, 'demand QS from bob'.",
        show_default=False,
        metavar="AFTER",
    ),
]


def preset_names(incomplete: str) -> list[str]:
    """Shell completion of a preset name (presets stay text: see above)."""
    return [name for name in PRESETS if name.startswith(incomplete)]


PresetName = Annotated[
    str | None,
    typer.Argument(help="A preset name; without one, every preset is listed.", show_default=False, metavar="PRESET",
                   autocompletion=preset_names),
]

# Option ranges (docs/formats.md "Limits"): values no real run needs are
# refused as usage errors (exit 2), never passed on to the solver.
TIME_LIMIT_MAX = 86400.0  # one day
WORKERS_MAX = 64
SEED_MAX = 2**31 - 1  # CP-SAT's random_seed is a 32-bit integer
# A deal's seed (game --deal, selfplay --seed): rummy.deal.MAX_SEED, written out so that the command line
# does not import the dealer to start (tests/core/test_game_record.py holds the two equal).
DEAL_SEED_MAX = 2**63 - 1


def finite_time_limit(value: float) -> float:
    """``nan`` passes click's range check (every comparison with it is false) and ``inf``
    would mean no limit at all: both are refused."""
    import math

    if not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number of seconds (0 to {TIME_LIMIT_MAX:g})")
    return value


TimeLimitOption = Annotated[
    float,
    typer.Option(
        "--time-limit", min=0.0, max=TIME_LIMIT_MAX, callback=finite_time_limit,
        help=f"Seconds the solver may search per position (0 to {TIME_LIMIT_MAX:g}).",
    ),
]

WorkersOption = Annotated[
    int,
    typer.Option("--workers", min=1, max=WORKERS_MAX, help=f"Solver threads (1 to {WORKERS_MAX})."),
]

SeedOption = Annotated[
    int,
    typer.Option(
        "--seed", min=0, max=SEED_MAX,
        help=f"Random seed of the solver, 0 to {SEED_MAX} (answers are reproducible for a seed).",
    ),
]

ObjectiveOption = Annotated[
    Objective,
    typer.Option("--objective",
                 help="What to maximise where the family has more than one (tile rummy: tiles or value)."),
]

SvgPath = Annotated[
    Path | None,
    typer.Option(
        "--svg", metavar="FILE", show_default=False,
        help="Also draw the picture as an SVG file (written in one step, never through a link nor over an input).",
    ),
]

ProgressFlag = Annotated[
    bool,
    typer.Option("--progress", help=(
        "Print each better turn as the search finds it ('better: gain 142, at most 160, 1.20 s (cp-sat)'; with "
        "--json one JSON line each), then the answer; seconds count as --time-limit does. One search at a time: "
        "not with --jobs or --cluster.")),
]

JobsOption = Annotated[
    int,
    typer.Option("--jobs", "-j", min=0, max=256, help="Worker processes (0: one a core)."),
]

ClusterOption = Annotated[
    str | None,
    typer.Option("--cluster", metavar="ADDRESS", show_default=False,
                 help="Run on a Dask scheduler (tcp://HOST:8786) instead of local processes; default "
                      "$RUMMY_CLUSTER, '' for none (needs pip install \"rummy\\[cluster]\")."),
]


# An inline position (rummy.inline, shared-table games): every option is text the library reads, so a
# bad value gets rummy's own one-line message naming the option.
InlineRulesOption = Annotated[
    str | None,
    typer.Option("--rules", metavar="PRESET", show_default=False, autocompletion=preset_names,
                 help="Inline position: a tile preset (default rummikub)."),
]
InlineTableOption = Annotated[
    str | None,
    typer.Option("--table", metavar="TILES", show_default=False,
                 help="Inline position: the table's tiles as one bag (\"R1 R2 R3 B5 B6 B7\"); rummy lays them "
                      "out in plays."),
]
InlineHandOption = Annotated[
    str | None,
    typer.Option("--hand", metavar="TILES", show_default=False,
                 help="Inline position: the tiles of the player to move (\"R4 K4 *\")."),
]
InlineMeldedFlag = Annotated[
    bool,
    typer.Option("--melded", help="Inline position: the player to move has made the initial meld."),
]
InlineToMoveOption = Annotated[
    str | None,
    typer.Option("--to-move", metavar="NAME", show_default=False,
                 help="Inline position: the player to move (default the first of --players, or 'you')."),
]
InlinePlayersOption = Annotated[
    str | None,
    typer.Option("--players", metavar="NAMES|N", show_default=False,
                 help="Inline position: the players' names (\"ann bob cat\") or their number (default 2)."),
]
InlineHandCountOption = Annotated[
    str | None,
    typer.Option("--hand-count", metavar="N...", show_default=False,
                 help="Inline position: the opponents' tile counts, one for all or one each (default 14, "
                      "fewer if the deck has no more)."),
]

OptionalPositionPaths = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Position files (.toml or .json), folders of them, or - for stdin; or none, with an inline "
             "position (--table, --hand, ...).", show_default=False, metavar="[POSITION]...",
    ),
]

OptionalPositionPath = Annotated[
    Path | None,
    typer.Argument(help="A position file (.toml or .json), or - for stdin; or none, with an inline position "
                        "(--table, --hand, ...).", show_default=False, metavar="[POSITION]"),
]
