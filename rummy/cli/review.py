"""``rummy review GAME``: every turn of a recorded game against the best turn, as chess tools review a game.

The review is rummy.games.review's; its lines and ``--json`` rummy.reports.review's; the ``--svg`` and
``--html`` reports rummy.svg.review_picture's. This module reads the game, runs the searches (``--jobs``:
rummy.parallel), shows a progress bar on a terminal's stderr and prints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rummy.cli._options import JobsOption, JsonFlag, SvgPath, TimeLimitOption
from rummy.reports.exit_codes import EXIT_OK

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

# rummy.games.review.REVIEW_TIME_LIMIT, not imported here: the command modules load at every start.
REVIEW_TIME_LIMIT = 5.0

GamePath = Annotated[Path, typer.Argument(help="The game record (TOML or JSON, docs/formats.md \"Game records\").",
                                          show_default=False, metavar="GAME")]
PlayerOption = Annotated[str | None, typer.Option("--player", metavar="NAME", show_default=False,
                                                  help="Review this player's turns only (default: every player's).")]
HtmlPath = Annotated[Path | None, typer.Option(
    "--html", metavar="FILE", show_default=False,
    help="Also write the review as a web page: one row per turn, the worst three turns played and best side by "
         "side (written in one step, never through a link nor over the game).")]


def review(game_path: GamePath, player: PlayerOption = None, json_output: JsonFlag = False, svg: SvgPath = None,
           html: HtmlPath = None, jobs: JobsOption = 1, time_limit: TimeLimitOption = REVIEW_TIME_LIMIT) -> int:
    """Review a game: for each turn, its gain against the best turn's from the same position as the player
    saw it (the other hands hidden), the points lost, the draw against the best draw, marks ?! ? ?? for
    big losses, and a summary per player.

    rummy review game.toml --player ann

    rummy review game.toml --json --jobs 2 --html review.html
    """
    from rummy.cli._output import print_answer
    from rummy.cli._picture import check_output_path
    from rummy.games.record import GameRecord
    from rummy.games.review import review_game, solve_view
    from rummy.inputs import source_name
    from rummy.parallel import runner
    from rummy.reports.review import review_data, review_lines

    for target, option in ((svg, "--svg"), (html, "--html")):
        if target is not None:
            if str(target) == "-":
                from rummy.errors import RummyError

                raise RummyError(f"{option} -: give a file name (the report is not written to stdout)")
            check_output_path(target, [game_path], option)
    game = GameRecord.from_file(game_path)
    source = source_name(game_path)
    run = runner(jobs)
    progress = _Progress(run.where)
    try:
        reviewed = review_game(game, player, time_limit, source,
                               solve=lambda tasks: run.ordered(solve_view, tasks), progress=progress.update)
    finally:
        progress.close()
        run.close()
    print_answer(review_data(reviewed, player), review_lines(reviewed, source), json_output)
    if svg is not None or html is not None:
        from rummy.files import write_atomic
        from rummy.svg.review_picture import review_html, review_svg

        for target, build in ((svg, review_svg), (html, review_html)):
            if target is not None:
                write_atomic(target, build(reviewed, source))
                sys.stderr.write(f"review written to {target}\n")
    return EXIT_OK


class _Progress:
    """A bar of the searches made, on a terminal's stderr only (as ``best`` over many files shows one)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def update(self, done: int, total: int) -> None:
        if not sys.stderr.isatty() or total <= 1:
            return
        if self.bar is None:
            import rich.progress as bars
            from rich.console import Console

            self.bar = bars.Progress(bars.TextColumn(f"[bold]review on {self.where}"), bars.BarColumn(),
                                     bars.MofNCompleteColumn(), bars.TimeElapsedColumn(),
                                     console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task("searches", total=total)
            self.bar.start()
        if self.task is not None:
            self.bar.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
