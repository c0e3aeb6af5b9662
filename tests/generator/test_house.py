"""House Rummy puzzles: the exclusion hook of the House model, the same-answer form, the four kinds.

The hook is checked against the brute-force oracle (tests/support/oracle.py, which
shares no code with the model): with the best table excluded, the answer's
gain is the best gain among every other final table the checker accepts.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from rummy.checker import check, turn_gain
from rummy.errors import RummyError
from rummy.generator import KINDS, Request, generate, validate
from rummy.generator.house_deal import HouseShape, deal_house
from rummy.generator.house_kinds import (
    accept_across,
    accept_meld_steal,
    accept_replace_meld,
    accept_steal,
    ambiguity,
    spaces_left,
    stolen,
)
from rummy.model.house import solve_house
from rummy.plays import Play
from rummy.position import Position, Turn
from rummy.rules import preset
from rummy.solution import SolverConfig
from tests.support.judged import assert_graded_by_the_ladder, judged, judged_best
from tests.support.oracle import brute_force_tables, count_cards
from tests.support.random_positions import random_house

CONFIG = SolverConfig(time_limit=20, workers=1)
CLASSIC = preset("house-classic")


def position(text: str) -> Position:
    return Position.from_toml(text)


def oracle_key(after: Position) -> tuple:
    """The oracle's own form of a final table (tests/support/oracle.py)."""
    return tuple(sorted(tuple(sorted(c.plain() for c in play.cards)) for play in after.table)) + tuple(
        (p.name, tuple(sorted(tuple(sorted(c.plain() for c in play.cards)) for play in p.plays)))
        for p in after.players)


def small_positions(count: int) -> list[Position]:
    found = []
    for seed in range(1000):
        candidate = random_house(seed, 3, (3, 5))
        if count_cards(candidate) <= 10:
            found.append(candidate)
        if len(found) == count:
            return found
    raise AssertionError("too few small positions")


# ------------------------------------------------------------------ the hook
@pytest.mark.parametrize("before", small_positions(24), ids=lambda p: f"{p.rules.name}-{count_cards(p)}cards")
def test_with_tables_excluded_the_answer_is_the_best_of_the_other_tables(before):
    tables = brute_force_tables(before)
    excluded: list[Position] = []
    for _ in range(3):
        solution = judged(before, solve_house(before, replace(CONFIG, exclude=tuple(excluded))))
        others = [gain for key, gain in tables.items() if key not in {oracle_key(a) for a in excluded}]
        if not others:
            assert solution.status == "no-legal-turn"
            return
        assert solution.status == "optimal"
        assert Fraction(solution.gain).limit_denominator(1000) == max(others)
        assert oracle_key(solution.after) not in {oracle_key(a) for a in excluded}
        assert check(before, solution.after).legal
        excluded.append(solution.after)


def test_an_unmelded_mover_who_cannot_meld_has_two_tables_swap_or_not():
    before = position("""
rules = "house-classic"
hand_number = 1
to_move = "ann"
players.ann = {hand = "7H 2C"}
players.bob = {melded = true, hand_count = 5, space = ["6H * 8H"]}
""")
    # Two final tables: bob's play as it is, or with 7H for the joker (which
    # ann then discards); both leave ann 2C, so both gain 7.
    first = judged(before, solve_house(before, CONFIG))
    second = judged(before, solve_house(before, replace(CONFIG, exclude=(first.after,))))
    assert {bool(first.after.turn.replaced), bool(second.after.turn.replaced)} == {True, False}
    assert first.gain == second.gain == 7
    assert check(before, first.after).legal and check(before, second.after).legal
    third = judged(before, solve_house(before, replace(CONFIG, exclude=(first.after, second.after))))
    assert third.status == "no-legal-turn"


def test_the_same_table_written_in_another_order_is_excluded_too():
    before = position("""
rules = "house-epic"
hand_number = 2
to_move = "ann"
players.ann = {melded = true, hand = "5S 5D 9C"}
players.bob = {melded = true, hand_count = 4, space = ["2H 3H 4H 5H"]}
""")
    first = judged(before, solve_house(before, CONFIG))
    shuffled = first.after.replace_player(replace(
        first.after.mover, plays=tuple(reversed(first.after.mover.plays))))
    second = judged(before, solve_house(before, replace(CONFIG, exclude=(shuffled,))))
    assert second.after.table_key() != first.after.table_key()


