"""The family records: found by name, asked for behaviour, and the only place that tells families apart."""

from __future__ import annotations

import ast
import importlib
import inspect
import pickle
import re
import subprocess
import sys
import types
import typing
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

import pytest

from rummy.cards import Card, parse_cards
from rummy.checker.facts import TurnFacts
from rummy.checker.verdict import Breach, Verdict
from rummy.draw_advice.options import Draw
from rummy.errors import RulesError
from rummy.family import (
    FAMILIES,
    HOUSE,
    LAYOFF,
    ROBBER,
    TILE,
    BagArranger,
    DrawJudge,
    DrawLister,
    Family,
    Gain,
    GainBreakdown,
    Judge,
    Solver,
    family_named,
    load,
)
from rummy.ladder import Rung
from rummy.position import Position
from rummy.rules import PRESETS, Ruleset, preset
from rummy.solution import Solution, SolverConfig
from rummy.table_bag import Arrangement
from tests.support.paths import REPO_ROOT


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
    with pytest.raises(RulesError, match=r"max_cards_per_turn.*only tile"):
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



@pytest.mark.parametrize("family", list(FAMILIES.values()), ids=str)
def test_a_family_with_draws_judges_its_draw_phase_and_only_then(family: Family) -> None:
    """The checker asks the record for the draw judge (no family is special-cased in rummy.checker)."""
    assert (family.draw_judge_function() is not None) == bool(family.draw_sources)


def test_the_checker_imports_no_familys_judge() -> None:
    """check() finds every judge, the draw judges too, through the record, never by importing one."""
    judges = {reference.partition(":")[0] for family in FAMILIES.values()
              for reference in (family.judge, family.draw_judge) if reference is not None}
    tree = ast.parse((REPO_ROOT / "rummy" / "checker" / "__init__.py").read_text())
    imported = {"rummy.checker." + (node.module or "") for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.level == 1}
    assert len(judges) == 5 and imported and not imported & judges


