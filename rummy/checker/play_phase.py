"""The play phase of a turn judged: the facts every turn is judged on, the family's judge, the gain.

``check`` judges a play-phase turn with it; Robber Rummy's draw judge judges
the rest of a draw-phase turn with it, from the position its draw led to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..position import Position
from .facts import gather_facts
from .gain import breakdown, turn_gain
from .hidden import hidden_witness
from .verdict import Breach, Verdict, dedupe, json_number


def judge_play_phase(start: Position, after: Position, gain_from: Position | None = None,
                     draw: Mapping[str, object] | None = None, draw_breaches: Sequence[Breach] = ()) -> Verdict:
    """Judge the turn from the play-phase ``start`` to ``after``.

    A turn that began with a draw gives the draw-phase position as
    ``gain_from`` (the gain counts from before the draw), the draw as its
    reading shows it (``draw``) and the draw's own breaches, which come first.
    """
    hidden_note = None
    count_breaches: tuple[Breach, ...] = ()
    if start.mover.hand is None:  # a hidden mover: judged through a witness hand (checker/hidden)
        witness = hidden_witness(start, after)
        start, after, count_breaches, hidden_note = witness.before, witness.after, witness.breaches, witness.note
        gain_from = None  # the hidden hand before the draw has no witness: the gain counts from the draw on
    facts = gather_facts(start, after)
    judge = start.rules.family.judge_function()
    family_breaches, family_reading = judge(facts)
    # The verdict's reading is JSON data whose keys and values depend on the family (Verdict.reading).
    reading: dict[str, Any] = dict(family_reading)
    if draw is not None:
        reading["draw"] = draw
    if hidden_note is not None:
        reading["hidden_hand"] = hidden_note
    breaches = dedupe([*draw_breaches, *count_breaches, *facts.breaches, *family_breaches])
    measured_from = start if gain_from is None else gain_from
    reading["gain"] = json_number(turn_gain(measured_from, after))
    reading["breakdown"] = [{"what": what, "points": json_number(points)}
                            for what, points in breakdown(measured_from, after)]
    return Verdict(not breaches, tuple(breaches), reading)
