"""``rummy best``'s answer: a position solved, as its ``--json`` object and its lines, with the
checker's verdict (``--verify``) and the exit code; and one position solved from its text, as a
worker of ``best --jobs``/``--cluster`` (or of the server) does it; and the progress lines of
``best --progress`` (and of the server's ``POST /api/best`` with ``progress``): each better turn told while
the search goes on, as an answer of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rummy.answer import Answer, answer_data, best, verify_answer
from rummy.deadline import AFTER_SEARCH_SECONDS, LEAST_SEARCH_SECONDS
from rummy.errors import RummyError, error_lines, with_prefix
from rummy.plan import plan_marks
from rummy.plays import Play
from rummy.position import Position
from rummy.reports.exit_codes import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_NEGATIVE, EXIT_NO_ANSWER, EXIT_OK
from rummy.reports.lines import Styled, card_text, cards_text, text, words_text
from rummy.reports.position_warnings import position_warnings
from rummy.solution import Improvement, SolverConfig
from rummy.turn_text import answer_turn_text
from rummy.vocabulary import Objective, Phase, Status
from rummy.words import (
    DRAW_OPTIONS_NOTE,
    DRAW_OPTIONS_TITLE,
    OPTIONS_SHOWN,
    breakdown_words,
    more_options_words,
    number,
    option_words,
    owner_note,
    step_words,
    table_bag_words,
    unvalued_words,
    verdict_words,
)

if TYPE_CHECKING:
    from rummy.cards import Card, Deck
    from rummy.checker import Verdict
    from rummy.solution import DrawChoice


@dataclass(frozen=True)
class Solved:
    """What one worker sends back for one position: the exit code and what to print."""

    source: str
    code: int
    data: dict[str, Any] | None = None  # the --json object
    lines: tuple[Any, ...] = ()  # the human view (Styled lines)
    errors: tuple[str, ...] = ()  # lines for stderr
    warnings: tuple[str, ...] = ()  # the position's warnings (rummy.reports.position_warnings), for stderr


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


def solve_text(task: PositionTask) -> Solved:
    """In a worker: the answer to one position given as text, as ``rummy best`` prints it."""
    source = task.source
    if task.text is None:
        return Solved(source, EXIT_BAD_INPUT, errors=task.unread)
    try:
        position = Position.from_text(task.text, source, task.kind)
        limit = max(task.config.time_limit - AFTER_SEARCH_SECONDS, LEAST_SEARCH_SECONDS)
        _, solved = solve(position, Path(task.path), source, replace(task.config, time_limit=limit),
                          task.json_output, task.verify)
        solved = replace(solved, warnings=tuple(position_warnings(position)))
    except RummyError as error:
        return Solved(source, EXIT_BAD_INPUT, errors=tuple(error_lines(error)))
    except Exception as error:  # noqa: BLE001 - one position's bug must not stop the others
        return Solved(source, EXIT_INTERNAL, errors=(f"{source}: internal error: {type(error).__name__}: {error}",))
    return solved


def solve(position: Position, path: Path, source: str, config: SolverConfig, json_output: bool, verify: bool,
          on_progress: Any = None) -> tuple[Answer, Solved]:
    """Solve one position: the answer, and what to print (``source`` names it): its exit code, its --json
    object (with --json), its human lines (without), its error lines."""
    answer = best(position, replace(config, progress=on_progress) if on_progress is not None else config)
    verdict = verified(answer, path) if verify else None
    data = None
    lines: list[Styled | str] = []
    if json_output:
        data = {"file": str(path), **verified_data(answer, verdict)}
        warnings = position_warnings(position)
        if warnings:  # a key added only where there are warnings: answers of clean positions stay as they were
            data["warnings"] = warnings
    else:
        lines = answer_lines(path, answer, verdict)
    if verdict is not None and not verdict.legal:
        rejected = f"{path}: the checker rejects this answer: {', '.join(verdict.codes)} (a bug in rummy)"
        return answer, Solved(source, EXIT_INTERNAL, data, tuple(lines), (rejected,))
    return answer, Solved(source, status_code(answer.solution.status), data, tuple(lines))


def status_code(status: str) -> int:
    """The exit code of an answer: 1 no legal turn, 4 none found within the time limit, else 0."""
    if status == Status.NO_LEGAL_TURN:
        return EXIT_NEGATIVE
    if status == Status.UNKNOWN:
        return EXIT_NO_ANSWER
    return EXIT_OK


def verified_data(answer: Answer, verdict: Verdict | None) -> dict[str, Any]:
    """The ``best --json`` object, with the checker's verdict on it (``--verify``) when there is one, and
    ``table_bag`` where the position's table was given as a bag (the command line's and the server's alike)."""
    data = answer_data(answer)
    if verdict is not None:
        data["verified"] = verdict.legal
        if not verdict.legal:
            data["verify_breaches"] = [b.to_data() for b in verdict.breaches]
    if answer.position.table_bag is not None:
        data["table_bag"] = answer.position.table_bag
    return data


def verified(answer: Answer, path: Path) -> Verdict | None:
    """The checker's verdict on the answer (``--verify``); errors name the file it came from."""
    try:
        return verify_answer(answer)
    except RummyError as error:  # the answer cannot be judged: name the file it came from
        raise with_prefix(error, f"{path}: --verify") from None


