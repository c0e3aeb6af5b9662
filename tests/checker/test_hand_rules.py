"""Hot cards, warm cards and the discard in Robber and lay-off rummy: `best` and `check` agree (issue 10).

The rule (rules.md §7, §8; docs/rules.md §7 and §8 "Decisions"), the same in
the checker (rummy/checker/extend.py) and the models:

- every listed hot card ends on the table (``hot-card-unplayed``) and is not
  discarded (``hot-discard``);
- a warm card is not discarded (``warm-discard``);
- the turn ends with exactly one discard unless the hand is empty after
  playing (``missing-discard``): Robber "The turn ends with one discard ... A
  player may go out with or without a final discard"; Straight "he must
  discard 1 card"; traditional "a player must discard a card". Unlike House
  Rummy, a hand left holding only warm cards is no excuse: such a turn is not
  legal (the warm cards had to be played);
- ``keep_one_to_discard``: the last card is discarded, not played
  (``last-card-played``).

A Robber position in the draw phase lists no temperature that outlives the
draw: the hand is as it was before the draw, so none of its cards was drawn
this turn (both sides drop them).

Three kinds of test: the reproduced cases of the issue, seeded random
positions whose `best` answer passes `check` while its variants (keep the hot
card, discard a warm card, skip the discard, keep only warm cards) are
refused, and tiny positions where every turn is enumerated and judged by
`check`: the best turn `check` accepts is worth exactly what `best` answers.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import product

import pytest

from rummy.answer import best
from rummy.cards import SUITS, Card, parse_cards
from rummy.checker import check, turn_gain
from rummy.plays import Play
from rummy.position import Attached, Position, Turn
from rummy.solution import SolverConfig
from tests.support.judged import judged_best

CONFIG = SolverConfig(time_limit=20)
LAYOFF_PRESETS = ("straight", "traditional")


# ------------------------------------------------------------------ helpers
def position(rules, players: dict, discard: str = "8S", stock=30, to_move: str = "ann", phase: str = "play") -> Position:
    data = {"rules": rules, "to_move": to_move, "phase": phase, "players": players,
            "piles": {"discard": discard, "stock": stock}}
    return Position.from_data(data)


def codes(before: Position, after: Position) -> set[str]:
    return {breach.code for breach in check(before, after).breaches}


def refused_with(before: Position, after: Position, code: str) -> None:
    verdict = check(before, after)
    found = [(b.code, b.message) for b in verdict.breaches]
    assert not verdict.legal, f"expected {code}, the turn was accepted\n{before.to_toml()}\n{after.to_toml()}"
    assert code in {b.code for b in verdict.breaches}, f"expected {code}, got {found}"


def accepted(before: Position, after: Position) -> None:
    verdict = check(before, after)
    assert verdict.legal, [(b.code, b.message) for b in verdict.breaches]


def with_mover(position_: Position, **changes) -> Position:
    return position_.replace_player(replace(position_.mover, **changes))


def end_state(before: Position, hand, plays=None, layoffs=None, discard: Card | None = None,
              others: dict[str, tuple[Play, ...]] | None = None) -> Position:
    """The mover's side of a turn: hand, plays (and lay-offs), the discard on the pile, declared."""
    changes = {"hand": tuple(hand), "hot": (), "warm": ()}
    if plays is not None:
        changes["plays"] = tuple(plays)
    if layoffs is not None:
        changes["layoffs"] = tuple(layoffs)
    after = with_mover(before, **changes)
    for name, plays_ in (others or {}).items():
        after = after.replace_player(replace(after.player(name), plays=plays_))
    pile = before.discard_pile + ((discard,) if discard is not None else ())
    return replace(after, discard_pile=pile, turn=Turn(discard=discard, discard_declared=True))


def play(text: str) -> Play:
    return Play(parse_cards(text))


# ------------------------------------------------------- the reproduced cases
def test_traditional_warm_card_kept_without_a_discard_is_refused() -> None:
    """The review's case: meld 4C 5C 6C, keep the warm KD, no discard (gain 15) against best's 6."""
    before = position("traditional", {"ann": {"hand": "KD 4C 5C 6C", "warm": "KD"},
                                      "bob": {"melded": True, "hand_count": 7}})
    kept = end_state(before, parse_cards("KD"), [play("4C 5C 6C")])
    refused_with(before, kept, "missing-discard")
    assert "warm" in next(b.message for b in check(before, kept).breaches if b.code == "missing-discard")
    refused_with(before, end_state(before, (), [play("4C 5C 6C")], discard=Card(13, "D")), "warm-discard")
    answer = judged_best(before, CONFIG)
    assert answer.solution.gain == 6 and answer.solution.after.turn.discard == Card(6, "C")
    # The legal variant best finds: keep the run and KD, discard the cold 6C.
    accepted(before, end_state(before, parse_cards("KD 4C 5C"), discard=Card(6, "C")))


