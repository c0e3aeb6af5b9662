"""The page of ``rummy serve`` in headless Chromium: load, best move, my move and check, hints,
draw advice, and a phone-sized screen.

The server runs in this process (uvicorn in a thread, one solver worker); one browser serves
every test. Screenshots of each stage go to ``test-artifacts/`` (gitignored); with
``RUMMY_WRITE_DOCS_PICTURES=1`` the best-move test also writes ``docs/pictures/serve.png``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.support.paths import REPO_ROOT

pytestmark = pytest.mark.browser  # -m "not browser" leaves them out (they need Chromium)

try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("selenium is not installed (pip install -e '.[test]')", allow_module_level=True)

try:
    import uvicorn  # noqa: F401  (the server of the page: tests/support/live_server.py)
except ImportError:  # pragma: no cover
    pytest.skip("uvicorn is not installed (pip install -e '.[test]')", allow_module_level=True)

CHROMIUM = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                 if (found := shutil.which(name))), None)
CHROMEDRIVER = shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:  # pragma: no cover
    pytest.skip("no headless browser: chromium and chromedriver must be on PATH "
                "(Debian: apt-get install chromium chromium-driver)", allow_module_level=True)

ROOT = REPO_ROOT
ARTIFACTS = ROOT / "test-artifacts"
DOCS_PICTURE = ROOT / "docs" / "pictures" / "serve.png"
WAIT = 20  # seconds; a solve on a busy machine takes a few

HOUSE_BEST = ["play 2H 2C to new/1", "move * from cat/1 to new/1", "play 8H 9H to new/2",
              "move 7H from bob/1 to new/2", "play 9D to cat/1", "discard KS"]


# --------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from rummy.web.app import Settings, create_app
    from tests.support.live_server import live_server

    with live_server(create_app(Settings(workers=1))) as port:  # as rummy serve runs it (its limits, its protocol)
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,900",
                     "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console: CSP violations show there
    try:
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    except WebDriverException as error:  # pragma: no cover - depends on the machine
        pytest.skip(f"chromium would not start: {error.msg}")
    ARTIFACTS.mkdir(exist_ok=True)
    yield driver
    driver.quit()


@pytest.fixture()
def page(server: str, browser: Any) -> Any:
    browser.get(server)
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#load-select option")) > 5)
    return browser


# ---------------------------------------------------------------- helpers
def wait(driver: Any, condition: Any, seconds: float = WAIT) -> Any:
    # An element the page redraws while the condition reads it is read again on the next try.
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,)).until(condition)


@contextmanager
def phone(driver: Any) -> Iterator[None]:
    """The page reloaded as a phone shows it (390 px wide), and back to the desktop afterwards."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        driver.refresh()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#load-select option")) > 5)
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def text(driver: Any, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def load(driver: Any, shipped_id: str) -> None:
    Select(driver.find_element(By.ID, "load-select")).select_by_value(shipped_id)
    driver.find_element(By.ID, "load-button").click()
    wait(driver, lambda d: f"Loaded {shipped_id}:" in text(d, "result"))


def answered(driver: Any, seconds: float = WAIT) -> None:
    """Wait for Best move's answer: its last one, drawn with its status. While the search runs the page
    draws the best turn so far (under "best so far ..."), which a later one replaces."""
    wait(driver, lambda d: text(d, "best-status").startswith("Status:")
         and d.find_element(By.ID, "best-button").is_enabled(), seconds)


def settled(driver: Any) -> None:
    """Wait for the steps on their way to the server (My move sends each one) to come back drawn."""
    wait(driver, lambda d: d.find_element(By.ID, "table").get_attribute("aria-busy") != "true")


def card(driver: Any, where: str, name: str) -> Any:
    settled(driver)
    return driver.find_element(By.CSS_SELECTOR, f'#table .card[data-where="{where}"][data-card="{name}"]')


def click(driver: Any, selector: str) -> None:
    settled(driver)
    driver.find_element(By.CSS_SELECTOR, selector).click()


def steps(driver: Any) -> list[str]:
    settled(driver)
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#steps-list li")]


def shot(driver: Any, name: str, full: bool = False) -> None:
    """A screenshot to test-artifacts/; ``full`` grows the window to the whole page first."""
    size = driver.get_window_size()
    if full:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(size["width"], min(int(height) + 140, 4000))
    driver.save_screenshot(str(ARTIFACTS / name))
    if full:
        driver.set_window_size(size["width"], size["height"])


def touch_drag(driver: Any, source: Any, target: Any) -> None:
    """Drag with a finger (touch pointer events), from the middle of one element to another's."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", source)
    middle = "const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]"
    (x, y), (x2, y2) = ([int(v) for v in driver.execute_script(middle, e)] for e in (source, target))
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    actions.pointer_action.move_to_location(x, y).pointer_down().move_to_location((x + x2) // 2, (y + y2) // 2) \
        .move_to_location(x2, y2).pointer_up()
    actions.perform()


def check(driver: Any) -> str:
    click(driver, "#check-button")
    wait(driver, lambda d: "legal" in text(d, "check-verdict"))
    return text(driver, "check-verdict")


# ------------------------------------------------------------------ tests
def test_best_move_steps_through_to_the_marked_end_state(page: Any) -> None:
    load(page, "examples/house-classic")
    assert page.find_elements(By.CSS_SELECTOR, '.play[data-play="ann/1"] .card[data-card="QS"]')
    assert page.find_element(By.CSS_SELECTOR, '.card[data-card="7H"]').get_attribute("aria-label") == "7 of hearts"
    shot(page, "01-loaded.png")
    click(page, "#best-button")
    answered(page)
    assert text(page, "best-gain").startswith("gain 94 = table points won 25")
    assert "optimal" in text(page, "best-status")
    assert len(page.find_elements(By.CSS_SELECTOR, "#best-steps li")) == 6
    assert "verified by the checker" in text(page, "best-verified")
    click(page, "#next-button")
    assert text(page, "frame-label").startswith("Step 1 of 6")
    touched = page.find_elements(By.CSS_SELECTOR, '#frame-table .play[data-play="new/1"] .card.touched')
    assert sorted(c.get_attribute("data-card") for c in touched) == ["2C", "2H"]
    while page.find_element(By.ID, "next-button").is_enabled():
        click(page, "#next-button")
    assert text(page, "frame-label").startswith("After the turn (step 6 of 6)")
    stolen = page.find_elements(By.CSS_SELECTOR, "#frame-table .card.mark-stolen")
    assert sorted(c.get_attribute("data-card") for c in stolen) == ["*", "7H"]
    assert page.find_element(By.ID, "legend").is_displayed()
    page.execute_script("document.getElementById('best-panel').scrollIntoView()")
    shot(page, "02-best.png")
    if os.environ.get("RUMMY_WRITE_DOCS_PICTURES") == "1":
        page.execute_script("window.scrollTo(0, 0)")
        shot(page, "02-best-full.png", full=True)
        DOCS_PICTURE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ARTIFACTS / "02-best-full.png", DOCS_PICTURE)


def step_cards(driver: Any, step: int) -> list[tuple[str, str, str]]:
    """The cards drawn among the words of best's step ``step``: (notation, class, spoken name) each."""
    found = driver.find_elements(By.CSS_SELECTOR, f'#best-steps li[data-step="{step}"] .step-cards .card.inline')
    return [(c.get_attribute("data-notation"), c.get_attribute("class"), c.get_attribute("aria-label")) for c in found]


def test_best_steps_draw_their_cards_as_the_table_does(page: Any) -> None:
    """Issue 26 §5: the steps show tiles in their colours and cards with suit symbols, each named
    for a screen reader; a fixed joker the turn frees is a step of its own, and a play of the table
    is named with its tiles where the plan first names it. The cards are no table cards (the
    table's selectors do not find them)."""
    load(page, "examples/rummikub-fixed-joker")
    click(page, "#best-button")
    answered(page)
    # the steps are shown once the answer is drawn (an element may exist, not shown yet, under load)
    wait(page, lambda d: any(li.text for li in d.find_elements(By.CSS_SELECTOR, '#best-steps li[data-step="1"]')))
    first = page.find_element(By.CSS_SELECTOR, '#best-steps li[data-step="1"]')
    assert first.text.startswith("replace the joker of table/1")
    assert "the joker is now free and must be played this turn" in first.text
    drawn = step_cards(page, 1)
    # the play as it lies (R5 R6 *=R7), then the tile put in: red tiles, the joker as a joker
    assert [n for n, _, _ in drawn] == ["R5", "R6", "*=R7", "R7"]
    assert "tile-red" in drawn[0][1] and drawn[0][2] == "red 5" and "joker" in drawn[2][1]
    assert drawn[2][2] == "joker as red 7"
    assert not page.find_elements(By.CSS_SELECTOR, '#best-steps .card[data-where]')
    shot(page, "02b-best-tiles.png")
    load(page, "examples/house-classic")
    click(page, "#best-button")
    answered(page)
    drawn = step_cards(page, 1)  # play 2C 2H from your hand to new/1 (ann's space), paying for the steal of *
    assert [n for n, _, _ in drawn] == ["2C", "2H", "*"]
    faces = [c.text for c in page.find_elements(By.CSS_SELECTOR, '#best-steps li[data-step="1"] .card.inline .face')]
    assert faces == ["2♣", "2♥", "★"] and "red" in drawn[1][1].split() and drawn[1][2] == "2 of hearts"
    assert "black" in drawn[0][1].split() and drawn[2][2] == "joker"
    # the words the command line prints stay the frame's label
    click(page, '#best-steps li[data-step="1"]')
    assert text(page, "frame-label").startswith("Step 1 of 6: play 2C 2H from your hand to new/1")


def test_the_page_works_within_its_content_security_policy(page: Any) -> None:
    """The server's CSP (rummy.web.guard) allows the board's own origin only: nothing the page does is blocked."""
    page.get_log("browser")  # what earlier tests left
    page.refresh()  # the page's own loading is watched too
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#load-select option")) > 5)
    load(page, "examples/house-classic")
    click(page, "#best-button")
    answered(page)
    assert "verified by the checker" in text(page, "best-verified")
    blocked = [entry["message"] for entry in page.get_log("browser") if "Content Security Policy" in entry["message"]]
    assert not blocked


def test_my_move_by_clicks_and_a_drag_is_legal_and_best(page: Any) -> None:
    load(page, "examples/house-classic")
    click(page, "#my-move-button")
    card(page, "hand", "2H").click()  # the step names the cards in the order they were picked
    card(page, "hand", "2C").click()
    click(page, '.new-play[data-space="ann"]')
    card(page, "cat/1", "*").click()
    click(page, '#table .play[data-play="new/1"]')
    card(page, "hand", "8H").click()
    card(page, "hand", "9H").click()
    click(page, '.new-play[data-space="ann"]')
    # The steal of 7H by dragging it with the mouse onto the new play.
    settled(page)
    target = page.find_element(By.CSS_SELECTOR, '#table .play[data-play="new/2"]')
    ActionChains(page).drag_and_drop(card(page, "bob/1", "7H"), target).perform()
    card(page, "hand", "9D").click()
    card(page, "cat/1", "10D").click()  # a tap on a card of another play puts the selection there
    card(page, "hand", "KS").click()
    click(page, "#table .discard-zone")
    assert steps(page) == HOUSE_BEST
    assert page.find_elements(By.CSS_SELECTOR, '#table .play[data-play="new/2"] .card[data-card="7H"]')
    verdict = check(page)
    assert verdict.startswith("✔ legal") and "gain 94" in verdict
    assert "As good as the best turn" in text(page, "check-best")
    shot(page, "03-my-move-legal.png", full=True)


def test_robber_steal_by_clicks_is_legal(page: Any) -> None:
    load(page, "examples/robber")
    click(page, "#my-move-button")
    card(page, "hand", "AS").click()
    card(page, "hand", "KS").click()
    click(page, '#table .play[data-play="ann/1"]')
    # Robber: the play became the mover's, and is drawn in her space.
    settled(page)
    assert page.find_elements(By.CSS_SELECTOR, '[data-player="cat"] .play[data-play="ann/1"]')
    # The discard with the keyboard: Enter on a card selects it, Enter on the pile drops it there.
    page.execute_script("arguments[0].focus()", card(page, "hand", "2C"))
    ActionChains(page).send_keys(Keys.ENTER).perform()
    page.execute_script("arguments[0].focus()", page.find_element(By.CSS_SELECTOR, "#table .discard-zone"))
    ActionChains(page).send_keys(Keys.ENTER).perform()
    assert steps(page) == ["play AS KS to ann/1", "discard 2C"]
    assert check(page).startswith("✔ legal")
    assert "short of the best" in text(page, "check-best")


def test_an_illegal_turn_lists_its_breaches_on_the_end_state(page: Any) -> None:
    load(page, "examples/house-classic")
    click(page, "#my-move-button")
    touch_drag(page, card(page, "hand", "9D"), page.find_element(By.CSS_SELECTOR, '#table .play[data-play="bob/2"]'))
    # The rest typed by hand, as a power user would.
    page.find_element(By.ID, "steps-input").send_keys("discard KS\n")
    assert steps(page) == ["play 9D to bob/2", "discard KS"]
    assert check(page).startswith("✘ illegal")
    codes = [li.get_attribute("data-code") for li in page.find_elements(By.CSS_SELECTOR, "#breaches li")]
    assert "not-whole" in codes
    # marked on the My move table, which shows the end state (the result draws no copy of it)
    flagged = page.find_elements(By.CSS_SELECTOR, '#table .play[data-play="bob/2"] .card.breach')
    assert "9D" in [c.get_attribute("data-card") for c in flagged]
    assert "hot-card-unplayed" in codes  # the hot 2H, kept in the hand, is marked there
    assert page.find_elements(By.CSS_SELECTOR, '#table [data-player="ann"] .hand .card.breach[data-card="2H"]')
    shot(page, "04-illegal.png", full=True)
    click(page, "#undo-button")
    assert steps(page) == ["play 9D to bob/2"]
    click(page, "#reset-button")
    assert steps(page) == []
    assert card(page, "hand", "9D")


def test_hint_level_two_gives_two_hints(page: Any) -> None:
    from tests.support.themed_puzzles import first_shipped

    load(page, first_shipped("house"))  # the index's first: the collections are remade now and then
    assert "Puzzle" in text(page, "puzzle")
    click(page, '.hint-level[data-level="2"]')
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#hints li[data-level]")) == 2)
    levels = page.find_elements(By.CSS_SELECTOR, "#hints li[data-level]")
    assert [li.get_attribute("data-level") for li in levels] == ["1", "2"]  # levels 3 and 4 not before asked
    assert all(li.text.startswith(f"Level {n}: ") and len(li.text) > len("Level 1: ") for n, li in enumerate(levels, 1))
    shot(page, "05-hint.png")


def test_draw_phase_gives_draw_advice(page: Any) -> None:
    load(page, "examples/house-classic-draw")
    assert text(page, "best-button") == "Draw advice"
    assert not page.find_element(By.ID, "my-move-button").is_displayed()
    click(page, "#best-button")
    answered(page)
    options = page.find_elements(By.CSS_SELECTOR, "#draw-options li")
    assert len(options) >= 2
    assert options[0].text.startswith("63") and "take this" in options[0].text
    assert "the discard pile, the top 4 cards: JH 5D 8D 9D" in options[0].text  # the command line's words
    page.execute_script("document.getElementById('best-panel').scrollIntoView()")
    shot(page, "06-draw.png")


def test_bad_input_shows_the_error_line_and_a_file_loads(page: Any) -> None:
    page.find_element(By.CSS_SELECTOR, "#paste-box summary").click()
    page.find_element(By.ID, "paste").send_keys('rules = "no-such-game"')
    click(page, "#show-button")
    wait(page, lambda d: d.find_element(By.ID, "load-error").is_displayed())
    assert "rules" in text(page, "load-error")
    page.find_element(By.ID, "file-input").send_keys(str(ROOT / "puzzles" / "examples" / "straight.toml"))
    wait(page, lambda d: "Loaded the position: straight" in text(d, "result"))
    assert not page.find_element(By.ID, "load-error").is_displayed()
    assert page.find_elements(By.CSS_SELECTOR, '#table .play[data-play="bob/1"] .card.layoff[data-card="QD"]')


def test_the_warnings_on_a_position_are_listed_under_it(page: Any, tmp_path: Any) -> None:
    path = tmp_path / "unmelded.toml"
    path.write_text((ROOT / "puzzles" / "examples" / "rummikub-lenient.toml").read_text().replace(
        "[players.ann]\nmelded = true\n", "[players.ann]\n"))
    page.find_element(By.ID, "file-input").send_keys(str(path))
    wait(page, lambda d: "Loaded the position: rummikub-lenient" in text(d, "result"))
    assert page.find_element(By.ID, "position-warnings").is_displayed()
    assert text(page, "position-warnings") == ("warning: position: players.ann: ann has not melded "
                                               "(melded = false unless given): ann's first meld needs 30 points")
    load(page, "examples/rummikub-lenient")
    assert not page.find_element(By.ID, "position-warnings").is_displayed()


def test_phone_width_has_no_horizontal_scrolling(page: Any) -> None:
    with phone(page):
        load(page, "examples/house-classic")
        widths = "return [document.documentElement.scrollWidth, window.innerWidth]"
        scroll, inner = page.execute_script(widths)
        assert inner == 390 and scroll <= inner
        assert page.find_element(By.ID, "table").is_displayed()
        click(page, "#my-move-button")
        click(page, "#best-button")
        answered(page)
        scroll, inner = page.execute_script(widths)
        assert scroll <= inner
        small = page.execute_script(
            "return [...document.querySelectorAll('#table .card, button')].filter(e => e.offsetParent)"
            ".filter(e => e.getBoundingClientRect().height < 32).length")
        assert small == 0  # tap targets at least 32 px high
        shot(page, "07-phone.png")


def test_a_lay_off_stays_drawn_when_the_mover_lays_off_too(page: Any) -> None:
    load(page, "examples/straight")
    click(page, "#my-move-button")
    # Straight: new plays only in the mover's space.
    zones = page.find_elements(By.CSS_SELECTOR, "#table .new-play")
    assert [z.get_attribute("data-space") for z in zones] == ["cat"]
    card(page, "hand", "KD").click()
    click(page, '#table .play[data-play="bob/1"]')
    assert steps(page) == ["play KD to bob/1"]
    bob = '#table .play[data-play="bob/1"]'
    assert [c.get_attribute("data-card") for c in page.find_elements(By.CSS_SELECTOR, bob + " .cards > .card")] \
        == ["9D", "10D", "JD"]
    assert page.find_elements(By.CSS_SELECTOR, bob + ' .layoffs[data-by="ann"] .card.layoff[data-card="QD"]')
    assert page.find_elements(By.CSS_SELECTOR, bob + ' .layoffs[data-by="cat"] .card.layoff[data-card="KD"]')
    assert not page.find_elements(By.CSS_SELECTOR, '#table .hand .card[data-card="KD"]')
    # A step the server refuses is not added: its error line says why.
    page.find_element(By.ID, "steps-input").send_keys("play 5S to new/1\n")
    wait(page, lambda d: d.find_element(By.ID, "steps-error").is_displayed())
    assert "step 2: 5S is not in cat's hand" in text(page, "steps-error")
    assert steps(page) == ["play KD to bob/1"]
    assert page.find_element(By.ID, "steps-input").get_attribute("value") == "play 5S to new/1"
    shot(page, "08-straight-layoff.png", full=True)
    # Best's frames draw the lay-offs as lay-offs, ann's QD untouched by the first step.
    click(page, "#best-button")
    answered(page)
    click(page, "#next-button")
    frame = '#frame-table .play[data-play="bob/1"]'
    assert page.find_elements(By.CSS_SELECTOR, frame + ' .layoffs[data-by="ann"] .card[data-card="QD"]:not(.touched)')
    while page.find_element(By.ID, "next-button").is_enabled():
        click(page, "#next-button")
    assert page.find_elements(By.CSS_SELECTOR, frame + ' .layoffs[data-by="ann"] .card[data-card="QD"]')
    assert page.find_elements(By.CSS_SELECTOR, frame + ' .layoffs[data-by="cat"] .card[data-card="KD"]')


def test_house_rummy_offers_a_new_play_in_every_space(page: Any) -> None:
    load(page, "examples/house-classic")
    click(page, "#my-move-button")
    zones = page.find_elements(By.CSS_SELECTOR, "#table .new-play")
    assert sorted(z.get_attribute("data-space") for z in zones) == ["ann", "bob", "cat"]
