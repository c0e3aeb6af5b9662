"""Position files (formats.md "Positions"): reading, writing, round trips, the schema."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy.cards import JOKER, SUITS, Card, parse_cards
from rummy.end_states import read_end_state, read_end_state_or_draw
from rummy.errors import PositionError
from rummy.plays import Play, is_whole
from rummy.position import Attached, DrawTaken, Player, Position, Replacement, Turn
from rummy.reader import iter_positions
from rummy.rules import OPTION_CHOICES, PRESETS, Ruleset, preset
from rummy.vocabulary import DrawSource
from tests.support.paths import (
    PUZZLE_EXAMPLES,
    SCHEMA_PATH,
    is_after_file,
    load_data,
    puzzle_example_files,
    shared_example_files,
)
from tests.support.positions import hidden_hand, two_players

EXAMPLE_FILES = puzzle_example_files()
SHARED_FILES = shared_example_files()
EXPECTED_EXAMPLES = {
    "house-classic", "house-epic", "rummikub", "rummikub-lenient", "tiles50", "yourturnmyturn", "robber",
    "straight", "traditional",
}
# Draw-phase examples (the mover has not drawn yet): named for it.
DRAW_EXAMPLES = {"house-classic-draw", "house-epic-draw", "house-upcard", "robber-draw", "straight-draw", "traditional-draw"}


def assert_round_trips(position: Position, strict: bool) -> None:
    assert Position.from_toml(position.to_toml(), strict=strict) == position
    assert Position.from_json(position.to_json(), strict=strict) == position
    assert Position.from_data(position.to_data(), strict=strict) == position
    # Writing is stable: what was read back writes the same text again.
    assert Position.from_toml(position.to_toml(), strict=strict).to_toml() == position.to_toml()


# ------------------------------------------------------------ example files
def test_there_is_an_example_for_every_preset() -> None:
    names = {path.stem for path in EXAMPLE_FILES}
    assert names >= EXPECTED_EXAMPLES
    assert names >= DRAW_EXAMPLES
    for name in EXPECTED_EXAMPLES:
        assert Position.from_file(PUZZLE_EXAMPLES / f"{name}.toml").rules.name == name


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_example_positions_read_and_round_trip(path: Path) -> None:
    position = Position.from_file(path)
    assert position.phase == ("draw" if path.stem in DRAW_EXAMPLES else "play")
    assert position.mover.hand
    assert_round_trips(position, strict=True)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_example_positions_account_for_the_whole_deck(path: Path) -> None:
    """Realistic positions: every card of the deck is somewhere (stock given as a count)."""
    position = Position.from_file(path)
    hidden = sum(p.hand_count or 0 for p in position.players)
    assert isinstance(position.stock, int)
    assert len(position.known_cards()) + hidden + position.stock == len(position.rules.deck_cards)


def test_house_classic_example_is_a_puzzle_worth_showing() -> None:
    """The README's first command: melded players, a joker on the table, 2-3 players."""
    position = Position.from_file(PUZZLE_EXAMPLES / "house-classic.toml")
    assert 2 <= len(position.players) <= 3
    assert all(p.melded for p in position.players)
    assert any(c.is_joker for c in position.table_cards())


def test_tile_examples_have_a_real_table_and_rack() -> None:
    for name in ("rummikub", "rummikub-lenient", "yourturnmyturn"):
        position = Position.from_file(PUZZLE_EXAMPLES / f"{name}.toml")
        assert 6 <= len(position.table) <= 10
        assert 10 <= len(position.mover.hand) <= 14


