"""What ``rummy game new/add/undo/show`` print: human lines and ``--json`` objects (docs/cli.md "Games").

The game's changes are rummy.games.edit's; the positions are drawn as ``rummy show`` draws them
(rummy.reports.position.show_lines).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummy.errors import RummyError
from rummy.games.edit import AddedTurn, ReplayedGame
from rummy.games.record import GameRecord, HandRecord, TurnRecord
from rummy.games.replay import HandReplay
from rummy.position import Position
from rummy.reports.lines import Styled, text
from rummy.rules import ruleset_to_spec

Report = tuple[dict[str, Any], list[Styled | str]]  # --json's object, the human lines


def result_text(result: Mapping[str, float]) -> str:
    if not result:  # the hand ended but could not be scored (a hidden hand): the file's [hands.result] is empty
        return "not scored (a hidden hand; write the scores under [hands.result] by hand)"
    return ", ".join(f"{name} {score:g}" for name, score in result.items())


def _dealt(hand: HandRecord) -> str:
    return f" (dealt from seed {hand.deal})" if hand.deal is not None else ""


def to_move_line(position: Position, where: str) -> Styled:
    return text((position.to_move, "bold green"), f" to move ({position.phase} phase), {where}")


# ------------------------------------------------------------------ new
def new_report(game: GameRecord, path: str) -> Report:
    hand = game.hands[0]
    start = hand.start
    lines: list[Styled | str] = [
        text(("game written to ", ""), (path, "bold"), f": {game.rules.name}, {' '.join(game.players)}"),
        text("hand 1", _dealt(hand) or " (from the position given)"),
        to_move_line(start, "hand 1, no turn yet"),
    ]
    data = {"game": path, "rules": ruleset_to_spec(game.rules), "players": list(game.players), "hand": 1,
            "deal": hand.deal, "to_move": start.to_move, "phase": str(start.phase)}
    return data, lines


def hand_report(game: GameRecord) -> Report:
    """A hand begun by 'game hand': its number, its deal, who is to move."""
    number = len(game.hands)
    hand = game.hands[-1]
    lines: list[Styled | str] = [text((f"hand {number}", "bold"), _dealt(hand) or " (from the position given)"),
                                 to_move_line(hand.start, f"hand {number}, no turn yet")]
    return ({"hand": number, "deal": hand.deal, "to_move": hand.start.to_move, "phase": str(hand.start.phase)},
            lines)


# ------------------------------------------------------------------ add
def added_report(added: AddedTurn) -> Report:
    assert added.game is not None and added.turn is not None and added.position is not None  # a legal turn
    game = added.game
    played_hand = len(game.hands) - (1 if added.next_hand is not None else 0)
    number = len(game.hands[played_hand - 1].turns)
    turn = added.turn
    lines: list[Styled | str] = [text(f"hand {played_hand}, turn {number}: ", (turn.player, "bold"), ": ",
                                      (turn.turn, "bold"))]
    data: dict[str, Any] = {"hand": played_hand, "turn": number, "player": turn.player, "text": turn.turn,
                            "gain": added.played.report.verdict.reading.get("gain")}
    if turn.comment:
        data["comment"] = turn.comment
    if added.ending is not None:
        ending = added.ending
        scores = result_text(ending.scores) if ending.scores is not None else f"not scored: {ending.unscored}"
        lines.append(text((f"hand {played_hand} is over", "bold"), f": {ending.reason}; {scores}"))
        data["ending"] = ending.to_data()
        data["result"] = dict(added.result or {})
    if added.game_over is not None:
        lines.append(text(("the game is over", "bold"), f": {added.game_over}"))
        data["game_over"] = added.game_over
    if added.next_hand is not None:
        start = added.next_hand.start
        lines.append(text((f"hand {played_hand + 1}", "bold"), _dealt(added.next_hand) or " begun"))
        lines.append(to_move_line(start, f"hand {played_hand + 1}, no turn yet"))
        data["next_hand"] = {"hand": played_hand + 1, "deal": added.next_hand.deal, "to_move": start.to_move,
                             "phase": str(start.phase)}
    elif added.ending is None:
        position = added.position
        lines.append(to_move_line(position, f"hand {played_hand}, after turn {number}"))
        data["to_move"] = position.to_move
        data["phase"] = str(position.phase)
    return data, lines


# ------------------------------------------------------------------ undo
def undone_report(game: ReplayedGame, hand: int, turn: TurnRecord) -> Report:
    number = len(game.record.hands[hand - 1].turns) + 1
    position = game.position
    lines: list[Styled | str] = [
        text(f"took back hand {hand}, turn {number}: ", (turn.player, "bold"), ": ", (turn.turn, "bold")),
        to_move_line(position, f"hand {hand}, " + (f"after turn {number - 1}" if number > 1 else "no turn yet")),
    ]
    data = {"hand": hand, "turn": number, "player": turn.player, "text": turn.turn, "to_move": position.to_move,
            "phase": str(position.phase)}
    return data, lines


# ------------------------------------------------------------------ show
def turn_list_report(game: ReplayedGame, only_hand: int | None = None) -> Report:
    """The game's turns, numbered within each hand, with comments and results; then who is to move."""
    record = game.record
    heading = f"{record.title}: " if record.title else ""
    lines: list[Styled | str] = [text((f"{heading}{record.rules.name}", "bold"), f", {' '.join(record.players)}")]
    hands_data = []
    for number, (hand, replayed) in enumerate(zip(record.hands, game.hands, strict=True), start=1):
        if only_hand is not None and number != only_hand:
            continue
        lines.append("")
        lines.append(text((f"hand {number}", "bold"), _dealt(hand)))
        turns = []
        for index, (turn, report) in enumerate(zip(hand.turns, replayed.reports, strict=True), start=1):
            comment = f"   # {turn.comment}" if turn.comment else ""
            lines.append(text(f"{index:>4}. ", (turn.player, "bold"), f": {_one_line(turn.turn)}", (comment, "dim")))
            turns.append({"turn": index, **turn.to_data(), "gain": report.verdict.reading.get("gain")})
        if not hand.turns:
            lines.append("      (no turn yet)")
        if hand.result is not None:
            lines.append(text(("      result: ", "bold"), result_text(hand.result)))
            if number > 1:
                lines.append(text(("      totals: ", "bold"), result_text(record.totals(number))))
        hands_data.append({"hand": number, "deal": hand.deal, "turns": turns,
                           "result": dict(hand.result) if hand.result is not None else None})
    data: dict[str, Any] = {"game": record.to_data()["game"], "hands": hands_data,
                            "totals": record.totals()}
    last = len(record.hands)
    if only_hand is None or only_hand == last:
        lines.append("")
        if game.over:
            lines.append(text((f"hand {last} is over", "bold"), " and no hand follows it"))
        else:
            count = len(record.hands[-1].turns)
            lines.append(to_move_line(game.position, f"hand {last}, " +
                                      (f"after turn {count}" if count else "no turn yet")))
        data["to_move"] = None if game.over else game.position.to_move
    return data, lines


