"""The position editor of the page (rummy/web/static/editor.js) in headless Chromium: a shipped
position built from nothing as a user would (taps and keys, counted), its best move the
command line's, the deck picker on a phone, the keyboard alone, the reader's messages beside
the part they concern, editing a loaded position, and named positions kept in the browser.

The fixtures (a live server, one browser) are tests/web/test_browser.py's. Screenshots go to
``test-artifacts/``; with ``RUMMY_WRITE_DOCS_PICTURES=1`` the build test also writes
``docs/pictures/editor.png``.
"""

# ruff: noqa: F811  (the fixtures are test_browser.py's, imported: each test's `page` argument is one)
from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import PUZZLE_EXAMPLES, REPO_ROOT
from tests.web.test_browser import ARTIFACTS, answered, browser, page, phone, server, shot, text, wait  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException  # noqa: E402  (after the skips)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

HOUSE = PUZZLE_EXAMPLES / "house-classic.toml"
REAL = REPO_ROOT / "benchmarks" / "positions" / "house-real" / "real-3p-02.toml"
DOCS_PICTURE = REPO_ROOT / "docs" / "pictures" / "editor.png"


@dataclass
class User:
    """Drives the editor as a person would, counting taps (a click, a checkbox; a select is two:
    open it, choose) and keystrokes (each character typed, and Enter)."""

    driver: Any
    taps: int = 0
    keys: int = 0

    def find(self, selector: str) -> Any:
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def tap(self, selector: str) -> None:
        def click() -> None:
            element = self.find(selector)
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()

        again_if_redrawn(click)
        self.taps += 1

    def choose(self, selector: str, value: str) -> None:
        again_if_redrawn(lambda: Select(self.find(selector)).select_by_value(value))
        self.taps += 2

    def type(self, selector: str, words: str, enter: bool = False) -> None:
        """Tap a box, select what it holds (a number box) and type over it."""
        self.tap(selector)
        box = self.find(selector)
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(words + (Keys.ENTER if enter else ""))
        self.keys += len(words) + (1 if enter else 0)
        if not enter:  # a number box takes its value when it loses the focus (change)
            self.driver.execute_script("arguments[0].blur()", box)

    def pick(self, *cards: str) -> None:
        for card in cards:
            self.tap(f'#ed-picker .pick[data-card="{card}"]')

    def target(self, value: str) -> None:
        selector = f'#editor .ed-target[data-key="t-{value}"]'
        self.tap(selector)
        # The reader's messages coming back (debounced) move the parts below them: on a busy machine a
        # tap can land where the button was. A person sees the ● did not move and taps again.
        try:
            wait(self.driver, lambda d: d.find_element(By.CSS_SELECTOR, selector).get_attribute("aria-pressed") == "true", 3)
        except (TimeoutException, StaleElementReferenceException):
            self.tap(selector)

    def place(self, where: str) -> None:
        """Wait for the live check, then place the play: ``space:I`` (the I-th player's), ``table``."""
        wait(self.driver, lambda d: d.find_element(By.ID, "ed-check").text not in ("checking…", ""))
        self.tap(f'#editor .ed-place[data-place-to="{where}"]')


def again_if_redrawn(action: Callable[[], None]) -> None:
    """The editor redraws its parts when a check comes back: an element found just before may be gone
    (a person's tap lands on what is drawn then). Found again, at most a few times."""
    for _ in range(5):
        try:
            action()
            return
        except StaleElementReferenceException:
            continue
    action()


def best_gain_of(path: Path) -> str:
    from tests.support.cli import run_cli

    return str(json.loads(run_cli("best", path, "--json", "--time-limit", "20").stdout)["gain"])


def open_editor(driver: Any) -> User:
    user = User(driver)
    user.tap("#editor-new")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#ed-picker .pick"))
    return user


def reader_says_fine(driver: Any) -> None:
    try:
        wait(driver, lambda d: "The reader takes this position." in text(d, "ed-msg-other"))
    except TimeoutException:
        said = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#editor .ed-msg")]
        raise AssertionError(f"the reader refuses the editor's position: {said}") from None


