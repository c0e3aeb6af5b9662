"""What the web page asks, answered as the command line answers it, with no web framework in sight.

rummy.web serves these over HTTP. Each function takes the position (and the
turn) as text, as a file would hold it, and returns the ``--json`` object of
formats.md that ``rummy show``, ``best``, ``check`` and ``hint`` print for the
same text, computed by the same functions (rummy.reports). To that object it
adds one key, ``view``: what a page needs to draw it without knowing any game
(the plays with their names and spaces, the command line's own human lines,
the table after each step of a plan). The answers to a position (show, best,
check, hint) also give ``warnings``: the lines ``rummy: warning: ...`` the
command line prints for it (rummy.reports.position_warnings), a list, empty
when there are none.
Bad input raises ``RummyError`` with the message the command line prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Protocol

    from rummy.answer import Answer
    from rummy.position import Position
    from rummy.reports.check import TurnReport
    from rummy.reports.lines import Styled
    from rummy.solution import Improvement
    from rummy.vocabulary import Objective

    class ProgressStream(Protocol):
        """Where a solve's progress goes (rummy.web.workers.Relay): ``offer`` must be quick (it is called
        from the searching thread); ``make`` builds the line, later, in the stream's own thread."""

        def offer(self, make: Callable[[], dict[str, Any]]) -> None: ...

# Where the error lines say the text came from (the CLI names the file there).
POSITION = "position"
BEFORE = "before"
AFTER = "after"
PUZZLE = "puzzle"
STEPS = "steps"


def kind_of(text: str, kind: str | None = None) -> str:
    """``toml``, ``json`` or ``code``: as given, or told by the content as for a file without a suffix."""
    from rummy.inputs import text_kind as kind_of_file

    return kind if kind is not None else kind_of_file("", text)


def read_position(text: str, source: str = POSITION, kind: str | None = None, after: bool = False) -> Position:
    """A position as ``rummy show`` reads a file: strictly, unless it is an after-position."""
    from rummy.reports.position import position_from_text

    return position_from_text(text, source, kind_of(text, kind), after)


def read_play_position(text: str, source: str = POSITION, kind: str | None = None,
                       mover_may_be_hidden: bool = False) -> Position:
    """A position to answer from, read as ``best``, ``check`` and ``hint`` read a file (strictly; ``check``'s
    BEFORE with ``mover_may_be_hidden``, as the command reads it)."""
    from rummy.position import Position

    return Position.from_text(text, source, kind_of(text, kind), mover_may_be_hidden=mover_may_be_hidden)


# ------------------------------------------------------------------ show
def show_report(text: str, kind: str | None = None, after: bool = False) -> dict[str, Any]:
    """``rummy show --json`` (``--after`` with ``after``; its ``code`` too), the position as TOML (``toml``,
    the text a page downloads), and the ``view`` to draw it."""
    from rummy.position_code import position_code
    from rummy.reports.position import show_lines
    from rummy.words import table_bag_words

    position = read_position(text, kind=kind, after=after)
    lines = show_lines(position)
    # The data writes the bag's arrangement as plays; the view says it came from a bag (None: it did not).
    return {**position.to_data(), "code": position_code(position), "toml": position.to_toml(),
            "warnings": warnings_of(position),
            "view": {**layout(position), "table_bag_words": table_bag_words(position), "lines": plain(lines)}}


