"""The game on the page (issue 27 §5): Play this turn after Best move, after My move, and for another
player's turn typed as steps; Undo; the game kept in the browser across a reload.

The server and the browser are tests/web/test_browser.py's fixtures (and its skips: no Chromium, no
selenium). The game is Rummikub with every rack known (tests/data/games/rummikub-known.toml): tile
rummy has no draw phase, so each turn is one play.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rummy.checker import check
from rummy.next_position import next_position
from rummy.position import Position
from rummy.reports.check import answer_from_text
from tests.support.paths import REPO_ROOT
from tests.web.test_browser import browser, card, click, load, phone, server, settled, text, wait  # noqa: F401

pytestmark = pytest.mark.browser

from selenium.webdriver.common.by import By  # noqa: E402  (after test_browser's skip when selenium is absent)

KNOWN = (REPO_ROOT / "tests" / "data" / "games" / "rummikub-known.toml").read_text()


@pytest.fixture()
def fresh(page_at_start: Any) -> Any:
    """The page with no game kept, the known position shown from a paste."""
    driver = page_at_start
    driver.find_element(By.CSS_SELECTOR, "#paste-box summary").click()
    driver.execute_script("document.getElementById('paste').value = arguments[0]", KNOWN)
    driver.find_element(By.ID, "show-button").click()
    wait(driver, lambda d: "Loaded the position" in text(d, "result"))
    return driver


@pytest.fixture()
def page_at_start(server: str, browser: Any) -> Any:  # noqa: F811
    """The page with no game kept (localStorage emptied), the shipped list loaded."""
    # emptied from a page of the same origin that runs no script: the page itself would keep its game again
    browser.get(server + "static/icon.svg")
    browser.execute_script("localStorage.clear()")
    browser.get(server)
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#load-select option")) > 5)
    return browser


def to_move(driver: Any, name: str) -> None:
    wait(driver, lambda d: text(d, "turn-line").startswith(f"{name} to move"))


def kept(driver: Any) -> dict[str, Any]:
    games = json.loads(driver.execute_script("return localStorage.getItem('rummy-games')") or "{}")
    assert len(games) == 1
    record: dict[str, Any] = next(iter(games.values()))
    return record


def turns_shown(driver: Any) -> list[str]:
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#game-turns li")]


def test_three_turns_played_one_undone_and_the_game_kept_across_a_reload(fresh: Any) -> None:
    page = fresh
    # ann: Best move, then Play this turn
    click(page, "#best-button")
    wait(page, lambda d: d.find_element(By.ID, "play-best-button").is_displayed())
    assert "verified by the checker" in text(page, "best-verified")
    click(page, "#play-best-button")
    to_move(page, "bob")
    # bob: My move (his tiles tapped onto a new play), then Play this turn
    click(page, "#my-move-button")
    for tile in ("K1", "K2", "K3"):
        card(page, "hand", tile).click()
    click(page, "#table .new-play")
    settled(page)
    assert [li.text for li in page.find_elements(By.CSS_SELECTOR, "#steps-list li")] == ["play K1 K2 K3 to new/1"]
    click(page, "#play-move-button")
    to_move(page, "cat")
    # cat: a turn typed as steps; an illegal one first, which is not played
    page.find_element(By.ID, "turn-input").send_keys("play O7 B7 R13 to new/1")
    click(page, "#turn-play-button")
    wait(page, lambda d: d.find_element(By.ID, "turn-error").is_displayed())
    assert "illegal" in text(page, "turn-error") and "not-whole" in text(page, "turn-error")
    assert [t["player"] for t in kept(page)["hands"][0]["turns"]] == ["ann", "bob"]
    page.find_element(By.ID, "turn-input").clear()
    page.find_element(By.ID, "turn-input").send_keys("play O10 K10 B10 to new/1")
    click(page, "#turn-play-button")
    to_move(page, "ann")
    record = kept(page)
    turns = record["hands"][0]["turns"]
    assert [t["player"] for t in turns] == ["ann", "bob", "cat"]
    assert turns[1]["turn"] == "play K1 K2 K3 to new/1"
    assert len(turns_shown(page)) == 3
    # every turn the page kept is legal from the position before it, as the checker judges it
    position = Position.from_data(record["hands"][0]["start"], "start")
    for turn in turns:
        after = answer_from_text(turn["turn"], "turn", "toml", position).after
        assert after is not None and check(position, after).legal
        position = next_position(position, after, check(position, after).reading)
    # Undo: cat's turn taken back
    click(page, "#game-undo-button")
    to_move(page, "cat")
    assert [t["player"] for t in kept(page)["hands"][0]["turns"]] == ["ann", "bob"]
    assert len(turns_shown(page)) == 2
    # a reload finds the game kept, at its latest position
    page.refresh()
    to_move(page, "cat")
    assert len(turns_shown(page)) == 2
    assert page.find_elements(By.CSS_SELECTOR, '#table .card[data-where="hand"][data-card="O7"]')
    assert not page.find_elements(By.CSS_SELECTOR, '#table .card[data-where="hand"][data-card="K1"]')


def test_the_game_panel_at_phone_width_has_no_sideways_scrolling(fresh: Any) -> None:
    page = fresh
    click(page, "#best-button")
    wait(page, lambda d: d.find_element(By.ID, "play-best-button").is_displayed())
    click(page, "#play-best-button")
    to_move(page, "bob")
    with phone(page):
        to_move(page, "bob")  # the game kept opens again
        page.find_element(By.CSS_SELECTOR, "#game-box summary").click()
        click(page, "#draw-pick-button")
        wait(page, lambda d: d.find_element(By.ID, "draw-picker").is_displayed())
        # both R7s are on the table (ann played them): none can be drawn; one O12 is in bob's rack, one is free
        assert not page.find_element(By.CSS_SELECTOR, '#draw-picker .pick[data-card="R7"]').is_enabled()
        assert page.find_element(By.CSS_SELECTOR, '#draw-picker .pick[data-card="O12"] .free').text == "1"
        click(page, "#versus-button")
        wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#versus-rules option")) > 3)
        click(page, "#review-button")
        wait(page, lambda d: text(d, "review-best").startswith("Best: gain"))
        assert page.find_elements(By.CSS_SELECTOR, "#review-best-table .card")
        scroll, inner = page.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert inner == 390 and scroll <= inner


def type_turn(driver: Any, turn: str, next_player: str) -> None:
    box = driver.find_element(By.ID, "turn-input")
    box.clear()
    box.send_keys(turn)
    click(driver, "#turn-play-button")
    to_move(driver, next_player)


def test_review_shows_each_turn_played_beside_the_best(fresh: Any) -> None:
    page = fresh
    type_turn(page, "best", "bob")  # the word best plays the best turn, as rummy play does
    type_turn(page, "play K1 K2 K3 to new/1", "cat")
    click(page, "#review-button")
    wait(page, lambda d: text(d, "review-best").startswith("Best: gain"))
    assert text(page, "review-label") == "Turn 1 of 2: ann"
    assert "the turn played is as good" in text(page, "review-best")  # ann played the best turn
    assert page.find_elements(By.CSS_SELECTOR, "#review-best-steps li")
    assert page.find_elements(By.CSS_SELECTOR, "#review-best-table .card")
    click(page, "#review-next")
    wait(page, lambda d: text(d, "review-label") == "Turn 2 of 2: bob")
    wait(page, lambda d: text(d, "review-best").startswith("Best: gain"))
    played = text(page, "review-played")
    assert played.startswith("bob played: play K1 K2 K3 to new/1 (gain 3")  # three tiles
    assert "more than played" in text(page, "review-best") and "?" in played  # bob could play more tiles
    assert page.find_elements(By.CSS_SELECTOR, '#review-played-table .play .card[data-card="K1"]')
    assert not page.find_element(By.ID, "review-next").is_enabled()
    click(page, "#review-all")
    wait(page, lambda d: "turns reviewed" in text(d, "review-summary"))
    summary = [li.text for li in page.find_elements(By.CSS_SELECTOR, "#review-summary li")]
    assert summary[0].startswith("ann: 1 turns reviewed; 0 points lost (0.0 a turn), 1 of 1 played best")
    assert summary[1].startswith("bob: 1 turns reviewed; ") and "0 of 1 played best" in summary[1]


def test_play_against_rummy_deals_hides_its_hands_and_plays_its_seats(fresh: Any) -> None:
    from selenium.webdriver.support.ui import Select

    page = fresh
    assert text(page, "draw-hidden-button") == "a hidden card" and page.find_element(By.ID, "draw-pick-button").is_displayed()
    click(page, "#versus-button")
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#versus-rules option")) > 3)
    Select(page.find_element(By.ID, "versus-rules")).select_by_value("house-classic")
    page.find_element(By.ID, "versus-seed").send_keys("7")  # the same hand every run
    limit = page.find_element(By.ID, "time-limit")
    limit.clear()
    limit.send_keys("3")
    click(page, "#versus-start")
    to_move(page, "you")  # rummy's seats play first where the deal has one of them to move
    hidden = page.find_elements(By.CSS_SELECTOR, "#table .hand .unknown")
    assert len(hidden) == 2 and all(e.text.endswith(" cards, hidden") for e in hidden)
    assert page.find_elements(By.CSS_SELECTOR, '#table .hand[data-hand="you"] .card')
    # the turn box is the user's own: the draw is from the stock, no card picked from the deck
    assert text(page, "draw-hidden-button") == "from the stock" and text(page, "turn-help-text").startswith("Your turn")
    assert not page.find_element(By.ID, "draw-pick-button").is_displayed()
    record = kept(page)
    assert record["hands"][0]["deal"] == 7 and record["game"]["players"] == ["you", "ann", "bob"]
    before = len(record["hands"][0]["turns"])
    # the user's turn, by Draw advice searched on the user's own view: the others' hands and the stock as counts
    page.execute_script("window.sent = []; const send = window.fetch;"
                        "window.fetch = (path, init) => { window.sent.push([path, init && init.body]); return send(path, init); }")
    click(page, "#best-button")
    wait(page, lambda d: text(d, "best-status").startswith("Status"))
    if not page.find_element(By.ID, "play-best-button").is_displayed():  # a card from the stock: drawn, then played
        click(page, "#draw-hidden-button")
        wait(page, lambda d: "play phase" in text(d, "turn-line"))
        click(page, "#best-button")
        wait(page, lambda d: d.find_element(By.ID, "play-best-button").is_displayed())
    # searched on the user's view: rummy's hands and the stock were counts to the solver
    asked = [json.loads(json.loads(body)["position"]) for path, body in page.execute_script("return window.sent")
             if path == "/api/best"]
    assert asked and all(isinstance(p["piles"]["stock"], int) and "hand" not in p["players"]["ann"]
                         and p["players"]["ann"]["hand_count"] > 0 and p["players"]["you"]["hand"] for p in asked)
    click(page, "#play-best-button")  # then rummy plays ann and bob, and it is the user's turn again
    wait(page, lambda d: [t["player"] for t in kept(d)["hands"][0]["turns"]][-1:] == ["bob"], 60)
    to_move(page, "you")
    turns = kept(page)["hands"][0]["turns"]
    players = [t["player"] for t in turns[before:]]
    assert players[0] == "you" and "ann" in players and players[-1] == "bob"  # rummy plays ann and bob
    # every turn kept replays on the server to the position shown
    response = page.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch('/api/game', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({game: localStorage.getItem('rummy-games').length ? JSON.stringify("
        "Object.values(JSON.parse(localStorage.getItem('rummy-games')))[0]) : ''})})"
        ".then((r) => r.json()).then(done)")
    assert response["hands"][0]["positions"][-1]["position"]["to_move"] == "you"
    # Undo takes back rummy's turns since the user's, and the user's own
    click(page, "#game-undo-button")
    to_move(page, "you")
    assert len(kept(page)["hands"][0]["turns"]) == before


def test_a_turn_built_as_its_end_state_is_played_from_the_games_position(fresh: Any) -> None:
    """The editor's way: the game's position edited into the one after the turn and opened (the editor's
    Open shows it as a pasted position, as here), then played as the turn from the game's position."""
    page = fresh
    page.find_element(By.CSS_SELECTOR, "#game-box summary").click()
    click(page, "#game-new-button")
    wait(page, lambda d: "ann to move" in text(d, "game-status"))
    after = KNOWN.replace('"O1 O2 O3",', '"O1 O2 O3 O4",').replace('hand = "R7 R7 B10 O4 K2', 'hand = "R7 R7 B10 K2')
    page.execute_script("document.getElementById('paste').value = arguments[0]", after)
    click(page, "#show-button")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, '#table .play .card[data-card="O4"]'))
    click(page, "#game-edited-button")
    to_move(page, "bob")
    assert kept(page)["hands"][0]["turns"] == [{"player": "ann", "turn": "play O4 to table/4 (O1 O2 O3)"}]


