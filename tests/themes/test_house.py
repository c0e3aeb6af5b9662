"""House Rummy's theme detectors on hand-made turns, each with a turn that must not have the theme."""

from __future__ import annotations

from typing import Any

from rummy.position import Position
from tests.themes.turns import position, themes


def house(ann: dict[str, Any], bob: dict[str, Any], rules: str = "house-classic", discard: str = "",
          turn: dict[str, Any] | None = None, **others: dict[str, Any]) -> Position:
    players = {"ann": {"melded": True, **ann}, "bob": {"melded": True, "hand_count": 6, **bob}}
    for name, player in others.items():
        players[name] = {"melded": True, "hand_count": 6, **player}
    return position(rules, players, discard=discard, turn=turn, strict=turn is None)


def after(ann: dict[str, Any], bob: dict[str, Any], discard: str = "", meld: list[str] | None = None,
          replaced: list[str] | None = None, thrown: str = "", **kwargs: Any) -> Position:
    turn = {"meld": meld or [], "replaced": replaced or [], "discard": thrown}
    return house(ann, bob, discard=discard + (" " + thrown if thrown else ""), turn=turn, **kwargs)


ROBBED = {"space": ["6H 7H 8H 9H", "9D 10D JD QD"]}


def test_two_steals_into_one_book_chain_and_take_runs_apart():
    before = house({"hand": "9S 9C 2C", "space": []}, ROBBED)
    after_ = after({"hand": "", "space": ["9S 9H 9D 9C"]}, {"space": ["6H 7H 8H", "10D JD QD"]}, thrown="2C")
    found = themes(before, after_, "steal")
    assert "steal-chain" in found and "runs-into-groups" in found and "going-out" in found


def test_one_steal_is_no_chain():
    before = house({"hand": "9S 9C 2C 5D", "space": []}, ROBBED)
    after_ = after({"hand": "5D", "space": ["9S 9H 9C"]}, {"space": ["6H 7H 8H", "9D 10D JD QD"]}, thrown="2C")
    found = themes(before, after_, "steal")
    assert not {"steal-chain", "runs-into-groups", "going-out", "sacrifice", "into-their-space"} & set(found)


def test_a_card_given_to_an_opponent_is_a_sacrifice_into_their_space():
    before = house({"hand": "10H 2C 3D", "space": []}, {"space": ["6H 7H 8H 9H"]})
    after_ = after({"hand": "2C", "space": []}, {"space": ["6H 7H 8H 9H 10H"]}, thrown="3D")
    found = themes(before, after_, "across")
    assert "sacrifice" in found and "into-their-space" in found


def test_a_run_round_the_corner():
    before = house({"hand": "KC AC 2C 7D 9S", "space": []}, {"space": ["5H 6H 7H"]})
    after_ = after({"hand": "9S", "space": ["KC AC 2C"]}, {"space": ["5H 6H 7H"]}, thrown="7D")
    assert "round-the-corner" in themes(before, after_)
    plain = after({"hand": "KC", "space": ["AC 2C 3C"]}, {"space": ["5H 6H 7H"]}, thrown="7D")
    plain_before = house({"hand": "KC AC 2C 3C 7D", "space": []}, {"space": ["5H 6H 7H"]})
    assert "round-the-corner" not in themes(plain_before, plain)


def test_the_first_out_bonus_decides_when_it_is_most_of_the_gain():
    before = house({"hand": "7D", "space": ["5S 5H 5D"]}, {"space": ["5C 6C 7C"]})
    after_ = after({"hand": "", "space": ["5S 5H 5D"]}, {"space": ["5C 6C 7C"]}, thrown="7D")
    found = themes(before, after_)
    assert "first-out-bonus" in found and "going-out" in found
    big = house({"hand": "KC AC 2C 7D", "space": []}, {"space": ["5H 6H 7H"]})
    big_after = after({"hand": "", "space": ["KC AC 2C"]}, {"space": ["5H 6H 7H"]}, thrown="7D")
    found = themes(big, big_after)
    assert "going-out" in found and "first-out-bonus" not in found  # 25 of a gain of 64


def test_a_meld_that_also_steals():
    before = house({"melded": False, "hand": "5S 5H 5D 10S 8S 7D", "space": []}, {"space": ["9S 9H 9D 9C"]})
    after_ = after({"melded": True, "hand": "", "space": ["5S 5H 5D", "8S 9S 10S"]}, {"space": ["9H 9D 9C"]},
                   meld=["5S 5H 5D"], thrown="7D")
    assert "meld-steal" in themes(before, after_, "replace-meld")
    assert "meld-steal" not in themes(before, after_, "meld-steal")  # the kind's own task


def test_a_steal_without_a_meld_is_no_meld_steal():
    before = house({"hand": "10S 8S 7D", "space": ["5S 5H 5D"]}, {"space": ["9S 9H 9D 9C"]})
    after_ = after({"hand": "", "space": ["5S 5H 5D", "8S 9S 10S"]}, {"space": ["9H 9D 9C"]}, thrown="7D")
    assert "meld-steal" not in themes(before, after_)


