"""Seeded random House Rummy positions for the benchmark: 2-4 players, 20-50 table cards.

    python benchmarks/generate_house.py [--out benchmarks/positions/house] [--per-size 10]

Every space holds random whole plays (runs, books, jokers anywhere) dealt
from the 54-card deck; the mover holds 5-10 of the remaining cards, has
melded in two positions out of three (otherwise must meld this turn, and may
replace jokers), and opponents' plays lie within reach, so steals are
available. Sizes: table cards 20, 30, 40, 50 (within a card or two).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from rummy.generator.deck import DeckPool, PlayShapes, random_play  # noqa: E402
from rummy.plays import Play  # noqa: E402
from rummy.position import Player, Position  # noqa: E402
from rummy.rules import preset  # noqa: E402

NAMES = ("ann", "bob", "cat", "dan")
HAND_SIZE = {2: 10, 3: 8, 4: 7}
PLAYS = PlayShapes(tries=60, run_chance=0.55, run_lengths=(3, 3, 4, 4, 5, 6), book_sizes=(3, 4), joker_chance=0.15)


def make(seed: int, table_cards: int) -> Position:
    rng = random.Random(seed)
    rules = preset(rng.choice(("house-classic", "house-epic")))
    players = rng.choice((2, 3, 4))
    names = NAMES[:players]
    pool = DeckPool(rules, rng)
    spaces: dict[str, list[Play]] = {n: [] for n in names}
    mover = names[0]
    melded = rng.random() < 2 / 3
    # An unmelded player has nothing on the table yet.
    owners = names if melded else names[1:]
    laid = 0
    while laid < table_cards - 2:
        cards = random_play(rng, pool, rules, PLAYS)
        if cards is None:
            break
        spaces[rng.choice(owners)].append(Play(tuple(cards)))
        laid += len(cards)
    hand = tuple(pool.draw(HAND_SIZE[players]))
    entries = []
    for name in names:
        if name == mover:
            entries.append(Player(name, "A" if players == 4 else name, melded, hand, None, (), (), tuple(spaces[name])))
        else:
            count = len(pool.draw(rng.randint(1, HAND_SIZE[players])))
            side = ("A" if names.index(name) % 2 == 0 else "B") if players == 4 else name
            entries.append(Player(name, side, True, None, count, (), (), tuple(spaces[name])))
    return Position(rules, tuple(entries), mover, "play", rng.randint(1, 6), None, (), (), len(pool))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "positions" / "house")
    parser.add_argument("--per-size", type=int, default=10)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for size in (20, 30, 40, 50):
        for k in range(args.per_size):
            position = make(size * 1000 + k, size)
            position.save(args.out / f"house-{size:02d}-{k:02d}.toml")
    print(f"wrote {4 * args.per_size} positions to {args.out}")


if __name__ == "__main__":
    main()