def imported_modules(path: str) -> set[str]:
    """The rummy modules a module of rummy imports (relative imports resolved), at any depth of its code."""
    package = ".".join(("rummy/" + path).removesuffix(".py").split("/")[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse((REPO_ROOT / "rummy" / path).read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            found.add(".".join(filter(None, (base, node.module))))
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_scoring_asks_the_family_which_never_calls_back() -> None:
    """One way: rummy.scoring asks the ruleset's family; the record holds each family's own scoring
    (House's play score and first-out bonus, Robber's card points) and never imports rummy.scoring."""
    family_imports = imported_modules("family.py")
    assert "rummy.plays" in family_imports  # the record's own imports are seen
    assert "rummy.scoring" not in family_imports
    assert "rummy.family" not in imported_modules("scoring.py")  # it asks rules.family, naming no record


# ------------------------------------------------------ the "module:name" references
# The record fields that name a function, and the Protocol of rummy/family.py each function must fit.
FUNCTION_FIELDS: dict[str, type] = {
    "solver": Solver, "quick_solver": Solver, "judge": Judge, "draw_judge": DrawJudge, "gain": Gain, "breakdown": GainBreakdown,
    "draws": DrawLister, "arranger": BagArranger,
}
OTHER_FIELDS = {"ladder", "puzzles"}  # a Ladder (rungs), and a module that registers puzzle kinds
# The names the Protocols' annotations use (family.py imports them for the type checker only).
PROTOCOL_NAMES = {"Position": Position, "SolverConfig": SolverConfig, "Solution": Solution, "TurnFacts": TurnFacts,
                  "Breach": Breach, "Draw": Draw, "Fraction": Fraction, "Verdict": Verdict, "Card": Card,
                  "Ruleset": Ruleset, "Arrangement": Arrangement}
REFERENCE = re.compile(r"rummy(\.\w+)+(:\w+)?")


def reference_fields(family: Family) -> dict[str, str]:
    """Every field of the record whose value names a module of rummy (``rummy.x`` or ``rummy.x:name``)."""
    names = {name for cls in type(family).__mro__ for name in vars(cls) if not name.startswith("_")}
    values = {name: getattr(family, name) for name in names}
    return {name: value for name, value in values.items() if isinstance(value, str) and REFERENCE.fullmatch(value)}


def fits(given: object, wanted: object) -> bool:
    """Whether a ``given`` annotation promises a ``wanted`` one (the forms the Protocols use)."""
    unions = (typing.Union, types.UnionType)
    if given == wanted:
        return True
    if typing.get_origin(wanted) in unions:
        options = typing.get_args(given) if typing.get_origin(given) in unions else (given,)
        return all(any(fits(option, choice) for choice in typing.get_args(wanted)) for option in options)
    if typing.is_typeddict(given):  # a TypedDict is a Mapping[str, object]
        return typing.get_origin(wanted) is Mapping and typing.get_args(wanted) == (str, object)
    given_origin = typing.get_origin(given)
    return (given_origin is not None and given_origin == typing.get_origin(wanted)
            and len(typing.get_args(given)) == len(typing.get_args(wanted))
            and all(fits(g, w) for g, w in zip(typing.get_args(given), typing.get_args(wanted))))


def test_the_type_match_refuses_what_does_not_fit() -> None:
    assert fits(Fraction, Fraction | int) and fits(tuple[list[Breach], Mapping[str, object]],
                                                   tuple[list[Breach], Mapping[str, object]])
    assert not fits(float, Fraction | int)
    assert not fits(list[Draw], list[Breach])
    assert not fits(tuple[list[Breach], dict[str, object]], tuple[list[Breach], Mapping[str, object]])


def test_every_reference_of_every_record_is_one_these_tests_load() -> None:
    for family in FAMILIES.values():
        fields = reference_fields(family)
        assert {"solver", "judge", "gain", "breakdown"} <= set(fields), family
        assert set(fields) <= set(FUNCTION_FIELDS) | OTHER_FIELDS, family


@pytest.mark.parametrize("family", list(FAMILIES.values()), ids=str)
def test_every_function_a_record_names_loads_and_fits_its_protocol(family: Family) -> None:
    """What ``mypy`` cannot see through an import by name: each function takes its Protocol's arguments
    (positionally; any more have defaults), of the same types, and returns what the Protocol returns."""
    for field, protocol in FUNCTION_FIELDS.items():
        reference = getattr(family, field)
        if reference is None:
            continue
        assert ":" in reference, reference
        function = load(reference)
        assert callable(function), reference
        wanted = list(inspect.signature(protocol.__call__).parameters.values())[1:]  # past self
        given = inspect.signature(function)
        given.bind(*(parameter.name for parameter in wanted))  # TypeError if it cannot take them
        wanted_types = typing.get_type_hints(protocol.__call__, localns=PROTOCOL_NAMES)
        given_types = typing.get_type_hints(function)
        for wanted_parameter, given_parameter in zip(wanted, given.parameters.values()):
            assert given_types[given_parameter.name] == wanted_types[wanted_parameter.name], (reference, given_parameter)
        assert fits(given_types["return"], wanted_types["return"]), (reference, given_types["return"])


@pytest.mark.parametrize("family", list(FAMILIES.values()), ids=str)
def test_every_ladder_and_puzzle_module_a_record_names_loads(family: Family) -> None:
    from rummy.generator import FAMILIES as PUZZLE_FAMILIES

    rungs = family.ladder_rungs()
    if family.ladder is None:
        assert rungs is None
    else:
        assert rungs and all(isinstance(rung, Rung) for rung in rungs), family.ladder
    if family.puzzles is not None:
        assert ":" not in family.puzzles
        assert importlib.import_module(family.puzzles).__name__ == family.puzzles
        assert PUZZLE_FAMILIES[family.name].family == family.name  # the module registered the family's support
