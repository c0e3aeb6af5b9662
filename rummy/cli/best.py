"""``rummy best POSITION...``: the best turn, as a move plan or as JSON.

Several positions (files, or folders of them) are solved one after another
in one process; with ``--json`` each answer is one JSON object on its own
line. A bad file (or a folder's entry that is no file, a pipe that sends
nothing within ``PIPE_WAIT_SECONDS``) gets its one error line in its place and
the others are still solved; the exit code is the worst seen
(``rummy.reports.exit_codes.worse``: 3 a bug, 2 bad input, 4 no turn found within the time
limit, 1 no legal turn, 0 found).
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

from rummy.cli._options import (
    WORKERS_MAX,
    ClusterOption,
    InlineHandCountOption,
    InlineHandOption,
    InlineMeldedFlag,
    InlinePlayersOption,
    InlineRulesOption,
    InlineTableOption,
    InlineToMoveOption,
    JobsOption,
    JsonFlag,
    ObjectiveOption,
    OptionalPositionPaths,
    ProgressFlag,
    SeedOption,
    SvgPath,
    TimeLimitOption,
)
from rummy.cli._output import print_bad_input, print_json_line, print_lines, print_warnings
from rummy.deadline import Deadline
from rummy.errors import PositionError, RummyError, error_lines, print_error
from rummy.reports.exit_codes import EXIT_BAD_INPUT, EXIT_OK, worse
from rummy.vocabulary import Objective, Phase

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from rummy.answer import Answer
    from rummy.inline import InlineParts
    from rummy.position import Position
    from rummy.reports.best import PositionTask, Solved
    from rummy.solution import Improvement, SolverConfig

VerifyFlag = Annotated[bool, typer.Option("--verify", help="Judge each answer with the checker before printing it.")]
OrderedFlag = Annotated[bool, typer.Option(
    "--ordered", help="With --json and --jobs or --cluster: print the answers in input order, not as each is done.")]
SearchThreadsOption = Annotated[int | None, typer.Option(
    "--workers", min=1, max=WORKERS_MAX, show_default=False,
    help=f"Solver threads a search (1 to {WORKERS_MAX}; default 2, and 1 with --jobs or --cluster).")]


def best(
    positions: OptionalPositionPaths = None,
    json_output: JsonFlag = False,
    time_limit: TimeLimitOption = 30.0,
    workers: SearchThreadsOption = None,
    objective: ObjectiveOption = Objective.DEFAULT,
    seed: SeedOption = 0,
    verify: VerifyFlag = False,
    progress: ProgressFlag = False,
    svg: SvgPath = None,
    jobs: JobsOption = 1,
    cluster: ClusterOption = None,
    ordered: OrderedFlag = False,
    rules_name: InlineRulesOption = None,
    table: InlineTableOption = None,
    hand: InlineHandOption = None,
    melded: InlineMeldedFlag = False,
    to_move: InlineToMoveOption = None,
    players: InlinePlayersOption = None,
    hand_count: InlineHandCountOption = None,
) -> int:
    """Find the best legal turn: a proven-optimal plan (or the best found, with its bound, at the time limit)."""
    from rummy.inline import InlineParts, check_inline_alone
    from rummy.inputs import iter_position_files, position_files
    from rummy.parallel import cluster_address
    from rummy.solution import SolverConfig

    inline = InlineParts(rules_name, table, hand, melded, to_move, players, hand_count)
    positions = positions or []
    check_inline_alone(inline, len(positions))
    if inline.given():
        if jobs != 1 or cluster:
            raise RummyError("an inline position is one position: --jobs and --cluster are for many files")
        config = SolverConfig(time_limit=time_limit, workers=workers or 2, objective=objective, seed=seed)
        return _best_inline(inline, config, json_output, verify, svg, progress)
    if progress and (jobs != 1 or cluster):
        raise RummyError("--progress follows one search at a time: it does not go with --jobs or --cluster")

    # $RUMMY_CLUSTER stands for --cluster, but not where a picture of one answer, or its progress, is asked for
    cluster = cluster_address(cluster) if (svg is None and not progress) or cluster else None
    if jobs != 1 or cluster:
        if svg is not None:
            raise RummyError("--svg draws one position: it does not go with --jobs or --cluster")
        config = SolverConfig(time_limit=time_limit, workers=workers or 1, objective=objective, seed=seed)
        return _best_many(positions, config, json_output, verify, jobs, cluster, ordered)
    config = SolverConfig(time_limit=time_limit, workers=workers or 2, objective=objective, seed=seed)
    deadline = Deadline(time_limit)
    worst = EXIT_OK
    if svg is not None:
        from rummy.cli._picture import check_svg_path

        paths = position_files(positions)
        if len(paths) != 1:
            raise RummyError(f"--svg draws one position; {len(paths)} positions were given")
        check_svg_path(svg, paths)
    for path in list(iter_position_files(positions)):
        try:
            if isinstance(path, PositionError):  # a folder's entry that is no file: its line, in its place
                raise path
            code = _solve_one(path, config, json_output, verify, deadline, svg, progress)
        except RummyError as error:
            print_bad_input(error)
            code = EXIT_BAD_INPUT
        worst = worse(worst, code)
        deadline.next_answer()
    return worst


def _best_many(positions: list[Path], config: SolverConfig, json_output: bool, verify: bool, jobs: int,
               cluster: str | None, ordered: bool) -> int:
    """Many positions on ``--jobs`` processes or a ``--cluster``: each worker gets a position's text and
    sends back what is printed. JSON lines come as each answer is done (``--ordered``: in input order);
    the human view is always in input order. Ctrl-C stops the workers; what was printed stays printed."""
    from rummy.inputs import iter_position_files
    from rummy.parallel import runner
    from rummy.reports.best import solve_text

    # Listed once ahead (names only), to count them for the progress bar; a problem (a missing file,
    # a folder with no positions) is answered with its error line, in its place.
    count = sum(1 for _ in iter_position_files(positions))
    run = runner(jobs, cluster)
    total = count if sys.stderr.isatty() else None
    tasks = (_task(path, config, json_output, verify) for path in iter_position_files(positions))
    worst = EXIT_OK
    done = 0
    progress = _ManyProgress(total, run.where)
    streamed = json_output and not ordered
    found: Generator[Any, None, None] = run.as_done(solve_text, tasks) if streamed else run.ordered(solve_text, tasks)
    results: Iterator[Solved] = (result for _, result in found) if streamed else found
    try:
        for result in results:
            _print_result(result, json_output)
            worst = worse(worst, result.code)
            done += 1
            progress.advance()
    except KeyboardInterrupt:
        print_error(f"interrupted after {done} of {count} answers")
        raise
    finally:
        found.close()  # cancels what is in flight while the runner can still do it
        progress.close()
        run.close()
    return worst


def _task(path: Path | PositionError, config: SolverConfig, json_output: bool, verify: bool) -> tuple[PositionTask]:
    """A position for a worker (rummy.reports.best.solve_text): the file's text, read here, or why it could not be."""
    from rummy.inputs import PIPE_WAIT_SECONDS, read_text, source_name, text_kind
    from rummy.reports.best import PositionTask

    if isinstance(path, PositionError):  # a folder's entry that is no file
        refused = tuple(error_lines(path))
        return (PositionTask(path.place, path.place, None, "toml", config, json_output, verify, refused),)
    source = source_name(path)
    try:
        text = read_text(path, wait=PIPE_WAIT_SECONDS)
    except RummyError as error:
        return (PositionTask(str(path), source, None, "toml", config, json_output, verify, tuple(error_lines(error))),)
    return (PositionTask(str(path), source, text, text_kind(path, text), config, json_output, verify),)


