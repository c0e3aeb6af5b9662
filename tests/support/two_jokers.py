"""Seeded random small tile positions holding both jokers (issue 10): for the differential test.

``two_joker_position(seed, rules, placement, melded)`` deals a position of
at most ``MAX_TILES`` tiles in which the two jokers of the deck lie on the
table (``placement = "table"``), in the mover's hand (``"hand"``) or one in
each (``"split"``). Positions are built from *templates*, whole plays with
some cells left to jokers, so that jokers land everywhere a play can hold
them: side by side inside a run, at either end, both in one book, a run of
one tile and two jokers. The hand holds a template's tiles (its jokers are
the hand's, or jokers the table may give up), tiles that fit the table (a
fixed joker's own card among them), and noise.

This is a generator, not an oracle: it only deals. Whether a turn is legal
and how many tiles the best one plays is for ``tests/support/oracle.py`` and the
checker to say.
"""

from __future__ import annotations

import random
from collections import Counter

from rummy.cards import SUITS, Card
from rummy.plays import jokers_undecided, readings
from rummy.position import Position
from rummy.rules import preset

PRESETS = ("rummikub", "rummikub-lenient", "tiles50", "yourturnmyturn")
# Fixed jokers with the other answers to rules.md §6's options (overrides).
FIXED_VARIANTS = (
    '{ preset = "rummikub", joker_replace_from_hand = false }',
    '{ preset = "rummikub", joker_locks_play = false }',
    '{ preset = "tiles50", joker_locks_play = false, joker_replace_from_hand = false }',
)
PLACEMENTS = ("table", "hand", "split")
MAX_TILES = 10
MAX_HAND = 6
MAX_TABLE = MAX_TILES - 4  # so the hand holds at least 4 tiles
JOKER = Card.joker()


def rules_of(spec: str):
    """The Ruleset a rules spec (a preset name or an inline TOML table) stands for."""
    return Position.from_toml(_toml(spec, [], "R1", True)).rules


def _toml(spec: str, table: list[str], hand: str, melded: bool) -> str:
    """ann (``hand``) to move against bob (8 tiles), ``table`` on the table, under the rules ``spec``."""
    rules = spec if spec.startswith("{") else f'"{spec}"'
    plays = ", ".join(f'"{p}"' for p in table)
    return (
        f'rules = {rules}\nto_move = "ann"\ntable = [{plays}]\n\n'
        f'[players.ann]\nmelded = {str(melded).lower()}\nhand = "{hand}"\n\n'
        "[players.bob]\nmelded = true\nhand_count = 8\n"
    )


def template(rng: random.Random, jokers: int, high: bool = False) -> list[Card]:
    """A whole play's cards (a run of 3..6 or a book of 3..4) with ``jokers`` of them left to jokers.

    The joker places are drawn uniformly, so adjacent jokers, jokers at
    either end and two jokers in one book all come up; one tile always stays.
    """
    if rng.random() < 0.6:
        length = rng.randint(max(3, jokers + 1), 6)
        low = rng.randint(max(1, 9 - length) if high else 1, 14 - length)
        suit = rng.choice(SUITS)
        cards = [Card(v, suit) for v in range(low, low + length)]
    else:
        rank = rng.randint(8, 13) if high else rng.randint(1, 13)
        cards = [Card(rank, s) for s in rng.sample(SUITS, rng.randint(max(3, jokers + 1), 4))]
    if jokers == 2 and cards[0].suit == cards[-1].suit and rng.random() < 0.5:
        first = rng.randrange(len(cards) - 1)
        places = [first, first + 1]  # side by side: the shape issue 10 was about
    else:
        places = rng.sample(range(len(cards)), jokers)
    for k in places:
        cards[k] = Card.joker(cards[k])  # the joker remembers what it stands for
    return cards


def _take(pool: Counter, cards: list[Card]) -> bool:
    """Take the natural tiles of ``cards`` from the pool, if all are there."""
    need = Counter(c for c in cards if not c.is_joker)
    if need - pool:
        return False
    pool.subtract(need)
    return True


