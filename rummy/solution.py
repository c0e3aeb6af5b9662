"""Solver configuration and answers as plain data (position -> model -> solution)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import Card, Deck
from .position import Position
from .vocabulary import DrawSource, Objective, Status


# Seconds per solve of 'rummy generate' when a request does not say (generator.Request, the CLI).
GENERATE_TIME_LIMIT = 10.0

@dataclass(frozen=True)
class SolverConfig:
    time_limit: float = 30.0
    workers: int = 2
    objective: Objective = Objective.DEFAULT  # tile rummy: TILES (the default) or VALUE
    seed: int = 0
    hint: bool = True
    # Final arrangements (after-positions) no answer may repeat: the model adds a
    # no-good per arrangement (tile rummy; puzzles check uniqueness with it).
    exclude: tuple[Position, ...] = ()


@dataclass(frozen=True)
class DrawOption:
    """One legal draw of the draw phase and what it is worth (formats.md's ``options``).

    ``cards`` are what the draw is known to give, top card first: the whole
    discard pile, or the stock's top card where the stock is listed; none
    for a random draw (a stock of unknown cards). ``value`` looks one turn
    ahead, as ``gain`` does: the best turn after the draw (for a random draw,
    the expectation over the unseen cards).
    """

    source: DrawSource
    value: float
    cards: tuple[Card, ...] = ()

    def to_data(self, deck: Deck) -> dict[str, Any]:
        """formats.md's ``draw``: ``{"from": "pile", "cards": [...], "top": ...}``, ``{"from": "stock"}``
        or, a listed stock, ``{"from": "stock", "cards": [top]}`` (the value is not part of it)."""
        data: dict[str, Any] = {"from": self.source}
        if self.cards:
            data["cards"] = [card.notation(deck) for card in self.cards]
        if self.source == DrawSource.PILE:
            data["top"] = data["cards"][0]
        return data


@dataclass(frozen=True)
class DrawChoice:
    """The draw phase's answer (Robber Rummy): every legal draw, best first.

    The first option is the one chosen (on a tie too); there is none when no
    draw leads to a legal turn. The other figures count the searches behind
    the values: ``samples`` the distinct stock cards solved for, ``unseen``
    the cards the stock may give (the expectation's weights), ``openings``
    the ways to meld the pile's top card (0 where none makes a turn).
    """

    options: tuple[DrawOption, ...]
    samples: int = 0
    unseen: int = 0
    openings: int = 0

    @property
    def chosen(self) -> DrawOption | None:
        return self.options[0] if self.options else None

    def value_of(self, source: DrawSource) -> float | None:
        """The value of drawing from ``source``; None where that draw is not legal."""
        return next((option.value for option in self.options if option.source == source), None)


@dataclass(frozen=True)
class Solution:
    """The best turn found.

    ``after`` is the full position after the turn, with every ``[turn]``
    declaration written, so the checker can judge it. ``gain`` is rules.md's
    objective for the family (tile rummy: tiles played, or their value with
    ``Objective.VALUE``); ``bound`` the best proven upper bound. "No move"
    is a result: status ``draw`` (tile rummy) or ``no-legal-turn`` with a
    ``reason``; ``after`` is then the position unchanged (or None). ``draw``
    is the draw phase's choice (Robber Rummy), None in the play phase.
    """

    status: Status
    gain: float
    bound: float
    after: Position | None
    cards_played: int = 0
    reason: str | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    draw: DrawChoice | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status))  # a status given as text becomes its member

    @property
    def chosen_draw(self) -> DrawOption | None:
        """The draw this answer takes (draw phase); None in the play phase or where no draw is legal."""
        return self.draw.chosen if self.draw is not None else None