def test_table_key_ignores_order_and_jokers_identity_but_not_spaces():
    a = position("""
rules = "house-classic"
hand_number = 2
to_move = "ann"
players.ann = {melded = true, hand = "2C", space = ["3H * 5H", "KS KD KC"]}
players.bob = {hand_count = 3, space = ["9C 10C JC"]}
""")
    reordered = a.replace_player(replace(a.player("ann"), plays=tuple(reversed(a.player("ann").plays))))
    assert reordered.table_key() == a.table_key()
    moved = reordered.replace_player(replace(reordered.player("ann"), plays=reordered.player("ann").plays[:1]))
    moved = moved.replace_player(replace(moved.player("bob"), plays=moved.player("bob").plays + a.player("ann").plays[1:]))
    assert moved.table_key() != a.table_key()


# ------------------------------------------------------------------ what an answer does
BEFORE_STEAL = """
rules = "house-classic"
hand_number = 2
to_move = "ann"
players.ann = {melded = true, hand = "9S 9D 2C", space = ["4C 5C 6C"]}
players.bob = {melded = true, hand_count = 4, space = ["6H 7H 8H 9H"]}
players.cat = {melded = true, hand_count = 4, space = ["JS QS KS"]}
"""


def test_a_steal_is_counted_from_the_space_it_left():
    before = position(BEFORE_STEAL)
    answer = judged_best(before, CONFIG)
    assert answer.solution.after.player("bob").plays[0].cards != before.player("bob").plays[0].cards
    assert stolen(before, answer.solution.after) == 1
    assert spaces_left(before, answer.solution.after) == {"bob": 1}
    assert accept_steal(before, answer) is None
    assert accept_across(before, answer) == "cards leave fewer than 2 spaces"
    assert stolen(before, before) == 0


def test_the_kinds_refuse_answers_without_their_move():
    before = position(BEFORE_STEAL)
    quiet = replace(judged_best(before, CONFIG), solution=replace(judged_best(before, CONFIG).solution, after=before))
    assert accept_steal(before, quiet) == "no steal in the answer"
    assert accept_meld_steal(before, quiet) == "no meld in the answer"
    assert accept_replace_meld(before, quiet) == "no meld in the answer"


def test_a_long_run_with_a_joker_is_flagged_when_it_could_be_two_overlapping_runs():
    # 3H..7H and a joker could also lie as 3H 4H *(5H) beside 5H 6H 7H: the
    # same cards and score, a table the model does not lay (house_runs).
    base = """
rules = "house-classic"
hand_number = 2
to_move = "ann"
[players.ann]
melded = true
hand = "2C"
space = [{plays}]
[players.bob]
melded = true
hand_count = 3
"""
    for plays, flagged in [('"3H 4H 5H 6H 7H *"', True), ('"3H 4H 5H", "6H 7H 8H"', False), ('"3H 4H 5H 6H *"', False)]:
        before = position(base.format(plays=plays))
        after = judged_best(before, CONFIG).solution.after
        assert bool(ambiguity(before, after)) is flagged, plays


# A rival the ambiguity search must see (found in review): two runs of one suit in one space
# overlapping through a joker, which the House model cannot hold (house_runs lays such a pair as one
# longer run). The search once split *all* the cards of a space's runs of a suit into two runs, so
# one more run of the suit in the space hid the overlapping split.
OVERLAP_BEFORE = Position.from_toml("""
rules = "house-epic"
hand_number = 2
to_move = "ann"
players.ann = {melded = true, hand = "2H", space = ["* 5C 6C 7C 8C *", "JC QC KC"]}
players.bob = {melded = true, hand_count = 3, space = ["9S 9D 9H"]}
""")


def _with_ann_plays(position: Position, plays: list[str]) -> Position:
    ann = position.player("ann")
    return position.replace_player(replace(ann, plays=tuple(Play.from_notation(p) for p in plays)))


def _kept_and_discarded(before: Position) -> Position:
    """The turn that changes nothing on the table and discards the mover's one card."""
    card = before.mover.hand[0]
    ann = replace(before.mover, hand=())
    return replace(before.replace_player(ann), discard_pile=before.discard_pile + (card,),
                   turn=Turn(discard=card, discard_declared=True))


def test_an_overlapping_split_beside_another_run_of_the_suit_is_a_rival():
    answer = _kept_and_discarded(OVERLAP_BEFORE)  # keep the table, discard 2H
    assert check(OVERLAP_BEFORE, answer).legal
    # The rival: the long run split into two runs whose jokers stand for each
    # other's naturals (5C *=6C 7C and 6C *=7C 8C); the model cannot hold it.
    rival = _with_ann_plays(answer, ["5C * 7C", "6C * 8C", "JC QC KC"])
    assert rival.table_key() != answer.table_key()
    assert check(OVERLAP_BEFORE, rival).legal
    assert turn_gain(OVERLAP_BEFORE, rival) == turn_gain(OVERLAP_BEFORE, answer)
    # Control: without JC QC KC in the space the same split is found.
    alone = _with_ann_plays(OVERLAP_BEFORE, ["* 5C 6C 7C 8C *"])
    assert ambiguity(alone, _kept_and_discarded(alone)) is not None
    # With it, the split is found beside the run of JC QC KC.
    assert ambiguity(OVERLAP_BEFORE, answer) is not None