def layout(position: Position, names: dict[str, str] | None = None) -> dict[str, Any]:
    """The position as a page draws it: every play with its name (``names`` renames some, as a plan
    does), whose space it lies in and its cards in reading order; every player; the piles; and the
    facts of the game a page needs to let a player move cards (asked of the family, never by name)."""
    from rummy.plays import PlayName, is_whole
    from rummy.scoring import play_score
    from rummy.words import player_facts, position_facts, rules_summary, sort_for_display, unit

    rules = position.rules
    family = rules.family
    deck = rules.deck
    names = names or {}
    plays = []
    for name, play in position.named_plays().items():
        cards = position.play_with_layoffs(name)
        whole = is_whole(cards, rules)
        plays.append({
            "name": str(names.get(name, name)),
            "space": None if family.shared_table else PlayName(name).owner,
            "cards": notation(play.ordered(rules), deck),
            "layoffs": [{"by": layer, "cards": notation(attached, deck)}
                        for layer, attached in position.layoffs_on(name)],
            "whole": whole,
            "score": play_score(cards, rules) if whole and family.scores_plays else None,
        })
    players = [{
        "name": player.name,
        "side": player.side,
        "to_move": player.name == position.to_move,
        "melded": player.melded,
        "hand": notation(sort_for_display(player.hand), deck) if player.hand is not None else None,
        "hand_count": player.hand_count,
        "hot": notation(player.hot, deck),
        "warm": notation(player.warm, deck),
        "facts": player_facts(position, player),
    } for player in position.players]
    stock = position.stock
    return {
        "rules": rules.name,
        "summary": rules_summary(rules),
        "facts": position_facts(position),
        "deck": deck,
        "unit": unit(rules),
        "to_move": position.to_move,
        "phase": str(position.phase),
        "game": {
            "shared_table": family.shared_table,
            "plays_in_any_space": family.plays_in_any_space,
            "plays_change_owner": family.plays_change_owner,
            "layoffs_attached": family.layoffs_attached,
            "discards": bool(rules.discard),
            "plays_key": family.plays_key,
        },
        "players": players,
        "plays": plays,
        "discard": notation(position.discard_pile, deck),
        "stock": stock if stock is None or isinstance(stock, int) else len(stock),
        "upcard": position.upcard.notation(deck) if position.upcard is not None else None,
        "puzzle": puzzle_view(position.puzzle.to_data()) if position.puzzle is not None else None,
    }


def puzzle_view(statement: dict[str, Any]) -> dict[str, Any]:
    """A puzzle's statement as the page shows it: its data (formats.md), with each theme named
    by the registry's title and idea (``{name, title, idea}``) in place of its bare name."""
    return {**statement, "themes": theme_details(statement.get("themes") or ())}


# ------------------------------------------------------------------ themes
def theme_names() -> dict[str, Any]:
    """The theme registry (rummy.themes.THEMES): name to Theme."""
    from rummy.themes import THEMES

    return THEMES


def theme_catalog() -> list[dict[str, str]]:
    """Every theme, in the registry's order, as a page shows it: its name, title and idea."""
    return theme_details(theme_names())


def theme_details(names: Iterable[str]) -> list[dict[str, str]]:
    """The themes named, each with its title and idea; a name the registry lacks is left out."""
    known = theme_names()
    return [{"name": known[name].name, "title": known[name].title, "idea": known[name].idea}
            for name in names if name in known]


# ------------------------------------------------------------------ best
def best_report(text: str, kind: str | None = None, time_limit: float = 10.0, objective: str = "default",
                seed: int = 0, stream: ProgressStream | None = None) -> dict[str, Any]:
    """``rummy best --json --verify`` (one search thread), and the ``view``: the command line's lines,
    the plan's steps in words with the table after each one, and the table after the turn with its marks.
    With ``stream`` (``POST /api/best`` with ``progress``), each better turn found while the search goes on
    is offered to it as a progress object (``progress_report``), made when the stream asks for it."""
    from rummy.answer import best
    from rummy.solution import SolverConfig
    from rummy.vocabulary import Objective

    position = read_play_position(text, kind=kind)
    config = SolverConfig(time_limit=time_limit, workers=1, objective=Objective(objective), seed=seed)
    if stream is not None:
        from dataclasses import replace

        from rummy.reports.best import answers_position

        def tell(improvement: Improvement) -> None:
            if answers_position(position, improvement):
                stream.offer(lambda: progress_report(position, improvement, config.objective))

        config = replace(config, on_better=tell)
    return answer_report(best(position, config))


