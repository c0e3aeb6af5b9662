"""``rummy sheets DIR``: a puzzle collection (``rummy generate``'s folder) drawn as SVG sheets.

For each puzzle of ``DIR/index.json``: ``NAME.sheet.svg`` (the task and the
position) and ``NAME.answer.svg`` (the stored answer's plan), written into
``--out`` (default ``DIR``). Every name is checked before anything is
written: a file already there is refused (one error line, exit 2) unless
``--force``. Files are written with ``rummy.files`` (in one step, never
through a symbolic link). See docs/pictures.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rummy.reports.exit_codes import EXIT_OK

CollectionPath = Annotated[Path, typer.Argument(
    help="A folder written by 'rummy generate' (index.json, NAME.toml, NAME.solution.json).", show_default=False)]
SheetsOutOption = Annotated[Path | None, typer.Option(
    "--out", help="Folder for the sheets (default: DIR; created if missing; not a symbolic link).", show_default=False)]
ForceFlag = Annotated[bool, typer.Option("--force", help="Replace sheets already written (never a symbolic link).")]


def sheets(directory: CollectionPath, out: SheetsOutOption = None, force: ForceFlag = False) -> int:
    """Draw every puzzle of a collection as an SVG sheet (the task and the position) and an answer sheet."""
    import sys

    from rummy.errors import RummyError, with_prefix
    from rummy.files import FileKept, Folder
    from rummy.sheets import read_collection, sheet_files

    with Folder(directory) as source:
        puzzles = read_collection(source)
    target_path = directory if out is None else out
    try:
        target = Folder(target_path, create=True)
    except RummyError as error:
        raise with_prefix(error, "--out") from None
    with target:
        # Every picture is made and every name checked before the first file is written.
        pictures = {name: svg for puzzle in puzzles for name, svg in sheet_files(puzzle).items()}
        if not force:
            for name in pictures:
                if target.kind(name) is not None:
                    raise FileKept(f"{target.path / name}: exists; not overwritten (--force replaces it)")
        for name, svg in pictures.items():
            target.write(name, svg, replace=force)
    sys.stderr.write(f"wrote {len(pictures)} pictures ({len(puzzles)} puzzles) to {target_path}\n")
    sys.stderr.flush()
    return EXIT_OK
