"""The API's ``warnings`` (formats.md "Warnings"): the lines the command line prints after
``rummy: warning: `` for the same text, named as the API names its text; an empty list for a clean position."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():  # starlette would rather have httpx2: a warning, not our concern
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.web.app import Settings, create_app
from tests.support.cli import run_main
from tests.support.judged import rejudged
from tests.support.paths import PUZZLE_EXAMPLES

BASE_URL = "http://127.0.0.1"
# Ann's melded left out (her first meld needs 30) and a card in card notation on a tile table.
WARNED = '''
rules = "rummikub-lenient"
to_move = "ann"
table = ["7H 8H 9H", "K10 R10 O10"]

[players.ann]
hand = "K1 K2 K3 K4 B5"

[players.bob]
melded = true
hand_count = 14
'''


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, max_seconds=20.0)), base_url=BASE_URL) as client:
        yield client


def cli_warnings(capsys: pytest.CaptureFixture[str], path: Path, source: str) -> list[str]:
    """What ``rummy show`` warns of, as the API names the text (``source``) instead of the file."""
    code, _, err = run_main(capsys, "show", path)
    assert code == 0
    return [line.removeprefix("rummy: warning: ").replace(str(path), source) for line in err.splitlines()]


def test_show_best_and_check_list_the_warnings(client: TestClient, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.toml"
    path.write_text(WARNED)
    expected = cli_warnings(capsys, path, "position")
    assert expected == [
        "position: players.ann: ann has not melded (melded = false unless given): ann's first meld needs 30 points",
        "position: table[1]: '7H' is card notation in a tile game, read as R7",
    ]
    shown = client.post("/api/show", json={"position": WARNED})
    assert shown.status_code == 200 and shown.json()["warnings"] == expected
    best = client.post("/api/best", json={"position": WARNED, "time_limit": 10})
    assert best.status_code == 200 and best.json()["warnings"] == expected
    # Unmelded, ann cannot reach 30: she draws a tile, a turn with no steps (the page drew none: a 400 before).
    assert best.json()["status"] == "draw" and best.json()["view"]["steps"] == []
    rejudged(path, best.json())
    checked = client.post("/api/check", json={"before": WARNED, "after": "play K1 K2 K3 K4 to new/1"})
    assert checked.status_code == 200
    assert checked.json()["warnings"] == [line.replace("position:", "before:") for line in expected]
    hinted = client.post("/api/hint", json={"puzzle": WARNED, "level": 1})
    assert hinted.status_code in (200, 400)  # no [puzzle] table: hint may refuse it, but never a 500


def test_a_clean_position_has_no_warnings(client: TestClient) -> None:
    path = PUZZLE_EXAMPLES / "rummikub-lenient.toml"
    text = path.read_text()
    assert client.post("/api/show", json={"position": text}).json()["warnings"] == []
    best = client.post("/api/best", json={"position": text, "time_limit": 10}).json()
    assert best["warnings"] == []
    rejudged(path, best)
