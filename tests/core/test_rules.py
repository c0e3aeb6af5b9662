"""Rulesets (rules.md §2): presets, overrides, refused combinations, printing."""

from __future__ import annotations

import dataclasses
import tomllib
from typing import Any

import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from rummy.cards import Card, rank_at
from rummy.errors import RulesError
from rummy.plays import is_whole
from rummy.rules import OPTION_CHOICES, PRESETS, Ruleset, preset, ruleset_from_spec, ruleset_to_spec

PRESET_NAMES = sorted(PRESETS)
EXPECTED_PRESETS = {
    "house-classic", "house-epic", "rummikub", "rummikub-lenient", "tiles50", "yourturnmyturn",
    "robber", "straight", "traditional",
}


def test_the_nine_presets_exist() -> None:
    assert set(PRESETS) == EXPECTED_PRESETS


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_is_found_by_name(name: str) -> None:
    rules = preset(name)
    assert rules.name == name
    assert ruleset_from_spec(name) == rules
    assert ruleset_from_spec({"preset": name}) == rules
    assert ruleset_to_spec(rules) == name
    assert rules.overrides() == {}
    assert repr(rules) == f"preset({name!r})"


def test_unknown_preset_is_refused_with_the_known_names() -> None:
    with pytest.raises(RulesError, match="house-fancy") as info:
        preset("house-fancy")
    assert "house-classic" in str(info.value)
    with pytest.raises(RulesError):
        ruleset_from_spec({"preset": "house-fancy"})


@pytest.mark.parametrize("spec", [{"ace": "low"}, {"preset": 3}, 7, ["house-classic"], None])
def test_malformed_rules_specs_are_refused(spec: Any) -> None:
    with pytest.raises(RulesError):
        ruleset_from_spec(spec)


def test_preset_options_follow_the_rules_page() -> None:
    house = preset("house-classic")
    assert (house.copies, house.jokers, house.book_min, house.book_max) == (1, 2, 3, 4)
    assert house.ace == "circular" and house.table == "spaces" and house.joker_mode == "flexible"
    assert [house.meld_threshold(hand) for hand in range(1, 7)] == [10, 10, 15, 15, 20, 20]
    assert house.first_out_bonus == "fixed" and house.hand_penalty_at_end
    epic = preset("house-epic")
    assert epic.first_out_bonus == "hands" and not epic.hand_penalty_at_end
    assert epic.demand and epic.middle_discards_warm and not (house.demand or house.middle_discards_warm)

    for name in ("rummikub", "rummikub-lenient", "tiles50", "yourturnmyturn"):
        tiles = preset(name)
        assert len(tiles.deck_cards) == 106 and tiles.ace == "low" and tiles.table == "shared"
        assert not tiles.discard and tiles.deck == "tiles"
    assert preset("rummikub").joker_mode == "fixed" and preset("rummikub").joker_locks_play
    assert preset("rummikub-lenient").joker_mode == "flexible"
    assert preset("tiles50").meld_threshold() == 50 and preset("tiles50").freed_joker_new_play_only
    ytmt = preset("yourturnmyturn")
    assert ytmt.max_cards_per_turn == 12 and ytmt.initial_meld_joker == "zero" and ytmt.joker_points == 25

    robber = preset("robber")
    assert len(robber.deck_cards) == 104 and robber.book_max == 8 and not robber.book_distinct_suits
    assert robber.ace == "high_or_low" and robber.rearrange == "extend_only" and robber.run_max == 14

    assert preset("straight").ace == "high_or_low" and preset("straight").queen_of_spades_points == 45
    assert preset("traditional").ace == "low" and preset("traditional").plays_per_turn == 1
    assert len(preset("straight").deck_cards) == 52


def test_overrides_through_a_rules_table() -> None:
    rules = ruleset_from_spec({"preset": "traditional", "ace": "high_or_low", "ace_points": 15, "plays_per_turn": "none"})
    assert rules.name == "traditional"
    assert rules.ace == "high_or_low" and rules.ace_points == 15 and rules.plays_per_turn is None
    assert rules.overrides() == {"ace": "high_or_low", "ace_points": 15, "plays_per_turn": None}
    assert ruleset_from_spec(ruleset_to_spec(rules)) == rules


