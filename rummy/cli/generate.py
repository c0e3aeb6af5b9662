"""``rummy generate``: puzzles with a unique, verified best answer and a measured difficulty.

Writes ``OUT/NAME.toml`` (the position), ``OUT/NAME.solution.json`` (the
answer and the figures) and ``OUT/index.json``. Progress goes to stderr (a
bar on a terminal, else one line per puzzle made); the summary (made,
rejected and why) to stdout. See docs/generate.md.

Resources are bounded: at most one judging process a core (``--workers``
above that is lowered, with a note on stderr); every file is written
atomically and never through a symbolic link, no puzzle file is
overwritten, and the index is merged under a lock (rummy.generator.collection).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rummy.cli._options import SEED_MAX, ClusterOption, Preset, TimeLimitOption
from rummy.cli._output import print_lines
from rummy.errors import print_error
from rummy.reports.exit_codes import EXIT_OK
from rummy.rules import PRESETS
from rummy.solution import GENERATE_TIME_LIMIT
from rummy.vocabulary import PuzzleKind, Tier

if TYPE_CHECKING:
    from rich.progress import Progress

    from rummy.generator import Outcome, Report, Request

# The choices are named in the help text, which wraps between words; a metavar listing them all
# would be cut inside a name at 80 columns.
RulesOption = Annotated[
    Preset, typer.Option("--rules", metavar="<preset>", show_default=False,
                         help=f"The preset: {', '.join(PRESETS)} (see 'rummy rules').")
]
KindOption = Annotated[PuzzleKind, typer.Option(
    "--kind", metavar="<kind>", show_default=False,
    help="Puzzle kind: play-all, max (tile); steal, replace-meld, meld-steal, across (House); "
         "steal, draw-or-pile (Robber); go-out, most-points (straight, traditional); "
         "mined (House, tile: positions of self-played games).")]
CountOption = Annotated[int, typer.Option("--count", help="Puzzles to make.")]
TierOption = Annotated[
    Tier | None, typer.Option("--difficulty", metavar="<tier>",
                              help="Tier: easy, medium, hard or expert (default: any).",
                                 show_default=False)
]
SeedOption = Annotated[int, typer.Option(
    "--seed", min=0, max=SEED_MAX, help=f"Random seed, 0 to {SEED_MAX}: the same seed makes the same puzzles.")]
OutOption = Annotated[Path, typer.Option(
    "--out", help=("Folder for the puzzles and index.json (not a symbolic link; puzzle files already there are "
                   "never overwritten)."),
    show_default=False)]
JobsOption = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, max=256,
    help="Processes judging candidates (0: one a core); never more than the cores (lowered, with a note). "
         "The same puzzles whatever the number.")]
ProcessesOption = Annotated[int | None, typer.Option(
    "--workers", min=1, hidden=True, show_default=False, help="The former name of --jobs.")]
GamesOption = Annotated[Path | None, typer.Option(
    "--games", show_default=False,
    help="A folder of game records (rummy selfplay's) to mine, with --kind mined: candidate i is the i-th "
         "record by name (--seed then plays no part); without it, each candidate self-plays a hand.")]
CandidatesOption = Annotated[
    int | None, typer.Option("--max-candidates", min=1, show_default=False,
                             help="Give up after this many candidates (default: 400 a puzzle).")
]
def _theme_names(incomplete: str) -> list[str]:
    """The shell's completion of --theme: the themes' names (checked by rummy itself, not by typer)."""
    from rummy.themes.registry import THEMES

    return [name for name in THEMES if name.startswith(incomplete)]


ThemeOption = Annotated[list[str] | None, typer.Option(
    "--theme", metavar="<theme>", show_default=False, autocompletion=_theme_names,
    help="Keep only puzzles with this theme (repeatable: any of those given); see docs/themes.md.")]
SpreadOption = Annotated[bool, typer.Option(
    "--spread/--no-spread",
    help="Hard and expert puzzles: no theme on more than half of the run's puzzles.")]


def generate(
    rules: RulesOption,
    kind: KindOption,
    out: OutOption,
    count: CountOption = 10,
    difficulty: TierOption = None,
    seed: SeedOption = 0,
    time_limit: TimeLimitOption = GENERATE_TIME_LIMIT,
    jobs: JobsOption = 1,
    max_candidates: CandidatesOption = None,
    cluster: ClusterOption = None,
    workers: ProcessesOption = None,
    theme: ThemeOption = None,
    spread: SpreadOption = True,
    games: GamesOption = None,
) -> int:
    """Make puzzles with one best answer (checked) and a measured tier."""
    from dataclasses import replace

    from rummy.errors import RummyError, with_prefix
    from rummy.generator import Request, available_cores, name_prefix, validate
    from rummy.generator import generate as run
    from rummy.generator.collection import Collection
    from rummy.reports.generate import summary_lines

    option = "--jobs" if workers is None else "--workers"
    jobs = jobs if workers is None else workers
    from rummy.generator.mined_kinds import game_records
    from rummy.parallel import cluster_address

    records = game_records(games) if games is not None else ()
    request = Request(rules, kind, count, difficulty, seed, time_limit, jobs, max_candidates, cluster_address(cluster),
                      tuple(dict.fromkeys(theme or ())), spread, games=records)
    validate(request)
    try:
        # Before any work: a linked or unusable --out, an unreadable index, puzzle names already taken.
        collection = Collection(out, name_prefix(request))
    except RummyError as error:
        raise with_prefix(error, "--out") from None
    cores = available_cores()
    if jobs > cores and not request.cluster:
        print_error(f"note: {option} {jobs} lowered to {cores}, the cores this machine lets rummy use")
        request = replace(request, workers=cores)
    command = _command(request, games)
    progress = _Progress(request)

    written: list[str] = []

    def on_outcome(outcome: Outcome, report: Report) -> None:
        if outcome.puzzle is not None:
            try:
                collection.add(outcome.puzzle, command)  # the files and the index, now: Ctrl-C keeps them
            except RummyError as error:
                raise with_prefix(error, "--out") from None
            written.append(outcome.puzzle.name)
        progress.update(outcome, report)

    try:
        report = run(request, on_outcome)
    except KeyboardInterrupt:
        progress.close()
        print_error(f"interrupted: {len(written)} puzzles written to {out}, with their index")
        raise
    finally:
        progress.close()
        collection.close()
    print_lines(summary_lines(report, out))
    if report.short:
        print_error(
            f"made only {len(report.puzzles)} of {count} puzzles in {report.candidates} candidates; "
            "raise --max-candidates, or try another seed or tier"
        )
    return EXIT_OK


def _command(request: Request, games: Path | None = None) -> str:
    parts = [f"rummy generate --rules {request.rules} --kind {request.kind} --count {request.count}"]
    if request.tier:
        parts.append(f"--difficulty {request.tier}")
    parts.append(f"--seed {request.seed}")
    if request.time_limit != GENERATE_TIME_LIMIT:
        parts.append(f"--time-limit {request.time_limit:g}")
    parts += [f"--theme {name}" for name in request.themes]
    if not request.spread:
        parts.append("--no-spread")
    if games is not None:
        parts.append(f"--games {games}")
    return " ".join(parts)


class _Progress:
    """A rich bar on a terminal's stderr; otherwise one plain line per puzzle made."""

    def __init__(self, request: Request) -> None:
        import sys

        self.request = request
        self.bar: Progress | None = None
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[status]}"), TimeElapsedColumn(),
                console=Console(stderr=True), transient=True,
            )
            self.task = self.bar.add_task("puzzles", total=request.count, status="")
            self.bar.start()

    def update(self, outcome: Outcome, report: Report) -> None:
        import sys

        if self.bar is not None:
            status = f"{report.candidates} candidates, {sum(report.rejected.values())} rejected"
            self.bar.update(self.task, completed=len(report.puzzles), status=status)
        elif outcome.puzzle is not None:
            made = f"{len(report.puzzles)}/{self.request.count}"
            sys.stderr.write(f"made {made}: {outcome.puzzle.name} ({outcome.puzzle.tier})\n")
            sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
