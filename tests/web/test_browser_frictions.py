"""The page's frictions of issue 26, section 6, in headless Chromium: the time-limit control and
Search longer, a failed load that clears the position before it, the shipped list's filter, and a
check result on a phone drawn without copies of the table.

The live server, the browser and the helpers are tests/web/test_browser.py's (imported: that
module skips, with its reason, where Chromium or selenium is missing, and so does this one).
Screenshots go to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.themed_puzzles import first_shipped
from tests.web import test_browser as base  # first: it skips this module where Chromium or selenium is missing
from tests.web.test_browser import ROOT, answered, check, click, load, phone, shot, text, wait

pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

# test_browser's fixtures, by name: one live server and one browser for this module too
server, browser, page = base.server, base.browser, base.page

pytestmark = pytest.mark.browser

# A House position that CP-SAT does not finish in 0.3 s (found "feasible, bound 217" there).
BIG_HOUSE = ROOT / "benchmarks" / "positions" / "house" / "house-50-00.toml"
SHORT = ["play 9D to bob/2", "discard KS"]  # an illegal turn of examples/house-classic


# ---------------------------------------------------------------- helpers
def listen(driver: Any) -> None:
    """Record every API request's body and answer the page sends from now on (window.sent)."""
    driver.execute_script("""
        window.sent = [];
        if (window.unwatchedFetch) return;
        window.unwatchedFetch = window.fetch;
        window.fetch = async (url, init) => {
          const entry = {url: String(url), body: init && init.body ? JSON.parse(init.body) : null, answer: null};
          window.sent.push(entry);
          const response = await window.unwatchedFetch(url, init);
          // the answer is the last line (/api/best with "progress" answers in JSON lines, the
          // answer last); read beside the page, which gets the response at once, as it comes
          response.clone().text().then((body) => {
            const lines = body.split("\\n").filter((line) => line.trim());
            entry.answer = lines.length ? JSON.parse(lines[lines.length - 1]) : null;
          }).catch(() => { entry.answer = null; });
          return response;
        };""")


def sent(driver: Any, path: str) -> list[dict[str, Any]]:
    """The requests to ``path`` recorded since listen(), with their answers once they came."""
    entries: list[dict[str, Any]] = driver.execute_script("return window.sent")
    return [entry for entry in entries if entry["url"].endswith(path)]


def best_answered(driver: Any, count: int) -> dict[str, Any]:
    """Wait for the ``count``-th /api/best answer and for the page to show it; that answer."""
    wait(driver, lambda d: len([e for e in sent(d, "/api/best") if e["answer"]]) >= count, 60)
    answer: dict[str, Any] = sent(driver, "/api/best")[count - 1]["answer"]
    wait(driver, lambda d: text(d, "best-status").startswith("Status:") and not d.find_element(
        By.ID, "best-button").get_attribute("disabled"), 30)
    return answer


def set_limit(driver: Any, seconds: str) -> None:
    box = driver.find_element(By.ID, "time-limit")
    box.clear()
    box.send_keys(seconds)


def paste(driver: Any, position: str) -> None:
    if not driver.find_element(By.ID, "paste").is_displayed():
        driver.find_element(By.CSS_SELECTOR, "#paste-box summary").click()
    box = driver.find_element(By.ID, "paste")
    box.clear()
    driver.execute_script("arguments[0].value = arguments[1]", box, position)  # send_keys types slowly
    click(driver, "#show-button")


def visible_tables(driver: Any) -> list[str]:
    return list(driver.execute_script(
        "return [...document.querySelectorAll('.table')].filter((e) => e.offsetParent).map((e) => e.id)"))


def type_steps(driver: Any, turn: list[str]) -> None:
    for step in turn:
        driver.find_element(By.ID, "steps-input").send_keys(step + "\n")
        wait(driver, lambda d, s=step: s in d.execute_script(  # read at once: the list is redrawn meanwhile
            "return [...document.querySelectorAll('#steps-list li')].map((li) => li.textContent)"))


