"""Hypothesis helpers: positions dealt from a real deck.

A ``Pool`` is the part of a ruleset's deck not dealt yet; whole plays and
loose cards are drawn from it (and taken out of it), so every generated
position fits its deck: one copy of each card in House Rummy, two of each
tile in tile rummy, two jokers. Draws go through ``data.draw`` so that
Hypothesis can shrink a failing position to a small one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from itertools import combinations

from hypothesis import assume
from hypothesis import strategies as st

from rummy.cards import JOKER, SUITS, Card
from rummy.generator.deck import DeckPool
from rummy.plays import Play, is_whole
from rummy.position import Player, Position, Turn
from rummy.rules import Ruleset

Cards = tuple[Card, ...]
MOVER = "ann"
OPPONENTS = ("bob", "cat")


class Pool(DeckPool):
    """The undealt cards of a deck (plain cards: jokers without stand-ins), dealt by name:
    the strategies only offer cards the pool still has."""

    def __init__(self, rules: Ruleset) -> None:
        super().__init__(rules)
        self.rules = rules

    def deal(self, cards: Iterable[Card]) -> Cards:
        """``cards``, taken out of the pool (all of them must be there)."""
        cards = tuple(cards)
        taken = self.take(cards)
        assert taken, f"{cards} are not all left in the deck"
        return cards

    def naturals(self) -> list[Card]:
        return sorted(card for card in self.cards if not card.is_joker)

    def jokers(self) -> int:
        return self.cards.count(JOKER)


# ----------------------------------------------------------------- shapes
def run_cards(suit: str, start: int, length: int, rules: Ruleset) -> Cards | None:
    """A natural run from ``start`` upwards, or None where the ace rule forbids it."""
    if rules.ace == "circular":
        if length > 13:
            return None
        return tuple(Card((start - 1 + i) % 13 + 1, suit) for i in range(length))
    if start + length - 1 > 13:
        return None
    return tuple(Card(start + i, suit) for i in range(length))


def next_rank(rank: int, step: int, rules: Ruleset) -> int | None:
    """The rank ``step`` places on (negative: before), or None off the end of a non-circular run."""
    target = rank + step
    if rules.ace == "circular":
        return (target - 1) % 13 + 1
    return target if 1 <= target <= 13 else None


def run_extensions(run: Cards, rules: Ruleset) -> list[Card]:
    """The natural cards that make a natural run (lowest card first) one longer."""
    suit = run[0].suit
    if len(run) >= 13:
        return []
    ranks = [next_rank(run[0].rank, -1, rules), next_rank(run[-1].rank, 1, rules)]
    return sorted({Card(rank, suit) for rank in ranks if rank is not None})


def draw_from(data, options: Sequence, label: str = "option"):
    """One of ``options``; the example is rejected when there is none."""
    assume(len(options) > 0)
    return data.draw(st.sampled_from(list(options)), label=label)


def run_options(pool: Pool, lengths: Iterable[int], where: Callable[[Cards], bool] | None = None,
                suits: Iterable[str] = SUITS) -> list[Cards]:
    options = []
    for suit in suits:
        for length in lengths:
            for start in range(1, 14):
                cards = run_cards(suit, start, length, pool.rules)
                if cards is not None and pool.has(cards) and (where is None or where(cards)):
                    options.append(cards)
    return options


def book_options(pool: Pool, sizes: Iterable[int], where: Callable[[Cards], bool] | None = None,
                 ranks: Iterable[int] = range(1, 14)) -> list[Cards]:
    options = []
    for rank in ranks:
        for size in sizes:
            for suits in combinations(SUITS, size):
                cards = tuple(Card(rank, suit) for suit in suits)
                if pool.has(cards) and (where is None or where(cards)):
                    options.append(cards)
    return options


def draw_run(data, pool: Pool, lengths: Iterable[int] = range(3, 7), where=None, suits=SUITS) -> Cards:
    return pool.deal(draw_from(data, run_options(pool, lengths, where, suits), "run"))


def draw_book(data, pool: Pool, sizes: Iterable[int] = (3, 4), where=None, ranks=range(1, 14)) -> Cards:
    return pool.deal(draw_from(data, book_options(pool, sizes, where, ranks), "book"))


def draw_play(data, pool: Pool, where=None, run_lengths: Iterable[int] = range(3, 7),
              book_sizes: Iterable[int] = (3, 4)) -> Cards:
    """A natural whole play: a run or a book."""
    options = run_options(pool, run_lengths, where) + book_options(pool, book_sizes, where)
    return pool.deal(draw_from(data, options, "play"))


def maybe_joker(data, pool: Pool, play: Cards, fixed: bool = False) -> Cards:
    """The play, or the play with one card swapped for a joker (the card goes back to the deck).

    ``fixed``: the joker carries the card it stands for (rules.md §6).
    """
    if pool.jokers() == 0 or not data.draw(st.booleans(), label="joker?"):
        return play
    index = data.draw(st.integers(0, len(play) - 1), label="joker index")
    replaced = play[index]
    pool.give_back([replaced])
    pool.deal([JOKER])
    joker = Card.joker(replaced) if fixed else JOKER
    return play[:index] + (joker,) + play[index + 1:]


def draw_loose(data, pool: Pool, low: int, high: int, jokers: bool = True) -> Cards:
    """Between ``low`` and ``high`` random cards from the deck."""
    count = data.draw(st.integers(low, high), label="loose count")
    cards = []
    for _ in range(count):
        options = pool.naturals() + ([JOKER] if jokers and pool.jokers() else [])
        if not options:
            break
        cards.append(pool.deal([draw_from(data, sorted(set(options)), "loose card")])[0])
    return tuple(cards)


def draw_background(data, pool: Pool, low: int, high: int, jokers: bool = True, fixed: bool = False) -> list[Cards]:
    """Plays nobody touches this turn."""
    count = data.draw(st.integers(low, high), label="background plays")
    plays = []
    for _ in range(count):
        play = draw_play(data, pool)
        plays.append(maybe_joker(data, pool, play, fixed) if jokers else play)
    return plays


def shuffled(data, items: Sequence) -> list:
    return list(data.draw(st.permutations(list(items)), label="order"))


# -------------------------------------------------------------- positions
def plays_of(cards_lists: Iterable[Cards]) -> tuple[Play, ...]:
    return tuple(Play(tuple(cards)) for cards in cards_lists)


def tile_position(data, rules: Ruleset, pool: Pool, table: Sequence[Cards], hand: Cards,
                  melded: bool = True) -> Position:
    """A tile-rummy position at the mover's play phase: table, rack, 1-2 opponents with counted racks."""
    opponents = OPPONENTS[: data.draw(st.integers(1, 2), label="opponents")]
    counts = []
    for _ in opponents:
        count = data.draw(st.integers(1, min(14, len(pool))), label="rack size")
        counts.append(count)
    unseen = len(pool) - sum(counts)
    assume(unseen >= 0)
    players = (Player(MOVER, MOVER, melded, tuple(hand)),) + tuple(
        Player(name, name, data.draw(st.booleans(), label="opponent melded"), None, count)
        for name, count in zip(opponents, counts)
    )
    return Position(rules=rules, players=players, to_move=MOVER, table=plays_of(shuffled(data, table)), stock=unseen)


