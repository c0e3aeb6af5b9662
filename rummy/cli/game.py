"""``rummy game new/add/undo/show``: a game recorded turn by turn in a game file (docs/formats.md "Game records").

Thin: the record is rummy.games (record, replay, edit), what is printed rummy.reports.game. Every change
replays the game first (so a file edited by hand that no longer replays is named at its first bad turn,
exit 2) and writes the whole file again in one step (GameRecord.save: rummy.files.write_atomic, never
through a link).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rummy.cli._options import DEAL_SEED_MAX, JsonFlag, SvgPath, TimeLimitOption
from rummy.cli._output import print_answer, print_warnings
from rummy.reports.exit_codes import EXIT_NEGATIVE, EXIT_NO_ANSWER, EXIT_OK

if TYPE_CHECKING:
    from rich.progress import Progress

    from rummy.games.edit import ReplayedGame
    from rummy.games.record import GameRecord
    from rummy.position import Position

game_app = typer.Typer(
    name="game", no_args_is_help=True, pretty_exceptions_enable=False,
    help="Record a game turn by turn in a game file: new, add, undo, show (docs/formats.md \"Game records\").",
)

GamePath = Annotated[Path, typer.Argument(help="The game file (.toml, or .json for JSON).", show_default=False,
                                          metavar="GAME")]
TurnArgument = Annotated[
    Path,
    typer.Argument(
        help="The turn, as 'rummy play' takes it: a file or - (an after-position, a 'best --json' answer, steps), "
             "steps or draw words as text ('take 2; play 5D 5H 5S to new/1; discard QC', 'draw 7H', pass), or "
             "the word best.", show_default=False, metavar="TURN"),
]
PROGRESS_TURNS = 40  # a game with more turns than this shows a bar while it is replayed (on a terminal)


def new(
    game_path: GamePath,
    rules_name: Annotated[str | None, typer.Option("--rules", metavar="PRESET", show_default=False,
                                                   help="The rules: a preset name (rummy rules lists them).")] = None,
    players: Annotated[str | None, typer.Option("--players", metavar="NAMES", show_default=False,
                                                help="The players in seating order, separated by commas: "
                                                     "ann,bob,cat.")] = None,
    seed: Annotated[int | None, typer.Option("--deal", metavar="SEED", min=0, max=DEAL_SEED_MAX, show_default=False,
                                             help="Deal the first hand from this seed (each next hand from a seed "
                                                  "derived from it).")] = None,
    position_path: Annotated[Path | None, typer.Option(
        "--position", metavar="FILE", show_default=False,
        help="Start from this position (a file, a position code, or -) instead of a deal; its rules and "
             "players are the game's.")] = None,
    title: Annotated[str | None, typer.Option("--title", metavar="T", show_default=False,
                                              help="The game's title.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite GAME if it exists.")] = False,
    json_output: JsonFlag = False,
) -> int:
    """Begin a game file: its first hand dealt (--deal SEED) or taken from a position (--position FILE).

    rummy game new friday.toml --rules house-classic --players ann,bob,cat --deal 7
    """
    from rummy.errors import RummyError
    from rummy.games.edit import named_players, new_game
    from rummy.inputs import argument_name
    from rummy.reports.game import new_report
    from rummy.rules import preset

    _check_game_path(game_path, [position_path] if position_path is not None else [], must_exist=False)
    if game_path.exists() and not force:
        raise RummyError(f"{game_path}: exists; give --force to overwrite it")
    if (seed is None) == (position_path is None):
        raise RummyError("game new: give --deal SEED (a dealt hand) or --position FILE (a position), one of them")
    start = None
    if position_path is not None:
        from rummy.cli.show import read_position

        start = read_position(position_path)
        print_warnings(_warnings(start))
        rules = preset(rules_name) if rules_name is not None else start.rules
        names = named_players(players) if players is not None else tuple(p.name for p in start.players)
    elif rules_name is None or players is None:
        raise RummyError("game new --deal: give --rules PRESET and --players NAMES too")
    else:
        rules, names = preset(rules_name), named_players(players)
    where = argument_name(position_path) if position_path is not None else "--position"
    game = new_game(rules, names, start, seed, title, where)
    game.save(game_path, overwrite=force)
    print_answer(*new_report(game, str(game_path)), json_output)
    return EXIT_OK


def add(
    game_path: GamePath,
    turn_path: TurnArgument,
    comment: Annotated[str | None, typer.Option("--comment", metavar="C", show_default=False,
                                                help="A comment kept with the turn.")] = None,
    json_output: JsonFlag = False,
    time_limit: TimeLimitOption = 30.0,
) -> int:
    """Add a turn to the game: read and judged from the game's last position as 'rummy play' reads it; an
    illegal turn is refused with check's breaches (exit 1, nothing written). When the turn ends the hand, its
    result is written, and in a dealt game the next hand is dealt.

    rummy game add friday.toml best --comment "the engine's move"
    """
    from rummy.cli.check import turn_argument_name, turn_text
    from rummy.errors import NoTurnInAnswer, RummyError
    from rummy.games.edit import add_turn
    from rummy.inputs import argument_name
    from rummy.reports.check import nothing_to_judge
    from rummy.reports.game import added_report
    from rummy.reports.play import BEST_TURN, best_turn_text

    _check_game_path(game_path, [turn_path], must_exist=True)
    game, was = _replayed_to_write(game_path)
    before = game.position
    print_warnings(_warnings(before))
    where = f"{argument_name(game_path)} -> {turn_argument_name(turn_path)}"
    try:
        if str(turn_path) == BEST_TURN and not turn_path.exists():
            if before.mover.hand is None:
                raise RummyError(f"{where}: {before.to_move}'s hand is hidden (hand_count): best answers for a known "
                                 f"hand; enter {before.to_move}'s turn as it was played, e.g. rummy game add "
                                 f"{argument_name(game_path)} 'draw; discard 7H'")
            text, source, kind = best_turn_text(before, time_limit), "best", "json"
        else:
            text, source, kind = turn_text(turn_path)
        added = add_turn(game, text, source, kind, where, comment)
    except NoTurnInAnswer as empty:
        print_answer(*nothing_to_judge(empty), json_output)
        return EXIT_NO_ANSWER
    if added.game is None:
        report = added.played.report
        print_answer(report.data, report.lines, json_output)
        return EXIT_NEGATIVE
    added.game.save_over(game_path, was)
    print_answer(*added_report(added), json_output)
    return EXIT_OK


def hand(
    game_path: GamePath,
    seed: Annotated[int | None, typer.Option("--deal", metavar="SEED", min=0, max=DEAL_SEED_MAX, show_default=False,
                                             help="Deal the hand from this seed.")] = None,
    position_path: Annotated[Path | None, typer.Option(
        "--position", metavar="FILE", show_default=False,
        help="Start the hand from this position (a file, a position code, or -).")] = None,
    json_output: JsonFlag = False,
) -> int:
    """Begin the next hand once the last one is over: dealt (--deal SEED) or from a position (--position FILE).

    rummy game hand table.toml --position next-deal.toml
    """
    from rummy.errors import RummyError
    from rummy.games.edit import begin_next_hand
    from rummy.inputs import argument_name
    from rummy.reports.game import hand_report

    _check_game_path(game_path, [position_path] if position_path is not None else [], must_exist=True)
    if (seed is None) == (position_path is None):
        raise RummyError("game hand: give --deal SEED (a dealt hand) or --position FILE (a position), one of them")
    game, was = _replayed_to_write(game_path)
    start = None
    if position_path is not None:
        from rummy.cli.show import read_position

        start = read_position(position_path)
        print_warnings(_warnings(start))
    where = argument_name(position_path) if position_path is not None else "--deal"
    record = begin_next_hand(game, start, seed, where)
    record.save_over(game_path, was)
    print_answer(*hand_report(record), json_output)
    return EXIT_OK


def undo(game_path: GamePath, json_output: JsonFlag = False) -> int:
    """Take back the game's last turn (and the hand's result, and a hand dealt after it, if it ended the hand).

    rummy game undo friday.toml
    """
    from rummy.errors import RummyError
    from rummy.games import edit
    from rummy.inputs import argument_name
    from rummy.reports.game import undone_report

    _check_game_path(game_path, [], must_exist=True)
    game, was = _replayed_to_write(game_path)
    if not game.record.turn_count:
        raise RummyError(f"{argument_name(game_path)}: the game has no turn to take back")
    smaller, hand, turn = edit.undo(game.record)
    smaller.save_over(game_path, was)
    print_answer(*undone_report(edit.replayed(smaller, argument_name(game_path)), hand, turn), json_output)
    return EXIT_OK


def show(
    game_path: GamePath,
    turn: Annotated[int | None, typer.Option("--turn", metavar="N", min=0, show_default=False,
                                             help="Show the position after turn N of the hand (0: its start).")] = None,
    hand: Annotated[int | None, typer.Option("--hand", metavar="H", min=1, show_default=False,
                                             help="The hand (from 1; default the last).")] = None,
    svg: SvgPath = None,
    json_output: JsonFlag = False,
) -> int:
    """List the game's turns, numbered (--hand: one hand's), or show the position after turn N (--turn N), as
    'rummy show' draws it; --svg draws the position (after the last turn without --turn).

    rummy game show friday.toml --turn 2 --svg turn2.svg
    """
    from rummy.errors import RummyError
    from rummy.reports.game import position_at, position_report, turn_list_report

    if str(game_path) != "-" and not game_path.exists():  # only read: a link or stdin (-) will do
        raise RummyError(f"{game_path}: no such game file (begin one with 'rummy game new')")
    if svg is not None:
        from rummy.cli._picture import check_svg_path

        check_svg_path(svg, [game_path])
    record = _read(game_path)
    count = len(record.hands)
    if hand is not None and hand > count:
        raise RummyError(f"--hand {hand}: the game has hands 1 to {count}")
    if turn is None and svg is None:
        game = _replayed(game_path, record) if hand is None else _replayed_hand(game_path, record, hand)
        print_answer(*turn_list_report(game, hand), json_output)
        return EXIT_OK
    number = count if hand is None else hand
    replayed = _replayed_hand(game_path, record, number)
    position, where = position_at(replayed.hands[number - 1], number, turn)
    if svg is not None:
        from rummy.cli._picture import write_svg
        from rummy.svg import position_svg

        write_svg(svg, position_svg(position), [game_path])
    if turn is not None or json_output:
        print_answer(*position_report(position, where), json_output)
    return EXIT_OK


game_app.command("new")(new)
game_app.command("add")(add)
game_app.command("hand")(hand)
game_app.command("undo")(undo)
game_app.command("show")(show)


# ------------------------------------------------------------------ shared
def _check_game_path(path: Path, inputs: list[Path], must_exist: bool) -> None:
    from rummy.cli._picture import check_output_path
    from rummy.errors import RummyError

    if str(path) == "-":
        raise RummyError("GAME -: give the game's file (it is read and written again)")
    if must_exist and not path.exists() and not path.is_symlink():
        raise RummyError(f"{path}: no such game file (begin one with 'rummy game new')")
    check_output_path(path, inputs, "GAME")


def _read(path: Path) -> GameRecord:
    return _read_with_text(path)[0]


def _read_with_text(path: Path) -> tuple[GameRecord, str]:
    """The game and the file's text, which a command that writes the game again gives ``save_over``."""
    from rummy.games.edit import with_a_hand
    from rummy.games.record import GameRecord
    from rummy.inputs import source_name

    record, text = GameRecord.read_file(path)
    return with_a_hand(record, source_name(path)), text


