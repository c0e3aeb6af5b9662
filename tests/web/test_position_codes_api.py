"""Position codes through the API (docs/serve.md): every endpoint that takes a position's text takes its
code, /api/show gives the code and the TOML, and a damaged code is a 400 with one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rummy.position import Position
from rummy.position_code import PREFIX, position_code
from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT
from tests.support.themed_puzzles import first_shipped
from tests.web.test_api import TestClient, client  # noqa: F401  (the module's app and client, and the skips)

EXAMPLES = sorted(PUZZLE_EXAMPLES.glob("*.toml"))
HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
PUZZLE = REPO_ROOT / "puzzles" / f"{first_shipped('house')}.toml"  # the index's first (collections are remade)


def code_of(path: Path) -> str:
    return position_code(Position.from_file(path))


def ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_show_reads_a_code_as_the_file_and_gives_code_and_toml(client: TestClient, path: Path) -> None:  # noqa: F811
    by_text = ok(client.post("/api/show", json={"position": path.read_text(encoding="utf-8")}))
    by_code = ok(client.post("/api/show", json={"position": code_of(path), "format": "code"}))
    assert by_code == by_text
    assert by_text["code"] == code_of(path)
    assert Position.from_toml(by_text["toml"]) == Position.from_file(path)
    assert Position.from_toml(by_text["toml"]).puzzle == Position.from_file(path).puzzle


def test_best_check_steps_and_hint_take_a_code(client: TestClient) -> None:  # noqa: F811
    code = code_of(HOUSE)
    by_code = ok(client.post("/api/best", json={"position": code}))
    by_text = ok(client.post("/api/best", json={"position": HOUSE.read_text(encoding="utf-8")}))
    assert by_code["status"] == by_text["status"] == "optimal" and by_code["gain"] == by_text["gain"]
    turn = "play 2C 2H to new/1; discard KS"
    checked = ok(client.post("/api/check", json={"before": code, "after": turn}))
    assert checked["legal"] == ok(client.post("/api/check", json={"before": HOUSE.read_text(), "after": turn}))["legal"]
    after = position_code(Position.from_data(by_code["after"], strict=False))
    assert ok(client.post("/api/check", json={"before": code, "after": after}))["legal"] is True
    assert ok(client.post("/api/steps", json={"before": code, "steps": turn}))["view"]["plays"]
    hints = ok(client.post("/api/hint", json={"puzzle": code_of(PUZZLE), "level": 1}))
    assert len(hints["hints"]) == 1


GOOD = position_code(Position.from_file(HOUSE))
DAMAGED = [GOOD[:50], GOOD[:40] + ("A" if GOOD[40] != "A" else "B") + GOOD[41:], GOOD[:20] + "!" + GOOD[21:],
           GOOD[:20] + "é" + GOOD[21:], "rummy7_" + GOOD[len(PREFIX):], PREFIX + "A" * 100_000]


@pytest.mark.parametrize("text", DAMAGED, ids=["truncated", "changed", "bad-character", "non-ascii", "version", "long"])
def test_a_damaged_code_is_a_400_with_one_line(client: TestClient, text: str) -> None:  # noqa: F811
    for endpoint, body, place in (("/api/show", {"position": text}, "position"),
                                  ("/api/best", {"position": text}, "position"),
                                  ("/api/check", {"before": text, "after": "play 2C 2H to new/1"}, "before"),
                                  ("/api/hint", {"puzzle": text}, "puzzle")):
        response = client.post(endpoint, json=body)
        assert response.status_code == 400, (endpoint, response.text)
        data = response.json()
        assert data["errors"] == [data["error"]], data
        assert data["error"].startswith(f"{place}: not a position code: "), data["error"]


def test_a_bomb_and_a_huge_code_are_400s(client: TestClient) -> None:  # noqa: F811
    from tests.cli.test_position_codes import bomb

    for text, words in ((bomb(4 << 20), "expands beyond 1,048,576 bytes"), (PREFIX + "A" * 200_000, "at most")):
        response = client.post("/api/show", json={"position": text})
        assert response.status_code == 400, response.text
        assert response.json()["errors"] == [response.json()["error"]] and words in response.json()["error"]
