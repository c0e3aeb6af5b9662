"""Links to positions in headless Chromium (docs/serve.md "Links and codes"): ``/#p=CODE`` opens every
shipped example, Copy link gives a link that opens the same position, and the address follows.

The server and the browser are tests/web/test_browser.py's fixtures (and its skips: no Chromium, no
selenium, no uvicorn); each test opens its own address.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rummy.position import Position
from rummy.position_code import position_code
from tests.support.paths import PUZZLE_EXAMPLES
from tests.web.test_browser import browser, server, text, wait  # noqa: F401  (fixtures, and the skips)

pytestmark = pytest.mark.browser

from selenium.webdriver.common.by import By  # noqa: E402  (after test_browser's skip when selenium is absent)

EXAMPLES = sorted(PUZZLE_EXAMPLES.glob("*.toml"))


def code_of(path: Path) -> str:
    return position_code(Position.from_file(path))


def open_link(driver: Any, address: str) -> None:
    driver.get("about:blank")  # a new document each time: a fragment alone would not reload the page
    driver.get(address)


def shown(driver: Any, position: Position) -> bool:
    """Whether the page draws this position: its rules, whose turn, and every player by name."""
    summary, turn = text(driver, "summary"), text(driver, "turn-line")
    names = {e.get_attribute("data-player") for e in driver.find_elements(By.CSS_SELECTOR, "#table [data-player]")}
    return (summary.startswith(position.rules.name + ":") and turn.startswith(f"{position.to_move} to move")
            and names == {player.name for player in position.players})


def test_a_link_opens_every_example(server: str, browser: Any) -> None:  # noqa: F811
    for path in EXAMPLES:
        position = Position.from_file(path)
        open_link(browser, f"{server}#p={code_of(path)}")
        wait(browser, lambda d, p=position: shown(d, p))
        assert browser.current_url.endswith("#p=" + code_of(path)), path.name  # the address keeps the link
        assert browser.find_element(By.ID, "paste").get_attribute("value") == code_of(path)


def test_copy_link_gives_a_link_to_the_same_position(server: str, browser: Any) -> None:  # noqa: F811
    house = PUZZLE_EXAMPLES / "house-classic.toml"
    open_link(browser, server)
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#load-select option")) > 5)
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.ID, "load-select")).select_by_value("examples/house-classic")
    browser.find_element(By.ID, "load-button").click()
    wait(browser, lambda d: "Loaded examples/house-classic:" in text(d, "result"))
    assert "#" not in browser.current_url
    browser.find_element(By.ID, "copy-link-button").click()
    box = browser.find_element(By.ID, "share-text")
    wait(browser, lambda d: box.is_displayed() and box.get_attribute("value"))
    link = box.get_attribute("value")
    assert link == server + "#p=" + code_of(house)
    assert browser.current_url == link  # Copy link puts it in the address too
    assert text(browser, "share-note").startswith(("The link is copied", "Copy the link"))
    browser.find_element(By.ID, "copy-code-button").click()
    wait(browser, lambda d: box.get_attribute("value") == code_of(house))
    open_link(browser, link)
    wait(browser, lambda d: shown(d, Position.from_file(house)))


def test_a_new_fragment_opens_its_position_and_another_load_drops_it(server: str, browser: Any) -> None:  # noqa: F811
    first, second = PUZZLE_EXAMPLES / "robber.toml", PUZZLE_EXAMPLES / "rummikub.toml"
    open_link(browser, f"{server}#p={code_of(first)}")
    wait(browser, lambda d: shown(d, Position.from_file(first)))
    browser.execute_script("location.hash = arguments[0]", "#p=" + code_of(second))  # a link pasted later
    wait(browser, lambda d: shown(d, Position.from_file(second)))
    paste = browser.find_element(By.ID, "paste")
    browser.execute_script("arguments[0].value = arguments[1]", paste, first.read_text(encoding="utf-8"))
    browser.execute_script("document.getElementById('show-button').click()")
    wait(browser, lambda d: shown(d, Position.from_file(first)))
    assert "#" not in browser.current_url  # the address no longer names a position that is not shown


def test_a_damaged_link_shows_the_error_line(server: str, browser: Any) -> None:  # noqa: F811
    damaged = code_of(PUZZLE_EXAMPLES / "house-classic.toml")[:-10]
    open_link(browser, f"{server}#p={damaged}")
    wait(browser, lambda d: d.find_element(By.ID, "load-error").is_displayed())
    assert text(browser, "load-error").startswith("position: not a position code: damaged")
    assert "copy the whole link again" in text(browser, "load-error")  # and what to do about it
    # A bad paste is no link: its error says nothing of one.
    browser.find_element(By.CSS_SELECTOR, "#paste-box summary").click()
    browser.find_element(By.ID, "paste").clear()
    browser.find_element(By.ID, "paste").send_keys(damaged)
    browser.find_element(By.ID, "show-button").click()
    wait(browser, lambda d: "copy the whole link" not in text(d, "load-error") and "damaged" in text(d, "load-error"))


def test_download_toml_saves_the_positions_toml(server: str, browser: Any, tmp_path: Path) -> None:  # noqa: F811
    path = PUZZLE_EXAMPLES / "straight.toml"
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    open_link(browser, f"{server}#p={code_of(path)}")
    wait(browser, lambda d: shown(d, Position.from_file(path)))
    browser.find_element(By.ID, "download-toml-button").click()
    saved = tmp_path / "position.toml"
    wait(browser, lambda d: saved.exists() and saved.stat().st_size > 0)
    assert Position.from_file(saved) == Position.from_file(path)


def test_a_link_written_by_another_encoder_is_rewritten_as_rummys_code(server: str, browser: Any) -> None:  # noqa: F811
    """A code packed without the dictionary opens the same position; the address then holds rummy's code."""
    import base64
    import json
    import zlib

    path = PUZZLE_EXAMPLES / "traditional.toml"
    position = Position.from_file(path)
    data = json.dumps(position.to_data(), separators=(",", ":")).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(data) + packer.flush() + (zlib.crc32(data) & 0xFFFF).to_bytes(2, "big")
    other = "rummy1_" + base64.urlsafe_b64encode(packed).decode().rstrip("=")
    assert other != code_of(path)
    open_link(browser, f"{server}#p={other}")
    wait(browser, lambda d: shown(d, position))
    wait(browser, lambda d: d.current_url.endswith("#p=" + code_of(path)))
