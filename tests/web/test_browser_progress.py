"""Best move while it searches, in headless Chromium (issue 28 §3, docs/serve.md "Best move while it
searches"): the best turn so far and its bound shown as the search finds them, Stop ending the search
(the server's worker stopped) with the turn kept as feasible, draw advice's options filled in as they
are valued, and the answer in one piece (plain JSON) read as before.

The browser is tests/web/test_browser.py's (and so are its skips: no Chromium, no selenium, no
uvicorn); the server is this module's own, so that its solver pool can be asked what it stopped.
Screenshots (desktop and 390 px wide) go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.paths import REPO_ROOT
from tests.web.test_browser import ARTIFACTS, WAIT, browser, load, shot, text, wait  # noqa: F401  (fixture, skips)

pytestmark = pytest.mark.browser

from selenium.webdriver.common.by import By  # noqa: E402  (after test_browser's skip when selenium is absent)

POSITIONS = REPO_ROOT / "benchmarks" / "positions"
LONG_SEARCH = POSITIONS / "house-real" / "unmelded-10-11-05.toml"  # unproven after 10 s (benchmarks/results)
LONG_DRAW = POSITIONS / "house-draw" / "house-20-00.toml"  # House Epic's draw: 47 ways to draw, seconds each
MOST_SECONDS = 60.0  # the server's most: the searches here are stopped long before
SO_FAR = re.compile(r"^best so far [\d.]+, at most [\d.]+, [\d.]+\ss$")  # \s: a no-break space


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Any]]:
    from rummy.web.app import Settings, create_app
    from tests.support.live_server import live_server

    app = create_app(Settings(workers=1, max_seconds=MOST_SECONDS))
    with live_server(app) as port:
        yield f"http://127.0.0.1:{port}/", app


@pytest.fixture()
def page(served: tuple[str, Any], browser: Any) -> Any:  # noqa: F811
    """The page with no game kept: a turn played here (Play this turn) keeps one, which the page would
    open again on the next load (test_browser_game.py's page_at_start)."""
    browser.get(served[0] + "static/icon.svg")  # a page of the same origin that runs no script
    browser.execute_script("localStorage.clear()")
    browser.get(served[0])
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#load-select option")) > 5)
    return browser


def paste(driver: Any, position_text: str) -> None:
    """The position shown as if pasted into the page's box and shown."""
    driver.execute_script("document.getElementById('paste-box').open = true;"
                          "document.getElementById('paste').value = arguments[0];", position_text)
    driver.find_element(By.ID, "show-button").click()
    wait(driver, lambda d: text(d, "result").startswith("Loaded the position"))


def set_limit(driver: Any, seconds: float) -> None:
    box = driver.find_element(By.ID, "time-limit")
    box.clear()
    box.send_keys(str(seconds))


def button(driver: Any, element_id: str) -> Any:
    return driver.find_element(By.ID, element_id)


def narrow_shot(driver: Any, name: str) -> None:
    """The page as a phone shows it (390 px wide, laid out again, not reloaded: the search shown stays)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        driver.execute_script("document.getElementById('best-panel').scrollIntoView()")
        shot(driver, name)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_long_search_shows_its_best_so_far_and_stop_keeps_it(page: Any, served: tuple[str, Any]) -> None:
    pool = served[1].state.pool
    stopped_before = pool.counts().stopped
    paste(page, LONG_SEARCH.read_text(encoding="utf-8"))
    set_limit(page, MOST_SECONDS)
    stop = button(page, "stop-button")
    assert stop.tag_name == "button" and not stop.is_enabled()  # nothing runs yet
    button(page, "best-button").click()
    wait(page, lambda d: SO_FAR.match(text(d, "best-status")))
    status = button(page, "best-status")
    assert status.get_attribute("aria-live") == "polite"  # read out as it changes
    assert stop.is_displayed() and stop.is_enabled() and not button(page, "best-button").is_enabled()
    assert page.switch_to.active_element.get_attribute("id") == "stop-button"  # the focus left Best move for it
    # the turn so far is drawn as an answer is: its gain, its steps, the table after it
    assert text(page, "best-gain").startswith("gain ")
    assert page.find_elements(By.CSS_SELECTOR, "#best-steps li")
    first = float(re.findall(r"[\d.]+", text(page, "best-status"))[0])
    # a better turn replaces the first one drawn (the first is the quick no-meld turn or the greedy one);
    # the line and the turn drawn read at one moment: they are the same turn's
    now: list[str] = []

    def better(driver: Any) -> bool:
        now[:] = driver.execute_script("return ['best-status', 'best-gain'].map((id) => "
                                       "document.getElementById(id).textContent)")
        return bool(SO_FAR.match(now[0])) and float(re.findall(r"[\d.]+", now[0])[0]) > first

    wait(page, better)
    gain, bound = (float(x) for x in re.findall(r"[\d.]+", now[0])[:2])
    assert gain <= bound
    assert now[1].startswith(f"gain {gain:g} ")  # the turn drawn is the one the line tells
    page.execute_script("document.getElementById('best-panel').scrollIntoView()")
    shot(page, "progress-01-searching.png")
    narrow_shot(page, "progress-02-searching-phone.png")
    stop.send_keys(" ")  # Stop by the keyboard: the button has the focus, space presses it
    wait(page, lambda d: text(d, "best-status").startswith("stopped: feasible, at most "))
    assert not stop.is_enabled() and button(page, "best-button").is_enabled()
    kept = text(page, "best-status")
    found = re.search(r"gain ([\d.]+)", kept)
    assert found, kept
    kept_gain = float(found.group(1))
    assert kept_gain >= gain and float(re.findall(r"[\d.]+", kept)[0]) <= bound
    assert page.find_elements(By.CSS_SELECTOR, "#best-steps li") and text(page, "best-gain").startswith("gain ")
    assert page.switch_to.active_element.get_attribute("id") == "play-best-button"  # the focus went on
    assert button(page, "longer-row").get_attribute("hidden") is not None  # no limit ran out: Best move asks again
    page.execute_script("document.getElementById('best-panel').scrollIntoView()")
    shot(page, "progress-03-stopped.png")
    narrow_shot(page, "progress-04-stopped-phone.png")
    # the server saw the page go and stopped the worker (it would have searched for a minute)
    wait(page, lambda _: pool.counts().stopped > stopped_before)
    # the turn kept is a legal turn: played, the checker judges it (an illegal turn is not played)
    button(page, "play-best-button").click()
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#game-turns li"))
    assert not button(page, "best-error").is_displayed()


def test_draw_advice_fills_its_options_in_as_they_are_valued(page: Any) -> None:
    paste(page, LONG_DRAW.read_text(encoding="utf-8"))
    assert text(page, "turn-line").endswith("draw phase")
    set_limit(page, MOST_SECONDS)
    button(page, "best-button").click()
    # (searches done, of, options listed), as the page showed them; a draw's option is listed once the
    # searches of its outcomes are done (a stock draw has many outcomes, a discard draw one)
    seen: list[tuple[int, int, int]] = []

    def filling(driver: Any) -> bool:
        found = re.fullmatch(r"(\d+) of (\d+) valued", text(driver, "draw-valued"))
        if found:
            shown = (int(found.group(1)), int(found.group(2)),
                     len(driver.find_elements(By.CSS_SELECTOR, "#draw-options li")))
            if not seen or seen[-1] != shown:
                seen.append(shown)
        # Options listed while the search still runs. (How many lines the page sees depends on the machine:
        # the server sends at most 5 a second, the newest winning, and draw advice values every option
        # cheaply first, so on a busy machine the first line may list them all at once.)
        return any(listed for _, _, listed in seen) and bool(SO_FAR.match(text(driver, "best-status")))

    wait(page, filling, WAIT * 3)
    assert [v for v, _, _ in seen] == sorted({v for v, _, _ in seen})  # more searches done each time
    assert [n for _, _, n in seen] == sorted(n for _, _, n in seen)  # and never fewer options listed
    assert all(valued <= of for valued, of, _ in seen)
    assert SO_FAR.match(text(page, "best-status"))
    page.execute_script("document.getElementById('best-panel').scrollIntoView()")
    shot(page, "progress-05-draw-filling.png")
    narrow_shot(page, "progress-06-draw-filling-phone.png")
    button(page, "stop-button").click()
    wait(page, lambda d: text(d, "best-status").startswith("stopped: feasible"))
    assert re.fullmatch(r"\d+ of \d+ valued", text(page, "draw-valued"))  # what was valued stays said
    assert page.find_elements(By.CSS_SELECTOR, "#draw-options li")


def plain_answers(driver: Any, position: str | None = None) -> None:
    """The page's /api/best requests sent without "progress" (the server answers in one piece), and
    with `position` as their position where given."""
    driver.execute_script("""
        const send = window.fetch, position = arguments[0];
        window.fetch = (path, init) => {
          if (path === "/api/best" && init && init.body) {
            const body = JSON.parse(init.body);
            delete body.progress;
            if (position !== null) body.position = position;
            init = {...init, body: JSON.stringify(body)};
          }
          return send(path, init);
        };""", position)


def test_an_answer_in_one_piece_is_read_as_before(page: Any) -> None:
    load(page, "examples/house-classic")
    plain_answers(page)
    button(page, "best-button").click()
    wait(page, lambda d: "verified by the checker" in text(d, "best-verified"))
    assert text(page, "best-gain").startswith("gain 94 = table points won 25")
    assert text(page, "best-status").startswith("Status: optimal")
    assert len(page.find_elements(By.CSS_SELECTOR, "#best-steps li")) == 6
    assert not button(page, "stop-button").is_enabled() and button(page, "best-button").is_enabled()


def test_a_request_refused_before_the_search_says_why(page: Any) -> None:
    load(page, "examples/house-classic")
    plain_answers(page, "rules = 'no-such-rules'")
    button(page, "best-button").click()
    wait(page, lambda d: button(d, "best-error").is_displayed())
    assert text(page, "best-error").startswith("position: rules: unknown preset 'no-such-rules'")
    assert text(page, "best-status") == ""
    assert not button(page, "stop-button").is_enabled() and button(page, "best-button").is_enabled()


# The lines of an answer as the network may cut them: the page's reader (api.js apiLines) given a
# made-up server's bytes, split anywhere.
READ_LINES = """
    const [chunks, type, done] = arguments;
    const send = window.fetch;
    window.fetch = async () => {
      const encoder = new TextEncoder();
      const body = new ReadableStream({start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      }});
      return new Response(body, {status: 200, headers: {"Content-Type": type}});
    };
    const told = [];
    import("/static/api.js")
      .then((api) => api.apiLines("/api/best", {}, (line) => told.push(line.progress.gain)))
      .then((answer) => done({told, answer}), (error) => done({told, error}))
      .finally(() => { window.fetch = send; });
