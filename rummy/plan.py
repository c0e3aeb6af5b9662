"""Move plans: the steps a player makes to go from the table before to the table after.

Final plays are matched to the plays they grew from (a maximum-weight
assignment on shared cards), so a play that keeps most of its cards
keeps its name and only the cards that change place become steps. Steps come
in the order a player makes them: joker replacements (House before melding;
in fixed-joker tile rummy each joker the turn frees with a tile from the
hand, which then goes on from the hand), the meld, then cards into each
final play (hand cards, moved table cards, steals with their payment), the
discard last. A real table has no numbers on its plays: each play of the
table before the turn carries its cards on the step that first names it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .assignment import max_weight_assignment
from .cards import JOKER, Card, Deck, cards_notation, rank_name
from .checker.facts import tiles_played
from .checker.tile import freed_jokers
from .plays import Play, PlayName, is_whole, readings, settled_stand_ins
from .position import Position, Replacement
from .vocabulary import Action, Rearrange

if TYPE_CHECKING:
    from .rules import Ruleset

HAND = "hand"


@dataclass(frozen=True)
class Step:
    action: Action
    cards: tuple[Card, ...]
    source: str | None = None  # play name, or "hand"
    target: str | None = None  # play name (existing, or new/K)
    space: str | None = None  # where a new play lies (spaces and personal tables)
    paid_by: tuple[Card, ...] | None = None  # House steals: the hand cards that pay
    # A joker in the step: what the jokers of the play it goes to stand for there (a
    # replacement: what the jokers of the play stood for before the turn).
    stands_for: tuple[Card, ...] | None = None
    pays_for: tuple[Card, ...] | None = None  # House: the stolen cards these hand cards pay for
    why: str | None = None  # what a step is for, where the step alone does not say it
    # A joker moved or stolen: what it stood for in the play it left, before the turn: one card
    # where every reading of that play agrees, else each card a reading gives it (9D or QD).
    stood_for: tuple[Card, ...] | None = None
    # A joker whose card the play it goes to leaves open but whose rank it settles (a book: 2H 2C *):
    # that rank, as written ("2", "K"; tiles: "4").
    stands_as_rank: str | None = None
    # The plays of the table before the turn that this step is the first of its plan to name, each
    # with its cards as they lie then (a player at a real table finds a play by its cards).
    named: tuple[tuple[str, tuple[Card, ...]], ...] = ()

    def play_cards(self, name: str | None) -> tuple[Card, ...] | None:
        """The cards of play ``name`` where this step is the first to name it, else None."""
        return next((cards for named, cards in self.named if named == name), None)

    def to_data(self, deck: Deck) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action}
        notes = [c.notation(deck) for c in self.cards]
        if self.action in (Action.MOVE, Action.STEAL, Action.DISCARD, Action.REPLACE_JOKER) and len(notes) == 1:
            data["card"] = notes[0]
        else:
            data["cards"] = notes
        if self.source is not None and self.action != Action.DISCARD:
            data["from"] = self.source
        if self.target is not None:
            data["to"] = self.target
        if self.space is not None:
            data["space"] = self.space
        if self.paid_by is not None:
            data["paid_by"] = [c.notation(deck) for c in self.paid_by]
        if self.stands_for:
            data["stands_for"] = [c.notation(deck) for c in self.stands_for]
        if self.pays_for:
            data["pays_for"] = [c.notation(deck) for c in self.pays_for]
        if self.why:
            data["why"] = self.why
        if self.stood_for:
            data["stood_for"] = [c.notation(deck) for c in self.stood_for]
        if self.stands_as_rank:
            data["stands_as_rank"] = self.stands_as_rank
        if self.named:
            data["play_cards"] = {name: [c.notation(deck) for c in cards] for name, cards in self.named}
        return data

    def names_plays(self) -> tuple[str, ...]:
        """The plays the step names, in the order its words name them (a Robber steal names the play
        it takes; its ``to``, the play's name after the turn, is no play of the table before it)."""
        robber_steal = self.action == Action.STEAL and self.paid_by is None
        names: tuple[str | None, ...]
        if self.action in (Action.MOVE, Action.STEAL):
            names = (self.source,) if robber_steal else (self.source, self.target)
        elif self.action in (Action.REPLACE_JOKER, Action.PLAY, Action.LAY_OFF):
            names = (self.target,)
        else:
            names = ()
        return tuple(name for name in names if name is not None and name != HAND)


@dataclass(frozen=True)
class Plan:
    steps: tuple[Step, ...]
    plays_disturbed: int
    cards_moved: int
    names: dict[str, str] = field(default_factory=dict)  # after play name -> name in the plan

    def to_data(self, deck: Deck) -> list[dict[str, Any]]:
        return [step.to_data(deck) for step in self.steps]


@dataclass
class _Source:
    name: str  # play name, new/K for meld plays, or "hand"
    space: str | None
    cards: Counter[Card]


def make_plan(before: Position, after: Position) -> Plan:
    """The steps from ``before`` to ``after`` (whose ``turn`` holds the declarations)."""
    rules = before.rules
    shared = rules.family.shared_table
    turn = after.turn
    mover = before.to_move
    steps: list[Step] = []

    extend_only = rules.rearrange == Rearrange.EXTEND_ONLY
    # Robber plays change owner when stolen: match them across owners.
    any_owner = shared or rules.family.plays_change_owner
    sources: list[_Source] = [
        _Source(name, None if any_owner else PlayName(name).owner,
                Counter(c.plain() for c in before.play_with_layoffs(name)))
        for name in before.named_plays()
    ]
    hand = Counter(c.plain() for c in before.mover.hand or ())
    by_name = {s.name: s for s in sources}
    freed = _freed_from_hand(before, after)
    for replacement in ((turn.replaced if turn else None) or freed):
        source = by_name.get(replacement.play)
        if source is None or not source.cards[JOKER]:
            continue
        source.cards[JOKER] -= 1
        source.cards[replacement.card] += 1
        hand[replacement.card] -= 1
        hand[JOKER] += 1
        # What the joker stood for in the play before the turn (the card put in usually).
        stood = settled_stand_ins(before.play_with_layoffs(replacement.play), rules)
        steps.append(Step(Action.REPLACE_JOKER, (replacement.card,), HAND, replacement.play, stands_for=stood,
                          why=_FREED_WHY[rules.freed_joker_new_play_only] if freed else None))

    new_index = 0  # counted on below: a play of the final table that no source matches is new too
    for play in (turn.meld or ()) if turn else ():
        new_index += 1  # noqa: SIM113 - new_index outlives the loop
        name = f"new/{new_index}"
        cards = Counter(c.plain() for c in play.cards)
        hand -= cards
        sources.append(_Source(name, None if any_owner else mover, cards))
        if not extend_only:
            steps.append(Step(Action.MELD, tuple(play.cards), HAND, name, None if shared else mover,
                              stands_for=settled_stand_ins(play.cards, rules)))

    discards = _discards(before, after)
    left_in_hand = Counter(c.plain() for c in after.player(mover).hand or ())
    played_from_hand = hand - left_in_hand - Counter(c.plain() for c in discards)

    targets = [(name, Play(after.play_with_layoffs(name))) for name in after.named_plays()]
    if extend_only:
        # Meld plays of extend-only games are simply new plays of hand cards.
        sources = [s for s in sources if not s.name.startswith("new/")]
        new_index = 0
    matched = _match(sources, targets, any_owner, rules.family.plays_change_owner)
    names: dict[str, str] = {}
    pools: dict[str, Counter[Card]] = {s.name: Counter(s.cards) for s in sources}
    needs: dict[str, Counter[Card]] = {}
    for index, (after_name, play) in enumerate(targets):
        wanted = Counter(c.plain() for c in play.cards)
        source = matched.get(index)
        if source is not None:
            kept = wanted & pools[source.name]
            pools[source.name] -= kept
            wanted -= kept
            names[after_name] = source.name
        else:
            new_index += 1
            names[after_name] = f"new/{new_index}"
        needs[after_name] = wanted

    if extend_only:
        return _extend_plan(before, after, targets, matched, names, needs, steps, discards)
    space_of = {s.name: s.space for s in sources}
    hand_pool = Counter(played_from_hand)
    disturbed = {s.name for s in sources if not s.name.startswith("new/") and pools[s.name]}
    # A joker a tile frees leaves its play for another, as a moved table card would (the figures that
    # grade a tile puzzle's shape count it so, as they did when the plan moved the joker).
    freed_from = [step.target for step in steps if step.action == Action.REPLACE_JOKER and freed]
    disturbed.update(name for name in freed_from if name is not None)
    moved = len(freed_from)
    for after_name, play in targets:
        target = names[after_name]
        target_space = None if shared else PlayName(after_name).owner
        new_space = target_space if target.startswith("new/") and not shared else None
        from_hand: list[Card] = []
        arrivals: list[tuple[Card, str]] = []
        for card, count in sorted(needs[after_name].items()):
            for _ in range(count):
                origin = _take(card, pools, space_of, target_space, hand_pool)
                if origin == HAND:
                    from_hand.append(card)
                else:
                    arrivals.append((card, origin))
        stolen = [
            (card, origin) for card, origin in arrivals
            if not shared and space_of[origin] not in (mover, target_space)
        ]
        jokers_as = settled_stand_ins(play.cards, rules)
        # Each steal is paid by one hand card played into the same play, in order.
        payers = iter(from_hand)
        paid_by: dict[int, tuple[Card, ...]] = {}
        for k, arrival in enumerate(arrivals):
            if arrival in stolen:
                payer = next(payers, None)
                paid_by[k] = (payer,) if payer is not None else ()
        pays_for = tuple(arrivals[k][0] for k, paid in paid_by.items() if paid)
        rank_as = _rank_as(play.cards, rules)
        if from_hand:
            steps.append(Step(Action.PLAY, tuple(from_hand), HAND, target, new_space,
                              stands_for=jokers_as if JOKER in from_hand else None, pays_for=pays_for or None,
                              stands_as_rank=rank_as if JOKER in from_hand else None))
            new_space = None
        for k, (card, origin) in enumerate(arrivals):
            moved += 1
            joker = jokers_as if card == JOKER else None
            stood = _stood_for(before, origin) if card == JOKER else None
            rank = rank_as if card == JOKER else None
            if k in paid_by:
                steps.append(Step(Action.STEAL, (card,), origin, target, new_space, paid_by[k], joker,
                                  stood_for=stood, stands_as_rank=rank))
            else:
                steps.append(Step(Action.MOVE, (card,), origin, target, new_space, stands_for=joker,
                                  stood_for=stood, stands_as_rank=rank))
            new_space = None
    for card in discards:
        steps.append(Step(Action.DISCARD, (card,), HAND))
    return Plan(_named_first(_why_moves(steps, space_of, before), before), len(disturbed), moved, names)


# What a tile that frees a joker leaves to do: the joker is the mover's to play, this turn (rules.md §6).
_FREED_WHY = {False: "the joker is now free and must be played this turn",
              True: "the joker is now free and must be played this turn, in a new play of tiles from your hand"}


def _freed_from_hand(before: Position, after: Position) -> tuple[Replacement, ...]:
    """Fixed-joker tile rummy: each table joker the turn frees with a tile played from the hand, as the
    checker reads the turn, as a replacement (the tile goes in the joker's place, the joker to the hand,
    from where it is played). A joker freed by a tile already on the table stays a moved joker."""
    played = tiles_played(before, after)
    found = []
    for play, tile in freed_jokers(before, after):
        if played[tile] > 0:
            played[tile] -= 1
            found.append(Replacement(play, tile))
    return tuple(found)


def _named_first(steps: Iterable[Step], before: Position) -> tuple[Step, ...]:
    """The steps, each play of the table before the turn named with its cards on the first step that names it."""
    plays = before.named_plays()
    seen: set[str] = set()
    result = []
    for step in steps:
        first = [name for name in dict.fromkeys(step.names_plays()) if name in plays and name not in seen]
        seen.update(first)
        named = tuple((str(name), Play(before.play_with_layoffs(name)).ordered(before.rules)) for name in first)
        result.append(replace(step, named=named) if named else step)
    return tuple(result)


def in_plan_order(after: Position, plan: Plan) -> Position:
    """``after`` with every list of plays in the plan's order: plays as before the turn in their
    order, then new plays in new/K order. Where a play keeps its place, the after-position's own
    name (what ``rummy show`` prints) is then the plan's, and the table after a turn reads in
    ``show``'s order. Lay-offs follow the plays they are attached to."""
    seat = {p.name: k for k, p in enumerate(after.players)}

    def place(after_name: str) -> tuple[int, int, int]:
        """The list's own plays first (a Robber list also holds stolen ones), then others', then new ones."""
        shown = PlayName(plan.names.get(after_name, after_name))
        if shown.owner == "new":
            return 2, 0, shown.number
        return int(shown.owner != PlayName(after_name).owner), seat.get(shown.owner, len(seat)), shown.number

    renamed: dict[str, str] = {}

    def reordered(owner: str, plays: tuple[Play, ...]) -> tuple[Play, ...]:
        names = [str(PlayName.of(owner, i)) for i in range(1, len(plays) + 1)]
        order = sorted(range(len(plays)), key=lambda i: place(names[i]))
        for new_index, old_index in enumerate(order, 1):
            renamed[names[old_index]] = str(PlayName.of(owner, new_index))
        return tuple(plays[i] for i in order)

    if after.rules.family.shared_table:
        result = replace(after, table=reordered("table", after.table))
    else:
        result = replace(after, players=tuple(replace(p, plays=reordered(p.name, p.plays)) for p in after.players))
    if all(old == new for old, new in renamed.items()):
        return after
    players = tuple(replace(p, layoffs=tuple(replace(a, target=renamed.get(a.target, a.target)) for a in p.layoffs))
                    for p in result.players)
    return replace(result, players=players)


def _stood_for(before: Position, origin: str) -> tuple[Card, ...] | None:
    """What a joker taken out of ``origin`` stood for there before the turn, as the play's readings
    have it: one card where they agree, else every card they leave it (``* 10D JD``: 9D or QD).
    None where the play has more than one joker and they do not all stand for one card."""
    if origin not in before.named_plays():
        return None
    cards = before.play_with_layoffs(origin)
    found = {reading.joker_stand_ins() for reading in readings(cards, before.rules)}
    if sum(c.is_joker for c in cards) == 1:
        return tuple(sorted({stand_ins[0] for stand_ins in found}, key=lambda c: (c.rank, c.suit))) or None
    stood = settled_stand_ins(cards, before.rules)
    return stood[:1] if stood and len(set(stood)) == 1 else None


def _rank_as(cards: tuple[Card, ...], rules: Ruleset) -> str | None:
    """The rank a play's one joker takes in every reading, where its card is left open (a book:
    ``2H 2C *`` reads the joker as a 2 of either missing suit)."""
    if sum(c.is_joker for c in cards) != 1 or settled_stand_ins(cards, rules) is not None:
        return None
    ranks = {reading.joker_stand_ins()[0].rank for reading in readings(cards, rules)}
    if len(ranks) != 1:
        return None
    rank = ranks.pop()
    return str(rank) if rules.deck == "tiles" else rank_name(rank)


def _why_moves(steps: list[Step], space_of: dict[str, str | None], before: Position) -> list[Step]:
    """Say why cards go into a play of another player's space that lost cards to a steal (rules.md
    §4-5: every play ends whole, and a robbed space loses at most 10 points a stolen card).

    A step that puts cards into a robbed play, which the steal (and the cards moved out of it) left
    neither empty nor whole: "keeps cat/1 whole after the steal of *". A card moved between plays of
    a robbed space, or into a new play laid there: "keeps bob's plays whole after the steal of 10H".
    A step that pays for a steal says so already."""
    mover = before.to_move
    deck = before.rules.deck
    stolen: dict[str, list[Card]] = {}  # robbed play -> the cards stolen from it
    left: dict[str, Counter[Card]] = {}  # robbed play -> its cards before the turn, less every card that left it
    plays = before.named_plays()
    for step in steps:
        if step.action == Action.STEAL and step.paid_by is not None and step.source in plays:
            stolen.setdefault(step.source, []).extend(step.cards)
    for name in stolen:
        left[name] = Counter(c.plain() for c in before.play_with_layoffs(name))
    for step in steps:
        if step.action in (Action.STEAL, Action.MOVE) and step.source in left:
            left[step.source] -= Counter(c.plain() for c in step.cards)
    by_space: dict[str, list[Card]] = {}
    for name, cards in stolen.items():
        space = space_of.get(name)
        if space is not None:
            by_space.setdefault(space, []).extend(cards)
    result = []
    laid: dict[str, str] = {}  # new plays laid in a space: the first step into one names its space
    for step in steps:
        if step.space is not None and step.target is not None and step.target not in laid:
            laid[step.target] = step.space
        space = laid.get(step.target or "") or _space_of_target(step, space_of)
        if step.action in (Action.PLAY, Action.MOVE) and not step.pays_for and space is not None \
                and space != mover and space in by_space and step.target is not None:
            target = step.target
            remainder = tuple(left.get(target, Counter()).elements())
            if target in stolen and remainder and not is_whole(remainder, before.rules):
                step = replace(step,
                               why=f"keeps {target} whole after the steal of {cards_notation(stolen[target], deck)}")
            elif target.startswith("new/") or (
                    step.action == Action.MOVE and space_of.get(step.source or "") == space):
                taken = by_space[space]
                steals = (f"the steal of {cards_notation(taken, deck)}" if len(taken) <= 3
                          else f"{len(taken)} steals from them")
                step = replace(step, why=f"keeps {space}'s plays whole after {steals}")
        result.append(step)
    return result


def _space_of_target(step: Step, space_of: dict[str, str | None]) -> str | None:
    if step.target is None:
        return None
    return space_of.get(step.target) if step.target in space_of else PlayName(step.target).owner


def _extend_plan(before: Position, after: Position, targets: Sequence[tuple[str, Play]], matched: dict[int, _Source],
                 names: dict[str, str], needs: dict[str, Counter[Card]], steps: list[Step],
                 discards: list[Card]) -> Plan:
    """Plays only grow: each final play is a new play, a lay-off, or (Robber) a steal."""
    mover = before.to_move
    steals = before.rules.family.plays_change_owner
    grown = 0
    for index, (after_name, _) in enumerate(targets):
        added = tuple(sorted(needs[after_name].elements()))
        if not added:
            continue
        source = matched.get(index)
        if source is None:
            steps.append(Step(Action.PLAY, added, HAND, names[after_name], None if steals else mover))
            continue
        grown += 1
        if steals and PlayName(source.name).owner != mover:
            steps.append(Step(Action.STEAL, added, source.name, after_name))
        else:
            steps.append(Step(Action.LAY_OFF, added, HAND, source.name))
    order = {Action.PLAY: 0, Action.LAY_OFF: 1, Action.STEAL: 1}
    steps.sort(key=lambda step: order.get(step.action, 2))
    for card in discards:
        steps.append(Step(Action.DISCARD, (card,), HAND))
    return Plan(_named_first(steps, before), grown, 0, names)


def _discards(before: Position, after: Position) -> list[Card]:
    if after.turn is not None and after.turn.discard_declared:
        return [after.turn.discard] if after.turn.discard is not None else []
    return list(after.discard_pile[len(before.discard_pile):])


def _match(sources: list[_Source], targets: Sequence[tuple[str, Play]], shared: bool,
           stolen_grow: bool = False) -> dict[int, _Source]:
    """Final play index -> the play it grew from (most shared cards, same space). With
    ``stolen_grow`` (Robber: a play changes owner only by growing), a play of another owner
    that would reach its final play without a card added is the last choice."""
    weights: list[list[float]] = []
    for name, play in targets:
        wanted = Counter(c.plain() for c in play.cards)
        space = None if shared else PlayName(name).owner
        row: list[float] = []
        for j, source in enumerate(sources):
            overlap: float = sum((wanted & source.cards).values()) if source.space == space else 0
            if overlap and stolen_grow and wanted == source.cards \
                    and PlayName(source.name).owner != PlayName(name).owner:
                overlap -= 0.5  # stolen, yet nothing added: impossible, unless no other reading is left
            # Ties go to the older play so names stay stable.
            row.append(overlap * 1000 - j if overlap else 0)
        weights.append(row)
    return {i: sources[j] for i, j in max_weight_assignment(weights)} if sources else {}


def _take(card: Card, pools: dict[str, Counter[Card]], space_of: dict[str, str | None], target_space: str | None,
          hand_pool: Counter[Card]) -> str:
    """Where a card arriving in a play comes from: a play of the same space, another play, or the hand."""
    candidates = [name for name, pool in pools.items() if pool[card] > 0]
    candidates.sort(key=lambda name: (space_of[name] != target_space, name))
    if candidates:
        pools[candidates[0]][card] -= 1
        return candidates[0]
    hand_pool[card] -= 1
    return HAND


Marks = dict[str, dict[Card, list[str]]]  # play name -> plain card -> what the plan does to each copy


def _put(marks: Marks, play: str, cards: Iterable[Card], mark: str) -> None:
    for card in cards:
        marks[play].setdefault(card.plain(), []).append(mark)


def plan_marks(plan: Plan, after: Position) -> Marks:
    """What the plan did to the cards of each after-table play (by its name in ``after``):
    per plain card, the marks of the steps that brought it there, in step order."""
    to_after = {plan_name: after_name for after_name, plan_name in plan.names.items()}
    plays = after.named_plays()
    marks: Marks = {name: {} for name in plays}
    for step in plan.steps:
        if step.target is None:
            continue
        robber_steal = step.action == Action.STEAL and step.paid_by is None
        target = step.target if robber_steal else to_after.get(step.target, step.target)
        if target not in marks:
            continue
        if step.action == Action.MOVE:
            _put(marks, target, step.cards, "moved")
        elif step.action == Action.STEAL:
            _put(marks, target, step.cards, "played" if robber_steal else "stolen")
            if robber_steal:  # the play changed hands: every card it had before is stolen
                whole = Counter(c.plain() for c in after.play_with_layoffs(target))
                _put(marks, target, (whole - Counter(c.plain() for c in step.cards)).elements(), "stolen")
        elif step.action == Action.REPLACE_JOKER:
            _put(marks, target, step.cards, "joker")
        elif step.action in (Action.PLAY, Action.MELD, Action.LAY_OFF):
            _put(marks, target, step.cards, "played")
    return marks


def plan_departures(plan: Plan, before: Position) -> Marks:
    """The cards that leave their play in the plan, by the play's name in ``before`` (where the
    plan starts): per plain card, how each copy leaves, as ``plan_marks`` names what happens to it:
    moved, stolen (by a House steal), or a joker replaced. A play a Robber steal takes loses no
    card (only its owner changes); cards moved out of a play melded in the same turn left no
    before-play."""
    plays = before.named_plays()
    departures: Marks = {name: {} for name in plays}
    for step in plan.steps:
        source = step.source
        if step.action == Action.REPLACE_JOKER and step.target in departures:
            _put(departures, step.target, (JOKER,), "joker")
        elif source is None or source not in departures:
            continue
        elif step.action == Action.MOVE:
            _put(departures, source, step.cards, "moved")
        elif step.action == Action.STEAL and step.paid_by is None:
            continue  # Robber: the play changes owner, its cards stay in it
        elif step.action == Action.STEAL:
            _put(departures, source, step.cards, "stolen")
    return departures
