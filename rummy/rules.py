"""Rulesets: every option of rules.md §2 in one frozen value, and the presets.

A preset is a named ruleset; a position may name a preset and override
single options (``Ruleset.with_options``). Options are validated so that an
impossible combination is refused with a message naming the option.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from .cards import Card, Deck, full_deck
from .errors import RulesError, quote
from .family import FAMILIES, HOUSE, LAYOFF, ROBBER, TILE, Family, family_named
from .vocabulary import Ace, FirstOutBonus, GoingRummy, InitialMeldJoker, JokerMode, Rearrange, Target, Word


@dataclass(frozen=True)
class Ruleset:
    """One game's rules. Field docs are what ``rummy rules PRESET`` prints."""

    name: str = field(metadata={"doc": "preset this ruleset starts from"})
    family: Family = field(metadata={"doc": "family of games: house, tile, robber or layoff"})
    deck: Deck = field(default="cards", metadata={"doc": "notation printed: cards (7H) or tiles (R7)"})
    copies: int = field(default=1, metadata={"doc": "copies of each of the 52 non-joker cards"})
    jokers: int = field(default=0, metadata={"doc": "jokers in the deck"})
    book_min: int = field(default=3, metadata={"doc": "fewest cards in a book (jokers included)"})
    book_max: int = field(default=4, metadata={"doc": "most cards in a book (jokers included)"})
    book_distinct_suits: bool = field(default=True, metadata={
        "doc": "every natural card of a book has a different suit"})
    run_min: int = field(default=3, metadata={"doc": "shortest run"})
    ace: Ace = field(default=Ace.LOW, metadata={
        "doc": "low: A only before 2; high_or_low: A-2-3 or Q-K-A, never K-A-2; circular: K-A-2 is fine"})
    joker_mode: JokerMode = field(default=JokerMode.FLEXIBLE, metadata={
        "doc": "flexible: a table joker may change meaning and move; fixed: it stands for one card until replaced"})
    joker_replace_from_hand: bool = field(default=False, metadata={
        "doc": "(fixed) the card that frees a joker must come from the hand"})
    joker_locks_play: bool = field(default=False, metadata={
        "doc": "(fixed) no card may be taken from a play holding an unreplaced joker"})
    freed_joker_new_play_only: bool = field(default=False, metadata={
        "doc": "(fixed) a freed joker may only go into a new play made with hand cards"})
    table: str = field(default="shared", metadata={
        "doc": "shared, spaces (one per player), owned_plays, or personal spaces with lay-offs"})
    rearrange: Rearrange = field(default=Rearrange.FREE, metadata={
        "doc": "free: split, merge and move table cards; extend_only: plays only grow"})
    initial_meld: tuple[int, ...] | None = field(default=None, metadata={
        "doc": "points needed for the first meld (one value, or one per hand number); none: no threshold"})
    initial_meld_joker: InitialMeldJoker = field(default=InitialMeldJoker.STANDS_FOR, metadata={
        "doc": "what a joker counts in the initial meld: stands_for (the card it stands for) or zero"})
    max_cards_per_turn: int | None = field(default=None, metadata={
        "doc": "most hand cards played in one turn (none: no limit)"})
    plays_per_turn: int | None = field(default=None, metadata={
        "doc": "most new plays laid in one turn, lay-offs not counted (none: no limit)"})
    layoff_needs_meld: bool = field(default=False, metadata={
        "doc": "cards may be added to existing plays only after one's first play"})
    keep_one_to_discard: bool = field(default=False, metadata={
        "doc": "a player may not play their last card; they must end by discarding it"})
    discard: bool = field(default=True, metadata={"doc": "a turn ends with a discard (tile rummy: no discard)"})
    first_out_bonus: FirstOutBonus = field(default=FirstOutBonus.NONE, metadata={
        "doc": "House: 'fixed' (25 points) or 'hands' (the opponents' hand penalties, Epic)"})
    hand_penalty_at_end: bool = field(default=False, metadata={
        "doc": "House: unplayed cards are subtracted from the side's score at hand end (Classic)"})
    demand: bool = field(default=False, metadata={
        "doc": "House: a player may demand a named card from another player instead of drawing (Epic)"})
    middle_discards_warm: bool = field(default=False, metadata={
        "doc": "House: discard-pile cards taken between the top card and the bottom one taken "
               "are warm (Epic), not cold"})
    ace_points: int = field(default=1, metadata={
        "doc": "lay-off rummy: penalty value of an ace (1; 15 when aces are high; 25 in one variation)"})
    joker_points: int = field(default=15, metadata={"doc": "penalty value of a joker"})
    queen_of_spades_points: int = field(default=10, metadata={
        "doc": "lay-off rummy: penalty value of the queen of spades (45 in Straight Rummy)"})
    going_rummy: GoingRummy = field(default=GoingRummy.NONE, metadata={
        "doc": "lay-off rummy: going out in one turn with nothing laid before: double, bonus10 or none"})
    target: Target = field(default=Target.WINNER_COLLECTS, metadata={
        "doc": "lay-off rummy: winner_collects (hand totals go to the winner) "
               "or penalty_points (each player counts their own)"})

    def __post_init__(self) -> None:
        # A family given by name (``family="tile"``) becomes its record.
        object.__setattr__(self, "family", family_named(self.family))
        _validate(self)
        for key, words in OPTION_WORDS.items():  # a word given as text becomes its member
            object.__setattr__(self, key, words(getattr(self, key)))

    @property
    def run_max(self) -> int:
        """A run never repeats a rank, except A..K..A with two copies."""
        return 14 if self.ace == Ace.HIGH_OR_LOW and self.copies == 2 else 13

    def run_windows(self, length: int) -> tuple[tuple[int, ...], ...]:
        """Every stretch of ``length`` consecutive run positions the ace rule allows.

        A position is a rank, except that a high ace is 14 and a circular run
        counts on past 13 (``cards.rank_at`` gives the rank back). A circular
        run of all 13 ranks is listed once, from the ace.
        """
        return _run_windows(self.ace, length)

    @property
    def melding_matters(self) -> bool:
        """Whether a player's first meld changes what they may do (initial meld, lay-off limits)."""
        return bool(self.initial_meld) or self.layoff_needs_meld

    def meld_threshold(self, hand_number: int | None = None) -> int:
        if not self.initial_meld:
            return 0
        index = max(1, hand_number or 1) - 1
        return self.initial_meld[min(index, len(self.initial_meld) - 1)]

    @cached_property
    def deck_cards(self) -> tuple[Card, ...]:
        return tuple(full_deck(self.copies, self.jokers))

    def options(self) -> dict[str, Any]:
        """Every option with its value (what a position may override)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in ("name", "family")}

    def overrides(self) -> dict[str, Any]:
        """Options that differ from this ruleset's preset."""
        base = PRESETS[self.name].options()
        return {key: value for key, value in self.options().items() if base[key] != value}

    def with_options(self, changes: Mapping[str, Any]) -> Ruleset:
        """A copy with some options changed; values are coerced and validated."""
        known = {f.name: f for f in dataclasses.fields(self)}
        coerced: dict[str, Any] = {}
        for key, value in changes.items():
            if key not in known or key in ("name", "family"):
                raise RulesError(f"unknown option {quote(key)} (see 'rummy rules {self.name}')")
            coerced[key] = _coerce(key, value, getattr(self, key))
        return dataclasses.replace(self, **coerced)

    def __repr__(self) -> str:
        changes = self.overrides() if self.name in PRESETS else {}
        if changes:
            return f"preset({self.name!r}).with_options({changes!r})"
        return f"preset({self.name!r})"


