"""Position codes: a whole position on one line of URL-safe text (docs/formats.md "Position codes").

``rummy1_`` + base64url, without padding, of: the raw DEFLATE (RFC 1951, level 9)
of the position's canonical JSON (``Position.to_data`` written compactly, UTF-8),
compressed against a fixed preset dictionary (``DICTIONARY_V1``), then two check
bytes (the low 16 bits of the JSON's CRC-32, big-endian), so that a code damaged
by a mistyped character is refused rather than read as another position.

Version 1's dictionary is part of the format: it never changes (a test pins its
digest). A better dictionary is a new version, ``rummy2_``, and the old codes
keep being read. Reading is bounded and linear: a code longer than a position
file may be (``MAX_FILE_BYTES``) is refused before it is decoded, and its data
is never expanded beyond that size (a "zip bomb" stops there). The JSON is then
read as a JSON position file is (rummy.parsing's limits, rummy.reader's checks),
so a reader's error keeps its place.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from typing import TYPE_CHECKING

from .errors import PositionError, quote
from .inputs import MAX_FILE_BYTES

if TYPE_CHECKING:
    from .position import Position

PREFIX = "rummy1_"
VERSION = 1
# What a code looks like, any version: ``rummy`` + a number + ``_`` (an unknown version is told as such).
CODE_START = re.compile(r"rummy(\d+)_")
ALPHABET = "A-Z a-z 0-9 - _"
_OUTSIDE_ALPHABET = re.compile(r"[^A-Za-z0-9_-]")
# Longer codes are refused before they are decoded: no position file is larger.
MAX_CODE_CHARS = MAX_FILE_BYTES
# Nor does a code's JSON expand beyond what a position file may hold.
MAX_JSON_BYTES = MAX_FILE_BYTES
CHECK_BYTES = 2


def _dictionary_v1() -> bytes:
    """Version 1's preset dictionary. Only literals: nothing the rest of rummy defines (presets,
    options, kinds) may change it. DEFLATE reaches back at most 32 KiB and codes of nearer
    strings are shorter, so the strings positions use most come last: the keys of every
    position, then card names, then tile names, books and preset names, puzzle statements,
    and rarely used keys first."""
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    cards_by_suit = " ".join(rank + suit for suit in "CDHS" for rank in ranks)
    books = " ".join(" ".join(rank + suit for suit in "SHDC") for rank in ranks)
    tiles_by_colour = " ".join(colour + str(number) for colour in "RBOK" for number in range(1, 14))
    tiles_by_number = " ".join(colour + str(number) for number in range(1, 14) for colour in "KROB")
    presets = ("house-classic", "house-epic", "rummikub", "rummikub-lenient", "tiles50", "yourturnmyturn", "robber",
               "straight", "traditional")
    options = ('"copies":"jokers":"book_min":"book_max":"book_distinct_suits":"run_min":"ace":"high_or_low",'
               '"circular","joker_mode":"joker_replace_from_hand":"joker_locks_play":"freed_joker_new_play_only":'
               '"rearrange":"initial_meld":["initial_meld_joker":"max_cards_per_turn":"plays_per_turn":"none",'
               '"layoff_needs_meld":"keep_one_to_discard":"first_out_bonus":"hand_penalty_at_end":"demand":'
               '"middle_discards_warm":"ace_points":"joker_points":"queen_of_spades_points":"going_rummy":'
               '"target":false,true,')
    turn = ',"turn":{"meld":["replaced":["discard":"draw":{"from":"stock","discard","take":"card":"player":}'
    puzzle = ('"puzzle":{"kind":"play-all","tier":"easy","task":"play all your tiles","target":'
              '"kind":"max","tier":"expert","task":"play as many tiles as you can","target":'
              '"kind":"go-out","tier":"hard","task":"go out this turn","target":'
              '"kind":"most-points","task":"lay off the most points","target":'
              '"kind":"steal","task":"steal the most points","task":"find the best turn (it steals)","target":'
              '"kind":"across","kind":"replace-meld","kind":"meld-steal","tier":"medium",'
              '"task":"find the best turn (you have not melded yet)","rules_note":"task":"find the best turn"}}')
    rules = '"rules":{"preset":' + ",".join(f'"{name}"' for name in presets) + ","
    tile_position = ('{"rules":"rummikub","to_move":"ann","phase":"play","table":["","*=R7"],"players":'
                     '{"ann":{"side":"ann","melded":true,"hand":"","bob":{"side":"bob","melded":true,"hand_count":')
    card_position = ('{"rules":"house-classic","hand_number":1,"to_move":"ann","phase":"play","first_out":"bob",'
                     '"players":{"ann":{"side":"ann","melded":true,"hand":"","hot":"","warm":"","space":["",'
                     '"layoffs":["ann/1 "bob":{"side":"bob","melded":false,"hand_count":7,"plays":[]},'
                     '"cat":{"side":"cat","melded":true,"hand_count":8,"space":[]},'
                     '"dan":{"side":"dan","melded":true,"hand_count":"piles":{"discard":"","stock":29,"upcard":"}}')
    return "".join((options, turn, puzzle, rules, tiles_by_number + " ", books + " ", tile_position,
                    tiles_by_colour + " * ", card_position, cards_by_suit + " ")).encode("ascii")


DICTIONARY_V1 = _dictionary_v1()
# sha256 of DICTIONARY_V1; tests/core/test_position_code.py holds the dictionary to it.
DICTIONARY_V1_SHA256 = "4b96b80b6f0efce0b39bc6457654c833c7b11acd836179f38631ea7a64b3d82c"


def canonical_json(position: Position) -> str:
    """The text a code holds: the position's data as compact JSON, in ``to_data``'s order."""
    return json.dumps(position.to_data(), separators=(",", ":"), ensure_ascii=False)


def position_code(position: Position) -> str:
    """The position as one line: ``rummy1_`` and URL-safe characters; ``position_from_code`` reads it back."""
    data = canonical_json(position).encode("utf-8")
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, DICTIONARY_V1)
    packed = packer.compress(data) + packer.flush() + _check(data)
    return PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def looks_like_code(text: str) -> bool:
    """Whether text (a file's, an argument, a paste) is meant as a code: it starts, after any
    whitespace, with ``rummy`` + a number + ``_``. No TOML or JSON position starts so."""
    return CODE_START.match(text.lstrip()[:64]) is not None


def code_json(text: str, source: str) -> str:
    """The JSON text a code holds, or a PositionError ``source: not a position code: why``."""
    code = text.strip()
    if len(code) > MAX_CODE_CHARS:
        raise _bad(source, f"too long: {len(code):,} characters; a code is at most {MAX_CODE_CHARS:,}")
    start = CODE_START.match(code)
    if start is None:
        raise _bad(source, f"it starts with {quote(code[:12])}, not {PREFIX!r}")
    if start.group(0) != PREFIX:
        version = start.group(1) if len(start.group(1)) <= 6 else f"of {len(start.group(1)):,} digits"
        said = start.group(0) if len(start.group(1)) <= 6 else "rummy..._"
        raise _bad(source, f"unknown version {version} ({said!r}; this rummy reads {PREFIX!r} codes)")
    body = code[len(PREFIX):]
    wrong = _OUTSIDE_ALPHABET.search(body)
    if wrong is not None:
        at = len(PREFIX) + wrong.start() + 1
        raise _bad(source, f"bad character {quote(wrong.group(0))} at character {at} (a code uses only {ALPHABET})")
    if len(body) % 4 == 1:
        raise _bad(source, f"damaged: no code is {len(code)} characters long (cut short?)")
    packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    if base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=") != body:
        # The last character carries bits past the data's end, which a code always leaves at zero.
        raise _bad(source, f"damaged: its last character {quote(body[-1])} is not one a code ends with")
    data = _inflate(packed, source)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise _bad(source, "damaged: its data is not UTF-8 text") from None


def position_from_code(text: str, source: str = "<code>", strict: bool = True,
                       mover_may_be_hidden: bool = False) -> Position:
    """The position a code holds, read as a JSON position file is (``strict=False``: as an after-position)."""
    from .position import Position

    return Position.from_json(code_json(text, source), source, strict, mover_may_be_hidden)


def _inflate(packed: bytes, source: str) -> bytes:
    if len(packed) <= CHECK_BYTES:
        raise _bad(source, "damaged: too short to hold a position (cut short?)")
    unpacker = zlib.decompressobj(-15, DICTIONARY_V1)
    try:
        data = unpacker.decompress(packed, MAX_JSON_BYTES + 1)
    except zlib.error:
        raise _bad(source, "damaged: its data cannot be unpacked") from None
    if len(data) > MAX_JSON_BYTES:
        raise _bad(source, f"too large: its data expands beyond {MAX_JSON_BYTES:,} bytes, the limit of a position file")
    if not unpacker.eof:
        raise _bad(source, "damaged: its data ends early (cut short?)")
    if unpacker.unused_data != _check(data):
        raise _bad(source, "damaged: its check does not match (a character changed, added or lost?)")
    return data


def _check(data: bytes) -> bytes:
    return (zlib.crc32(data) & 0xFFFF).to_bytes(CHECK_BYTES, "big")


def _bad(source: str, why: str) -> PositionError:
    return PositionError(source, f"not a position code: {why}")
