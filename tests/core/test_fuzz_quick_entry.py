"""Issue 26's quick entry, fuzzed as a hostile user would type it: position codes, shorthands, tile
tables given as bags, and the editor's play check (tests/core/test_fuzz_inputs.py fuzzes files).

* codes: the code of a fuzzed document (tests/core/test_fuzz_inputs.py's mutations of every seed),
  and valid codes damaged character by character, given to ``show``, ``check`` and ``best`` in
  place of a file: read, or refused in one ``rummy: <code>: ...`` line, exit 2;
* shorthands: any token of the card alphabet with ``-``, ``x`` and ``Y`` is read as at most a
  deck's cards or refused with a ``NotationError`` quoting it;
* bags: random bags of tiles, within the deck's counts or not (an after-position), some with more
  jokers than the deck: laid out in whole plays holding every tile, or refused with a
  ``RummyError``, never another exception;
* the play check (``POST /api/play-check``): any rules and cards text is a 200 or a 400 whose
  ``errors`` are ``place: problem`` lines.
"""

from __future__ import annotations

import json
import random
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy.cards import LARGEST_DECK, SUITS, Card, parse_cards, read_token
from rummy.errors import NotationError, RummyError, error_lines
from rummy.plays import is_whole
from rummy.position import Position
from rummy.position_code import PREFIX, position_code
from rummy.rules import PRESETS
from tests.core.test_fuzz_inputs import FUZZ_SETTINGS, assert_clean, documents, partner, run_main, scaled
from tests.support.paths import PUZZLE_EXAMPLES

EXAMPLES = sorted(PUZZLE_EXAMPLES.glob("*.toml"))
CODES = [position_code(Position.from_file(path)) for path in EXAMPLES]
CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


# ------------------------------------------------------------------ codes
@settings(max_examples=scaled(150), **FUZZ_SETTINGS)
@given(document=documents(), command=st.sampled_from(["show", "show --after", "check BEFORE", "check AFTER"]))
def test_fuzz_the_code_of_a_fuzzed_document(document: tuple[Path, Any], command: str) -> None:
    """A code holds any JSON; what it holds is read as a JSON file is, its errors named ``<code>``."""
    seed, data = document
    try:
        text = json.dumps(data, separators=(",", ":"))
    except (TypeError, ValueError):
        return
    code = _code_of_json(text)
    before, after = partner(seed)
    args: tuple[Any, ...] = {"show": ("show", code), "show --after": ("show", "--after", code),
                             "check BEFORE": ("check", code, after), "check AFTER": ("check", before, code)}[command]
    run = run_main(*args)
    assert_clean(run)
    if run.code == 2 and command != "check AFTER":  # an AFTER given as an argument is a file's name
        assert "<code>" in run.err or str(after) in run.err, run.err


@st.composite
def damaged_codes(draw: st.DrawFn) -> str:
    code = draw(st.sampled_from(CODES))
    body = list(code[len(PREFIX):])
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(body) - 1))
        what = draw(st.sampled_from(["replace", "delete", "insert", "swap", "cut"]))
        piece = draw(st.sampled_from(list(CODE_ALPHABET) + ["=", "+", "/", " ", "\u00e9", "%41", "\u0661"]))
        if what == "replace":
            body[at] = piece
        elif what == "delete":
            del body[at]
        elif what == "insert":
            body.insert(at, piece)
        elif what == "swap" and at + 1 < len(body):
            body[at], body[at + 1] = body[at + 1], body[at]
        elif what == "cut":
            body = body[:at]
        if not body:
            body = ["A"]
    prefix = draw(st.sampled_from([PREFIX, PREFIX, PREFIX, "rummy2_", "rummy01_", "Rummy1_", "rummy1-"]))
    return prefix + "".join(body)


@settings(max_examples=scaled(300), **FUZZ_SETTINGS)
@given(code=damaged_codes(), command=st.sampled_from(["show", "best"]))
def test_fuzz_a_damaged_code_is_refused_in_one_line_or_read(code: str, command: str) -> None:
    args = ("show", code) if command == "show" else ("best", code, "--time-limit", "0.2")
    run = run_main(*args)
    assert_clean(run)
    if run.code == 2:
        assert len(run.err.splitlines()) == 1 or "unknown card" in run.err, run.err


def _code_of_json(text: str) -> str:
    """A code holding ``text`` as it is (``position_code`` writes only a position's canonical JSON)."""
    import base64
    import zlib

    from rummy.position_code import DICTIONARY_V1, _check

    data = text.encode("utf-8", "surrogatepass")
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, DICTIONARY_V1)
    return PREFIX + base64.urlsafe_b64encode(packer.compress(data) + packer.flush() + _check(data)).decode().rstrip("=")


# ------------------------------------------------------------ shorthands
TOKEN_ALPHABET = "0123456789-xXyYkKbBrRoOhHsSdDcCaAjJqQtT*=♠♥\u0130\u0131\uff17\u0301"
tokens = st.text(alphabet=TOKEN_ALPHABET, max_size=14) | st.sampled_from([
    "K1-13", "K1-14", "K13-1", "7H-10H", "QH-AH", "KH-2H", "2xR5", "106xR5", "107xR5", "0xR5", "2x2xR5", "2x*",
    "2xK1-5", "KRO10", "KROY10", "KRBOY10", "KK10", "7HSD", "7HHS", "10SHDC", "Y7", "y13", "R1-R5", "R1-B5",
    "*=R7-9", "R7-*", "x", "2x", "-", "R-5", "1-5", "K\u0130", "K1\u0301",
])


