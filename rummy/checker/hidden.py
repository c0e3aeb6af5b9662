"""A hidden mover's turn (``hand_count``, no ``hand``: an opponent's turn entered as it was seen) judged on counts.

Nobody can check that the player held the cards they played, so the checker
judges the turn through a *witness*: the same two positions with a known hand
that holds the cards seen known (hot, warm), the cards the turn put on the
table or the pile (each one unseen before, copies counted: else it "appeared
from nowhere"), and neutral fillers up to ``hand_count``. Everything about the
table is then judged as for a known hand, by the same judges. Conservation on
counts: the hand after the turn holds ``hand_count`` minus the cards played
plus the cards taken back (a freed joker). The gain counts the cards that
moved (a hand's penalty is the sum of its cards', so its change is known); the
fillers are the same on both sides and cancel.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from ..cards import Card
from ..errors import PositionError
from ..position import Position
from .facts import plain_counter
from .verdict import Breach


@dataclass(frozen=True)
class HiddenWitness:
    """The two positions with a known hand standing in for the hidden one, and the count breaches."""

    before: Position
    after: Position
    breaches: tuple[Breach, ...]
    note: str


def _fillers(position: Position, count: int, avoid: Counter[Card], pool: Counter[Card]) -> list[Card]:
    """``count`` cards that change no judgement: no joker, no copy of a card seen in the hand (a hot
    card must stay the last copy held), taken from the unseen ones while they last."""
    usable = [c for c in position.rules.deck_cards if not c.is_joker and not avoid[c.plain()]]
    fillers: list[Card] = []
    left = Counter(pool)
    for card in usable:  # unseen cards first, then any card (the counts are no concern of the witness)
        if len(fillers) == count:
            break
        if left[card.plain()]:
            left[card.plain()] -= 1
            fillers.append(card.plain())
    index = 0
    while len(fillers) < count and usable:
        fillers.append(usable[index % len(usable)].plain())
        index += 1
    return fillers


def hidden_witness(before: Position, after: Position) -> HiddenWitness:
    """The witness of a play-phase turn whose mover's hand is hidden (rules.md "A hidden mover")."""
    name = before.to_move
    mover, mover_after = before.mover, after.player(name)
    if mover_after.hand is not None:
        raise PositionError(f"after: players.{name}",
                            f"{name}'s hand was hidden before the turn: give hand_count after it, not hand")
    deck = before.rules.deck
    was = plain_counter(before.table_cards()) + plain_counter(before.discard_pile)
    now = plain_counter(after.table_cards()) + plain_counter(after.discard_pile)
    turn = after.turn
    if after.discard_pile == before.discard_pile and turn is not None and turn.discard is not None:
        now[turn.discard.plain()] += 1  # a discard declared, the pile left as it was
    from_hand, to_hand = now - was, was - now
    known = plain_counter(mover.hot + mover.warm)
    unseen = before.unseen_cards()  # hot and warm cards of hidden hands are not unseen
    from_unseen = from_hand - known
    breaches: list[Breach] = []
    in_sight = from_unseen - unseen
    if in_sight:
        shown = " ".join(c.notation(deck) for c in sorted(in_sight.elements()))
        breaches.append(Breach("conservation",
                               f"{shown} appeared from nowhere: {name}'s hand is hidden and every copy of it is in "
                               "sight before the turn", tuple(c.notation(deck) for c in sorted(in_sight.elements()))))
    count = mover.hand_size
    played = from_hand.total()
    if played > count:
        breaches.append(Breach("conservation",
                               f"{played} cards came from {name}'s hand, which holds {count} (hand_count)"))
    hand_known = list((known | from_hand).elements())
    fillers = _fillers(before, max(0, count - len(hand_known)), known | from_hand, unseen - from_unseen)
    hand_before = tuple(hand_known + fillers)
    hand_after = tuple((plain_counter(hand_before) - from_hand + to_hand).elements())
    expected = count - played + to_hand.total()
    if mover_after.hand_size != expected:
        breaches.append(Breach("conservation",
                               f"{name}'s hand_count after the turn is {mover_after.hand_size}; the turn leaves "
                               f"{count} - {played} played + {to_hand.total()} taken = {expected}"))
    witness_before = before.replace_player(replace(mover, hand=hand_before, hand_count=None))
    witness_after = after.replace_player(replace(mover_after, hand=hand_after, hand_count=None))
    note = (f"{name}'s hand is hidden: the cards played are checked against the unseen cards, the hand on counts "
            f"({count} before, {expected} after)")
    return HiddenWitness(witness_before, witness_after, tuple(breaches), note)