@pytest.mark.parametrize("rules", LAYOFF_PRESETS)
def test_lay_off_hot_card_kept_in_hand_is_refused(rules: str) -> None:
    before = position(rules, {"ann": {"hand": "9D 4C 5C 6C 2S", "hot": "9D"},
                              "bob": {"melded": True, "hand_count": 7, "space": ["10D JD QD"]}})
    kept = end_state(before, parse_cards("9D"), [play("4C 5C 6C")], discard=Card(2, "S"))
    refused_with(before, kept, "hot-card-unplayed")
    refused_with(before, end_state(before, parse_cards("2S"), [play("4C 5C 6C")], discard=Card(9, "D")), "hot-discard")
    laid_off = end_state(before, (), [play("4C 5C 6C")], [Attached("bob/1", parse_cards("9D"))], discard=Card(2, "S"))
    accepted(before, laid_off)
    answer = judged_best(before, CONFIG)
    assert Card(9, "D") not in (answer.solution.after.mover.hand or ())


def test_robber_hot_card_kept_in_hand_is_refused() -> None:
    before = position("robber", {"ann": {"hand": "9C 9D 9S KH 2C", "hot": "9C"}, "bob": {"hand_count": 9}})
    refused_with(before, end_state(before, parse_cards("9C 9D 9S"), discard=Card(13, "H")), "hot-card-unplayed")
    refused_with(before, end_state(before, parse_cards("9D 9S KH"), discard=Card(9, "C")), "hot-discard")
    accepted(before, end_state(before, parse_cards("KH"), [play("9C 9D 9S")], discard=Card(2, "C")))
    answer = judged_best(before, CONFIG)
    assert answer.solution.after.mover.hand.count(Card(9, "C")) == 0


def test_robber_only_warm_cards_left_needs_a_discard_all_the_same() -> None:
    before = position("robber", {"ann": {"hand": "QC QD QH KD", "warm": "KD"}, "bob": {"hand_count": 9}})
    refused_with(before, end_state(before, parse_cards("KD"), [play("QC QD QH")]), "missing-discard")
    refused_with(before, end_state(before, (), [play("QC QD QH")], discard=Card(13, "D")), "warm-discard")
    accepted(before, end_state(before, parse_cards("QC QD KD"), discard=Card(12, "H")))
    assert judged_best(before, CONFIG).solution.gain == 10  # QH discarded; the book would strand KD


def test_robber_warm_card_with_a_cold_twin_may_be_discarded_once() -> None:
    before = position("robber", {"ann": {"hand": "KD KD 5C 5D 5S", "warm": "KD"}, "bob": {"hand_count": 9}})
    accepted(before, end_state(before, parse_cards("KD"), [play("5C 5D 5S")], discard=Card(13, "D")))
    refused_with(before, end_state(before, parse_cards("KD KD"), [play("5C 5D 5S")]), "missing-discard")


def test_robber_hot_card_with_a_twin_one_copy_played_the_other_discarded() -> None:
    before = position("robber", {"ann": {"hand": "9C 9C 9D 9S", "hot": "9C"}, "bob": {"hand_count": 9}})
    accepted(before, end_state(before, (), [play("9C 9D 9S")], discard=Card(9, "C")))
    both = with_mover(before, hot=parse_cards("9C 9C"))
    refused_with(both, end_state(both, (), [play("9C 9D 9S")], discard=Card(9, "C")), "hot-card-unplayed")


def test_going_out_needs_no_discard_and_a_played_hot_card_counts() -> None:
    robber = position("robber", {"ann": {"hand": "8C 9C 10C", "hot": "10C"}, "bob": {"hand_count": 9}})
    accepted(robber, end_state(robber, (), [play("8C 9C 10C")]))
    straight = position("straight", {"ann": {"hand": "8C 9C 10C", "warm": "8C", "hot": "10C"},
                                     "bob": {"melded": True, "hand_count": 7}})
    accepted(straight, end_state(straight, (), [play("8C 9C 10C")]))


