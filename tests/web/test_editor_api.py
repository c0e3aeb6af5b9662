"""The position editor's endpoints (rummy.reports.editor over rummy.web.app): the presets' decks
and shapes, and one play's live check, with the reader's own words for bad cards."""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.rules import PRESETS
from rummy.web.app import Settings, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1)), base_url="http://127.0.0.1") as client:
        yield client


def test_presets_give_every_deck_whole(client: TestClient) -> None:
    answer = client.get("/api/presets")
    assert answer.status_code == 200
    shapes = {shape["name"]: shape for shape in answer.json()["presets"]}
    assert set(shapes) == set(PRESETS)
    for name, shape in shapes.items():
        assert sum(entry["copies"] for entry in shape["cards"]) == len(PRESETS[name].deck_cards)
    assert shapes["rummikub"]["deck"] == "tiles" and shapes["rummikub"]["plays_key"] == "table"
    assert {"card": "*", "copies": 2} in shapes["rummikub"]["cards"]
    assert shapes["rummikub"]["fixed_jokers"] and not shapes["rummikub-lenient"]["fixed_jokers"]
    assert shapes["house-classic"]["upcard"] and shapes["house-classic"]["hands_in_game"] == 6
    assert shapes["house-classic"]["sides"] and shapes["robber"]["plays_key"] == "plays"
    assert shapes["straight"]["layoffs"] and not shapes["house-classic"]["layoffs"]
    # The deal by players (rules.DEALS): an unknown hand in the editor starts there.
    assert shapes["house-classic"]["deal"] == {"2": 10, "3": 8, "4": 7}
    assert shapes["rummikub"]["deal"]["2"] == 14 and shapes["traditional"]["deal"]["5"] == 6


def test_play_check_reads_scores_and_orders(client: TestClient) -> None:
    answer = client.post("/api/play-check", json={"rules": "house-classic", "cards": "10D * JD"}).json()
    assert answer["whole"] and answer["score"] == 15 and answer["ordered"] == ["*", "10D", "JD"]
    assert answer["stand_ins"] == ["9D", "QD"] and not answer["stand_in_needed"]
    broken = client.post("/api/play-check", json={"rules": "house-classic", "cards": "7H 8S 9H"}).json()
    assert not broken["whole"] and broken["score"] is None and broken["cards"] == ["7H", "8S", "9H"]
    tiles = client.post("/api/play-check", json={"rules": "rummikub", "cards": "7h r8 R9"}).json()
    assert tiles["cards"] == ["R7", "R8", "R9"] and tiles["score"] is None and tiles["meld_value"] == 24


def test_play_check_asks_a_fixed_joker_for_its_card_only_where_the_play_leaves_it_open(client: TestClient) -> None:
    def needed(rules: str, cards: str) -> bool:
        return bool(client.post("/api/play-check", json={"rules": rules, "cards": cards}).json()["stand_in_needed"])

    assert needed("rummikub", "K5 K6 *")  # K4 or K7
    assert not needed("rummikub", "K5 * K7")  # K6, settled
    assert not needed("rummikub", "K5 K6 *=K7")  # said
    assert not needed("rummikub-lenient", "K5 K6 *")  # flexible jokers never say


@pytest.mark.parametrize(("body", "starts"), [
    ({"rules": "house-classic", "cards": "7H 7Q 8X"}, "cards: unknown card '7Q'"),
    ({"rules": "rummikub", "cards": "R7 K99"}, "cards: unknown card 'K99'"),
    ({"rules": "nope", "cards": "7H"}, "rules: unknown preset 'nope'"),
    ({"rules": "house-classic", "cards": "7H " * 2000}, "cards: String should have at most 4096 characters"),
    ({"rules": "house-classic", "cards": "7H", "more": 1}, "more: Extra inputs are not permitted"),
    ({"rules": "house-classic", "cards": "7H " * 300}, "cards: more than 256 cards"),
])
def test_play_check_refuses_bad_input_with_one_line_each(client: TestClient, body: dict[str, object],
                                                         starts: str) -> None:
    answer = client.post("/api/play-check", json=body)
    assert answer.status_code == 400
    data = answer.json()
    assert data["error"].startswith(starts), data
    assert all("\n" not in line for line in data["errors"])
    if body.get("cards") == "7H 7Q 8X":
        assert Counter(line.split("'")[1] for line in data["errors"]) == Counter(["7Q", "8X"])


def test_openapi_describes_the_editors_endpoints(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "get" in schema["paths"]["/api/presets"] and "post" in schema["paths"]["/api/play-check"]
    request = schema["components"]["schemas"]["PlayCheckRequest"]
    assert set(request["properties"]) == {"rules", "cards"} and set(request["required"]) == {"rules", "cards"}
