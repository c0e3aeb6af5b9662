"""Lay-off rummy puzzles (presets ``straight``, ``traditional``): "go out this turn" and "score the most".

A candidate is a play-phase position of a hand in progress: the mover and
one or two opponents, each with their own space of melds (the opponents'
hands hidden, ``hand_count``, never empty), now and then a card an opponent
laid off earlier on someone's meld, a discard pile and the stock. The
mover's hand is dealt around the table rather than at random, so that it
has something to do and something to decide (``deal``):

- *lay-offs*: for some plays on the table, 1-3 cards that grow them (a
  run's next cards at one end, the missing suits of a book);
- *a hand meld*: a new meld in the hand, now and then around a lay-off card
  (lay the meld, or lay the card off), or next to a table run (lay it as a
  meld, or lay it off as the run's growth: one meld a turn, so the choice
  matters);
- *crossings*: cards that fit two plays on the table (the 6 of hearts for
  ``3H 4H 5H`` and ``6S 6C 6D``), so only one of them can have it;
- *dead cards*: cards no play and no meld of the hand can take, of distinct
  penalty values, so the discard is a choice only where it should be.
  ``go-out`` deals at most one (the final discard, or none: then the mover
  must find which card to keep back); ``most-points`` at least two, so the
  mover cannot go out.

``tier`` scales the deal (plays on the table, lay-offs, crossings, hand
size); the tier a puzzle gets is the generator's (the ladder of human-like
players, rummy.ladder.layoff). Under the presets (one meld a turn, no
jokers, no keep_one_to_discard) the rungs differ only by two dilemmas, and
the deal is built on them:

- medium and hard: the hand's meld is always built around a lay-off card
  (the *stolen meld*: ``lay-off`` lays the card off first and strands the
  meld's other cards; ``best-meld`` melds first);
- hard ``most-points``: the *card kept back* (``_keep_back``): the mover took
  the top discard, warm (never discarded again), a card no play takes;
  every other card has a home, so playing all leaves no legal end, and
  the best turn keeps back the one card nothing else needs, to discard it.

``go-out`` is never hard: a unique going-out turn leaves nothing playable
(else playing it would go out too), which ``best-meld`` always reaches.
Tiers are easy, medium, hard: ``keep-for-layoff`` searches the whole turn,
so no lay-off puzzle is expert (docs/generate.md, "Lay-off rummy").

Kinds:

- ``go-out``: the best turn empties the hand (melds and lay-offs under the
  preset's ``plays_per_turn``, ``layoff_needs_meld`` and
  ``keep_one_to_discard``, with or without the final discard); unique means
  no other final state goes out, so exactly one arrangement and one discard
  do.
- ``most-points``: the mover cannot go out; the best turn sheds the most
  penalty points, and no other final state sheds as many.

Same answer (``canonical``): ``rummy.model.layoff.final_state``, every
player's plays each with what every player laid off on it, up to order and
identical plays, and the discard (it changes the gain). The model's
exclusion forbids exactly the (selection, discard) pairs that give an
excluded final state (``rummy.model.layoff.excluded_selections``), so no
other state is ever hidden with it: ``ambiguity`` is always None. Rivals are
found by solving for the best again and again (each solve takes
milliseconds).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

from ..answer import Answer
from ..cards import SUITS, Card, rank_at
from ..model.extend.growth import growths, new_plays
from ..model.layoff import final_state
from ..plays import Play, PlayName, is_whole
from ..position import Attached, Player, Position
from ..rules import Ruleset
from ..scoring import penalty
from ..vocabulary import PuzzleKind, Tier
from .deck import DeckPool, PlayShapes, random_play, with_piles
from .kinds import FamilySupport, Kind, register_family, register_kind

Range = tuple[int, int]


@dataclass(frozen=True)
class DealShape:
    opponent_plays: Range  # melds in the opponents' spaces
    own_plays: Range  # melds in the mover's space (0: the mover has not melded)
    layoffs: Range  # table plays the hand can grow
    growth: int  # most cards one lay-off adds
    crossings: Range  # hand cards that fit two table plays
    meld_chance: float  # chance of a new meld in the hand
    hand: Range  # cards in the mover's hand, dead cards included
    spread: int  # least difference between the penalty values of two dead cards


SHAPES = {
    Tier.EASY: DealShape(opponent_plays=(2, 3), own_plays=(0, 1), layoffs=(1, 2), growth=1, crossings=(0, 1),
                         meld_chance=0.5, hand=(4, 6), spread=1),
    Tier.MEDIUM: DealShape(opponent_plays=(3, 4), own_plays=(0, 1), layoffs=(2, 3), growth=2, crossings=(1, 1),
                           meld_chance=1.0, hand=(5, 7), spread=2),
    Tier.HARD: DealShape(opponent_plays=(3, 5), own_plays=(0, 2), layoffs=(2, 4), growth=2, crossings=(1, 2),
                         meld_chance=1.0, hand=(6, 9), spread=3),
    Tier.EXPERT: DealShape(opponent_plays=(4, 6), own_plays=(1, 2), layoffs=(3, 5), growth=3, crossings=(2, 3),
                           meld_chance=0.9, hand=(7, 10), spread=4),
}
PLAY_SHAPES = PlayShapes(tries=30, run_chance=0.55, run_lengths=(3, 3, 4, 5), book_sizes=(3, 3, 4))
THIRD_PLAYER_CHANCE = 0.3
GO_OUT_DISCARD_CHANCE = 0.75  # go-out: a dead card to end on (else the mover must see which card to keep back)
AROUND_LAYOFF = 1.0  # medium and hard: the hand's meld is built around a lay-off card (which the greedy player steals)
STOLEN_MELD_TIERS = (Tier.MEDIUM, Tier.HARD)
EARLIER_LAYOFF_CHANCE = 0.3  # an opponent laid a card off on some play before this turn
OPPONENT_HAND = (2, 9)  # cards in an opponent's hand (hand_count), never 0
DISCARD_PILE = (1, 6)
MOVER, OPPONENTS = "ann", ("bob", "cat")
# The least margin over the second-best turn, per tier (docs/generate.md, "Lay-off rummy").
MARGIN_BARS = (0, 1, 3, 4)
NEAR_POINTS = 5  # a five: the smallest card worth counting as a near miss (aces count 1)


@dataclass
class Meld:
    owner: str
    cards: list[Card]
    laid: list[tuple[str, list[Card]]]  # (layer, cards) laid off on it before this turn
    planned: list[Card]  # hand cards dealt to lay off on it (together, so they fit together)

    def whole(self) -> tuple[Card, ...]:
        return tuple(self.cards) + tuple(c for _, cards in self.laid for c in cards)


# --------------------------------------------------------------------- deal
def deal(rng: random.Random, rules: Ruleset, tier: Tier | None, going_out: bool) -> Position | None:
    """One candidate: the table, then the hand around it (module docstring)."""
    shape = SHAPES[tier if tier in SHAPES else rng.choice(sorted(SHAPES))]
    pool = DeckPool(rules)
    opponents = OPPONENTS[: 2 if rng.random() < THIRD_PLAYER_CHANCE else 1]
    table: list[Meld] = []
    for owner, count in [(None, rng.randint(*shape.opponent_plays)), (MOVER, rng.randint(*shape.own_plays))]:
        for _ in range(count):
            cards = random_play(rng, pool, rules, PLAY_SHAPES)
            if cards is None:
                return None
            table.append(Meld(owner or rng.choice(opponents), cards, [], []))
    if rng.random() < EARLIER_LAYOFF_CHANCE:
        _earlier_layoff(rng, pool, rules, table, opponents)
    if tier == Tier.HARD and not going_out:
        return _keep_back(rng, rules, pool, table, opponents, shape)
    size = rng.randint(*shape.hand)
    dead = (int(rng.random() < GO_OUT_DISCARD_CHANCE) if going_out else rng.randint(2, 3)) if size > 3 else 0
    room = size - dead
    hand: list[Card] = []
    targets = list(table)
    rng.shuffle(targets)
    for meld in targets[: rng.randint(*shape.layoffs)]:
        _add_growth(rng, pool, rules, meld, hand, room, shape.growth)
    if rng.random() < shape.meld_chance and len(hand) + 3 <= room:
        _add_meld(rng, pool, rules, hand, table, around=AROUND_LAYOFF if tier in STOLEN_MELD_TIERS else 0.5)
    for _ in range(rng.randint(*shape.crossings)):
        if len(hand) < room:
            _add_crossing(rng, pool, rules, hand, table)
    while len(hand) < room:  # more lay-offs: every card here has a home
        if not _add_growth(rng, pool, rules, rng.choice(table), hand, room, 1):
            break
    if not hand:
        return None
    _add_dead(rng, pool, rules, hand, table, min(dead, size - len(hand)), shape.spread)
    return _position(rng, rules, pool, table, opponents, hand)


def _keep_back(rng: random.Random, rules: Ruleset, pool: DeckPool, table: list[Meld], opponents: tuple[str, ...],
               shape: DealShape) -> Position | None:
    """A hard ``most-points`` hand built around the card taken from the discard pile (warm: it may not be
    discarded again, rules.md §8 and docs/draw.md) when no play takes it: every other card has a home,
    one meld and the lay-offs, so a player who plays all they can is left holding the warm card alone and
    cannot end the turn. The best turn keeps back one card that could be played, to discard it; the meld
    around a lay-off card (or next to a table run) and the crossings decide which."""
    hand: list[Card] = []
    room = shape.hand[1] - 1
    targets = list(table)
    rng.shuffle(targets)
    for meld in targets[: rng.randint(1, 2)]:
        _add_growth(rng, pool, rules, meld, hand, room, shape.growth)
    if len(hand) + 3 <= room:
        _add_meld(rng, pool, rules, hand, table, around=AROUND_LAYOFF)
    if rng.random() < 0.5 and len(hand) < room:
        _add_crossing(rng, pool, rules, hand, table)
    if not hand:
        return None
    before = len(hand)
    _add_dead(rng, pool, rules, hand, table, 1, 1)
    if len(hand) == before:
        return None
    return _position(rng, rules, pool, table, opponents, hand, warm=hand[-1])


def _pool_counter(pool: DeckPool) -> Counter[Card]:
    return Counter(pool.cards)


def _add_growth(rng: random.Random, pool: DeckPool, rules: Ruleset, meld: Meld, hand: list[Card], room: int,
                most: int) -> bool:
    """Cards from the pool that grow ``meld`` (with what the hand already lays on it), into the hand."""
    base = meld.whole() + tuple(meld.planned)
    options = [g for g in growths(base, _pool_counter(pool), rules) if len(g) <= min(most, room - len(hand))]
    if not options:
        return False
    growth = rng.choice(options)
    pool.take(growth)
    hand += growth
    meld.planned += growth
    return True


def _fits(card: Card, meld: Meld, rules: Ruleset) -> bool:
    """Does ``card`` fit ``meld`` with what was laid on it and what the hand is dealt to lay on it?"""
    return is_whole(meld.whole() + tuple(meld.planned) + (card,), rules)


def _earlier_layoff(rng: random.Random, pool: DeckPool, rules: Ruleset, table: list[Meld],
                    opponents: tuple[str, ...]) -> None:
    meld = rng.choice(table)
    options = [g for g in growths(meld.whole(), _pool_counter(pool), rules) if len(g) == 1]
    if options:
        growth = rng.choice(options)
        pool.take(growth)
        meld.laid.append((rng.choice(opponents), list(growth)))


def _add_meld(rng: random.Random, pool: DeckPool, rules: Ruleset, hand: list[Card], table: list[Meld],
              around: float = 0.5) -> None:
    """A new meld in the hand: around a lay-off card (a book of its rank, a run through it), next to a
    table run (lay it down, or lay it off), or anywhere."""
    options: list[list[Card]] = []
    if hand and rng.random() < around:
        card = rng.choice(sorted(hand))
        options += [[Card(card.rank, a), Card(card.rank, b)] for a in SUITS for b in SUITS if a < b]
        for offsets in ((-2, -1), (-1, 1), (1, 2)):
            places = [card.rank + o for o in offsets]
            if all(1 <= p <= 14 for p in places):
                options.append([Card(rank_at(p), card.suit) for p in places])
        options = [o for o in options if pool.has(o) and is_whole(tuple(o) + (card,), rules)]
    elif rng.random() < 0.5:
        for meld in table:
            for g in growths(meld.whole(), _pool_counter(pool), rules):
                if len(g) >= 3 and is_whole(g, rules):
                    options.append(list(g))
    if options:
        meld_cards = rng.choice(options)
        pool.take(meld_cards)
        hand += meld_cards
        return
    cards = random_play(rng, pool, rules, PlayShapes(tries=20, run_chance=0.5, run_lengths=(3, 3, 4), book_sizes=(3,)))
    if cards is not None:
        hand += cards


def _add_crossing(rng: random.Random, pool: DeckPool, rules: Ruleset, hand: list[Card], table: list[Meld]) -> None:
    """A card that fits two table plays (else one), so only one of them gets it; dealt to one of them."""
    fits = {c: [m for m in table if _fits(c, m, rules)] for c in sorted(set(pool.cards))}
    fitting = [c for c in fits if len(fits[c]) >= 2] or [c for c in fits if fits[c]]
    if fitting:
        card = rng.choice(fitting)
        pool.take([card])
        hand.append(card)
        rng.choice(fits[card]).planned.append(card)


def _add_dead(rng: random.Random, pool: DeckPool, rules: Ruleset, hand: list[Card], table: list[Meld],
              count: int, spread: int) -> None:
    """``count`` cards no table play takes and no meld of the hand uses, their penalty values at least
    ``spread`` apart (and from the hand's own dead cards), so the discard is not a tie."""
    values = {penalty(c, rules) for c in hand if _is_dead(c, hand, table, rules)}
    candidates = sorted(set(pool.cards))
    rng.shuffle(candidates)
    for card in candidates:
        if count <= 0:
            return
        value = penalty(card, rules)
        if any(abs(value - v) < spread for v in values) or not _is_dead(card, hand + [card], table, rules):
            continue
        pool.take([card])
        hand.append(card)
        values.add(value)
        count -= 1


def _is_dead(card: Card, hand: list[Card], table: list[Meld], rules: Ruleset) -> bool:
    """No growth of a table play, and no new meld, the hand (``card`` in it) can make uses ``card``."""
    cards = Counter(hand)
    if any(card in g for meld in table for g in growths(meld.whole(), cards, rules)):
        return False
    return not any(card in meld for meld in new_plays(cards, rules))


def _position(rng: random.Random, rules: Ruleset, pool: DeckPool, table: list[Meld], opponents: tuple[str, ...],
              hand: list[Card], warm: Card | None = None) -> Position | None:
    """The position around the deal: spaces, earlier lay-offs, hand counts, a discard pile, the stock; validated.
    ``warm``: a hand card the mover took from the top of the discard pile this turn (so it may not be discarded)."""
    rng.shuffle(hand)
    names = (MOVER, *opponents)
    spaces: dict[str, list[Meld]] = {name: [m for m in table if m.owner == name] for name in names}
    layoffs: dict[str, list[Attached]] = {name: [] for name in names}
    for name in names:
        for i, meld in enumerate(spaces[name], 1):
            for layer, cards in meld.laid:
                layoffs[layer].append(Attached(PlayName.of(name, i), tuple(cards)))
    counts = {name: rng.randint(*OPPONENT_HAND) for name in opponents}
    players = []
    for name in names:
        plays = tuple(Play(tuple(m.cards)) for m in spaces[name])
        melded = bool(plays) or bool(layoffs[name])
        if name == MOVER:
            players.append(Player(name, name, melded, tuple(hand), None, (), (warm,) if warm is not None else (),
                                  plays, tuple(layoffs[name])))
        else:
            players.append(Player(name, name, melded, None, counts[name], (), (), plays, tuple(layoffs[name])))
    return with_piles(rules, tuple(players), MOVER, list(pool.cards), rng, DISCARD_PILE)


def make_go_out(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    return deal(rng, rules, tier, going_out=True)


def make_most_points(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    return deal(rng, rules, tier, going_out=False)


# ------------------------------------------------------------ acceptance
def _emptied(position: Position, answer: Answer) -> bool | None:
    after = answer.solution.after
    if after is None:
        return None
    return not after.player(position.to_move).hand


def accept_go_out(position: Position, answer: Answer) -> str | None:
    """Kept only if the best turn empties the hand."""
    return None if _emptied(position, answer) else "hand not emptied"


def accept_most_points(position: Position, answer: Answer) -> str | None:
    """Kept only if the mover cannot go out (the best turn would go out if any did)."""
    emptied = _emptied(position, answer)
    if emptied is None:
        return "no turn"
    return "goes out" if emptied else None


# ------------------------------------------------------------- same answer
def canonical(after: Position) -> Hashable:
    """Every player's plays with their lay-offs, up to order and identical plays, and the discard."""
    return final_state(after)


def ambiguity(before: Position, after: Position) -> str | None:
    # The model forbids exactly the (selection, discard) pairs that give ``after``'s final state
    # (rummy.model.layoff.excluded_selections).
    return None


register_family(FamilySupport("layoff", near=NEAR_POINTS, canonical=canonical, ambiguity=ambiguity,
                              margin_bars=MARGIN_BARS))
# The ladder's top rung (keep-for-layoff) searches the whole turn: no lay-off puzzle is ever expert.
LAYOFF_TIERS = (Tier.EASY, Tier.MEDIUM, Tier.HARD)
# A unique turn that goes out leaves nothing the rungs below could still play, so best-meld always
# finds it: going out is never hard (2,000 candidates of each preset gave none).
# The gain is the points of the cards that leave the hand, however they leave it (rules.md §8): a
# most-points answer may lay nothing off, so the task names the meld and the discard too.
GO_OUT_TASK = "go out this turn: every card leaves your hand, by a meld, lay-offs or the discard"
MOST_POINTS_TASK = "score the most: the points of the cards out of your hand, melded, laid off or discarded"
register_kind(Kind(PuzzleKind.GO_OUT, ("layoff",), GO_OUT_TASK, make_go_out, accept_go_out,
                   (Tier.EASY, Tier.MEDIUM)))
register_kind(Kind(PuzzleKind.MOST_POINTS, ("layoff",), MOST_POINTS_TASK, make_most_points,
                   accept_most_points, LAYOFF_TIERS))
