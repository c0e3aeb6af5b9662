"""``rummy rules [PRESET]``: the presets, or one preset's options with their meaning.

Named ``rules_cmd`` so that it is never mistaken for ``rummy.rules``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummy.cli.options import JsonFlag, PresetName

if TYPE_CHECKING:
    from rummy.rules import Ruleset


def rules(preset_name: PresetName = None, json_output: JsonFlag = False) -> int:
    """List the presets, or show one preset's options, their values and meaning."""
    from rummy.cli import output

    if preset_name is None:
        listing = preset_listing()
        if json_output:
            output.print_json(listing)
        else:
            output.print_lines(listing_lines(listing))
        return output.EXIT_OK

    from rummy.rules import preset

    ruleset = preset(preset_name)  # an unknown name raises RulesError: one line, exit 2
    if json_output:
        output.print_json(preset_data(ruleset))
    else:
        output.print_lines(preset_lines(ruleset))
    return output.EXIT_OK


def preset_listing() -> list[dict[str, str]]:
    from rummy.rules import PRESET_SUMMARIES, PRESETS

    return [
        {"name": name, "family": ruleset.family, "summary": PRESET_SUMMARIES.get(name, "")}
        for name, ruleset in PRESETS.items()
    ]


def preset_data(ruleset: Ruleset) -> dict[str, Any]:
    """One preset as JSON: option values as a position's [rules] table would write them."""
    from rummy.rules import PRESET_SUMMARIES

    return {
        "name": ruleset.name,
        "family": ruleset.family,
        "summary": PRESET_SUMMARIES.get(ruleset.name, ""),
        "options": {key: _json_value(value) for key, value in ruleset.options().items()},
        "docs": option_docs(ruleset),
    }


def option_docs(ruleset: Ruleset) -> dict[str, str]:
    """The one-line meaning of every option (the ``doc`` metadata of Ruleset's fields)."""
    import dataclasses

    docs = {f.name: f.metadata.get("doc", "") for f in dataclasses.fields(ruleset)}
    return {key: docs[key] for key in ruleset.options()}


def listing_lines(listing: list[dict[str, str]]) -> list[Any]:
    from rummy.cli.output import text

    width = max(len(entry["name"]) for entry in listing)
    family_width = max(len(entry["family"]) for entry in listing)
    lines: list[Any] = [text(("preset".ljust(width) + "  " + "family".ljust(family_width) + "  summary", "bold"))]
    for entry in listing:
        lines.append(
            text(
                (entry["name"].ljust(width), "bold cyan"),
                "  " + entry["family"].ljust(family_width) + "  " + entry["summary"],
            )
        )
    lines.append("")
    lines.append("'rummy rules PRESET' shows a preset's options; a position may override any of them in its [rules] table.")
    return lines


def preset_lines(ruleset: Ruleset) -> list[Any]:
    from rummy.cli.output import text
    from rummy.rules import PRESET_SUMMARIES

    options = {key: display_value(value) for key, value in ruleset.options().items()}
    docs = option_docs(ruleset)
    key_width = max(len(key) for key in options)
    value_width = max(len(value) for value in options.values())
    lines: list[Any] = [
        text((ruleset.name, "bold cyan"), f" ({ruleset.family}): {PRESET_SUMMARIES.get(ruleset.name, '')}"),
        "",
        text(("option".ljust(key_width) + "  " + "value".ljust(value_width) + "  meaning", "bold")),
    ]
    for key, value in options.items():
        lines.append(text(key.ljust(key_width) + "  ", (value.ljust(value_width), "green"), "  " + docs[key]))
    lines.append("")
    lines.append(f"Override in a position with: [rules] preset = \"{ruleset.name}\" and OPTION = VALUE lines.")
    return lines


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