def _print_result(result: Solved, json_output: bool) -> None:
    for line in result.errors:
        print_error(line)
    print_warnings(result.warnings)
    if json_output and result.data is not None:
        print_json_line(result.data)
    elif result.lines:
        print_lines(result.lines)
    sys.stdout.flush()  # a line per answer as it is done, also into a pipe


class _ManyProgress:
    """One bar for many positions, on a terminal's stderr only."""

    def __init__(self, total: int | None, where: str) -> None:
        self.bar: Progress | None = None
        if total is not None and total > 1:
            import rich.progress as bars
            from rich.console import Console

            self.bar = bars.Progress(bars.TextColumn(f"[bold]best on {where}"), bars.BarColumn(),
                                     bars.MofNCompleteColumn(), bars.TimeElapsedColumn(),
                                     console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task("positions", total=total)
            self.bar.start()

    def advance(self) -> None:
        if self.bar is not None:
            self.bar.advance(self.task)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _solve_one(path: Path, config: SolverConfig, json_output: bool, verify: bool, deadline: Deadline,
               svg: Path | None = None, progress: bool = False) -> int:
    from rummy.answer import solver_for
    from rummy.inputs import PIPE_WAIT_SECONDS, read_text, source_name, text_kind
    from rummy.position import Position
    from rummy.reports.position_warnings import position_warnings

    text = read_text(path, wait=PIPE_WAIT_SECONDS)  # a pipe must not hold up the positions after it
    position = Position.from_text(text, source_name(path), text_kind(path, text))
    print_warnings(position_warnings(position))  # before the search: they may say it is not what was meant
    solver_for(position, config)  # imports the family's model first: the import counts against the limit
    answer, solved = _searched(position, path, str(path), config, json_output, verify, deadline, progress)
    if svg is not None:
        from rummy.cli._picture import write_svg
        from rummy.svg import plan_svg

        write_svg(svg, plan_svg(answer), [path])
    _print_result(solved, json_output)
    return solved.code


def _searched(position: Position, path: Path, source: str, config: SolverConfig, json_output: bool, verify: bool,
              deadline: Deadline, progress: bool) -> tuple[Answer, Solved]:
    """The answer, searched within what ``deadline`` leaves: with ``progress``, each better turn printed as it
    is found (``_BetterLines``); else, on a terminal, the bar or spinner of a long search (``_DrawProgress``)."""
    from rummy.reports.best import solve

    config = replace(config, time_limit=deadline.search_seconds())
    if progress:
        with _BetterLines(position, config, json_output, deadline.started) as better:
            return solve(position, path, source, replace(config, on_better=better.hear), json_output, verify)
    with _DrawProgress(position) as bar:
        return solve(position, path, source, config, json_output, verify, bar.update)


def _best_inline(inline: InlineParts, config: SolverConfig, json_output: bool, verify: bool, svg: Path | None,
                 progress: bool = False) -> int:
    """An inline position (rummy.inline): solved as a file is, its answer saying what was assumed."""
    from rummy.answer import solver_for
    from rummy.inline import SOURCE, inline_position
    from rummy.reports.inline import with_assumed

    if svg is not None:
        from rummy.cli._picture import check_svg_path

        check_svg_path(svg, [])
    deadline = Deadline(config.time_limit)
    position, assumed = inline_position(inline)
    solver_for(position, config)
    answer, solved = _searched(position, Path(SOURCE), SOURCE, config, json_output, verify, deadline, progress)
    if svg is not None:
        from rummy.cli._picture import write_svg
        from rummy.svg import plan_svg

        write_svg(svg, plan_svg(answer), [])
    _print_result(with_assumed(solved, assumed, position), json_output)
    return solved.code


class _BetterLines:
    """``best --progress``: each better turn the search tells (``SolverConfig.on_better``) printed on stdout
    before the answer, a line each (docs/cli.md). The searching thread only hands the turn over, with the
    seconds since ``origin`` (the answer's start, as --time-limit counts); the line (the turn planned and
    its text judged by the checker) is made and printed in a thread of its own, so the search goes on
    meanwhile. Leaving waits for every line, so the answer comes last; a problem met printing (a bug, a
    reader gone) is raised there, in the command's own thread."""

    def __init__(self, position: Position, config: SolverConfig, json_output: bool, origin: float) -> None:
        import queue
        import threading

        self.position = position
        self.objective = config.objective
        self.json_output = json_output
        self.origin = origin
        self.heard: queue.SimpleQueue[Improvement | None] = queue.SimpleQueue()
        self.failure: BaseException | None = None
        self.interrupted = False
        self.thread = threading.Thread(target=self._print_each, name="rummy-progress", daemon=True)

    def hear(self, improvement: Improvement) -> None:
        import time

        from rummy.reports.best import answers_position

        if answers_position(self.position, improvement):
            self.heard.put(replace(improvement, seconds=time.perf_counter() - self.origin))

    def __enter__(self) -> _BetterLines:
        self.thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        self.interrupted = kind is not None  # Ctrl-C or an error: the lines still waiting are not printed
        self.heard.put(None)
        self.thread.join(None if kind is None else INTERRUPTED_PRINT_SECONDS)
        if kind is None and self.failure is not None:
            raise self.failure

    def _print_each(self) -> None:
        from rummy.reports.best import progress_data, progress_line

        while (improvement := self.heard.get()) is not None:
            if self.interrupted or self.failure is not None:
                continue
            try:
                data = progress_data(self.position, improvement, self.objective)
                if self.json_output:
                    print_json_line({"progress": data})
                else:
                    print_lines([progress_line(data)])
                sys.stdout.flush()  # each line as it is found, also into a pipe
            except BaseException as error:  # noqa: BLE001 - raised again in the command's thread (__exit__)
                self.failure = error


# After Ctrl-C, the line being printed is given this long to finish (a line half written is worse).
INTERRUPTED_PRINT_SECONDS = 1.0


# Nothing is shown for a search shorter than this (seconds).
PROGRESS_DELAY = 0.5


class _DrawProgress:
    """Shown on a terminal's stderr once a search has run half a second (nothing elsewhere), and
    cleared when it ends: draw advice makes many searches, so a bar counts them; a play-phase
    search is one, so a spinner with the time elapsed."""

    def __init__(self, position: Position, delay: float = PROGRESS_DELAY, stream: TextIO | None = None) -> None:
        import threading

        stream = sys.stderr if stream is None else stream
        self.bar: Progress | None = None
        self.task: TaskID | None = None
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None
        self.started = False
        self.delay = delay
        if stream.isatty():
            import rich.progress as bars
            from rich.console import Console

            console = Console(file=stream)
            if position.phase == Phase.DRAW and position.rules.family.draws is not None:  # rummy.draw_advice advises
                self.bar = bars.Progress(bars.TextColumn("[bold]draw advice: searching the turn after each draw"),
                                         bars.BarColumn(), bars.MofNCompleteColumn(), bars.TimeElapsedColumn(),
                                         console=console, transient=True)
            else:
                self.bar = bars.Progress(bars.SpinnerColumn(), bars.TextColumn("[bold]searching for the best turn"),
                                         bars.TimeElapsedColumn(), console=console, transient=True)
                self.task = self.bar.add_task("search", total=None)

    def __enter__(self) -> _DrawProgress:
        if self.bar is not None:
            import threading

            self.timer = threading.Timer(self.delay, self._start)
            self.timer.daemon = True
            self.timer.start()
        return self

    def _start(self) -> None:
        with self.lock:
            if self.bar is not None and self.timer is not None:  # not stopped meanwhile
                self.bar.start()
                self.started = True

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            return
        if self.task is None:
            self.task = self.bar.add_task("searches", total=total)
        self.bar.update(self.task, completed=done, total=total)

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if self.bar is not None and self.started:
                self.bar.stop()
                self.started = False
