"""The four families of games, as records found by name (in the manner of python-chess's variants).

A ruleset's ``family`` is one of these records. It is a ``str`` (``"house"``,
``"tile"``, ``"robber"``, ``"layoff"``), so files, ``--json`` output and
comparisons see the name, and it carries everything that differs between the
families: the kind of table, the objectives, the limits on players, the
scoring, and where the family's model, judge, gain and puzzle kinds live.
Code asks the family (``rules.family.shared_table``,
``rules.family.solver_function()``) instead of testing its name.

To learn one family: read its class below, then its model subpackage
(``rummy.model.<family>``), its judge (``rummy.checker.<family>``) and its
puzzle kinds (``rummy.generator``).

The model, the judge, the gain and the rest are named as ``"module:function"``
and imported on first use, so that importing a ruleset never loads OR-Tools and
the checker, which asks the family for its judge, shares no code with the
models. What each reference names is a Protocol below (``Solver``, ``Judge``,
``DrawJudge``, ``Gain``, ``GainBreakdown``, ``DrawLister``) or the ``Ladder`` alias; the
accessors (``solver_function()``, ``judge_function()`` ...) return those types,
and tests/core/test_family.py loads every reference of every family and matches it
against its type.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from .cards import Card
from .errors import RulesError, quote
from .plays import Reading, readings
from .vocabulary import DrawSource, FirstOutBonus, InitialMeldJoker, Objective

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import TypeAlias

    from .checker.facts import TurnFacts
    from .checker.verdict import Breach, Verdict
    from .draw_advice.options import Draw
    from .ladder import Rung
    from .position import Position
    from .rules import Ruleset
    from .solution import Solution, SolverConfig
    from .table_bag import Arrangement

HOUSE_PENALTY = {1: 11, 11: 2, 12: 3, 13: 4}
HOUSE_HANDS = 6
HOUSE_FIRST_OUT_BONUS = 25


# ------------------------------------------------ what the references name
# Positional-only parameters: a family's function may name its own, and add some with defaults.
class Solver(Protocol):
    """``Family.solver``: the family's model, the best turn of a position within the config's limits."""

    def __call__(self, position: Position, config: SolverConfig, /) -> Solution: ...


class Judge(Protocol):
    """``Family.judge``: the breaches of the family's reading of a turn, and that reading (JSON data)."""

    def __call__(self, facts: TurnFacts, /) -> tuple[list[Breach], Mapping[str, object]]: ...


class DrawJudge(Protocol):
    """``Family.draw_judge``: the checker's verdict on a turn from a draw-phase position: its draw
    applied, then the rest."""

    def __call__(self, before: Position, after: Position, /) -> Verdict: ...


class Gain(Protocol):
    """``Family.gain``: (before, after, objective) -> the turn's gain, from the two end states alone."""

    def __call__(self, before: Position, after: Position, objective: Objective, /) -> Fraction | int: ...


class GainBreakdown(Protocol):
    """``Family.breakdown``: (before, after, objective) -> [(what, points)] adding up to the gain."""

    def __call__(self, before: Position, after: Position,
                 objective: Objective, /) -> list[tuple[str, Fraction | int]]: ...


class DrawLister(Protocol):
    """``Family.draws``: every draw of a draw-phase position open to its mover (``rummy.draw_advice.options``)."""

    def __call__(self, position: Position, /) -> list[Draw]: ...


class BagArranger(Protocol):
    """``Family.arranger``: a shared table given as a bag of tiles, laid out in whole plays within
    ``time_limit`` seconds (``rummy.table_bag``)."""

    def __call__(self, bag: tuple[Card, ...], rules: Ruleset, time_limit: float, /) -> Arrangement: ...


if TYPE_CHECKING:
    # ``Family.ladder``: the human-like players that grade puzzles (``rummy.ladder``), weakest first.
    Ladder: TypeAlias = Sequence[Rung]