@settings(max_examples=scaled(1500), **FUZZ_SETTINGS)
@given(token=tokens)
def test_fuzz_a_token_is_at_most_a_deck_of_real_cards_or_refused_quoting_it(token: str) -> None:
    try:
        written = read_token(token)
    except NotationError as error:
        assert "\n" not in str(error) and len(str(error)) < 300
        return
    assert 1 <= len(written.cards) <= LARGEST_DECK
    for card in written.cards:
        assert card.is_joker or (1 <= card.rank <= 13 and card.suit in SUITS)


# ------------------------------------------------------------------ bags
TILES = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]
TILE_PRESETS = ("rummikub-lenient", "rummikub", "tiles50", "yourturnmyturn")


@st.composite
def bags(draw: st.DrawFn) -> tuple[str, str, bool]:
    rnd = random.Random(draw(st.integers(0, 2**64)))
    rules = draw(st.sampled_from(TILE_PRESETS))
    strict = draw(st.booleans())
    size = draw(st.sampled_from([0, 1, 3, 6, 12, 30, 60, 106, 200]))
    pool = TILES * 2 if strict else TILES * 4
    tiles = [card.notation("tiles") for card in rnd.sample(pool, min(size, len(pool)))]
    for _ in range(draw(st.sampled_from([0, 0, 1, 2, 3, 5]))):
        tiles.insert(rnd.randrange(len(tiles) + 1), rnd.choice(["*", "*", f"*={rnd.choice(TILES).notation('tiles')}"]))
    return rules, " ".join(tiles), strict


@pytest.mark.slow
@settings(max_examples=scaled(120), **FUZZ_SETTINGS)
@given(bag=bags())
def test_fuzz_a_bag_is_laid_out_whole_or_refused(bag: tuple[str, str, bool]) -> None:
    rules, table, strict = bag
    data = {"rules": rules, "to_move": "ann", "table": table,
            "players": {"ann": {"melded": True, "hand": ""}, "bob": {"melded": True, "hand_count": 3}}}
    try:
        position = Position.from_data(data, strict=strict)
    except RummyError as error:
        assert all("\n" not in line and len(line) < 1000 for line in error_lines(error))
        return
    laid = Counter(card.plain() for play in position.table for card in play.cards)
    assert laid == Counter(card.plain() for card in parse_cards(table))
    assert all(is_whole(play.cards, position.rules) for play in position.table)


# ------------------------------------------------------------ the play check
@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    pytest.importorskip("fastapi", reason="the web API needs the web extra: pip install 'rummy[web]'")
    pytest.importorskip("httpx", reason="FastAPI's TestClient needs httpx (the test extra)")
    with warnings.catch_warnings():  # starlette would rather have httpx2: a warning, not our concern
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from rummy.web.app import Settings, create_app

    with TestClient(create_app(Settings(workers=1)), base_url="http://127.0.0.1") as client:
        yield client


cards_texts = (st.lists(tokens, max_size=40).map(" ".join)
               | st.sampled_from(["* " * 300, "106xR1 106xR2 106xR3", "K1-13 " * 20, "R1," * 2000, "\x00", ""]))
rules_values = st.sampled_from(list(PRESETS) + ["nope", "", "\u0130", "x" * 101]) | st.integers() | st.none()


@settings(max_examples=scaled(200), **FUZZ_SETTINGS)
@given(rules=rules_values, cards=cards_texts)
def test_fuzz_the_play_check_answers_or_refuses_in_lines(client: Any, rules: Any, cards: str) -> None:
    response = client.post("/api/play-check", json={"rules": rules, "cards": cards})
    assert response.status_code in (200, 400), response.text
    answer = response.json()
    if response.status_code == 400:
        assert answer["errors"] and answer["error"] == answer["errors"][0]
        assert all(": " in line and "\n" not in line for line in answer["errors"])
    else:
        assert isinstance(answer["whole"], bool) and len(answer["cards"]) <= 256


@settings(max_examples=scaled(150), **FUZZ_SETTINGS)
@given(code=damaged_codes(), after=st.booleans())
def test_fuzz_a_damaged_code_on_the_api_is_a_400_in_lines_or_read(client: Any, code: str, after: bool) -> None:
    response = client.post("/api/show", json={"position": code, "after": after})
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        assert all(line.startswith("position: ") and "\n" not in line for line in response.json()["errors"])


@settings(max_examples=scaled(150), **FUZZ_SETTINGS)
@given(cards=st.lists(tokens, min_size=1, max_size=6).map(" ".join),
       verb=st.sampled_from(["play {} to new/1", "play {} to table/1 (R1 R2; x)", "replace table/1 * with {}",
                             "move {} from table/1 to new/1", "{}; play R1 to new/1"]))
def test_fuzz_steps_with_shorthands_on_the_api_are_read_or_refused_in_lines(client: Any, cards: str, verb: str) -> None:
    before = (PUZZLE_EXAMPLES / "rummikub-lenient.toml").read_text(encoding="utf-8")
    response = client.post("/api/steps", json={"before": before, "steps": verb.format(cards)})
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        assert all(": " in line and "\n" not in line for line in response.json()["errors"])
