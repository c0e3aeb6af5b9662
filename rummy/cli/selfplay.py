"""``rummy selfplay``: deal from a seeded deck and play whole hands with the engine in every seat.

The game is rummy.games.selfplay's; this module reads the options, shows the
progress on stderr and writes the game record (atomically, never through a link).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from rummy.cli._options import DEAL_SEED_MAX, TimeLimitOption
from rummy.rules import PRESETS

RulesOption = Annotated[str, typer.Option(
    "--rules", metavar="<preset>", show_default=False, help=f"The preset: {', '.join(PRESETS)} (see 'rummy rules').")]
PlayersOption = Annotated[str, typer.Option(
    "--players", metavar="N|NAMES", show_default=False,
    help="How many players (named ann, bob, cat, ...), or their names in seating order: ann,bob,cat.")]
SeedOption = Annotated[int, typer.Option(
    "--seed", min=0, max=DEAL_SEED_MAX,
    help="The deal's seed: the same seed deals the same hands (hand 1 is rummy.deal's deal of this seed), "
         "and plays them alike unless an answer stops at the time limit.")]
HandsOption = Annotated[int, typer.Option("--hands", min=1, max=200,
                                          help="Hands to play (House: at most 6, a whole game).")]
OutOption = Annotated[Path, typer.Option(
    "--out", metavar="GAME", show_default=False,
    help="The game record to write (TOML, or JSON for a .json name; in one step, never through a link).")]
QuietFlag = Annotated[bool, typer.Option("--quiet", "-q", help="No progress on stderr.")]


def selfplay(rules_name: RulesOption, players: PlayersOption, out: OutOption, seed: SeedOption = 0,
             hands: HandsOption = 1, time_limit: TimeLimitOption = 2.0, quiet: QuietFlag = False) -> int:
    """Deal and play whole hands with rummy in every seat, each seat seeing only its own hand; write the game
    record. Every turn is judged by the checker as it is made (a turn it refuses is a bug: exit 3).

    rummy selfplay --rules house-classic --players 3 --seed 7 --hands 3 --out game.toml
    """
    from rummy.cli._picture import check_output_path
    from rummy.errors import RummyError, print_error
    from rummy.files import Folder
    from rummy.games.selfplay import SelfPlayBug
    from rummy.games.selfplay import selfplay as play_game
    from rummy.reports.exit_codes import EXIT_INTERNAL, EXIT_NEGATIVE, EXIT_OK
    from rummy.rules import preset

    rules = preset(rules_name)
    names = player_names(players)
    most = rules.family.hands_in_game
    if most is not None and hands > most:
        raise RummyError(f"--hands {hands}: a game of {rules.name} is {most} hands")
    if str(out) == "-":
        raise RummyError("--out -: give a file name for the game record")
    check_output_path(out, [], "--out")
    Folder(out.parent).close()  # the folder must be there (and no link) before a long game is played
    progress = None if quiet else _progress_line(sys.stderr.isatty())
    try:
        played = play_game(rules, names, seed, hands, time_limit, progress)
    except SelfPlayBug as bug:
        _end_progress(quiet)
        if bug.game is not None:
            bug.game.save(out)
        print_error(f"selfplay: a bug in rummy: {bug}"
                    + (f" (the game up to that turn is written to {out})" if bug.game is not None else ""))
        return EXIT_INTERNAL
    _end_progress(quiet)
    played.game.save(out)
    if not quiet:
        sys.stderr.write(f"game written to {out}: {played.summary()}\n")
    if played.stopped is not None:  # the engine's own play went round in a cycle: no end to the hand
        print_error(f"selfplay: {played.stopped}; the game so far is written to {out}")
        return EXIT_NEGATIVE
    return EXIT_OK


def player_names(text: str) -> tuple[str, ...]:
    """``--players``: a number of players named from ``PLAYER_NAMES``, or the names themselves."""
    from rummy.errors import RummyError
    from rummy.games.record import MAX_PLAYERS
    from rummy.games.selfplay import PLAYER_NAMES
    from rummy.reader import name_problem

    text = text.strip()
    if text.isdecimal():
        count = int(text)
        if not 2 <= count <= MAX_PLAYERS:
            raise RummyError(f"--players {text}: from 2 to {MAX_PLAYERS} players")
        return PLAYER_NAMES[:count]
    names = tuple(name.strip() for name in text.split(",")[:MAX_PLAYERS + 1])
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise RummyError(f"--players: from 2 to {MAX_PLAYERS} names separated by commas, or a number")
    for name in names:
        problem = name_problem(name)
        if problem:
            raise RummyError(f"--players: {problem}")
    if len(set(names)) != len(names):
        raise RummyError("--players: a player is named twice")
    return names


def _progress_line(terminal: bool) -> Callable[[int, int, str, float], None]:
    """Hand, turn and seconds of each turn on stderr: one line rewritten on a terminal, else a line a turn."""
    def show(hand: int, turn: int, player: str, seconds: float) -> None:
        line = f"hand {hand}, turn {turn} ({player}): {seconds:.2f} s"
        sys.stderr.write(f"\r{line:<60}" if terminal else f"{line}\n")
        sys.stderr.flush()

    return show


def _end_progress(quiet: bool) -> None:
    if not quiet and sys.stderr.isatty():
        sys.stderr.write("\n")
