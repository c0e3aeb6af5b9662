"""``rummy review``'s answer: a game review (rummy.games.review) as lines and as its ``--json`` object
(docs/formats.md "Review")."""

from __future__ import annotations

from typing import Any

from rummy.games.review import (
    MARK_NAMES,
    MARKS,
    DrawReview,
    GameReview,
    MarkScale,
    PlayerSummary,
    TurnReview,
    draw_words,
    mark_scale,
)
from rummy.reports.lines import Styled, text
from rummy.rules import ruleset_to_spec
from rummy.vocabulary import Status
from rummy.words import number

REVIEW_FORMAT = 1  # the --json object's version
MARK_STYLES = {"?!": "bold yellow", "?": "bold dark_orange", "??": "bold red"}


# ------------------------------------------------------------------ JSON
def review_data(review: GameReview, player: str | None = None) -> dict[str, Any]:
    game = review.game
    scale = _scale(review)
    data: dict[str, Any] = {
        "review": REVIEW_FORMAT,
        "rules": ruleset_to_spec(game.rules),
        "players": list(game.players),
        "player": player,
        "time_limit": review.time_limit,
        "marks": {"absolute": list(scale.absolute), "relative": list(scale.relative)},
        "turns": [turn_data(turn) for turn in review.turns],
        "summary": [summary_data(summary) for summary in review.summaries()],
    }
    if game.title:
        data["title"] = game.title
    return data


def _scale(review: GameReview) -> MarkScale:
    return mark_scale(review.game.rules.family.name)


def turn_data(turn: TurnReview) -> dict[str, Any]:
    data: dict[str, Any] = {"hand": turn.hand, "turn": turn.turn, "player": turn.player, "phase": str(turn.phase),
                            "played": turn.text}
    if turn.skipped is not None:
        data["skipped"] = turn.skipped
        return data
    data.update({"gain": _json(turn.gain),
                 "best": {"gain": _json(turn.best_gain), "status": str(turn.status) if turn.status else None,
                          "turn": turn.best_text},
                 "lost": _json(turn.lost), "mark": turn.mark, "beat_search": turn.beat_search,
                 "draw": draw_data(turn.draw) if turn.draw is not None else None,
                 "play_best_gain": _json(turn.play_best_gain),
                 "seconds": round(turn.seconds, 4)})
    return data


def draw_data(draw: DrawReview) -> dict[str, Any]:
    return {"played": draw.played, "played_value": _json(draw.played_value), "best": draw.best,
            "best_value": _json(draw.best_value), "lost": _json(draw.lost)}


def summary_data(summary: PlayerSummary) -> dict[str, Any]:
    return {"player": summary.player, "turns": summary.turns, "skipped": summary.skipped,
            "lost": _json(summary.lost), "lost_per_turn": _json(summary.lost_per_turn),
            "best_share": _json(summary.best_share), "best_turns": summary.best_turns, "marks": summary.marks}


def _json(value: float | None) -> float | int | None:
    if value is None:
        return None
    value = round(float(value), 4)
    return int(value) if value.is_integer() else value


# ------------------------------------------------------------------ lines
def review_lines(review: GameReview, source: str) -> list[Styled | str]:
    game = review.game
    lines: list[Styled | str] = [text(("review", "bold"), f" of {source}: {game.rules.name}, "
                                      f"{', '.join(game.players)} ({number(review.time_limit)} s a position)")]
    hand = 0
    for turn in review.turns:
        if turn.hand != hand:
            hand = turn.hand
            lines.append(text(("hand " + str(hand), "bold")))
        lines.extend(turn_lines(turn))
    lines.append(text(("summary", "bold")))
    lines.extend(summary_line(summary) for summary in review.summaries())
    return lines


