"""Card instances followed through a turn: where each came from, where it ended.

Identical cards (the two jokers, or duplicates in two-copy decks) can be
told apart only by a reading: ``token_readings`` yields every distinct way
of matching the places they were in to the places they are in, the readings
that keep the most cards where they were first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice, permutations, product

from ..cards import Card
from ..plays import PlayName
from ..position import Position

HAND = "hand"
DISCARD = "discard"

# Where a card lies: a player's name (their space), HAND or DISCARD, and the play (None: no play).
Place = tuple[str, PlayName | None]


@dataclass(frozen=True)
class Token:
    """One card of the turn. ``origin``/``dest`` are a player's name (their
    space), ``hand`` or ``discard``; ``origin_play``/``dest_play`` name the play."""

    card: Card
    origin: str
    origin_play: PlayName | None
    dest: str
    dest_play: PlayName | None
    released: bool = False      # a joker freed by replacement: from now on a hand card
    replacement: bool = False   # the card put in for a joker: from now on a card of that space
    in_meld: bool = False

    @property
    def from_hand(self) -> bool:
        return self.origin == HAND

    @property
    def on_table(self) -> bool:
        return self.dest not in (HAND, DISCARD)


def _owner(play_name: str) -> str:
    return PlayName(play_name).owner


def _sources(before: Position) -> dict[Card, list[Place]]:
    places: dict[Card, list[Place]] = defaultdict(list)
    for name, play in before.named_plays().items():
        for card in play.cards:
            places[card.plain()].append((_owner(name), name))
    for card in before.mover.hand or ():
        places[card.plain()].append((HAND, None))
    return places


def _destinations(after: Position, mover: str, discards: list[Card]) -> dict[Card, list[Place]]:
    places: dict[Card, list[Place]] = defaultdict(list)
    for name, play in after.named_plays().items():
        for card in play.cards:
            places[card.plain()].append((_owner(name), name))
    for card in after.player(mover).hand or ():
        places[card.plain()].append((HAND, None))
    for card in discards:
        places[card.plain()].append((DISCARD, None))
    return places


def _matchings(card: Card, sources: list[Place], dests: list[Place], limit: int) -> list[list[Token]]:
    """Distinct ways to pair the places a card was in with the places it is in."""
    n = min(len(sources), len(dests))
    if n == 0:
        return [[]]
    seen: set[tuple[tuple[Place, Place], ...]] = set()
    options: list[list[Token]] = []
    for order in islice(permutations(range(len(dests)), n), 5000):
        pairs = sorted((sources[i], dests[j]) for i, j in enumerate(order))
        key = tuple(pairs)
        if key in seen:
            continue
        seen.add(key)
        options.append([Token(card, s[0], s[1], d[0], d[1]) for s, d in pairs])
    options.sort(key=lambda tokens: -sum(t.origin_play is not None and t.origin == t.dest for t in tokens))
    return options[:limit]


def token_readings(before: Position, after: Position, discards: list[Card], limit: int = 64) -> Iterator[list[Token]]:
    """Every reading of the turn as tokens (at most ``limit``), likeliest first."""
    sources = _sources(before)
    dests = _destinations(after, before.to_move, discards)
    fixed: list[Token] = []
    choices: list[list[list[Token]]] = []
    for card in sorted(set(sources) | set(dests)):
        options = _matchings(card, sources.get(card, []), dests.get(card, []), limit)
        if len(options) == 1:
            fixed.extend(options[0])
        else:
            choices.append(options)
    for combination in islice(product(*choices), limit):
        yield fixed + [t for option in combination for t in option]
