"""Straight and traditional Rummy turns (rules.md §8): melds in one's own space,
lay-offs attached to any play, plays that only grow.

A lay-off may be written as the layer's ``layoffs`` entry (``"bob/1 QD"``)
or, leniently, as the play itself grown in place; both read the same.
"""

from __future__ import annotations

from .extend import discard_breaches, match_growth
from .facts import TurnFacts
from .robber import table_card_breaches
from .verdict import Breach


def judge_layoff(facts: TurnFacts) -> tuple[list[Breach], dict]:
    rules = facts.rules
    mover = facts.mover
    before_units = {name: facts.before.play_with_layoffs(name) for name in facts.before.named_plays()}
    after_units = {name: facts.after.play_with_layoffs(name) for name in facts.after.named_plays()}
    breaches = list(table_card_breaches(facts, before_units, after_units))
    growth = match_growth(facts, before_units, after_units, same_owner=True)
    breaches += growth.breaches
    new_plays = growth.new_plays()
    laid_off = growth.extended()
    for name in new_plays:
        if name.split("/")[0] != mover:
            breaches.append(Breach("meld-not-in-own-space", f"{name} is a new meld in {name.split('/')[0]}'s space; "
                                   f"{mover} melds in their own space", plays=(name,)))
    if rules.plays_per_turn is not None and len(new_plays) > rules.plays_per_turn:
        breaches.append(Breach("too-many-plays", f"{len(new_plays)} new melds ({', '.join(new_plays)}); "
                               f"{rules.name} allows {rules.plays_per_turn} a turn", plays=tuple(new_plays)))
    if laid_off and rules.layoff_needs_meld and not facts.before.mover.melded and not new_plays:
        breaches.append(Breach("layoff-before-meld", f"cards laid off on {', '.join(n for n, _, _ in laid_off)} "
                               "before the player's first meld", plays=tuple(n for n, _, _ in laid_off)))
    hand_left = facts.hand_after()
    if rules.keep_one_to_discard and not hand_left and not facts.discards:
        breaches.append(Breach("last-card-played", "the last card was played; with keep_one_to_discard the turn must end "
                               "by discarding it"))
    breaches += discard_breaches(facts, must_discard=bool(hand_left))
    return breaches, {
        "melds": new_plays,
        "layoffs": {name: facts.show(sorted(added.elements())).split() for name, _, added in laid_off},
        "discard": facts.discards[0].notation(facts.deck) if len(facts.discards) == 1 else None,
    }
