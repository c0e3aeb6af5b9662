"""Robber Rummy puzzles: score the most with a turn that steals (preset ``robber``).

A candidate is a play-phase position of a hand in progress: two players (a
third now and then, each on their own side), the opponents' plays on the
table, some of them worth stealing, maybe a few of the mover's own, the
mover's hand, the opponents' hand counts, a discard pile and the stock.

The tier is the ladder's (``rummy.ladder.robber``): ``extend`` never steals
and every answer of this kind steals, so the kind is never easy
(``STEAL_TIERS``). ``tier`` picks the deal.

``medium`` (and ``tier`` None, one time in three): the hand is dealt around
the table, so that it has something to do and something to decide:

- *steals*: for some opponent plays, 1-2 cards that grow them (a run's next
  cards at one end, more cards of a book's rank);
- *crossings*: cards that fit two table plays at once (the 6 of hearts for
  ``3H 4H 5H`` and ``6S 6C 6D``), or the growth of one and the end of the
  other, so only one of them can have it;
- *a hand meld*: now and then a new play in the hand that shares a card
  with a steal (lay the meld, or break it to steal);
- *filler*: cards from the rest of the deck.

Such deals are solved by ``steal-one``, the greedy player who tries every
order: a card's best place now is its best place.

``hard`` and ``expert`` plant *traps* (``_plant_trap``): an opponent's run
B, a card X that continues it, 1-2 *chain* cards that continue B past X,
and an opponent's bigger play A that X also fits (a book of X's rank, 3-7
cards) and that X steals for more points now.
Greedy, X takes A and the chain stays in hand; the best turn puts X on B
(a card placed below its best value now: one of ``steal-chain``'s two
hold-backs) and the chain follows, winning at least ``least_gap`` points.
A trap stands alone (``_traps_stand``): X fits A and B only, the chain no
play on the table, no other hand card fits A or B. ``hard`` plants one trap
beside plain steals; ``expert`` plants three, one hold-back more than
``steal-chain`` allows. The rest of the hand is dead cards (no play takes
them, no meld with the hand), so they only cost.

Same answer (``canonical``): every player's plays as multisets of cards, up
to identical cards and the order of plays; the discard is no part of it. The
model's exclusion forbids exactly the selections that give an excluded table
(``rummy.model.robber.excluded_counts``), so no other table is ever hidden
with it: ``ambiguity`` is always None. Rivals are found by solving for the
best again and again (each Robber solve takes milliseconds).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ..answer import Answer
from ..cards import SUITS, Card
from ..family import ROBBER
from ..model.robber import final_table
from ..plays import Play, is_whole
from ..position import Player, Position, TableKey
from ..rules import Ruleset
from ..scoring import penalty
from ..vocabulary import PuzzleKind, Tier
from .deck import DeckPool, with_piles
from .kinds import FamilySupport, Kind, register_family, register_kind

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
    Tier.MEDIUM: DealShape(opponent_plays=(3, 5), own_plays=(0, 2), steals=(2, 3), crossings=(1, 2), hand=(6, 8),
                           meld_chance=0.3),
}  # the plain deal (steals, crossings, a meld): medium; a tier without a shape or traps is dealt medium


@dataclass(frozen=True)
class TrapShape:
    traps: Range  # planted traps, each one card a greedy player puts in the wrong place
    least_gap: int  # points each trap's right answer wins over the greedy one, at least
    other_plays: Range  # more opponent plays
    own_plays: Range
    steals: Range  # of the other plays, those the hand can grow (plain greedy steals)
    extra: Range  # hand cards beyond the traps': growths first, then dead cards


TRAPS = {
    Tier.HARD: TrapShape(traps=(1, 1), least_gap=15, other_plays=(1, 3), own_plays=(0, 1), steals=(1, 2), extra=(2, 3)),
    Tier.EXPERT: TrapShape(traps=(3, 3), least_gap=15, other_plays=(0, 1), own_plays=(0, 1), steals=(0, 1),
                           extra=(1, 2)),
}
STEAL_TIERS = (Tier.MEDIUM, Tier.HARD, Tier.EXPERT)  # a steal is past extend: never easy
TRAP_TRIES = 200  # layouts tried for one trap
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
        return [[Card(rank, s)] for s in SUITS] \
            + [[Card(rank, a), Card(rank, b)] for a in SUITS for b in SUITS if a <= b]
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
    if tier is None:
        tier = rng.choice(STEAL_TIERS)
    if tier in TRAPS:
        return make_trapped(rng, rules, tier)
    shape = SHAPES[tier if tier in SHAPES else Tier.MEDIUM]
    pool = DeckPool(rules)
    opponents = OPPONENTS[: 2 if rng.random() < THIRD_PLAYER_CHANCE else 1]
    laid = _table(rng, pool, rules, opponents, shape.opponent_plays, shape.own_plays)
    if laid is None:
        return None
    plays = laid[0]
    size = rng.randint(*shape.hand)
    hand: list[Card] = []
    targets = [play for name in opponents for play in plays[name]]
    rng.shuffle(targets)
    _add_steals(rng, pool, hand, targets[: rng.randint(*shape.steals)], size, rules)
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


def _add_steals(rng: random.Random, pool: DeckPool, hand: list[Card], targets: list[list[Card]], size: int,
                rules: Ruleset) -> None:
    """For each target play, 1-2 cards that grow it (while the hand has room)."""
    for play in targets:
        options = [g for g in _growths(play, rules)
                   if len(hand) + len(g) <= size and pool.has(g) and is_whole(tuple(play + g), rules)]
        if options:
            growth = rng.choice(options)
            pool.take(growth)
            hand += growth


# --------------------------------------------------------------- traps
def _steal_gain(play: list[Card], card: Card, rules: Ruleset) -> int:
    """What ``card`` gains now on an opponent's ``play``: the play grown, the opponent's loss, the card's penalty."""
    return ROBBER.play_score(tuple(play) + (card,), rules) + ROBBER.play_score(tuple(play), rules) \
        + penalty(card, rules)