def test_keep_one_to_discard_with_a_warm_last_card() -> None:
    rules = {"preset": "traditional", "keep_one_to_discard": True}
    before = position(rules, {"ann": {"hand": "4C 5C 6C KD", "warm": "KD"}, "bob": {"melded": True, "hand_count": 7}})
    refused_with(before, end_state(before, parse_cards("KD"), [play("4C 5C 6C")]), "missing-discard")
    refused_with(before, end_state(before, (), [play("4C 5C 6C")], discard=Card(13, "D")), "warm-discard")
    answer = best(before, CONFIG)
    assert answer.solution.status == "optimal" and answer.solution.gain == 6
    accepted(before, answer.solution.after)


def test_draw_phase_temperatures_do_not_outlive_the_draw() -> None:
    """best drops them at the draw (the drawn card is cold); check reads the draw the same way."""
    before = position("robber", {"ann": {"hand": "KD 4C 5C 6C", "warm": "KD", "hot": "6C"}, "bob": {"hand_count": 7}},
                      stock=["2H"], phase="draw")
    answer = best(before, CONFIG)
    assert answer.solution.status == "optimal" and answer.solution.after.turn.discard == Card(13, "D")
    accepted(before, answer.solution.after)


# --------------------------------------------------------- random positions
def random_robber(rng: random.Random, hand_size: int, table_plays: int) -> Position:
    deck = Counter({Card(r, s): 2 for r in range(1, 14) for s in SUITS})
    owners = ["ann", "bob", "cat"]
    plays = _deal_table(rng, deck, owners, table_plays, repeat_suits=True)
    hand, playable = _deal_hand(rng, deck, hand_size, plays, repeat_suits=True)
    players = {name: {"plays": [_text(p) for p in plays[name]], "hand_count": 5} for name in owners}
    players["ann"] = {"plays": players["ann"]["plays"], **_temperatures(rng, hand, playable)}
    return position("robber", players, discard="", stock=20)


def random_layoff(rng: random.Random, hand_size: int, table_plays: int) -> Position:
    rules: str | dict = rng.choice(LAYOFF_PRESETS)
    if rng.random() < 0.25:
        rules = {"preset": rules, "keep_one_to_discard": True}
    deck = Counter({Card(r, s): 1 for r in range(1, 14) for s in SUITS})
    owners = ["ann", "bob", "cat"]
    spaces = _deal_table(rng, deck, owners, table_plays, repeat_suits=False)
    hand, playable = _deal_hand(rng, deck, hand_size, spaces, repeat_suits=False)
    players = {name: {"space": [_text(p) for p in spaces[name]], "melded": bool(spaces[name]), "hand_count": 5}
               for name in owners}
    players["ann"] = {"space": players["ann"]["space"], "melded": bool(spaces["ann"]), **_temperatures(rng, hand, playable)}
    return position(rules, players, discard="", stock=20)


def _text(cards) -> str:
    return " ".join(c.notation() for c in cards)


def _deal_table(rng: random.Random, deck: Counter, owners: list[str], count: int, repeat_suits: bool) -> dict:
    plays: dict[str, list[list[Card]]] = {n: [] for n in owners}
    for _ in range(count * 5):
        if sum(map(len, plays.values())) >= count:
            break
        cards = _random_play(rng, deck, repeat_suits)
        if cards:
            deck -= Counter(cards)
            plays[rng.choice(owners)].append(cards)
    return plays


def _random_play(rng: random.Random, deck: Counter, repeat_suits: bool) -> list[Card] | None:
    """A book or run of 3 (ranks 2..K, so every ace rule reads it the same)."""
    if rng.random() < 0.5:
        rank = rng.randint(2, 13)
        pool = [c for c in deck.elements() if c.rank == rank]
        if not repeat_suits:
            pool = list(dict.fromkeys(pool))
        rng.shuffle(pool)
        return pool[:3] if len(pool) >= 3 else None
    suit = rng.choice(SUITS)
    start = rng.randint(2, 10)
    cards = [Card(start + i, suit) for i in range(3)]
    return cards if all(deck[c] for c in cards) else None


