"""Solver configuration and answers as plain data (position -> model -> solution)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .cards import Card, Deck
from .position import DrawTaken, Position
from .vocabulary import DrawSource, Objective, Status


def as_number(value: Fraction) -> int | float:
    """A gain or bound as a Solution holds it: whole numbers as integers, others as floats."""
    return int(value) if value.denominator == 1 else float(value)


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
    # Draw advice makes many searches: told (done, total) after each one, for a progress display.
    progress: Callable[[int, int], None] | None = field(default=None, compare=False, repr=False)
    # Told of each better answer while the search goes on (``best --progress``, the page's best so far).
    # Called from the searching thread: it must be quick and must not raise.
    on_better: Callable[[Improvement], None] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Improvement:
    """A better answer found while a search goes on (``SolverConfig.on_better`` hears each one).

    ``gain`` is the gain of ``after`` exactly as the checker counts it (the
    final answer's gain is never lower); ``bound`` is what no turn can beat,
    as proven so far (never below ``gain``); ``seconds`` counts from the
    start of the search. ``source`` says what found it: ``table`` (the table
    as it is), ``greedy``, ``ladder``, ``neighbourhood`` (a part of the best
    turn searched again), ``cp-sat``, ``no-meld`` (House's turns without a
    meld), ``draw`` (draw advice: an option valued). In the draw phase,
    ``options`` are the draws valued so far, best first (``valued`` of
    ``total`` searches made), and ``after`` the chosen draw's whole turn
    where that draw is certain.
    """

    gain: float
    bound: float
    seconds: float
    after: Position | None
    cards_played: int = 0
    source: str = "cp-sat"
    options: tuple[DrawOption, ...] = ()
    valued: int = 0
    total: int = 0


@dataclass(frozen=True)
class DrawOption:
    """One legal draw of the draw phase and what it is worth (formats.md's ``options``).

    ``cards`` are what the draw is known to give, top card first: the
    discard-pile cards taken (Robber: the whole pile), the upcard opened, the
    stock's top card where the stock is listed; none for a random draw.
    ``value`` looks one turn ahead, as ``gain`` does: the gain of the draw and
    the best turn after it, measured from the position before the draw (an
    expectation where the draw is random; a demand's is its probability times
    the value on success); ``exact`` is the same as a fraction. ``take``
    (discard pile), ``card`` and ``player`` (demand), ``probability``
    (demand), ``scores_chance`` (a random stock draw: the chance that the turn
    scores anything at all) and ``bound`` (the proven ceiling of the value) are
    there where they apply.
    """

    source: DrawSource
    value: float
    cards: tuple[Card, ...] = ()
    take: int | None = None
    card: Card | None = None
    player: str | None = None
    probability: Fraction | None = None
    scores_chance: Fraction | None = None
    exact: Fraction | None = None
    bound: float | None = None

    @property
    def certain(self) -> bool:
        """Whether the draw's cards are known before it is made (the turn after it can be planned)."""
        if self.source == DrawSource.PASS:
            return True
        if self.source == DrawSource.DEMAND:
            return self.probability == 1
        return bool(self.cards)

    def taken(self) -> DrawTaken:
        """The draw as a ``[turn] draw`` declaration."""
        return DrawTaken(self.source, self.take, self.card, self.player)

    def to_data(self, deck: Deck) -> dict[str, Any]:
        """formats.md's ``draw``: ``{"from": "discard", "take": 2, "cards": [...]}``, ``{"from": "stock"}``,
        ``{"from": "demand", "card": "QS", "player": "bob", "probability": 0.25}``, Robber's
        ``{"from": "pile", "cards": [...], "top": ...}`` (the value is not part of it)."""
        data: dict[str, Any] = {"from": self.source}
        if self.take is not None:
            data["take"] = self.take
        if self.cards:
            data["cards"] = [card.notation(deck) for card in self.cards]
        if self.source == DrawSource.PILE:
            data["top"] = data["cards"][0]
        if self.card is not None:
            data["card"] = self.card.notation(deck)
        if self.player is not None:
            data["player"] = self.player
        if self.probability is not None:
            data["probability"] = round(float(self.probability), 4)
        return data


@dataclass(frozen=True)
class DrawChoice:
    """The draw phase's answer: every legal draw, best first.

    The first option is the one chosen (on a tie too); there is none when no
    draw leads to a legal turn. ``start`` is the play-phase position the
    chosen draw leads to, where it is certain (the plan starts there). The
    other figures count the searches behind the values: ``samples`` the
    distinct stock cards solved for, ``unseen`` the cards the stock may give
    (the expectation's weights), ``openings`` the ways to meld Robber's pile
    top card (0 where none makes a turn), ``solves`` the play-phase searches
    made in all.
    """

    options: tuple[DrawOption, ...]
    samples: int = 0
    unseen: int = 0
    openings: int = 0
    start: Position | None = None
    solves: int = 0

    @property
    def chosen(self) -> DrawOption | None:
        return self.options[0] if self.options else None

    def value_of(self, source: DrawSource) -> float | None:
        """The value of the first option drawing from ``source``; None where that draw is not legal."""
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
