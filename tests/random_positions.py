"""Seeded random small positions for cross-checks (model against the brute-force oracle)."""

from __future__ import annotations

import random
from collections import Counter

from rummy.cards import Card
from rummy.generator.deck import DeckPool, PlayShapes, random_play
from rummy.plays import Play
from rummy.position import Player, Position
from rummy.rules import preset


def _play_shapes(with_joker: bool) -> PlayShapes:
    return PlayShapes(tries=40, run_chance=0.5, run_lengths=(3, 3, 4, 5), book_sizes=(3, 3, 4),
                      joker_chance=1.0 if with_joker else 0.0)


def random_house(seed: int, max_table_plays: int = 2, hand_size: tuple[int, int] = (3, 5)) -> Position:
    rng = random.Random(seed)
    rules = preset(rng.choice(("house-classic", "house-epic")))
    pool = DeckPool(rules, rng)
    names = ["ann", "bob", "cat"][: rng.choice((2, 2, 3))]
    spaces: dict[str, list[Play]] = {n: [] for n in names}
    for _ in range(rng.randint(1, max_table_plays)):
        cards = random_play(rng, pool, rules, _play_shapes(with_joker=rng.random() < 0.25))
        if cards:
            spaces[rng.choice(names)].append(Play(tuple(cards)))
    mover = names[0]
    hand = tuple(pool.draw(rng.randint(*hand_size)))
    hot = (hand[0],) if rng.random() < 0.15 else ()
    warm = (hand[-1],) if rng.random() < 0.2 and hand[-1] not in hot else ()
    players = []
    for name in names:
        if name == mover:
            players.append(Player(name, name, rng.random() < 0.7, hand, None, hot, warm, tuple(spaces[name])))
        else:
            known = rng.random() < 0.4
            count = rng.randint(1, 4)
            dealt = tuple(pool.draw(count))  # out of the deck, shown or not
            players.append(Player(name, name, True, dealt if known else None, None if known else count,
                                  (), (), tuple(spaces[name])))
    return Position(rules, tuple(players), mover, "play", rng.randint(1, 6), None, (), (), len(pool))


def random_tiles(seed: int, max_table_plays: int = 2, rack_size: tuple[int, int] = (3, 5)) -> Position:
    rng = random.Random(seed)
    rules = preset(rng.choice(("rummikub-lenient", "rummikub-lenient", "yourturnmyturn")))
    pool = DeckPool(rules, rng)
    table = []
    for _ in range(rng.randint(1, max_table_plays)):
        cards = random_play(rng, pool, rules, _play_shapes(with_joker=rng.random() < 0.2))
        if cards:
            table.append(Play(tuple(cards)))
    rack = tuple(pool.draw(rng.randint(*rack_size)))
    melded = rng.random() < 0.8
    players = (Player("ann", "ann", melded, rack), Player("bob", "bob", True, None, 5))
    return Position(rules, players, "ann", "play", None, None, tuple(table), (), len(pool) - 5)


def deal_hand_near(rng: random.Random, deck: Counter, size: int, table: list[Card]) -> list[Card]:
    """Half the hand, where possible, from cards next to or matching table cards (so plays can grow)."""
    pool = sorted(deck.elements())
    near = [c for c in pool if not c.is_joker and any(
        t.rank == c.rank or (t.suit == c.suit and abs(t.rank - c.rank) <= 2) for t in table)]
    hand: list[Card] = []
    for _ in range(size):
        source = near if near and rng.random() < 0.5 else pool
        source = [c for c in source if Counter(hand)[c] < deck[c]]
        if not source:
            break
        hand.append(rng.choice(source))
    return hand
