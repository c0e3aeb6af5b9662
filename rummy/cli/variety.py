"""``rummy variety DIR [--json]``: the share of each theme per kind and tier of a puzzle collection.

Thin over rummy.reports.variety (``collection_variety``, ``variety_lines``); docs/themes.md says
what the table means and docs/formats.md gives the --json object.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rummy.cli._options import JsonFlag
from rummy.cli._output import print_answer
from rummy.reports.exit_codes import EXIT_OK

CollectionPath = Annotated[Path, typer.Argument(
    help="A folder written by 'rummy generate' (index.json, NAME.toml, NAME.solution.json).", show_default=False)]


def variety(directory: CollectionPath, json_output: JsonFlag = False) -> int:
    """How varied a collection is: the share of each theme per kind and tier, and the hard+expert maximum."""
    from rummy.reports.variety import collection_variety, variety_lines

    found = collection_variety(directory)
    print_answer(found.to_data(), variety_lines(found), json_output)
    return EXIT_OK