def test_a_game_file_opens_replayed_and_a_bad_one_is_one_line(fresh: Any, tmp_path: Any) -> None:
    from rummy.games.record import GameRecord, HandRecord, TurnRecord

    page = fresh
    start = Position.from_text(KNOWN, "start", "toml")
    game = GameRecord(start.rules, ("ann", "bob", "cat"), (HandRecord(start, (
        TurnRecord("ann", "play O4 to table/4"), TurnRecord("bob", "play K1 K2 K3 to new/1"))),), title="Friday")
    path = tmp_path / "friday.toml"
    path.write_text(game.to_toml())
    page.find_element(By.CSS_SELECTOR, "#game-box summary").click()
    page.find_element(By.ID, "game-file").send_keys(str(path))
    to_move(page, "cat")
    assert turns_shown(page) == ["ann: play O4 to table/4", "bob: play K1 K2 K3 to new/1"]
    assert "“friday”" in text(page, "game-status")
    assert kept(page)["game"]["title"] == "Friday"
    bad = tmp_path / "bad.toml"
    bad.write_text(game.to_toml().replace("play K1 K2 K3 to new/1", "play K1 K2 to new/1"))
    page.find_element(By.ID, "game-file").send_keys(str(bad))
    wait(page, lambda d: d.find_element(By.ID, "game-error").is_displayed())
    assert text(page, "game-error").startswith("game: hand 1, turn 2 (bob: 'play K1 K2 to new/1'): ")
    assert len(json.loads(page.execute_script("return localStorage.getItem('rummy-games')"))) == 1  # not kept


