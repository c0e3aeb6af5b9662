"""``rummy best POSITION...``: the best turn, as a move plan or as JSON.

Several positions (files, or folders of them) are solved one after another
in one process; with ``--json`` each answer is one JSON object on its own
line. A bad file (or a folder's entry that is no file, a pipe that sends
nothing within ``PIPE_WAIT_SECONDS``) gets its one error line in its place and
the others are still solved; the exit code is the worst seen
(``output.worse``: 3 a bug, 2 bad input, 4 no turn found within the time
limit, 1 no legal turn, 0 found).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Generator, Iterator, Optional, TextIO

import typer

from rummy.cli.options import (ClusterOption, JobsOption, JsonFlag, ObjectiveOption, PositionPaths, SeedOption, SvgPath,
                               TimeLimitOption)
from rummy.cli.options import WORKERS_MAX
from rummy.vocabulary import Objective

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from rummy.answer import Answer
    from rummy.cards import Card, Deck
    from rummy.checker import Verdict
    from rummy.cli.deadline import Deadline
    from rummy.cli.output import Styled
    from rummy.errors import PositionError
    from rummy.position import Position
    from rummy.solution import DrawChoice, SolverConfig

VerifyFlag = Annotated[bool, typer.Option("--verify", help="Judge each answer with the checker before printing it.")]
OrderedFlag = Annotated[bool, typer.Option(
    "--ordered", help="With --json and --jobs or --cluster: print the answers in input order, not as each is done.")]
SearchThreadsOption = Annotated[Optional[int], typer.Option(
    "--workers", min=1, max=WORKERS_MAX, show_default=False,
    help=f"Solver threads a search (1 to {WORKERS_MAX}; default 2, and 1 with --jobs or --cluster).")]


def best(
    positions: PositionPaths,
    json_output: JsonFlag = False,
    time_limit: TimeLimitOption = 30.0,
    workers: SearchThreadsOption = None,
    objective: ObjectiveOption = Objective.DEFAULT,
    seed: SeedOption = 0,
    verify: VerifyFlag = False,
    svg: SvgPath = None,
    jobs: JobsOption = 1,
    cluster: ClusterOption = None,
    ordered: OrderedFlag = False,
) -> int:
    """Find the best legal turn: a proven-optimal plan (or the best found, with its bound, at the time limit)."""
    from rummy.cli import output
    from rummy.errors import PositionError, RummyError
    from rummy.inputs import iter_position_files, position_files
    from rummy.cli.deadline import Deadline
    from rummy.parallel import cluster_address
    from rummy.solution import SolverConfig

    # $RUMMY_CLUSTER stands for --cluster, but not where a picture of one answer is asked for
    cluster = cluster_address(cluster) if svg is None or cluster else None
    if jobs != 1 or cluster:
        if svg is not None:
            raise RummyError("--svg draws one position: it does not go with --jobs or --cluster")
        config = SolverConfig(time_limit=time_limit, workers=workers or 1, objective=objective, seed=seed)
        return _best_many(positions, config, json_output, verify, jobs, cluster, ordered)
    config = SolverConfig(time_limit=time_limit, workers=workers or 2, objective=objective, seed=seed)
    deadline = Deadline(time_limit)
    worst = output.EXIT_OK
    if svg is not None:
        from rummy.cli.picture import check_svg_path

        paths = position_files(positions)
        if len(paths) != 1:
            raise RummyError(f"--svg draws one position; {len(paths)} positions were given")
        check_svg_path(svg, paths)
    for path in list(iter_position_files(positions)):
        try:
            if isinstance(path, PositionError):  # a folder's entry that is no file: its line, in its place
                raise path
            code = _solve_one(path, config, json_output, verify, deadline, svg)
        except RummyError as error:
            output.print_bad_input(error)
            code = output.EXIT_BAD_INPUT
        worst = output.worse(worst, code)
        deadline.next_answer()
    return worst


def _best_many(positions: list[Path], config: SolverConfig, json_output: bool, verify: bool, jobs: int,
               cluster: str | None, ordered: bool) -> int:
    """Many positions on ``--jobs`` processes or a ``--cluster``: each worker gets a position's text and
    sends back what is printed. JSON lines come as each answer is done (``--ordered``: in input order);
    the human view is always in input order. Ctrl-C stops the workers; what was printed stays printed."""
    import sys

    from rummy.cli import output
    from rummy.parallel import runner
    from rummy.inputs import iter_position_files

    # Listed once ahead (names only), to count them for the progress bar; a problem (a missing file,
    # a folder with no positions) is answered with its error line, in its place.
    count = sum(1 for _ in iter_position_files(positions))
    run = runner(jobs, cluster)
    total = count if sys.stderr.isatty() else None
    tasks = (_task(path, config, json_output, verify) for path in iter_position_files(positions))
    worst = output.EXIT_OK
    done = 0
    progress = _ManyProgress(total, run.where)
    streamed = json_output and not ordered
    found: Generator[Any, None, None] = run.as_done(solve_text, tasks) if streamed else run.ordered(solve_text, tasks)
    results: Iterator[Solved] = (result for _, result in found) if streamed else found
    try:
        for result in results:
            _print_result(result, json_output)
            worst = output.worse(worst, result.code)
            done += 1
            progress.advance()
    except KeyboardInterrupt:
        output.print_error(f"interrupted after {done} of {count} answers")
        raise
    finally:
        found.close()  # cancels what is in flight while the runner can still do it
        progress.close()
        run.close()
    return worst


@dataclass(frozen=True)
class Solved:
    """What one worker sends back for one position: the exit code and what to print."""

    source: str
    code: int
    data: dict[str, Any] | None = None  # the --json object
    lines: tuple[Any, ...] = ()  # the human view (Styled lines)
    errors: tuple[str, ...] = ()  # lines for stderr


@dataclass(frozen=True)
class PositionTask:
    """One position for a worker: its text, read here (workers may be other machines), or why it could not be."""

    path: str  # as the command line gave it (its answer's "file")
    source: str  # as error lines name it
    text: str | None
    kind: str
    config: SolverConfig
    json_output: bool
    verify: bool
    unread: tuple[str, ...] = ()  # the error lines of a file that could not be read


def _task(path: Path | PositionError, config: SolverConfig, json_output: bool, verify: bool) -> tuple[PositionTask]:
    from rummy.errors import PositionError, RummyError, error_lines
    from rummy.inputs import PIPE_WAIT_SECONDS, read_text, source_name, text_kind

    if isinstance(path, PositionError):  # a folder's entry that is no file
        return (PositionTask(path.place, path.place, None, "toml", config, json_output, verify, tuple(error_lines(path))),)
    source = source_name(path)
    try:
        text = read_text(path, wait=PIPE_WAIT_SECONDS)
    except RummyError as error:
        return (PositionTask(str(path), source, None, "toml", config, json_output, verify, tuple(error_lines(error))),)
    return (PositionTask(str(path), source, text, text_kind(path, text), config, json_output, verify),)


def solve_text(task: PositionTask) -> Solved:
    """In a worker: the answer to one position given as text, as ``rummy best`` prints it."""
    from dataclasses import replace

    from rummy.cli import output
    from rummy.cli.deadline import AFTER_SEARCH_SECONDS, LEAST_SEARCH_SECONDS
    from rummy.errors import RummyError, error_lines
    from rummy.position import Position

    source = task.source
    if task.text is None:
        return Solved(source, output.EXIT_BAD_INPUT, errors=task.unread)
    try:
        position = Position.from_text(task.text, source, task.kind)
        limit = max(task.config.time_limit - AFTER_SEARCH_SECONDS, LEAST_SEARCH_SECONDS)
        _, code, data, lines, errors = _answer(position, Path(task.path), replace(task.config, time_limit=limit),
                                               task.json_output, task.verify)
    except RummyError as error:
        return Solved(source, output.EXIT_BAD_INPUT, errors=tuple(error_lines(error)))
    except Exception as error:  # noqa: BLE001 - one position's bug must not stop the others
        return Solved(source, output.EXIT_INTERNAL, errors=(f"{source}: internal error: {type(error).__name__}: {error}",))
    return Solved(source, code, data, tuple(lines), tuple(errors))


def _print_result(result: Solved, json_output: bool) -> None:
    import sys

    from rummy.cli import output

    for line in result.errors:
        output.print_error(line)
    if json_output and result.data is not None:
        output.print_json_line(result.data)
    elif result.lines:
        output.print_lines(result.lines)
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


def _answer(position: Position, path: Path, config: SolverConfig, json_output: bool, verify: bool,
            on_progress: Any = None) -> tuple[Answer, int, dict[str, Any] | None, list[Styled | str], list[str]]:
    """Solve one position: the answer, its exit code, its --json object (with --json), its human lines
    (without), its error lines."""
    from dataclasses import replace

    from rummy.cli import output
    from rummy.answer import best

    answer = best(position, replace(config, progress=on_progress) if on_progress is not None else config)
    verdict = _verified(answer, path) if verify else None
    data = None
    lines: list[Styled | str] = []
    if json_output:
        data = {"file": str(path), **verified_data(answer, verdict)}
    else:
        lines = answer_lines(path, answer, verdict)
    errors = []
    if verdict is not None and not verdict.legal:
        errors.append(f"{path}: the checker rejects this answer: {', '.join(verdict.codes)} (a bug in rummy)")
        return answer, output.EXIT_INTERNAL, data, lines, errors
    return answer, _status_code(answer.solution.status), data, lines, errors


def _status_code(status: str) -> int:
    """The exit code of an answer: 1 no legal turn, 4 none found within the time limit, else 0."""
    from rummy.cli import output
    from rummy.vocabulary import Status

    if status == Status.NO_LEGAL_TURN:
        return output.EXIT_NEGATIVE
    if status == Status.UNKNOWN:
        return output.EXIT_NO_ANSWER
    return output.EXIT_OK


def verified_data(answer: Answer, verdict: Verdict | None) -> dict[str, Any]:
    """The ``best --json`` object, with the checker's verdict on it (``--verify``) when there is one."""
    from rummy.answer import answer_data

    data = answer_data(answer)
    if verdict is not None:
        data["verified"] = verdict.legal
        if not verdict.legal:
            data["verify_breaches"] = [b.to_data() for b in verdict.breaches]
    return data


