"""Seeded random small positions for cross-checks (model against the brute-force oracle)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from rummy.cards import JOKER, SUITS, Card, parse_cards
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


# Lay-off rummy presets and option variations the random lay-off positions are dealt under.
LAYOFF_VARIATIONS = [
    "traditional",
    "straight",
    {"preset": "traditional", "plays_per_turn": "none"},
    {"preset": "traditional", "layoff_needs_meld": True},
    {"preset": "straight", "keep_one_to_discard": True, "plays_per_turn": 2},
    {"preset": "straight", "ace": "circular", "ace_points": 15},
    {"preset": "traditional", "jokers": 2, "plays_per_turn": "none"},
    {"preset": "straight", "jokers": 2, "layoff_needs_meld": True},
]
SMALL_RANKS = (1, 2, 3, 4, 5, 12, 13)


def random_layoff_position(rng: random.Random, rules: str | dict[str, Any], hand_size: int, plays: int, small: bool) -> Position:
    """Three players' spaces and lay-offs (on their own plays and others'), cat to move with a hand near the table."""
    ruleset = preset(rules) if isinstance(rules, str) else preset(rules["preset"]).with_options(
        {k: v for k, v in rules.items() if k != "preset"})
    ranks = SMALL_RANKS if small else tuple(range(1, 14))
    suits = SUITS
    deck = Counter({Card(r, s): 1 for r in ranks for s in suits})
    deck[JOKER] = ruleset.jokers
    owners = ["ann", "bob", "cat"]
    spaces: dict[str, list[str]] = {n: [] for n in owners}
    layoffs: dict[str, list[str]] = {n: [] for n in owners}
    for _ in range(plays * 4):
        if sum(len(v) for v in spaces.values()) >= plays:
            break
        play = _random_play(rng, deck, ranks, suits)
        if play is None:
            continue
        deck -= Counter(play)
        owner = rng.choice(owners)
        spaces[owner].append(" ".join(c.notation() for c in play))
        extra = Card(play[-1].rank + 1, play[-1].suit) if play[0].suit == play[-1].suit and play[-1].rank < 13 else None
        if extra and deck[extra] and rng.random() < 0.4:
            deck[extra] -= 1
            layer = rng.choice(owners)
            layoffs[layer].append(f"{owner}/{len(spaces[owner])} {extra.notation()}")
    hand = deal_hand_near(rng, deck, hand_size, [c for unit in spaces.values() for c in parse_cards(" ".join(unit))])
    players = {}
    for name in owners:
        entry: dict = {"space": spaces[name], "layoffs": layoffs[name], "melded": bool(spaces[name] or layoffs[name])}
        if name == "cat":
            entry["hand"] = " ".join(c.notation() for c in hand)
            naturals = [c for c in hand if not c.is_joker]
            if naturals and rng.random() < 0.3:
                entry["warm"] = naturals[0].notation()
        else:
            entry["hand_count"] = 3
        if not entry["layoffs"]:
            del entry["layoffs"]
        players[name] = entry
    data = {"rules": rules, "to_move": "cat", "players": players, "piles": {"discard": "", "stock": 0}}
    return Position.from_data(data)


def _random_play(rng: random.Random, deck: Counter[Card], ranks: tuple[int, ...], suits: str) -> tuple[Card, ...] | None:
    if rng.random() < 0.5:
        rank = rng.choice(ranks)
        cards = [Card(rank, s) for s in suits if deck[Card(rank, s)]]
        rng.shuffle(cards)
        return tuple(cards[:3]) if len(cards) >= 3 else None
    suit = rng.choice(suits)
    start = rng.choice([r for r in ranks if r + 2 in ranks and r + 1 in ranks])
    cards = tuple(Card(start + i, suit) for i in range(3))
    return cards if all(deck[c] for c in cards) else None
