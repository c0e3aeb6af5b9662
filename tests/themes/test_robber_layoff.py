"""Robber Rummy's and lay-off rummy's theme detectors on hand-made turns, with turns that must not have them."""

from __future__ import annotations

from typing import Any

from rummy.position import Position
from tests.themes.turns import position, themes


def robber(ann: dict[str, Any], bob: dict[str, Any], thrown: str = "", turn: bool = False) -> Position:
    players = {"ann": {"melded": True, **ann}, "bob": {"melded": True, "hand_count": 6, **bob}}
    return position("robber", players, discard="QS" + (" " + thrown if thrown else ""),
                    turn={"discard": thrown} if turn else None, strict=not turn)


def robber_turn(ann: dict[str, Any], bob: dict[str, Any], ann_after: dict[str, Any], bob_after: dict[str, Any],
                thrown: str) -> tuple[str, ...]:
    return themes(robber(ann, bob), robber(ann_after, bob_after, thrown, turn=True), "steal")


def test_robber_steals_that_compete_for_a_card_chain():
    found = robber_turn({"hand": "10C JC 10H 2D", "plays": []}, {"plays": ["10S 10H 10D", "7C 8C 9C"]},
                        {"hand": "", "plays": ["10S 10H 10D 10H", "7C 8C 9C 10C JC"]}, {"plays": []}, "2D")
    assert "steal-chain" in found and "going-out" in found


def test_robber_steals_that_need_different_cards_do_not_chain():
    found = robber_turn({"hand": "10C 6C 2D 3D", "plays": []}, {"plays": ["10S 10H 10D", "3C 4C 5C"]},
                        {"hand": "3D", "plays": ["10S 10H 10D 10C", "3C 4C 5C 6C"]}, {"plays": []}, "2D")
    assert "steal-chain" not in found and "going-out" not in found


def test_an_ace_laid_low_where_a_book_would_count_it_high_is_a_sacrifice():
    found = robber_turn({"hand": "AC 9D 4D", "plays": ["2C 3C 4C"]}, {"plays": ["AS AH AD"]},
                        {"hand": "4D", "plays": ["AC 2C 3C 4C"]}, {"plays": ["AS AH AD"]}, "9D")
    assert "sacrifice" in found
    stolen = robber_turn({"hand": "AC 9D 4D", "plays": ["2C 3C 4C"]}, {"plays": ["AS AH AD"]},
                         {"hand": "4D", "plays": ["2C 3C 4C", "AS AH AD AC"]}, {"plays": []}, "9D")
    assert "sacrifice" not in stolen


def test_a_card_that_fits_kept_in_the_robber_hand():
    found = robber_turn({"hand": "5H 9C 2D", "plays": ["6H 7H 8H"]}, {"plays": ["KS KH KD"]},
                        {"hand": "5H 9C", "plays": ["6H 7H 8H"]}, {"plays": ["KS KH KD"]}, "2D")
    assert "keep-a-card" in found
    laid = robber_turn({"hand": "5H 9C 2D", "plays": ["6H 7H 8H"]}, {"plays": ["KS KH KD"]},
                       {"hand": "9C", "plays": ["5H 6H 7H 8H"]}, {"plays": ["KS KH KD"]}, "2D")
    assert "keep-a-card" not in laid


def layoff(ann: dict[str, Any], bob: dict[str, Any], rules: str = "straight", thrown: str = "",
           meld: list[str] | None = None, turn: bool = False) -> Position:
    players = {"ann": {"melded": True, **ann}, "bob": {"melded": True, "hand_count": 5, **bob}}
    return position(rules, players, discard="KS" + (" " + thrown if thrown else ""),
                    turn={"meld": meld or [], "discard": thrown} if turn else None, strict=not turn)


def layoff_turn(ann: dict[str, Any], bob: dict[str, Any], ann_after: dict[str, Any], bob_after: dict[str, Any],
                thrown: str, meld: list[str] | None = None, kind: str = "most-points") -> tuple[str, ...]:
    return themes(layoff(ann, bob), layoff(ann_after, bob_after, thrown=thrown, meld=meld, turn=True), kind)


