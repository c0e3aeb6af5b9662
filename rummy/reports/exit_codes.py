"""The exit codes (formats.md): 0 done, 1 a negative answer (no legal turn, an
illegal turn), 2 bad input or usage, 3 a bug in rummy itself, 4 no answer
(the time limit passed before any turn was found; an answer with no turn to
judge), 130 interrupted.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
EXIT_NO_ANSWER = 4
EXIT_INTERRUPTED = 130
# Many answers (rummy best on several positions) exit with the worst code seen, in this order:
# no answer is worse than a negative one, and better than input that must be mended.
_EXIT_SEVERITY = (EXIT_OK, EXIT_NEGATIVE, EXIT_NO_ANSWER, EXIT_BAD_INPUT, EXIT_INTERNAL)


def worse(code: int, other: int) -> int:
    """The worse of two exit codes (``_EXIT_SEVERITY``; a code not in it is the worst)."""
    def rank(value: int) -> int:
        return _EXIT_SEVERITY.index(value) if value in _EXIT_SEVERITY else len(_EXIT_SEVERITY)

    return code if rank(code) >= rank(other) else other