class Family(str):
    """What one family of games is; subclasses hold the values, instances are the four names."""

    __slots__ = ()

    name: ClassVar[str]
    long_name: ClassVar[str]  # as messages name the game
    table: ClassVar[str]  # the ruleset option ``table`` this family plays on
    # Where a player's plays are written in a position file ("table" for a shared table).
    plays_key: ClassVar[str]
    # Plays change owner (Robber steals): the planner matches plays across owners.
    plays_change_owner: ClassVar[bool] = False
    layoffs_attached: ClassVar[bool] = False  # cards laid off on another's play stay the layer's (lay-off rummy)
    objectives: ClassVar[tuple[Objective, ...]] = (Objective.DEFAULT,)
    answers_draw_phase: ClassVar[bool] = False
    stock_upcard: ClassVar[bool] = False  # the stock shows its top card until opened (piles.upcard)
    scores_plays: ClassVar[bool] = False  # plays on the table are worth points (shown by 'rummy show')
    scores_by_space: ClassVar[bool] = False  # a side's table points are its spaces' totals
    meld_threshold_words: ClassVar[str] = "initial meld {cost} points"
    gain_name: ClassVar[str] = "gain"  # what the answer's gain counts, when it is cards played
    # What the gain counts under an objective other than the default (tile rummy: "value" counts the tiles' value).
    objective_gain_names: ClassVar[Mapping[Objective, str]] = {}
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int | None] = None
    hands_in_game: ClassVar[int | None] = None  # a position must say which hand of the game it is
    four_players_in_pairs: ClassVar[bool] = False
    needs_meld_threshold: ClassVar[bool] = False
    fixed_jokers_allowed: ClassVar[bool] = False
    own_options: ClassVar[tuple[str, ...]] = ()  # options no other family may set
    # "module:name" references, each to a value of the type named (see the Protocols above).
    solver: ClassVar[str]  # a Solver
    # A Solver that answers at once what ``solver`` is sure to reach or beat, with a proven bound (no search):
    # draw advice values every outcome with it first (issue 28). None: the family has none.
    quick_solver: ClassVar[str | None] = None
    judge: ClassVar[str]  # a Judge
    gain: ClassVar[str]  # a Gain
    breakdown: ClassVar[str]  # a GainBreakdown
    puzzles: ClassVar[str | None] = None  # a module: importing it registers the family's puzzle kinds
    ladder: ClassVar[str | None] = None  # a Ladder
    # A DrawLister, for draw advice (rummy.draw_advice); None where the family has no draw advice or
    # answers the draw phase in its own model (Robber).
    draws: ClassVar[str | None] = None
    # A DrawJudge: how the checker judges a turn from the draw phase (None: the family has no draw phase).
    draw_judge: ClassVar[str | None] = None
    # A BagArranger: lays out a shared table given as a bag of tiles (None: the family has no shared table).
    arranger: ClassVar[str | None] = None
    # The draw phase as the checker judges it (rummy.checker.draw_apply): the draws of the family's rules
    # (``demand`` only where the ruleset allows it, ``open`` and ``pass`` only while ``piles.upcard``
    # is set), the most cards one draw takes from the discard pile (None: down to its bottom), and
    # whether the bottom card taken is hot (must be played; otherwise it is warm).
    draw_sources: ClassVar[tuple[DrawSource, ...]] = ()
    discard_take_max: ClassVar[int | None] = None
    discard_bottom_hot: ClassVar[bool] = False

    def __new__(cls) -> Family:
        return super().__new__(cls, cls.name)

    def __reduce__(self) -> tuple[Callable[[str], Family], tuple[str]]:
        return family_named, (self.name,)

    @property
    def shared_table(self) -> bool:
        return self.table == "shared"

    @property
    def plays_in_any_space(self) -> bool:
        """A player may lay a new play in another player's space (House Rummy); elsewhere new plays are the mover's."""
        return self.table == "spaces"

    # ----------------------------------------------------------- machinery
    def solver_function(self) -> Solver:
        """The family's model (imported on first use)."""
        solver: Solver = load(self.solver)
        return solver

    def quick_solver_function(self) -> Solver | None:
        """The family's quick turn (``quick_solver``; imported on first use), or None."""
        if self.quick_solver is None:
            return None
        solver: Solver = load(self.quick_solver)
        return solver

    def draw_options(self, position: Position) -> list[Draw]:
        """Every draw open to the mover of a draw-phase position."""
        if self.draws is None:
            raise RulesError(f"{self.long_name} has no draw advice of its own")
        draws: DrawLister = load(self.draws)
        return draws(position)

    def search_signature(self, position: Position) -> Hashable | None:
        """What the family's model reads of a play-phase position: equal signatures, equal best turns
        (draw advice searches them once). None where every position is searched on its own."""
        return None

    @property
    def advises_draws(self) -> bool:
        """Whether ``best`` answers the draw phase (with rummy.draw_advice, or in the family's own model)."""
        return self.draws is not None or self.answers_draw_phase

    def judge_function(self) -> Judge:
        """The checker's judge of this family (imported on first use; never model code)."""
        judge: Judge = load(self.judge)
        return judge

    def arrange_function(self) -> BagArranger:
        """The family's arrangement of a table given as a bag (imported on first use)."""
        if self.arranger is None:
            raise RulesError(f"{self.long_name} has no shared table to arrange")
        arranger: BagArranger = load(self.arranger)
        return arranger

    def draw_judge_function(self) -> DrawJudge | None:
        """The checker's judge of a turn from the draw phase (imported on first use); None where the family has none."""
        if self.draw_judge is None:
            return None
        draw_judge: DrawJudge = load(self.draw_judge)
        return draw_judge

    def gain_words(self, objective: Objective, gain: object, cards_played: object) -> str:
        """What the human view calls an answer's gain: what it counts under ``objective``."""
        if objective in self.objective_gain_names:
            return self.objective_gain_names[objective]
        return self.gain_name if gain == cards_played else "gain"

    def turn_gain(self, before: Position, after: Position, objective: Objective = Objective.DEFAULT) -> Fraction | int:
        gain: Gain = load(self.gain)
        return gain(before, after, objective)

    def gain_breakdown(self, before: Position, after: Position,
                       objective: Objective = Objective.DEFAULT) -> list[tuple[str, Fraction | int]]:
        """Where the gain of a turn comes from: (what, points) lines that add up to ``turn_gain``."""
        breakdown: GainBreakdown = load(self.breakdown)
        return breakdown(before, after, objective)

    def ladder_rungs(self) -> Ladder | None:
        """The family's human-like players, weakest first (imported on first use); None where it has none."""
        if self.ladder is None:
            return None
        rungs: Ladder = load(self.ladder)
        return rungs

    def require(self, rules: Ruleset, what: str) -> None:
        """Refuse rules of another family (a library caller handed the wrong model a position)."""
        if rules.family != self.name:
            raise RulesError(f"{what} solves {self.name} games, not {quote(rules.name)} ({rules.family})")

    # ------------------------------------------------------------- scoring
    def penalty(self, card: Card, rules: Ruleset) -> int:
        """What an unplayed card costs its holder."""
        return rules.joker_points if card.is_joker else self.natural_penalty(card, rules)

    def natural_penalty(self, card: Card, rules: Ruleset) -> int:
        raise NotImplementedError

    def hand_penalty(self, cards: Iterable[Card], rules: Ruleset) -> int:
        """What holding ``cards`` costs: their penalties added up."""
        return sum(self.penalty(card, rules) for card in cards)

    def hand_counts_against(self, rules: Ruleset) -> bool:
        """Whether the cards left in the mover's hand lower the turn's gain (so a card drawn and kept costs)."""
        return True

    def hand_cost(self, cards: Iterable[Card], rules: Ruleset) -> int:
        """What holding ``cards`` at the end of the turn costs the gain: their penalty where hand cards count.

        Draw advice (rules.md §5) values a draw from the position before it:
        the play-phase gain minus the hand cost of the cards drawn.
        """
        return self.hand_penalty(cards, rules) if self.hand_counts_against(rules) else 0

    def play_score(self, cards: tuple[Card, ...], rules: Ruleset) -> int:
        """Points a play is worth to whoever owns it (House, Robber); 0 where plays score nothing."""
        return 0

    def meld_value(self, cards: tuple[Card, ...], rules: Ruleset) -> int:
        """What a play counts towards an initial-meld threshold: its numbers, a joker its best stand-in."""
        joker_counts = rules.initial_meld_joker != InitialMeldJoker.ZERO
        return max(
            (
                sum((stand_in.rank if joker_counts else 0) if card.is_joker else card.rank
                    for card, stand_in in zip(reading.cards, reading.stand_ins))
                for reading in readings(cards, rules)
            ),
            default=0,
        )