def _deal_hand(rng: random.Random, deck: Counter, size: int, plays: dict, repeat_suits: bool):
    """A hand that often holds a play of its own and a card that grows a table play; and those playable cards."""
    hand: list[Card] = []
    playable: list[Card] = []
    if rng.random() < 0.6:
        cards = _random_play(rng, deck, repeat_suits)
        if cards:
            hand += cards
            playable += cards
    table = [cards for plays_ in plays.values() for cards in plays_]
    if table and rng.random() < 0.7:
        cards = rng.choice(table)
        if len({c.rank for c in cards}) == 1:
            options = [Card(cards[0].rank, s) for s in SUITS if repeat_suits or Card(cards[0].rank, s) not in cards]
        else:
            low, high = min(c.rank for c in cards), max(c.rank for c in cards)
            options = [Card(r, cards[0].suit) for r in (low - 1, high + 1) if 2 <= r <= 13]
        options = [c for c in options if deck[c] > Counter(hand)[c]]
        if options:
            card = rng.choice(options)
            hand.append(card)
            playable.append(card)
    pool = sorted(deck.elements())
    while len(hand) < size:
        source = [c for c in pool if Counter(hand)[c] < deck[c]]
        hand.append(rng.choice(source))
    rng.shuffle(hand)
    return hand, playable


def _temperatures(rng: random.Random, hand: list[Card], playable: list[Card]) -> dict:
    """The mover's hand; often a hot card (mostly one that can be played) and one or two warm ones."""
    entry: dict = {"hand": _text(hand)}
    rest = list(hand)
    if rng.random() < 0.6:
        hot = rng.choice(playable if playable and rng.random() < 0.85 else hand)
        entry["hot"] = hot.notation()
        rest.remove(hot)
    rng.shuffle(rest)
    warm = [rest.pop() for _ in range(rng.choice((0, 1, 1, 2))) if rest]
    if warm:
        entry["warm"] = _text(warm)
    return entry


def all_copies(before: Position, card: Card) -> tuple[Card, ...]:
    """Every copy of ``card`` in the hand before: so marked, the card counts as hot (warm) whatever copy moved."""
    return tuple(c for c in before.mover.hand if c.plain() == card.plain())


def without_card(cards, card: Card) -> tuple[Card, ...]:
    cards = list(cards)
    cards.remove(card)
    return tuple(cards)


def assert_variants_refused(before: Position, after: Position) -> int:
    """The answer's variants that break a hand rule are refused with its code; returns how many were tried."""
    mover = before.mover
    hand_after = after.player(mover.name).hand
    discard = after.turn.discard if after.turn is not None else None
    tried = 0
    if discard is not None:
        # Skip the discard: the card stays in the hand.
        skipped = replace(after.replace_player(replace(after.player(mover.name), hand=hand_after + (discard,))),
                          discard_pile=before.discard_pile, turn=Turn(discard=None, discard_declared=True))
        refused_with(before, skipped, "missing-discard")
        # The same, with every card left in the hand warm: the case of the review.
        left = set(c.plain() for c in hand_after + (discard,))
        all_warm = with_mover(before, hot=(), warm=tuple(c for c in mover.hand if c.plain() in left))
        refused_with(all_warm, skipped, "missing-discard")
        # The discard marked warm, then hot.
        hot = tuple(c for c in mover.hot if c.plain() != discard.plain())
        warm = tuple(c for c in mover.warm if c.plain() != discard.plain())
        refused_with(with_mover(before, warm=warm + all_copies(before, discard), hot=hot), after, "warm-discard")
        refused_with(with_mover(before, hot=hot + all_copies(before, discard), warm=warm), after, "hot-discard")
        tried += 4
    for card in sorted(set(c.plain() for c in hand_after)):
        # A card kept in the hand, marked hot.
        rest = tuple(c for c in mover.hot if c.plain() != card)
        hot_before = with_mover(before, hot=rest + all_copies(before, card),
                                warm=tuple(c for c in mover.warm if c.plain() != card))
        refused_with(hot_before, after, "hot-card-unplayed")
        tried += 1
    return tried


def assert_no_turn_accepted_plainly(before: Position) -> None:
    """`best` found no legal turn: neither passing nor discarding a lone card is accepted."""
    hand = before.mover.hand
    assert not check(before, end_state(before, hand)).legal
    for card in sorted(set(hand)):
        assert not check(before, end_state(before, without_card(hand, card), discard=card)).legal


@pytest.mark.parametrize("seed", range(24))
def test_random_robber_best_passes_check_and_its_variants_do_not(seed: int) -> None:
    rng = random.Random(7100 + seed)
    before = random_robber(rng, hand_size=rng.randint(3, 8), table_plays=rng.randint(0, 3))
    _best_and_variants(before)


