"""What the theme detectors read of a turn: its plan, where each card went, the plays before and after.

Built once per candidate from ``before`` and ``after`` (``rummy.plan.make_plan``), with no
solver call: the detectors run on every candidate the generator judges.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from ..cards import Card
from ..plan import Plan, Step, make_plan
from ..plays import PlayName, is_whole, readings
from ..position import Position
from ..rules import Ruleset
from ..vocabulary import Action, DrawSource, Phase


@dataclass(frozen=True)
class Arrival:
    """A table card that changed play in the turn: from a play of the table before to a play after."""

    card: Card
    source: str  # the play before the turn
    target: str  # the play after the turn, by its plan name (new/K for a new play)
    stolen: bool  # a House steal (paid by a hand card)


@dataclass(frozen=True)
class TurnView:
    before: Position  # where the turn's play starts (after its draw, for a turn judged from the draw)
    after: Position
    kind: str | None = None
    took_pile: bool = False  # the turn began by taking from the discard pile (a draw-phase puzzle)
    drawn: tuple[Card, ...] = ()  # the cards its draw brought to the hand (a draw-phase puzzle)
    buried: tuple[Card, ...] = ()  # of those, the ones that lay under the discard pile's top card
    plan: Plan = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "plan", make_plan(self.before, self.after))

    @property
    def rules(self) -> Ruleset:
        return self.before.rules

    @property
    def mover(self) -> str:
        return self.before.to_move

    def steps(self, *actions: Action) -> list[Step]:
        return [step for step in self.plan.steps if step.action in actions]

    @cached_property
    def before_plays(self) -> dict[str, tuple[Card, ...]]:
        """Every play of the table before the turn (with its lay-offs), by name."""
        return {str(name): self.before.play_with_layoffs(name) for name in self.before.named_plays()}

    @cached_property
    def final_plays(self) -> dict[str, tuple[Card, ...]]:
        """Every play of the table after the turn, by its name in the plan (a play that grew from one
        of the table before keeps that play's name; a new one is new/K)."""
        return {self.plan.names.get(str(name), str(name)): self.after.play_with_layoffs(name)
                for name in self.after.named_plays()}

    @cached_property
    def final_space(self) -> dict[str, str]:
        """The space (owner) each play of the table after lies in, by its plan name."""
        return {self.plan.names.get(str(name), str(name)): PlayName(name).owner for name in self.after.named_plays()}

    @cached_property
    def arrivals(self) -> list[Arrival]:
        """Table cards moved or stolen from a play of the table before into another play."""
        found = []
        for step in self.steps(Action.MOVE, Action.STEAL):
            robber_steal = step.action == Action.STEAL and step.paid_by is None  # takes a play, moves no card
            if step.source in self.before_plays and step.target is not None and not robber_steal:
                found += [Arrival(card, str(step.source), str(step.target), step.action == Action.STEAL)
                          for card in step.cards]
        return found

    @cached_property
    def hand_before(self) -> tuple[Card, ...]:
        return tuple(c.plain() for c in self.before.mover.hand or ())

    @cached_property
    def hand_after(self) -> tuple[Card, ...]:
        return tuple(c.plain() for c in self.after.player(self.mover).hand or ())

    @cached_property
    def discards(self) -> tuple[Card, ...]:
        return tuple(card for step in self.steps(Action.DISCARD) for card in step.cards)

    @cached_property
    def played(self) -> list[tuple[Card, str]]:
        """Hand cards played this turn, each with the play (plan name) it went to."""
        return [(card, str(step.target)) for step in self.steps(Action.PLAY, Action.MELD, Action.LAY_OFF)
                if step.target is not None for card in step.cards] + \
               [(card, str(step.source)) for step in self.steps(Action.STEAL)
                if step.paid_by is None and step.source is not None for card in step.cards]

    @property
    def went_out(self) -> bool:
        return bool(self.hand_before) and not self.hand_after

    @cached_property
    def partners(self) -> frozenset[str]:
        """The mover's partners: the other players of the mover's side."""
        side = self.side(self.mover)
        return frozenset(p.name for p in self.before.players if p.side == side and p.name != self.mover)

    def shape(self, cards: tuple[Card, ...]) -> str | None:
        """``run`` or ``book``: how every reading of the play reads it; None if no reading or both."""
        kinds = {reading.kind for reading in readings(cards, self.rules)}
        return kinds.pop() if len(kinds) == 1 else None

    def fits(self, cards: tuple[Card, ...], card: Card) -> bool:
        """Whether ``card`` added alone to the play ``cards`` leaves it whole."""
        return is_whole(cards + (card,), self.rules)

    def space_of_before(self, name: str) -> str:
        return PlayName(name).owner

    def side(self, player: str) -> str:
        return self.before.side_of(player)


def play_start(before: Position, after: Position) -> tuple[Position, bool]:
    """Where the turn's play starts, and whether its draw took from the discard pile: ``before``
    itself in the play phase; for a turn judged from the draw phase, the position its draw led to
    (Robber: the draw read back from ``after``; else the draw ``after``'s [turn] declares)."""
    if before.phase != Phase.DRAW:
        return before, False
    if before.rules.family.answers_draw_phase:
        from ..checker.robber import apply_draw

        start, reading, _ = apply_draw(before, after)
        return start, reading.get("draw") == DrawSource.PILE
    taken = after.turn.draw if after.turn is not None else None
    if taken is None:
        return before, False
    from ..checker.draw_apply import apply_draw_taken

    reached = apply_draw_taken(before, taken, after).start
    return (reached, taken.source == DrawSource.DISCARD) if reached is not None else (before, False)


def turn_view(before: Position, after: Position, kind: str | None = None) -> TurnView:
    """The turn ``before -> after`` as the detectors read it (from where its play starts)."""
    start, pile = play_start(before, after)
    drawn = Counter(c.plain() for c in start.mover.hand or ()) - Counter(c.plain() for c in before.mover.hand or ())
    buried: Counter[Card] = Counter()
    if pile and before.discard_pile:
        buried = drawn - Counter([before.discard_pile[-1].plain()])
    return TurnView(start, after, kind, pile, tuple(sorted(drawn.elements())), tuple(sorted(buried.elements())))


def going_out(view: TurnView) -> bool:
    """The turn empties the mover's hand (every family's ``going-out``)."""
    return view.went_out


def took_pile(view: TurnView) -> bool:
    """The turn began by taking from the discard pile (a puzzle set before the draw)."""
    return view.took_pile