"""


@pytest.mark.parametrize(("chunks", "told", "outcome"), [
    (['{"progress": {"gain": 1}}\n{"progress": {"gain": 2}}\n{"status": "optimal"}\n'], [1, 2],
     {"answer": {"status": "optimal"}}),
    (['{"progr', 'ess": {"gain": 1}}\n{"progress": {"ga', 'in": 2}}\n', '{"status": "optimal"}'], [1, 2],
     {"answer": {"status": "optimal"}}),
    (['{"progress": {"gain": 5}}\n', '{"error": "rummy: x: broke", "errors": ["rummy: x: broke"]}\n'], [5],
     {"error": {"error": "rummy: x: broke", "errors": ["rummy: x: broke"]}}),
    (['{"progress": {"gain": 5}}\n'], [5],
     {"error": {"error": "the server stopped answering before the end of the search", "errors": []}}),
    (['{"progress": {"gain": 5}}\n{"stat'], [5],
     {"error": {"error": "the server's answer was cut or garbled (a line that is not JSON)", "errors": []}}),
])
def test_the_page_reads_answer_lines_however_they_are_cut(page: Any, chunks: list[str], told: list[int],
                                                          outcome: dict[str, Any]) -> None:
    page.set_script_timeout(WAIT)
    result = page.execute_async_script(READ_LINES, chunks, "application/x-ndjson")
    assert result == {"told": told, **outcome}


def test_the_page_reads_a_plain_json_answer_from_the_same_call(page: Any) -> None:
    page.set_script_timeout(WAIT)
    result = page.execute_async_script(READ_LINES, ['{"status": ', '"optimal"}'], "application/json")
    assert result == {"told": [], "answer": {"status": "optimal"}}


# A made-up server whose stream stays open: the page's reader fails on a line (here the page's own
# drawing fails) and must hang up, so the real server sees the client gone and stops the search.
HANG_UP = """
    const done = arguments[0];
    const send = window.fetch;
    let cancelled = false;
    window.fetch = async () => {
      const body = new ReadableStream({
        start(controller) { controller.enqueue(new TextEncoder().encode('{"progress": {"gain": 1}}\\n')); },
        cancel() { cancelled = true; },
      });
      return new Response(body, {status: 200, headers: {"Content-Type": "application/x-ndjson"}});
    };
    import("/static/api.js")
      .then((api) => api.apiLines("/api/best", {}, () => { throw new Error("drawing broke"); }))
      .then((answer) => ({answer}), (error) => ({error: error.error}))
      .then((outcome) => new Promise((resolve) => setTimeout(() => resolve({...outcome, cancelled}), 50)))
      .then(done)
      .finally(() => { window.fetch = send; });
"""


def test_a_reader_that_fails_hangs_up(page: Any) -> None:
    page.set_script_timeout(WAIT)
    result = page.execute_async_script(HANG_UP)
    assert result == {"error": "the page could not show the search's progress (drawing broke)", "cancelled": True}