class House(Family):
    """House Rummy (Classic, Epic): spaces, paid steals, meld costs, sides of two."""

    name = "house"
    long_name = "House Rummy"
    table = "spaces"
    plays_key = "space"
    scores_plays = True
    scores_by_space = True
    stock_upcard = True
    own_options = ("demand", "middle_discards_warm")
    meld_threshold_words = "meld cost {cost}"
    max_players = 4
    hands_in_game = HOUSE_HANDS
    four_players_in_pairs = True
    needs_meld_threshold = True
    solver = "rummy.model.house:solve_house"
    quick_solver = "rummy.model.house.quick:quick_house"
    judge = "rummy.checker.house:judge_house"
    draw_judge = "rummy.checker.draw_judge:judge_drawn_turn"
    gain = "rummy.checker.gain:house_gain"
    breakdown = "rummy.checker.gain:house_breakdown"
    puzzles = "rummy.generator.house_kinds"
    ladder = "rummy.ladder.house:LADDER"
    draws = "rummy.draw_advice.options:house_draws"
    draw_sources = (DrawSource.STOCK, DrawSource.DISCARD, DrawSource.OPEN, DrawSource.PASS, DrawSource.DEMAND)
    discard_bottom_hot = True

    def natural_penalty(self, card: Card, rules: Ruleset) -> int:
        return HOUSE_PENALTY.get(card.rank, card.rank)

    def hand_counts_against(self, rules: Ruleset) -> bool:
        return rules.hand_penalty_at_end

    def search_signature(self, position: Position) -> Hashable | None:
        """The House model reads the table, the mover, the sides and the first-out bonus; the other
        hands and the piles only through that bonus (Epic: the opponents' hands, or the unseen mean)."""
        from dataclasses import replace

        players = tuple(p if p.name == position.to_move else replace(p, hand=None, hand_count=None)
                        for p in position.players)
        return (replace(position, players=players, discard_pile=(), stock=None, upcard=None),
                self.first_out_bonus(position))

    def play_score(self, cards: tuple[Card, ...], rules: Ruleset) -> int:
        """5 a card, but a book of exactly 3 is 10; a 3-card play that can read as a run is a run."""
        found = readings(cards, rules)
        if not found:
            return 0
        if len(cards) == 3 and all(r.kind == "book" for r in found):
            return 10
        return 5 * len(cards)

    def first_out_bonus(self, position: Position) -> Fraction:
        """What the mover's side earns by going out first (rules.md §5): 25 (Classic), or the
        opponents' hand penalties (Epic), a hidden hand counted at the mean penalty of the unseen cards."""
        rules = position.rules
        if rules.first_out_bonus == FirstOutBonus.FIXED:
            return Fraction(HOUSE_FIRST_OUT_BONUS)
        if rules.first_out_bonus != FirstOutBonus.HANDS:
            return Fraction(0)
        unseen = position.unseen_cards()
        count = sum(unseen.values())
        mean = (Fraction(sum(self.penalty(card, rules) * n for card, n in unseen.items()), count) if count
                else Fraction(0))
        bonus = Fraction(0)
        for player in position.players:
            if player.side == position.mover.side:
                continue
            if player.hand is not None:
                bonus += self.hand_penalty(player.hand, rules)
            else:
                bonus += (player.hand_count or 0) * mean
        return bonus

    def meld_value(self, cards: tuple[Card, ...], rules: Ruleset) -> int:
        """A House meld costs points of play score."""
        return self.play_score(cards, rules)