def test_a_real_table_game_with_hidden_hands_a_hidden_draw_and_a_turn_typed(page_at_start: Any) -> None:
    """At a real table the other hands are hidden: after dan's best turn, ann draws a hidden card (one more
    card, counted) and her turn is typed as steps naming the cards she played."""
    page = page_at_start
    load(page, "examples/house-classic-4p")
    click(page, "#best-button")
    wait(page, lambda d: d.find_element(By.ID, "play-best-button").is_displayed())
    click(page, "#play-best-button")
    wait(page, lambda d: text(d, "turn-line") == "ann to move, draw phase")
    assert "5 cards, not known" in text(page, "table")
    click(page, "#draw-hidden-button")
    wait(page, lambda d: text(d, "turn-line") == "ann to move, play phase")
    assert "6 cards, not known" in text(page, "table")
    click(page, "#best-button")  # best answers for a known hand only: one line says so
    wait(page, lambda d: d.find_element(By.ID, "best-error").is_displayed())
    assert "ann's hand is hidden" in text(page, "best-error")
    type_turn(page, "discard 9C", "bob")
    turns = kept(page)["hands"][0]["turns"]
    assert [(t["player"], t["turn"]) for t in turns[1:]] == [("ann", "draw"), ("ann", "discard 9C")]
    assert turns[0]["player"] == "dan"