def enter_house_classic(user: User) -> None:
    """puzzles/examples/house-classic.toml, from nothing."""
    user.choose("#ed-hand-number", "3")
    user.tap("#ed-add-player")
    for i in range(3):
        user.tap(f'#editor input[data-key="melded{i}"]')
    user.type('#editor input[data-key="count1"]', "4")
    user.type('#editor input[data-key="count2"]', "5")
    user.pick("9D", "8H", "9H")  # into ann's hand, the first target
    user.type("#ed-type", "2c 2h ks", enter=True)  # typing works too
    wait(user.driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, '#editor [data-key^="hand0-"]')) == 6)
    user.choose("#ed-tap", "hot")
    user.tap('#editor [data-key="hand0-4"]')  # 2H
    user.target("build")
    user.pick("QC", "QD", "QS")
    user.place("space:0")
    user.pick("7S", "7H", "7D", "7C")
    user.place("space:1")
    user.pick("3S", "4S", "5S")
    user.place("space:1")
    user.pick("*", "10D", "JD")
    user.place("space:2")
    user.target("discard")
    user.pick("KD", "4H", "6C")
    user.type("#ed-stock", "23")


def test_the_house_example_built_from_nothing_has_the_command_lines_best_move(page: Any) -> None:
    user = open_editor(page)
    enter_house_classic(user)
    reader_says_fine(page)
    wanted = best_gain_of(HOUSE)
    shot(page, "20-editor-house.png", full=True)
    if os.environ.get("RUMMY_WRITE_DOCS_PICTURES") == "1":  # the whole editor: the window grown to hold it
        size = page.get_window_size()
        page.set_window_size(size["width"], page.execute_script("return document.documentElement.scrollHeight") + 140)
        page.find_element(By.ID, "editor").screenshot(str(DOCS_PICTURE))
        page.set_window_size(size["width"], size["height"])
    user.tap("#ed-open")
    wait(page, lambda d: "Loaded the position: house-classic" in text(d, "result"))
    # The editor wrote the same position the file holds.
    written = json.loads(page.find_element(By.ID, "paste").get_attribute("value"))
    from rummy.position import Position

    assert Position.from_data(written) == Position.from_file(HOUSE)
    user.tap("#best-button")
    answered(page, 60)
    assert text(page, "best-gain").startswith(f"gain {wanted} ")  # the command line's gain (94)
    assert text(page, "best-verified").startswith("✔ verified")  # the page's answer, re-judged by the checker
    print(f"house-classic: {user.taps} taps, {user.keys} keystrokes; its TOML {len(HOUSE.read_text())} characters")


def test_entering_a_real_house_position_costs_fewer_actions_than_its_toml(page: Any) -> None:
    user = open_editor(page)
    user.choose("#ed-hand-number", "2")
    user.tap("#ed-add-player")
    user.choose("#ed-to-move", "cat")  # cat's hand known, ann's (empty) not: cards go to cat's hand
    for i in range(3):
        user.tap(f'#editor input[data-key="melded{i}"]')
    user.type('#editor input[data-key="count0"]', "2")
    user.type('#editor input[data-key="count1"]', "2")
    user.pick("6S", "4D", "JC", "8S", "AH", "7S", "10D", "10S", "QC", "AD")
    user.target("build")
    for cards, owner in ((("*", "3H", "4H"), 0), (("QS", "QH", "QD"), 0), (("3S", "4S", "5S"), 0),
                         (("KH", "KD", "KC"), 0), (("6H", "6D", "6C"), 1), (("9S", "9D", "9C", "*"), 2),
                         (("8H", "8D", "8C"), 2), (("2S", "2H", "2C"), 2)):
        user.pick(*cards)
        user.place(f"space:{owner}")
    user.target("discard")
    user.pick("2D", "5C", "9H", "10C", "JD")
    user.type("#ed-stock", "10")
    reader_says_fine(page)
    user.tap("#ed-open")
    wait(page, lambda d: "Loaded the position: house-classic" in text(d, "result"))
    written = json.loads(page.find_element(By.ID, "paste").get_attribute("value"))
    from rummy.position import Position

    assert Position.from_data(written) == Position.from_file(REAL)
    actions, characters = user.taps + user.keys, len(REAL.read_text())
    (ARTIFACTS / "editor-entry-count.txt").write_text(
        f"{REAL.name}: {user.taps} taps + {user.keys} keystrokes = {actions} actions; its TOML {characters} characters\n")
    assert actions < characters / 3


def test_the_picker_needs_no_sideways_scrolling_on_a_phone(page: Any) -> None:
    with phone(page):
        for preset in ("house-classic", "rummikub", "robber"):
            user = open_editor(page) if not page.find_element(By.ID, "editor").is_displayed() else User(page)
            user.choose("#ed-preset", preset)
            wait(page, lambda d: d.find_element(By.ID, "ed-picker").get_attribute("data-deck") is not None)
            scroll, inner = page.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert inner == 390 and scroll <= inner
            picker = page.find_element(By.ID, "ed-picker")
            assert page.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", picker)
            right = page.execute_script(
                "return Math.max(...[...arguments[0].querySelectorAll('.pick')].map(e => e.getBoundingClientRect().right))",
                picker)
            assert right <= 390
            shot(page, f"21-editor-phone-{preset}.png")


