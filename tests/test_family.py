"""The family records: found by name, asked for behaviour, and the only place that tells families apart."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from dataclasses import replace

import pytest

from conftest import REPO_ROOT
from rummy.cards import parse_cards
from rummy.errors import RulesError
from rummy.family import FAMILIES, HOUSE, LAYOFF, ROBBER, TILE, Family, family_named
from rummy.rules import PRESETS, preset


def test_every_family_is_found_by_its_name_and_is_that_name() -> None:
    for name, family in FAMILIES.items():
        assert family_named(name) is family
        assert family == name and str(family) == name
        assert isinstance(family, Family)


def test_an_unknown_family_is_refused_naming_it() -> None:
    with pytest.raises(RulesError, match="'poker'"):
        family_named("poker")


def test_a_ruleset_given_a_family_name_holds_the_record() -> None:
    rules = replace(preset("rummikub-lenient"), family="tile")
    assert rules.family is TILE


def test_a_family_survives_pickling_as_the_same_record() -> None:
    for rules in PRESETS.values():
        assert pickle.loads(pickle.dumps(rules)).family is rules.family


def test_every_preset_plays_on_its_familys_table() -> None:
    for rules in PRESETS.values():
        assert rules.table == rules.family.table


def test_penalties_are_the_familys() -> None:
    ace, queen_of_spades, jack = parse_cards("AS QS JH")
    assert HOUSE.penalty(ace, preset("house-classic")) == 11
    assert HOUSE.penalty(jack, preset("house-classic")) == 2
    assert ROBBER.penalty(ace, preset("robber")) == 15
    assert LAYOFF.penalty(queen_of_spades, preset("straight")) == 45
    assert LAYOFF.penalty(queen_of_spades, preset("traditional")) == 10
    joker = parse_cards("*")[0]
    assert TILE.penalty(joker, preset("rummikub")) == preset("rummikub").joker_points


def test_own_options_are_refused_outside_their_family() -> None:
    with pytest.raises(RulesError, match="max_cards_per_turn.*only tile"):
        preset("robber").with_options({"max_cards_per_turn": 3})
    assert preset("straight").with_options({"plays_per_turn": 2}).plays_per_turn == 2


def test_only_the_family_records_test_family_names() -> None:
    """Behaviour is asked of the family; no module compares family or table names (issue 11)."""
    comparison = re.compile(r"""\b(family|table)\s*(==|!=|\bin\b|\bnot in\b)\s*[("']""")
    offenders = [
        f"{path.relative_to(REPO_ROOT)}:{number}"
        for path in sorted((REPO_ROOT / "rummy").rglob("*.py")) if path.name != "family.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if comparison.search(line)
    ]
    assert offenders == []


@pytest.mark.parametrize("example", ["house-classic", "rummikub", "robber", "straight"])
def test_checking_a_turn_loads_no_model_code(example: str) -> None:
    """The judge is found through the family record, yet the checker stays apart from the models."""
    code = (
        "import sys; from rummy import Position, check; "
        f"p = Position.from_file({str(REPO_ROOT / 'puzzles' / 'examples' / (example + '.toml'))!r}); "
        "check(p, p); print(' '.join(sorted(sys.modules)))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO_ROOT, check=True)
    loaded = set(run.stdout.split())
    assert not any(name == "ortools" or name.startswith(("ortools.", "rummy.model")) for name in loaded)