def answer_report(answer: Answer) -> dict[str, Any]:
    """An answer as ``POST /api/best`` gives it: ``best --json --verify``'s object, its warnings and its ``view``."""
    from pathlib import Path

    from rummy.answer import verify_answer
    from rummy.reports.best import answer_lines, verified_data
    from rummy.words import breakdown_words, table_bag_words, verdict_words

    position = answer.position
    verdict = verify_answer(answer)
    data = verified_data(answer, verdict)
    data["warnings"] = warnings_of(position)
    lines = answer_lines(Path(POSITION), answer, verdict)[1:]  # the first names the file
    deck = position.rules.deck
    solution = answer.solution
    data["view"] = {"lines": plain(lines), "verdict": words_plain(verdict_words(answer), deck),
                    "gain_name": position.rules.family.gain_words(answer.solution_objective, solution.gain,
                                                                  solution.cards_played),
                    "breakdown": words_plain(breakdown_words(answer), deck), **_plan_view(answer),
                    "options": _option_words(answer), "table_bag_words": table_bag_words(position)}
    return data


def progress_report(position: Position, improvement: Improvement, objective: Objective) -> dict[str, Any]:
    """A progress line of ``POST /api/best`` with ``progress``: ``best --progress --json``'s object, and in it
    ``answer``, the told turn as the endpoint answers a turn (``answer_report``: status feasible, its bound)."""
    from rummy.reports.best import progress_answer, progress_data

    answer = progress_answer(position, improvement, objective)
    return {"progress": {**progress_data(position, improvement, objective, answer), "answer": answer_report(answer)}}


def _option_words(answer: Answer) -> list[str]:
    """The draw phase: each of the answer's ``options`` in the command line's words, in the same order."""
    from rummy.words import option_words

    draw = answer.solution.draw
    if draw is None:
        return []
    deck = answer.position.rules.deck
    return [words_plain(option_words(option, draw), deck) for option in draw.options]


def _plan_view(answer: Answer) -> dict[str, Any]:
    from rummy.plan import plan_marks
    from rummy.words import step_words

    solution = answer.solution
    plan = answer.plan
    deck = answer.position.rules.deck
    view: dict[str, Any] = {"steps": [], "step_pieces": [], "frames": [], "after": None}
    if plan is None or solution.after is None:
        return view
    after = solution.after
    view["steps"] = [words_plain(step_words(step), deck) for step in plan.steps]
    view["step_pieces"] = [words_pieces(step_words(step), deck) for step in plan.steps]
    marks = plan_marks(plan, after)
    view["after"] = {**layout(after, plan.names), "marks": {
        plan.names.get(name, str(name)): {card.notation(deck): list(found) for card, found in play.items()}
        for name, play in marks.items()}}
    start = _plan_start(answer)
    if start is not None and plan.steps:  # a turn that plays nothing (a tile drawn) has no steps to draw
        from rummy.plays import Play
        from rummy.turn_steps import step_tables, steps_text

        rules = start.rules
        for table in step_tables(start, steps_text(plan, start)):
            frame = table.to_data(deck)
            for play, (_, _, cards) in zip(frame["plays"], table.plays):  # type: ignore[call-overload]
                play["cards"] = notation(Play(cards).ordered(rules), deck)
            view["frames"].append(frame)
    return view


def _plan_start(answer: Answer) -> Position | None:
    """The position the plan's steps start from: the one given, or the one its draw led to."""
    from rummy.vocabulary import Phase

    position = answer.position
    if position.phase == Phase.PLAY:
        return position
    draw = answer.solution.draw
    return draw.start if draw is not None else None


# ----------------------------------------------------------------- check
def check_report(before_text: str, after_text: str, before_kind: str | None = None, after_kind: str | None = None,
                 compare: bool = False, time_limit: float = 10.0) -> dict[str, Any]:
    """``rummy check --json`` (``--best`` with ``compare``) on a turn given as an after-position, a
    ``best --json`` answer or steps; the ``view`` adds the command line's lines and the table after the turn."""
    from rummy.reports.check import answer_from_text, turn_report

    before = read_play_position(before_text, BEFORE, before_kind, mover_may_be_hidden=True)
    turn = answer_from_text(after_text, AFTER, kind_of(after_text, after_kind), before)
    after = turn.after
    report = turn_report(before, turn, f"{BEFORE} -> {AFTER}", compare, time_limit)
    shown = shown_names(report)
    return {**report.data, "warnings": warnings_of(before), "view": {
        "lines": plain(report.lines), "breaches": breaches_view(report),
        "after": layout(after, shown) if after is not None else None,
    }}


