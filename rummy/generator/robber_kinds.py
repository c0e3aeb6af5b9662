"""Robber Rummy puzzles: score the most with a turn that steals (preset ``robber``).

A candidate is a play-phase position of a hand in progress: two players (a
third now and then, each on their own side; or four in two partnerships,
ann and cat against bob and dan), the opponents' plays on the table, some
of them worth stealing, maybe a few of the mover's own, the mover's hand,
the other players' hand counts, a discard pile and the stock.

The tier is the ladder's (``rummy.ladder.robber``): ``extend`` never steals
and every answer of this kind steals, so the kind is never easy
(``STEAL_TIERS``). ``tier`` picks the deal (``TRAPS``).

The *plain deal* (half the ``medium`` ones; ``make_steal`` without traps):
the hand is dealt around the table, so that it has something to do and
something to decide:

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

The *trap deal* (``make_trapped``; the other medium half, hard, expert)
plants traps for the greedy player (``robber_traps``: a card X between two
runs of its suit, the right one the smaller, the chain behind it): one
(medium: ``steal-chain``'s one hold-back), two or three (hard: within
``lookahead``'s three), four (expert), two of them sharing a run now and
then (steals that interact). Then other plays, none taking a trap's card;
plain steals, a partner's play grown in a partnership deal; dead cards, or
none or one (the best turn empties the hand). Each trap's run comes after
one of its decoys in table order, so a first-fit player falls in too.

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
from ..model.robber import final_table
from ..plays import Play, is_whole
from ..position import Player, Position, TableKey
from ..rules import Ruleset
from ..vocabulary import PuzzleKind, Tier
from .deck import DeckPool, with_piles
from .kinds import FamilySupport, Kind, register_family, register_kind
from .robber_traps import Trap, fits, plant, traps_stand

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
    traps: Range  # planted traps (robber_traps), each one decision a greedy player gets wrong
    least_gap: int  # points each trap's right answer wins over its best decoy, at least
    other_plays: Range  # more opponent plays
    own_plays: Range
    steals: Range  # of the other plays, those the hand can grow (plain greedy steals)
    steal_cards: Range  # hand cards for those steals, at most
    dead: Range  # hand cards no play takes
    dead_out: Range  # the same, when the deal lets the best turn empty the hand
    going_out_chance: float
    partnership_chance: float  # four players in two partnerships (the mover's partner: cat)
    book_chance: float  # a book of X's rank as a second decoy
    stack_chance: float  # a trap's decoy A is the trap before's run B: steals that interact (5 points less gap)
    plain_chance: float = 0.0  # the plain deal instead (SHAPES), no trap
    paired: int = 0  # a cascade: the first ``paired`` traps in pairs, the second's decoy A the first's run B


TRAPS = {
    Tier.MEDIUM: TrapShape(traps=(1, 1), least_gap=10, other_plays=(1, 3), own_plays=(0, 1), steals=(1, 2),
                           steal_cards=(1, 3), dead=(1, 3), dead_out=(0, 1), going_out_chance=0.3,
                           partnership_chance=0.25, book_chance=0.4, stack_chance=0.0, plain_chance=0.5),
    Tier.HARD: TrapShape(traps=(2, 3), least_gap=15, other_plays=(0, 2), own_plays=(0, 1), steals=(0, 2),
                         steal_cards=(1, 2), dead=(1, 3), dead_out=(0, 1), going_out_chance=0.45,
                         partnership_chance=0.35, book_chance=0.4, stack_chance=0.6),
    Tier.EXPERT: TrapShape(traps=(4, 4), least_gap=15, other_plays=(0, 1), own_plays=(0, 1), steals=(0, 1),
                           steal_cards=(1, 2), dead=(1, 2), dead_out=(0, 1), going_out_chance=0.4,
                           partnership_chance=0.5, book_chance=0.2, stack_chance=0.25),
}
# Cascades (asked for with ``--theme steal-chain``): every trap shares its run with another, so every
# decision a greedy player gets wrong is a steal competing with another steal. A pair is one hold-back for
# the ladder (once the upper X is on its run, the lower X's best steal is its own run): hard deals two pairs,
# expert two pairs and two lone traps (four hold-backs: past lookahead's three; three or four pairs do not fit
# in the two packs with the rest of the deal).
CASCADES = {
    Tier.HARD: TrapShape(traps=(4, 4), least_gap=15, other_plays=(0, 1), own_plays=(0, 1), steals=(0, 1),
                         steal_cards=(1, 2), dead=(1, 2), dead_out=(0, 1), going_out_chance=0.3,
                         partnership_chance=0.5, book_chance=0.2, stack_chance=0.0, paired=4),
    Tier.EXPERT: TrapShape(traps=(5, 5), least_gap=15, other_plays=(0, 1), own_plays=(0, 1), steals=(0, 1),
                           steal_cards=(1, 2), dead=(1, 2), dead_out=(0, 1), going_out_chance=0.3,
                           partnership_chance=0.5, book_chance=0.1, stack_chance=0.0, paired=4),
}
STEAL_TIERS = (Tier.MEDIUM, Tier.HARD, Tier.EXPERT)  # a steal is past extend: never easy
PARTNER = "cat"  # in a partnership deal: ann and cat against bob and dan
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
    if tier in TRAPS and rng.random() >= TRAPS[tier].plain_chance:
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


def make_steered(rng: random.Random, rules: Ruleset, tier: Tier | None, themes: tuple[str, ...]) -> Position | None:
    """A run asking for ``steal-chain`` at hard or expert gets cascades (``CASCADES``); any other the usual deal."""
    if "steal-chain" in themes and tier in CASCADES:
        return make_trapped(rng, rules, tier, CASCADES[tier])
    return make_steal(rng, rules, tier)


def make_trapped(rng: random.Random, rules: Ruleset, tier: Tier, shape: TrapShape | None = None) -> Position | None:
    """A deal with traps (``robber_traps``), ordinary steals, and dead cards or none (the hand may empty)."""
    shape = shape or TRAPS[tier]
    pool = DeckPool(rules)
    partners = rng.random() < shape.partnership_chance
    opponents = ("bob", "dan") if partners else OPPONENTS[: 2 if rng.random() < THIRD_PLAYER_CHANCE else 1]
    plays: dict[str, list[list[Card]]] = {name: [] for name in (MOVER, *opponents)}
    if partners:
        plays[PARTNER] = []
    hand: list[Card] = []
    traps: list[Trap] = []
    for _ in range(rng.randint(*shape.traps)):
        table = [play for name in plays for play in plays[name]]
        if len(traps) < shape.paired:  # the second of each pair on the first's run, or no deal
            above = traps[-1].run if len(traps) % 2 else None
        else:
            above = traps[-1].run if traps and rng.random() < shape.stack_chance else None
        trap = plant(rng, pool, rules, shape.least_gap - 5, table, hand, above, shape.book_chance) if above else None
        if trap is None and not (len(traps) < shape.paired and above):
            trap = plant(rng, pool, rules, shape.least_gap, table, hand, None, shape.book_chance)
        if trap is None:
            return None
        above = above if trap.decoys[0] is above else None
        plays[rng.choice(opponents)].append(trap.run)
        for decoy in trap.decoys:
            if decoy is above:
                continue
            plays[rng.choice(opponents)].append(decoy)
        hand += trap.cards
        traps.append(trap)
    # The other plays after the traps, none of them taking a trap's card (the pack has room for them then).
    others = []
    owners = [rng.choice(opponents) for _ in range(rng.randint(*shape.other_plays))] \
        + [MOVER] * rng.randint(*shape.own_plays) + ([PARTNER] if partners else [])
    for name in owners:
        for _ in range(20):
            play = _random_play(rng, pool, rules)
            if play is None:
                return None
            if not any(fits(c, play, rules) for c in hand):
                break
            pool.give_back(play)
        else:
            return None
        plays[name].append(play)
        if name != MOVER:
            others.append(play)
    rng.shuffle(others)
    size = len(hand) + rng.randint(*shape.steal_cards)
    grown = others[: rng.randint(*shape.steals)]
    if partners:  # the partner's play grows with a hand card or two: the side's play, used
        grown = plays[PARTNER] + [play for play in grown if play not in plays[PARTNER]]
    _add_steals(rng, pool, hand, grown, size + (2 if partners else 0), rules)
    table = [play for name in plays for play in plays[name]]
    dead = [c for c in sorted(set(pool.cards)) if not any(fits(c, play, rules) for play in table)]
    rng.shuffle(dead)
    size = len(hand) + rng.randint(*(shape.dead_out if rng.random() < shape.going_out_chance else shape.dead))
    for card in dead:
        if len(hand) >= size:
            break
        if any(is_whole((card, p, q), rules) for i, p in enumerate(hand) for q in hand[i + 1:]):
            continue  # no new meld with the hand: filler only costs
        if pool.take([card]):
            hand.append(card)
    if len(hand) < size or not traps_stand(traps, table, hand, rules):
        return None
    for name in plays:
        rng.shuffle(plays[name])
    seats = _seats(rng, plays, partners)
    _decoy_first(seats, plays, traps)
    return _position(rng, rules, pool, plays, hand, partners, seats)


def _seats(rng: random.Random, plays: dict[str, list[list[Card]]], partners: bool) -> list[str]:
    """The players in turn from one at random: the table's order."""
    seats = [MOVER, "bob", PARTNER, "dan"] if partners else [MOVER, *(name for name in plays if name != MOVER)]
    first = rng.randrange(len(seats))
    return seats[first:] + seats[:first]


