"""The position after a turn, as ``check`` and ``show --after`` read it: a position file (read
leniently), or the JSON that ``best --json`` prints (its ``after``, or its draw when the draw is
random), and the draws an answer lists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .cards import Card
from .errors import NoTurnInAnswer, PositionError, quote
from .inputs import read_text, source_name, text_kind
from .parsing import parse_json
from .position import DrawTaken, Position
from .reader import MAX_CARDS, Reader
from .vocabulary import Action, Status


def read_end_state(path: str | Path) -> Position:
    """A proposed end state (``check``'s AFTER), read leniently: a TOML or JSON
    position with its [turn] table, or the JSON that ``best --json`` prints
    (its ``after`` key; several answers, one per line: the first).

    Read by content as well as by suffix, so ``<(rummy best BEFORE --json)`` works.
    """
    position, _ = read_end_state_or_draw(path)
    assert position is not None  # only a random draw has none
    return position


def read_end_state_or_draw(path: str | Path, random_draw: bool = False) -> tuple[Position | None, DrawTaken | None]:
    """``(the end state, None)``, read as ``read_end_state`` reads it. With ``random_draw``
    (a draw-phase BEFORE), a ``best --json`` answer whose draw is random (``after`` null)
    gives ``(None, its draw)``: the draw is judged alone (docs/checker.md). The draw is
    formats.md's ``draw`` object (or the answer's first step, a draw), read as a
    ``DrawTaken``: ``from``, and ``take``, ``card``, ``player`` where given. The file is
    read once, so a pipe works."""
    text = read_text(path)
    return end_state_or_draw_from_text(text, source_name(path), text_kind(path, text), random_draw)


def _answer_data(text: str, source: str) -> Any:
    """JSON text as data; of several answers, one per line (``best --json`` on many positions), the first."""
    stripped = text.strip()
    first = stripped.splitlines()[0] if "\n{" in stripped else text
    return parse_json(first, source)


def is_answer(text: str, kind: str, source: str) -> bool:
    """Whether the text is the JSON of a ``best --json`` answer (a puzzle's ``NAME.solution.json``
    too): an object with an ``after`` key and no ``players``."""
    if kind != "json" and not text.lstrip().startswith("{"):
        return False
    data = _answer_data(text, source)
    return isinstance(data, dict) and "after" in data and "players" not in data


def end_state_or_draw_from_text(text: str, source: str, kind: str,
                                random_draw: bool = False) -> tuple[Position | None, DrawTaken | None]:
    """``read_end_state_or_draw`` on text already read (``kind`` ``code``: a position code's position)."""
    if kind == "code":
        from .position_code import code_json

        text, kind = code_json(text, source), "json"
    if kind != "json" and not text.lstrip().startswith("{"):
        return Position.from_toml(text, source=source, strict=False, mover_may_be_hidden=True), None
    data = _answer_data(text, source)
    if not isinstance(data, dict):
        raise PositionError(source, f"a position must be a JSON object, got {quote(data)}")
    if "after" not in data or "players" in data:
        return Position.from_data(data, source=source, strict=False, mover_may_be_hidden=True), None
    after = data["after"]
    if isinstance(after, dict):
        return Position.from_data(after, source=f"{source}: after", strict=False,
                                  mover_may_be_hidden=True), None
    if after is not None:
        raise PositionError(f"{source}: after", f"expected the position after the turn, got {quote(after)}")
    if data.get("status") in (Status.UNKNOWN, Status.NO_LEGAL_TURN):
        raise NoTurnInAnswer(source, data["status"])
    if not random_draw or data.get("status") not in (Status.OPTIMAL, Status.FEASIBLE):
        raise PositionError(source, f"the answer has no after position (status {quote(data.get('status'))})")
    steps = data.get("steps")
    first_step = steps[0] if isinstance(steps, list) and steps and isinstance(steps[0], dict) else {}
    draw = data.get("draw") or (first_step if first_step.get("action") == Action.DRAW else None)
    if not isinstance(draw, dict):
        raise PositionError(source, "the answer has neither an after position nor a draw")
    return None, read_answer_draws([draw], source, "draw")[0][0]


def read_answer_draws(draws: Any, source: str, place: str = "options") -> list[tuple[DrawTaken, tuple[Card, ...]]]:
    """formats.md's ``draw`` objects of a ``best --json`` answer (its ``options`` list): each draw as
    a ``DrawTaken`` and the cards it is known to give (a bad card is a PositionError naming its place)."""
    if not isinstance(draws, list) or len(draws) > MAX_CARDS * 4:
        raise PositionError(f"{source}: {place}", f"expected a list of draws, got {quote(draws)}")
    reader = Reader(source)
    found = []
    for i, draw in enumerate(draws, 1):
        at = f"{place}[{i}]" if place != "draw" else place
        taken = reader.draw_taken(draw, at, answer=True)
        cards = reader.cards(draw.get("cards", []), f"{at}.cards")
        reader.cards_read = 0  # each draw tells of the same position's cards again
        found.append((taken, cards))
    if reader.card_errors:
        raise reader.all_errors()
    return found