def _verified(answer: Answer, path: Path) -> Verdict | None:
    from rummy.answer import verify_answer
    from rummy.errors import RummyError, with_prefix

    try:
        return verify_answer(answer)
    except RummyError as error:  # the answer cannot be judged: name the file it came from
        raise with_prefix(error, f"{path}: --verify") from None


def _solve_one(path: Path, config: SolverConfig, json_output: bool, verify: bool, deadline: Deadline,
               svg: Path | None = None) -> int:
    from dataclasses import replace

    from rummy.answer import solver_for
    from rummy.inputs import PIPE_WAIT_SECONDS, read_text, source_name, text_kind
    from rummy.position import Position

    text = read_text(path, wait=PIPE_WAIT_SECONDS)  # a pipe must not hold up the positions after it
    position = Position.from_text(text, source_name(path), text_kind(path, text))
    solver_for(position, config)  # imports the family's model first: the import counts against the limit
    with _DrawProgress(position) as progress:
        answer, code, data, lines, errors = _answer(
            position, path, replace(config, time_limit=deadline.search_seconds()), json_output, verify, progress.update)
    if svg is not None:
        from rummy.cli.picture import write_svg
        from rummy.svg import plan_svg

        write_svg(svg, plan_svg(answer), [path])
    _print_result(Solved(str(path), code, data, tuple(lines), tuple(errors)), json_output)
    return code


