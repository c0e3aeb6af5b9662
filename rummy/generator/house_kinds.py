"""House Rummy puzzles, "find the best turn", Classic and Epic (``house_deal`` deals them).

Four kinds, each kept only when the best turn (unique, so every other turn
is worse) does what the kind is about:

- ``steal``: a melded mover; the answer steals (a card leaves another
  player's space, paid for);
- ``replace-meld``: a mover who has not melded; the answer replaces a joker
  on the table and melds;
- ``meld-steal``: a mover who has not melded; the answer melds, then steals;
- ``across``: a melded mover; the answer moves table cards out of two
  spaces or more (the mover's own space counts: giving its cards away to
  make a steal possible is such a move).

The tier asked for sets how many plants a deal gets; the tier a puzzle gets
is measured from its plan. A final table is the same answer as another when
every space holds the same plays as sets of cards (``Position.table_key``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import combinations
from typing import NotRequired, TypedDict, Unpack

from ..answer import Answer
from ..cards import Card
from ..checker import check, turn_gain
from ..family import HOUSE_FIRST_OUT_BONUS
from ..plan import Plan
from ..plays import Play, PlayName, is_whole, readings
from ..position import Position
from ..rules import Ruleset
from ..vocabulary import Action, FirstOutBonus, PuzzleKind, Tier
from .house_deal import HouseShape, deal_house
from .kinds import FamilySupport, Kind, register_family, register_kind

# Plants a deal gets, per tier asked for (None: any of them).
PLANTS = {Tier.EASY: (1, 1), Tier.MEDIUM: (2, 2), Tier.HARD: (3, 4), Tier.EXPERT: (5, 6)}
NEAR_POINTS = 5  # one card's worth: turns this close to the best are "near"


# Asked for hard or expert, a deal gets traps (house_deal: steals the greedy steal-one player cannot make,
# rearranging the robbed space or the mover's play) and fewer plants: hard one trap, expert three (one trade
# more than the hard player makes in a turn).
TRAPS = {Tier.HARD: 1, Tier.EXPERT: 3}
TRAPPED_PLANTS = {Tier.HARD: (1, 2), Tier.EXPERT: (0, 1)}


class _KindShape(TypedDict):
    """What a kind sets of its ``HouseShape`` (the rest follows from the tier)."""

    plants: tuple[str, ...]
    melded: bool
    players: NotRequired[tuple[int, ...]]
    first_plant: NotRequired[str]


def _shape(rng: random.Random, tier: Tier | None, first_counts: bool = False,
           traps: tuple[str, ...] | None = None, **kind: Unpack[_KindShape]) -> HouseShape:
    """The deal for a tier; ``first_counts``: the kind's first plant is one of the tier's plants;
    ``traps``: the traps a hard or expert deal may get (by default every one the mover can use: a mover
    who has not melded has no play of their own to take apart, no relay)."""
    if tier in TRAPS:
        if traps is None:
            traps = ("cut", "shift", "relay") if kind["melded"] else ("cut", "shift")
        # One joker at most (a replace-meld's): a second one on the table is stolen every which way.
        kind["plants"] = tuple(k for k in kind["plants"] if k != "joker")
        return HouseShape(plant_count=TRAPPED_PLANTS[tier], filler_plays=(1, 2), extra_hand=(1, 2),
                          traps=traps, trap_count=TRAPS[tier], **kind)
    tier = tier if tier in PLANTS else rng.choice(sorted(PLANTS))
    low, high = PLANTS[tier]
    if first_counts:
        low, high = low - 1, high - 1
    return HouseShape(plant_count=(low, high), filler_plays=(1, 3), extra_hand=(1, 3), **kind)


def make_steal(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    shape = _shape(rng, tier, plants=("book-end", "book-four", "book-end", "own"), melded=True)
    return deal_house(rng, rules, shape)


def make_replace_meld(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    # The joker is the puzzle (and the slowest part to solve): it takes a plant's place.
    # Its hard and expert deals get cut traps only: a shift's book of three, beside the meld and the released
    # joker, is mostly stolen whole (three cards, each paid), which no rung below expert plans.
    shape = _shape(rng, tier, True, ("cut",), plants=("book-end", "book-four", "joker", "meld"), melded=False,
                   first_plant="joker-meld")
    return deal_house(rng, rules, shape)


def make_meld_steal(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    shape = _shape(rng, tier, plants=("book-end", "book-four", "book-end"), melded=False, first_plant="meld")
    return deal_house(rng, rules, shape)


def make_across(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    shape = _shape(rng, tier, plants=("book-end", "book-four", "own", "own"), melded=True, players=(3, 3, 4))
    return deal_house(rng, rules, shape)


# ------------------------------------------------------------------ what an answer does
def _spaces_of(position: Position) -> dict[Card, str]:
    return {c.plain(): p.name for p in position.players for play in p.plays for c in play.cards if not c.is_joker}


def spaces_left(before: Position, after: Position) -> Counter[str]:
    """For every space, how many of its table cards end in another space (jokers counted by number)."""
    start, end = _spaces_of(before), _spaces_of(after)
    left: Counter[str] = Counter(space for card, space in start.items() if end.get(card) != space)
    for player in before.players:
        jokers_before = sum(c.is_joker for play in player.plays for c in play.cards)
        jokers_after = sum(c.is_joker for play in after.player(player.name).plays for c in play.cards)
        replacements = (after.turn.replaced or ()) if after.turn else ()
        replaced = sum(PlayName(r.play).owner == player.name for r in replacements)
        left[player.name] += max(0, jokers_before - replaced - jokers_after)
    return +left


def stolen(before: Position, after: Position) -> int:
    """Table cards that left another player's space (rules.md §5: each must be paid)."""
    return sum(n for space, n in spaces_left(before, after).items() if space != before.to_move)