# ------------------------------------------------------------------ deals and kinds
@pytest.mark.parametrize("seed", range(6))
def test_deals_are_valid_reproducible_and_use_each_card_once(seed):
    shape = HouseShape(plants=("book-end", "book-four", "joker", "own"), plant_count=(3, 4), filler_plays=(1, 3),
                       extra_hand=(1, 3), melded=True, players=(2, 3, 4))
    dealt = deal_house(random.Random(seed), CLASSIC, shape)
    again = deal_house(random.Random(seed), CLASSIC, shape)
    assert dealt is not None and dealt == again
    assert Position.from_toml(dealt.to_toml()) == dealt  # reads back with every check of a position file
    naturals = [c for c in dealt.known_cards() if not c.is_joker]
    assert len(naturals) == len(set(naturals))


@pytest.mark.parametrize("kind", ["steal", "replace-meld", "meld-steal", "across"])
def test_no_house_kind_is_asked_for_easy(kind):
    """Every House kind's answer steals or replaces a joker, beyond the easy rung."""
    with pytest.raises(RummyError, match="--difficulty"):
        validate(Request("house-classic", kind, 1, "easy"))


def test_steal_names_a_kind_of_house_and_one_of_robber():
    assert KINDS["house", "steal"] is not KINDS["robber", "steal"]
    with pytest.raises(RummyError, match="does not fit"):
        validate(Request("rummikub", "replace-meld", 1))


@pytest.mark.parametrize("rules,kind,tier", [
    ("house-classic", "steal", "medium"),
    ("house-epic", "replace-meld", "medium"),
    ("house-classic", "meld-steal", "medium"),
    ("house-epic", "across", "medium"),
])
def test_generated_puzzles_do_what_their_kind_says_and_are_unique(rules, kind, tier):
    report = generate(Request(rules, kind, 1, tier, seed=7, workers=1, max_candidates=200, time_limit=10))
    assert len(report.puzzles) == 1, report.rejected
    puzzle = report.puzzles[0]
    after = Position.from_data(puzzle.answer["after"], strict=False)
    assert check(puzzle.position, after).legal
    assert puzzle.tier == tier
    answer = judged_best(puzzle.position, CONFIG)
    assert_graded_by_the_ladder(puzzle.position, tier, answer.solution.gain)
    assert check(puzzle.position, answer.solution.after).legal
    assert KINDS["house", kind].accept(puzzle.position, answer) is None
    second = judged_best(puzzle.position, replace(CONFIG, exclude=(answer.solution.after,))).solution
    assert second.status == "no-legal-turn" or second.gain < answer.solution.gain
    assert second.status == "no-legal-turn" or check(puzzle.position, second.after).legal
    if second.status != "no-legal-turn":
        assert puzzle.margin == pytest.approx(answer.solution.gain - second.gain)


@pytest.mark.parametrize("rules", ["house-classic", "house-epic"])
def test_a_deal_shows_what_the_first_out_bonus_counts_and_nobody_holds_nothing(rules):
    """Epic's first-out bonus is the opponents' hand penalty: a puzzle shows their hands, so its value
    is what a player can work out; nobody holds 0 cards (they would have gone out)."""
    from rummy.family import HOUSE

    ruleset = preset(rules)
    for seed in range(40):
        kind = ("steal", "replace-meld", "meld-steal", "across")[seed % 4]
        position = KINDS["house", kind].make(random.Random(seed), ruleset, None)
        if position is None:
            continue
        for player in position.players:
            assert player.hand_size >= 1, (seed, player.name)
            if player.name != position.to_move:
                assert (player.hand is not None) == (rules == "house-epic"), (seed, player.name)
        if rules == "house-epic":  # the bonus reads the shown hands, never a mean over unseen cards
            assert HOUSE.first_out_bonus(position).denominator == 1


# ------------------------------------------------------------------ traps (hard and expert deals)
def _whole(cards) -> bool:
    from rummy.plays import is_whole

    return len(cards) >= 3 and is_whole(tuple(cards), CLASSIC)