# Nothing is shown for a search shorter than this (seconds).
PROGRESS_DELAY = 0.5


class _DrawProgress:
    """Shown on a terminal's stderr once a search has run half a second (nothing elsewhere), and
    cleared when it ends: draw advice makes many searches, so a bar counts them; a play-phase
    search is one, so a spinner with the time elapsed."""

    def __init__(self, position: Position, delay: float = PROGRESS_DELAY, stream: TextIO | None = None) -> None:
        import sys
        import threading

        from rummy.vocabulary import Phase

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


def answer_lines(path: Path, answer: Answer, verdict: Verdict | None) -> list[Styled | str]:
    """The human view of an answer, in the words of ``rummy.words`` (the pictures say the same)."""
    from rummy.cli.output import cards_text, text, words_text
    from rummy.plays import Play
    from rummy.vocabulary import Status
    from rummy.words import breakdown_words, owner_note, step_words, unvalued_words, verdict_words

    solution = answer.solution
    position = answer.position
    deck = position.rules.deck
    lines: list[Styled | str] = [text((str(path), "bold"), f"  ({position.rules.name}, {position.to_move} to move)")]
    no_turn = solution.status in (Status.NO_LEGAL_TURN, Status.UNKNOWN)
    lines.append(words_text(verdict_words(answer), deck, strong="bold red" if no_turn else "bold"))
    if solution.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return lines
    breakdown = breakdown_words(answer)
    if breakdown:
        lines.append(words_text(("  ", *breakdown), deck))
    draw = solution.draw
    if draw is not None and draw.chosen is not None:
        lines += _draw_lines(draw, deck)
        unvalued = solution.stats.get("draws_not_valued_in_time", 0)
        if unvalued:
            lines.append(words_text(unvalued_words(unvalued), deck, strong="yellow"))
        if solution.after is None:  # a random draw: the turn waits for the card
            if verdict is not None:
                lines.append(text(("draw verified by the checker", "green") if verdict.legal else ("REJECTED by the checker", "bold red")))
            return lines
    lines.append("")
    for number, step in enumerate(answer.plan.steps if answer.plan else (), 1):
        lines.append(text(f"{number:>2}. ", words_text(step_words(step), deck)))
    if verdict is not None:
        lines.append("")
        lines.append(text(("verified by the checker", "green") if verdict.legal else ("REJECTED by the checker", "bold red")))
    lines.append("")
    after = solution.after
    if after is None:
        lines.append(text(("table after the turn", "bold")))
        return lines
    from rummy.plan import plan_marks

    marks = plan_marks(answer.plan, after) if answer.plan else {}
    legend: list[str | tuple[str, str]] = []
    for mark, what in _MARK_WORDS.items():
        if any(mark in m for play in marks.values() for m in play.values()):
            legend += [", " if legend else " (cards marked on a terminal: ", (f" {what} ", _MARK_STYLES[mark])]
    lines.append(text(("table after the turn", "bold"), *(legend + [")"] if legend else [])))
    names = answer.plan.names if answer.plan else {}
    for name in after.named_plays():
        shown = names.get(name, name)
        note = owner_note(name, shown, position.rules)
        owner = f" ({note})" if note else ""
        cards = Play(after.play_with_layoffs(name)).ordered(position.rules)
        lines.append(text(f"  {shown:>8}  ", _marked_cards(cards, marks.get(name, {}), deck), owner))
    hand = after.player(position.to_move).hand or ()
    lines.append(text(f"  {'hand':>8}  ", cards_text(hand, deck) if hand else "(empty)"))
    return lines