# Options whose values are words (rummy.vocabulary): a Ruleset holds the member.
OPTION_WORDS: dict[str, type[Word]] = {
    "ace": Ace,
    "joker_mode": JokerMode,
    "rearrange": Rearrange,
    "initial_meld_joker": InitialMeldJoker,
    "first_out_bonus": FirstOutBonus,
    "going_rummy": GoingRummy,
    "target": Target,
}


@lru_cache(maxsize=64)
def _run_windows(ace: str, length: int) -> tuple[tuple[int, ...], ...]:
    # Readings, the House shapes and the lay-off growths ask for the same few lengths again and again.
    if ace == Ace.CIRCULAR:
        starts = range(1, 14) if length < 13 else range(1, 2)
    else:
        starts = range(1, (14 if ace == Ace.LOW else 15) - length + 1)
    return tuple(tuple(range(start, start + length)) for start in starts)


OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "deck": ("cards", "tiles"),
    "copies": (1, 2),
    "jokers": (0, 2),
    "table": ("shared", "spaces", "owned_plays", "personal"),
    **{key: tuple(words) for key, words in OPTION_WORDS.items()},
}


# The families each option applies to (docs/rules.md §2, "used by"); ALL_FAMILIES for the
# options every family reads, or whose value the family sets. 'rummy rules PRESET' shows a
# preset the options of its family alone (a position may still write any of them).
ALL_FAMILIES = ("house", "tile", "robber", "layoff")
OPTION_FAMILIES: dict[str, tuple[str, ...]] = {
    "deck": ALL_FAMILIES,
    "copies": ALL_FAMILIES,
    "jokers": ALL_FAMILIES,
    "book_min": ALL_FAMILIES,
    "book_max": ALL_FAMILIES,
    "book_distinct_suits": ALL_FAMILIES,
    "run_min": ALL_FAMILIES,
    "ace": ALL_FAMILIES,
    "joker_mode": ALL_FAMILIES,  # flexible everywhere; fixed only in tile rummy
    "joker_replace_from_hand": ("tile",),
    "joker_locks_play": ("tile",),
    "freed_joker_new_play_only": ("tile",),
    "table": ALL_FAMILIES,
    "rearrange": ALL_FAMILIES,
    "initial_meld": ("house", "tile"),
    "initial_meld_joker": ("tile",),
    "max_cards_per_turn": ("tile",),
    "plays_per_turn": ("layoff",),
    "layoff_needs_meld": ("layoff",),
    "keep_one_to_discard": ("layoff",),
    "discard": ALL_FAMILIES,
    "first_out_bonus": ("house",),
    "hand_penalty_at_end": ("house",),
    "demand": ("house",),
    "middle_discards_warm": ("house",),
    "ace_points": ("layoff",),
    "joker_points": ("house", "tile", "layoff"),
    "queen_of_spades_points": ("layoff",),
    "going_rummy": ("layoff",),
    "target": ("layoff",),
}