def _plant_trap(rng: random.Random, pool: DeckPool, rules: Ruleset, least_gap: int, table: list[list[Card]],
                hand: list[Card]) -> tuple[list[Card], list[Card], list[Card]] | None:
    """One trap for a greedy player: (the run B, the big play A, the hand cards: X then the chain).

    X fits both opponent plays; A, a big book of X's rank (3-7 cards), gains more with X now (a
    run of X's suit would hold the chain's ranks and outweigh the chain, so A is a book). The
    chain (1-2 cards) continues B past X and fits nothing else, so X belongs on B: that is one
    card placed below its best value now, worth ``least_gap`` points or more over the greedy
    turn (X on A, the chain stuck in hand)."""
    for _ in range(TRAP_TRIES):
        suit = rng.choice(SUITS)
        length, chain_length = rng.randint(3, 4), rng.randint(1, 2)
        span = length + 1 + chain_length
        start = rng.randint(2, 15 - span)  # never the low ace, so no run wraps
        positions = list(range(start, start + span))
        if rng.random() < 0.5:  # B below X and the chain above it, or the mirror image
            run_pos, x_pos, chain_pos = positions[:length], positions[length], positions[length + 1:]
        else:
            positions.reverse()
            run_pos, x_pos, chain_pos = sorted(positions[:length]), positions[length], positions[length + 1:]
        run = [_run_card(p, suit) for p in run_pos]
        x = _run_card(x_pos, suit)
        chain = [_run_card(p, suit) for p in chain_pos]
        b = _steal_gain(run, x, rules)
        plan = run + [x] + chain
        if not pool.has(plan) or any(_fits(c, play, rules) for c in [x] + chain for play in table) \
                or any(_fits(c, run, rules) for c in hand):
            continue
        left = Counter(pool.cards) - Counter(plan)
        same_rank = [c for c in sorted(left.elements()) if c.rank == x.rank]
        rng.shuffle(same_rank)
        options = [same_rank[:size] for size in range(3, min(len(same_rank), rules.book_max - 1) + 1)]
        gain_on_b = b + sum(ROBBER.play_score(tuple(run + [x] + chain[: i + 1]), rules)
                            - ROBBER.play_score(tuple(run + [x] + chain[:i]), rules) + penalty(chain[i], rules)
                            for i in range(len(chain)))
        fitting = []
        for big in options:
            if not is_whole(tuple(big), rules) or not is_whole(tuple(big) + (x,), rules):
                continue
            if any(_fits(c, big, rules) for c in chain + hand):
                continue
            a = _steal_gain(big, x, rules)
            if b < a <= gain_on_b - least_gap and pool.has(plan + big):
                fitting.append((a, big))
        if not fitting:
            continue
        _, big = min(fitting, key=lambda ab: ab[0])  # the closest call: the greedy choice looks right
        pool.take(plan + big)
        return run, big, [x] + chain
    return None


