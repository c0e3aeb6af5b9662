"""Position text to data, bounded: TOML and JSON parsed with the reader's limits, every refusal a
``PositionError`` naming the source.

Both parsers run on text already bounded in bytes (rummy.inputs) or checked here; the tree they
give is then walked once (``check_tree``): at most ``MAX_DEPTH`` levels of tables and lists, every
text valid Unicode. JSON's duplicate keys, NaN and infinities are refused, as TOML refuses them.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from .errors import PositionError, quote
from .inputs import MAX_FILE_BYTES, too_large
from .inputs import reason as _reason

MAX_DEPTH = 16  # tables and lists inside one another; positions need 6
MAX_KEY_SHOWN = 32  # a key longer than a player name is quoted, shortened, in a place

def parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text as data; a syntax error, too deep a nesting or too long a number is a PositionError."""
    _check_length(text, source)
    with _refused_as(source, "TOML"):
        return tomllib.loads(text)


def parse_json(text: str, source: str) -> Any:
    """JSON text as data. Refuses what JSON does not allow but Python's reader takes:
    NaN and Infinity, and a key given twice."""
    _check_length(text, source)
    with _refused_as(source, "JSON"):
        try:
            return json.loads(text, object_pairs_hook=_json_object, parse_constant=_json_constant)
        except _JsonRefusal as refusal:
            raise PositionError(source, f"not valid JSON: {refusal.args[0]}") from None


@contextmanager
def _refused_as(source: str, language: str) -> Iterator[None]:
    """The reader's errors as one PositionError each: bad syntax, too deep a nesting, too long a number."""
    try:
        yield
    except PositionError:
        raise
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as error:
        raise PositionError(source, f"not valid {language}: {error}") from None
    except RecursionError:
        raise PositionError(source, f"nested more than {MAX_DEPTH} levels deep; no position needs that") from None
    except ValueError as error:  # e.g. a number of more than 4,300 digits
        raise PositionError(source, f"not valid {language}: {_reason(error)}") from None


class _JsonRefusal(Exception):
    """Raised inside json.loads by the hooks (not a ValueError: json must not reword it)."""


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _JsonRefusal(f"the key {quote(key)} is given twice")
            seen.add(key)
    return data


def _json_constant(name: str) -> Any:
    raise _JsonRefusal(f"{name} is not a JSON number")


def _check_length(text: str, source: str) -> None:
    # Text from a file is already bounded in bytes; text handed in directly is bounded here.
    if len(text) > MAX_FILE_BYTES:
        raise PositionError(source, too_large())


def check_tree(data: Any, source: str) -> None:
    """Every table and list nested at most ``MAX_DEPTH`` deep, every text valid Unicode.

    Iterative, so that hostile nesting never meets Python's recursion limit;
    linear in the size of the data.
    """
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    while stack:
        node, depth, place = stack.pop()
        if depth > MAX_DEPTH:
            raise PositionError(f"{source}: {place}" if place else source,
                                f"nested more than {MAX_DEPTH} levels deep; no position needs that")
        if isinstance(node, Mapping):
            items: Iterable[tuple[Any, Any]] = node.items()
        elif isinstance(node, (list, tuple)):
            items = enumerate(node)
        else:
            continue
        for key, value in items:
            if isinstance(key, str) and not _valid_text(key):
                raise PositionError(f"{source}: {place}" if place else source,
                                    f"the key {quote(key)} is not valid Unicode text")
            if isinstance(value, str):
                if not _valid_text(value):
                    raise PositionError(f"{source}: {child_place(place, key)}",
                                        f"{quote(value)} is not valid Unicode text")
            elif isinstance(value, (Mapping, list, tuple)):
                stack.append((value, depth + 1, child_place(place, key)))


def _valid_text(text: str) -> bool:
    r"""No lone surrogates (JSON can write ``"\ud800"``, which no file can hold)."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def child_place(place: str, key: Any) -> str:
    """The place of ``key`` inside ``place``: ``players.ann``, ``table[2]``."""
    if isinstance(key, int):
        return f"{place}[{key + 1}]"
    shown = key if isinstance(key, str) and key.isidentifier() and len(key) <= MAX_KEY_SHOWN else quote(key)
    return f"{place}.{shown}" if place else shown