# ------------------------------------------------------------------ tests
def test_the_time_limit_control_is_sent_with_best_check_and_hint(page: Any) -> None:
    load(page, "examples/house-classic")
    box = page.find_element(By.ID, "time-limit")
    assert box.get_attribute("value") == "10"  # the server's default (GET /api/limits)
    assert box.get_attribute("max") == "30"  # and its most: Settings' max_seconds
    listen(page)
    click(page, "#best-button")
    best_answered(page, 1)
    assert sent(page, "/api/best")[0]["body"]["time_limit"] == 10
    set_limit(page, "2.5")
    click(page, "#best-button")
    answer = best_answered(page, 2)
    assert sent(page, "/api/best")[1]["body"]["time_limit"] == 2.5
    assert answer["status"] == "optimal" and answer["verified"] is True  # the checker re-judged it
    assert "optimal" in text(page, "best-status")
    assert not page.find_element(By.ID, "longer-row").is_displayed()  # nothing to search longer for
    # More than the server grants is asked as its most, and the control says so.
    set_limit(page, "900")
    click(page, "#best-button")
    best_answered(page, 3)
    assert sent(page, "/api/best")[2]["body"]["time_limit"] == 30
    assert box.get_attribute("value") == "30"
    # No number: one error line, nothing sent.
    set_limit(page, "")
    click(page, "#best-button")
    wait(page, lambda d: d.find_element(By.ID, "best-error").is_displayed())
    assert text(page, "best-error").startswith("time limit: give a number of seconds")
    assert len(sent(page, "/api/best")) == 3
    # Check (which solves for the best turn too) sends it.
    set_limit(page, "4")
    click(page, "#my-move-button")
    type_steps(page, SHORT)
    check(page)
    assert sent(page, "/api/check")[-1]["body"]["time_limit"] == 4
    # And Hint, on a puzzle.
    load(page, first_shipped("house"))
    set_limit(page, "3")
    click(page, '.hint-level[data-level="1"]')
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#hints li[data-level]"))
    assert sent(page, "/api/hint")[-1]["body"]["time_limit"] == 3


def test_search_longer_is_offered_exactly_under_an_answer_cut_short(page: Any) -> None:
    paste(page, BIG_HOUSE.read_text())
    wait(page, lambda d: "Loaded the position: house-epic" in text(d, "result"))
    listen(page)
    set_limit(page, "0.3")
    click(page, "#best-button")
    limit, count = 0.3, 1
    shown = best_answered(page, count)  # the answer on the page
    shot(page, "frictions-01-feasible.png")
    # Doubling from 0.3 s up to the server's 30 s: at most 7 more searches (0.6 ... 19.2, 30).
    while shown["status"] in ("feasible", "unknown"):
        status_line = text(page, "best-status")
        assert page.find_element(By.ID, "longer-row").is_displayed()
        assert "optimal" not in status_line
        if shown["status"] == "feasible":
            assert shown["verified"] is True  # the checker re-judged it
            assert f"feasible, bound {shown['bound']}" in status_line
            assert text(page, "best-gain").startswith(f"gain {shown['gain']} ")
        if limit >= 30:
            assert not page.find_element(By.ID, "longer-button").is_enabled()
            break
        longer = round(min(30.0, limit * 2), 1)
        assert text(page, "longer-button") == f"Search longer ({longer:g} s)"
        click(page, "#longer-button")
        limit, count = longer, count + 1
        answer = best_answered(page, count)
        assert sent(page, "/api/best")[count - 1]["body"]["time_limit"] == pytest.approx(limit)
        assert float(page.find_element(By.ID, "time-limit").get_attribute("value")) == pytest.approx(limit)
        # The better of the two stays: a longer search is not always better (CP-SAT's parallel search).
        if answer["status"] == "optimal" or answer["gain"] >= shown["gain"]:
            shown = answer
        else:
            assert "less than this answer" in text(page, "longer-note")
        assert text(page, "best-gain").startswith(f"gain {shown['gain']} ")
    assert shown["verified"] is True
    assert page.find_element(By.ID, "longer-row").is_displayed() == (shown["status"] != "optimal")
    if shown["status"] == "optimal":
        assert "optimal" in text(page, "best-status")
    assert count >= 2, "0.3 s was enough for the whole search: no Search longer was offered"
    shot(page, "frictions-02-searched-longer.png")


