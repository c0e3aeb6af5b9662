"""Pictures (rummy.svg): every card drawn once per place with its notation, plan marks, ``--svg`` at the command line."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.answer import best
from rummy.position import Position
from rummy.svg import LEAVES_WORDS, MARKS, plan_svg, position_svg
from rummy.vocabulary import Action
from tests.support.cli import run_cli
from tests.support.paths import PUZZLE_EXAMPLES
from tests.support.pictures import NS, expected_places, places, words_of
from tests.support.random_positions import random_house, random_tiles

HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
TILES = PUZZLE_EXAMPLES / "rummikub.toml"



def assert_lists_every_card(position: Position) -> None:
    drawn = places(ET.fromstring(position_svg(position)))
    for place, cards in expected_places(position).items():
        assert Counter(drawn.get(place, [])) == cards, place
    cards_drawn = sum(len(cards) for cards in drawn.values())
    assert cards_drawn == sum(sum(c.values()) for c in expected_places(position).values())


@pytest.mark.parametrize("path", sorted(PUZZLE_EXAMPLES.glob("*.toml")), ids=lambda p: p.stem)
def test_every_example_lists_every_card_once_per_place(path: Path) -> None:
    assert_lists_every_card(Position.from_file(path))


def test_position_names_the_mover_phase_and_scores() -> None:
    svg = position_svg(Position.from_file(HOUSE))
    root = ET.fromstring(svg)
    words = words_of(root)
    assert "to move: ann (play phase)" in words
    assert "space total: 35 points" in words  # bob's space
    assert "23 cards" in words
    hot = [g for g in root.iter(f"{NS}g") if g.get("data-card") == "2H"
           and any(r.get("stroke") == "#d32f2f" for r in g.iter(f"{NS}rect"))]
    assert len(hot) == 1


def test_tile_joker_shows_what_it_stands_for() -> None:
    root = ET.fromstring(position_svg(Position.from_file(TILES)))
    assert places(root)["table/6"] == ["B11", "B12", "*=B13"]
    joker = next(g for g in root.iter(f"{NS}g") if g.get("data-card") == "*=B13")
    assert "=B13" in [t.text for t in joker.iter(f"{NS}text")]


def expected_marks(answer) -> Counter[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """From the steps alone: (after play, card) for every card the plan put somewhere, and how."""
    plan, after = answer.plan, answer.solution.after
    back = {plan_name: after_name for after_name, plan_name in plan.names.items()}
    kinds = {Action.PLAY: "played", Action.MELD: "played", Action.LAY_OFF: "played", Action.MOVE: "moved",
             Action.STEAL: "stolen", Action.REPLACE_JOKER: "joker"}
    marks: Counter[tuple[str, str]] = Counter()
    for step in plan.steps:
        if step.action == Action.DISCARD:
            continue
        for card in step.cards:
            marks[(back[step.target], card.notation(after.rules.deck), kinds[step.action])] += 1
    return marks


def card_attributes(svg: str, section: str, attribute: str) -> Counter[tuple[str, str, str]]:
    """(place, card, attribute) for every card of a plan picture's section that has the attribute."""
    root = ET.fromstring(svg)
    drawn = next(g for g in root.iter(f"{NS}g") if g.get("data-section") == section)
    found: Counter[tuple[str, str, str]] = Counter()
    for group in drawn.iter(f"{NS}g"):
        place = group.get("data-place")
        for card in group.iter(f"{NS}g") if place else ():
            if card.get(attribute):
                found[(place, card.get("data-card") or "", card.get(attribute) or "")] += 1
    return found


def drawn_marks(svg: str) -> Counter[tuple[str, str, str]]:
    return card_attributes(svg, "after", "data-mark")


def test_plan_marks_are_the_cards_the_plan_played_and_stole() -> None:
    answer = best(Position.from_file(HOUSE))
    assert answer.plan is not None
    svg = plan_svg(answer)
    assert drawn_marks(svg) == expected_marks(answer)
    kinds = {mark for _, _, mark in drawn_marks(svg)}
    assert {"played", "stolen"} <= kinds
    root = ET.fromstring(svg)
    steps = next(g for g in root.iter(f"{NS}g") if g.get("data-section") == "steps")
    lines = ["".join(t.itertext()) for t in steps.iter(f"{NS}text")]
    assert any("steal * (joker as a 2) from cat/1" in line for line in lines)
    assert sum(1 for line in lines if line.strip()[:2].rstrip(".").isdigit()) == len(answer.plan.steps)
    # the before-table lists the position's plays and the mover's hand, each card once
    before = next(g for g in root.iter(f"{NS}g") if g.get("data-section") == "before")
    assert Counter(places(before)["hand:ann"]) == Counter(["9D", "8H", "9H", "2C", "2H", "KS"])


@pytest.mark.parametrize("seed", range(6))
def test_plan_marks_on_random_positions(seed: int) -> None:
    position = random_house(seed, max_table_plays=3)
    answer = best(position)
    if answer.plan is None:
        return
    assert drawn_marks(plan_svg(answer)) == expected_marks(answer)


@pytest.mark.parametrize("name", ["house-classic-draw.toml", "rummikub.toml", "robber.toml", "traditional.toml"])
def test_plan_pictures_of_other_families_parse(name: str) -> None:
    answer = best(Position.from_file(PUZZLE_EXAMPLES / name))
    root = ET.fromstring(plan_svg(answer))
    assert root.tag == f"{NS}svg"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), tiles=st.booleans())
def test_position_svg_never_raises_and_lists_every_card(seed: int, tiles: bool) -> None:
    position = random_tiles(seed) if tiles else random_house(seed)
    assert_lists_every_card(position)


