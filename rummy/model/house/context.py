"""The facts of one House Rummy turn that the model is built from.

Every physical card of the turn (table cards and the mover's hand) becomes a
``Slot`` with its origin: a player's space, or the hand. The two jokers are
separate slots, so a joker keeps its origin like any card (stealing a joker
is stealing). Everything here is plain data computed once per position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm

from ...cards import Card, rank_at
from ...errors import PositionError, RulesError
from ...family import HOUSE
from ...plays import PlayName, readings
from ...position import Position
from ...rules import Ruleset
from ...scoring import penalty
from ...vocabulary import Ace, Phase

HAND = None  # the origin of a hand card


@dataclass(frozen=True)
class Slot:
    """One physical card: where it was before the turn and how it may be used."""

    index: int
    card: Card
    origin: str | None  # a space (player name), or HAND
    play: str | None  # the play it lay in before the turn (``ann/2``)
    hot: bool = False
    warm: bool = False

    @property
    def is_joker(self) -> bool:
        return self.card.is_joker

    @property
    def from_hand(self) -> bool:
        return self.origin is HAND

    @property
    def cold(self) -> bool:
        return not (self.hot or self.warm)


@dataclass(frozen=True)
class TablePlay:
    """A play on the table before the turn."""

    name: str
    space: str
    slots: tuple[int, ...]
    score: int
    kind: str  # "run" or "book": how the model represents it
    # For runs: the position in the suit's row (house/runs) each slot stands at.
    positions: tuple[int, ...] = ()
    suit: str = ""
    # A run that cannot be read apart from another run of its suit in its
    # space (a joker standing for the other's natural); house/runs lays such
    # runs as one, so the play cannot stay exactly as it is.
    overlaps: bool = False
    choices: tuple[tuple[int, ...], ...] = ()  # every reading's positions


@dataclass(frozen=True)
class TurnContext:
    position: Position
    rules: Ruleset
    mover: str
    spaces: tuple[str, ...]
    sign: dict[str, int]  # +1 for the mover's side, -1 for every opposing space
    slots: tuple[Slot, ...]
    plays: tuple[TablePlay, ...]
    melded: bool
    meld_cost: int
    first_out_bonus: Fraction  # 0 when the turn cannot earn it
    hand_penalty_counts: bool  # Classic: the mover's unplayed cards count against them
    scale: int  # every gain term is multiplied by this to stay whole
    space_scores: dict[str, int]

    @property
    def hand(self) -> tuple[Slot, ...]:
        return tuple(s for s in self.slots if s.from_hand)

    @property
    def table(self) -> tuple[Slot, ...]:
        return tuple(s for s in self.slots if not s.from_hand)

    def pen(self, slot: Slot) -> int:
        return penalty(slot.card, self.rules)


def build_context(position: Position) -> TurnContext:
    rules = position.rules
    HOUSE.require(rules, "the House Rummy model")
    if rules.copies != 1 or not rules.book_distinct_suits or rules.jokers > 2:
        raise RulesError("the House Rummy model needs one copy of each card, books of distinct suits "
                         "and at most 2 jokers")
    if position.phase != Phase.PLAY:
        raise PositionError("phase", f"{position.phase!r}: the best turn is searched in the play phase")
    mover = position.mover
    assert mover.hand is not None
    slots: list[Slot] = []
    plays: list[TablePlay] = []
    for name, play in position.named_plays().items():
        space = PlayName(name).owner
        indices = []
        for card in play.cards:
            indices.append(len(slots))
            slots.append(Slot(len(slots), card.plain(), space, name))
        plays.append(_table_play(name, space, tuple(indices), tuple(c.plain() for c in play.cards), rules))
    plays = _apart(plays, rules)
    hot_jokers = sum(c.is_joker for c in mover.hot)
    warm_jokers = sum(c.is_joker for c in mover.warm)
    hot_naturals = {c.plain() for c in mover.hot if not c.is_joker}
    warm_naturals = {c.plain() for c in mover.warm if not c.is_joker}
    for card in sorted(mover.hand, key=lambda c: (c.is_joker, c)):
        card = card.plain()
        if card.is_joker:
            hot, warm = hot_jokers > 0, hot_jokers <= 0 < warm_jokers
            hot_jokers -= hot
            warm_jokers -= warm
        else:
            hot, warm = card in hot_naturals, card in warm_naturals
        slots.append(Slot(len(slots), card, HAND, None, hot, warm))
    spaces = tuple(p.name for p in position.players)
    sign = {p.name: 1 if p.side == mover.side else -1 for p in position.players}
    bonus = _first_out_bonus(position)
    space_scores = {p.name: sum(HOUSE.play_score(tuple(c.plain() for c in q.cards), rules) for q in p.plays)
                    for p in position.players}
    return TurnContext(
        position=position, rules=rules, mover=mover.name, spaces=spaces, sign=sign, slots=tuple(slots),
        plays=tuple(plays), melded=mover.melded, meld_cost=rules.meld_threshold(position.hand_number),
        first_out_bonus=bonus, hand_penalty_counts=rules.hand_penalty_at_end,
        scale=lcm(1, bonus.denominator), space_scores=space_scores,
    )


def row_position(position: int, rules: Ruleset) -> int:
    """Where a reading's run position lies in a suit's row (circular runs count on past 13)."""
    return rank_at(position) if rules.ace == Ace.CIRCULAR else position


def _table_play(name: str, space: str, indices: tuple[int, ...], cards: tuple[Card, ...], rules: Ruleset) -> TablePlay:
    found = readings(cards, rules)
    if not found:
        raise PositionError(name, "a play on the table is not whole")
    score = HOUSE.play_score(cards, rules)
    natural_ranks = {c.rank for c in cards if not c.is_joker}
    runs = [r for r in found if r.kind == "run"]
    # A play of one natural and jokers is kept as a run: books of the model
    # have two naturals or more (house/books).
    if runs and (len(natural_ranks) > 1 or sum(not c.is_joker for c in cards) == 1):
        suit = next(c.suit for c in cards if not c.is_joker)
        choices = tuple(dict.fromkeys(tuple(row_position(p, rules) for p in r.positions) for r in runs))
        return TablePlay(name, space, indices, score, "run", choices[0], suit, choices=choices)
    return TablePlay(name, space, indices, score, "book")


def _apart(plays: list[TablePlay], rules: Ruleset) -> list[TablePlay]:
    """Read the runs of each space and suit so that no two share a position."""
    groups: dict[tuple[str, str], list[int]] = {}
    for k, play in enumerate(plays):
        if play.kind == "run":
            groups.setdefault((play.space, play.suit), []).append(k)
    result = list(plays)
    for members in groups.values():
        if len(members) < 2:
            continue
        options = [list(plays[k].choices) for k in members]
        chosen = _disjoint(options, 0, set())
        if chosen is None:
            for k in members:
                result[k] = replace(plays[k], overlaps=True)
        else:
            for k, positions in zip(members, chosen):
                result[k] = replace(plays[k], positions=positions)
    return result


def _disjoint(options: list[list[tuple[int, ...]]], k: int, used: set[int]) -> list[tuple[int, ...]] | None:
    if k == len(options):
        return []
    for positions in options[k]:
        if used.isdisjoint(positions):
            rest = _disjoint(options, k + 1, used | set(positions))
            if rest is not None:
                return [positions] + rest
    return None


def _first_out_bonus(position: Position) -> Fraction:
    """What going out this turn adds (rules.md §5); 0 if someone already went out."""
    return Fraction(0) if position.first_out is not None else HOUSE.first_out_bonus(position)