def test_initial_meld_override_accepts_a_number_or_a_list() -> None:
    assert preset("rummikub").with_options({"initial_meld": 40}).meld_threshold() == 40
    house = preset("house-epic").with_options({"initial_meld": [5, 10, 15, 20, 25, 30]})
    assert house.meld_threshold(6) == 30
    assert preset("rummikub").with_options({"initial_meld": "none"}).meld_threshold() == 0


@pytest.mark.parametrize(
    "name, changes, mentions",
    [
        ("house-classic", {"book_min": 5}, "book_min"),
        ("house-classic", {"book_max": 5}, "book_max"),
        ("rummikub", {"book_max": 5}, "book_max"),
        ("robber", {"book_max": 9}, "book_max"),
        ("rummikub-lenient", {"joker_replace_from_hand": True}, "joker_replace_from_hand"),
        ("house-epic", {"joker_locks_play": True}, "joker_locks_play"),
        ("house-classic", {"joker_mode": "fixed"}, "joker_mode"),
        ("house-classic", {"colour": "red"}, "colour"),
        ("house-classic", {"name": "other"}, "name"),
        ("house-classic", {"family": "tile"}, "family"),
        ("house-classic", {"copies": "two"}, "copies"),
        ("house-classic", {"copies": 3}, "copies"),
        ("house-classic", {"jokers": 1}, "jokers"),
        ("house-classic", {"ace": "sideways"}, "ace"),
        ("house-classic", {"ace": 1}, "ace"),
        ("house-classic", {"book_distinct_suits": "yes"}, "book_distinct_suits"),
        ("house-classic", {"book_distinct_suits": 1}, "book_distinct_suits"),
        ("house-classic", {"run_min": True}, "run_min"),
        ("house-classic", {"run_min": 14}, "run_min"),
        ("house-classic", {"run_min": 1}, "run_min"),
        ("house-classic", {"table": "shared"}, "table"),
        ("house-classic", {"initial_meld": "none"}, "initial_meld"),
        ("house-classic", {"initial_meld": True}, "initial_meld"),
        ("house-classic", {"initial_meld": [10, "x"]}, "initial_meld"),
        ("rummikub", {"initial_meld": -5}, "initial_meld"),
        ("straight", {"plays_per_turn": 0}, "plays_per_turn"),
        ("straight", {"max_cards_per_turn": 2.5}, "max_cards_per_turn"),
        ("rummikub", {"keep_one_to_discard": True}, "keep_one_to_discard"),
    ],
)
def test_impossible_or_malformed_options_are_refused(name: str, changes: dict, mentions: str) -> None:
    with pytest.raises(RulesError, match=mentions):
        preset(name).with_options(changes)
    with pytest.raises(RulesError):
        ruleset_from_spec({"preset": name, **changes})


def test_repr_shows_preset_and_overrides() -> None:
    rules = preset("straight").with_options({"plays_per_turn": None, "layoff_needs_meld": True})
    text = repr(rules)
    assert "straight" in text and "plays_per_turn" in text and "layoff_needs_meld" in text
    assert eval(text, {"preset": preset}) == rules


def test_rulesets_are_values() -> None:
    a = preset("robber").with_options({"target": "penalty_points"})
    b = preset("robber").with_options({"target": "penalty_points"})
    assert a == b and hash(a) == hash(b)
    assert a != preset("robber")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.copies = 1  # type: ignore[misc]


