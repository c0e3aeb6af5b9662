"""Seeded random small positions for cross-checks (model against the brute-force oracle)."""

from __future__ import annotations

import random

from rummy.cards import JOKER, SUITS, Card, full_deck
from rummy.plays import Play, is_whole
from rummy.position import Player, Position
from rummy.rules import preset


def _take_play(rng: random.Random, pool: list[Card], rules, with_joker: bool) -> list[Card] | None:
    for _ in range(40):
        if rng.random() < 0.5:
            suit, length = rng.choice(SUITS), rng.choice((3, 3, 4, 5))
            start = rng.randint(1, 13)
            cards = [Card((start + k - 1) % 13 + 1, suit) for k in range(length)]
        else:
            rank = rng.randint(1, 13)
            cards = [Card(rank, s) for s in rng.sample(SUITS, rng.choice((3, 3, 4)))]
        if with_joker and JOKER in pool:
            cards[rng.randrange(len(cards))] = JOKER
        if not is_whole(tuple(cards), rules):
            continue
        remaining = list(pool)
        try:
            for card in cards:
                remaining.remove(card)
        except ValueError:
            continue
        pool[:] = remaining
        return cards
    return None


def random_house(seed: int, max_table_plays: int = 2, hand_size: tuple[int, int] = (3, 5)) -> Position:
    rng = random.Random(seed)
    rules = preset(rng.choice(("house-classic", "house-epic")))
    pool = full_deck(1, 2)
    rng.shuffle(pool)
    names = ["ann", "bob", "cat"][: rng.choice((2, 2, 3))]
    spaces: dict[str, list[Play]] = {n: [] for n in names}
    for _ in range(rng.randint(1, max_table_plays)):
        cards = _take_play(rng, pool, rules, with_joker=rng.random() < 0.25)
        if cards:
            spaces[rng.choice(names)].append(Play(tuple(cards)))
    mover = names[0]
    hand = tuple(pool[: rng.randint(*hand_size)])
    pool = pool[len(hand):]
    hot = (hand[0],) if rng.random() < 0.15 else ()
    warm = (hand[-1],) if rng.random() < 0.2 and hand[-1] not in hot else ()
    players = []
    for name in names:
        if name == mover:
            players.append(Player(name, name, rng.random() < 0.7, hand, None, hot, warm, tuple(spaces[name])))
        else:
            known = rng.random() < 0.4
            count = rng.randint(1, 4)
            players.append(Player(name, name, True, tuple(pool[:count]) if known else None, None if known else count,
                                  (), (), tuple(spaces[name])))
            pool = pool[count:]
    return Position(rules, tuple(players), mover, "play", rng.randint(1, 6), None, (), (), len(pool))


def random_tiles(seed: int, max_table_plays: int = 2, rack_size: tuple[int, int] = (3, 5)) -> Position:
    rng = random.Random(seed)
    rules = preset(rng.choice(("rummikub-lenient", "rummikub-lenient", "yourturnmyturn")))
    pool = full_deck(2, 2)
    rng.shuffle(pool)
    table = []
    for _ in range(rng.randint(1, max_table_plays)):
        cards = _take_play(rng, pool, rules, with_joker=rng.random() < 0.2)
        if cards:
            table.append(Play(tuple(cards)))
    rack = tuple(pool[: rng.randint(*rack_size)])
    pool = pool[len(rack):]
    melded = rng.random() < 0.8
    players = (Player("ann", "ann", melded, rack), Player("bob", "bob", True, None, 5))
    return Position(rules, players, "ann", "play", None, None, tuple(table), (), len(pool) - 5)