def test_a_longer_search_that_finds_less_leaves_the_better_answer_shown(page: Any) -> None:
    """The page's side alone: the longer search's answer is the first one with its gain lowered
    (served by the page's own fetch, once), since a real one that finds less cannot be ordered."""
    paste(page, BIG_HOUSE.read_text())
    wait(page, lambda d: "Loaded the position: house-epic" in text(d, "result"))
    listen(page)
    set_limit(page, "0.3")
    click(page, "#best-button")
    first = best_answered(page, 1)
    assert first["status"] == "feasible", "0.3 s was enough for the whole search"
    page.execute_script("""
        const real = window.fetch, less = {...arguments[0], gain: arguments[0].gain - 5, bound: arguments[0].bound - 1};
        window.fetch = (url, init) => {
          window.fetch = real;
          window.sent.push({url: String(url), body: JSON.parse(init.body), answer: less});
          return Promise.resolve(new Response(JSON.stringify(less), {headers: {"Content-Type": "application/json"}}));
        };""", first)
    click(page, "#longer-button")
    best_answered(page, 2)
    assert sent(page, "/api/best")[1]["body"]["time_limit"] == 0.6
    assert text(page, "best-gain").startswith(f"gain {first['gain']} ")
    assert f"feasible, bound {first['bound']}" in text(page, "best-status")
    assert text(page, "longer-note") == (f"searched 0.6 s; that search found gain {first['gain'] - 5} (bound "
                                         f"{first['bound'] - 1}), less than this answer, found in 0.3 s, which stays")
    assert text(page, "longer-button") == "Search longer (1.2 s)"


def test_a_bad_paste_or_upload_clears_the_position_and_answer_before_it(page: Any, tmp_path: Path) -> None:
    load(page, "examples/house-classic")
    click(page, "#best-button")
    answered(page)
    assert "verified by the checker" in text(page, "best-verified")
    paste(page, 'rules = "house-classic"\nto_move = "ann"\n[[players]]\nname = "ann"\nhand = ["ZZ"]\n')
    wait(page, lambda d: d.find_element(By.ID, "load-error").is_displayed())
    for panel in ("position", "best-panel", "move-panel", "hint-panel"):
        assert not page.find_element(By.ID, panel).is_displayed(), panel
    assert not page.find_elements(By.CSS_SELECTOR, "#table .card")
    shot(page, "frictions-03-bad-paste.png")
    # A good position shows again; then a bad file clears it in the same way.
    load(page, "examples/robber")
    click(page, "#my-move-button")
    assert page.find_element(By.ID, "move-panel").is_displayed()
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml\n")
    page.find_element(By.ID, "file-input").send_keys(str(bad))
    wait(page, lambda d: d.find_element(By.ID, "load-error").is_displayed())
    assert "position" in text(page, "load-error")
    for panel in ("position", "best-panel", "move-panel"):
        assert not page.find_element(By.ID, panel).is_displayed(), panel
    assert not page.find_elements(By.CSS_SELECTOR, "#table .card")
    assert Select(page.find_element(By.ID, "load-select")).first_selected_option.get_attribute("value") == ""
    # Ctrl+Enter in the text shows it, as the Show button does.
    box = page.find_element(By.ID, "paste")
    page.execute_script("arguments[0].value = arguments[1]", box, (ROOT / "puzzles/examples/straight.toml").read_text())
    box.send_keys(Keys.CONTROL, Keys.ENTER)
    wait(page, lambda d: "Loaded the position: straight" in text(d, "result"))
    assert not page.find_element(By.ID, "load-error").is_displayed()
    assert page.find_elements(By.CSS_SELECTOR, "#table .card")