# Options that make sense to change in any preset, with values to try; invalid
# combinations are fine to draw, because refusing them is part of the contract.
OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    **{key: st.sampled_from(choices) for key, choices in OPTION_CHOICES.items() if key not in ("deck", "table")},
    "book_min": st.integers(2, 9),
    "book_max": st.integers(2, 9),
    "run_min": st.integers(2, 15),
    "book_distinct_suits": st.booleans(),
    "joker_replace_from_hand": st.booleans(),
    "joker_locks_play": st.booleans(),
    "freed_joker_new_play_only": st.booleans(),
    "layoff_needs_meld": st.booleans(),
    "keep_one_to_discard": st.booleans(),
    "discard": st.booleans(),
    "hand_penalty_at_end": st.booleans(),
    "demand": st.booleans(),
    "middle_discards_warm": st.booleans(),
    "initial_meld": st.none() | st.just("none") | st.integers(0, 60) | st.lists(st.integers(0, 60), min_size=1, max_size=6),
    "max_cards_per_turn": st.none() | st.just("none") | st.integers(1, 20),
    "plays_per_turn": st.none() | st.just("none") | st.integers(1, 5),
    "ace_points": st.sampled_from([1, 15, 25]),
    "joker_points": st.sampled_from([15, 25, 30]),
    "queen_of_spades_points": st.sampled_from([10, 45]),
}


@st.composite
def option_changes(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(PRESET_NAMES))
    keys = draw(st.lists(st.sampled_from(sorted(OPTION_VALUES)), max_size=4, unique=True))
    return name, {key: draw(OPTION_VALUES[key]) for key in keys}


def test_every_option_has_a_value_strategy() -> None:
    assert set(OPTION_VALUES) | {"deck", "table"} == set(preset("house-classic").options())


@given(option_changes())
def test_overridden_rulesets_round_trip_or_are_refused(case: tuple[str, dict[str, Any]]) -> None:
    name, changes = case
    try:
        rules = preset(name).with_options(changes)
    except RulesError:
        return
    spec = ruleset_to_spec(rules)
    assert ruleset_from_spec(spec) == rules
    # The spec must survive a trip through TOML, as it does inside a position file.
    assert ruleset_from_spec(tomllib.loads(tomli_w.dumps({"rules": spec}))["rules"]) == rules
    assert eval(repr(rules), {"preset": preset}) == rules
    assert isinstance(rules, Ruleset) and rules.name == name


# ------------------------------------------------------------- run windows
def test_ace_low_windows_run_from_the_ace_to_the_king() -> None:
    windows = preset("traditional").run_windows(3)
    assert windows[0] == (1, 2, 3) and windows[-1] == (11, 12, 13)
    assert len(windows) == 11


def test_an_ace_high_window_ends_at_position_14() -> None:
    windows = preset("straight").run_windows(3)
    assert windows[-1] == (12, 13, 14)
    assert [rank_at(p) for p in windows[-1]] == [12, 13, 1]


def test_circular_windows_turn_the_corner_and_the_full_circle_is_listed_once() -> None:
    house = preset("house-classic")
    assert (12, 13, 14) in house.run_windows(3) and (13, 14, 15) in house.run_windows(3)
    assert len(house.run_windows(3)) == 13
    assert house.run_windows(13) == (tuple(range(1, 14)),)


def test_two_packs_with_aces_high_or_low_make_one_window_of_14() -> None:
    assert preset("robber").run_windows(14) == (tuple(range(1, 15)),)
    assert preset("traditional").run_windows(14) == ()


def test_every_run_window_reads_as_a_whole_run() -> None:
    for name in ("traditional", "straight", "house-classic", "rummikub"):
        rules = preset(name)
        for window in rules.run_windows(rules.run_min):
            assert is_whole(tuple(Card(rank_at(p), "H") for p in window), rules), (name, window)


# ------------------------------------------------------------ every option belongs to families
def test_every_option_is_attributed_to_families() -> None:
    from rummy.family import FAMILIES
    from rummy.rules import ALL_FAMILIES, OPTION_FAMILIES, PRESETS

    assert set(ALL_FAMILIES) == {str(family) for family in FAMILIES}
    for ruleset in PRESETS.values():
        assert set(OPTION_FAMILIES) == set(ruleset.options())
    assert all(set(families) <= set(ALL_FAMILIES) and families for families in OPTION_FAMILIES.values())