def tile_after(before: Position, table: Sequence[Cards], hand: Cards, **turn) -> Position:
    after = with_player(before, MOVER, hand=tuple(hand))
    after = replace(after, table=plays_of(table))
    if turn:
        after = replace(after, turn=Turn(**turn))
    return after


def with_player(position: Position, name: str, **changes) -> Position:
    return position.replace_player(replace(position.player(name), **changes))


def house_opponent(data, pool: Pool, name: str, plays: Sequence[Cards], background: tuple[int, int] = (0, 2)) -> Player:
    """An opponent with the given plays plus untouched ones; hand known or only counted."""
    space = list(plays) + draw_background(data, pool, *background)
    space = shuffled(data, space)
    if data.draw(st.booleans(), label="hand known?"):
        hand: Cards | None = draw_loose(data, pool, 0, 6)
        count = None
    else:
        hand, count = None, data.draw(st.integers(0, min(8, len(pool))), label="hand count")
    melded = bool(space) or data.draw(st.booleans(), label="opponent melded")
    return Player(name, name, melded, hand, count, plays=plays_of(space))


def house_position(data, rules: Ruleset, pool: Pool, mover: Player, opponents: Sequence[Player],
                   hand_number: int | None = None) -> Position:
    """A House Rummy position; the stock holds what is left once every counted hand is dealt."""
    pile = draw_loose(data, pool, 0, 3)
    if hand_number is None:
        hand_number = data.draw(st.integers(1, 6), label="hand number")
    counted = sum(p.hand_count or 0 for p in opponents)
    stock = len(pool) - counted
    assume(stock >= 0)
    return Position(rules=rules, players=(mover,) + tuple(opponents), to_move=MOVER, hand_number=hand_number,
                    discard_pile=pile, stock=stock)


def whole(cards: Iterable[Card], rules: Ruleset) -> bool:
    return is_whole(tuple(cards), rules)