def test_a_stolen_joker_laid_again():
    before = house({"hand": "6H 9S 9D 2C", "space": []}, {"space": ["5H * 7H"]})
    after_ = after({"hand": "", "space": ["9S 9D *"]}, {"space": ["5H 6H 7H"]}, thrown="2C")
    assert "joker-reuse" in themes(before, after_, "steal")


def test_a_joker_freed_into_the_meld_is_the_replace_meld_task_itself():
    before = house({"melded": False, "hand": "6H 9S 9D 2C", "space": ["5H * 7H"]}, {"space": ["KS KH KD"]})
    after_ = after({"melded": True, "hand": "", "space": ["5H 6H 7H", "9S 9D *"]}, {"space": ["KS KH KD"]},
                   meld=["9S 9D *"], replaced=["ann/1 6H"], thrown="2C")
    assert "joker-reuse" not in themes(before, after_, "replace-meld")
    assert "joker-reuse" in themes(before, after_, "meld-steal")


def test_a_hot_card_and_a_warm_card_kept_over_a_lower_discard():
    hot = house({"hand": "5C 6C 7C 2D 9S", "hot": "5C", "space": []}, {"space": ["5H 6H 7H"]})
    hot_after = after({"hand": "9S", "space": ["5C 6C 7C"]}, {"space": ["5H 6H 7H"]}, thrown="2D")
    assert "warm-or-hot-card" in themes(hot, hot_after)
    warm = house({"hand": "5C 6C 7C 2D 9S", "warm": "9S", "space": []}, {"space": ["5H 6H 7H"]})
    warm_after = after({"hand": "9S", "warm": "9S", "space": ["5C 6C 7C"]}, {"space": ["5H 6H 7H"]}, thrown="2D")
    assert "warm-or-hot-card" in themes(warm, warm_after)
    cold = house({"hand": "5C 6C 7C 2D 9S", "space": []}, {"space": ["5H 6H 7H"]})
    cold_after = after({"hand": "9S", "space": ["5C 6C 7C"]}, {"space": ["5H 6H 7H"]}, thrown="2D")
    assert "warm-or-hot-card" not in themes(cold, cold_after)


def test_a_card_laid_on_a_partners_play():
    # Four players: ann and cat one side (seats 1 and 3), bob and dan the other.
    dan = {"space": ["2S 3S 4S"]}
    before = house({"hand": "9H 2C 3D", "space": []}, {"space": []}, cat={"space": ["6H 7H 8H"]}, dan=dan)
    after_ = after({"hand": "2C", "space": []}, {"space": []}, thrown="3D", cat={"space": ["6H 7H 8H 9H"]}, dan=dan)
    found = themes(before, after_)
    assert "partner-play" in found and "sacrifice" not in found  # the partner's points are the side's
    alone = house({"hand": "9H 2C 3D", "space": []}, {"space": ["6H 7H 8H"]})
    alone_after = after({"hand": "2C", "space": []}, {"space": ["6H 7H 8H 9H"]}, thrown="3D")
    assert "partner-play" not in themes(alone, alone_after)


def test_a_house_turn_from_the_draw_that_takes_a_discard_and_must_play_it():
    def drawn(ann: dict[str, Any], discard: str, turn: dict[str, Any] | None = None) -> Position:
        players = {"ann": {"melded": True, **ann}, "bob": {"melded": True, "hand_count": 6, "space": ["5H 6H 7H"]}}
        return position("house-classic", players, discard=discard, phase="draw", turn=turn, strict=turn is None)

    before = drawn({"hand": "5C 6C 9S 2D", "space": []}, "KH 7C")
    # 7C, the one card taken from the pile, is hot: the turn must play it.
    taken = drawn({"hand": "9S", "space": ["5C 6C 7C"]}, "KH 2D",
                  {"draw": {"from": "discard", "take": 1}, "meld": [], "replaced": [], "discard": "2D"})
    found = themes(before, taken)
    assert "take-the-pile" in found and "warm-or-hot-card" in found


def test_a_stolen_card_given_to_a_third_space_chains():
    bob = {"space": ["5S 5H 5D 5C", "9D 10D JD QD"]}
    before = house({"hand": "3C 4C QS QH 2D", "space": []}, bob, cat={"space": ["JC QC KC"]})
    # 5C, stolen from bob, goes into a new play in cat's space; QD comes to ann's own space.
    after_ = after({"hand": "", "space": ["QS QH QD"]}, {"space": ["5S 5H 5D", "9D 10D JD"]}, thrown="2D",
                   cat={"space": ["JC QC KC", "3C 4C 5C"]})
    found = themes(before, after_, "across")
    assert "steal-chain" in found and "into-their-space" in found and "sacrifice" in found
    own = after({"hand": "", "space": ["QS QH QD", "3C 4C 5C"]}, {"space": ["5S 5H 5D", "9D 10D JD"]},
                thrown="2D", cat={"space": ["JC QC KC"]})
    assert "steal-chain" not in themes(before, own, "across")
