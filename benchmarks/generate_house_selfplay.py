"""House Rummy positions taken from self-played games: dealt and played exactly as real games go.

    python benchmarks/generate_house_selfplay.py [--out benchmarks/positions/house-selfplay] [--per-group 10]
        [--time-limit 1]

Self-plays the first 3 hands of a game of House Classic and of House Epic
for 2, 3 and 4 players (``rummy.games.selfplay``: the deck shuffled by a
seed, dealt as the game deals, every seat played by ``best`` on its own
view, every turn judged by the checker), then takes positions from those
hands, spread from the first turn of the first hand to the last of the
third, each **from the mover's view** (``seat_view``: the other hands as
``hand_count``, the stock as a count), as a player at the table sees it:

- ``classic-draw``, ``epic-draw``: the draw phase, before the draw (the
  upcard on the unopened stock early in a hand; ``best`` gives draw advice);
- ``classic-play``, ``epic-play``: the play phase, after the draw the seat
  chose (hot and warm cards as drawn).

A group of 10 holds 4, 3 and 3 positions of the 2-, 3- and 4-player games; a
mover with no card (Epic's first out before re-entering) is skipped. Each file says in a comment which game,
seed, hand and turn it comes from. Positions are written as GROUP-NN.toml
(the group is the file name without its number, as benchmarks/house_versions.py
groups them). The games depend on the solver's answers within the time
limit, so a rerun on another machine may pick other positions; the
committed files are the set.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from rummy.games.selfplay import PLAYER_NAMES, seat_view, selfplay  # noqa: E402
from rummy.position import Position  # noqa: E402
from rummy.reports.play import play_turn  # noqa: E402
from rummy.rules import preset  # noqa: E402
from rummy.vocabulary import Phase  # noqa: E402

PRESETS = {"classic": "house-classic", "epic": "house-epic"}
SEEDS = {2: 21, 3: 31, 4: 41}  # one game per player count (and preset)
HANDS = 3  # hands 1-3 of each game: meld costs 10 and 15


def candidates(rules_name: str, players: int, time_limit: float) -> dict[str, list[tuple[str, Position]]]:
    """The positions of one self-played game of HANDS hands by phase, each with where it comes from."""
    seed = SEEDS[players]
    played = selfplay(preset(rules_name), PLAYER_NAMES[:players], seed, HANDS, time_limit)
    found: dict[str, list[tuple[str, Position]]] = {Phase.DRAW: [], Phase.PLAY: []}
    for hand_number, (hand, positions) in enumerate(zip(played.game.hands, played.positions), start=1):
        for number, (position, turn) in enumerate(_turn_starts(positions, hand.turns), start=1):
            if position.mover.hand_size == 0:
                continue
            note = (f"{rules_name}, {players} players, seed {seed}, hand {hand_number} (deal {hand.deal}), "
                    f"before turn {number} ({position.to_move}, {position.phase} phase)")
            found[position.phase].append((note, position))
            if position.phase == Phase.DRAW and ";" in turn:  # the draw alone leads to the play phase
                drawn = play_turn(position, turn.split(";", 1)[0].strip(), "turn", "toml", note).position
                if drawn is not None and drawn.phase == Phase.PLAY and drawn.to_move == position.to_move:
                    found[Phase.PLAY].append((f"{note}, after its draw", drawn))
    return found


def _turn_starts(positions: tuple[Position, ...], turns: tuple) -> Iterator[tuple[Position, str]]:
    for position, record in zip(positions, turns):
        yield position, record.turn


def spread(items: list, count: int) -> list:
    """``count`` items spread evenly from the first to the last."""
    if count >= len(items):
        return items
    if count == 1:
        return [items[len(items) // 2]]
    return [items[round(k * (len(items) - 1) / (count - 1))] for k in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "positions" / "house-selfplay")
    parser.add_argument("--per-group", type=int, default=10)
    parser.add_argument("--time-limit", type=float, default=1.0, help="seconds per answer in self-play")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for short, rules_name in PRESETS.items():
        games = {players: candidates(rules_name, players, args.time_limit) for players in SEEDS}
        for phase in (Phase.PLAY, Phase.DRAW):
            counts = {p: args.per_group // len(SEEDS) + (i < args.per_group % len(SEEDS)) for i, p in enumerate(SEEDS)}
            chosen = [item for players in SEEDS for item in spread(games[players][phase], counts[players])]
            for index, (note, position) in enumerate(chosen):
                view = seat_view(position)
                text = (f"# Self-played (benchmarks/generate_house_selfplay.py): {note}; the mover's view "
                        "(the other hands and the stock's order hidden).\n" + view.to_toml())
                path = args.out / f"{short}-{phase}-{index:02d}.toml"
                Position.from_text(text, str(path))  # reads back as a position file
                path.write_text(text, encoding="utf-8")
                print(path.relative_to(HERE.parent), file=sys.stderr)


if __name__ == "__main__":
    main()
