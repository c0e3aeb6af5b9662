"""``[puzzle] themes``: read strictly, kept on the statement, written back in TOML, JSON and codes."""

from __future__ import annotations

import pytest

from rummy.errors import PositionError
from rummy.position import Position, PuzzleStatement
from rummy.position_code import position_code, position_from_code
from rummy.themes import THEMES
from tests.support.paths import REPO_ROOT

PLAIN = REPO_ROOT / "puzzles" / "examples" / "house-classic.toml"
TABLE = '\n[puzzle]\nkind = "steal"\ntier = "hard"\ntask = "find the best turn"\ntarget = 67\n'


def stated(line: str) -> str:
    return PLAIN.read_text(encoding="utf-8") + TABLE + line + "\n"


def test_themes_are_read_and_written_back_every_way():
    position = Position.from_toml(stated('themes = ["steal-chain", "sacrifice"]'))
    assert position.puzzle is not None
    assert position.puzzle.themes == ("steal-chain", "sacrifice")
    assert position.to_data()["puzzle"]["themes"] == ["steal-chain", "sacrifice"]
    assert Position.from_toml(position.to_toml()).puzzle == position.puzzle
    assert Position.from_json(position.to_json()).puzzle == position.puzzle
    assert position_from_code(position_code(position), "<code>").puzzle == position.puzzle


def test_a_statement_without_themes_writes_none():
    position = Position.from_toml(stated(""))
    assert position.puzzle == PuzzleStatement("steal", "hard", "find the best turn", 67)
    assert "themes" not in position.to_data()["puzzle"]


def test_every_known_theme_is_read():
    names = list(THEMES)
    for start in range(0, len(names), 8):
        chunk = names[start:start + 8]
        position = Position.from_toml(stated("themes = [" + ", ".join(f'"{n}"' for n in chunk) + "]"))
        assert position.puzzle is not None and position.puzzle.themes == tuple(chunk)


@pytest.mark.parametrize("line, place, words", [
    ('themes = ["steal-chains"]', "puzzle.themes[0]", "unknown theme 'steal-chains'"),
    ('themes = ["sacrifice", 3]', "puzzle.themes[1]", "expected a theme name"),
    ('themes = ["sacrifice", "sacrifice"]', "puzzle.themes[1]", "given twice"),
    ("themes = []", "puzzle.themes", "1 to 8"),
    ('themes = "sacrifice"', "puzzle.themes", "expected a list"),
    ("themes = [" + ", ".join(f'"{n}"' for n in list(THEMES)[:9]) + "]", "puzzle.themes", "1 to 8"),
])
def test_bad_themes_are_refused_with_their_place(line, place, words):
    with pytest.raises(PositionError) as caught:
        Position.from_toml(stated(line))
    message = str(caught.value)
    assert place in message and words in message


def test_the_json_form_is_checked_the_same_way():
    position = Position.from_toml(stated('themes = ["going-out"]'))
    text = position.to_json().replace('"going-out"', '"gone-out"')
    with pytest.raises(PositionError, match=r"puzzle\.themes\[0\].*unknown theme 'gone-out'"):
        Position.from_json(text)


def test_the_schema_knows_every_theme():
    import json

    from tests.support.paths import SCHEMA_PATH

    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    puzzle = next(d for d in schema["$defs"].values() if "rules_note" in d.get("properties", {}))
    assert puzzle["properties"]["themes"]["items"]["enum"] == list(THEMES)