def test_the_shipped_list_is_grouped_by_collection_and_filtered_as_typed(page: Any) -> None:
    listing = json.loads(page.execute_script(
        "return fetch('/api/positions').then((r) => r.text())"))["collections"]
    total = sum(len(c["positions"]) for c in listing)
    groups = page.find_elements(By.CSS_SELECTOR, "#load-select optgroup")
    assert [g.get_attribute("label") for g in groups] == [f"{c['title']} ({len(c['positions'])})" for c in listing]
    assert text(page, "load-count") == f"{total} positions"
    box = page.find_element(By.ID, "load-filter")
    box.send_keys("ROBBER expert")  # every word, any case, any order
    ids = [o.get_attribute("value") for o in page.find_elements(By.CSS_SELECTOR, "#load-select option")][1:]
    expected = [p["id"] for c in listing for p in c["positions"]
                if p.get("rules") == "robber" and p.get("tier") == "expert"]
    assert ids == expected and ids
    assert [g.get_attribute("label") for g in page.find_elements(By.CSS_SELECTOR, "#load-select optgroup")] \
        == [f"Robber Rummy puzzles ({len(ids)})"]
    assert text(page, "load-count") == f"{len(ids)} of {total} positions"
    assert Select(page.find_element(By.ID, "load-select")).first_selected_option.get_attribute("value") == ids[0]
    shot(page, "frictions-04-filter.png")
    box.send_keys(Keys.ENTER)  # the keyboard alone: type, Enter opens the first match
    wait(page, lambda d: f"Loaded {ids[0]}:" in text(d, "result"))
    box.send_keys(" zzz")
    assert "none match" in text(page, "load-count")
    assert not page.find_elements(By.CSS_SELECTOR, "#load-select optgroup")
    box.send_keys(Keys.ESCAPE)  # empties the filter: the whole list again
    assert box.get_attribute("value") == ""
    assert len(page.find_elements(By.CSS_SELECTOR, "#load-select optgroup")) == len(listing)
    box.send_keys("straight-go-out-easy")
    box.send_keys(Keys.ARROW_DOWN)  # on to the list
    assert page.switch_to.active_element.get_attribute("id") == "load-select"


def test_a_check_on_a_phone_draws_the_table_once_with_its_breaches(page: Any) -> None:
    with phone(page):
        load(page, "examples/house-classic")
        click(page, "#my-move-button")
        type_steps(page, SHORT)
        assert check(page).startswith("✘ illegal")
        assert visible_tables(page) == ["table"]
        # The breaches are marked on that table: bob/2 not whole, the hot 2H kept in ann's hand.
        flagged = page.find_elements(By.CSS_SELECTOR, '#table .play[data-play="bob/2"] .card.breach')
        assert "9D" in [c.get_attribute("data-card") for c in flagged]
        assert page.find_elements(By.CSS_SELECTOR, '#table [data-player="ann"] .hand .card.breach[data-card="2H"]')
        assert page.find_element(By.ID, "check-marked").is_displayed()
        scroll, inner = page.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner == 390
        height = page.execute_script("return document.documentElement.scrollHeight")
        page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": 390, "height": min(int(height), 4000), "deviceScaleFactor": 1, "mobile": True})
        shot(page, "frictions-05-phone-check.png")
        page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        # A step more (or less) makes the marks stale: they go with the result.
        click(page, "#undo-button")
        wait(page, lambda d: not d.find_element(By.ID, "check-result").is_displayed())
        assert not page.find_elements(By.CSS_SELECTOR, "#table .card.breach")
        # With Best move open too: the position's table and the plan's, never a third.
        click(page, "#best-button")
        answered(page)
        assert "verified by the checker" in text(page, "best-verified")
        check(page)
        assert visible_tables(page) == ["table", "frame-table"]


def test_a_players_side_is_said_once(page: Any) -> None:
    load(page, "examples/house-classic-4p")
    heads = page.execute_script(  # read at once: the table may be redrawn meanwhile
        "return [...document.querySelectorAll('#table .player-head')].map((h) => h.innerText)")
    assert len(heads) == 4
    for head in heads:
        assert head.count("side ") == 1, head
