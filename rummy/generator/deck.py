"""One deck to deal random positions from, and random whole plays dealt from it.

The generator's deals, the tests' random positions and the benchmarks' all
deal through ``DeckPool``: every card at most as often as the ruleset's deck
holds it, so what they make is a position the deck allows. Everything drawn
at random comes from the ``random.Random`` given, so a seed deals the same
everywhere.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import JOKER, SUITS, Card, rank_at
from ..errors import PositionError
from ..plays import is_whole
from ..position import Player, Position
from ..rules import Ruleset
from ..vocabulary import Phase


class DeckPool:
    """The cards of a ruleset's deck not dealt yet, in dealing order: shuffled by
    ``rng`` when one is given, else in the deck's own order."""

    def __init__(self, rules: Ruleset, rng: random.Random | None = None) -> None:
        self._cards = list(rules.deck_cards)
        if rng is not None:
            rng.shuffle(self._cards)
        # Counted as well as listed: deals ask "are these still there?" far more often than they take.
        self._left = Counter(self._cards)

    @property
    def cards(self) -> tuple[Card, ...]:
        """What is left, in dealing order."""
        return tuple(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card: Card) -> bool:
        return self._left[card.plain()] > 0

    def has(self, cards: Iterable[Card]) -> bool:
        """Does the pool still hold all of ``cards`` (a joker's stand-in aside)?"""
        return all(self._left[card] >= n for card, n in Counter(c.plain() for c in cards).items())

    def take(self, cards: Iterable[Card]) -> bool:
        """Take ``cards`` out of the pool: all of them, or none when one is missing. The rest keep their order."""
        cards = [c.plain() for c in cards]
        if not self.has(cards):
            return False
        for card in cards:
            self._cards.remove(card)
        self._left.subtract(cards)
        return True

    def draw(self, count: int) -> list[Card]:
        """The next ``count`` cards (fewer when the pool runs short), taken out of it."""
        drawn, self._cards = self._cards[:count], self._cards[count:]
        self._left.subtract(drawn)
        return drawn

    def give_back(self, cards: Iterable[Card]) -> None:
        """Return dealt cards to the pool, last in dealing order."""
        cards = [c.plain() for c in cards]
        self._cards.extend(cards)
        self._left.update(cards)


@dataclass(frozen=True)
class PlayShapes:
    """What ``random_play`` proposes: a run (ranks may wrap past the king) or a book of distinct suits."""

    tries: int  # proposals before giving up
    run_chance: float  # a run, else a book
    run_lengths: tuple[int, ...]  # chosen from, so repeats weigh a length
    book_sizes: tuple[int, ...]
    joker_chance: float = 0.0  # one card turned into a joker; 0 and 1 draw nothing from the rng


def random_play(rng: random.Random, pool: DeckPool, rules: Ruleset, shapes: PlayShapes) -> list[Card] | None:
    """A random play, whole under ``rules``, that the pool can give, taken out of it; None after
    ``shapes.tries`` misses."""
    for _ in range(shapes.tries):
        if rng.random() < shapes.run_chance:
            suit, length, start = rng.choice(SUITS), rng.choice(shapes.run_lengths), rng.randint(1, 13)
            cards = [Card(rank_at(start + k), suit) for k in range(length)]
        else:
            rank = rng.randint(1, 13)
            cards = [Card(rank, suit) for suit in rng.sample(SUITS, rng.choice(shapes.book_sizes))]
        if _joker_wanted(rng, shapes.joker_chance) and JOKER in pool:
            cards[rng.randrange(len(cards))] = JOKER
        if is_whole(tuple(cards), rules) and pool.take(cards):
            return cards
    return None


def _joker_wanted(rng: random.Random, chance: float) -> bool:
    # A sure chance (0 or 1) asks the rng nothing, so a caller that decides per play keeps its seeds' deals.
    if chance <= 0 or chance >= 1:
        return chance >= 1
    return rng.random() < chance


def with_piles(rules: Ruleset, players: tuple[Player, ...], mover: str, rest: list[Card], rng: random.Random,
               discard_pile: tuple[int, int]) -> Position | None:
    """A dealt table's play-phase position with its piles: ``rest`` (what the deal left, in the
    caller's order) shuffled, a discard pile of ``discard_pile`` cards from its top, the stock what
    the hidden hands leave. None when no stock is left, or when the deal is not a valid position
    file (read back as any file is: every card within the deck)."""
    rng.shuffle(rest)
    pile = tuple(rest[: rng.randint(*discard_pile)])
    hidden = sum(p.hand_count or 0 for p in players if p.hand is None)
    stock = len(rest) - len(pile) - hidden
    if stock < 1:
        return None
    position = Position(rules, players, mover, Phase.PLAY, None, None, (), pile, stock)
    try:
        return Position.from_data(position.to_data())
    except PositionError:
        return None