def test_a_card_is_added_with_the_keyboard_alone(page: Any) -> None:
    def tab_to(element_id: str) -> None:
        for _ in range(60):
            active = page.switch_to.active_element
            if active.get_attribute("id") == element_id:
                return
            active.send_keys(Keys.TAB)
        raise AssertionError(f"Tab never reached #{element_id}")

    tab_to("editor-new")  # from the top of the page
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait(page, lambda d: d.switch_to.active_element.get_attribute("id") == "ed-preset")
    tab_to("ed-type")  # from the rules, through every control on the way
    page.switch_to.active_element.send_keys("7h", Keys.ENTER)
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-key="hand0-0"]'))
    # Tab on to the deck: a card button takes Enter.
    page.switch_to.active_element.send_keys(Keys.TAB, Keys.TAB)  # the Add button, then the first card
    assert page.switch_to.active_element.get_attribute("data-card") == "AS"
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-key="hand0-1"]'))
    hand = [e.get_attribute("aria-label") for e in page.find_elements(By.CSS_SELECTOR, '#editor [data-key^="hand0-"]')]
    assert hand == ["7 of hearts", "ace of spades"]
    assert page.find_element(By.CSS_SELECTOR, '#ed-picker .pick[data-card="7H"]').get_attribute("disabled") is not None


def test_the_readers_message_stands_beside_the_part_it_concerns(page: Any) -> None:
    user = open_editor(page)
    user.choose("#ed-preset", "rummikub")
    user.target("build")
    user.pick("K5", "K6", "*")
    wait(page, lambda d: d.find_elements(By.ID, "ed-stand-in"))  # K4 or K7: a fixed joker must say
    user.place("table")
    message = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-place="table[1]"] .ed-msg'))
    assert "could stand for more than one card" in message[0].text
    user.tap('#editor [data-key="edit-table/1"]')
    wait(page, lambda d: d.find_elements(By.ID, "ed-stand-in"))
    Select(page.find_element(By.ID, "ed-stand-in")).select_by_value("K7")
    wait(page, lambda d: d.find_element(By.ID, "ed-check").text.startswith("whole")
         and d.find_elements(By.CSS_SELECTOR, '#editor [data-key="build-2"]'))
    assert page.find_element(By.CSS_SELECTOR, '#editor [data-key="build-2"]').get_attribute("aria-label") == "joker as black 7"
    user.place("table")
    wait(page, lambda d: not d.find_elements(By.CSS_SELECTOR, "#editor .ed-msg") and "takes" in text(d, "ed-msg-other"))
    # A bad hand count is told beside that hand.
    user.type('#editor input[data-key="count1"]', "300")
    message = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-place="players.bob.hand_count"] .ed-msg'))
    assert message[0].text.startswith("players.bob.hand_count:")


def test_a_loaded_position_is_edited_and_kept_in_the_browser(page: Any) -> None:
    from tests.web.test_browser import load

    load(page, "examples/house-classic")
    user = User(page)
    user.tap("#editor-edit")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-play="bob/1"]'))
    # Take the 7C off bob/1, move cat's play to bob, save it by name, reload the page, load it.
    user.tap('#editor [data-key="bob/1-3"]')
    Select(page.find_element(By.CSS_SELECTOR, '#editor [data-key="move-cat/1"]')).select_by_value("1")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-play="bob/3"]'))
    assert page.find_element(By.CSS_SELECTOR, '#ed-picker .pick[data-card="7C"]').get_attribute("disabled") is None
    reader_says_fine(page)
    user.type("#ed-save-name", "bob holds it")
    user.tap("#ed-save")
    page.refresh()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#load-select option")) > 5)
    open_editor(page)
    Select(page.find_element(By.ID, "ed-saved")).select_by_value("bob holds it")
    page.find_element(By.ID, "ed-load-saved").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-play="bob/3"]'))
    page.find_element(By.ID, "ed-open").click()
    wait(page, lambda d: "Loaded the position: house-classic" in text(d, "result"))
    data = json.loads(page.find_element(By.ID, "paste").get_attribute("value"))
    assert data["players"]["bob"]["space"] == ["7S 7H 7D", "3S 4S 5S", "* 10D JD"]
    assert data["players"]["ann"]["hot"] == "2H" and "space" not in data["players"]["cat"]
    page.execute_script("localStorage.clear()")


