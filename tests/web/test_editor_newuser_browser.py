"""The position editor tried as a new user at a real table would (issue 26, the new-user pass):
each test is one friction found entering real positions, with its fix.

- Choosing who moves made no hand known: the reader refused ("the mover's hand must be known")
  until the user found the two "hand known" boxes, and cards still went to the first hand.
- On a phone the place the cards go to is screens above the deck: a tap gave no sign where it
  landed. The place and what it holds now stand beside the deck.
- With the keyboard alone, placing a play (or taking the last free copy of a card) dropped the
  focus to the top of the page.
- On a phone the place buttons took a row each.

The fixtures (a live server, one browser) are tests/web/test_browser.py's.
"""

# ruff: noqa: F811  (the fixtures are test_browser.py's, imported: each test's `page` argument is one)
from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_browser import answered, browser, page, phone, server, shot, text, wait  # noqa: F401 (fixtures)
from tests.web.test_editor_browser import User, open_editor, reader_says_fine

pytestmark = pytest.mark.browser

from selenium.webdriver.common.by import By  # noqa: E402  (after the skips)
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


def known(driver: Any) -> list[bool]:
    return [box.is_selected() for box in driver.find_elements(By.CSS_SELECTOR, '#editor input[data-key^="known"]')]


def target(driver: Any) -> str:
    return str(Select(driver.find_element(By.ID, "ed-target")).first_selected_option.get_attribute("value"))


def test_the_mover_chosen_has_a_known_hand_that_takes_the_cards(page: Any) -> None:
    user = open_editor(page)
    user.tap("#ed-add-player")
    assert known(page) == [True, False, False] and target(page) == "hand:0"
    user.choose("#ed-to-move", "cat")
    # cat's hand known, ann's (nothing entered) back to a size: the reader takes it as it is.
    wait(page, lambda d: known(d) == [False, False, True])
    assert target(page) == "hand:2"
    user.pick("6S", "4D")
    hand = page.find_elements(By.CSS_SELECTOR, '#editor [data-key^="hand2-"]')
    assert [card.get_attribute("aria-label") for card in hand] == ["6 of spades", "4 of diamonds"]
    reader_says_fine(page)
    # A hand with cards entered stays known when the mover changes again.
    user.choose("#ed-to-move", "bob")
    wait(page, lambda d: known(d) == [False, True, True])
    assert target(page) == "hand:1"


def test_a_hand_made_unknown_no_longer_takes_the_cards(page: Any) -> None:
    user = open_editor(page)
    assert target(page) == "hand:0"
    user.tap('#editor input[data-key="known0"]')  # ann's hand not known: cards go into New play
    wait(page, lambda d: target(d) == "build")
    user.pick("7H")
    assert page.find_elements(By.CSS_SELECTOR, '#editor [data-key="build-0"]')
    assert known(page) == [False, False]


def test_where_a_card_went_is_shown_beside_the_deck(page: Any) -> None:
    user = open_editor(page)
    now = page.find_element(By.ID, "ed-now")
    assert now.text == "Now in ann's hand: 0 cards"
    user.pick("9D", "8H")
    assert now.text.startswith("Now in ann's hand: 2 cards")
    shown = [c.get_attribute("aria-label") for c in now.find_elements(By.CSS_SELECTOR, ".card")]
    assert shown == ["9 of diamonds", "8 of hearts"]
    user.target("discard")
    user.pick("KD")
    assert now.text.startswith("Now in the discard pile: 1 card")
    user.target("build")  # New play stands just above the deck: no line for it
    assert not now.is_displayed()
    user.choose("#ed-preset", "rummikub")  # a tile deck says tiles, and its placeholder is tiles
    assert "k1-5" in page.find_element(By.ID, "ed-type").get_attribute("placeholder")


def test_the_keyboard_goes_on_from_the_type_box_after_a_play_is_placed(page: Any) -> None:
    user = open_editor(page)
    user.choose("#ed-preset", "rummikub")
    user.target("build")
    box = page.find_element(By.ID, "ed-type")
    box.click()
    box.send_keys("r1-3", Keys.ENTER)
    wait(page, lambda d: d.find_element(By.ID, "ed-check").text.startswith("whole"))
    active = page.switch_to.active_element
    for _ in range(8):  # back to Place on the table
        if active.get_attribute("data-key") == "place-table":
            break
        active.send_keys(Keys.SHIFT, Keys.TAB)
        active = page.switch_to.active_element
    assert active.get_attribute("data-key") == "place-table"
    active.send_keys(Keys.ENTER)
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-play="table/1"]'))
    assert page.switch_to.active_element.get_attribute("id") == "ed-type"  # not the top of the page
    page.switch_to.active_element.send_keys("kro10", Keys.ENTER)
    wait(page, lambda d: d.find_element(By.ID, "ed-check").text.startswith("whole"))


