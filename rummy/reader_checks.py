"""The checks of a position once read: what no single key shows, each refusal naming its place.

rummy.reader reads a position's keys one by one; its ``Reader`` is a ``ReadChecks``, and these
checks see the whole ``Position`` it made: lay-offs naming plays, plays whole, card counts within the
deck, hot and warm cards in the hand, a mover whose hand is known (``hidden_mover_error``), the
family's number of players. They are linear in the size of the position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from .cards import Card, cards_notation
from .errors import PlayNotWhole, PositionError, quote
from .plays import Play, PlayName, jokers_undecided, readings
from .position import Position
from .vocabulary import JokerMode
from .words import unit


def hidden_mover_error(position: Position, source: str) -> PositionError:
    """The one refusal of a hidden mover (``hand_count``) where a known hand is needed: best, hint, draw
    advice, generate, the web solve. It says how to enter that player's turn instead."""
    name = position.to_move
    return PositionError(f"{source}: players.{name}",
                         f"{name}'s hand is hidden (hand_count): best answers for a known hand; enter {name}'s "
                         f"turn with 'rummy play {source} STEPS'")


def known_mover_hand(position: Position, source: str = "<position>") -> tuple[Card, ...]:
    """The mover's hand, or the hidden-mover refusal (a position read with ``mover_may_be_hidden``)."""
    hand = position.mover.hand
    if hand is None:
        raise hidden_mover_error(position, source)
    return hand


class ReadChecks:
    """The place of a refusal in one file (``fail``), and the checks of the position read from it."""

    def __init__(self, source: str, strict: bool = True, mover_may_be_hidden: bool = False) -> None:
        self.source = source
        self.strict = strict
        self.mover_may_be_hidden = mover_may_be_hidden

    def fail(self, place: str, problem: str) -> PositionError:
        return PositionError(*self.where(place, problem))

    def where(self, place: str, problem: str) -> tuple[str, str]:
        """A PositionError's arguments: the place in this file, and the problem."""
        return (f"{self.source}: {place}" if place else self.source), problem

    def check_consistency(self, position: Position) -> None:
        """Linear in the size of the position: every lookup goes through one index."""
        rules = position.rules
        named = position.named_plays()
        attached: dict[str, list[Card]] = {}
        for p in position.players:
            for a in p.layoffs:
                if a.target not in named:
                    raise self.fail(f"players.{p.name}.layoffs", f"{quote(a.target)} names no play")
                attached.setdefault(a.target, []).extend(a.cards)
        if self.strict:
            self.check_plays_whole(position, named, attached)
            self.check_counts(position)
        for p in position.players:
            place = f"players.{p.name}"
            if p.hand is None:
                # A hidden hand may hold cards seen taken (a hidden mover's draw): at most hand_count of them.
                if len(p.hot) + len(p.warm) > (p.hand_count or 0):
                    raise self.fail(place, f"{len(p.hot) + len(p.warm)} hot and warm cards, but hand_count is "
                                           f"{p.hand_count}")
                continue
            missing = Counter(c.plain() for c in p.hot + p.warm) - Counter(c.plain() for c in p.hand or ())
            if missing:
                card = next(iter(missing))
                key = "hot" if card in p.hot else "warm"
                raise self.fail(f"{place}.{key}", f"{card.notation(rules.deck)} is not in the hand")
        if position.mover.hand is None and not self.mover_may_be_hidden:
            raise hidden_mover_error(position, self.source)
        family = rules.family
        if len(position.players) < family.min_players:
            raise self.fail("players", f"{rules.name} needs at least {family.min_players} players")
        if family.max_players is not None and len(position.players) > family.max_players:
            raise self.fail("players",
                            f"{family.long_name} is for {family.min_players} to {family.max_players} players")

    def check_plays_whole(self, position: Position, named: Mapping[PlayName, Play],
                          attached: dict[str, list[Card]]) -> None:
        rules = position.rules
        for name, play in named.items():
            place = self.play_place(position, name)
            cards = play.cards + tuple(attached.get(name, ()))
            found = readings(cards, rules)
            if not found:
                raise PlayNotWhole(*self.where(
                    place, f"{quote(cards_notation(cards, rules.deck))} is not a whole play under {rules.name}"))
            if len(cards) != len(play.cards) and not readings(play.cards, rules):
                raise PlayNotWhole(*self.where(
                    place, f"{quote(play.notation(deck=rules.deck))} is not a whole play without its lay-offs"))
            if rules.joker_mode == JokerMode.FIXED and jokers_undecided(found):
                raise PlayNotWhole(*self.where(
                    place,
                    f"the joker in {quote(cards_notation(cards, rules.deck))} could stand for more than one card; "
                    f"say which, e.g. *={found[0].joker_stand_ins()[0].notation(rules.deck)}",
                ))

    def play_place(self, position: Position, name: str) -> str:
        owner, index = name.rsplit("/", 1)
        if position.table_bag is not None:
            return "table"
        if position.rules.family.shared_table:
            return f"table[{index}]"
        return f"players.{owner}.{position.rules.family.plays_key}[{index}]"

    def check_counts(self, position: Position) -> None:
        rules = position.rules
        counts = Counter(c.plain() for c in position.known_cards())
        for card, n in sorted(counts.items()):
            allowed = rules.jokers if card.is_joker else rules.copies
            if n > allowed:
                what = "jokers" if card.is_joker else f"copies of {card.notation(rules.deck)}"
                raise self.fail(
                    self.first_place_of(position, card),
                    f"{n} {what} in the position, but the {rules.name} deck holds {allowed}",
                )
        total = sum(counts.values()) + sum(p.hand_count or 0 for p in position.players)
        if position.upcard is not None:
            total -= 1  # a stock count may count the face-up card or not (docs/draw.md)
        deck = len(rules.deck_cards)
        if isinstance(position.stock, int) and total <= deck < total + position.stock:
            # the count alone does not fit: say what would, and that it may be left out
            raise self.fail("piles.stock",
                            f"a stock of {position.stock} does not fit: the {rules.name} deck holds {deck} "
                            f"{unit(rules)} and the rest of the position {total}, so the stock holds at most "
                            f"{deck - total} (or leave 'stock' out)")
        if isinstance(position.stock, int):
            total += position.stock
        if total > deck:
            raise self.fail("", f"{total} cards in the position, but the {rules.name} deck holds {deck}")

    def first_place_of(self, position: Position, card: Card) -> str:
        for name, play in position.named_plays().items():
            if card in play.cards:
                return self.play_place(position, name)
        for p in position.players:
            if any(card in attached.cards for attached in p.layoffs):
                return f"players.{p.name}.layoffs"
        for p in position.players:
            if card in (p.hand or ()):
                return f"players.{p.name}.hand"
        if card in position.discard_pile:
            return "piles.discard"
        if card == position.upcard:
            return "piles.upcard"
        return "piles.stock"
