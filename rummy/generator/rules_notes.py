"""A puzzle's ``rules_note``: the rule of the position that decides its answer, in words (issue 29 §5).

A player reads the task and the table; some answers turn on a rule the
picture does not show: a warm card that may not be discarded, a hot one that
must be played, a fixed joker that only its own tile frees, the meld cost of
a mover who has not melded, a run round the corner, the most tiles a turn
may play, one meld a turn, a card's unusual value. ``rules_note(before,
after)`` names such rules, each only where the position and the answer show
that it bears on the answer (a warm card kept while a cheaper card is
discarded; a fixed joker freed; an unmelded mover...), and None where no rule
does. Several are joined by "; ". Detected from the two positions alone: no
solving.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import combinations

from ..cards import Card, cards_notation
from ..checker.tile import freed_jokers
from ..plays import is_whole, readings, settled_stand_ins
from ..position import Position
from ..scoring import penalty
from ..vocabulary import Ace, InitialMeldJoker, JokerMode

MAX_NOTE = 500  # characters, as the reader allows a [puzzle] rules_note


def rules_note(before: Position, after: Position) -> str | None:
    """The rules that decide the turn from ``before`` to ``after`` (the best one), or None."""
    notes = [note for detect in _DETECTORS for note in detect(before, after)]
    text = "; ".join(dict.fromkeys(notes))
    return text[:MAX_NOTE] if text else None


def _show(before: Position, cards: tuple[Card, ...] | list[Card]) -> str:
    return cards_notation(tuple(cards), before.rules.deck)


def _hand_after(before: Position, after: Position) -> tuple[Card, ...]:
    return after.player(before.to_move).hand or ()


def _discard(after: Position) -> Card | None:
    return after.turn.discard if after.turn is not None else None


def _temperatures(before: Position, after: Position) -> list[str]:
    """A warm card kept while a card worth no more goes to the pile, or one a play would take (or with
    nothing discarded); a hot card, which every legal turn plays."""
    notes = []
    kept = Counter(c.plain() for c in _hand_after(before, after))
    discard = _discard(after)
    rules = before.rules
    # The discard could have been played instead (a play on the table takes it): the turn keeps it back
    # only because the warm card cannot be the discard.
    playable = discard is not None and any(is_whole(after.play_with_layoffs(name) + (discard,), rules)
                                           for name in after.named_plays())
    for card in before.mover.warm:
        if not kept[card.plain()]:
            continue
        no_more = discard is not None and penalty(discard, rules) <= penalty(card, rules)
        if no_more or playable or discard is None:
            notes.append(f"{_show(before, [card])} is warm: it cannot be discarded")
    notes += [f"{_show(before, [card])} is hot: it must be played" for card in before.mover.hot]
    return notes


def _first_meld(before: Position, after: Position) -> list[str]:
    """A mover who has not melded: the meld cost (House: play points; tiles: the numbers, rack only)."""
    rules = before.rules
    cost = rules.meld_threshold(before.hand_number)
    if before.mover.melded or not cost:
        return []
    if rules.family.shared_table:
        joker = "; a joker counts 0 there" if rules.initial_meld_joker == InitialMeldJoker.ZERO else ""
        return [f"you have not melded: your first plays must add up to {cost} with tiles from your rack alone, "
                f"and the table cannot be rearranged in that turn{joker}"]
    if rules.family.plays_in_any_space:  # House: a meld pays for no steal
        return [f"you have not melded: your first plays, from your hand alone, must be worth {cost} "
                f"(hand {before.hand_number or 1}), and their cards cannot pay for a steal"]
    return []


def _fixed_jokers(before: Position, after: Position) -> list[str]:
    """A fixed joker the answer frees (only its own tile frees it), or one whose play the lock keeps whole
    although it has a tile to spare."""
    rules = before.rules
    if rules.joker_mode != JokerMode.FIXED:
        return []
    notes = []
    freed = freed_jokers(before, after)
    for name, tile in freed:
        rack = " from your rack" if rules.joker_replace_from_hand else ""
        notes.append(f"the joker in {name} is fixed: only {_show(before, [tile])}{rack} frees it")
    if freed and rules.freed_joker_new_play_only:
        notes.append("a freed joker may go only into a new play of tiles from your rack")
    freed_plays = {name for name, _ in freed}
    if rules.joker_locks_play:
        changed = _changed_plays(before, after)
        for name, locked in before.named_plays().items():
            if str(name) in freed_plays or not any(c.is_joker for c in locked.cards):
                continue
            # The lock matters where it forbids a move that looks useful: a tile the play could spare
            # (it stays whole without it) that a play the turn makes would take.
            spare = [c for k, c in enumerate(locked.cards) if not c.is_joker
                     and is_whole(locked.cards[:k] + locked.cards[k + 1:], rules)
                     and any(is_whole(cards + (c,), rules) for cards in changed)]
            if spare:
                stood = settled_stand_ins(locked.cards, rules)
                what = f" until {_show(before, stood[:1])} replaces it" if stood else ""
                notes.append(f"the joker in {name} is fixed: its play cannot give up a tile{what}")
    return notes


def _changed_plays(before: Position, after: Position) -> list[tuple[Card, ...]]:
    """The plays of the table after the turn that were not on it before (as sets of cards)."""
    old = Counter(tuple(sorted(c.plain() for c in play.cards)) for play in before.named_plays().values())
    changed = []
    for play in after.named_plays().values():
        key = tuple(sorted(c.plain() for c in play.cards))
        if old[key]:
            old[key] -= 1
        else:
            changed.append(play.cards)
    return changed


def _aces(before: Position, after: Position) -> list[str]:
    """A run the turn makes round the corner (House), or with an ace high where aces may be high or low."""
    rules = before.rules
    for cards in _changed_plays(before, after):
        ranks = {c.rank for c in cards if not c.is_joker}
        if 1 not in ranks or not any(r.kind == "run" for r in readings(cards, rules)):
            continue
        if rules.ace == Ace.CIRCULAR and 13 in ranks and 2 in ranks:
            return ["aces go round the corner: K A 2 is a run"]
        if rules.ace == Ace.HIGH_OR_LOW and any(r.ace_high for r in readings(cards, rules)):
            return ["an ace ends a run high (Q K A) or low (A 2 3), never round the corner"]
    return []


def _turn_limits(before: Position, after: Position) -> list[str]:
    """The most tiles a turn may play, where the answer plays that many and the rack holds more; one meld
    a turn, where the hand kept holds another."""
    rules = before.rules
    notes = []
    held = len(before.mover.hand or ())
    played = held - len(_hand_after(before, after)) - (1 if _discard(after) is not None else 0)
    most = rules.max_cards_per_turn
    if most is not None and played >= most and held > most:
        notes.append(f"at most {most} tiles from your rack a turn")
    if rules.plays_per_turn is not None:
        kept = _hand_after(before, after)
        if any(is_whole(chosen, rules) for size in (3, 4) for chosen in combinations(kept, size)):
            turns = "one meld" if rules.plays_per_turn == 1 else f"{rules.plays_per_turn} melds"
            notes.append(f"{turns} a turn (lay-offs are not counted)")
    return notes


def _values(before: Position, after: Position) -> list[str]:
    """A card worth more than its face in the hand (Straight Rummy's queen of spades), where the mover holds it."""
    rules = before.rules
    queen = Card.from_notation("QS")
    if rules.queen_of_spades_points != 10 and any(c.plain() == queen for c in before.mover.hand or ()):
        return [f"QS counts {rules.queen_of_spades_points}"]
    return []


def _books(before: Position, after: Position) -> list[str]:
    """Books that repeat a suit or pass 4 cards (Robber), where the answer makes one."""
    rules = before.rules
    if rules.book_distinct_suits:
        return []
    for cards in _changed_plays(before, after):
        suits = [c.suit for c in cards if not c.is_joker]
        if len({c.rank for c in cards if not c.is_joker}) == 1 and (len(set(suits)) < len(suits) or len(cards) > 4):
            return [f"a book may repeat suits and hold up to {rules.book_max} cards"]
    return []


def _first_out(before: Position, after: Position) -> list[str]:
    """A House hand where someone already went out first: the task's first-out bonus is gone."""
    if before.first_out is None or not before.rules.family.plays_in_any_space:
        return []
    return [f"{before.first_out} already went out first this hand: no first-out bonus"]


_DETECTORS: tuple[Callable[[Position, Position], list[str]], ...] = (
    _temperatures, _first_meld, _fixed_jokers, _first_out, _aces, _turn_limits, _values, _books)
