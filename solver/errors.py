"""Errors raised for bad input. All subclass ValueError and quote what was wrong."""

from __future__ import annotations


class RummyError(ValueError):
    """Bad input: the message names the place and quotes the offending text."""


class NotationError(RummyError):
    """A card, tile or play could not be read."""


class RulesError(RummyError):
    """An unknown preset or option, or an impossible combination of options."""


class PositionError(RummyError):
    """A position file that is malformed or inconsistent.

    ``place`` is where the problem is (``file: players.ann.hand``), so the
    command line can print one line that a user can act on.
    """

    def __init__(self, place: str, problem: str) -> None:
        self.place = place
        self.problem = problem
        super().__init__(f"{place}: {problem}" if place else problem)