def _table(rng: random.Random, pool: DeckPool, rules: Ruleset, opponents: tuple[str, ...], opponent_plays: Range,
           own_plays: Range) -> tuple[dict[str, list[list[Card]]], list[list[Card]]] | None:
    """Random whole plays for the opponents (each to one at random) and then the mover, with the
    opponents' plays in the order dealt; None when the pack runs out of them."""
    plays: dict[str, list[list[Card]]] = {name: [] for name in (MOVER, *opponents)}
    dealt = []
    for _ in range(rng.randint(*opponent_plays)):
        play = _random_play(rng, pool, rules)
        if play is None:
            return None
        dealt.append(play)
        plays[rng.choice(opponents)].append(play)
    for _ in range(rng.randint(*own_plays)):
        play = _random_play(rng, pool, rules)
        if play is None:
            return None
        plays[MOVER].append(play)
    return plays, dealt


def make_trapped(rng: random.Random, rules: Ruleset, tier: Tier) -> Position | None:
    """A hard or expert deal: traps a greedy player falls into, ordinary steals, dead filler."""
    shape = TRAPS[tier]
    pool = DeckPool(rules)
    opponents = OPPONENTS[: 2 if rng.random() < THIRD_PLAYER_CHANCE else 1]
    laid = _table(rng, pool, rules, opponents, shape.other_plays, shape.own_plays)
    if laid is None:
        return None
    plays, others = laid
    hand: list[Card] = []
    traps = []
    for _ in range(rng.randint(*shape.traps)):
        table = [play for name in plays for play in plays[name]]
        trap = _plant_trap(rng, pool, rules, shape.least_gap, table, hand)
        if trap is None:
            return None
        run, big, cards = trap
        plays[rng.choice(opponents)].append(run)
        plays[rng.choice(opponents)].append(big)
        hand += cards
        traps.append(trap)
    size = len(hand) + rng.randint(*shape.extra)
    rng.shuffle(others)
    _add_steals(rng, pool, hand, others[: rng.randint(*shape.steals)], size, rules)
    table = [play for name in plays for play in plays[name]]
    dead = [c for c in sorted(set(pool.cards)) if not any(_fits(c, play, rules) for play in table)]
    rng.shuffle(dead)
    for card in dead:
        if len(hand) >= size:
            break
        if any(is_whole((card, p, q), rules) for i, p in enumerate(hand) for q in hand[i + 1:]):
            continue  # no new meld with the hand: filler only costs
        if pool.take([card]):
            hand.append(card)
    if len(hand) < size or not _traps_stand(traps, table, hand, rules):
        return None
    return _position(rng, rules, pool, plays, hand)


def _fitting(card: Card, table: list[list[Card]], rules: Ruleset) -> list[int]:
    """The identities of the plays ``card`` fits."""
    return sorted(id(play) for play in table if _fits(card, play, rules))


def _traps_stand(traps: list[tuple[list[Card], list[Card], list[Card]]], table: list[list[Card]],
                 hand: list[Card], rules: Ruleset) -> bool:
    """Each trap untouched by the rest of the deal: its X fits its two plays alone, its chain no play
    on the table, and no other hand card fits a trap's play (which would take it first and free X)."""
    trap_cards = Counter(c for _, _, cards in traps for c in cards)
    others = list((Counter(hand) - trap_cards).elements())
    for run, big, (x, *chain) in traps:
        if _fitting(x, table, rules) != sorted((id(run), id(big))):
            return False
        if any(_fitting(c, table, rules) for c in chain):
            return False
        if any(_fits(c, play, rules) for c in others for play in (run, big)):
            return False
    return True


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


def _add_crossing(rng: random.Random, pool: DeckPool, hand: list[Card], table: list[list[Card]],
                  rules: Ruleset) -> None:
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
    return with_piles(rules, tuple(players), MOVER, sorted(pool.cards), rng, DISCARD_PILE)


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
def canonical(after: Position) -> TableKey:
    """Every player's plays up to identical cards and the order of plays (the discard left out)."""
    return after.table_key()


def ambiguity(before: Position, after: Position) -> str | None:
    # The model forbids exactly the selections that give ``after``'s table (robber.excluded_counts).
    return None


# Cards score 5 to 15 points: an easy puzzle may win by one small card, an expert one by 15 points.
register_family(FamilySupport("robber", near=NEAR_POINTS, canonical=canonical, ambiguity=ambiguity,
                              margin_bars=(0, 5, 10, 15)))
# What the gain counts (rules.md §7): a steal is worth the play's new score and what its owner loses; the
# cards out of the hand are worth their penalty, so the task says both ("steal the most points" did not).
ROBBER_TASK = ("score the most: the points of the plays you lay, grow or steal (a stolen play also counts "
               "what its owner loses) and of every card out of your hand, the discard included")
register_kind(Kind(PuzzleKind.STEAL, ("robber",), ROBBER_TASK, make_steal, accept_steal,
                   tiers=STEAL_TIERS))