def family_options(ruleset: Ruleset) -> dict[str, Any]:
    """The options that apply to the ruleset's family, with their values (``OPTION_FAMILIES``)."""
    return {key: value for key, value in ruleset.options().items() if ruleset.family in OPTION_FAMILIES[key]}


# Options about jokers, and those about fixed jokers only.
JOKER_OPTIONS = ("joker_mode", "joker_replace_from_hand", "joker_locks_play", "freed_joker_new_play_only",
                 "initial_meld_joker", "joker_points")
FIXED_JOKER_OPTIONS = ("joker_replace_from_hand", "joker_locks_play", "freed_joker_new_play_only")


def moot_options(ruleset: Ruleset) -> dict[str, str]:
    """Options of the ruleset's family that cannot matter under its other values, each with why:
    every joker option in a deck without jokers, the fixed-joker options where jokers are flexible."""
    if ruleset.jokers == 0:
        return {key: "no jokers" for key in JOKER_OPTIONS}
    if ruleset.joker_mode != JokerMode.FIXED:
        return {key: "jokers are not fixed" for key in FIXED_JOKER_OPTIONS}
    return {}


# Every number an option holds stays in a range that no real game leaves and
# that keeps the solver's coefficients small (formats.md "Limits").
OPTION_NUMBER_MAX = 1000
# initial_meld: one threshold, or one per hand number (House has 6 hands).
MELD_VALUES_MAX = 100
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "book_min": (2, 10),
    "book_max": (2, 10),
    "run_min": (2, 14),
    "initial_meld": (0, OPTION_NUMBER_MAX),
    "max_cards_per_turn": (1, OPTION_NUMBER_MAX),
    "plays_per_turn": (1, OPTION_NUMBER_MAX),
    "ace_points": (0, OPTION_NUMBER_MAX),
    "joker_points": (0, OPTION_NUMBER_MAX),
    "queen_of_spades_points": (0, OPTION_NUMBER_MAX),
}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _in_range(key: str, value: int) -> int:
    low, high = OPTION_RANGES.get(key, (0, OPTION_NUMBER_MAX))
    if not low <= value <= high:
        if key == "initial_meld" and value < 0:
            raise RulesError("option initial_meld: thresholds cannot be negative")
        raise RulesError(f"option {key}: {quote(value)} is out of range ({low} to {high})")
    return value


