"""The position editor's table as a bag (rummy/web/static/editbag.js) in headless Chromium: the
issue's test position entered as a bag, one tap a tile, gets the command line's best move; the
same position entered play by play, for the count of taps; the reader's lines beside the bag (a
stray tile, a fixed joker without its stand-in); and a bag switched back to the plays rummy made.

The fixtures (a live server, one browser) are tests/web/test_browser.py's; the user who counts
taps is tests/web/test_editor_browser.py's.
"""

# ruff: noqa: F811  (the fixtures are test_browser.py's, imported: each test's `page` argument is one)
from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from tests.support.paths import REPO_ROOT
from tests.web.test_browser import ARTIFACTS, answered, browser, page, server, shot, text, wait  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from tests.web.test_editor_browser import User, open_editor, reader_says_fine  # noqa: E402

# The issue's test position (from another Rummikub solver's suite): R5-13 is R5 ... R13.
BAG = "R5-13 B7-13 B10 B1 O1 O10 O11 K3-7 K9-11 K1 K13 *"
BAG_TILES = ([f"R{n}" for n in range(5, 14)] + [f"B{n}" for n in range(7, 14)] + ["B10", "B1", "O1", "O10", "O11"]
             + [f"K{n}" for n in range(3, 8)] + [f"K{n}" for n in range(9, 12)] + ["K1", "K13", "*"])
HAND = "R2 R12 B2 O2 O5 O6 O8 K2 K12"
# The same table as plays, as a player would group it.
PLAYS = (("K3", "K4", "K5", "K6", "K7"), ("K9", "K10", "K11"), tuple(f"R{n}" for n in range(5, 13)), ("*", "O10", "O11"),
         ("B7", "B8", "B9", "B10"), ("B10", "B11", "B12"), ("K1", "O1", "B1"), ("K13", "R13", "B13"))
# Taps and keystrokes spent on the table, by how it was entered (the tests below fill it in, in file order).
TABLE_ACTIONS: dict[str, tuple[int, int]] = {}