def test_the_keyboard_goes_on_to_the_next_card_when_the_last_copy_is_taken(page: Any) -> None:
    open_editor(page)
    ace = page.find_element(By.CSS_SELECTOR, '#ed-picker .pick[data-card="AS"]')
    page.find_element(By.ID, "ed-type").click()
    page.switch_to.active_element.send_keys(Keys.TAB, Keys.TAB)  # the box's Add button, then the deck
    assert page.switch_to.active_element.get_attribute("data-card") == "AS"
    page.switch_to.active_element.send_keys(Keys.ENTER)  # one pack: the only ace of spades
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-key="hand0-0"]'))
    assert ace.get_attribute("disabled") is not None
    assert page.switch_to.active_element.get_attribute("data-card") == "2S"


def test_the_place_buttons_share_one_row_on_a_phone(page: Any) -> None:
    with phone(page):
        user = open_editor(page)
        user.tap("#ed-add-player")
        user.tap("#ed-add-player")
        user.target("build")
        user.pick("7S", "7H", "7D")
        wait(page, lambda d: d.find_element(By.ID, "ed-check").text.startswith("whole"))
        buttons = page.find_elements(By.CSS_SELECTOR, "#editor .ed-place")
        assert [b.get_attribute("aria-label") for b in buttons] == [
            "Place in ann's space", "Place in bob's space", "Place in cat's space", "Place in dan's space"]
        tops = {round(b.rect["y"]) for b in buttons}
        assert len(tops) == 1, f"the place buttons take {len(tops)} rows"
        assert max(b.rect["x"] + b.rect["width"] for b in buttons) <= 390
        page.execute_script("document.getElementById('ed-build').scrollIntoView()")
        shot(page, "22-editor-phone-place.png")
        User(page).place("space:3")
        assert page.find_elements(By.CSS_SELECTOR, '#editor [data-play="dan/1"]')


def test_what_the_reader_made_of_typed_cards_is_said(page: Any) -> None:
    user = open_editor(page)
    user.type("#ed-type", "7h 10S", enter=True)  # long form: nothing to say
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, '#editor [data-key^="hand0-"]')) == 2)
    assert text(page, "ed-type-note") == ""
    user.choose("#ed-preset", "rummikub")
    user.type("#ed-type", "7h k1-3", enter=True)  # card notation in a tile game, and a shorthand
    wait(page, lambda d: text(d, "ed-type-note") == "Read as R7 K1 K2 K3.")
    hand = [c.get_attribute("aria-label") for c in page.find_elements(By.CSS_SELECTOR, '#editor [data-key^="hand0-"]')]
    assert hand == ["red 7", "black 1", "black 2", "black 3"]


def test_a_shipped_name_typed_whole_chooses_that_entry(page: Any) -> None:
    box = page.find_element(By.ID, "load-filter")
    box.send_keys("house classic")  # examples/house-classic-4p is listed before it
    assert Select(page.find_element(By.ID, "load-select")).first_selected_option.get_attribute("value") \
        == "examples/house-classic"
    box.send_keys(Keys.ENTER)
    wait(page, lambda d: "Loaded examples/house-classic:" in text(d, "result"))


def test_arrow_keys_on_a_plays_owner_move_that_play_only(page: Any) -> None:
    from tests.web.test_browser import load

    load(page, "examples/house-classic")
    User(page).tap("#editor-edit")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-play="bob/1"]'))

    def plays() -> list[str]:
        return [play.get_attribute("data-play") + " " + " ".join(c.get_attribute("data-card") for c in
                                                                  play.find_elements(By.CSS_SELECTOR, ".card"))
                for play in page.find_elements(By.CSS_SELECTOR, "#editor .ed-play")]

    owner = page.find_element(By.CSS_SELECTOR, '#editor [data-key="move-bob/1"]')
    assert Select(owner).first_selected_option.text == "in bob"
    owner.send_keys(Keys.DOWN)  # a closed select changes at once: bob's sevens go to cat
    wait(page, lambda d: "cat/2 7S 7H 7D 7C" in plays())
    assert page.switch_to.active_element.get_attribute("data-key") == "move-cat/2"  # the focus went with them
    page.switch_to.active_element.send_keys(Keys.UP, Keys.UP)  # back past bob, to ann
    wait(page, lambda d: "ann/2 7S 7H 7D 7C" in plays())
    assert plays() == ["ann/1 QS QD QC", "ann/2 7S 7H 7D 7C", "bob/1 3S 4S 5S", "cat/1 * 10D JD"]