def _coerce(key: str, value: Any, current: Any) -> Any:
    if key == "initial_meld":
        if value is None or (isinstance(value, (str, bool, int)) and value in ("none", False, 0)):
            return None
        if _whole(value):
            return (_in_range(key, value),)
        if isinstance(value, (list, tuple)) and value and all(_whole(v) for v in value):
            if len(value) > MELD_VALUES_MAX:
                raise RulesError(f"option initial_meld: at most {MELD_VALUES_MAX} values, got {len(value)}")
            return tuple(_in_range(key, v) for v in value)
        raise RulesError(f"option initial_meld: expected a number or a list of numbers, got {quote(value)}")
    if key in ("max_cards_per_turn", "plays_per_turn"):
        if value is None or value == "none":
            return None
        if _whole(value):
            return _in_range(key, value)
        raise RulesError(f"option {key}: expected a whole number or 'none', got {quote(value)}")
    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        raise RulesError(f"option {key}: expected true or false, got {quote(value)}")
    if isinstance(current, int):
        if _whole(value):
            return value if key in ("copies", "jokers") else _in_range(key, value)
        raise RulesError(f"option {key}: expected a whole number, got {quote(value)}")
    if isinstance(value, str):
        return value
    raise RulesError(f"option {key}: expected text, got {quote(value)}")


