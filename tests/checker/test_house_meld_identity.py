"""House Rummy: the declared meld names cards, not which of two identical jokers is the meld's.

The end-state cases (tests/data/check_cases/house/150-155) hold the verdicts; these
tests pin what the reading reports: which joker was read as the meld's and
which one paid.
"""

from __future__ import annotations

from rummy.checker import Verdict, check
from rummy.position import Position
from tests.support.paths import CHECK_CASES

CASES = CHECK_CASES / "house"


def verdict_of(stem: str) -> Verdict:
    before = Position.from_file(CASES / f"{stem}-before.toml")
    after = Position.from_file(CASES / f"{stem}-after.toml", strict=False)
    return check(before, after)


def test_regression_real_2p_07_reads_the_meld_joker_in_the_play_that_needs_no_payment() -> None:
    verdict = verdict_of("150-meld-joker-read-in-either-play-regression-real-2p-07")
    assert verdict.legal, verdict.breaches
    assert "meld * read as the one in ann/2" in verdict.reading["inferred"]
    steals = verdict.reading["steals"]
    assert steals["ann/1"] == {"stolen": ["2C", "3C"], "paid_by": ["*", "4C"]}
    assert steals["ann/2"] == {"stolen": ["KS"], "paid_by": ["2S", "3S"]}


def test_meld_joker_read_in_the_first_play_when_the_second_needs_the_other() -> None:
    verdict = verdict_of("151-meld-joker-in-first-play-other-joker-pays")
    assert verdict.legal, verdict.breaches
    assert "meld * read as the one in ann/1" in verdict.reading["inferred"]
    assert verdict.reading["steals"]["ann/2"]["paid_by"] == ["*", "AC"]


def test_meld_joker_read_in_the_second_play_when_the_first_needs_the_other() -> None:
    verdict = verdict_of("152-meld-joker-in-second-play-other-joker-pays")
    assert verdict.legal, verdict.breaches
    assert "meld * read as the one in ann/2" in verdict.reading["inferred"]
    assert verdict.reading["steals"]["ann/1"]["paid_by"] == ["*", "AC"]


def test_no_reading_pays_when_both_plays_need_the_one_non_meld_joker() -> None:
    verdict = verdict_of("154-two-plays-need-the-one-non-meld-joker")
    assert not verdict.legal
    assert {"unpaid-steal", "meld-card-as-payment"} <= set(verdict.codes)


def test_joker_kept_in_hand_is_not_read_as_the_meld_joker() -> None:
    # The mover is "zed" so that the hand ("hand" < "zed") sorts before the table: the
    # reading must not take the hand's joker as the meld's and let the table's one pay.
    verdict = verdict_of("155-meld-joker-kept-in-hand-cannot-be-read")
    assert not verdict.legal
    assert "unpaid-steal" in verdict.codes
    assert not any("read as the one" in note for note in verdict.reading["inferred"])