def _notation(cards: list[Card], fixed: bool) -> str:
    """A play's notation; fixed jokers say what they stand for where the play leaves it open."""
    plain = tuple(c.plain() for c in cards)
    ambiguous = jokers_undecided(readings(plain, RULES_FOR_READING))
    out = []
    for card in cards:
        if card.is_joker:
            out.append(card.notation("tiles") if fixed and ambiguous else "*")
        else:
            out.append(card.notation("tiles"))
    return " ".join(out)


# Every tile preset reads plays alike (books 3..4 of distinct colours, runs >= 3, ace low).
RULES_FOR_READING = preset("rummikub")


def _fitting(rng: random.Random, pool: Counter, table: list[list[Card]], count: int) -> list[Card]:
    """Tiles near the table's plays: the cards of jokers, run neighbours, book colours."""
    near: list[Card] = []
    for play in table:
        for card in play:
            if card.is_joker:
                near += [card.stands_for] * 2  # frees a fixed joker
                continue
            near += [Card(card.rank + d, card.suit) for d in (-2, -1, 1, 2) if 1 <= card.rank + d <= 13]
            near += [Card(card.rank, s) for s in SUITS if s != card.suit]
    rng.shuffle(near)
    found = []
    for card in near:
        if len(found) == count:
            break
        if pool[card] > 0:
            pool[card] -= 1
            found.append(card)
    return found


def two_joker_position(seed: int, spec: str, placement: str, melded: bool) -> Position:
    """A random small position with both jokers placed as ``placement`` says (see the module)."""
    rng = random.Random(f"{seed}/{spec}/{placement}/{melded}")
    rules = rules_of(spec)
    fixed = rules.joker_mode == "fixed"
    pool = Counter(c for c in rules.deck_cards if not c.is_joker)
    table_jokers = {"table": 2, "hand": 0, "split": 1}[placement]
    hand_jokers = 2 - table_jokers

    # The table: one or two plays, the table's jokers in them (both in one play at times).
    table: list[list[Card]] = []
    plays = rng.randint(1, 2) if melded else (1 if table_jokers else rng.randint(0, 1))
    if plays == 2:
        shares = rng.choice([[table_jokers, 0], [0, table_jokers]] + ([[1, 1]] if table_jokers == 2 else []))
    else:
        shares = [table_jokers] * plays
    for k, share in enumerate(shares):
        room = MAX_TABLE - sum(map(len, table)) - 3 * (len(shares) - k - 1)
        for _ in range(200):
            cards = template(rng, share)
            if len(cards) <= room and _take(pool, cards):
                table.append(cards)
                break
        else:
            raise RuntimeError("no table play dealt")
    room = MAX_TILES - sum(len(p) for p in table)

    # The hand: a template's tiles with the hand's jokers, tiles that fit the table, noise.
    hand: list[Card] = [JOKER] * hand_jokers
    limit = min(MAX_HAND, room)  # at least 4
    # Its jokers: the hand's, or (melded) both, one or two of them to come from the table.
    wanted = rng.choice([hand_jokers, 2]) if melded else hand_jokers
    for _ in range(50):
        cards = template(rng, wanted if rng.random() < 0.85 else 0, high=not melded)
        naturals = [c for c in cards if not c.is_joker]
        if rng.random() < 0.25 and len(naturals) > 1:
            naturals.pop(rng.randrange(len(naturals)))  # one short: the table or a joker may fill it
        if len(hand) + len(naturals) <= limit and _take(pool, naturals):
            hand += naturals
            break
    if melded and len(hand) < limit:
        hand += _fitting(rng, pool, table, rng.randint(0, min(2, limit - len(hand))))
    noise = rng.randint(0, 2 if len(hand) < 3 else 1)
    for _ in range(min(noise, limit - len(hand))):
        card = rng.choice([c for c, n in pool.items() if n > 0])
        pool[card] -= 1
        hand.append(card)
    rng.shuffle(hand)
    if not hand:  # the schema wants a hand: one tile of noise
        hand.append(next(c for c, n in sorted(pool.items()) if n > 0))
    notes = [_notation(p, fixed) for p in table]
    text = _toml(spec, notes, " ".join(c.notation("tiles") for c in hand), melded)
    return Position.from_toml(text)


def position(rules: str, table: list[str], hand: str, melded: bool = True) -> Position:
    """A two-player tile position written as its file would be: ``rules`` a preset name or a TOML table."""
    return Position.from_toml(_toml(rules, table, hand, melded))