def _validate(rules: Ruleset) -> None:
    for key, choices in OPTION_CHOICES.items():
        if getattr(rules, key) not in choices:
            allowed = ", ".join(str(c) for c in choices)
            raise RulesError(f"option {key}: {quote(getattr(rules, key))} is not one of {allowed}")
    if rules.table != rules.family.table:
        raise RulesError(
            f"option table: {rules.table!r} is not supported for {rules.family} games "
            f"(their table is {rules.family.table!r})"
        )
    if rules.book_min < 2 or rules.run_min < 2:
        raise RulesError("options book_min and run_min: a play needs at least 2 cards")
    if rules.book_min > rules.book_max:
        raise RulesError(f"options book_min {rules.book_min} > book_max {rules.book_max}")
    most_in_book = 4 if rules.book_distinct_suits else 4 * rules.copies + rules.jokers
    if rules.book_max > most_in_book:
        raise RulesError(
            f"option book_max: {rules.book_max} cards cannot make a book "
            f"(at most {most_in_book} with these options)"
        )
    if rules.run_min > rules.run_max:
        raise RulesError(f"option run_min: {rules.run_min} is longer than any run ({rules.run_max})")
    fixed_only = ("joker_replace_from_hand", "joker_locks_play", "freed_joker_new_play_only")
    if rules.joker_mode == JokerMode.FLEXIBLE:
        for key in fixed_only:
            if getattr(rules, key):
                raise RulesError(f"option {key} needs joker_mode = 'fixed'")
    if rules.joker_mode == JokerMode.FIXED and not rules.family.fixed_jokers_allowed:
        raise RulesError("option joker_mode: 'fixed' jokers exist only in tile rummy")
    # Options (turn limits, House's draw rules) that the models and the checker apply only in
    # some families; set elsewhere they would be silently ignored, so they are refused.
    for key in FAMILY_OWN_OPTIONS:
        if getattr(rules, key) not in (None, False) and key not in rules.family.own_options:
            families = [str(f) for f in FAMILIES.values() if key in f.own_options]
            raise RulesError(f"option {key} is not supported for {rules.family} games "
                             f"(only {', '.join(families)})")
    for key in ("max_cards_per_turn", "plays_per_turn"):
        value = getattr(rules, key)
        if value is not None and value < 1:
            raise RulesError(f"option {key}: must be at least 1 or 'none'")
    if rules.family.needs_meld_threshold and not rules.initial_meld:
        raise RulesError(f"option initial_meld: {rules.family.long_name} needs a meld cost")
    if rules.discard is False and rules.keep_one_to_discard:
        raise RulesError("option keep_one_to_discard needs discard = true")
    for key in OPTION_RANGES:
        value = getattr(rules, key)
        for number in value if isinstance(value, tuple) else (value,):
            if number is not None:
                _in_range(key, number)
    if rules.initial_meld is not None and len(rules.initial_meld) > MELD_VALUES_MAX:
        raise RulesError(f"option initial_meld: at most {MELD_VALUES_MAX} values, got {len(rules.initial_meld)}")


FAMILY_OWN_OPTIONS = ("max_cards_per_turn", "plays_per_turn", "layoff_needs_meld", "keep_one_to_discard", "demand",
                      "middle_discards_warm")

_HOUSE: dict[str, Any] = dict(
    family=HOUSE, deck="cards", copies=1, jokers=2, book_min=3, book_max=4, book_distinct_suits=True,
    run_min=3, ace=Ace.CIRCULAR, joker_mode=JokerMode.FLEXIBLE, table="spaces", rearrange=Rearrange.FREE,
    initial_meld=(10, 10, 15, 15, 20, 20), joker_points=15,
)
_TILE: dict[str, Any] = dict(
    family=TILE, deck="tiles", copies=2, jokers=2, book_min=3, book_max=4, book_distinct_suits=True,
    run_min=3, ace=Ace.LOW, table="shared", rearrange=Rearrange.FREE, initial_meld=(30,), discard=False,
    joker_points=30,
)
_FIXED_JOKERS: dict[str, Any] = dict(joker_mode=JokerMode.FIXED, joker_replace_from_hand=True, joker_locks_play=True)
_LAYOFF: dict[str, Any] = dict(
    family=LAYOFF, deck="cards", copies=1, jokers=0, book_min=3, book_max=4, book_distinct_suits=True,
    run_min=3, table="personal", rearrange=Rearrange.EXTEND_ONLY, plays_per_turn=1,
)

PRESETS: dict[str, Ruleset] = {
    "house-classic": Ruleset("house-classic", **_HOUSE, first_out_bonus=FirstOutBonus.FIXED, hand_penalty_at_end=True),
    "house-epic": Ruleset("house-epic", **_HOUSE, first_out_bonus=FirstOutBonus.HANDS, demand=True,
                          middle_discards_warm=True),
    "rummikub": Ruleset("rummikub", **_TILE, **_FIXED_JOKERS),
    "rummikub-lenient": Ruleset("rummikub-lenient", **_TILE),
    "tiles50": Ruleset("tiles50", **{**_TILE, "initial_meld": (50,)}, **_FIXED_JOKERS, freed_joker_new_play_only=True),
    "yourturnmyturn": Ruleset(
        "yourturnmyturn", **{**_TILE, "joker_points": 25}, initial_meld_joker=InitialMeldJoker.ZERO,
        max_cards_per_turn=12,
    ),
    "robber": Ruleset(
        "robber", family=ROBBER, deck="cards", copies=2, jokers=0, book_min=3, book_max=8,
        book_distinct_suits=False, run_min=3, ace=Ace.HIGH_OR_LOW, table="owned_plays", rearrange=Rearrange.EXTEND_ONLY,
    ),
    "straight": Ruleset("straight", **_LAYOFF, ace=Ace.HIGH_OR_LOW, queen_of_spades_points=45,
                        going_rummy=GoingRummy.DOUBLE),
    "traditional": Ruleset("traditional", **_LAYOFF, ace=Ace.LOW),
}

