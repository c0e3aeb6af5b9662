"""The server reads a tile table given as a bag as the command line does: laid out, or a 400 with the
reader's one line."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():  # starlette would rather have httpx2: a warning, not our concern
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.web.app import Settings, create_app

BASE_URL = "http://127.0.0.1"
BAG = ('rules = "rummikub"\nto_move = "ann"\ntable = "{table}"\n'
       'players.ann = {{melded = true, hand = "R4"}}\nplayers.bob = {{hand_count = 3}}\n')


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, max_seconds=5.0)), base_url=BASE_URL) as client:
        yield client


def test_show_lays_a_bag_out(client: TestClient) -> None:
    response = client.post("/api/show", json={"position": BAG.format(table="R1 R2 R3 B5 B6 B7")})
    assert response.status_code == 200
    assert response.json()["table"] == ["R1 R2 R3", "B5 B6 B7"]


def test_a_bag_that_cannot_be_laid_out_is_a_400_naming_the_tiles(client: TestClient) -> None:
    response = client.post("/api/show", json={"position": BAG.format(table="R1 R2 R3 B5 B6 K9")})
    assert response.status_code == 400
    assert response.json()["errors"] == ["position: table: B5 B6 K9 fit in no play with the other tiles of the "
                                         "bag: the table cannot be arranged"]


def test_the_page_is_told_the_table_came_from_a_bag(client: TestClient) -> None:
    """show's and best's views say it in the command line's words, for the position panel and the answer."""
    words = "table arranged by rummy from a bag of 6 tiles"
    shown = client.post("/api/show", json={"position": BAG.format(table="R1 R2 R3 B5 B6 B7")}).json()
    assert shown["view"]["table_bag_words"] == words
    assert f"  ({words})" in shown["view"]["lines"]
    best = client.post("/api/best", json={"position": BAG.format(table="R1 R2 R3 B5 B6 B7"), "time_limit": 5}).json()
    assert (best["table_bag"], best["view"]["table_bag_words"]) == (6, words)
    assert best["verified"] is True and best["cards_played"] == 1  # R4 onto R1 R2 R3, judged by the checker


def test_a_table_given_as_plays_says_nothing_of_a_bag(client: TestClient) -> None:
    given = BAG.replace('table = "{table}"', 'table = ["R1 R2 R3", "B5 B6 B7"]').format()
    shown = client.post("/api/show", json={"position": given}).json()
    assert shown["view"]["table_bag_words"] is None
    best = client.post("/api/best", json={"position": given, "time_limit": 5}).json()
    assert "table_bag" not in best and best["view"]["table_bag_words"] is None