def test_a_hand_over_offers_the_next_deal_and_undo_takes_it_back(page_at_start: Any, tmp_path: Any) -> None:
    page = page_at_start
    start = Position.from_text(KNOWN, "start", "toml").to_data()
    record = {"game": {"format": 1, "rules": "rummikub", "players": ["ann", "bob", "cat"]},
              "hands": [{"deal": 5, "start": start, "turns": [], "result": {"ann": 10, "bob": -4, "cat": -6}}]}
    path = tmp_path / "over.json"
    path.write_text(json.dumps(record))
    page.find_element(By.CSS_SELECTOR, "#game-box summary").click()
    page.find_element(By.ID, "game-file").send_keys(str(path))
    wait(page, lambda d: "the hand is over: ann 10, bob -4, cat -6" in text(d, "game-status"))
    page.find_element(By.ID, "turn-input").send_keys("play O4 to table/4")
    click(page, "#turn-play-button")  # no turn is played in a hand that is over
    wait(page, lambda d: "the hand is over" in text(d, "turn-error"))
    click(page, "#next-hand-button")
    wait(page, lambda d: "hand 2, 0 turns; bob to move" in text(d, "game-status"))  # the deal goes round
    assert "Totals: ann 10, bob -4, cat -6." in text(page, "game-status")
    to_move(page, "bob")
    hands = kept(page)["hands"]
    assert len(hands) == 2 and isinstance(hands[1]["deal"], int) and hands[1]["turns"] == []
    assert not page.find_element(By.ID, "next-hand-button").is_displayed()
    click(page, "#game-undo-button")  # the hand not begun goes, and the result before it
    wait(page, lambda d: len(kept(d)["hands"]) == 1)
    assert "result" not in kept(page)["hands"][0]
    to_move(page, "ann")