@pytest.mark.parametrize("example", sorted(path.stem for path in PUZZLE_EXAMPLES.glob("*.toml")))
def test_every_example_goes_through_the_editor_unchanged(page: Any, example: str) -> None:
    from rummy.position import Position
    from tests.web.test_browser import load

    load(page, f"examples/{example}")
    page.find_element(By.ID, "editor-edit").click()
    wait(page, lambda d: d.find_element(By.ID, "editor").is_displayed() and d.find_elements(By.CSS_SELECTOR, "#ed-picker .pick"))
    reader_says_fine(page)
    page.find_element(By.ID, "ed-open").click()
    wait(page, lambda d: not d.find_element(By.ID, "editor").is_displayed())
    written = json.loads(page.find_element(By.ID, "paste").get_attribute("value"))
    assert Position.from_data(written) == Position.from_file(PUZZLE_EXAMPLES / f"{example}.toml")


def test_a_lay_off_is_built_under_the_play_it_was_laid_on(page: Any) -> None:
    user = open_editor(page)
    user.choose("#ed-preset", "straight")
    user.target("build")
    user.pick("9D", "10D", "JD")
    user.place("space:1")
    user.pick("QD")
    wait(page, lambda d: d.find_elements(By.ID, "ed-layoff-on"))
    user.choose("#ed-by", "0")
    user.tap("#ed-layoff")
    laid = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-play="bob/1"] .layoffs'))
    assert "laid off by ann" in laid[0].text
    reader_says_fine(page)
    user.tap("#ed-open")
    wait(page, lambda d: "Loaded the position: straight" in text(d, "result"))
    data = json.loads(page.find_element(By.ID, "paste").get_attribute("value"))
    assert data["players"]["ann"]["layoffs"] == ["bob/1 QD"] and data["players"]["bob"]["space"] == ["9D 10D JD"]
    assert page.find_elements(By.CSS_SELECTOR, '#table .play[data-play="bob/1"] .card.layoff[data-card="QD"]')


def test_a_play_is_split_and_joined_again(page: Any) -> None:
    user = open_editor(page)
    user.target("build")
    user.pick("3S", "4S", "5S", "6S", "7S", "8S")
    user.place("space:0")

    def plays() -> list[str]:
        wait(page, lambda d: "The reader takes" in text(d, "ed-msg-other") or d.find_elements(By.CSS_SELECTOR, ".ed-msg"))
        return [" ".join(c.get_attribute("data-card") for c in play.find_elements(By.CSS_SELECTOR, ".card"))
                for play in page.find_elements(By.CSS_SELECTOR, "#editor .ed-play")]

    # Split: a tap moves a card of the play into New play.
    user.choose("#ed-tap", "build")
    for _ in range(3):
        user.tap('#editor [data-key="ann/1-3"]')
    wait(page, lambda d: d.find_element(By.ID, "ed-check").text.startswith("whole"))
    user.place("space:1")
    assert plays() == ["3S 4S 5S", "6S 7S 8S"]
    # Join: Edit takes a play into New play, with what is there.
    user.tap('#editor [data-key="edit-bob/1"]')
    user.tap('#editor [data-key="edit-ann/1"]')
    wait(page, lambda d: d.find_element(By.ID, "ed-check").text.startswith("whole"))
    user.place("space:0")
    assert plays() == ["6S 7S 8S 3S 4S 5S"]
    assert page.find_element(By.CSS_SELECTOR, '#ed-picker .pick[data-card="6S"]').get_attribute("disabled") is not None


def test_a_pasted_position_with_a_listed_stock_goes_through_the_editor_unchanged(page: Any) -> None:
    from rummy.position import Position

    pasted = HOUSE.read_text().replace("stock = 23", 'stock = "AS 2S"')
    page.find_element(By.CSS_SELECTOR, "#paste-box summary").click()
    page.execute_script("document.getElementById('paste').value = arguments[0]", pasted)
    page.find_element(By.ID, "show-button").click()
    wait(page, lambda d: "Loaded the position: house-classic" in text(d, "result"))
    user = User(page)
    user.tap("#editor-edit")
    listed = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-key^="stock-"]'))
    assert [e.get_attribute("aria-label") for e in listed] == ["ace of spades", "2 of spades"]
    assert page.find_element(By.CSS_SELECTOR, '#ed-picker .pick[data-card="AS"]').get_attribute("disabled") is not None
    reader_says_fine(page)
    user.tap("#ed-open")
    wait(page, lambda d: not d.find_element(By.ID, "editor").is_displayed())
    written = json.loads(page.find_element(By.ID, "paste").get_attribute("value"))
    assert written["piles"]["stock"] == "AS 2S"
    assert Position.from_data(written) == Position.from_toml(pasted)