def answer_lines(path: Path, answer: Answer, verdict: Verdict | None) -> list[Styled | str]:
    """The human view of an answer, in the words of ``rummy.words`` (the pictures say the same)."""
    solution = answer.solution
    position = answer.position
    deck = position.rules.deck
    lines: list[Styled | str] = [text((str(path), "bold"), f"  ({position.rules.name}, {position.to_move} to move)")]
    arranged = table_bag_words(position)
    if arranged:
        lines.append(text((arranged, "italic")))
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
                lines.append(text(("draw verified by the checker", "green") if verdict.legal
                                  else ("REJECTED by the checker", "bold red")))
            return lines
    lines.append("")
    for index, step in enumerate(answer.plan.steps if answer.plan else (), 1):
        lines.append(text(f"{index:>2}. ", words_text(step_words(step), deck)))
    turn = answer_turn_text(answer)
    if turn is not None:  # the whole turn in one line, to copy into 'rummy play' or a game record
        lines += ["", text(("turn: ", "bold"), turn)]
    if verdict is not None:
        lines.append("")
        lines.append(text(("verified by the checker", "green") if verdict.legal
                          else ("REJECTED by the checker", "bold red")))
    lines.append("")
    after = solution.after
    if after is None:
        lines.append(text(("table after the turn", "bold")))
        return lines
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
    left = {card: list(found) for card, found in marks.items()}
    pieces = []
    for card in cards:
        found = left.get(card.plain())
        pieces.append(card_text(card, deck, _MARK_STYLES[found.pop()] if found else ""))
    return text(" ").join(pieces)


def _draw_lines(draw: DrawChoice, deck: Deck) -> list[Styled | str]:
    """The draw phase: every option ranked by its value, what it takes, and the note that values look one turn ahead."""
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


# ------------------------------------------------------------------ answers that improve while you watch
def answers_position(position: Position, improvement: Improvement) -> bool:
    """Whether a better turn told by the search is an answer to ``position`` itself. In the draw phase,
    draw advice tells its options as they are valued (``total`` searches); a turn told by one of its
    play-phase searches, after one draw, is not (its gain counts from another position): left out."""
    advised = position.phase == Phase.DRAW and position.rules.family.draws is not None
    return not advised or improvement.total > 0


def progress_answer(position: Position, improvement: Improvement, objective: Objective = Objective.DEFAULT) -> Answer:
    """A better turn told while the search goes on (``SolverConfig.on_better``) as an answer of its own:
    status ``feasible`` with the bound proven so far, planned as the final answer is (so its ``after`` names
    its plays as ``best --json`` does); in the draw phase, the options valued so far, the first chosen."""
    from rummy.answer import planned
    from rummy.solution import DrawChoice, Solution

    draw = None
    if improvement.options or position.phase == Phase.DRAW:
        draw = DrawChoice(improvement.options, start=_draw_start(position, improvement))
    solution = Solution(Status.FEASIBLE, improvement.gain, improvement.bound, improvement.after,
                        improvement.cards_played, seconds=improvement.seconds, draw=draw)
    return planned(position, solution, objective)


def _draw_start(position: Position, improvement: Improvement) -> Position | None:
    """The play-phase position the chosen draw leads to, where the told turn is that draw's (the plan
    starts there); None where there is no turn yet or the family reads the draw back itself (Robber)."""
    if improvement.after is None or not improvement.options or position.rules.family.draws is None:
        return None
    from rummy.checker.draw_apply import apply_draw_taken

    try:
        return apply_draw_taken(position, improvement.options[0].taken(), improvement.after).start
    except RummyError:  # a told turn that does not follow its draw: shown without a plan (the answer is judged)
        return None


def progress_data(position: Position, improvement: Improvement, objective: Objective = Objective.DEFAULT,
                  answer: Answer | None = None) -> dict[str, Any]:
    """The ``progress`` object of a ``best --progress`` line (docs/formats.md "Progress lines"): the gain,
    the bound, the seconds and the source of a better turn, its turn text and after-position as
    ``best --json`` writes them; in the draw phase the options valued so far (``valued`` of ``total``).
    ``answer``: the told turn already made an answer (``progress_answer``), not made twice."""
    answer = answer if answer is not None else progress_answer(position, improvement, objective)
    whole = answer_data(answer)  # gain, bound and after exactly as best --json writes them
    data: dict[str, Any] = {"gain": whole["gain"], "bound": whole["bound"], "seconds": round(improvement.seconds, 4),
                            "source": improvement.source, "status": Status.FEASIBLE,
                            "turn": whole["turn"] if "turn" in whole else answer_turn_text(answer),
                            "after": whole["after"], "cards_played": whole["cards_played"]}
    if answer.solution.draw is not None:
        data.update(options=whole.get("options", []), valued=improvement.valued, total=improvement.total)
    return data


def progress_line(data: dict[str, Any]) -> str:
    """A progress object in words (``best --progress`` without --json):
    ``better: gain 142, at most 160, 1.20 s (cp-sat)``; the draw phase says how many draws are valued."""
    source = data["source"]
    if "valued" in data:
        source = f"{source}, {data['valued']} of {data['total']} valued"
    return (f"better: gain {number(data['gain'])}, at most {number(data['bound'])}, {data['seconds']:.2f} s "
            f"({source})")