def turn_lines(turn: TurnReview) -> list[Styled | str]:
    head = text(f"  {turn.turn}. ", (turn.player, "bold"), f"  {turn.text}")
    if turn.mark is not None:
        head = head + text("  ", (turn.mark, MARK_STYLES[turn.mark]))
    if turn.skipped is not None:
        return [head, text("     ", ("not reviewed", "dim"), f": {turn.skipped}")]
    lines: list[Styled | str] = [head]
    if turn.draw is not None:
        lines.append(text("     ", _draw_line(turn.draw)))
    if turn.gain is not None:
        lines.append(text("     ", _play_line(turn)))
    elif turn.draw is None and turn.best_gain is not None:
        lines.append(text(f"     the best turn scores {_best_gain(turn)}"))
    return lines


def _draw_line(draw: DrawReview) -> Styled:
    played = _draw_name(draw.played) if draw.played else "the draw"
    best = _draw_name(draw.best)
    cards = f" ({' '.join(draw.best['cards'])})" if draw.best.get("cards") else ""
    if draw.played_value is None:
        return text(f"draw: {played} (not valued by the draw advice); the best draw, {best}{cards}, is worth "
                    f"{number(draw.best_value)}")
    if draw.lost <= 1e-4:
        return text(f"draw: {played}, worth {number(draw.played_value)}: ", ("the best draw", "green"))
    return text(f"draw: {played}, worth {number(draw.played_value)}; the best draw, {best}{cards}, is worth "
                f"{number(draw.best_value)}: lost {number(draw.lost)}")


def _draw_name(draw: dict[str, Any]) -> str:
    """A draw in words, the stock's named: ``draw`` alone reads as the verb."""
    words = draw_words(draw)
    return "draw (the stock)" if words == "draw" else words


def _play_line(turn: TurnReview) -> Styled:
    gain = f"gain {number(turn.gain)}"
    after_draw = turn.draw is not None  # a whole draw-phase turn: its play against the best play after that draw
    best = number(turn.play_best_gain) if after_draw else _best_gain(turn)
    if turn.beat_search:
        return text(gain, f"; the search found {best} ",
                    ("(feasible: the search was at its time limit; this turn beats it)", "dim"))
    play_lost = turn.lost - (turn.draw.lost if turn.draw is not None else 0.0)
    if play_lost <= 1e-4:
        note = "" if turn.status == Status.OPTIMAL else " (feasible: the search was at its time limit)"
        return text(gain, ": ", ("the best play after this draw" if after_draw else "a best turn", "green"), note)
    if after_draw:
        return text(gain, f"; the best play after this draw scores {best}: ",
                    (f"lost {number(round(play_lost, 4))}", "bold"), f"; the best turn: {turn.best_text or '-'}")
    return text(gain, f"; best {best}: ", (f"lost {number(round(play_lost, 4))}", "bold"),
                f"; best: {turn.best_text or 'see --json'}")


def _best_gain(turn: TurnReview) -> str:
    shown = number(turn.best_gain)
    return shown if turn.status == Status.OPTIMAL else f"{shown} (feasible: the search was at its time limit)"


def summary_line(summary: PlayerSummary) -> Styled:
    if not summary.turns:
        return text(f"  {summary.player}: no turn reviewed ({summary.skipped} skipped)")
    share = summary.best_share or 0.0
    marks = ", ".join(f"{summary.marks[mark]} {mark}" for mark in MARKS if summary.marks[mark])
    parts = [f"{summary.turns} turn{'s' if summary.turns != 1 else ''}",
             f"lost {number(round(summary.lost, 4))} ({summary.lost_per_turn:.2f} a turn)",
             f"best {summary.best_turns} of {summary.turns} ({share:.0%})"]
    if marks:
        parts.append(marks)
    if summary.skipped:
        parts.append(f"{summary.skipped} skipped")
    return text("  ", (summary.player, "bold"), ": " + "; ".join(parts))


def marks_legend(review: GameReview) -> str:
    scale = _scale(review)
    return "; ".join(f"{mark} {MARK_NAMES[mark]}: lost at least {number(points)} and {share:.0%} of the best"
                     for mark, points, share in zip(MARKS, scale.absolute, scale.relative))


__all__ = ["REVIEW_FORMAT", "draw_data", "marks_legend", "review_data", "review_lines", "summary_data", "turn_data"]