@pytest.mark.parametrize("path", SHARED_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_shared_examples_read_and_round_trip(path: Path) -> None:
    strict = not is_after_file(path)
    position = Position.from_file(path, strict=strict)
    assert_round_trips(position, strict=strict)


def test_shared_examples_are_present(shared_examples: Path) -> None:
    assert list(shared_examples.rglob("*-before.toml")) and list(shared_examples.glob("best/*.toml"))


def test_iter_positions_reads_a_folder() -> None:
    found = list(iter_positions([PUZZLE_EXAMPLES]))
    assert [path.name for path, _ in found] == [path.name for path in EXAMPLE_FILES]


# ------------------------------------------------------------ the schema
@pytest.fixture(scope="module")
def schema() -> dict:
    loaded = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(loaded)
    return loaded


@pytest.mark.parametrize("path", EXAMPLE_FILES + SHARED_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_examples_validate_against_the_schema(path: Path, schema: dict) -> None:
    jsonschema.Draft202012Validator(schema).validate(load_data(path))


def test_schema_knows_every_preset_and_option(schema: dict) -> None:
    rules_table = schema["$defs"]["rules"]["anyOf"][1]["properties"]
    assert set(schema["$defs"]["preset"]["enum"]) == set(PRESETS)
    assert set(rules_table) == {"preset"} | set(preset("house-classic").options())
    for key, choices in OPTION_CHOICES.items():
        assert set(rules_table[key]["enum"]) == set(choices), key


@given(st.data())
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
def test_written_positions_validate_against_the_schema(schema: dict, data: st.DataObject) -> None:
    position = data.draw(positions())
    jsonschema.Draft202012Validator(schema).validate(json.loads(position.to_json()))


@pytest.mark.parametrize(
    "card_text, valid",
    [("7H 8H * 2C", True), ("10S TS A♣ R7 B13 JK Jo *=6H *=R7", True), ("", True), ("7H, 8H", True),
     ("7X", False), ("R14", False), ("*=*", False), ("14H", False)],
)
def test_schema_card_pattern(schema: dict, card_text: str, valid: bool) -> None:
    data = {"rules": "traditional", "to_move": "ann", "players": {"ann": {"hand": card_text}}}
    assert jsonschema.Draft202012Validator(schema).is_valid(data) is valid


# ------------------------------------------------------------ reading details
HOUSE_4P = """
rules = "house-classic"
hand_number = 1
to_move = "ann"
[players.ann]
hand = "7H"
[players.bob]
hand_count = 7
[players.cat]
hand_count = 7
[players.dan]
hand_count = 7
"""


def test_four_house_players_without_sides_play_in_alternating_partnerships() -> None:
    position = Position.from_toml(HOUSE_4P)
    assert [position.side_of(name) for name in ("ann", "bob", "cat", "dan")] == ["A", "B", "A", "B"]


def test_every_player_is_a_side_by_default() -> None:
    position = Position.from_toml(HOUSE_4P.replace("[players.dan]\nhand_count = 7\n", ""))
    assert [p.side for p in position.players] == ["ann", "bob", "cat"]


def test_player_order_is_seating_order() -> None:
    position = Position.from_toml(HOUSE_4P)
    assert [p.name for p in position.players] == ["ann", "bob", "cat", "dan"]


def test_defaults() -> None:
    position = Position.from_toml(HOUSE_4P)
    assert position.phase == "play" and position.first_out is None and position.turn is None
    assert position.discard_pile == () and position.stock is None
    assert not position.player("ann").melded and position.player("bob").hand is None


def test_named_plays_per_kind_of_table() -> None:
    house = Position.from_file(PUZZLE_EXAMPLES / "house-classic.toml")
    assert list(house.named_plays()) == ["ann/1", "bob/1", "bob/2", "cat/1"]
    tiles = Position.from_file(PUZZLE_EXAMPLES / "rummikub.toml")
    assert list(tiles.named_plays())[:2] == ["table/1", "table/2"]
    robber = Position.from_file(PUZZLE_EXAMPLES / "robber.toml")
    assert robber.named_plays()["ann/1"] == Play.from_notation("9S 10S JS QS")


def test_layoffs_attach_to_the_named_play() -> None:
    straight = Position.from_file(PUZZLE_EXAMPLES / "straight.toml")
    assert straight.player("ann").layoffs == (Attached("bob/1", (Card(12, "D"),)),)
    assert Play(straight.play_with_layoffs("bob/1")) == Play.from_notation("9D 10D JD QD")
    assert Card(12, "D") in straight.table_cards()


def test_fixed_joker_stand_in_is_kept() -> None:
    position = Position.from_file(PUZZLE_EXAMPLES / "rummikub-fixed-joker.toml")
    (joker,) = [c for c in position.table[0].cards if c.is_joker]
    assert joker.stands_for == Card(7, "H")
    assert "*=R7" in position.to_toml()


def test_output_uses_the_rulesets_notation() -> None:
    tiles = Position.from_toml('rules = "rummikub-lenient"\nto_move = "a"\ntable = ["7H 8H 9H"]\n[players.a]\nhand = "AS"\n')
    assert tiles.to_data()["table"] == ["R7 R8 R9"] and tiles.to_data()["players"]["a"]["hand"] == "K1"
    cards = Position.from_toml('rules = "traditional"\nto_move = "a"\n[players.a]\nhand = "K1 R10"\n[players.b]\nhand_count = 3\n')
    assert cards.to_data()["players"]["a"]["hand"] == "AS 10H"


def test_written_runs_are_in_rank_order() -> None:
    position = Position.from_toml(
        'rules = "house-epic"\nhand_number = 1\nto_move = "a"\n[players.a]\nhand = ""\nspace = ["2H KH AH", "6C * 4C"]\n'
        '[players.b]\nhand_count = 3\n'
    )
    assert position.to_data()["players"]["a"]["space"] == ["KH AH 2H", "4C * 6C"]


def test_rules_table_with_overrides_round_trips() -> None:
    text = (
        'to_move = "a"\n[rules]\npreset = "traditional"\nplays_per_turn = "none"\nace = "high_or_low"\n'
        '[players.a]\nhand = "AS"\n[players.b]\nhand_count = 3\n'
    )
    position = Position.from_toml(text)
    assert position.rules.plays_per_turn is None and position.rules.ace == "high_or_low"
    assert position.to_data()["rules"] == {"preset": "traditional", "ace": "high_or_low", "plays_per_turn": "none"}
    assert_round_trips(position, strict=True)


def test_turn_declarations_read_and_write() -> None:
    text = (
        'rules = "house-classic"\nhand_number = 1\nto_move = "a"\n[players.a]\nmelded = true\nhand = ""\n'
        'space = ["9C 10C JC", "5H 6H 7H"]\n[players.b]\nhand_count = 3\nspace = ["8S 9S 10S"]\n'
        '[turn]\nmeld = ["9C 10C JC"]\nreplaced = ["b/1 8S"]\ndiscard = ""\n'
    )
    position = Position.from_toml(text, strict=False)
    turn = position.turn
    assert turn is not None
    assert turn.meld == (Play.from_notation("9C 10C JC"),)
    assert turn.replaced == (Replacement("b/1", Card(8, "S")),)
    assert turn.discard is None and turn.discard_declared
    assert_round_trips(position, strict=False)
    undeclared = Position.from_toml(text.replace('discard = ""\n', ""), strict=False).turn
    assert undeclared is not None and not undeclared.discard_declared


def test_explicitly_empty_meld_differs_from_an_absent_one() -> None:
    base = 'rules = "house-classic"\nhand_number = 1\nto_move = "a"\n[players.a]\nhand = "2C"\n[players.b]\nhand_count = 3\n'
    empty = Position.from_toml(base + "[turn]\nmeld = []\n").turn
    absent = Position.from_toml(base + '[turn]\ndiscard = "2C"\n').turn
    assert empty is not None and empty.meld == ()
    assert absent is not None and absent.meld is None and absent.discard == Card(2, "C")


def test_json_and_toml_read_the_same_position(tmp_path: Path) -> None:
    original = Position.from_file(PUZZLE_EXAMPLES / "straight.toml")
    as_json = tmp_path / "straight.json"
    original.save(as_json)
    assert Position.from_file(as_json) == original
    as_toml = tmp_path / "straight.toml"
    original.save(as_toml)
    assert Position.from_file(as_toml) == original


def test_after_positions_may_hold_broken_plays_only_when_not_strict() -> None:
    text = (
        'rules = "house-classic"\nhand_number = 1\nto_move = "a"\n[players.a]\nhand = ""\nspace = ["5S 6S 8S"]\n'
        '[players.b]\nhand_count = 3\n'
    )
    with pytest.raises(PositionError, match=r"players\.a\.space"):
        Position.from_toml(text)
    assert Position.from_toml(text, strict=False).player("a").plays == (Play.from_notation("5S 6S 8S"),)


def test_cards_may_be_given_as_a_list() -> None:
    position = Position.from_toml('rules = "rummikub"\nto_move = "a"\n[players.a]\nhand = ["R1", "B2", "*"]\n')
    assert position.mover.hand == parse_cards("R1 B2 *")


# ------------------------------------------------------------ generated positions
NAMES = ["ann", "bob", "cat", "dan", "eve", "zoë", "Player_7"]
HARMLESS_OPTIONS: dict[str, st.SearchStrategy] = {
    "layoff_needs_meld": st.booleans(),
    "max_cards_per_turn": st.none() | st.integers(1, 20),
    "plays_per_turn": st.none() | st.integers(1, 4),
    "ace_points": st.sampled_from([1, 15, 25]),
    "joker_points": st.sampled_from([15, 25, 30]),
    "going_rummy": st.sampled_from(["none", "double", "bonus10"]),
    "target": st.sampled_from(["winner_collects", "penalty_points"]),
    "initial_meld": st.integers(1, 60) | st.lists(st.integers(1, 30), min_size=1, max_size=6),
}

# Turn limits refused outside the families that apply them (rummy.rules).
ONLY_IN = {"max_cards_per_turn": ("tile",), "plays_per_turn": ("layoff",), "layoff_needs_meld": ("layoff",)}


@st.composite
def rulesets(draw: st.DrawFn) -> Ruleset:
    base = preset(draw(st.sampled_from(sorted(PRESETS))))
    keys = draw(st.lists(st.sampled_from(sorted(HARMLESS_OPTIONS)), max_size=2, unique=True))
    keys = [key for key in keys if base.family in ONLY_IN.get(key, (base.family,))]
    return base.with_options({key: draw(HARMLESS_OPTIONS[key]) for key in keys})


@st.composite
def card_groups(draw: st.DrawFn, rules: Ruleset) -> list[Card]:
    """The cards of a whole play, in play order (runs low to high)."""
    if draw(st.booleans()):
        suit = draw(st.sampled_from(SUITS))
        length = draw(st.integers(rules.run_min, min(rules.run_max, rules.run_min + 4)))
        last_start = {"low": 14 - length, "high_or_low": 15 - length, "circular": 13}[rules.ace]
        start = draw(st.integers(1, last_start))
        return [Card((start + i - 1) % 13 + 1, suit) for i in range(length)]
    rank = draw(st.integers(1, 13))
    pool = list(SUITS) if rules.book_distinct_suits else [s for s in SUITS for _ in range(rules.copies)]
    size = draw(st.integers(rules.book_min, min(rules.book_max, len(pool))))
    return [Card(rank, suit) for suit in draw(st.permutations(pool))[:size]]


def take(available: Counter, cards: list[Card]) -> bool:
    """Remove ``cards`` (jokers as plain jokers) from the deck if all are there."""
    need = Counter(c.plain() for c in cards)
    if any(available[card] < n for card, n in need.items()):
        return False
    available.subtract(need)
    return True


def with_jokers(draw: st.DrawFn, cards: list[Card], rules: Ruleset, available: Counter) -> list[Card]:
    """Some cards of a play turned into jokers that stand for them, while jokers last."""
    result = list(cards)
    for index in range(len(result)):
        naturals_left = sum(not c.is_joker for c in result)
        if naturals_left > 1 and available[Card.joker()] > 0 and draw(st.integers(0, 4)) == 0:
            available[Card.joker()] -= 1
            available[result[index]] += 1
            # A fixed joker carries its card, so the position never has to guess it.
            result[index] = Card.joker(result[index] if rules.joker_mode == "fixed" else None)
    return result


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A consistent position: plays whole by construction, cards dealt from one deck."""
    rules = draw(rulesets())
    available = Counter(rules.deck_cards)
    family = rules.family
    player_count = draw(st.integers(2, 4))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=player_count, max_size=player_count, unique=True))
    mover = draw(st.sampled_from(names))

    plays_of: dict[str, list[Play]] = {name: [] for name in names}
    layoffs_of: dict[str, list[Attached]] = {name: [] for name in names}
    table: list[Play] = []
    for _ in range(draw(st.integers(0, 6))):
        cards = draw(card_groups(rules))
        if not take(available, cards):
            continue
        owner = draw(st.sampled_from(names))
        if family == "layoff" and len(cards) >= 4 and draw(st.booleans()):
            # Split off the top of a run (or a fourth suit) as another player's lay-off.
            layer = draw(st.sampled_from(names))
            base, laid = cards[:3], cards[3:]
            target = f"{owner}/{len(plays_of[owner]) + 1}"
            plays_of[owner].append(Play(tuple(base)))
            layoffs_of[layer].append(Attached(target, tuple(laid)))
            continue
        play = Play(tuple(with_jokers(draw, cards, rules, available)))
        assert is_whole(play.cards, rules)
        if rules.table == "shared":
            table.append(play)
        else:
            plays_of[owner].append(play)

    shuffler = draw(st.randoms(use_true_random=False))

    def deal(count: int) -> tuple[Card, ...]:
        pool = sorted(available.elements())
        chosen = tuple(shuffler.sample(pool, min(count, len(pool))))
        available.subtract(Counter(chosen))
        return chosen

    house_four = family == "house" and player_count == 4
    players = []
    for i, name in enumerate(names):
        hand = deal(draw(st.integers(0 if name != mover else 1, 9)))
        known = name == mover or draw(st.booleans())
        hot = warm = ()
        if known:
            chosen = draw(st.lists(st.sampled_from(range(len(hand))), unique=True, max_size=3)) if hand else []
            split = draw(st.integers(0, len(chosen)))
            hot = tuple(hand[j] for j in chosen[:split])
            warm = tuple(hand[j] for j in chosen[split:])
        side = ("A" if i % 2 == 0 else "B") if house_four else draw(st.sampled_from([name, "A", "B"]))
        players.append(
            Player(
                name=name, side=side, melded=draw(st.booleans()),
                hand=hand if known else None, hand_count=None if known else len(hand),
                hot=hot, warm=warm, plays=tuple(plays_of[name]), layoffs=tuple(layoffs_of[name]),
            )
        )

    discard = deal(draw(st.integers(0, 4)))
    stock_kind = draw(st.sampled_from(["none", "count", "cards"]))
    remaining = sum(available.values())
    stock: int | tuple[Card, ...] | None = None
    if stock_kind == "count":
        stock = draw(st.integers(0, remaining))
    elif stock_kind == "cards":
        stock = deal(draw(st.integers(0, 5)))

    turn = None
    if draw(st.booleans()):
        all_plays = [p for plays in plays_of.values() for p in plays] + table
        meld = tuple(draw(st.lists(st.sampled_from(all_plays), max_size=2))) if all_plays and draw(st.booleans()) else None
        replaced = None
        if draw(st.booleans()):
            replaced = tuple(
                Replacement(f"{draw(st.sampled_from(names))}/{draw(st.integers(1, 3))}", Card(draw(st.integers(1, 13)), draw(st.sampled_from(SUITS))))
                for _ in range(draw(st.integers(0, 2)))
            )
        discard_declared = draw(st.booleans())
        turn_discard = Card(draw(st.integers(1, 13)), draw(st.sampled_from(SUITS))) if discard_declared and draw(st.booleans()) else None
        turn = Turn(meld=meld, replaced=replaced, discard=turn_discard, discard_declared=discard_declared)

    return Position(
        rules=rules,
        players=tuple(players),
        to_move=mover,
        phase=draw(st.sampled_from(["play", "draw"])),
        hand_number=draw(st.integers(1, 6)) if family == "house" else draw(st.none() | st.integers(1, 9)),
        first_out=draw(st.none() | st.sampled_from(names)),
        table=tuple(table),
        discard_pile=discard,
        stock=stock,
        turn=turn,
    )


@given(positions())
@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
def test_generated_positions_round_trip_through_toml_and_json(position: Position) -> None:
    assert_round_trips(position, strict=True)


@given(positions())
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
def test_generated_positions_keep_every_card(position: Position) -> None:
    back = Position.from_toml(position.to_toml())
    assert Counter(c.plain() for c in back.known_cards()) == Counter(c.plain() for c in position.known_cards())
    assert sorted(back.named_plays()) == sorted(position.named_plays())


def test_table_key_ignores_the_order_of_plays_and_cards_on_a_shared_table():
    text = 'rules = "rummikub-lenient"\nto_move = "ann"\ntable = [{plays}]\n[players.ann]\nmelded = true\nhand = "R1"\n'
    one = Position.from_toml(text.format(plays='"R3 R4 R5", "K7 B7 O7"'))
    other = Position.from_toml(text.format(plays='"O7 K7 B7", "R3 R4 R5"'))
    moved = Position.from_toml(text.format(plays='"R3 R4 R5 R6", "K7 B7 O7"'))
    assert one.table_key() == other.table_key() != moved.table_key()


# ------------------------------------------------------------- unseen cards
def test_unseen_cards_are_the_deck_less_every_card_shown() -> None:
    position = hidden_hand("house-epic")
    unseen = position.unseen_cards()
    assert sum(unseen.values()) == 54 - 9
    assert unseen[JOKER] == 1
    assert unseen[Card(13, "S")] == 0 and unseen[Card(13, "H")] == 1


def test_unseen_cards_count_the_copies_of_two_packs() -> None:
    position = two_players("robber", {"hand": "7H"}, {"hand_count": 3, "plays": ["7H 7S 7D"]})
    unseen = position.unseen_cards()
    assert unseen[Card(7, "H")] == 0 and unseen[Card(7, "S")] == 1 and unseen[Card(7, "C")] == 2
    assert sum(unseen.values()) == 104 - 4


# ------------------------------------------------------------- after positions read from a file or an answer
def test_a_random_draw_is_read_as_the_draw_alone_only_when_asked(tmp_path) -> None:
    answer = tmp_path / "answer.json"
    draw = {"action": "draw", "from": "stock"}
    answer.write_text(json.dumps({"status": "optimal", "after": None, "draw": draw}) + "\n")
    assert read_end_state_or_draw(answer, random_draw=True) == (None, DrawTaken(DrawSource.STOCK))
    with pytest.raises(PositionError, match="no after position"):
        read_end_state(answer)


def test_an_after_position_is_read_from_a_best_answer_or_a_file(tmp_path) -> None:
    position = hidden_hand("house-epic")
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"status": "optimal", "after": position.to_data()}) + "\n")
    plain = tmp_path / "after.toml"
    plain.write_text(position.to_toml())
    assert read_end_state(answer) == position == read_end_state(plain)
    assert read_end_state_or_draw(plain, random_draw=True) == (position, None)
