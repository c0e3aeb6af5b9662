"""The ``[puzzle]`` table: read strictly, kept on the position, written back, ignored by the game."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.checker import check
from rummy.errors import PositionError
from rummy.position import Position, PuzzleStatement
from rummy.vocabulary import Tier
from tests.support.paths import PUZZLE_CASES, REPO_ROOT

REPO = REPO_ROOT
PUZZLE = PUZZLE_CASES / "house-classic-steal-easy-s1-0000.toml"
PLAIN = REPO / "puzzles" / "examples" / "house-classic.toml"

TABLE = '\n[puzzle]\nkind = "steal"\ntier = "easy"\ntask = "find the best turn"\ntarget = 67\n'


def with_table(extra: str = "", table: str = TABLE) -> str:
    return PLAIN.read_text(encoding="utf-8") + table + extra


def test_a_shipped_puzzle_states_itself():
    position = Position.from_file(PUZZLE)
    assert position.puzzle == PuzzleStatement("steal", "easy", "find the best turn (it steals)", 67)


def test_the_table_is_read_and_written_back():
    position = Position.from_toml(with_table('rules_note = "paid steals"\n'))
    assert position.puzzle == PuzzleStatement("steal", "easy", "find the best turn", 67, "paid steals")
    assert Position.from_toml(position.to_toml()).puzzle == position.puzzle
    assert Position.from_json(position.to_json()).puzzle == position.puzzle
    assert position.to_data()["puzzle"] == {"kind": "steal", "tier": "easy", "task": "find the best turn",
                                            "target": 67, "rules_note": "paid steals"}


def test_the_statement_is_no_part_of_the_game_state():
    stated = Position.from_toml(with_table())
    plain = Position.from_file(PLAIN)
    assert stated == plain and hash(stated) == hash(plain)
    assert stated.table_key() == plain.table_key()
    assert "puzzle" not in plain.to_data()


@pytest.mark.parametrize("line, place", [
    ('target = "67"', "puzzle.target"),
    ("target = true", "puzzle.target"),
    ("target = nan", "puzzle.target"),
    ("target = inf", "puzzle.target"),
    ("target = 1e9", "puzzle.target"),
    ('tier = "impossible"', "puzzle.tier"),
    ("tier = 3", "puzzle.tier"),
    ('kind = ""', "puzzle.kind"),
    ("kind = 7", "puzzle.kind"),
    ('task = "  "', "puzzle.task"),
    ("task = []", "puzzle.task"),
    ('rules_note = 5', "puzzle.rules_note"),
    ('answer = "steal AC"', "puzzle.answer"),
])
def test_bad_values_are_refused_naming_the_place(line, place):
    key = line.split(" = ")[0]
    lines = [ln for ln in TABLE.splitlines() if not ln.startswith(key + " ")]
    with pytest.raises(PositionError) as raised:
        Position.from_toml(with_table(table="\n".join(lines) + "\n" + line + "\n"))
    assert raised.value.place == f"<toml>: {place}"


@pytest.mark.parametrize("missing", ["kind", "tier", "task", "target"])
def test_every_key_but_the_note_is_needed(missing):
    table = "\n".join(ln for ln in TABLE.splitlines() if not ln.startswith(missing + " ")) + "\n"
    with pytest.raises(PositionError, match="missing"):
        Position.from_toml(with_table(table=table))


def test_json_puzzle_must_be_a_table_and_no_null():
    data = Position.from_file(PLAIN).to_data()
    for bad in ("steal", [1], {"kind": "steal", "tier": "easy", "task": "t", "target": 1, "rules_note": None}):
        with pytest.raises(PositionError) as raised:
            Position.from_json(json.dumps({**data, "puzzle": bad}))
        assert "puzzle" in raised.value.place


texts = st.text(st.characters(whitelist_categories=("L", "N", "P", "S")) | st.just(" "), min_size=1,
                max_size=60).filter(str.strip)
statements = st.builds(
    PuzzleStatement,
    kind=st.sampled_from(["steal", "play-all", "max", "across", "my-own"]),
    tier=st.sampled_from(list(Tier)).map(str),
    task=texts,
    target=st.one_of(st.integers(-1000, 100000), st.floats(-1000, 100000, allow_nan=False)),
    rules_note=st.none() | texts,
)


@settings(max_examples=60, deadline=None)
@given(statements)
def test_round_trip_through_toml_and_json(statement):
    position = replace(Position.from_file(PLAIN), puzzle=statement)
    for again in (Position.from_toml(position.to_toml()), Position.from_json(position.to_json())):
        assert again.puzzle == statement
        assert not isinstance(again.puzzle.target, float) or math.isfinite(again.puzzle.target)
    assert PuzzleStatement.from_data(statement.to_data()) == statement


def test_best_and_check_ignore_it():
    from rummy.answer import answer_data, best
    from rummy.solution import SolverConfig

    stated = Position.from_file(PUZZLE)
    plain = replace(stated, puzzle=None)
    answer = best(stated, SolverConfig(time_limit=20))
    assert answer.solution.after is not None and answer.solution.after.puzzle is None
    data = answer_data(answer)
    assert "puzzle" not in data["after"]
    assert data["gain"] == answer_data(best(plain, SolverConfig(time_limit=20)))["gain"]
    assert check(stated, answer.solution.after).to_data() == check(plain, answer.solution.after).to_data()


def test_the_generator_writes_the_table(tmp_path):
    from rummy.generator import Request, generate
    from rummy.generator.collection import puzzle_files
    from rummy.generator.rules_notes import rules_note

    report = generate(Request(rules="rummikub", kind="play-all", count=1, tier="easy", seed=3, workers=1))
    (puzzle,) = report.puzzles
    files = puzzle_files(puzzle, "rummy generate ...")
    position = Position.from_toml(files[f"{puzzle.name}.toml"])
    assert puzzle.themes  # an easy puzzle too: plain-play when no other theme (docs/themes.md)
    note = rules_note(puzzle.position, Position.from_data(puzzle.answer["after"], strict=False))
    assert position.puzzle == PuzzleStatement("play-all", "easy", "play all your tiles", puzzle.answer["gain"], note,
                                              themes=puzzle.themes)
    assert position.puzzle.target == len(position.mover.hand or ())  # play all: every tile of the rack
    assert "puzzle" not in json.loads(files[f"{puzzle.name}.solution.json"])["after"]