def test_a_refused_turns_error_goes_once_a_turn_is_played(fresh: Any) -> None:
    # Seen in review: the breaches of a turn refused stayed under the table after Best move's turn was
    # played, as if that one had been refused too.
    page = fresh
    page.find_element(By.ID, "turn-input").send_keys("play O7 B7 R13 to new/1")
    click(page, "#turn-play-button")
    wait(page, lambda d: d.find_element(By.ID, "turn-error").is_displayed())
    click(page, "#best-button")
    wait(page, lambda d: d.find_element(By.ID, "play-best-button").is_displayed())
    click(page, "#play-best-button")
    to_move(page, "bob")
    assert not page.find_element(By.ID, "turn-error").is_displayed()


def test_against_rummy_a_tile_games_draw_answer_plays_as_the_draw(fresh: Any) -> None:
    # Seen in review: Best move answering "draw" (Rummikub, nothing to meld) offered Play this turn, which
    # played its after-position (the user's view, the pool a count) and was refused as illegal.
    from selenium.webdriver.support.ui import Select

    page = fresh
    click(page, "#versus-button")
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#versus-rules option")) > 3)
    Select(page.find_element(By.ID, "versus-rules")).select_by_value("rummikub")
    Select(page.find_element(By.ID, "versus-count")).select_by_value("2")
    page.find_element(By.ID, "versus-seed").send_keys("9")  # the user's 14 tiles hold no first meld
    click(page, "#versus-start")
    to_move(page, "you")
    click(page, "#best-button")
    wait(page, lambda d: text(d, "best-status").startswith("Status"))
    assert "draw" in text(page, "best-status")
    click(page, "#play-best-button")
    wait(page, lambda d: kept(d)["hands"][0]["turns"][:1] and kept(d)["hands"][0]["turns"][0]["player"] == "you")
    first = kept(page)["hands"][0]["turns"][0]["turn"]
    assert first.startswith("draw ") and len(first.split()) == 2  # the pool's top tile, named
    assert not page.find_element(By.ID, "best-error").is_displayed()
    # then rummy plays ann, and the line above the table says what it played (not "Loaded the position")
    wait(page, lambda d: text(d, "result").startswith("rummy played ann: ") and text(d, "result").endswith("you to move."))
    ann = [t["turn"] for t in kept(page)["hands"][0]["turns"] if t["player"] == "ann"]
    if ann[-1].startswith("draw "):  # rummy's tile drawn stays unnamed
        assert ann[-1] not in text(page, "result") and "draw (a card from the stock)" in text(page, "result")
    # Review: the user's draw beside best's "draw", not said as a search cut short
    click(page, "#review-button")
    wait(page, lambda d: text(d, "review-best").startswith("Best: ") and "Searching" not in text(d, "review-best"))
    assert text(page, "review-best").startswith("Best: draw (nothing to play found)")
    assert "time limit" not in text(page, "review-best")


def test_house_upcard_is_opened_or_passed_with_one_click(page_at_start: Any) -> None:
    # Seen in review: House's first turn (the upcard face up, the stock not opened) offered only a stock
    # draw, which is refused; open and pass had to be typed.
    page = page_at_start
    load(page, "examples/house-upcard")
    wait(page, lambda d: d.find_element(By.ID, "draw-open-button").is_displayed())
    assert page.find_element(By.ID, "draw-pass-button").is_displayed()
    click(page, "#draw-pass-button")  # ann passes: bob may take it now
    to_move(page, "bob")
    assert page.find_element(By.ID, "draw-open-button").is_displayed()
    assert kept(page)["hands"][0]["turns"] == [{"player": "ann", "turn": "pass"}]
    # bob's hand is hidden: he opens the stock (the 8S, seen by all) and his play is typed later
    click(page, "#draw-open-button")
    wait(page, lambda d: "play phase" in text(d, "turn-line"))
    assert not page.find_element(By.ID, "draw-open-button").is_displayed()
    assert [t["turn"] for t in kept(page)["hands"][0]["turns"]] == ["pass", "open"]
    # a position with no upcard offers neither
    load(page, "examples/house-classic")
    wait(page, lambda d: not d.find_element(By.ID, "draw-open-button").is_displayed())
    assert not page.find_element(By.ID, "draw-pass-button").is_displayed()
