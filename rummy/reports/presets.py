"""``rummy rules``'s answer: the presets, or one preset's options with their meaning, as JSON and lines."""

from __future__ import annotations

import dataclasses
import textwrap
from typing import Any

from rummy.reports.lines import text
from rummy.rules import PRESET_SUMMARIES, PRESETS, Ruleset, family_options, moot_options


def preset_listing() -> list[dict[str, str]]:
    return [
        {"name": name, "family": ruleset.family, "summary": PRESET_SUMMARIES.get(name, "")}
        for name, ruleset in PRESETS.items()
    ]


def preset_data(ruleset: Ruleset) -> dict[str, Any]:
    """One preset as JSON: option values as a position's [rules] table would write them."""
    return {
        "name": ruleset.name,
        "family": ruleset.family,
        "summary": PRESET_SUMMARIES.get(ruleset.name, ""),
        "options": {key: _json_value(value) for key, value in ruleset.options().items()},
        "docs": option_docs(ruleset),
    }


def option_docs(ruleset: Ruleset) -> dict[str, str]:
    """The one-line meaning of every option (the ``doc`` metadata of Ruleset's fields)."""
    docs = {f.name: f.metadata.get("doc", "") for f in dataclasses.fields(ruleset)}
    return {key: docs[key] for key in ruleset.options()}


def listing_lines(listing: list[dict[str, str]], columns: int | None = None) -> list[Any]:
    """The presets: name, family, summary. With ``columns`` (a terminal's width), each summary is
    wrapped between words under its column (or, too narrow, on lines of its own under its preset)."""
    width = max(len(entry["name"]) for entry in listing)
    family_width = max(len(entry["family"]) for entry in listing)
    indent = width + family_width + 4
    below = columns is not None and columns - indent < _NARROWEST_MEANING
    lines: list[Any] = [text(("preset".ljust(width) + "  " + "family".ljust(family_width) + "  summary", "bold"))]
    for entry in listing:
        if below:
            assert columns is not None
            lines.append(text((entry["name"].ljust(width), "bold cyan"), "  " + entry["family"]))
            lines.extend("    " + part for part in _wrapped(entry["summary"], columns - 4))
            continue
        summary = _wrapped(entry["summary"], columns - indent if columns else None)
        lines.append(text((entry["name"].ljust(width), "bold cyan"), "  " + entry["family"].ljust(family_width)
                          + "  " + summary[0]))
        lines.extend(" " * indent + more for more in summary[1:])
    lines.append("")
    lines += _wrapped("'rummy rules PRESET' shows a preset's options; a position may override any of them in its "
                      "[rules] table.", columns)
    return lines


def preset_lines(ruleset: Ruleset, width: int | None = None) -> list[Any]:
    """The options of the preset's family: name, value, meaning. With ``width`` (a terminal's),
    the meaning is wrapped between words under its column; without, lines are never wrapped."""
    moot = {key: why for key, why in moot_options(ruleset).items() if key in family_options(ruleset)}
    options = {key: display_value(value) for key, value in family_options(ruleset).items() if key not in moot}
    docs = option_docs(ruleset)
    key_width = max(len(key) for key in options)
    value_width = max(len(value) for value in options.values())
    indent = key_width + value_width + 4
    head = f" ({ruleset.family}): {PRESET_SUMMARIES.get(ruleset.name, '')}"
    head_lines = _wrapped(ruleset.name + head, width)
    lines: list[Any] = [
        text((ruleset.name, "bold cyan"), head_lines[0][len(ruleset.name):]),
        *head_lines[1:],
        "",
        text(("option".ljust(key_width) + "  " + "value".ljust(value_width) + "  meaning", "bold")),
    ]
    below = width is not None and width - indent < _NARROWEST_MEANING  # too narrow: each meaning under its option
    for key, value in options.items():
        if below:
            assert width is not None
            lines.append(text(key.ljust(key_width) + "  ", (value, "green")))
            lines.extend("    " + part for part in _wrapped(docs[key], width - 4))
            continue
        meaning = _wrapped(docs[key], width - indent if width else None)
        lines.append(text(key.ljust(key_width) + "  ", (value.ljust(value_width), "green"), "  " + meaning[0]))
        lines.extend(" " * indent + more for more in meaning[1:])
    hidden = len(ruleset.options()) - len(options) - len(moot)
    lines.append("")
    if moot:
        reasons = sorted(set(moot.values()))
        lines += _wrapped(f"Not shown, as they cannot matter here ({'; '.join(reasons)}): {', '.join(moot)}.", width)
    if hidden:
        lines += _wrapped(f"{hidden} options of other families are not shown ('rummy rules {ruleset.name} --json' "
                          "lists every one).", width)
    override = f"Override in a position with: [rules] preset = \"{ruleset.name}\" and OPTION = VALUE lines."
    lines += _wrapped(override, width)
    return lines


# Below this many columns beside the values, meanings go on lines of their own under each option.
_NARROWEST_MEANING = 20


def _wrapped(meaning: str, width: int | None) -> list[str]:
    """The meaning in lines of at most ``width`` characters, broken between words only."""
    if width is None:
        return [meaning]
    return textwrap.wrap(meaning, max(width, 10), break_long_words=False, break_on_hyphens=False) or [""]


def display_value(value: Any) -> str:
    """Values as they are written in a position's [rules] table (none for no limit)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value
