"""The House draw-advice benchmark set: the House benchmark positions switched to the draw phase.

    python benchmarks/generate_house_draw.py

Every position of benchmarks/positions/house and benchmarks/positions/house-real
becomes a draw-phase position (issue 13): the mover's hand loses the cards
drawn this turn (its hot and warm cards, or else one card chosen at random,
as if it had come from the stock) and the discard pile holds 1-5 cards: its
own top cards, filled up with unseen cards where it is shorter. Everything
else stays. Seeded: the same files every run. Written to
benchmarks/positions/house-draw (one file per source position, same name).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from rummy.cards import cards_without  # noqa: E402
from rummy.position import Position  # noqa: E402
from rummy.vocabulary import Phase  # noqa: E402

SOURCES = ("house", "house-real")
OUT = HERE / "positions" / "house-draw"
SEED = 13


def draw_phase(position: Position, rng: random.Random) -> Position:
    mover = position.mover
    hand = list(mover.hand or ())
    drawn = list(mover.hot) + list(mover.warm)
    if not drawn and len(hand) > 1:
        drawn = [rng.choice(hand)]
    before = cards_without(tuple(hand), Counter(c.plain() for c in drawn))
    unseen = sorted(position.unseen_cards().elements())
    rng.shuffle(unseen)
    size = rng.randint(1, 5)
    pile = list(position.discard_pile[-size:])
    # Only stock cards may fill the pile up: the unseen cards beyond the hidden hands.
    spare = len(position.rules.deck_cards) - len(position.known_cards()) \
        - sum(p.hand_count or 0 for p in position.players)
    while len(pile) < size and unseen and spare > 0:
        spare -= 1
        pile.insert(0, unseen.pop())
    mover = replace(mover, hand=before, hot=(), warm=())
    switched = replace(position.replace_player(mover), phase=Phase.DRAW, discard_pile=tuple(pile), turn=None)
    # The stock holds every card the position does not show.
    rest = len(position.rules.deck_cards) - len(switched.known_cards()) \
        - sum(p.hand_count or 0 for p in switched.players)
    return replace(switched, stock=max(rest, 0))


def main() -> None:
    rng = random.Random(SEED)
    OUT.mkdir(parents=True, exist_ok=True)
    for source in SOURCES:
        for path in sorted((HERE / "positions" / source).glob("*.toml")):
            position = draw_phase(Position.from_file(path), rng)
            text = position.to_toml()
            Position.from_toml(text, source=str(path))  # it must read back
            (OUT / path.name).write_text(text)
    print(f"wrote {len(list(OUT.glob('*.toml')))} positions to {OUT}")


if __name__ == "__main__":
    main()