# ------------------------------------------------------------------ command line
def test_cli_show_and_best_write_the_picture(tmp_path: Path) -> None:
    target = tmp_path / "show.svg"
    result = run_cli("show", HOUSE, "--svg", target)
    assert result.returncode == 0, result.stderr
    assert f"written to {target}" in result.stderr
    assert ET.parse(target).getroot().tag == f"{NS}svg"
    target = tmp_path / "best.svg"
    result = run_cli("best", HOUSE, "--svg", target)
    assert result.returncode == 0, result.stderr
    assert any(g.get("data-section") == "after" for g in ET.parse(target).getroot().iter(f"{NS}g"))


def test_cli_refuses_bad_svg_paths(tmp_path: Path) -> None:
    link = tmp_path / "link.svg"
    aim = tmp_path / "aim.svg"
    aim.write_text("keep")
    link.symlink_to(aim)
    copy = tmp_path / "input.toml"
    copy.write_text(HOUSE.read_text())
    for command in ("show", "best"):
        for bad in (tmp_path, link, copy):
            result = run_cli(command, copy, "--svg", bad)
            assert result.returncode == 2, (command, bad, result.stderr)
            assert len(result.stderr.strip().splitlines()) == 1
    assert aim.read_text() == "keep"
    assert copy.read_text() == HOUSE.read_text()


def test_cli_best_refuses_svg_with_several_positions(tmp_path: Path) -> None:
    result = run_cli("best", HOUSE, TILES, "--svg", tmp_path / "x.svg")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["rummy: --svg draws one position; 2 positions were given"]
    assert not (tmp_path / "x.svg").exists()


# ------------------------------------------------------------- before the turn
def expected_departures(answer) -> Counter[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    """From the steps alone: (before play, plain card, how it leaves) for every card the plan takes from its play."""
    plan = answer.plan
    draw = answer.solution.draw
    start = draw.start if draw is not None and draw.start is not None else answer.position
    deck = start.rules.deck
    plays = start.named_plays()
    leaving: Counter[tuple[str, str, str]] = Counter()
    for step in plan.steps:
        if step.action == Action.REPLACE_JOKER:
            leaving[(step.target, "*", "joker")] += 1
        elif step.source not in plays or (step.action == Action.STEAL and step.paid_by is None):
            continue
        elif step.action in (Action.MOVE, Action.STEAL):
            kind = "moved" if step.action == Action.MOVE else "stolen"
            leaving.update((step.source, c.plain().notation(deck), kind) for c in step.cards)
    return leaving


def drawn_departures(svg: str) -> Counter[tuple[str, str, str]]:
    """The before-table's leaving cards, a joker by its plain notation (``*=6H`` is ``*``)."""
    leaving: Counter[tuple[str, str, str]] = Counter()
    for (place, card, how), count in card_attributes(svg, "before", "data-leaves").items():
        leaving[(place, card.split("=")[0], how)] += count
    return leaving


@pytest.mark.parametrize("name", ["house-classic.toml", "robber.toml", "house-epic.toml", "rummikub-lenient.toml"])
def test_the_before_table_marks_the_cards_that_leave_their_play(name: str) -> None:
    answer = best(Position.from_file(PUZZLE_EXAMPLES / name))
    assert answer.plan is not None
    svg = plan_svg(answer)
    assert drawn_departures(svg) == expected_departures(answer)
    if name == "house-classic.toml":
        assert drawn_departures(svg) == Counter({("bob/1", "7H", "stolen"): 1, ("cat/1", "*", "stolen"): 1})
        assert "leaves this play" in words_of(ET.fromstring(svg))


def test_the_legend_shows_only_the_marks_the_picture_uses() -> None:
    """House: cards played and stolen, some leaving their play; Robber: a stolen play keeps its cards, so
    nothing is marked as leaving, and no legend line says so."""
    legend = {words for _, _, words in MARKS.values()}
    answer = best(Position.from_file(PUZZLE_EXAMPLES / "house-classic.toml"))
    said = words_of(ET.fromstring(plan_svg(answer)))
    assert {w for w in legend if w in said} == {MARKS["played"][2], MARKS["stolen"][2]}
    assert LEAVES_WORDS in said
    assert "space totals: ann 10, bob 35, cat 15 points" in said  # before the turn, as 'rummy show' adds them
    answer = best(Position.from_file(PUZZLE_EXAMPLES / "robber.toml"))
    svg = plan_svg(answer)
    said = words_of(ET.fromstring(svg))
    assert drawn_departures(svg) == Counter()
    assert LEAVES_WORDS not in said and "marks on the table before the turn" not in said
    assert {w for w in legend if w in said} == {MARKS["played"][2], MARKS["stolen"][2]}


@pytest.mark.parametrize("seed", range(6))
def test_before_marks_on_random_positions(seed: int) -> None:
    answer = best(random_house(seed, max_table_plays=3))
    if answer.plan is not None:
        assert drawn_departures(plan_svg(answer)) == expected_departures(answer)


def test_a_position_picture_names_the_rules_it_changes() -> None:
    """The picture's header says what ``rummy show`` says of the rules: their changes to the preset too."""
    from dataclasses import replace

    from rummy.reports.position import header_lines

    position = Position.from_file(HOUSE)
    changed = replace(position, rules=position.rules.with_options({"joker_points": 25}))
    words = words_of(ET.fromstring(position_svg(changed)))
    assert "with joker_points = 25" in words
    assert "with joker_points = 25" in str(header_lines(changed)[0])
    assert "with " not in words_of(ET.fromstring(position_svg(position)))
