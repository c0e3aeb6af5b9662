"""Dealing House Rummy positions with something to find: plants among random plays.

A *plant* is a small situation that rewards one of the moves puzzles are
about, laid into an otherwise random deal:

- ``book-end``: an opponent's run of 4-5 and two hand cards of the rank of
  one of its ends (stealing the end card makes a book of three);
- ``book-four``: an opponent's book of four and two hand cards that make a
  run with one of its cards;
- ``joker``: a play with a joker on the table (any space) and, in the hand,
  the card the joker stands for;
- ``joker-meld``: the same, and two hand cards that make a play with the
  joker once it is released (for a mover who has not melded: replace, then
  meld with the joker);
- ``meld``: a play of hand cards only (for a mover who has not melded);
- ``own``: a run or book in the mover's own space and a hand card that
  extends it, so cards can flow between the mover's space and others.

*Traps* are plants for the tiers ``hard`` and ``expert``: steals the greedy
``steal-one`` player cannot make, because the robbed space or the mover's
own play must be rearranged around the steal (a *trade* of the
``steal-and-shift`` player, rummy/ladder/house.py):

- ``cut``: an opponent's run of 7-8 and two hand cards of the rank of a
  middle card: stealing it cuts the run in two whole runs, and the card
  makes a book with the two;
- ``shift``: an opponent's book of three and, in the same space, a run of
  4 starting with the book's missing suit; two hand cards continue one of
  the book's cards as a run of its suit: stolen, the book is made whole
  again by the run's first card (moved in), the run stays whole;
- ``relay``: a run of 4 in the mover's space, an opponent's run of 4 of
  another suit starting at the mover's end rank, and one hand card of that
  rank: the mover's end card, the stolen one and the hand card make a book
  (the mover's run taken apart and laid again; a melded mover only).

A hard deal gets one trap, an expert deal three: one trade more than the
hard player makes in a turn.

Around them: random plays in every space and random hand cards. Every other
player holds 3 to 9 cards, shown where going out first earns their hand
penalty (Epic), so that a puzzle's value is what a player can work out. Every card
is drawn once from one pack plus two jokers, by the ``random.Random`` given
(so a seed deals the same everywhere). Whether the deal really needs the
move is for the solver to say; the kinds test the answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import JOKER, SUITS, Card, rank_at
from ..plays import Play, is_whole
from ..position import Player, Position
from ..rules import Ruleset
from ..scoring import penalty
from ..vocabulary import FirstOutBonus, Phase
from .deck import DeckPool

NAMES = ("ann", "bob", "cat", "dan")


@dataclass(frozen=True)
class HouseShape:
    plants: tuple[str, ...]  # kinds of plant to choose from, one per draw
    plant_count: tuple[int, int]
    filler_plays: tuple[int, int]  # random plays anywhere on the table
    extra_hand: tuple[int, int]  # random hand cards besides the planted ones
    melded: bool  # has the mover melded before this turn?
    players: tuple[int, ...] = (2, 2, 3)  # seat counts to choose from
    first_plant: str | None = None  # a plant every deal gets, before the counted ones
    traps: tuple[str, ...] = ()  # kinds of trap to choose from, one per draw
    trap_count: int = 0  # traps every deal gets, after the first plant and before the counted plants
    key_traps: tuple[str, ...] = ()  # traps every deal gets first (the idea its tier is about), before the drawn ones
    temperatures: bool = False  # now and then a planted hand card is hot, or the costliest hand card warm


def _run(start: int, length: int, suit: str) -> list[Card]:
    return [Card(rank_at(start + k), suit) for k in range(length)]


def deal_house(rng: random.Random, rules: Ruleset, shape: HouseShape,
               hand_number: int | None = None) -> Position | None:
    pool = DeckPool(rules, rng)
    seats = rng.choice(shape.players)
    names = NAMES[:seats]
    mover = names[0]
    opponents = [n for k, n in enumerate(names) if k % 2 == 1] if seats == 4 else list(names[1:])
    spaces: dict[str, list[Play]] = {n: [] for n in names}
    hand: list[Card] = []
    kinds = ([shape.first_plant] if shape.first_plant else []) + list(shape.key_traps) + [
        rng.choice(shape.traps) for _ in range(shape.trap_count)] + [
        rng.choice(shape.plants) for _ in range(max(0, rng.randint(*shape.plant_count)))]
    for kind in kinds:
        # A plant that does not fit what is left of the pack gives way to another (a trap to another trap).
        choices = shape.traps if kind in shape.traps else shape.plants
        tried = [kind] + [k for k in rng.sample(choices, len(choices)) if k != kind]
        if kind in shape.key_traps and kind not in shape.traps:
            tried = [kind]  # the idea the tier is about has no stand-in
        if not any(_plant(rng, pool, k, spaces, hand, mover, opponents, names, rules, shape.melded) for k in tried):
            return None
    for _ in range(rng.randint(*shape.filler_plays)):
        cards = _random_play(rng, pool, rules)
        if cards:
            spaces[rng.choice(names)].append(Play(tuple(cards)))
    planted = list(hand)
    extra = pool.draw(rng.randint(*shape.extra_hand))
    if shape.temperatures:  # a deal about an idea: no stray joker in the hand (it fits everywhere, hiding the idea)
        pool.give_back([c for c in extra if c.is_joker])
        extra = [c for c in extra if not c.is_joker]
    hand += extra
    hot: tuple[Card, ...] = ()
    warm: tuple[Card, ...] = ()
    if shape.temperatures and hand:
        # Taken from the discard pile this turn: a hot card must be played (one the plants use), a warm one
        # may not be discarded (the costliest, so the obvious discard is not allowed).
        roll = rng.random()
        if roll < 0.2 and planted:
            hot = (rng.choice(sorted(planted, key=str)),)
        elif roll < 0.45:
            warm = (max(hand, key=lambda c: (penalty(c, rules), str(c))),)
    rng.shuffle(hand)
    players = []
    shows_hands = rules.first_out_bonus == FirstOutBonus.HANDS
    for k, name in enumerate(names):
        side = ("ns" if k % 2 == 0 else "ew") if seats == 4 else name
        plays = tuple(spaces[name])
        if name == mover:
            players.append(Player(name, side, shape.melded, tuple(hand), None, hot, warm, plays))
        else:
            melded = bool(plays) or rng.random() < 0.5
            held = tuple(pool.draw(rng.randint(3, 9)))
            if not held:  # a player without cards would have gone out: no such deal
                return None
            if shows_hands:  # what going out first earns is their penalty: a puzzle shows it
                players.append(Player(name, side, melded, held, None, (), (), plays))
            else:  # their hand: counted, not shown
                players.append(Player(name, side, melded, None, len(held), (), (), plays))
    pile = tuple(pool.draw(rng.randint(1, 4)))
    hand_number = hand_number or rng.randint(1, 6 if shape.melded else 4)
    position = Position(rules, tuple(players), mover, Phase.PLAY, hand_number, None, (), pile, len(pool))
    # The file a puzzle is stored in must read back: the same checks as any position file.
    return Position.from_data(position.to_data(), strict=True)


def _plant(rng: random.Random, pool: DeckPool, kind: str, spaces: dict[str, list[Play]], hand: list[Card],
           mover: str, opponents: list[str], names: tuple[str, ...], rules: Ruleset, melded: bool = True) -> bool:
    # Cheap tries: late in a deal most plants need a card already dealt.
    return any(_try_plant(rng, pool, kind, spaces, hand, mover, opponents, names, rules, melded) for _ in range(200))


def _try_plant(rng: random.Random, pool: DeckPool, kind: str, spaces: dict[str, list[Play]], hand: list[Card],
               mover: str, opponents: list[str], names: tuple[str, ...], rules: Ruleset, melded: bool = True) -> bool:
    suit = rng.choice(SUITS)

    def victim() -> str:
        return _victim(rng, spaces, opponents)

    def anyone() -> str:
        return rng.choice(names)

    if kind == "book-end":
        length = rng.choice((4, 4, 5))
        run = _run(rng.randint(1, 13), length, suit)
        end = run[0] if rng.random() < 0.5 else run[-1]
        mates = [Card(end.rank, s) for s in rng.sample([s for s in SUITS if s != suit], 2)]
        return _lay(pool, run + mates, run, victim, mates, spaces, hand)
    if kind == "book-four":
        rank = rng.randint(1, 13)
        book = [Card(rank, s) for s in SUITS]
        mates = _run(rank + 1, 2, suit) if rng.random() < 0.5 else _run(rank - 2, 2, suit)
        return _lay(pool, book + mates, book, victim, mates, spaces, hand)
    if kind == "joker":
        if JOKER not in pool:
            return False
        run = _run(rng.randint(1, 13), rng.choice((3, 4)), suit)
        spot = rng.randrange(len(run))
        laid = run[:spot] + [JOKER] + run[spot + 1:]
        return is_whole(tuple(laid), rules) and _lay(pool, run + [JOKER], laid, anyone, [run[spot]], spaces, hand)
    if kind == "joker-meld":
        if JOKER not in pool:
            return False
        run = _run(rng.randint(1, 13), 3, suit)
        spot = rng.randrange(len(run))
        laid = run[:spot] + [JOKER] + run[spot + 1:]
        other = rng.choice([s for s in SUITS if s != suit])
        if rng.random() < 0.5:
            mates = _run(rng.randint(1, 13), 2, other)
        else:
            rank = rng.randint(1, 13)
            mates = [Card(rank, s) for s in rng.sample(SUITS, 2)]
        return is_whole(tuple(laid), rules) and _lay(pool, run + mates + [JOKER], laid, anyone, [run[spot]] + mates,
                                                     spaces, hand)
    if kind == "meld":
        if rng.random() < 0.6:
            cards = _run(rng.randint(1, 13), rng.choice((3, 4)), suit)
        else:
            rank = rng.randint(1, 13)
            cards = [Card(rank, s) for s in rng.sample(SUITS, rng.choice((3, 4)))]
        if not pool.take(cards):
            return False
        hand.extend(cards)
        return True
    if kind == "own":
        run = _run(rng.randint(1, 13), rng.choice((3, 4)), suit)
        extra = _run(run[-1].rank + 1, 1, suit) if rng.random() < 0.5 else _run(run[0].rank - 1, 1, suit)
        return _lay(pool, run + extra, run, lambda: mover, extra, spaces, hand)
    if kind == "cut":
        length = rng.choice((7, 8))
        run = _run(_trap_rank(rng, length), length, suit)
        middle = run[rng.randint(3, length - 4)]  # both sides keep 3 cards or more
        mates = [Card(middle.rank, s) for s in rng.sample([s for s in SUITS if s != suit], 2)]
        return _lay(pool, run + mates, run, victim, mates, spaces, hand)
    if kind == "shift":
        rank, step = rng.randint(1, 13), rng.choice((1, -1))
        book = [Card(rank, s) for s in SUITS if s != suit]
        run = [Card(rank_at(rank + step * k), suit) for k in range(4)]  # its first card completes the book
        robbed = rng.choice(book)
        mates = [Card(rank_at(rank + step * k), robbed.suit) for k in (1, 2)]
        return _lay_all(pool, book + run + mates, [book, run], victim, mates, spaces, hand)
    if kind == "gift":
        # The opponent's run of three cannot spare its end card X, until the mover gives it the next card G
        # from a run of four of the mover's own (melded), or from a meld of four in the hand (not melded).
        rank = _trap_rank(rng)
        low = rng.random() < 0.5
        theirs = _run(rank, 3, suit)
        wanted = theirs[0] if low else theirs[-1]
        given = _run(rank + 3, 4, suit) if low else _run(rank - 4, 4, suit)  # the gift is its card next to theirs
        mates = [Card(wanted.rank, s) for s in rng.sample([s for s in SUITS if s != suit], 2)]
        if not pool.take(theirs + given + mates):
            return False
        spaces[victim()].append(Play(tuple(theirs)))
        if melded:
            spaces[mover].append(Play(tuple(given)))
        else:
            hand.extend(given)
        hand.extend(mates)
        return True
    if kind == "double-shift":
        # Two moves inside the robbed space free X: their card N leaves their book of three for the run, and
        # the book is made whole by N's fourth suit, the spare end of a run of four of theirs.
        theirs, book, spare_run, mates = _shift_trap(rng, suit)
        return _lay_all(pool, theirs + book + spare_run + mates, [theirs, book, spare_run], victim, mates, spaces,
                        hand)
    if kind == "gift-shift":
        # A gift one step further: X leaves the opponent's run of three only if their card N (in their book
        # of three) joins the run, and N leaves the book only if the mover gives it G, N's fourth suit.
        theirs, book, given, mates = _shift_trap(rng, suit)
        if not pool.take(theirs + book + given + mates):
            return False
        space = victim()
        spaces[space].extend((Play(tuple(theirs)), Play(tuple(book))))
        if melded:
            spaces[mover].append(Play(tuple(given)))
        else:
            hand.extend(given)
        hand.extend(mates)
        return True
    if kind == "relay":
        rank, step, away = rng.randint(1, 13), rng.choice((1, -1)), rng.choice((1, -1))
        theirs_suit, mine_suit, mate_suit = rng.sample(SUITS, 3)
        mine = [Card(rank_at(rank - step * k), mine_suit) for k in range(4)]  # ends at ``rank``
        theirs = [Card(rank_at(rank + away * k), theirs_suit) for k in range(4)]  # starts at ``rank``
        mate = [Card(rank, mate_suit)]
        if not pool.take(mine + theirs + mate):
            return False
        spaces[mover].append(Play(tuple(mine)))
        spaces[victim()].append(Play(tuple(theirs)))
        hand.extend(mate)
        return True
    raise ValueError(f"unknown plant {kind!r}")


def _trap_rank(rng: random.Random, length: int = 3) -> int:
    """A trap's first rank; a third of the time one whose run of ``length`` goes round the corner (K-A-2)."""
    if rng.random() < 1 / 3:
        return rng.randint(13 - length + 2, 13)
    return rng.randint(1, 13)