BOB = {"space": ["JC QC KC", "7S 7H 7C"]}


def test_a_warm_card_kept_while_an_equal_card_is_discarded():
    found = layoff_turn({"hand": "7D JS 8D 10C 9D", "warm": "JS", "space": []}, BOB,
                        {"hand": "JS", "warm": "JS", "space": ["7D 8D 9D"]}, BOB, "10C", ["7D 8D 9D"])
    assert "warm-or-hot-card" in found
    cold = layoff_turn({"hand": "7D JS 8D 2C 9D", "space": []}, BOB,
                       {"hand": "2C", "space": ["7D 8D 9D"]}, BOB, "JS", ["7D 8D 9D"])
    assert "warm-or-hot-card" not in cold


def test_going_out_is_a_theme_of_most_points_but_not_of_go_out():
    args = ({"hand": "7D 8D 9D 2C", "space": []}, BOB, {"hand": "", "space": ["7D 8D 9D"]}, BOB, "2C", ["7D 8D 9D"])
    assert "going-out" in layoff_turn(*args)
    assert "going-out" not in layoff_turn(*args, kind="go-out")


def test_a_card_that_fits_two_places_is_a_layoff_choice():
    # 7D could join the sevens or the meld: the turn chose.
    found = layoff_turn({"hand": "7D 8D 9D 2C 3H", "space": []}, BOB, {"hand": "3H", "space": ["7D 8D 9D"]}, BOB,
                        "2C", ["7D 8D 9D"])
    assert "layoff-choice" in found
    plain = layoff_turn({"hand": "4D 5D 6D 2C 3H", "space": []}, BOB, {"hand": "3H", "space": ["4D 5D 6D"]}, BOB,
                        "2C", ["4D 5D 6D"])
    assert "layoff-choice" not in plain


def test_a_kept_card_that_could_be_laid_off():
    found = layoff_turn({"hand": "4D 5D 6D 2C 7D", "space": []}, BOB, {"hand": "7D", "space": ["4D 5D 6D"]}, BOB,
                        "2C", ["4D 5D 6D"])
    assert "keep-a-card" in found
    assert "keep-a-card" not in layoff_turn({"hand": "4D 5D 6D 2C 3H", "space": []}, BOB,
                                            {"hand": "3H", "space": ["4D 5D 6D"]}, BOB, "2C", ["4D 5D 6D"])


def test_a_richer_meld_left_in_the_hand_is_a_sacrifice():
    # The hand holds 9H 10H JH (29 points) yet melds 2S 3S 4S and keeps the run: points given up now.
    found = layoff_turn({"hand": "2S 3S 4S 9H 10H JH 5C", "space": []}, BOB,
                        {"hand": "9H 10H JH", "space": ["2S 3S 4S"]}, BOB, "5C", ["2S 3S 4S"])
    assert "sacrifice" in found
    richest = layoff_turn({"hand": "2S 3S 4S 9H 10H JH 5C", "space": []}, BOB,
                          {"hand": "2S 3S 4S", "space": ["9H 10H JH"]}, BOB, "5C", ["9H 10H JH"])
    assert "sacrifice" not in richest


def test_cards_added_to_a_partners_robber_play():
    def four(ann: dict[str, Any], cat_plays: list[str], thrown: str = "", turn: bool = False) -> Position:
        players = {"ann": {"side": "us", **ann}, "bob": {"side": "them", "hand_count": 6, "plays": []},
                   "cat": {"side": "us", "hand_count": 6, "plays": cat_plays},
                   "dan": {"side": "them", "hand_count": 6, "plays": ["KS KH KD"]}}
        return position("robber", players, discard="QS" + (" " + thrown if thrown else ""),
                        turn={"discard": thrown} if turn else None, strict=not turn)

    before = four({"hand": "5H 9C 2D", "plays": []}, ["6H 7H 8H"])
    # The play grown changes owner, even a partner's (the side pools its plays).
    after_ = four({"hand": "9C", "plays": ["5H 6H 7H 8H"]}, [], "2D", turn=True)
    assert "partner-play" in themes(before, after_, "steal")
    alone = four({"hand": "5H 9C 2D", "plays": ["6H 7H 8H"]}, [])
    alone_after = four({"hand": "9C", "plays": ["5H 6H 7H 8H"]}, [], "2D", turn=True)
    assert "partner-play" not in themes(alone, alone_after, "steal")