PRESET_SUMMARIES: dict[str, str] = {
    "house-classic": "House Rummy, Classic: spaces, paid steals, meld costs 10/15/20, first out +25, hand penalty",
    "house-epic": "House Rummy, Epic: as Classic, first-out bonus is the opponents' hands, no hand penalty",
    "rummikub": "Tile rummy, official rules: initial meld 30, fixed jokers replaced from the hand, locking their play",
    "rummikub-lenient": "Tile rummy, lenient jokers: initial meld 30, jokers move freely",
    "tiles50": "Tile rummy, Tiles 50: initial meld 50, fixed jokers; a freed joker goes only into a new play",
    "yourturnmyturn": ("Tile rummy, YourTurnMyTurn: 18 tiles, jokers count 0 in the initial meld, "
                       "at most 12 tiles a turn"),
    "robber": "Robber Rummy: two packs, owned plays stolen by adding to them, books up to 8",
    "straight": "Straight Rummy: one meld a turn, lay-offs, aces high or low, queen of spades 45, going rummy doubles",
    "traditional": "Traditional Rummy: one meld a turn, lay-offs, aces low, penalty points",
}


# What each preset deals a player, by the number of players (docs/rules.md: House §5, tile
# rummy §6, Robber §7, lay-off rummy §8); ``None`` keys any other number of players.
DEALS: dict[str, dict[int | None, int]] = {
    "house-classic": {2: 10, 3: 8, 4: 7},
    "house-epic": {2: 10, 3: 8, 4: 7},
    "rummikub": {None: 14},
    "rummikub-lenient": {None: 14},
    "tiles50": {None: 14},
    "yourturnmyturn": {None: 18},
    "robber": {None: 13},
    "straight": {2: 10, None: 7},
    "traditional": {2: 10, 3: 7, 4: 7, None: 6},
}


def dealt(rules: Ruleset, players: int) -> int | None:
    """The cards (tiles) the ruleset's preset deals each of ``players`` players; None if not known."""
    deals = DEALS.get(rules.name, {})
    return deals.get(players, deals.get(None))


def preset(name: str) -> Ruleset:
    """The preset called ``name``."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise RulesError(f"unknown preset {quote(name)} (known: {', '.join(PRESETS)})") from None


def ruleset_from_spec(spec: Any) -> Ruleset:
    """Read the ``rules`` value of a position: a preset name or a table."""
    if isinstance(spec, str):
        return preset(spec)
    if isinstance(spec, Mapping):
        if "preset" not in spec:
            raise RulesError("a [rules] table needs 'preset'")
        name = spec["preset"]
        if not isinstance(name, str):
            raise RulesError(f"preset: expected a name, got {quote(name)}")
        return preset(name).with_options({k: v for k, v in spec.items() if k != "preset"})
    raise RulesError(f"rules: expected a preset name or a table, got {quote(spec)}")


def ruleset_to_spec(rules: Ruleset) -> str | dict[str, Any]:
    """The ``rules`` value that reads back as ``rules``."""
    changes = rules.overrides()
    if not changes:
        return rules.name
    spec: dict[str, Any] = {"preset": rules.name}
    for key, value in changes.items():
        if value is None:
            value = "none"
        elif isinstance(value, tuple):
            value = list(value)
        spec[key] = value
    return spec
