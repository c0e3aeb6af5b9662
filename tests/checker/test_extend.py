"""Tables whose plays only grow (rummy.checker.extend): the reading matches the plays before to the plays after."""

from __future__ import annotations

from rummy.checker import check
from tests.support.positions import two_players


def test_alike_plays_keep_their_order_when_both_grow() -> None:
    before = two_players("robber", {"hand": "6S 6S 2C"}, {"hand_count": 5, "plays": ["3S 4S 5S", "3S 4S 5S"]},
                         discard="9D", stock=40)
    after = two_players("robber", {"hand": "", "plays": ["3S 4S 5S 6S", "3S 4S 5S 6S"]}, {"hand_count": 5},
                        strict=False, discard="9D 2C", stock=40)
    verdict = check(before, after)
    assert verdict.legal, [b.message for b in verdict.breaches]
    assert verdict.reading["stolen"] == ["bob/1 -> ann/1", "bob/2 -> ann/2"]
