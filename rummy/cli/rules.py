"""``rummy rules [PRESET]``: the presets, or one preset's options with their meaning.

The listing and the lines are rummy.reports.presets'; this module finds the terminal's width and prints.
"""

from __future__ import annotations

from rummy.cli._options import JsonFlag, PresetName
from rummy.cli._output import print_json, print_lines
from rummy.reports.exit_codes import EXIT_OK


def rules(preset_name: PresetName = None, json_output: JsonFlag = False) -> int:
    """List the presets, or show one preset's options, their values and meaning."""
    from rummy.reports.presets import listing_lines, preset_data, preset_lines, preset_listing

    if preset_name is None:
        listing = preset_listing()
        if json_output:
            print_json(listing)
        else:
            print_lines(listing_lines(listing, terminal_width()))
        return EXIT_OK

    from rummy.rules import preset

    ruleset = preset(preset_name)  # an unknown name raises RulesError: one line, exit 2
    if json_output:
        print_json(preset_data(ruleset))
    else:
        print_lines(preset_lines(ruleset, terminal_width()))
    return EXIT_OK


def terminal_width() -> int | None:
    """The width to wrap to: COLUMNS where it is set (as in ``COLUMNS=80 rummy rules | less``), else a
    terminal's, or None in a pipe or a file (never wrapped)."""
    import os
    import shutil
    import sys

    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns
