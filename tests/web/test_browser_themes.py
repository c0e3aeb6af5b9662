"""Themes on the page (issue 29), in headless Chromium: the list filtered by theme (and tier), the filter
kept in the address and read back from it, a refused theme's line, a puzzle's statement with its themes
and rules note, hint level 1 naming the theme; at desktop and phone width.

The server lists the small themed folder of tests/support/themed_puzzles.py (the shipped collections
are remade now and then); the hint test reads the shipped ones, as the words helper's hints name the
themes of the turn itself. Fixtures and helpers are tests/web/test_browser.py's (it skips, with its
reason, where Chromium or selenium is missing). Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.web import test_browser as base  # first: it skips this module where Chromium or selenium is missing
from tests.web.test_browser import click, load, phone, shot, text, wait

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from rummy.themes import THEMES
from tests.support.themed_puzzles import EXTRA, RULES_NOTE, SHIPPED, index_entries, themed_root

browser, page = base.browser, base.page

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def puzzles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return themed_root(tmp_path_factory.mktemp("themed"))


@pytest.fixture(scope="module")
def server(puzzles: Path) -> Iterator[str]:
    """The page's server, listing the themed folder (test_browser's ``page`` fixture asks for it by name)."""
    from rummy.web.app import Settings, create_app
    from tests.support.live_server import live_server

    with live_server(create_app(Settings(workers=1, puzzles=puzzles))) as port:
        yield f"http://127.0.0.1:{port}/"


def listed_ids(driver: Any) -> list[str]:
    return [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#load-select option")
            if o.get_attribute("value")]


def themed_entries(puzzles: Path) -> dict[str, dict[str, Any]]:
    """The themed folder's puzzles by id, as its index files say."""
    return {f"{folder}/{entry['name']}": entry for folder in ("house", EXTRA)
            for entry in index_entries(puzzles / folder)}


def address_query(driver: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(driver.current_url).query)


def total(puzzles: Path) -> int:
    return len(themed_entries(puzzles)) + len(list((puzzles / "examples").glob("*.toml")))


def test_the_theme_filter_narrows_the_list_and_the_address_keeps_it(page: Any, server: str, puzzles: Path) -> None:
    entries = themed_entries(puzzles)
    theme = list(THEMES)[3]  # on every other puzzle
    expected = [i for i, e in entries.items() if theme in e["themes"]]
    assert 0 < len(expected) < len(entries)
    box = Select(page.find_element(By.ID, "filter-theme"))
    assert f"{THEMES[theme].title} ({len(expected)})" in [o.text for o in box.options]
    box.select_by_value(theme)
    wait(page, lambda d: listed_ids(d) == expected)
    assert text(page, "load-count") == f"{len(expected)} of {total(puzzles)} positions"
    assert address_query(page) == {"theme": [theme]}
    # each entry says its tier and its themes' titles
    for option in page.find_elements(By.CSS_SELECTOR, "#load-select option[value]:not([value=''])"):
        entry = entries[option.get_attribute("value")]
        assert entry["tier"] in option.text and all(THEMES[t].title in option.text for t in entry["themes"])
    # a second filter narrows further, and joins the first in the address
    tier = entries[expected[0]]["tier"]
    Select(page.find_element(By.ID, "filter-tier")).select_by_value(tier)
    narrower = [i for i in expected if entries[i]["tier"] == tier]
    wait(page, lambda d: listed_ids(d) == narrower)
    assert address_query(page) == {"theme": [theme], "tier": [tier]}
    shot(page, "themes-01-filtered.png")
    # the address opens the list filtered so (a link shared, a reload)
    page.get(server + f"?theme={theme}&tier={tier}")
    wait(page, lambda d: listed_ids(d) == narrower)
    assert Select(page.find_element(By.ID, "filter-theme")).first_selected_option.get_attribute("value") == theme
    # Show all clears every filter and the address, and the focus goes on to the Find box
    click(page, "#filter-clear")
    wait(page, lambda d: len(listed_ids(d)) == total(puzzles))
    assert address_query(page) == {}
    assert page.switch_to.active_element.get_attribute("id") == "load-filter"


def test_the_filters_work_from_the_keyboard_alone(page: Any, puzzles: Path) -> None:
    entries = themed_entries(puzzles)
    first_theme = next(name for name in THEMES if any(name in e["themes"] for e in entries.values()))
    page.find_element(By.ID, "load-filter").send_keys(Keys.TAB)  # Find, then Theme
    assert page.switch_to.active_element.get_attribute("id") == "filter-theme"
    page.switch_to.active_element.send_keys(Keys.ARROW_DOWN)  # a closed select changes as the arrow is pressed
    expected = [i for i, e in entries.items() if first_theme in e["themes"]]
    wait(page, lambda d: listed_ids(d) == expected)
    assert address_query(page) == {"theme": [first_theme]}