def _decoy_first(seats: list[str], plays: dict[str, list[list[Card]]], traps: list[Trap]) -> None:
    """Each trap's run B after one of its decoys in table order (B and the first decoy swap places
    otherwise, both an opponent's): a first-fit player puts X on a decoy too. Traps sharing a run may
    undo each other's order: a few passes, and the ladder judges what is left."""
    for trap in traps + traps:
        where = [(name, i) for name in seats for i, _ in enumerate(plays.get(name, []))]
        order = [id(plays[name][i]) for name, i in where]
        b_at = order.index(id(trap.run))
        first = min(order.index(id(d)) for d in trap.decoys)
        if first > b_at:
            (b_name, b_i), (d_name, d_i) = where[b_at], where[first]
            plays[b_name][b_i], plays[d_name][d_i] = plays[d_name][d_i], plays[b_name][b_i]


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
              hand: list[Card], partners: bool = False, seats: list[str] | None = None) -> Position | None:
    """The position around the deal: the players in ``seats``' order (the table's order; by default the
    mover first), the opponents' and the partner's hand counts, a discard pile, the stock; validated."""
    rng.shuffle(hand)
    players = []
    for name in seats or [MOVER, *(name for name in plays if name != MOVER)]:
        side = ("A" if name in (MOVER, PARTNER) else "B") if partners else name
        cards = tuple(Play(tuple(p)) for p in plays.get(name, []))
        if name == MOVER:
            players.append(Player(name, side, bool(cards), tuple(hand), None, (), (), cards))
        else:
            players.append(Player(name, side, bool(cards), None, rng.randint(*OPPONENT_HAND), (), (), cards))
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
                   tiers=STEAL_TIERS, steered=make_steered))
