"""``--svg FILE`` of ``rummy show`` and ``rummy best``: where a picture may be written, and writing it
(and where any output file may go: ``rummy play --out``).

The file is written with ``rummy.files.write_atomic`` (in one step, never
through a symbolic link); a folder, a link, or a file the command reads as
input is refused before any work is done (one error line, exit 2).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from rummy.errors import RummyError


def check_svg_path(target: Path, inputs: Iterable[Path]) -> None:
    """Refuse a place the picture must not go: ``-``, a folder, a symbolic link, one of the input files."""
    if str(target) == "-":
        raise RummyError("--svg -: give a file name (the picture is not written to stdout)")
    check_output_path(target, inputs, "--svg")


def check_output_path(target: Path, inputs: Iterable[Path], option: str) -> None:
    """Refuse a place an output file must not go (``--svg``, ``play --out``): a folder, a symbolic link,
    one of the input files; before any work is done."""
    if target.is_symlink():
        raise RummyError(f"{option} {target}: a symbolic link; refusing to write through it")
    if target.is_dir():
        raise RummyError(f"{option} {target}: a folder, not a file")
    if target.exists():
        for source in inputs:
            try:
                same = str(source) != "-" and source.exists() and os.path.samefile(source, target)
            except OSError:
                same = False
            if same:
                raise RummyError(f"{option} {target}: that is the input file {source}; refusing to overwrite it")


def write_svg(target: Path, svg: str, inputs: Iterable[Path]) -> None:
    """Write the picture and say where on stderr."""
    from rummy.files import write_atomic

    check_svg_path(target, inputs)
    write_atomic(target, svg)
    sys.stderr.write(f"picture written to {target}\n")
    sys.stderr.flush()
