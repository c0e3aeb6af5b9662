"""House Rummy's rungs never propose an unpaid steal (rules.md §5): a card stolen earlier in the turn is paid
for only in the play it lies in, so a move that carries it on (the mover's spare card moved to another play,
the lookahead's gift to a robbed play) must find it paid again where it goes."""

from __future__ import annotations

import json

import pytest

from rummy.checker import check
from rummy.ladder import Effort, climb
from rummy.ladder.house import LADDER
from rummy.position import Position
from tests.support.paths import REPO_ROOT

EFFORT = Effort(states=1500, turns=300)
PUZZLE = REPO_ROOT / "puzzles" / "house" / "house-classic-steal-hard-s1-0112.toml"


def three_players(ann: dict[str, object], bob: list[str], cat: list[str]) -> Position:
    data = {"rules": "house-classic", "hand_number": 2, "to_move": "ann", "phase": "play",
            "players": {"ann": {"side": "ann", "melded": True, **ann},
                        "bob": {"side": "bob", "melded": True, "hand_count": 6, "space": bob},
                        "cat": {"side": "cat", "melded": True, "hand_count": 6, "space": cat}},
            "piles": {"discard": "9C", "stock": 20}}
    return Position.from_data(data)


Table = tuple[tuple[tuple[str, ...], ...], ...]  # each player's plays, each play's cards, in one order


def table(*spaces: list[str]) -> Table:
    return tuple(tuple(sorted(tuple(sorted(play.split())) for play in space)) for space in spaces)


def layouts(pos: Position, rung_index: int) -> list[Table]:
    """Every turn the rung proposes, as its table, each turn judged legal by the checker."""
    found = []
    for after in LADDER[rung_index].turns(pos, EFFORT):
        report = check(pos, after)
        assert report.legal, (LADDER[rung_index].name, [b.message for b in report.breaches])
        found.append(table(*([" ".join(c.notation() for c in play.cards) for play in p.plays]
                             for p in after.players)))
    return found


@pytest.mark.parametrize("rung_index", [1, 2, 3])
def test_a_stolen_spare_is_not_moved_on_unpaid(rung_index: int) -> None:
    # 4C and 5C stolen off bob's run into 4C 5C 6C 7C are paid by 6C and 7C; 4C is then a spare of that run,
    # but onto ann's book of 4s it would go with no hand card to pay for it (the rungs used to propose it).
    pos = three_players({"hand": "6C 7C KD", "space": ["4S 4H 4D"]}, ["AC 2C 3C 4C 5C"], [])
    found = layouts(pos, rung_index)
    assert table(["4S 4H 4D", "4C 5C 6C 7C"], ["AC 2C 3C"], []) in found  # the steal is still made
    assert table(["4S 4H 4D 4C", "5C 6C 7C"], ["AC 2C 3C"], []) not in found
    assert all(("4C", "4D", "4H", "4S") not in mine for mine, _, _ in found)


def test_lookahead_gives_no_stolen_card_away_unpaid() -> None:
    # 7H stolen off cat's book into 7H 8H 9H 10H would make bob's 4H 5H 6H 7H and free 4H for ann's 4S 4D,
    # but 7H would lie in bob's space stolen from cat, with no hand card of ann's there to pay for it.
    pos = three_players({"hand": "4S 4D 8H 9H 10H 2C", "space": ["QS QD QC"]}, ["4H 5H 6H"], ["7H 7S 7D 7C"])
    found = layouts(pos, 3)
    assert table(["QS QD QC", "7H 8H 9H 10H"], ["4H 5H 6H"], ["7S 7D 7C"]) in found  # the paid steal is made
    assert table(["QS QD QC", "8H 9H 10H", "4H 4S 4D"], ["5H 6H 7H"], ["7S 7D 7C"]) not in found
    assert all(theirs != table(["5H 6H 7H"])[0] for _, theirs, _ in found)


def test_no_rung_proposes_an_illegal_turn_on_the_shipped_steal_puzzle() -> None:
    # Steal-and-shift's two trades left 4C stolen (paid in 4C 5C 6C 7C) to be moved onto ann's 4S 4H 4D.
    pos = Position.from_file(PUZZLE)
    found = climb(pos, None)
    assert [(step.rung, step.refused) for step in found] == [(rung.name, 0) for rung in LADDER]
    assert all(step.after is not None and check(pos, step.after).legal for step in found)
    stored = json.loads(PUZZLE.with_suffix(".solution.json").read_text(encoding="utf-8"))
    assert [{"rung": step.rung, "gain": step.gain} for step in found] == stored["difficulty"]["rung_gains"]