def test_a_robber_turn_that_takes_the_pile():
    def drawn(ann: dict[str, Any], discard: str, phase: str, turn: bool = False) -> Position:
        players = {"ann": {"melded": True, **ann}, "bob": {"melded": True, "hand_count": 6, "plays": ["KS KH KD"]}}
        return position("robber", players, discard=discard, phase=phase, strict=not turn,
                        turn={"discard": "2C"} if turn else None)

    before = drawn({"hand": "2C 9D", "plays": ["5H 6H 7H"]}, "QS 8H", "draw")
    # The pile's top card, 8H, is laid at once; QS comes to the hand; 2C starts a new pile.
    taken = drawn({"hand": "9D QS", "plays": ["5H 6H 7H 8H"]}, "2C", "draw", turn=True)
    found = themes(before, taken, "steal")
    assert "take-the-pile" in found and "pile-junk" in found and "pile-discard" not in found
    # A draw-or-pile puzzle asks whether to take the pile: the theme would answer it.
    assert "take-the-pile" not in themes(before, taken, "draw-or-pile")
    stock = position("robber", {"ann": {"melded": True, "hand": "2C 9D", "plays": ["5H 6H 7H"]},
                                "bob": {"melded": True, "hand_count": 6, "plays": ["KS KH KD"]}},
                     discard="QS 8H", phase="draw")
    drew = position("robber", {"ann": {"melded": True, "hand": "9D 4H", "plays": ["5H 6H 7H"]},
                               "bob": {"melded": True, "hand_count": 6, "plays": ["KS KH KD"]}},
                    discard="QS 8H 2C", phase="draw", strict=False, turn={"discard": "2C"}, stock=19)
    assert "take-the-pile" not in themes(stock, drew, "steal")


def test_a_card_of_the_pile_taken_is_the_discard():
    players = {"bob": {"melded": True, "hand_count": 6, "plays": ["KS KH KD"]}}
    before = position("robber", {"ann": {"melded": True, "hand": "2C 9D", "plays": ["5H 6H 7H"]}, **players},
                      discard="QS 8H", phase="draw")
    # 8H laid at once; QS, from under it, is the discard: 2C and 9D stay.
    after_ = position("robber", {"ann": {"melded": True, "hand": "2C 9D", "plays": ["5H 6H 7H 8H"]}, **players},
                      discard="QS", phase="draw", strict=False, turn={"discard": "QS"})
    found = themes(before, after_, "draw-or-pile")
    assert "pile-discard" in found and "pile-junk" not in found and "buried-card" not in found


def test_a_card_of_the_pile_taken_pays_for_a_robber_steal():
    def drawn(ann: dict[str, Any], bob: list[str], discard: str, turn: bool = False) -> Position:
        players = {"ann": {"melded": True, **ann}, "bob": {"melded": True, "hand_count": 6, "plays": bob}}
        return position("robber", players, discard=discard, phase="draw", strict=not turn,
                        turn={"discard": "2C"} if turn else None)

    before = drawn({"hand": "2C 9D", "plays": ["5H 6H 7H"]}, ["KS KH KD"], "KC 8H")
    # 8H, the pile's top card, is laid at once; KC, from the pile, then takes bob's kings.
    after_ = drawn({"hand": "9D", "plays": ["5H 6H 7H 8H", "KS KH KD KC"]}, [], "2C", turn=True)
    found = themes(before, after_, "steal")
    # a card from under the top: buried-card (steal-chain is for steals that compete)
    assert "buried-card" in found and "take-the-pile" in found and "steal-chain" not in found
    kept = drawn({"hand": "9D KC", "plays": ["5H 6H 7H 8H"]}, ["KS KH KD"], "2C", turn=True)
    assert "buried-card" not in themes(before, kept, "steal") and "pile-junk" in themes(before, kept, "steal")