def accept_steal(position: Position, answer: Answer) -> str | None:
    after = answer.solution.after
    return None if after is not None and stolen(position, after) else "no steal in the answer"


def accept_replace_meld(position: Position, answer: Answer) -> str | None:
    after = answer.solution.after
    turn = after.turn if after is not None else None
    if not turn or not turn.meld:
        return "no meld in the answer"
    return None if turn.replaced else "no joker replaced in the answer"


def accept_meld_steal(position: Position, answer: Answer) -> str | None:
    after = answer.solution.after
    turn = after.turn if after is not None else None
    if after is None or not turn or not turn.meld:
        return "no meld in the answer"
    return None if stolen(position, after) else "no steal in the answer"


def accept_across(position: Position, answer: Answer) -> str | None:
    after = answer.solution.after
    left = spaces_left(position, after) if after is not None else Counter()
    return None if len(left) >= 2 else "cards leave fewer than 2 spaces"


def rule_corner(before: Position, plan: Plan) -> str | None:
    """Why the answer wins by a rule corner a player easily misses: a card put into another
    player's space, from the hand or from the table (rearranging a robbed space, giving cards away)."""
    mover = before.to_move
    for step in plan.steps:
        if step.action not in (Action.PLAY, Action.MOVE, Action.MELD) or step.target is None:
            continue
        owner = step.space if step.target.startswith("new/") else PlayName(step.target).owner
        if owner is not None and owner != mover:
            return "answer puts cards in another's space"
    return None


# ------------------------------------------------------------------ family support
def ambiguity(before: Position, after: Position) -> str | None:
    """The one rival the model cannot see: two runs of a suit in a space overlapping through a joker.

    house_runs lays such a pair (a joker standing for a card the other run
    holds) as one longer run. Wherever a space's runs of one suit hold a
    joker, the cards of those runs are laid out every such way (two
    overlapping runs, the other cards in whole runs beside them) and each
    layout is judged by the checker; a legal one as good as the answer is a
    rival. Past ``MOST_RUN_CARDS`` cards the layouts are not searched: "not
    unique".
    """
    gain = turn_gain(before, after)
    for player in after.players:
        runs_by_suit: dict[str, list[Play]] = {}
        for play in player.plays:
            suit = _run_suit(play)
            if suit is not None:
                runs_by_suit.setdefault(suit, []).append(play)
        for runs in runs_by_suit.values():
            cards = [c for play in runs for c in play.cards]
            if not any(c.is_joker for c in cards) or len(cards) < 6:
                continue
            if len(cards) > MOST_RUN_CARDS:
                return "too many cards of one suit in runs with a joker to search their layouts"
            others = [p for p in player.plays if p not in runs]
            for layout in _overlapping_layouts(cards, after.rules):
                rival = after.replace_player(replace(player, plays=tuple(others + layout)))
                if check(before, rival).legal and turn_gain(before, rival) >= gain:
                    return "two runs of one suit could overlap through a joker"
    return None