class Tile(Family):
    """Tile rummy (Rummikub and its variants): one shared table, no discard."""

    name = "tile"
    long_name = "tile rummy"
    table = "shared"
    plays_key = "table"
    objectives = (Objective.DEFAULT, Objective.TILES, Objective.VALUE)
    gain_name = "tiles played"
    objective_gain_names: ClassVar[Mapping[Objective, str]] = {Objective.VALUE: "value of the tiles played"}
    min_players = 1
    fixed_jokers_allowed = True
    own_options = ("max_cards_per_turn",)
    solver = "rummy.model.tile:solve_tiles"
    judge = "rummy.checker.tile:judge_tiles"
    gain = "rummy.checker.gain:tiles_gain"
    breakdown = "rummy.checker.gain:tiles_breakdown"
    arranger = "rummy.model.tile.arrange:arrange_bag"
    puzzles = "rummy.generator.tile_kinds"
    ladder = "rummy.ladder.tile:LADDER"

    def natural_penalty(self, card: Card, rules: Ruleset) -> int:
        return card.rank

    def hand_counts_against(self, rules: Ruleset) -> bool:
        return False  # tiles played (or their value): what stays in the rack does not count


class Robber(Family):
    """Robber Rummy: owned plays, stolen by adding to them; a draw phase with a choice."""

    name = "robber"
    long_name = "Robber Rummy"
    table = "owned_plays"
    plays_key = "plays"
    plays_change_owner = True
    answers_draw_phase = True
    draw_sources = (DrawSource.STOCK, DrawSource.PILE)
    scores_plays = True
    solver = "rummy.model.robber:solve_robber"
    judge = "rummy.checker.robber:judge_robber"
    draw_judge = "rummy.checker.robber:judge_robber_drawn_turn"
    gain = "rummy.checker.gain:robber_gain"
    breakdown = "rummy.checker.gain:robber_breakdown"
    puzzles = "rummy.generator.robber_kinds"
    ladder = "rummy.ladder.robber:LADDER"

    def natural_penalty(self, card: Card, rules: Ruleset) -> int:
        return self.card_points(card.rank, ace_high=True)

    def play_score(self, cards: tuple[Card, ...], rules: Ruleset) -> int:
        """Book: card points, aces 15. Run: double, an ace 15 only when high. Best reading."""
        return max((self._reading_score(r) for r in readings(cards, rules)), default=0)

    @staticmethod
    def card_points(rank: int, ace_high: bool) -> int:
        if rank == 1:
            return 15 if ace_high else 5
        return 10 if rank >= 10 else 5

    def _reading_score(self, reading: Reading) -> int:
        if reading.kind == "book":
            return sum(self.card_points(s.rank, ace_high=True) for s in reading.stand_ins)
        return 2 * sum(self.card_points(s.rank, ace_high=p == 14) for s, p in zip(reading.stand_ins, reading.positions))