def command_line_best() -> dict[str, Any]:
    # A process of its own: --time-limit counts from the process's start (rummy.deadline), and this
    # test process may have run for longer than that already.
    done = subprocess.run([sys.executable, "-m", "rummy", "best", "--rules", "rummikub-lenient", "--table", BAG,
                           "--hand", HAND, "--melded", "--json", "--time-limit", "20"],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def enter_the_rest(user: User) -> None:
    """Rules, ann melded with her hand (the first target), bob holding 14 tiles (the command line's
    assumption, and the editor's: an unknown hand starts at the deal, nothing to type)."""
    user.choose("#ed-preset", "rummikub-lenient")
    user.tap('#editor input[data-key="melded0"]')
    user.pick(*HAND.split())
    assert user.find('#editor input[data-key="count1"]').get_attribute("value") == "14"


def written(driver: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(driver.find_element(By.ID, "paste").get_attribute("value"))
    return data


def test_the_issues_bag_entered_tile_by_tile_gets_the_command_lines_best_move(page: Any) -> None:
    user = open_editor(page)
    enter_the_rest(user)
    before = user.taps, user.keys
    user.tap("#ed-bag-mode")  # taps now go into the bag
    user.pick(*BAG_TILES)
    TABLE_ACTIONS["bag, tapped"] = user.taps - before[0], user.keys - before[1]
    wait(page, lambda d: "32 tiles" in d.find_element(By.CSS_SELECTOR, '#editor [data-key="t-bag"]').text)
    # Free counts count the bag: it holds both B10s (none left) and one of the two R10s.
    assert page.find_element(By.CSS_SELECTOR, '#ed-picker .pick[data-card="B10"]').get_attribute("disabled") is not None
    assert page.find_element(By.CSS_SELECTOR, '#ed-picker .pick[data-card="R10"] .free').text == "1"
    reader_says_fine(page)
    shot(page, "22-editor-bag.png", full=True)
    user.tap("#ed-open")
    wait(page, lambda d: "Loaded the position: rummikub-lenient" in text(d, "result"))
    data = written(page)
    assert isinstance(data["table"], str) and sorted(data["table"].split()) == sorted(BAG_TILES)
    assert data["players"]["bob"]["hand_count"] == 14
    assert text(page, "table-bag") == "table arranged by rummy from a bag of 32 tiles"
    assert len(page.find_elements(By.CSS_SELECTOR, '#table .play[data-play^="table/"]')) == 8
    wanted = command_line_best()
    assert (wanted["status"], wanted["cards_played"], wanted["table_bag"]) == ("optimal", 8, 32)
    user.tap("#best-button")
    answered(page, 60)
    assert "optimal" in text(page, "best-status")
    first_number = re.search(r"\d+", text(page, "best-gain"))  # "tiles played 8 ...": the gain's name, then it
    assert first_number is not None and first_number.group() == str(wanted["gain"])
    assert text(page, "best-bag") == "table arranged by rummy from a bag of 32 tiles"
    assert "✔ verified" in text(page, "best-verified")
    # Edit brings the bag back as a bag.
    user.tap("#editor-edit")
    wait(page, lambda d: "32 tiles" in d.find_element(By.CSS_SELECTOR, '#editor [data-key="t-bag"]').text)
    page.find_element(By.ID, "ed-close").click()


def test_the_bag_is_typed_with_shorthands(page: Any) -> None:
    user = open_editor(page)
    user.choose("#ed-preset", "rummikub-lenient")
    before = user.taps, user.keys
    user.tap("#ed-bag-mode")
    user.type("#ed-type", BAG, enter=True)
    TABLE_ACTIONS["bag, typed"] = user.taps - before[0], user.keys - before[1]
    wait(page, lambda d: "32 tiles" in d.find_element(By.CSS_SELECTOR, '#editor [data-key="t-bag"]').text)
    bag = [e.get_attribute("aria-label") for e in page.find_elements(By.CSS_SELECTOR, '#editor [data-key^="bag-"].ed-card')]
    assert len(bag) == 32 and bag[-1] == "joker"


def test_the_same_position_entered_play_by_play_takes_more_taps(page: Any) -> None:
    user = open_editor(page)
    enter_the_rest(user)
    before = user.taps, user.keys
    user.target("build")
    for play in PLAYS:
        user.pick(*play)
        user.place("table")
    TABLE_ACTIONS["plays"] = user.taps - before[0], user.keys - before[1]
    reader_says_fine(page)
    user.tap("#ed-open")
    wait(page, lambda d: "Loaded the position: rummikub-lenient" in text(d, "result"))
    data = written(page)
    assert isinstance(data["table"], list) and sorted(" ".join(data["table"]).split()) == sorted(BAG_TILES)
    assert page.find_element(By.ID, "table-bag").is_displayed() is False  # given as plays: nothing arranged
    counts = "; ".join(f"{how}: {taps} taps + {keys} keystrokes" for how, (taps, keys) in TABLE_ACTIONS.items())
    (ARTIFACTS / "editor-bag-count.txt").write_text(f"the table {BAG}, entered as {counts}\n")
    print(counts)
    if "bag, tapped" in TABLE_ACTIONS:  # run with the bag test (the whole file)
        assert sum(TABLE_ACTIONS["bag, tapped"]) < sum(TABLE_ACTIONS["plays"])


def test_a_stray_tile_in_the_bag_is_told_beside_the_table_and_the_bag_becomes_plays(page: Any) -> None:
    user = open_editor(page)
    user.choose("#ed-preset", "rummikub-lenient")
    user.tap("#ed-bag-mode")
    user.pick("R5", "R6", "R7", "K9")
    message = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor #ed-table [data-place="table"] .ed-msg'))
    assert message[0].text == "table: K9 fits in no play with the other tiles of the bag: the table cannot be arranged"
    user.tap('#editor [data-key="bag-3"]')  # a tap takes the stray tile off
    reader_says_fine(page)
    assert not page.find_elements(By.CSS_SELECTOR, "#editor .ed-msg")
    assert page.find_element(By.CSS_SELECTOR, '#ed-picker .pick[data-card="K9"] .free').text == "2"
    assert page.find_element(By.CSS_SELECTOR, '#ed-picker .pick[data-card="R5"] .free').text == "1"
    user.tap("#ed-bag-mode")  # back to plays: the ones rummy laid out
    play = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-play="table/1"]'))
    assert [c.get_attribute("data-card") for c in play[0].find_elements(By.CSS_SELECTOR, ".card")] == ["R5", "R6", "R7"]


def test_a_fixed_joker_in_the_bag_is_asked_what_it_stands_for(page: Any) -> None:
    user = open_editor(page)
    user.choose("#ed-preset", "rummikub")
    user.tap("#ed-bag-mode")
    user.pick("R5", "R6", "*")
    message = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-place="table"] .ed-msg'))
    assert message[0].text.startswith("table: 1 joker without a stand-in: under rummikub jokers are fixed")
    Select(page.find_element(By.ID, "ed-bag-stand-in")).select_by_value("R7")
    reader_says_fine(page)
    assert not page.find_elements(By.ID, "ed-bag-stand-in")
    user.tap("#ed-open")
    wait(page, lambda d: "Loaded the position: rummikub" in text(d, "result"))
    assert written(page)["table"] == "R5 R6 *=R7"
    assert text(page, "table-bag") == "table arranged by rummy from a bag of 3 tiles"