def shown_names(report: TurnReport) -> dict[str, str]:
    """The names check's report gives the end state's plays as its lines and drawn table show them."""
    names = report.data.get("names")
    return names if isinstance(names, dict) else {}


def breaches_view(report: TurnReport) -> list[dict[str, Any]]:
    """The breaches as the lines word them: plays under the names the drawn table gives them."""
    from rummy.reports.check import plan_named_text

    shown = shown_names(report)
    return [{**breach.to_data(), "message": plan_named_text(breach.message, shown),
             "plays": [str(shown.get(name, name)) for name in breach.plays]} for breach in report.verdict.breaches]


# ----------------------------------------------------------------- steps
def steps_report(before_text: str, steps: str, before_kind: str | None = None) -> dict[str, Any]:
    """The table after a turn written as steps, read as ``rummy check`` reads them (legal or not: that
    is the checker's business), drawn with the plays under the names the steps give them (as before
    the turn, ``new/K``: the plan's names for a turn a plan would write), so that the next step can
    name any play drawn; no steps: the table as it is. For a page that lets a player move cards.
    A text that ``rummy check`` would read as a position (steps_notation.looks_like_steps, the one rule)
    is refused, not read as steps."""
    from rummy.errors import PositionError
    from rummy.steps_notation import first_step_word, looks_like_steps, no_step
    from rummy.turn_steps import read_steps_named

    before = read_play_position(before_text, BEFORE, before_kind, mover_may_be_hidden=True)  # as check reads it
    if not steps.strip():
        return {"view": layout(before)}
    if not looks_like_steps(steps):
        first = first_step_word(steps)
        raise PositionError(STEPS, f"not a turn written as steps: {no_step(first) if first else 'only comments'}")
    after, names = read_steps_named(before, steps, STEPS)
    return {"view": layout(after, names)}


# ------------------------------------------------------------------ hint
def hint_report(text: str, level: int, kind: str | None = None, solution_text: str | None = None,
                time_limit: float = 10.0) -> dict[str, Any]:
    """``rummy hint --json`` (a list, here under ``hints``); the stored answer, when given, is
    trusted as ``rummy hint`` trusts a ``NAME.solution.json``: only when it is legal and reaches the target."""
    from rummy.reports.hint import check_hintable, hint_list, solved_answer, stored_answer_from_text

    if level not in (1, 2, 3, 4):
        from rummy.errors import RummyError

        raise RummyError(f"level: a hint level is 1 to 4, got {level}")
    position = read_play_position(text, PUZZLE, kind)
    check_hintable(position, PUZZLE)
    found: Any = None
    if solution_text is not None:
        found = stored_answer_from_text(solution_text, f"{PUZZLE} solution", position)
    if found is None:
        found = solved_answer(position, time_limit)
    given = hint_list(position, found, level)
    report: dict[str, Any] = {"hints": [h.to_data() for h in given], "warnings": warnings_of(position)}
    if isinstance(found, str):
        report["none"] = found
    return report


# ----------------------------------------------------------------- words
def warnings_of(position: Position) -> list[str]:
    """The position's warnings, the lines the command line prints after ``rummy: warning: ``."""
    from rummy.reports.position_warnings import position_warnings

    return position_warnings(position)


def plain(lines: list[Styled | str]) -> list[str]:
    return [str(line) for line in lines]


def notation(cards: Any, deck: Any) -> list[str]:
    return [card.notation(deck) for card in cards]


def words_pieces(words: Any, deck: Any) -> list[str | list[str]]:
    """``rummy.words`` pieces for a page to draw: text as text, cards as a list of their notations
    (the page draws them as it draws cards); joined, they read as ``words_plain``."""
    return [piece if isinstance(piece, str) else notation(piece, deck) for piece in words if piece]


def words_plain(words: Any, deck: Any) -> str:
    """``rummy.words`` pieces as the plain text the terminal prints (cards in notation)."""
    return "".join(piece if isinstance(piece, str) else " ".join(card.notation(deck) for card in piece)
                   for piece in words)
