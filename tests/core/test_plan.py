"""Move plans from a before and an after position (no solver involved)."""

from __future__ import annotations

from rummy.checker import check
from rummy.plan import make_plan
from rummy.position import Position
from rummy.turn_steps import read_steps
from tests.support.paths import REPO_ROOT

BEFORE = """
rules = "house-classic"
hand_number = 5
to_move = "bob"
players.ann = {melded = true, hand_count = 5, space = ["6C 6D 6H"]}
players.bob = {melded = true, hand = "5D 5H 6S 7D 9D 9S", space = ["JC JD JH JS"]}
piles = {discard = "3H 2D 10H", stock = 33}
"""

AFTER = """
rules = "house-classic"
hand_number = 5
to_move = "bob"
players.ann = {melded = true, hand_count = 5, space = ["6C 6H 6S"]}
players.bob = {melded = true, hand = "5H 9S", space = ["JC JD JH JS", "5D 6D 7D"]}
piles = {discard = "3H 2D 10H 9D", stock = 33}
turn = {meld = [], replaced = [], discard = "9D"}
"""


def steps_of(before: str, after: str) -> list[dict]:
    b = Position.from_toml(before)
    a = Position.from_toml(after, strict=False)
    assert check(b, a).legal
    return make_plan(b, a).to_data(b.rules.deck)


def test_a_paid_steal_names_its_payment_and_the_untouched_play_keeps_its_name() -> None:
    steps = steps_of(BEFORE, AFTER)
    (steal,) = [s for s in steps if s["action"] == "steal"]
    assert (steal["card"], steal["from"], steal["to"]) == ("6D", "ann/1", "new/1")
    assert steal["paid_by"] and set(steal["paid_by"]) <= {"5D", "7D"}
    plays = [s for s in steps if s["action"] == "play"]
    assert sorted(c for s in plays for c in s["cards"]) == ["5D", "6S", "7D"]
    assert steps[-1] == {"action": "discard", "card": "9D"}
    assert not any(s.get("to") == "bob/1" for s in steps)


def test_the_plan_counts_disturbed_plays_and_moved_cards() -> None:
    plan = make_plan(Position.from_toml(BEFORE), Position.from_toml(AFTER, strict=False))
    assert plan.plays_disturbed == 1  # ann/1 lost 6D
    assert plan.cards_moved == 1


def test_tile_split_moves_only_the_cards_that_leave() -> None:
    before = """
rules = "rummikub-lenient"
to_move = "ann"
table = ["B1 B2 B3 B4 B5 B6"]
players.ann = {melded = true, hand = "B4 K9"}
players.bob = {hand_count = 5}
piles = {stock = 40}
"""
    after = before.replace('table = ["B1 B2 B3 B4 B5 B6"]', 'table = ["B1 B2 B3 B4", "B4 B5 B6"]').replace('hand = "B4 K9"', 'hand = "K9"')
    steps = steps_of(before, after)
    moves = [s for s in steps if s["action"] == "move"]
    plays = [s for s in steps if s["action"] == "play"]
    assert len(moves) == 2 and {m["from"] for m in moves} == {"table/1"}
    assert plays == [{"action": "play", "cards": ["B4"], "from": "hand", "to": "new/1"}]


def test_an_answers_after_lists_plays_in_the_plans_order() -> None:
    """best's after-position lists each space's plays as the plan names them (plays as before the turn
    in order, then new/K in order), so its own names agree with the plan's where a play keeps its place;
    the turn stays the same legal turn."""
    from rummy.plays import PlayName
    from rummy.solution import SolverConfig
    from tests.support.judged import judged_best

    examples = REPO_ROOT / "puzzles" / "examples"
    checked = 0
    for path in sorted(examples.glob("*.toml")):
        position = Position.from_file(path)
        if position.phase != "play":
            continue
        answer = judged_best(position, SolverConfig(time_limit=20))
        if answer.plan is None:
            continue
        after, names = answer.solution.after, answer.plan.names
        lists: dict[str, list[PlayName]] = {}
        for name in after.named_plays():
            lists.setdefault(name.owner, []).append(PlayName(names[name]))
        for owner, shown in lists.items():
            # own plays first, then (Robber) stolen ones, then new ones; each by number
            seat = {p.name: k for k, p in enumerate(position.players)}
            places = [(0 if n.owner == owner else 2 if n.owner == "new" else 1, seat.get(n.owner, 0), n.number)
                      for n in shown]
            assert places == sorted(places), (path.name, shown)
            kept = [n for n in shown if n.owner == owner]
            if [n.number for n in kept] == list(range(1, len(kept) + 1)):  # no play of the list vanished
                checked += 1
                assert [str(n) for n in kept] == [f"{owner}/{k}" for k in range(1, len(kept) + 1)]
    assert checked


def test_a_hand_card_that_refills_a_robbed_play_says_why() -> None:
    """ann/1 (6C 6D 6H) loses 6D to a steal; 6S from the hand keeps it whole: the step says so."""
    steps = steps_of(BEFORE, AFTER)
    (refill,) = [s for s in steps if s.get("to") == "ann/1"]
    assert refill == {"action": "play", "cards": ["6S"], "from": "hand", "to": "ann/1",
                      "why": "keeps ann/1 whole after the steal of 6D", "play_cards": {"ann/1": ["6H", "6D", "6C"]}}
    assert [s for s in steps if "why" in s] == [refill]


def test_a_stolen_joker_says_what_it_stood_for_in_the_play_it_left() -> None:
    """* 10D JD: the joker stood for 9D or QD (circular runs); in 2H 2C * it is a 2 of a suit left open."""
    before = Position.from_file(REPO_ROOT / "puzzles" / "examples" / "house-classic.toml")
    after = read_steps(before, "play 2C 2H to new/1; steal * from cat/1 to new/1 paid by 2C; play 9D to cat/1; discard KS")
    assert check(before, after).legal
    steps = make_plan(before, after).to_data("cards")
    (steal,) = [s for s in steps if s["action"] == "steal"]
    assert steal["card"] == "*" and steal["stood_for"] == ["9D", "QD"] and steal["stands_as_rank"] == "2"
    assert "stands_for" not in steal