def _shift_trap(rng: random.Random, suit: str) -> tuple[list[Card], list[Card], list[Card], list[Card]]:
    """The cards of a shift trap (double-shift and gift-shift deal the same, in the same order of draws):
    the opponent's run of three holding X at an end, their book of three of the rank N that would continue
    the run, a run of four in N's fourth suit ending at N (a spare end), and the two hand cards of X's rank."""
    rank = _trap_rank(rng)
    low = rng.random() < 0.5
    theirs = _run(rank, 3, suit)
    wanted, nxt = (theirs[0], rank + 3) if low else (theirs[-1], rank - 1)
    suits = [x for x in SUITS if x != suit]
    rng.shuffle(suits)
    book = [Card(rank_at(nxt), suit)] + [Card(rank_at(nxt), x) for x in suits[:2]]
    fourth = _run(nxt, 4, suits[2]) if rng.random() < 0.5 else _run(nxt - 3, 4, suits[2])[::-1]
    mates = [Card(wanted.rank, x) for x in rng.sample(suits, 2)]
    return theirs, book, fourth, mates


def _lay(pool: DeckPool, taken: list[Card], laid: list[Card], owner: Callable[[], str], held: list[Card],
         spaces: dict[str, list[Play]], hand: list[Card]) -> bool:
    """Take a plant's cards from the pack, all or none; then ``laid`` goes into the space ``owner()``
    names and ``held`` into the hand. The owner is asked only once the cards are there: it may
    draw from the rng, and a plant that does not fit must leave the seed's later draws alone."""
    if not pool.take(taken):
        return False
    spaces[owner()].append(Play(tuple(laid)))
    hand.extend(held)
    return True


def _lay_all(pool: DeckPool, taken: list[Card], plays: list[list[Card]], owner: Callable[[], str],
             held: list[Card], spaces: dict[str, list[Play]], hand: list[Card]) -> bool:
    """``_lay`` for several plays that go into one space."""
    if not pool.take(taken):
        return False
    space = owner()
    spaces[space].extend(Play(tuple(cards)) for cards in plays)
    hand.extend(held)
    return True


def _victim(rng: random.Random, spaces: dict[str, list[Play]], opponents: list[str]) -> str:
    """The opponent with the fewest plays so far, so that steals spread over spaces."""
    fewest = min(len(spaces[name]) for name in opponents)
    return rng.choice([name for name in opponents if len(spaces[name]) == fewest])


def _random_play(rng: random.Random, pool: DeckPool, rules: Ruleset) -> list[Card] | None:
    for _ in range(30):
        if rng.random() < 0.5:
            cards = _run(rng.randint(1, 13), rng.choice((3, 3, 4)), rng.choice(SUITS))
        else:
            rank = rng.randint(1, 13)
            cards = [Card(rank, s) for s in rng.sample(SUITS, rng.choice((3, 3, 4)))]
        if is_whole(tuple(cards), rules) and pool.take(cards):
            return cards
    return None