def _replayed_to_write(path: Path) -> tuple[ReplayedGame, str]:
    """The game replayed, and the file's text as read (add, hand and undo write it again only if the file
    still holds it: two commands at once never lose one's turn unseen)."""
    record, text = _read_with_text(path)
    return _replayed(path, record), text


def _replayed(path: Path, record: GameRecord | None = None) -> ReplayedGame:
    """The game read and replayed, a bar on a terminal's stderr while a long one is."""
    from rummy.games.edit import replayed

    record = _read(path) if record is None else record
    from rummy.inputs import source_name

    with _ReplayProgress(record.turn_count) as progress:
        return replayed(record, source_name(path), progress.advance)


def _replayed_hand(path: Path, record: GameRecord, number: int) -> ReplayedGame:
    """Only hand ``number`` replayed (each hand replays from its own start); the others as they are."""
    from rummy.games.edit import ReplayedGame
    from rummy.games.replay import HandReplay, replay_hand
    from rummy.inputs import source_name

    with _ReplayProgress(len(record.hands[number - 1].turns)) as progress:
        one = replay_hand(record.hands[number - 1], number, source_name(path), progress.advance)
    # The other hands are left at their starts, not replayed: only hand ``number`` is shown.
    hands = [HandReplay(hand, (hand.start,), ()) for hand in record.hands]
    hands[number - 1] = one
    return ReplayedGame(record, tuple(hands))


def _warnings(position: Position) -> list[str]:
    from rummy.reports.position_warnings import position_warnings

    return list(position_warnings(position))


class _ReplayProgress:
    """A bar on a terminal's stderr while a long game is replayed (nothing elsewhere, nothing for a short one)."""

    def __init__(self, total: int) -> None:
        self.bar: Progress | None = None
        if total > PROGRESS_TURNS and sys.stderr.isatty():
            import rich.progress as bars
            from rich.console import Console

            self.bar = bars.Progress(bars.TextColumn("[bold]replaying the game"), bars.BarColumn(),
                                     bars.MofNCompleteColumn(), bars.TimeElapsedColumn(),
                                     console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task("turns", total=total)

    def __enter__(self) -> _ReplayProgress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def advance(self, turns: int) -> None:
        if self.bar is not None:
            self.bar.advance(self.task, turns)
