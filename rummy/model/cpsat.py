"""CP-SAT's Python module, imported without pandas and without numpy.

``ortools.sat.python.cp_model`` imports pandas and numpy at the top, but
needs neither at that import for what rummy does with it:

- pandas only for its ``*_series`` helpers (``pd.Index`` and ``pd.Series``
  in type hints and ``isinstance`` tests), which rummy never calls. Importing
  pandas costs about 240 ms of every command's start (measured: the import
  of cp_model alone takes 0.40 s with it, 0.15 s without).
- numpy only for the names of its scalar types (``np.int64``, ``np.bool_``,
  ...), in type hints and in the tuples cp_model's ``isinstance`` tests accept
  besides ``int`` and ``bool``: rummy passes Python's ints and bools only.
  OR-Tools' compiled helper does need the real numpy, but only once the first
  ``CpModel`` is made (it imports numpy itself then). So numpy's import, about
  60 ms (100 ms on a loaded machine), moves from cp_model's import to the
  first model's: whatever a search finds before it builds a CP-SAT model (a
  turn listed outright, the ladder's, the table's) comes that much sooner,
  and a command that never builds a model never pays it
  (benchmarks/results/startup.md).

So while cp_model is first imported, stand-ins with those names take pandas'
and numpy's places in ``sys.modules``, and are removed right after: code that
imports pandas or numpy later gets the real ones (OR-Tools' compiled helper
too).

The price: in a process that imports rummy's models before numpy (pandas),
cp_model's ``isinstance`` tests do not take numpy's scalars (and its
``*_series`` helpers not pandas' objects). Where numpy, pandas or cp_model
is already loaded, that one is not replaced. And while cp_model is imported
(about 0.15 s, once per process), another thread that imports numpy or
pandas gets the stand-in for good: a program that imports rummy's models
while other threads import numpy should import numpy first.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, TypeAlias

# The names cp_model reads from each module at its import (its scalar types' tuples, its type hints).
_NUMPY_NAMES = ("int8", "uint8", "int32", "uint32", "int64", "uint64", "double", "bool_")
_PANDAS_NAMES = ("Index", "Series")


def _stand_in(name: str, classes: tuple[str, ...]) -> types.ModuleType:
    module = types.ModuleType(name, "a stand-in while ortools' cp_model is imported (rummy.model.cpsat)")
    # Classes of their own: no value rummy makes is an instance of them.
    vars(module).update({attribute: type(attribute, (), {}) for attribute in classes})
    return module


def _import_cp_model() -> types.ModuleType:
    if "ortools.sat.python.cp_model" in sys.modules:
        from ortools.sat.python import cp_model
        return cp_model
    stand_ins = {name: _stand_in(name, classes)
                 for name, classes in (("numpy", _NUMPY_NAMES), ("pandas", _PANDAS_NAMES)) if name not in sys.modules}
    sys.modules.update(stand_ins)
    try:
        from ortools.sat.python import cp_model
    finally:
        for name, stand_in in stand_ins.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]
    return cp_model


if TYPE_CHECKING:
    # The type checker reads ortools' own annotations (the module ships py.typed).
    from ortools.sat.python import cp_model as cp_model
else:
    cp_model = _import_cp_model()

# An integer expression of a model: ortools' ``LinearExprT`` without numpy's integers, which rummy
# never makes (and whose operators ortools' annotations do not mix with a ``LinearExpr``).
Expression: TypeAlias = cp_model.LinearExpr | int
