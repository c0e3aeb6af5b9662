"""Robber Rummy's theme detectors (docs/themes.md, "Robber Rummy")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..cards import Card
from ..plays import readings
from ..vocabulary import Action, PuzzleKind
from .turn import TurnView, going_out, took_pile


def _steals(view: TurnView) -> list[tuple[str, tuple[Card, ...]]]:
    """The plays of other players the turn grows (takes), with the hand cards added to each."""
    return [(str(step.source), step.cards) for step in view.steps(Action.STEAL)
            if step.paid_by is None and step.source in view.before_plays]


def steal_chain(view: TurnView) -> bool:
    """Two of the turn's steals compete: a card added in one of them would, alone, also take the
    other's play (the turn has to share the cards out so that both steals stand)."""
    steals = _steals(view)
    for name, cards in steals:
        for other, _ in steals:
            if other != name and any(view.fits(view.before_plays[other], card) for card in cards):
                return True
    return False


def buried_card(view: TurnView) -> bool:
    """A card that lay under the discard pile's top, taken with the pile, is added to a play: the pile's
    worth is more than its top card."""
    buried = set(view.buried)
    return view.took_pile and any(card.plain() in buried for card, _ in view.played)


def pile_junk(view: TurnView) -> bool:
    """A card that lay under the discard pile's top, taken with the pile, is still in the hand after the
    turn: the pile was worth taking with cards that cost."""
    left = Counter(view.hand_after)
    return view.took_pile and any(left[card.plain()] > 0 for card in set(view.buried))


def pile_discard(view: TurnView) -> bool:
    """The turn's discard is a card that lay under the discard pile's top, taken with the pile: what the
    pile brought and cannot play leaves again at no cost."""
    buried = set(view.buried)
    return view.took_pile and any(card.plain() in buried for card in view.discards)


def worth(cards: tuple[Card, ...], card: Card, view: TurnView) -> int:
    """What ``card`` is worth in the play ``cards`` (its best reading): a run counts double, an ace
    15 when high or in a book, 5 when low."""
    best = 0
    for reading in readings(cards, view.rules):
        for natural, stand_in, position in zip(reading.cards, reading.stand_ins, reading.positions):
            if natural.plain() != card.plain():
                continue
            high = reading.kind == "book" or position == 14
            points = 15 if stand_in.rank == 1 and high else 5 if stand_in.rank == 1 else \
                10 if stand_in.rank >= 10 else 5
            best = max(best, points * (2 if reading.kind == "run" else 1))
    return best


def sacrifice(view: TurnView) -> bool:
    """A hand card is laid where it is worth fewer points than in another play of the table before
    that it fits on its own (an ace laid low, a card in a book that a run would count double)."""
    for card, target in view.played:
        final = view.final_plays.get(target) or _after_play(view, target)
        if not final:
            continue
        here = worth(final, card, view)
        for name, cards in view.before_plays.items():
            if name != target and view.fits(cards, card) and worth(cards + (card,), card, view) > here:
                return True
    return False


def _after_play(view: TurnView, name: str) -> tuple[Card, ...]:
    """A Robber play after the turn by the name of the play it grew from."""
    for after_name, source in view.plan.names.items():
        if source == name:
            return view.after.play_with_layoffs(after_name)
    return ()



def keep_a_card(view: TurnView) -> bool:
    """A card left in the hand (the discard aside) fits a play of the table before the turn on its own."""
    return any(view.fits(cards, card) for card in set(view.hand_after) for cards in view.before_plays.values())


def partner_play(view: TurnView) -> bool:
    """The turn adds cards to a partner's play."""
    partners = view.partners
    return bool(partners) and any(view.space_of_before(target) in partners for _, target in view.played
                                  if target in view.before_plays)


DETECTORS: dict[str, Callable[[TurnView], bool]] = {
    "steal-chain": steal_chain,
    "sacrifice": sacrifice,
    "going-out": going_out,
    "keep-a-card": keep_a_card,
    "partner-play": partner_play,
    "take-the-pile": took_pile,
    "buried-card": buried_card,
    "pile-junk": pile_junk,
    "pile-discard": pile_discard,
}

# Whether to take the pile is a draw-or-pile puzzle's question: naming it would answer it.
TASK_THEMES: dict[str, frozenset[str]] = {PuzzleKind.DRAW_OR_PILE: frozenset({"take-the-pile"})}
