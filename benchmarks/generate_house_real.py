"""Seeded House Rummy positions dealt the way real games go, in named groups.

    python benchmarks/generate_house_real.py [--out benchmarks/positions/house-real] [--per-group 10]

A position is the table of a hand some turns in, the mover to play (drawn
already). How it is dealt (rules.md §5):

- The 54-card deck is shuffled; the table is built turn by turn: a melded
  player lays a new play (mostly runs of 3-5 and books of 3-4, a joker in
  some) or lays off 1-2 cards on a play already down (so a run now and then
  grows to 6-8, a book of 3 to 4). Each melded player's space first gets the
  plays of its meld, worth at least the meld cost of the hand (10/15/20 for
  hands 1-2/3-4/5-6). Unmelded players have empty spaces.
- The hand number follows how full the table is (20 cards: hand 1-2, 42: hand
  5-6), as the meld cost does.
- A quarter of the movers (every fourth position of a group) have not melded:
  they hold what they were dealt plus the card drawn (2 players: 11, 3: 9,
  4: 8). Melded movers hold 6-10 cards (cards picked up from the discard pile
  make hands grow).
- Each of the two jokers goes to the table (in a play), to the mover's hand,
  or stays unseen (an opponent's hand or the stock).
- Opponents' hands are counts (an unmelded opponent holds what they were
  dealt, melded ones 1 to that, late ones 1-3); the discard pile shows 0-6
  cards (no jokers); the stock is the rest.
- No hot or warm cards (the mover drew from the stock), no first out yet.

Groups (``--per-group`` positions each):

- real-2p, real-3p: 2 or 3 players, 20-42 table cards.
- real-4p: 4 players in 2 sides, 20-38 table cards.
- real-4p-late: 4 players, hand 5 or 6, 40-45 table cards, little stock.
- unmelded-10-11: 2-3 players, 20-36 table cards, the mover not melded with
  10-11 cards of which at least one is a joker (the slowest kind).

Positions are written as GROUP-NN.toml; the group is the file name without
its number.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from generate_house import HAND_SIZE, NAMES  # noqa: E402  (the deal: 10/8/7 cards for 2/3/4 players)
from rummy.cards import JOKER, Card  # noqa: E402
from rummy.family import HOUSE  # noqa: E402
from rummy.generator.deck import DeckPool, PlayShapes, random_play  # noqa: E402
from rummy.plays import Play, is_whole  # noqa: E402
from rummy.position import Player, Position  # noqa: E402
from rummy.rules import Ruleset, preset  # noqa: E402
from rummy.vocabulary import Phase  # noqa: E402

# What players lay: mostly runs of 3-5 and books of 3-4 (the longer runs come from lay-offs).
SHAPES = PlayShapes(tries=80, run_chance=0.55, run_lengths=(3, 3, 4, 4, 5), book_sizes=(3, 3, 4))
LAY_OFF_CHANCE = 0.25  # a turn that adds cards to a play already down instead of laying a new one
LONGEST_RUN = 8


@dataclass(frozen=True)
class Group:
    name: str
    players: tuple[int, ...]  # chosen from
    table: tuple[int, int]  # table cards, both ends included
    hands: tuple[int, ...] | None  # hand numbers chosen from; None: from how full the table is
    melded_hand: tuple[int, int]  # a melded mover's hand size
    unmelded_hand: tuple[int, int] | None  # None: dealt + 1; the mover is unmelded in every fourth position
    always_unmelded: bool = False
    joker_in_hand: bool = False  # at least one joker in the mover's hand


GROUPS = (
    Group("real-2p", (2,), (20, 42), None, (6, 10), None),
    Group("real-3p", (3,), (20, 42), None, (6, 10), None),
    Group("real-4p", (4,), (20, 38), None, (6, 8), None),
    Group("real-4p-late", (4,), (40, 45), (5, 6), (6, 7), None),
    Group("unmelded-10-11", (2, 2, 3), (20, 36), None, (10, 11), (10, 11), always_unmelded=True, joker_in_hand=True),
)


def hand_number_for(rng: random.Random, table_cards: int) -> int:
    """Fuller tables come later in the game: 20 cards -> hand 1-2, 31 -> 3-4, 42 -> 5-6."""
    centre = 1 + 5 * (table_cards - 20) / 22
    return max(1, min(6, round(centre + rng.uniform(-1, 1))))


def lay_off(rng: random.Random, pool: DeckPool, rules: Ruleset, play: list[Card]) -> list[Card] | None:
    """1-2 natural cards from the pool that keep ``play`` whole (a run grows at an end, a book of 3 takes a 4th)."""
    added: list[Card] = []
    for _ in range(rng.choice((1, 1, 2))):
        if len(play) + len(added) >= LONGEST_RUN:
            break
        fits = [c for c in sorted(set(pool.cards)) if not c.is_joker and is_whole(tuple(play + added + [c]), rules)]
        if not fits:
            break
        added.append(rng.choice(fits))
    return added if added and pool.take(added) else None


def build_table(rng: random.Random, pool: DeckPool, rules: Ruleset, owners: list[str], target: int, top: int,
                cost: int, table_jokers: int) -> dict[str, list[list[Card]]] | None:
    """The spaces, turn by turn: melds first (each owner reaches ``cost``), then new plays and lay-offs."""
    spaces: dict[str, list[list[Card]]] = {name: [] for name in owners}
    weights = [rng.uniform(0.5, 1.5) for _ in owners]
    laid, jokers_left, misses = 0, table_jokers, 0
    estimated_plays = max(2, target // 4)
    while laid < target and misses < 30:
        unmet = [n for n in owners if sum(HOUSE.play_score(tuple(p), rules) for p in spaces[n]) < cost]
        plays = [p for n in owners for p in spaces[n]]
        if not unmet and plays and rng.random() < LAY_OFF_CHANCE:
            play = rng.choice(plays)
            added = lay_off(rng, pool, rules, play)
            if added is None or laid + len(added) > top:
                if added:
                    pool.give_back(added)
                misses += 1
                continue
            play.extend(added)
            laid += len(added)
            continue
        joker = jokers_left > 0 and rng.random() < jokers_left / estimated_plays + 0.15
        shapes = PlayShapes(SHAPES.tries, SHAPES.run_chance, SHAPES.run_lengths, SHAPES.book_sizes,
                            1.0 if joker else 0.0)
        cards = random_play(rng, pool, rules, shapes)
        if cards is None:
            break
        if laid + len(cards) > top:
            pool.give_back(cards)
            misses += 1
            continue
        jokers_left -= sum(c.is_joker for c in cards)
        owner = unmet[0] if unmet else rng.choices(owners, weights)[0]
        spaces[owner].append(cards)
        laid += len(cards)
    if laid < target:
        return None
    if any(sum(HOUSE.play_score(tuple(p), rules) for p in spaces[n]) < cost for n in owners):
        return None
    return spaces


def make(rng: random.Random, group: Group, index: int) -> Position:
    for _ in range(200):
        position = attempt(rng, group, index)
        if position is not None:
            return position
    raise RuntimeError(f"no deal for {group.name} #{index}")


def attempt(rng: random.Random, group: Group, index: int) -> Position | None:
    rules = preset(rng.choice(("house-classic", "house-epic")))
    players = rng.choice(group.players)
    dealt = HAND_SIZE[players]
    names = list(NAMES[:players])
    mover = rng.choice(names)
    mover_melded = not group.always_unmelded and index % 4 != 3
    if mover_melded:
        hand_size = rng.randint(*group.melded_hand)
    elif group.unmelded_hand is not None:
        hand_size = rng.randint(*group.unmelded_hand)
    else:
        hand_size = dealt + 1
    # Leave at least one card for every opponent.
    top = min(group.table[1], len(rules.deck_cards) - hand_size - (players - 1))
    if top < group.table[0]:
        return None
    table_cards = rng.randint(group.table[0], top)
    hand_number = rng.choice(group.hands) if group.hands else hand_number_for(rng, table_cards)
    cost = rules.meld_threshold(hand_number)
    # Unmelded opponents: some early in the game, few late (never all of them: someone laid the table).
    melded = {name: True for name in names}
    melded[mover] = mover_melded
    for name in names:
        if name != mover and rng.random() < (0.2 if hand_number <= 3 else 0.05):
            melded[name] = False
    owners = [n for n in names if melded[n]]
    if not owners:
        return None

    # Where the two jokers go.
    places = []
    for k in range(2):
        if group.joker_in_hand and k == 0:
            places.append("hand")
        else:
            places.append(rng.choices(("table", "hand", "unseen"), (0.4, 0.3, 0.3))[0])
    pool = DeckPool(rules, rng)
    held_jokers = [JOKER] * places.count("hand")
    unseen_jokers = [JOKER] * places.count("unseen")
    pool.take(held_jokers + unseen_jokers)  # out of the pool while the table is laid
    spaces = build_table(rng, pool, rules, owners, table_cards, top, cost, places.count("table"))
    if spaces is None:
        return None
    laid = sum(len(p) for plays in spaces.values() for p in plays)
    left_jokers = [c for c in pool.cards if c.is_joker]  # table jokers that found no play
    pool.take(left_jokers)
    hand = tuple(held_jokers + pool.draw(hand_size - len(held_jokers)))
    pool.give_back(left_jokers + unseen_jokers)

    # Opponents' hands (counts), the discard pile, the stock: what is left. An unmelded opponent
    # holds what they were dealt; melded ones fewer; one card stays for the stock when it can.
    counts = {n: dealt if not melded[n] else rng.randint(1, dealt if laid < 40 else 3) for n in names if n != mover}
    room = len(pool) - 1
    while sum(counts.values()) > room:
        shrinkable = [n for n in counts if melded[n] and counts[n] > 1]
        if not shrinkable:
            if sum(counts.values()) > len(pool):
                return None
            break
        counts[max(shrinkable, key=lambda n: counts[n])] -= 1
    pool.draw(sum(counts.values()))
    naturals = [c for c in pool.cards if not c.is_joker]
    discard = tuple(rng.sample(naturals, rng.randint(0, max(0, min(6, len(naturals) - 1)))))  # a stock card left if any
    pool.take(discard)

    entries = []
    for seat, name in enumerate(names):
        side = ("A" if seat % 2 == 0 else "B") if players == 4 else name
        plays = tuple(Play(tuple(p)) for p in spaces.get(name, []))
        if name == mover:
            entries.append(Player(name, side, melded[name], hand, None, (), (), plays))
        else:
            entries.append(Player(name, side, melded[name], None, counts[name], (), (), plays))
    return Position(rules, tuple(entries), mover, Phase.PLAY, hand_number, None, (), discard, len(pool))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE / "positions" / "house-real")
    parser.add_argument("--per-group", type=int, default=10)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    written = 0
    for g, group in enumerate(GROUPS):
        for k in range(args.per_group):
            rng = random.Random(1000 * (g + 1) + k)
            path = args.out / f"{group.name}-{k:02d}.toml"
            make(rng, group, k).save(path)
            Position.from_file(path)  # reads back strictly, as `rummy show` does
            written += 1
    print(f"wrote {written} positions to {args.out}")


if __name__ == "__main__":
    main()
