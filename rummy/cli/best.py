"""``rummy best POSITION...``: the best turn, as a move plan or as JSON.

Several positions (files, or folders of them) are solved one after another
in one process; with ``--json`` each answer is one JSON object on its own
line. A bad file gets its one error line and the others are still solved;
the exit code is the worst seen (2 bad input, 1 no legal turn, 0 found).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TextIO

import typer

from rummy.cli.options import (JsonFlag, ObjectiveOption, PositionPaths, SeedOption, SvgPath, TimeLimitOption,
                               WorkersOption)
from rummy.vocabulary import Objective

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from rummy.answer import Answer
    from rummy.cards import Card, Deck
    from rummy.checker import Verdict
    from rummy.cli.deadline import Deadline
    from rummy.cli.output import Styled
    from rummy.position import Position
    from rummy.solution import DrawChoice, SolverConfig

VerifyFlag = Annotated[bool, typer.Option("--verify", help="Judge each answer with the checker before printing it.")]


def best(
    positions: PositionPaths,
    json_output: JsonFlag = False,
    time_limit: TimeLimitOption = 30.0,
    workers: WorkersOption = 2,
    objective: ObjectiveOption = Objective.DEFAULT,
    seed: SeedOption = 0,
    verify: VerifyFlag = False,
    svg: SvgPath = None,
) -> int:
    """Find the best legal turn: a proven-optimal plan (or the best found, with its bound, at the time limit)."""
    from rummy.cli import output
    from rummy.errors import RummyError
    from rummy.reader import position_files
    from rummy.solution import SolverConfig

    from rummy.cli.deadline import Deadline

    config = SolverConfig(time_limit=time_limit, workers=workers, objective=objective, seed=seed)
    deadline = Deadline(time_limit)
    worst = output.EXIT_OK
    paths = position_files(positions)
    if svg is not None:
        from rummy.cli.picture import check_svg_path

        if len(paths) != 1:
            raise RummyError(f"--svg draws one position; {len(paths)} positions were given")
        check_svg_path(svg, paths)
    for path in paths:
        try:
            code = _solve_one(path, config, json_output, verify, deadline, svg)
        except RummyError as error:
            output.print_bad_input(error)
            code = output.EXIT_BAD_INPUT
        worst = max(worst, code)
        deadline.next_answer()
    return worst


def _solve_one(path: Path, config: SolverConfig, json_output: bool, verify: bool, deadline: Deadline,
               svg: Path | None = None) -> int:
    from dataclasses import replace

    from rummy.cli import output
    from rummy.answer import answer_data, best, solver_for
    from rummy.position import Position
    from rummy.vocabulary import Status

    position = Position.from_file(path)
    solver_for(position, config)  # imports the family's model first: the import counts against the limit
    with _DrawProgress(position) as progress:
        answer = best(position, replace(config, time_limit=deadline.search_seconds(), progress=progress.update))
    verdict = None
    if verify:  # every answer with a turn, the draw phase's too (a random draw: the draw alone)
        from rummy.answer import verify_answer

        from rummy.errors import RummyError, with_prefix

        try:
            verdict = verify_answer(answer)
        except RummyError as error:  # the answer cannot be judged: name the file it came from
            raise with_prefix(error, f"{path}: --verify") from None
    if svg is not None:
        from rummy.cli.picture import write_svg
        from rummy.svg import plan_svg

        write_svg(svg, plan_svg(answer), [path])
    if json_output:
        data = {"file": str(path), **answer_data(answer)}
        if verdict is not None:
            data["verified"] = verdict.legal
            if not verdict.legal:
                data["verify_breaches"] = [b.to_data() for b in verdict.breaches]
        output.print_json_line(data)
    else:
        output.print_lines(answer_lines(path, answer, verdict))
    if verdict is not None and not verdict.legal:
        output.print_error(f"{path}: the checker rejects this answer: {', '.join(verdict.codes)} (a bug in rummy)")
        return output.EXIT_INTERNAL
    return output.EXIT_NEGATIVE if answer.solution.status == Status.NO_LEGAL_TURN else output.EXIT_OK


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
            if position.phase == Phase.DRAW and position.rules.family.draws is not None:  # rummy.draw advises
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
