"""The checker's answer: legal or not, every breach, and the reading used."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .codes import BreachCode


@dataclass(frozen=True, init=False)
class Breach:
    """One broken rule: a stable code, a sentence, and the cards and plays involved.

    ``code`` may be given as its string; anything not in ``BreachCode`` is refused.
    """

    code: BreachCode
    message: str
    cards: tuple[str, ...] = ()
    plays: tuple[str, ...] = ()

    def __init__(self, code: BreachCode | str, message: str, cards: tuple[str, ...] = (),
                 plays: tuple[str, ...] = ()) -> None:
        # Written out (not generated) so that the code may be given as its string: the checker
        # writes Breach("spite", ...), and tests/checker/test_breach_codes.py reads those strings.
        object.__setattr__(self, "code", BreachCode(code))
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "plays", plays)

    def to_data(self) -> dict[str, Any]:
        return {"code": str(self.code), "message": self.message, "cards": list(self.cards), "plays": list(self.plays)}


@dataclass(frozen=True)
class Verdict:
    legal: bool
    breaches: tuple[Breach, ...] = ()
    # JSON data (``--json`` prints it) whose keys and value types depend on the game family.
    reading: dict[str, Any] = field(default_factory=dict)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(b.code for b in self.breaches)

    def to_data(self) -> dict[str, Any]:
        return {"legal": self.legal, "breaches": [b.to_data() for b in self.breaches], "reading": self.reading}


def dedupe(breaches: Iterable[Breach]) -> list[Breach]:
    """The breaches in order, each (code, message) once."""
    seen: set[tuple[BreachCode, str]] = set()
    result: list[Breach] = []
    for breach in breaches:
        key = (breach.code, breach.message)
        if key not in seen:
            seen.add(key)
            result.append(breach)
    return result


def json_number(value: Fraction | int) -> int | float:
    """A gain as the reading prints it: whole numbers exact, fractions to 4 decimals."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 4)
    return value