def test_a_tile_table_entered_as_a_bag_gets_the_command_lines_answer(page: Any) -> None:
    """The table of a real Rummikub game, tile by tile without its sets (as --table takes it on the
    command line): no Place tap a play, and rummy lays it out."""
    import json

    from tests.support.cli import run_cli

    table, hand = "R1-3 B5-7 K10 R10 O10", "R4 K4 *"
    user = open_editor(page)
    user.choose("#ed-preset", "rummikub")
    user.type("#ed-type", hand, enter=True)
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, '#editor [data-key^="hand0-"]')) == 3)
    user.tap("#ed-bag-mode")  # the table as a bag (editbag.js): the cursor goes into it
    user.type("#ed-type", table, enter=True)
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, '#editor [data-key^="bag-"].ed-card')) == 9)
    assert text(page, "ed-now").startswith("Now in the table (a bag): 9 tiles")
    user.tap('#editor input[data-key="melded0"]')
    reader_says_fine(page)
    user.tap("#ed-open")
    wait(page, lambda d: "Loaded the position: rummikub" in text(d, "result"))
    written = json.loads(page.find_element(By.ID, "paste").get_attribute("value"))
    assert written["table"] == "R1 R2 R3 B5 B6 B7 K10 R10 O10"
    wanted = json.loads(run_cli("best", "--rules", "rummikub", "--table", table, "--hand", hand, "--melded",
                                "--json").stdout)
    user.tap("#best-button")
    answered(page, 60)
    assert text(page, "best-gain").startswith(f"tiles played {wanted['gain']}")
    assert text(page, "best-verified").startswith("✔ verified")  # the page's answer, re-judged by the checker


def test_the_deck_is_one_tab_stop_crossed_with_the_arrow_keys(page: Any) -> None:
    open_editor(page)
    page.find_element(By.ID, "ed-type").click()
    page.switch_to.active_element.send_keys(Keys.TAB, Keys.TAB)  # the box's Add button, then the deck

    def on() -> str:
        return str(page.switch_to.active_element.get_attribute("data-card"))

    assert on() == "AS"
    page.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert on() == "2S"
    page.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    assert on() == "2H"
    page.switch_to.active_element.send_keys(Keys.END)
    assert on() == "KH"
    page.switch_to.active_element.send_keys(Keys.ENTER)
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-key="hand0-0"]'))
    assert on() == "AD"  # the only king of hearts is used up: the keyboard goes on from the next card
    page.switch_to.active_element.send_keys(Keys.ARROW_UP, Keys.ARROW_RIGHT)  # up from A♦ to A♥, right to 2♥
    assert on() == "2H"
    page.switch_to.active_element.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_RIGHT)
    assert on() == "*"  # down from 2♣ to the jokers' row
    page.switch_to.active_element.send_keys(Keys.TAB)  # one Tab leaves the whole deck
    assert page.switch_to.active_element.get_attribute("id") == "ed-open"


def test_a_refused_open_shows_the_readers_line_beside_its_part(page: Any) -> None:
    user = open_editor(page)
    user.choose("#ed-preset", "robber")
    for _ in range(6):  # a long position: bob's hand far above Open
        user.tap("#ed-add-player")
    user.type('#editor input[data-key="count1"]', "300")
    message = wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#editor [data-place="players.bob.hand_count"] .ed-msg'))
    page.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    user.tap("#ed-open")
    wait(page, lambda d: "300 is not a card count" in text(d, "result"))
    assert page.find_element(By.ID, "editor").is_displayed()
    top, bottom = page.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom]", message[0])
    assert top >= 0 and bottom <= page.execute_script("return window.innerHeight")


def test_an_unknown_hand_starts_at_the_deal_for_the_players_there(page: Any) -> None:
    """Not at 0 cards (a player who has gone out): the deal, as the command line assumes
    (GET /api/presets' ``deal``), which in House depends on how many play."""
    user = open_editor(page)
    user.choose("#ed-preset", "house-classic")

    def counts() -> list[str]:
        return [box.get_attribute("value") for box in page.find_elements(By.CSS_SELECTOR, '#editor input.ed-count')]

    assert counts() == ["10"]  # bob, of two players
    user.tap("#ed-add-player")
    wait(page, lambda d: counts() == ["8", "8"])  # three players are dealt 8 each
    user.type('#editor input[data-key="count1"]', "5")  # bob's size given stays as given
    user.tap("#ed-add-player")
    wait(page, lambda d: counts() == ["5", "7", "7"])
    user.tap('#editor input[data-key="known0"]')  # ann's hand made unknown (nothing entered): the deal
    wait(page, lambda d: counts() == ["7", "5", "7", "7"])
