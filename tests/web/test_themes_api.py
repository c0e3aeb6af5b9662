"""Themes in the web API (issue 29): the shipped list's facts and its filter (``GET /api/positions?theme=``),
every ``puzzles/`` folder listed, a puzzle's themes and rules note in ``/api/show``'s view, the theme
catalogue in ``/api/presets``; bad filters refused with one line.

Expectations come from the index files read at test time (the shipped collections are remade now and
then), or from the small themed folder of tests/support/themed_puzzles.py.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from rummy.rules import PRESETS
from rummy.themes import THEMES
from rummy.web.app import Settings, create_app
from tests.support.themed_puzzles import EXTRA, EXTRA_TITLE, RULES_NOTE, SHIPPED, index_entries, themed_root

BASE_URL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def shipped() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1)), base_url=BASE_URL) as client:
        yield client


@pytest.fixture(scope="module")
def themed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    root = themed_root(tmp_path_factory.mktemp("themed"))
    with TestClient(create_app(Settings(workers=1, puzzles=root)), base_url=BASE_URL) as client:
        yield client, root


def listed(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {entry["id"]: entry for collection in answer["collections"] for entry in collection["positions"]}


def refused(response: Any) -> str:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["errors"] == [body["error"]] and "\n" not in body["error"]
    line: str = body["error"]
    return line


def shipped_index() -> dict[str, dict[str, Any]]:
    """Every shipped puzzle's index entry, by its id, as the index files say now."""
    entries = {}
    for index in sorted(SHIPPED.glob("*/index.json")):
        for entry in index_entries(index.parent):
            entries[f"{index.parent.name}/{entry['name']}"] = entry
    return entries


# ------------------------------------------------------------------ the shipped collections
def test_each_shipped_puzzle_is_listed_with_its_tier_family_and_the_themes_its_index_names(
        shipped: TestClient) -> None:
    answer = shipped.get("/api/positions").json()
    assert answer["themes"] == [{"name": t.name, "title": t.title, "idea": t.idea} for t in THEMES.values()]
    entries = listed(answer)
    index = shipped_index()
    assert index and set(index) <= set(entries)
    for entry_id, entry in index.items():
        shown = entries[entry_id]
        assert shown.get("tier") == entry.get("tier") and shown.get("kind") == entry.get("kind"), entry_id
        assert shown.get("themes", []) == entry.get("themes", []), entry_id
        assert shown["family"] == str(PRESETS[entry["rules"]].family), entry_id


def test_the_theme_filter_keeps_exactly_the_puzzles_whose_index_names_the_theme(shipped: TestClient) -> None:
    index = shipped_index()
    for theme in THEMES:
        answer = shipped.get("/api/positions", params={"theme": theme})
        assert answer.status_code == 200
        assert set(listed(answer.json())) == {i for i, e in index.items() if theme in e.get("themes", [])}, theme
        assert answer.json()["themes"] == shipped.get("/api/positions").json()["themes"]  # the catalogue stays whole


def test_tier_kind_family_and_collection_filters_combine(shipped: TestClient) -> None:
    index = shipped_index()
    some = next(iter(index.values()))
    family = str(PRESETS[some["rules"]].family)
    answer = shipped.get("/api/positions", params={"tier": some["tier"], "kind": some["kind"], "family": family})
    expected = {i for i, e in index.items() if e["tier"] == some["tier"] and e["kind"] == some["kind"]
                and str(PRESETS[e["rules"]].family) == family}
    assert set(listed(answer.json())) == expected and expected
    one = shipped.get("/api/positions", params={"collection": "examples"}).json()
    assert [c["name"] for c in one["collections"] if c["positions"]] == ["examples"]


@pytest.mark.parametrize(("query", "line"), [
    ({"theme": "zugzwang"}, "theme: no theme 'zugzwang' (known: "),
    ({"theme": ""}, "theme: no theme '' (known: "),
    ({"tier": "brutal"}, "tier: no tier 'brutal' (known: easy, medium, hard, expert)"),
    ({"family": "poker"}, "family: no family 'poker' (known: "),
    ({"collection": "../etc"}, "collection: no collection '../etc' (known: examples, "),
    ({"themes": "steal-chain"}, "query: unknown key 'themes' (known: theme, tier, kind, family, collection)"),
    ([("tier", "hard"), ("tier", "easy")], "tier: given twice (one tier at a time)"),
])
def test_a_bad_filter_is_one_line_400(shipped: TestClient, query: Any, line: str) -> None:
    assert refused(shipped.get("/api/positions", params=query)).startswith(line)


def test_a_huge_filter_value_is_quoted_short(shipped: TestClient) -> None:
    line = refused(shipped.get("/api/positions", params={"theme": "x" * 4000}))
    assert line.startswith("theme: no theme 'xxx") and len(line) < 600


# ------------------------------------------------------------------ a folder of themed puzzles
def test_every_folder_is_a_collection_the_unknown_after_the_known_with_its_own_title(
        themed: tuple[TestClient, Path]) -> None:
    client, root = themed
    collections = client.get("/api/positions").json()["collections"]
    assert [(c["name"], c["title"]) for c in collections][1:] == [
        ("house", "House Rummy puzzles"), (EXTRA, EXTRA_TITLE)]  # .hidden is not listed
    assert [p["id"] for p in collections[2]["positions"]] == [f"{EXTRA}/{e['name']}" for e in index_entries(root / EXTRA)]
    # a folder whose index gives no title is named after the folder
    (root / EXTRA / "index.json").write_text(json.dumps({"puzzles": index_entries(root / EXTRA)}))
    with TestClient(create_app(Settings(workers=1, puzzles=root)), base_url=BASE_URL) as again:
        assert again.get("/api/positions").json()["collections"][2]["title"] == "Extra"


def test_the_theme_filter_on_a_themed_folder(themed: tuple[TestClient, Path]) -> None:
    client, root = themed
    entries = {f"{folder}/{e['name']}": e for folder in ("house", EXTRA) for e in index_entries(root / folder)}
    for theme in list(THEMES)[:4]:
        expected = {i for i, e in entries.items() if theme in e["themes"]}
        assert expected and set(listed(client.get("/api/positions", params={"theme": theme}).json())) == expected


def test_show_names_a_puzzles_themes_with_their_titles_and_ideas_and_its_rules_note(
        themed: tuple[TestClient, Path]) -> None:
    client, root = themed
    first = index_entries(root / "house")[0]
    text = (root / "house" / first["position"]).read_text()
    answer = client.post("/api/show", json={"position": text}).json()
    puzzle = answer["view"]["puzzle"]
    assert puzzle["themes"] == [{"name": n, "title": THEMES[n].title, "idea": THEMES[n].idea} for n in first["themes"]]
    assert puzzle["rules_note"] == RULES_NOTE
    assert answer["puzzle"]["themes"] == first["themes"]  # the position's data keeps the names, as files do


def test_presets_give_the_theme_catalogue(shipped: TestClient) -> None:
    assert [t["name"] for t in shipped.get("/api/presets").json()["themes"]] == list(THEMES)


def test_the_list_and_the_statement_name_the_same_themes(shipped: TestClient) -> None:
    """The first puzzle of each shipped folder: the themes its list entry names are its statement's."""
    for index in sorted(SHIPPED.glob("*/index.json")):
        entry = index_entries(index.parent)[0]
        listed_entry = shipped.get(f"/api/positions/{index.parent.name}/{entry['name']}").json()
        answer = shipped.post("/api/show", json={"position": listed_entry["text"]}).json()
        assert [t["name"] for t in answer["view"]["puzzle"]["themes"]] == listed_entry.get("themes", []), entry