# The cards a turn changed, highlighted in the table after it (the SVG picture's marks).
_MARK_STYLES = {"played": "on dark_green", "moved": "on blue", "stolen": "on dark_red", "joker": "on purple"}
_MARK_WORDS = {"played": "from the hand", "moved": "moved", "stolen": "stolen", "joker": "in a joker's place"}


def _marked_cards(cards: tuple[Card, ...], marks: dict[Card, list[str]], deck: Deck) -> Styled:
    from rummy.cli.output import card_text, text

    left = {card: list(found) for card, found in marks.items()}
    pieces = []
    for card in cards:
        found = left.get(card.plain())
        pieces.append(card_text(card, deck, _MARK_STYLES[found.pop()] if found else ""))
    return text(" ").join(pieces)


def _draw_lines(draw: DrawChoice, deck: Deck) -> list[Styled | str]:
    """The draw phase: every option ranked by its value, what it takes, and the note that values look one turn ahead."""
    from rummy.cli.output import text, words_text
    from rummy.words import DRAW_OPTIONS_NOTE, DRAW_OPTIONS_TITLE, OPTIONS_SHOWN, more_options_words, number, option_words

    lines: list[Styled | str] = ["", text((DRAW_OPTIONS_TITLE, "bold"), DRAW_OPTIONS_NOTE)]
    for rank, option in enumerate(draw.options[:OPTIONS_SHOWN], 1):
        style = "bold green" if rank == 1 else ""
        lines.append(text(f"  {rank:>2}. ", (f"{number(option.value):>8}", style), "  ",
                          words_text(option_words(option, draw), deck)))
    more = more_options_words(draw)
    if more is not None:
        lines.append(f"      {more}")
    chosen = draw.chosen
    assert chosen is not None
    lines.append(text("take: ", words_text(option_words(chosen, draw), deck, "bold")))
    return lines
