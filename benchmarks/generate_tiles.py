"""Seeded random tile-rummy positions for the benchmark against rummikub-solver.

Each position: the standard 106-tile deck (4 colours x 1..13 x 2 + 2 jokers),
shuffled; a table of random whole plays of exactly SIZE tiles drawn from it
(runs and groups, a joker may take any place of a play); the mover's rack is
14-20 random tiles from the rest (fewer when fewer are left: a 100-tile table
leaves only 6); the mover has melded. Rules: rummikub-lenient (jokers move
freely, as the peer's model assumes).

Only the standard library is used, so the peer's virtualenv could read the
same files; the positions are plain TOML in formats.md's notation.

    python benchmarks/generate_tiles.py [--seed 2024] [--per-size 12] [--out DIR]
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

COLOURS = ("K", "B", "R", "O")
SIZES = (20, 40, 60, 80, 100)
RACK_SIZES = (14, 20)
JOKER = "*"
DEFAULT_OUT = Path(__file__).resolve().parent / "positions" / "tiles"


def full_deck() -> list[str]:
    return [f"{c}{n}" for c in COLOURS for n in range(1, 14) for _ in range(2)] + [JOKER, JOKER]


def _propose(rng: random.Random, pool: list[str], room: int) -> list[str] | None:
    """A random whole play built around a random tile still in ``pool``."""
    naturals = [t for t in pool if t != JOKER]
    jokers = pool.count(JOKER)
    if not naturals:
        return None
    seed_tile = rng.choice(naturals)
    colour, number = seed_tile[0], int(seed_tile[1:])
    available = {t: pool.count(t) for t in set(pool)}
    if rng.random() < 0.55:
        length = rng.randint(3, min(room, 7))
        start = rng.randint(max(1, number - length + 1), min(number, 14 - length))
        wanted = [f"{colour}{n}" for n in range(start, start + length)]
    else:
        others = [c for c in COLOURS if c != colour]
        rng.shuffle(others)
        size = rng.choice((3, 4)) if room >= 4 else 3
        wanted = [seed_tile] + [f"{c}{number}" for c in others[: size - 1]]
    play: list[str] = []
    for tile in wanted:
        # A joker takes the place of any tile, sometimes by choice, else when the tile is gone.
        use_joker = jokers > 0 and (rng.random() < 0.06 or available.get(tile, 0) == 0)
        if use_joker:
            jokers -= 1
            play.append(JOKER)
        elif available.get(tile, 0) > 0:
            available[tile] -= 1
            play.append(tile)
        else:
            return None
    if all(t == JOKER for t in play):
        return None
    return play


def random_table(rng: random.Random, deck: list[str], size: int) -> tuple[list[list[str]], list[str]]:
    """Whole plays of exactly ``size`` tiles, and the tiles left over."""
    for _attempt in range(10_000):
        pool = list(deck)
        rng.shuffle(pool)
        plays: list[list[str]] = []
        placed = 0
        failures = 0
        while placed < size and failures < 400:
            room = size - placed
            play = _propose(rng, pool, room)
            # Never leave 1 or 2 tiles to place: no play is that short.
            if play is None or len(play) > room or room - len(play) in (1, 2):
                failures += 1
                continue
            for tile in play:
                pool.remove(tile)
            plays.append(play)
            placed += len(play)
        if placed == size:
            return plays, pool
    raise RuntimeError(f"could not build a table of {size} tiles")


def position_toml(table: list[list[str]], rack: list[str], unseen: int, meta: str) -> str:
    table_lines = ",\n".join(f'  "{" ".join(play)}"' for play in table)
    return (
        f"# benchmark position: {meta}\n"
        'rules = "rummikub-lenient"\n'
        'to_move = "ann"\n'
        'phase = "play"\n'
        f"table = [\n{table_lines},\n]\n\n"
        "[players.ann]\n"
        "melded = true\n"
        f'hand = "{" ".join(sorted(rack, key=_tile_order))}"\n\n'
        "[players.bob]\n"
        "melded = true\n"
        f"hand_count = {min(14, unseen)}\n"
    )


def _tile_order(tile: str) -> tuple[int, int]:
    if tile == JOKER:
        return (len(COLOURS), 0)
    return (COLOURS.index(tile[0]), int(tile[1:]))


def generate(seed: int, per_size: int, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("t*.toml"):
        old.unlink()
    written = []
    for size in SIZES:
        for index in range(1, per_size + 1):
            rng = random.Random(f"{seed}-{size}-{index}")
            plays, rest = random_table(rng, full_deck(), size)
            rng.shuffle(rest)
            rack = rest[: min(rng.randint(*RACK_SIZES), len(rest))]
            path = out / f"t{size:03d}-{index:02d}.toml"
            meta = f"seed {seed}, table {size} tiles, rack {len(rack)} tiles"
            path.write_text(position_toml(plays, rack, len(rest) - len(rack), meta), encoding="utf-8")
            written.append(path)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--per-size", type=int, default=12)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    written = generate(args.seed, args.per_size, args.out)
    print(f"wrote {len(written)} positions to {args.out}")


if __name__ == "__main__":
    main()