def _without(cards, *gone):
    rest = list(cards)
    for card in gone:
        rest.remove(card)
    return rest


def _splits_in_two(cards) -> bool:
    from itertools import combinations

    return any(_whole(part) and _whole(_without(cards, *part))
               for size in range(3, len(cards) - 2) for part in combinations(cards, size))


def trap_shapes(position: Position) -> set[str]:
    """The traps a deal holds: steals the greedy steal-one player cannot make (house_deal's traps)."""
    mover = position.mover
    hand = list(mover.hand)
    found = set()
    for player in position.players:
        if player.name == mover.name:
            continue
        for play in player.plays:
            for card in play.cards:
                rest = _without(play.cards, card)
                mates = [c for c in hand if c.rank == card.rank]
                # cut: the rest is two whole runs, and the card makes a book with two hand cards
                if not _whole(rest) and _splits_in_two(rest) and len(mates) >= 2:
                    found.add("cut")
                # shift: a card of another play of the space makes the rest whole again, that play stays whole
                for other in player.plays:
                    if other is play:
                        continue
                    for moved in other.cards:
                        if (not _whole(rest) and _whole(rest + [moved]) and _whole(_without(other.cards, moved))
                                and any(_whole([card, a, b]) for a in hand for b in hand if a != b)):
                            found.add("shift")
                # gift, gift-shift, double-shift (issue 29): the rest is made whole by a card given by the mover
                # (a spare of its plays; not melded: a card of its hand), or by a card of another play of the
                # space that is itself made whole by a given card or by a spare of a third play of the space
                if not _whole(rest) and len(mates) >= 2:
                    givable = [c for mine in mover.plays for c in mine.cards if _whole(_without(mine.cards, c))]
                    givable += [] if mover.melded else hand
                    if any(_whole(rest + [g]) for g in givable):
                        found.add("gift")
                    for other in player.plays:
                        for moved in (() if other is play else other.cards):
                            left = _without(other.cards, moved)
                            if not _whole(rest + [moved]) or _whole(left):
                                continue
                            if any(_whole(left + [g]) for g in givable):
                                found.add("gift-shift")
                            spares = [c for third in player.plays if third is not play and third is not other
                                      for c in third.cards if _whole(_without(third.cards, c))]
                            if any(_whole(left + [g]) for g in spares):
                                found.add("double-shift")
                # relay: the card, an end card of the mover's play and a hand card make a play
                if _whole(rest):
                    for mine in mover.plays:
                        for end in mine.cards:
                            if _whole(_without(mine.cards, end)) and not _whole(list(mine.cards) + [card]) and any(
                                    _whole([card, end, c]) for c in hand):
                                found.add("relay")
    return found


@pytest.mark.parametrize("seed", range(5))
def test_a_hard_deal_holds_its_idea_and_an_expert_deal_one_step_past_it(seed):
    from rummy.generator.house_kinds import make_meld_steal, make_steal
    from rummy.vocabulary import Tier

    hard = make_steal(random.Random(seed), CLASSIC, Tier.HARD)
    assert hard is not None and trap_shapes(hard) & {"gift", "cut", "shift", "relay"}, hard.to_toml()
    unmelded = make_meld_steal(random.Random(seed), CLASSIC, Tier.HARD)
    assert unmelded is not None and trap_shapes(unmelded) & {"gift", "cut", "shift"}, unmelded.to_toml()
    expert = make_steal(random.Random(seed), CLASSIC, Tier.EXPERT)
    assert expert is not None and trap_shapes(expert) & {"gift-shift", "double-shift"}, expert.to_toml()
    for kind in ("gift", "gift-shift", "double-shift"):
        shape = HouseShape(plants=("book-end",), plant_count=(0, 0), filler_plays=(0, 0), extra_hand=(0, 0),
                           melded=True, key_traps=(kind,))
        dealt = deal_house(random.Random(seed), CLASSIC, shape)
        assert dealt is not None and kind in trap_shapes(dealt), dealt.to_toml()
    for kind in ("cut", "shift", "relay"):
        shape = HouseShape(plants=("book-end",), plant_count=(0, 0), filler_plays=(0, 0), extra_hand=(0, 0),
                           melded=True, traps=(kind,), trap_count=3)
        # three long traps do not always fit one pack: the first of a few seeds that deals
        dealt = next((d for d in (deal_house(random.Random(seed * 10 + k), CLASSIC, shape) for k in range(10))
                      if d is not None), None)
        assert dealt is not None and kind in trap_shapes(dealt), dealt.to_toml()
        naturals = [c for c in dealt.known_cards() if not c.is_joker]
        assert len(naturals) == len(set(naturals))