class Layoff(Family):
    """Straight and traditional Rummy: one's own melds, lay-offs on anyone's, penalty points."""

    name = "layoff"
    long_name = "lay-off rummy"
    table = "personal"
    plays_key = "space"
    layoffs_attached = True
    own_options = ("plays_per_turn", "layoff_needs_meld", "keep_one_to_discard")
    solver = "rummy.model.layoff:solve_layoff"
    judge = "rummy.checker.layoff:judge_layoff"
    draw_judge = "rummy.checker.draw_judge:judge_drawn_turn"
    gain = "rummy.checker.gain:layoff_gain"
    breakdown = "rummy.checker.gain:layoff_breakdown"
    draws = "rummy.draw_advice.options:layoff_draws"
    draw_sources = (DrawSource.STOCK, DrawSource.DISCARD)
    discard_take_max = 1  # the top card only (rules.md §8)
    puzzles = "rummy.generator.layoff_kinds"
    ladder = "rummy.ladder.layoff:LADDER"

    def natural_penalty(self, card: Card, rules: Ruleset) -> int:
        if card.rank == 12 and card.suit == "S":
            return rules.queen_of_spades_points
        if card.rank == 1:
            return rules.ace_points
        return min(card.rank, 10)


HOUSE, TILE, ROBBER, LAYOFF = House(), Tile(), Robber(), Layoff()
FAMILIES: dict[str, Family] = {family.name: family for family in (HOUSE, TILE, ROBBER, LAYOFF)}


def family_named(name: str) -> Family:
    """The family called ``name``."""
    try:
        return FAMILIES[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown family {quote(name)} (known: {', '.join(FAMILIES)})") from None


@cache
def load(reference: str) -> Any:
    """The object a ``"module:name"`` reference names, imported on first use.

    Typed ``Any``: an import by name is beyond the type checker, so each caller gives the value its
    type (a Protocol above), and tests/core/test_family.py checks every reference of every family against it."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)
