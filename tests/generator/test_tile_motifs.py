"""Hard and expert tile deals from motifs (rummy.generator.tile_motifs, issue 29): the rack always plays,
no three rack tiles make a play alone, and the deals show the ideas they are built from."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummy.answer import best
from rummy.generator.tile_deal import JOKER, DealShape, _makes_play, deal, position_of
from rummy.rules import preset
from rummy.solution import SolverConfig

SHAPE = DealShape(plays=(1, 2), lonely=True, switches=(2, 2), filler=(0, 1))
PRESETS = ("rummikub-lenient", "rummikub", "tiles50", "yourturnmyturn")


def deals(rules_name: str, count: int) -> list:
    rules = preset(rules_name)
    found = []
    for i in range(200):
        dealt = deal(random.Random(f"motif/{rules_name}/{i}"), rules, SHAPE)
        if dealt is not None:
            found.append(dealt)
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize("rules_name", PRESETS)
def test_a_motif_deal_empties_its_rack_and_no_three_rack_tiles_play_alone(rules_name: str) -> None:
    rules = preset(rules_name)
    for dealt in deals(rules_name, 3):
        assert not _makes_play(dealt.rack)
        before = position_of(rules, dealt, None)
        answer = best(before, SolverConfig(time_limit=20, workers=1))
        assert answer.solution.cards_played == min(len(dealt.rack), rules.max_cards_per_turn or len(dealt.rack))
        deck = Counter(slot for slot in (s for play in dealt.table for s in play) if slot != JOKER)
        assert max(deck.values()) <= rules.copies


def test_motif_deals_hold_jokers_to_free_and_runs_to_split() -> None:
    """Over a few deals: a joker on the table (to be freed) under flexible and fixed jokers, and a run of five
    or more with a rack tile doubling one of its middle tiles."""
    for rules_name in ("rummikub-lenient", "rummikub"):
        assert any(JOKER in play for dealt in deals(rules_name, 30) for play in dealt.table), rules_name
    split = False
    for dealt in deals("rummikub-lenient", 12):
        for play in dealt.table:
            cells = [s for s in play if s != JOKER]
            if len(cells) >= 5 and len({c for c, _ in cells}) == 1 and any(s in dealt.rack for s in cells[2:-2]):
                split = True
    assert split