@pytest.mark.parametrize("seed", range(24))
def test_random_layoff_best_passes_check_and_its_variants_do_not(seed: int) -> None:
    rng = random.Random(8100 + seed)
    before = random_layoff(rng, hand_size=rng.randint(3, 8), table_plays=rng.randint(0, 3))
    _best_and_variants(before)


def _best_and_variants(before: Position) -> None:
    answer = best(before, CONFIG)
    solution = answer.solution
    if solution.status == "no-legal-turn":
        assert_no_turn_accepted_plainly(before)
        return
    assert solution.status == "optimal", solution.reason
    after = solution.after
    accepted(before, after)
    assert turn_gain(before, after) == solution.gain
    hand_after = after.mover.hand
    hot_left = Counter(c.plain() for c in hand_after) & Counter(c.plain() for c in before.mover.hot)
    assert all(Counter(before.mover.hand)[c] > before.mover.hot.count(c) for c in hot_left), "a hot card kept"
    if hand_after:
        assert after.turn.discard is not None, "the hand is not empty, yet no discard"
    assert_variants_refused(before, after)


# ---------------------------------------- every turn of tiny positions, judged
def candidate_turns(before: Position):
    """Every placement of the hand cards (kept, onto a table play, into a new play), with every discard."""
    mover = before.mover
    hand = list(mover.hand)
    names = list(before.named_plays())
    targets = [("keep", 0)] + [("table", i) for i in range(len(names))] + [("new", j) for j in range(len(hand) // 3)]
    for placement in product(targets, repeat=len(hand)):
        news = sorted({j for kind, j in placement if kind == "new"})
        if news != list(range(len(news))):
            continue  # new plays numbered in order of first use
        groups: dict[tuple, list[Card]] = {}
        kept: list[Card] = []
        for card, (kind, j) in zip(hand, placement):
            (kept if kind == "keep" else groups.setdefault((kind, j), [])).append(card)
        if any(kind == "new" and len(cards) < 3 for (kind, _), cards in groups.items()):
            continue  # no play is shorter than 3 in these games
        for discard in [None] + sorted(set(kept)):
            left = without_card(kept, discard) if discard is not None else tuple(kept)
            yield _turn(before, names, groups, left, discard)


def _turn(before: Position, names: list[str], groups: dict, left, discard) -> Position:
    mover = before.mover.name
    family = before.rules.family
    plays = {p.name: list(p.plays) for p in before.players}
    layoffs = list(before.mover.layoffs)
    taken: list[tuple[str, int]] = []
    for (kind, j), cards in sorted(groups.items()):
        if kind == "new":
            continue
        owner, index = names[j].rsplit("/", 1)
        old = plays[owner][int(index) - 1]
        if family == "robber":  # the play becomes the adder's
            taken.append((owner, int(index) - 1))
            plays[mover].append(Play(old.cards + tuple(cards)))
        elif owner == mover:  # a lay-off on one's own meld grows it in place
            plays[mover][int(index) - 1] = Play(old.cards + tuple(cards))
        else:
            layoffs.append(Attached(names[j], tuple(cards)))
    for owner, index in sorted(taken, reverse=True):
        del plays[owner][index]
    plays[mover] += [Play(tuple(cards)) for (kind, _), cards in sorted(groups.items()) if kind == "new"]
    others = {name: tuple(p) for name, p in plays.items() if name != mover}
    return end_state(before, left, plays[mover], layoffs, discard, others)


@pytest.mark.parametrize("seed", range(16))
@pytest.mark.parametrize("family", ["robber", "layoff"])
def test_tiny_positions_the_best_turn_check_accepts_is_best(family: str, seed: int) -> None:
    rng = random.Random((9100 if family == "robber" else 9200) + seed)
    make = random_robber if family == "robber" else random_layoff
    before = make(rng, hand_size=rng.randint(3, 5), table_plays=rng.randint(1, 2))
    top = None
    for after in candidate_turns(before):
        if check(before, after).legal:
            gain = turn_gain(before, after)
            top = gain if top is None else max(top, gain)
    solution = best(before, CONFIG).solution
    if top is None:
        assert solution.status == "no-legal-turn", before.to_toml()
    else:
        assert solution.status == "optimal", (solution.reason, before.to_toml())
        assert solution.gain == top, before.to_toml()