def test_an_unknown_theme_in_the_address_is_the_apis_line_and_the_other_filters_stay(page: Any, server: str,
                                                                             puzzles: Path) -> None:
    page.get(server + "?theme=zugzwang&tier=hard")
    wait(page, lambda d: d.find_element(By.ID, "load-error").is_displayed())
    assert text(page, "load-error").startswith("theme: no theme 'zugzwang' (known: ")
    entries = themed_entries(puzzles)
    wait(page, lambda d: listed_ids(d) == [i for i, e in entries.items() if e["tier"] == "hard"])
    assert address_query(page) == {"tier": ["hard"]}  # the refused theme is gone from the address


def test_a_puzzle_picked_shows_its_themes_and_rules_note(page: Any, puzzles: Path) -> None:
    entry = index_entries(puzzles / "house")[0]
    load(page, f"house/{entry['name']}")
    statement = text(page, "puzzle")
    assert entry["tier"] in statement
    shown = [chip.text for chip in page.find_elements(By.CSS_SELECTOR, "#puzzle-themes .theme")]
    assert shown == [THEMES[name].title for name in entry["themes"]]
    assert text(page, "puzzle-rules-note") == f"Rule: {RULES_NOTE}"
    shot(page, "themes-02-statement.png")
    with phone(page):
        load(page, f"house/{entry['name']}")
        assert page.find_element(By.ID, "puzzle-rules-note").is_displayed()
        assert page.execute_script("return document.documentElement.scrollWidth") <= 390
        Select(page.find_element(By.ID, "filter-theme")).select_by_value(entry["themes"][0])
        assert page.execute_script("return document.documentElement.scrollWidth") <= 390
        shot(page, "themes-03-phone.png")


def test_hint_level_one_names_the_theme(page: Any, server: str) -> None:
    themed = [(f"{index.parent.name}/{e['name']}", e) for index in sorted(SHIPPED.glob("*/index.json"))
              for e in index_entries(index.parent) if e.get("themes")]
    if not themed:
        pytest.skip("no shipped puzzle names a theme yet (the collections are remade with themes in issue 29)")
    puzzle_id, entry = themed[0]
    from rummy.web.app import Settings, create_app
    from tests.support.live_server import live_server

    with live_server(create_app(Settings(workers=1))) as port:  # the shipped collections
        page.get(f"http://127.0.0.1:{port}/")
        wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#load-select option")) > 5)
        load(page, puzzle_id)
        click(page, '.hint-level[data-level="1"]')
        wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#hints li[data-level]"), 60)
        hints = page.find_elements(By.CSS_SELECTOR, "#hints li[data-level]")
        assert [h.get_attribute("data-level") for h in hints] == ["1"]  # level 2 is not shown before it is asked
        assert any(THEMES[name].title.lower() in hints[0].text.lower() for name in entry["themes"]), hints[0].text
        shot(page, "themes-04-hint.png")


def test_a_link_holds_a_filtered_list_and_a_position_both(page: Any, server: str, puzzles: Path) -> None:
    entries = themed_entries(puzzles)
    theme = next(iter(entries.values()))["themes"][0]
    example = sorted((puzzles / "examples").glob("*.toml"))[0]
    code = page.execute_script(
        "return fetch('/api/show', {method: 'POST', headers: {'content-type': 'application/json'},"
        " body: JSON.stringify({position: arguments[0]})}).then((r) => r.json()).then((d) => d.code)",
        example.read_text())
    page.get(server + f"?theme={theme}#p={code}")
    wait(page, lambda d: "Loaded the position:" in text(d, "result"))
    wait(page, lambda d: listed_ids(d) == [i for i, e in entries.items() if theme in e["themes"]])
    assert address_query(page) == {"theme": [theme]} and urlsplit(page.current_url).fragment == f"p={code}"
    Select(page.find_element(By.ID, "filter-theme")).select_by_value("")  # the filter changes, the code stays
    wait(page, lambda d: address_query(d) == {})
    assert urlsplit(page.current_url).fragment == f"p={code}"


def test_each_filter_of_the_page_keeps_what_the_apis_filter_keeps(page: Any) -> None:
    """The page narrows its list itself (asked once); the API narrows it on the server: the same entries."""
    for key in ("theme", "tier", "kind", "family"):
        box = Select(page.find_element(By.ID, f"filter-{key}"))
        value = box.options[-1].get_attribute("value")  # the last value offered
        box.select_by_value(value)
        answer = page.execute_script(
            "return fetch('/api/positions?' + new URLSearchParams({[arguments[0]]: arguments[1]}))"
            ".then((r) => r.json())", key, value)
        expected = [p["id"] for c in answer["collections"] for p in c["positions"]]
        wait(page, lambda d, e=expected: listed_ids(d) == e)
        assert expected, key
        box.select_by_value("")
