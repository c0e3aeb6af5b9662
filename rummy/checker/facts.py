"""What every turn is judged on, whatever the game: the two positions, the
discard read from them, and the invariants of rules.md §4 that need no
reading (conservation, whole plays, opponents' hands, the piles)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..cards import Card, Deck, cards_notation
from ..errors import PositionError
from ..plays import readings
from ..position import Position
from ..rules import Ruleset
from ..vocabulary import Phase
from .verdict import Breach

# The pile after the turn does not start with the pile before it (a draw-phase turn may explain
# why: checker/draw_apply).
PILE_CHANGED = "the discard pile changed below its top: only the discard may be added to it"


@dataclass
class TurnFacts:
    before: Position
    after: Position
    discards: list[Card]
    discard_note: str
    breaches: list[Breach] = field(default_factory=list)

    @property
    def rules(self) -> Ruleset:
        return self.before.rules

    @property
    def deck(self) -> Deck:
        return self.before.rules.deck

    @property
    def mover(self) -> str:
        return self.before.to_move

    def show(self, cards: Iterable[Card]) -> str:
        return cards_notation(cards, self.deck)

    def hand_before(self) -> tuple[Card, ...]:
        return self.before.mover.hand or ()

    def hand_after(self) -> tuple[Card, ...]:
        return self.after.player(self.mover).hand or ()


def plain_counter(cards: Iterable[Card]) -> Counter[Card]:
    return Counter(card.plain() for card in cards)


def tiles_played(before: Position, after: Position) -> Counter[Card]:
    """The tiles a shared-table turn added to the table (plain), whatever play each went into."""
    after_table = plain_counter(c for p in after.table for c in p.cards)
    return after_table - plain_counter(c for p in before.table for c in p.cards)


def check_same_game(before: Position, after: Position) -> None:
    """A pair that is not one game's turn is bad input, not an illegal turn."""
    if before.phase != Phase.PLAY:
        raise PositionError("before: phase", f"{before.phase!r}: 'check' judges the play phase (phase = \"play\")")
    if before.rules != after.rules:
        raise PositionError("after", f"plays under {after.rules!r}, the position before under {before.rules!r}")
    if [p.name for p in before.players] != [p.name for p in after.players]:
        raise PositionError("after", "names other players (or another seating) than the position before")
    if after.to_move != before.to_move:
        raise PositionError("after.to_move", f"is {after.to_move!r}; it must still name the mover {before.to_move!r}")
    if after.player(after.to_move).hand is None:
        raise PositionError(f"after: players.{after.to_move}", "the mover's hand after the turn must be given")


def gather_facts(before: Position, after: Position) -> TurnFacts:
    check_same_game(before, after)
    facts = TurnFacts(before, after, [], "")
    _read_discard(facts)
    _check_conservation(facts)
    _check_opponents(facts)
    _check_whole(facts)
    return facts


def _read_discard(facts: TurnFacts) -> None:
    """Which cards went to the pile: the declaration, else the pile's new top.

    Lenient reading: when the after position's pile was not updated and no
    discard is declared, a single card missing from the hand is read as the
    discard (the pile is often left as it was in hand-written positions).
    """
    before_pile, after_pile = facts.before.discard_pile, facts.after.discard_pile
    turn = facts.after.turn
    if tuple(after_pile[: len(before_pile)]) != tuple(before_pile):
        facts.breaches.append(Breach("conservation", PILE_CHANGED, tuple(c.notation(facts.deck) for c in after_pile)))
        new_cards: list[Card] = []
    else:
        new_cards = list(after_pile[len(before_pile):])
    if turn is not None and turn.discard_declared:
        declared = [turn.discard] if turn.discard is not None else []
        if new_cards and plain_counter(new_cards) != plain_counter(declared):
            facts.breaches.append(
                Breach("conservation",
                       f"the pile shows {facts.show(new_cards)} added but the turn declares "
                       f"{facts.show(declared) or 'no discard'}",
                       tuple(c.notation(facts.deck) for c in new_cards + declared))
            )
            facts.discards, facts.discard_note = new_cards, "pile"
        else:
            facts.discards, facts.discard_note = declared, "declared"
        return
    if new_cards:
        facts.discards, facts.discard_note = new_cards, "pile"
        return
    missing = _missing_cards(facts.before, facts.after, [])
    appeared = _appeared_cards(facts.before, facts.after, [])
    hand = plain_counter(facts.hand_before())
    if len(missing) == 1 and not appeared and hand[missing[0]] > 0 and facts.rules.discard:
        facts.discards, facts.discard_note = missing, "inferred from the hand"
    else:
        facts.discards, facts.discard_note = [], "none"


def _all_cards(position: Position, mover: str) -> Counter[Card]:
    return plain_counter(position.table_cards()) + plain_counter(position.player(mover).hand or ())


def _missing_cards(before: Position, after: Position, discards: list[Card]) -> list[Card]:
    gone = _all_cards(before, before.to_move) - _all_cards(after, before.to_move) - plain_counter(discards)
    return sorted(gone.elements())


def _appeared_cards(before: Position, after: Position, discards: list[Card]) -> list[Card]:
    new = _all_cards(after, before.to_move) + plain_counter(discards) - _all_cards(before, before.to_move)
    return sorted(new.elements())


def _check_conservation(facts: TurnFacts) -> None:
    missing = _missing_cards(facts.before, facts.after, facts.discards)
    appeared = _appeared_cards(facts.before, facts.after, facts.discards)
    if missing:
        facts.breaches.append(
            Breach("conservation", f"{facts.show(missing)} vanished: neither on the table, in the hand nor discarded",
                   tuple(c.notation(facts.deck) for c in missing))
        )
    if appeared:
        facts.breaches.append(
            Breach("conservation",
                   f"{facts.show(appeared)} appeared from nowhere: not on the table or in the hand before",
                   tuple(c.notation(facts.deck) for c in appeared))
        )
    if facts.before.stock != facts.after.stock:
        facts.breaches.append(Breach("conservation", "the stock changed: nothing is drawn in the play phase"))


def _check_opponents(facts: TurnFacts) -> None:
    for before_player in facts.before.players:
        if before_player.name == facts.mover:
            continue
        after_player = facts.after.player(before_player.name)
        if before_player.hand is not None and after_player.hand is not None:
            changed = plain_counter(after_player.hand) != plain_counter(before_player.hand)
        else:
            changed = after_player.hand_size != before_player.hand_size
        if changed:
            facts.breaches.append(
                Breach("opponent-hand-changed",
                       f"{before_player.name}'s hand changed; only the mover's hand may change",
                       plays=(before_player.name,))
            )


def _check_whole(facts: TurnFacts) -> None:
    for name in facts.after.named_plays():
        cards = facts.after.play_with_layoffs(name)
        if not readings(cards, facts.rules):
            facts.breaches.append(
                Breach("not-whole", f"{name} ({facts.show(cards)}) is not a whole play under {facts.rules.name}",
                       tuple(c.notation(facts.deck) for c in cards), (name,))
            )
