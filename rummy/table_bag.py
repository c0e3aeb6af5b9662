"""A shared table given as a bag: tiles without their plays, which rummy lays out itself.

``table = "R1 R2 R3 B5 B6 B7 *"`` (one string) is a bag; ``table = ["R1 R2
R3", ...]`` (a list) gives the plays (docs/formats.md "A tile table as a
bag"). The reader checks the bag's tiles like any others, then asks
``arranged_table`` for whole plays holding every one of them.

This is core: the arrangement is a search, the family's model's
(``Family.arranger``, named as text and imported on first use, as the
solver is), so reading a position that gives its plays never loads
OR-Tools. Before any search, a tile that no play could hold with the other
tiles of the bag (no run through it, no book of its number) is named at
once.

Bounded: a bag holds at most a deck (the reader's counts), and the search
at most ``ARRANGE_SECONDS``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .cards import SUITS, Card, cards_notation
from .errors import RummyError
from .plays import Play
from .rules import Ruleset
from .vocabulary import JokerMode

# The arrangement's search stops here: far above what a deck of tiles needs (tens of milliseconds).
ARRANGE_SECONDS = 10.0


@dataclass(frozen=True)
class Arrangement:
    """A bag laid out: the plays, the tiles no play holds (none: every tile is laid), and whether
    the search proved that no arrangement leaves out fewer."""

    plays: tuple[Play, ...]
    left_out: tuple[Card, ...]
    proven: bool


class BagNotArranged(RummyError):
    """The bag cannot be laid out in whole plays (the message names the tiles left out)."""


def bag_problem(bag: tuple[Card, ...], rules: Ruleset) -> str | None:
    """Why the reader refuses this bag before any search (None: none). Under fixed jokers each joker
    must say what it stands for, since which play it is in matters there."""
    if not rules.family.shared_table or rules.family.arranger is None:
        return f"{rules.name} has no shared table to arrange"
    # The arrangement's model lets no play be jokers alone only because a deck's jokers are too few for one
    # (rummy.model.tile.table.check_supported); an after-position, read without the deck's counts, may hold more.
    jokers = sum(1 for card in bag if card.is_joker)
    if jokers > rules.jokers:
        return (f"{jokers} joker{'s' if jokers > 1 else ''} in the bag, but the {rules.name} deck holds "
                f"{rules.jokers}: a bag is arranged only within the deck's jokers")
    if rules.joker_mode == JokerMode.FIXED:
        bare = sum(1 for card in bag if card.is_joker and card.stands_for is None)
        if bare:
            example = next((c for c in bag if not c.is_joker), Card(7, "H")).notation(rules.deck)
            return (f"{bare} joker{'s' if bare > 1 else ''} without a stand-in: under {rules.name} jokers are "
                    f"fixed, so a bag gives each joker's card (e.g. *={example}), or give the table as plays")
    return None


def arranged_table(bag: tuple[Card, ...], rules: Ruleset, seconds: float = ARRANGE_SECONDS) -> tuple[Play, ...]:
    """Whole plays holding every tile of the bag; ``BagNotArranged`` naming the tiles that fit nowhere."""
    if not bag:
        return ()
    deck = rules.deck
    stray = stray_tiles(bag, rules)
    if stray:
        raise BagNotArranged(f"{cards_notation(stray, deck)} fit{'s' if len(stray) == 1 else ''} in no play "
                             f"with the other tiles of the bag: the table cannot be arranged")
    arrangement = rules.family.arrange_function()(bag, rules, seconds)
    if not arrangement.left_out:
        return arrangement.plays
    laid = len(bag) - len(arrangement.left_out)
    if not arrangement.proven:
        raise BagNotArranged(f"no arrangement of all {len(bag)} tiles was found within {seconds:g} s "
                             f"(the best found leaves out {cards_notation(arrangement.left_out, deck)}); "
                             f"give the table as plays")
    raise BagNotArranged(f"the {len(bag)} tiles cannot all be laid in whole plays: at most {laid} can, "
                         f"leaving out {cards_notation(arrangement.left_out, deck)}")


def stray_tiles(bag: tuple[Card, ...], rules: Ruleset) -> tuple[Card, ...]:
    """Natural tiles (and pinned jokers, as their card) that no run and no book of the bag's tiles could
    hold: no window of ``run_min`` numbers of their colour with few enough gaps for the free jokers,
    nor ``book_min`` colours of their number. Linear in the bag (13 numbers x 4 colours)."""
    faces = Counter((card.stands_for or card) for card in bag if not card.is_joker or card.stands_for is not None)
    jokers = sum(1 for card in bag if card.is_joker and card.stands_for is None)
    stray = []
    for card in bag:
        face = card.stands_for or card
        if face.is_joker:
            continue
        colours = sum(1 for suit in SUITS if faces[Card(face.rank, suit)])
        in_book = colours + jokers >= rules.book_min
        in_run = any(
            sum(1 for rank in range(low, low + rules.run_min) if not faces[Card(rank, face.suit)]) <= jokers
            for low in range(max(1, face.rank - rules.run_min + 1), min(face.rank, 14 - rules.run_min) + 1)
        )
        if not in_book and not in_run:
            stray.append(card)
    return tuple(stray)