def _one_line(turn: str) -> str:
    return "; ".join(line.strip() for line in turn.splitlines() if line.strip())


def position_at(hand: HandReplay, number: int, turn: int | None) -> tuple[Position, str]:
    """The position after turn ``turn`` of the hand (0: its start; None: after its last turn), and how to
    name it."""
    count = len(hand.record.turns)
    if turn is None:
        turn = count
    if not 0 <= turn <= count:
        raise RummyError(f"--turn {turn}: hand {number} has turns 1 to {count} (0 is its start)" if count
                         else f"--turn {turn}: hand {number} has no turn yet (0 is its start)")
    if turn == 0:
        return hand.positions[0], f"hand {number}, its start"
    record = hand.record.turns[turn - 1]
    return hand.positions[turn], f"hand {number}, after turn {turn} ({record.player}: {_one_line(record.turn)})"


def position_report(position: Position, where: str) -> Report:
    """The position as ``rummy show`` prints it (``--json``: as ``show --json``), under a line saying where
    in the game it is."""
    from rummy.position_code import position_code
    from rummy.reports.position import show_lines

    return ({**position.to_data(), "code": position_code(position)},
            [text((where, "bold")), "", *show_lines(position)])


__all__ = ["Report", "added_report", "hand_report", "new_report", "position_at", "position_report", "result_text",
           "turn_list_report", "undone_report"]
