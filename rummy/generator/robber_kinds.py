"""Robber Rummy puzzles: "steal the most points" (preset ``robber``).

A candidate is a play-phase position of a hand in progress: two players (a
third now and then, each on their own side), the opponents' plays on the
table, some of them worth stealing, maybe a few of the mover's own, a hand
of 5-10 cards, the opponents' hand counts, a discard pile and the stock.

The hand is dealt around the table rather than at random, so that it has
something to do and something to decide:

- *steals*: for some opponent plays, 1-2 cards that grow them (a run's next
  cards at one end, more cards of a book's rank);
- *crossings*: cards that fit two table plays at once (the 6 of hearts for
  ``3H 4H 5H`` and ``6S 6C 6D``), or the growth of one and the end of the
  other, so only one of them can have it;
- *a hand meld*: now and then a new play in the hand that shares a card
  with a steal (lay the meld, or break it to steal);
- *filler*: cards from the rest of the deck.

``tier`` scales the deal (plays on the table, steals, crossings, hand size).
The tier a puzzle gets is measured by the generator from the move plan. A
Robber plan never moves a table card (plays only grow), so ``cards_moved``
is always 0; Robber tiers read plays disturbed and steps alone
(``difficulty.EXTEND_ONLY_THRESHOLDS``).

Same answer (``canonical``): every player's plays as multisets of cards, up
to identical cards and the order of plays; the discard is no part of it. The
model's exclusion forbids exactly the selections that give an excluded table
(``rummy.model.robber.excluded_counts``), so no other table is ever hidden
with it: ``ambiguity`` is always None. Rivals are found by solving for the
best again and again (each Robber solve takes milliseconds).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..answer import Answer
from ..cards import SUITS, Card
from ..errors import PositionError
from ..model.robber import final_table
from ..plays import Play, is_whole
from ..position import Player, Position
from ..rules import Ruleset
from ..vocabulary import Phase, PuzzleKind, Tier
from .kinds import FamilySupport, Kind, register_family, register_kind
from .pool import DeckPool

Range = tuple[int, int]


@dataclass(frozen=True)
class DealShape:
    opponent_plays: Range  # plays on the table owned by the opponents
    own_plays: Range  # the mover's own plays (0: the mover has not melded)
    steals: Range  # opponent plays the hand can grow
    crossings: Range  # hand cards that fit two table plays
    hand: Range  # cards in the mover's hand
    meld_chance: float  # chance of a new play in the hand that shares a card with a steal


SHAPES = {
    Tier.EASY: DealShape(opponent_plays=(2, 4), own_plays=(0, 1), steals=(1, 2), crossings=(0, 1), hand=(5, 6),
                         meld_chance=0.2),
    Tier.MEDIUM: DealShape(opponent_plays=(3, 5), own_plays=(0, 2), steals=(2, 3), crossings=(1, 2), hand=(6, 8),
                           meld_chance=0.3),
    Tier.HARD: DealShape(opponent_plays=(4, 6), own_plays=(0, 2), steals=(3, 4), crossings=(1, 3), hand=(7, 9),
                         meld_chance=0.4),
    Tier.EXPERT: DealShape(opponent_plays=(5, 7), own_plays=(1, 2), steals=(4, 5), crossings=(2, 3), hand=(8, 10),
                           meld_chance=0.5),
}
THIRD_PLAYER_CHANCE = 0.25
OPPONENT_HAND = (3, 10)  # cards in an opponent's hand (hand_count)
DISCARD_PILE = (1, 6)
RUN_LENGTH = (3, 5)
BOOK_SIZE = (3, 4)
MOVER, OPPONENTS = "ann", ("bob", "cat")
NEAR_POINTS = 10  # tables within this many points of the best count as near (a ten or two small cards)


# --------------------------------------------------------------------- deck
def _run_card(position: int, suit: str) -> Card:
    return Card(1 if position == 14 else position, suit)


def _random_play(rng: random.Random, pool: DeckPool, rules: Ruleset) -> list[Card] | None:
    """A random run (ace low or high) or book the pool can still give."""
    for _ in range(20):
        if rng.random() < 0.55:
            length = rng.randint(*RUN_LENGTH)
            start = rng.randint(1, 15 - length)
            suit = rng.choice(SUITS)
            cards = [_run_card(p, suit) for p in range(start, start + length)]
        else:
            rank = rng.randint(1, 13)
            cards = [Card(rank, rng.choice(SUITS)) for _ in range(rng.randint(*BOOK_SIZE))]
        if is_whole(tuple(cards), rules) and pool.take(cards):
            return cards
    return None


def _growths(play: list[Card], rules: Ruleset) -> list[list[Card]]:
    """Ways of 1-2 cards to grow a play: a run at either end, a book by its rank."""
    if len({c.rank for c in play}) == 1:  # a book: more of its rank (the caller checks book_max)
        rank = play[0].rank
        return [[Card(rank, s)] for s in SUITS] + [[Card(rank, a), Card(rank, b)] for a in SUITS for b in SUITS if a <= b]
    suit = play[0].suit
    positions = sorted(14 if c.rank == 1 and any(d.rank == 13 for d in play) else c.rank for c in play)
    low, high = positions[0], positions[-1]
    options = []
    for n in (1, 2):
        if low - n >= 1:
            options.append([_run_card(p, suit) for p in range(low - n, low)])
        if high + n <= 14:
            options.append([_run_card(p, suit) for p in range(high + 1, high + n + 1)])
    return options


def _fits(card: Card, play: list[Card], rules: Ruleset) -> bool:
    return is_whole(tuple(play) + (card,), rules)


# --------------------------------------------------------------------- deal
def make_steal(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    shape = SHAPES[tier if tier in SHAPES else rng.choice(sorted(SHAPES))]
    pool = DeckPool(rules)
    opponents = OPPONENTS[: 2 if rng.random() < THIRD_PLAYER_CHANCE else 1]
    plays: dict[str, list[list[Card]]] = {name: [] for name in (MOVER, *opponents)}
    for _ in range(rng.randint(*shape.opponent_plays)):
        play = _random_play(rng, pool, rules)
        if play is None:
            return None
        plays[rng.choice(opponents)].append(play)
    for _ in range(rng.randint(*shape.own_plays)):
        play = _random_play(rng, pool, rules)
        if play is None:
            return None
        plays[MOVER].append(play)
    size = rng.randint(*shape.hand)
    hand: list[Card] = []
    targets = [play for name in opponents for play in plays[name]]
    rng.shuffle(targets)
    for play in targets[: rng.randint(*shape.steals)]:
        options = [g for g in _growths(play, rules)
                   if len(hand) + len(g) <= size and pool.has(g) and is_whole(tuple(play + g), rules)]
        if options:
            growth = rng.choice(options)
            pool.take(growth)
            hand += growth
    if not hand:
        return None
    if rng.random() < shape.meld_chance and len(hand) + 2 <= size:
        _add_meld(rng, pool, hand, rules)
    table = [play for name in plays for play in plays[name]]
    for _ in range(rng.randint(*shape.crossings)):
        if len(hand) < size:
            _add_crossing(rng, pool, hand, table, rules)
    while len(hand) < size:
        card = rng.choice(sorted(pool.cards))
        pool.take([card])
        hand.append(card)
    return _position(rng, rules, pool, plays, hand)


def _add_meld(rng: random.Random, pool: DeckPool, hand: list[Card], rules: Ruleset) -> None:
    """A new play in the hand around one of its cards: a book of its rank or a run through it."""
    card = rng.choice(sorted(hand))
    options: list[list[Card]] = []
    for a in SUITS:
        for b in SUITS:
            if a <= b:
                options.append([Card(card.rank, a), Card(card.rank, b)])
    position = card.rank
    for offsets in ((-2, -1), (-1, 1), (1, 2)):
        places = [position + o for o in offsets]
        if all(1 <= p <= 14 for p in places):
            options.append([_run_card(p, card.suit) for p in places])
    options = [o for o in options if pool.has(o) and is_whole(tuple(o + [card]), rules)]
    if options:
        meld = rng.choice(options)
        pool.take(meld)
        hand += meld


def _add_crossing(rng: random.Random, pool: DeckPool, hand: list[Card], table: list[list[Card]], rules: Ruleset) -> None:
    """A card that fits two table plays (or one play and a hand card's growth), so only one gets it."""
    fits = {c: sum(_fits(c, play, rules) for play in table) for c in sorted(set(pool.cards))}
    fitting = [c for c in fits if fits[c] >= 2] or [c for c in fits if fits[c]]
    if fitting:
        card = rng.choice(fitting)
        pool.take([card])
        hand.append(card)


def _position(rng: random.Random, rules: Ruleset, pool: DeckPool, plays: dict[str, list[list[Card]]],
              hand: list[Card]) -> Position | None:
    """The position around the deal: opponents' hand counts, a discard pile, the stock; validated."""
    rng.shuffle(hand)
    players = [Player(MOVER, MOVER, bool(plays[MOVER]), tuple(hand), None, (), (),
                      tuple(Play(tuple(p)) for p in plays[MOVER]))]
    counts = {name: rng.randint(*OPPONENT_HAND) for name in plays if name != MOVER}
    for name, count in counts.items():
        players.append(Player(name, name, bool(plays[name]), None, count, (), (),
                              tuple(Play(tuple(p)) for p in plays[name])))
    rest = sorted(pool.cards)
    rng.shuffle(rest)
    pile = tuple(rest[: rng.randint(*DISCARD_PILE)])
    stock = len(rest) - len(pile) - sum(counts.values())
    if stock < 1:
        return None
    position = Position(rules, tuple(players), MOVER, Phase.PLAY, None, None, (), pile, stock)
    try:  # the deal's own check: a valid position file, every card within the two packs
        return Position.from_data(position.to_data())
    except PositionError:
        return None


def accept_steal(position: Position, answer: Answer) -> str | None:
    """Kept only if the best turn takes at least one play from an opponent."""
    after = answer.solution.after
    if after is None:
        return "no steal in the answer"
    before, final = final_table(position), final_table(after)
    mover_side = position.mover.side
    for player in position.players:
        if player.side != mover_side and final[player.name] != before[player.name]:
            return None
    return "no steal in the answer"


# ------------------------------------------------------------- same answer
def canonical(after: Position) -> tuple:
    """Every player's plays up to identical cards and the order of plays (the discard left out)."""
    return after.table_key()


def ambiguity(before: Position, after: Position) -> str | None:
    # The model forbids exactly the selections that give ``after``'s table (robber.excluded_counts).
    return None


# Cards score 5 to 15 points: an easy puzzle may win by one small card, an expert one by 15 points.
register_family(FamilySupport("robber", near=NEAR_POINTS, canonical=canonical, ambiguity=ambiguity,
                              margin_bars=(0, 5, 10, 15)))
register_kind(Kind(PuzzleKind.STEAL, ("robber",), "steal the most points", make_steal, accept_steal))
