"""CP-SAT's Python module, imported without pandas.

``ortools.sat.python.cp_model`` imports pandas at the top only for its
``*_series`` helpers (``pd.Index`` and ``pd.Series`` in type hints and
``isinstance`` tests), which rummy never calls. Importing pandas costs about
240 ms of every command's start (measured: the import of cp_model alone
takes 0.40 s with it, 0.15 s without). So while cp_model is first imported,
a stand-in with those two names takes pandas' place in ``sys.modules``, and
is removed right after: code that imports pandas later gets the real one.

The price: in a process that imports rummy's models before pandas, the
``*_series`` helpers of cp_model do not accept pandas objects. Where pandas
(or cp_model) is already loaded, nothing is replaced.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, TypeAlias


def _import_cp_model() -> types.ModuleType:
    if "pandas" in sys.modules or "ortools.sat.python.cp_model" in sys.modules:
        from ortools.sat.python import cp_model
        return cp_model
    stand_in = types.ModuleType("pandas", "a stand-in while ortools' cp_model is imported (rummy.model.cpsat)")
    vars(stand_in).update(Index=type("Index", (), {}), Series=type("Series", (), {}))
    sys.modules["pandas"] = stand_in
    try:
        from ortools.sat.python import cp_model
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    return cp_model


if TYPE_CHECKING:
    # The type checker reads ortools' own annotations (the module ships py.typed).
    from ortools.sat.python import cp_model as cp_model
else:
    cp_model = _import_cp_model()

# An integer expression of a model: ortools' ``LinearExprT`` without numpy's integers, which rummy
# never makes (and whose operators ortools' annotations do not mix with a ``LinearExpr``).
Expression: TypeAlias = cp_model.LinearExpr | int
