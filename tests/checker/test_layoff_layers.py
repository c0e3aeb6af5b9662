"""Lay-off tables read in layers (rules.md §3 personal): a card laid off lies in
the layer's space, attached to its play, and scores for the layer.

``best``'s answers never touch another player's meld or lay-offs and the
checker accepts them; the very same turns, rewritten so that the mover's
lay-off sits in another player's meld or under another player's
``layoffs``, or so that an earlier lay-off changes hands, are refused with
``layoff-not-in-own-space`` or ``layoff-moved`` (docs/checker.md).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from rummy.answer import best
from rummy.cards import SUITS, Card
from rummy.checker import check
from rummy.plays import Play
from rummy.position import Attached, Position
from rummy.solution import SolverConfig

CONFIG = SolverConfig(time_limit=20)
NAMES = ("ann", "bob", "cat")


def random_layoff_position(seed: int) -> Position:
    """Melds in every space, lay-offs by every player (on others' plays and their own), the mover cat."""
    rng = random.Random(seed)
    rules = rng.choice(("straight", "traditional"))
    deck = Counter({Card(r, s): 1 for r in range(1, 14) for s in SUITS})

    def take(cards: list[Card]) -> bool:
        if any(deck[c] < 1 for c in cards):
            return False
        deck.subtract(cards)
        return True

    spaces: dict[str, list[str]] = {n: [] for n in NAMES}
    layoffs: dict[str, list[str]] = {n: [] for n in NAMES}
    table: list[Card] = []
    for _ in range(rng.randint(2, 5)):
        owner = rng.choice(NAMES)
        if rng.random() < 0.5:
            rank = rng.randint(1, 13)
            suits = rng.sample(SUITS, 4)
            cards, extra = [Card(rank, s) for s in suits[:3]], Card(rank, suits[3])
        else:
            suit, start = rng.choice(SUITS), rng.randint(2, 9)
            cards, extra = [Card(start + i, suit) for i in range(3)], Card(start + 3, suit)
        if not take(cards):
            continue
        spaces[owner].append(" ".join(c.notation() for c in cards))
        table += cards
        if rng.random() < 0.6 and take([extra]):
            layoffs[rng.choice(NAMES)].append(f"{owner}/{len(spaces[owner])} {extra.notation()}")
            table.append(extra)
    pool = sorted(deck.elements())
    near = [c for c in pool if any(c.rank == t.rank or (c.suit == t.suit and abs(c.rank - t.rank) <= 2) for t in table)]
    hand: list[Card] = []
    for _ in range(rng.randint(4, 8)):
        source = [c for c in (near if near and rng.random() < 0.6 else pool) if c not in hand]
        hand.append(rng.choice(source))
    players = {}
    for name in NAMES:
        entry: dict = {"space": spaces[name], "melded": True}
        if layoffs[name]:
            entry["layoffs"] = layoffs[name]
        entry.update({"hand": " ".join(c.notation() for c in hand)} if name == "cat" else {"hand_count": 5})
        players[name] = entry
    stock = sum(deck.values()) - len(hand) - 2 * 5  # what the hands and the table leave
    data = {"rules": rules, "to_move": "cat", "players": players, "piles": {"discard": "", "stock": stock}}
    return Position.from_data(data)


def plain(cards) -> list[Card]:
    return sorted(c.plain() for c in cards)


def written(position: Position, name: str) -> tuple:
    """What a player has written on the table: their melds and lay-offs, as plain cards."""
    player = position.player(name)
    return (sorted(plain(p.cards) for p in player.plays), sorted((a.target, plain(a.cards)) for a in player.layoffs))


def new_layoffs(before: Position, after: Position) -> list[tuple[str, Card]]:
    """The mover's lay-offs this turn on other players' plays: (target, card)."""
    mover = before.to_move
    was = Counter((a.target, c.plain()) for a in before.mover.layoffs for c in a.cards)
    now = Counter((a.target, c.plain()) for a in after.player(mover).layoffs for c in a.cards)
    return sorted(k for k in (now - was).elements() if not k[0].startswith(mover + "/"))


def moved(position: Position, name: str, change) -> Position:
    return position.replace_player(change(position.player(name)))


def without_layoff(player, target: str, card: Card):
    """``player`` with one ``card`` taken off its lay-off on ``target``."""
    entries = []
    for attached in player.layoffs:
        if attached.target == target and card in [c.plain() for c in attached.cards]:
            cards = list(attached.cards)
            cards.remove(next(c for c in cards if c.plain() == card))
            if cards:
                entries.append(Attached(target, tuple(cards)))
        else:
            entries.append(attached)
    return replace(player, layoffs=tuple(entries))


def with_layoff(player, target: str, card: Card):
    return replace(player, layoffs=player.layoffs + (Attached(target, (card,)),))


def into_meld(player, target: str, card: Card):
    index = int(target.rsplit("/", 1)[1]) - 1
    plays = list(player.plays)
    plays[index] = Play(plays[index].cards + (card,))
    return replace(player, plays=tuple(plays))


SEEDS = range(40)


@pytest.mark.parametrize("seed", SEEDS)
def test_best_keeps_every_layer_and_the_checker_accepts_it(seed: int) -> None:
    before = random_layoff_position(seed)
    solution = best(before, CONFIG).solution
    assert solution.status == "optimal", solution.reason
    verdict = check(before, solution.after)
    assert verdict.legal, verdict.breaches
    for name in NAMES:
        if name != before.to_move:
            assert written(solution.after, name) == written(before, name)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_same_turn_written_in_the_wrong_layer_is_refused(seed: int) -> None:
    before = random_layoff_position(seed)
    after = best(before, CONFIG).solution.after
    mover = before.to_move
    laid = new_layoffs(before, after)
    for target, card in laid:
        owner = target.rsplit("/", 1)[0]
        taken_off = moved(after, mover, lambda p, target=target, card=card: without_layoff(p, target, card))
        in_meld = moved(taken_off, owner, lambda p, target=target, card=card: into_meld(p, target, card))
        codes = check(before, in_meld).codes
        assert "layoff-not-in-own-space" in codes, codes
        third = next(n for n in NAMES if n not in (mover, owner))
        under_third = moved(taken_off, third, lambda p, target=target, card=card: with_layoff(p, target, card))
        codes = check(before, under_third).codes
        assert "layoff-not-in-own-space" in codes, codes
    # Earlier lay-offs of the others change hands: taken over by the mover, or written into the meld.
    for name in NAMES:
        if name == mover:
            continue
        for attached in before.player(name).layoffs:
            card, target = attached.cards[0].plain(), attached.target
            taken_off = moved(after, name, lambda p, target=target, card=card: without_layoff(p, target, card))
            taken_over = moved(taken_off, mover, lambda p, target=target, card=card: with_layoff(p, target, card))
            assert "layoff-moved" in check(before, taken_over).codes
            owner = target.rsplit("/", 1)[0]
            if owner != name:
                merged = moved(taken_off, owner, lambda p, target=target, card=card: into_meld(p, target, card))
                assert "layoff-moved" in check(before, merged).codes


def test_the_random_positions_exercise_lay_offs() -> None:
    """The refusal test is not vacuous: best lays cards off on other players' plays in many positions."""
    laid = 0
    for seed in SEEDS:
        before = random_layoff_position(seed)
        laid += bool(new_layoffs(before, best(before, CONFIG).solution.after))
    assert laid >= 5