MOST_RUN_CARDS = 12


def _run_suit(play: Play) -> str | None:
    """The suit of a run (one natural and jokers counts, as in the model), else None."""
    naturals = [c for c in play.cards if not c.is_joker]
    if len({c.suit for c in naturals}) == 1 and len({c.rank for c in naturals}) == len(naturals):
        return naturals[0].suit
    return None


def _overlapping_layouts(cards: list[Card], rules: Ruleset) -> Iterator[list[Play]]:
    """Every way to lay exactly ``cards`` as whole runs, two of them overlapping through a joker."""
    indices = tuple(range(len(cards)))
    for first in _runs_among(cards, indices, rules, with_joker=True):
        rest = tuple(i for i in indices if i not in first)
        stand_ins = {s for reading in readings(tuple(cards[i] for i in first), rules) if reading.kind == "run"
                     for s in reading.joker_stand_ins()}
        for second in _runs_among(cards, rest, rules):
            if not any(cards[i] in stand_ins for i in second if not cards[i].is_joker):
                continue
            left = tuple(i for i in rest if i not in second)
            for cut in _cuts(cards, left, rules):
                yield [Play(tuple(cards[i] for i in part)) for part in (first, second, *cut)]


def _runs_among(cards: list[Card], indices: tuple[int, ...], rules: Ruleset,
                with_joker: bool = False) -> Iterator[tuple[int, ...]]:
    for size in range(3, len(indices) + 1):
        for chosen in combinations(indices, size):
            picked = tuple(cards[i] for i in chosen)
            if (not with_joker or any(c.is_joker for c in picked)) and is_whole(picked, rules):
                yield chosen


def _cuts(cards: list[Card], indices: tuple[int, ...], rules: Ruleset) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every way to cut ``indices`` into whole runs (each cut once: the first index leads)."""
    if not indices:
        yield ()
        return
    head, tail = indices[0], indices[1:]
    for size in range(2, len(tail) + 1):
        for chosen in combinations(tail, size):
            part = (head,) + chosen
            if is_whole(tuple(cards[i] for i in part), rules):
                left = tuple(i for i in tail if i not in chosen)
                for cut in _cuts(cards, left, rules):
                    yield (part,) + cut


def house_task(qualifier: str) -> Callable[[Ruleset], str]:
    """The task of a House kind: what its gain counts (rules.md §5 "What best maximises"), which differs
    between the presets: Classic counts the cards out of the hand (the discard too) and a fixed 25 for
    going out first, Epic neither hand penalty nor a fixed bonus (its bonus is the opponents' hands)."""
    def task(rules: Ruleset) -> str:
        counts = "table points (your side's won, the other sides' lost)"
        if rules.hand_penalty_at_end:
            counts += ", the points of the cards out of your hand (the discard included)"
        if rules.first_out_bonus == FirstOutBonus.FIXED:
            counts += f" and {HOUSE_FIRST_OUT_BONUS} for going out first"
        elif rules.first_out_bonus == FirstOutBonus.HANDS:
            counts += " and, for going out first, the points in the opponents' hands"
        return f"score the most{qualifier}: {counts}"
    return task


# A card is worth 5 points in a play: an easy puzzle may win by one card, an expert one by three.
register_family(FamilySupport("house", near=NEAR_POINTS, canonical=Position.table_key, ambiguity=ambiguity,
                              margin_bars=(0, 5, 10, 15), corner=rule_corner))
# Every kind's answer steals or replaces a joker, which the easy rung (extend what you see) never
# does: no House kind is easy (docs/ladder.md).
NOT_EASY = (Tier.MEDIUM, Tier.HARD, Tier.EXPERT)
register_kind(Kind(PuzzleKind.STEAL, ("house",), house_task(" (the best turn steals)"), make_steal, accept_steal,
                   tiers=NOT_EASY))
register_kind(Kind(PuzzleKind.REPLACE_MELD, ("house",), house_task(" (you have not melded yet)"),
                   make_replace_meld, accept_replace_meld, tiers=NOT_EASY))
register_kind(Kind(PuzzleKind.MELD_STEAL, ("house",), house_task(" (you have not melded yet)"),
                   make_meld_steal, accept_meld_steal, tiers=NOT_EASY))
register_kind(Kind(PuzzleKind.ACROSS, ("house",), house_task(""), make_across, accept_across, tiers=NOT_EASY))
