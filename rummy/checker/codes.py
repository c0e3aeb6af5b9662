"""Every breach code the checker reports: the one list the checker, docs/checker.md and the tests take.

Codes are stable strings (``--json`` prints them); a ``Breach`` refuses any
other, so a new rule needs its code here first, then a row in
docs/checker.md (tests/checker/test_breach_codes.py holds the two together).
"""

from __future__ import annotations

from enum import StrEnum


class BreachCode(StrEnum):
    # every family (rules.md §4)
    CONSERVATION = "conservation"
    NOT_WHOLE = "not-whole"
    TABLE_CARD_TO_HAND = "table-card-to-hand"
    OPPONENT_HAND_CHANGED = "opponent-hand-changed"
    TOO_MANY_CARDS = "too-many-cards"
    # the initial meld (House, tile rummy)
    TOUCHED_BEFORE_MELD = "touched-before-meld"
    MELD_TOO_SMALL = "meld-too-small"
    MELD_NOT_FROM_HAND = "meld-not-from-hand"
    MELD_NOT_IN_OWN_SPACE = "meld-not-in-own-space"
    REARRANGED_ON_INITIAL_MELD = "rearranged-on-initial-meld"
    # House Rummy steals and jokers
    UNPAID_STEAL = "unpaid-steal"
    MELD_CARD_AS_PAYMENT = "meld-card-as-payment"
    SPITE = "spite"
    JOKER_REPLACED_AFTER_MELD = "joker-replaced-after-meld"
    BAD_REPLACEMENT = "bad-replacement"
    # the hand: hot and warm cards, the discard
    HOT_CARD_UNPLAYED = "hot-card-unplayed"
    WARM_DISCARD = "warm-discard"
    HOT_DISCARD = "hot-discard"
    MISSING_DISCARD = "missing-discard"
    EXTRA_DISCARD = "extra-discard"
    # fixed jokers (tile rummy)
    JOKER_NOT_FREED = "joker-not-freed"
    JOKER_LOCKED_PLAY = "joker-locked-play"
    FREED_JOKER_MISUSED = "freed-joker-misused"
    # tables where plays only grow (Robber, Straight, traditional)
    PLAY_SPLIT = "play-split"
    PLAY_MERGED = "play-merged"
    WRONG_OWNER = "wrong-owner"
    PILE_TOP_NOT_MELDED = "pile-top-not-melded"
    TOO_MANY_PLAYS = "too-many-plays"
    LAYOFF_BEFORE_MELD = "layoff-before-meld"
    LAST_CARD_PLAYED = "last-card-played"
    LAYOFF_NOT_IN_OWN_SPACE = "layoff-not-in-own-space"
    LAYOFF_MOVED = "layoff-moved"
    # the draw phase (Robber, House, lay-off)
    EMPTY_STOCK = "empty-stock"
    STOCK_NOT_OPENED = "stock-not-opened"
    NO_UPCARD = "no-upcard"
    PILE_TOO_SHORT = "pile-too-short"
    TOO_MANY_TAKEN = "too-many-taken"
    REENTRY_DRAW = "reentry-draw"
    DEMAND_NOT_ALLOWED = "demand-not-allowed"
    DEMAND_NOT_HELD = "demand-not-held"
    DEMAND_LAST_CARD = "demand-last-card"
    DRAW_MISMATCH = "draw-mismatch"
