"""Tile rummy turns (rules.md §6), judged in end-state form.

The table is shared and tiles come in two interchangeable copies, so what
matters is the multiset of tiles: table tiles must all stay on the table,
and what the table gained is what the rack played. Fixed jokers need a
reading: which joker went where, and which played tile freed it.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations, product

from ..cards import JOKER, Card
from ..plays import Play, readings
from ..scoring import meld_value
from .facts import TurnFacts, plain_counter
from .verdict import Breach


def judge_tiles(facts: TurnFacts) -> tuple[list[Breach], dict]:
    rules = facts.rules
    show = facts.show
    before_table = plain_counter(c for p in facts.before.table for c in p.cards)
    after_table = plain_counter(c for p in facts.after.table for c in p.cards)
    played = after_table - before_table
    left_table = before_table - after_table
    breaches: list[Breach] = []
    reading: dict = {"played": show(sorted(played.elements())).split()}

    if left_table:
        cards = sorted(left_table.elements())
        breaches.append(Breach("table-card-to-hand", f"{show(cards)} left the table; table tiles stay on the table",
                               tuple(c.notation(facts.deck) for c in cards)))
    if facts.discards and not rules.discard:
        breaches.append(Breach("extra-discard", f"{show(facts.discards)} discarded, but {rules.name} has no discard",
                               tuple(c.notation(facts.deck) for c in facts.discards)))
    count = sum(played.values())
    if rules.max_cards_per_turn is not None and count > rules.max_cards_per_turn:
        breaches.append(Breach("too-many-cards", f"{count} tiles played; {rules.name} allows at most {rules.max_cards_per_turn} a turn",
                               tuple(c.notation(facts.deck) for c in sorted(played.elements()))))
    if not facts.before.mover.melded:
        meld_breaches, meld = _initial_meld(facts, played)
        breaches += meld_breaches
        reading["meld"] = meld
    elif rules.joker_mode == "fixed":
        joker_breaches, joker_reading = _fixed_jokers(facts, played)
        breaches += joker_breaches
        reading["jokers"] = joker_reading
    return breaches, reading


def _initial_meld(facts: TurnFacts, played: Counter) -> tuple[list[Breach], list[str]]:
    """Before the initial meld the table is untouched; the meld is new plays of rack tiles."""
    rules = facts.rules
    show = facts.show
    breaches: list[Breach] = []
    remaining = Counter(_key(p) for p in facts.before.table)
    new_plays: list[Play] = []
    for play in facts.after.table:
        if remaining[_key(play)] > 0:
            remaining[_key(play)] -= 1
        else:
            new_plays.append(play)
    touched = [key for key, n in remaining.items() for _ in range(n)]
    threshold = rules.meld_threshold(facts.before.hand_number)
    rack = Counter(played)
    meld_plays: list[Play] = []
    for play in sorted(new_plays, key=lambda p: -meld_value(p.cards, rules)):
        tiles = plain_counter(play.cards)
        if not tiles - rack:
            rack -= tiles
            meld_plays.append(play)
    value = sum(meld_value(p.cards, rules) for p in meld_plays)
    meld_notes = [p.notation(rules) for p in meld_plays]
    if touched:
        names = [show(list(k)) for k in touched]
        if meld_plays and value >= threshold:
            breaches.append(Breach("rearranged-on-initial-meld",
                                   f"the table plays {'; '.join(names)} were changed in the initial-meld turn; "
                                   "rearranging starts next turn", tuple(c.notation(rules.deck) for k in touched for c in k)))
        else:
            breaches.append(Breach("touched-before-meld",
                                   f"the table plays {'; '.join(names)} were changed before the initial meld",
                                   tuple(c.notation(rules.deck) for k in touched for c in k)))
    elif len(meld_plays) < len(new_plays):
        breaches.append(Breach("meld-not-from-hand", "the initial meld uses tiles that were not on the rack"))
    if meld_plays and value < threshold:
        breaches.append(Breach("meld-too-small", f"the initial meld is worth {value}; {rules.name} needs {threshold}",
                               tuple(c.notation(rules.deck) for p in meld_plays for c in p.cards)))
    declared = facts.after.turn.meld if facts.after.turn is not None else None
    for play in declared or ():
        foreign = plain_counter(play.cards) - played
        if foreign:
            breaches.append(Breach("meld-not-from-hand",
                                   f"the declared meld play {play.notation(rules)} uses {show(sorted(foreign.elements()))}, "
                                   "which did not come from the rack",
                                   tuple(c.notation(rules.deck) for c in foreign.elements())))
    return breaches, meld_notes


def _key(play: Play) -> tuple[Card, ...]:
    return tuple(sorted(c.plain() for c in play.cards))


# ----------------------------------------------------------------- fixed jokers
def _stand_in_options(cards: tuple[Card, ...], rules) -> list[set[Card]]:
    """For each joker of a play (in order), the cards it may stand for."""
    joker_indices = [i for i, c in enumerate(cards) if c.is_joker]
    options: list[set[Card]] = [set() for _ in joker_indices]
    for reading in readings(cards, rules):
        for k, i in enumerate(joker_indices):
            options[k].add(reading.stand_ins[i])
    return options


def _can_stand_for(cards: tuple[Card, ...], joker_slot: int, wanted: set[Card], rules) -> bool:
    """Whether the ``joker_slot``-th joker of a play reads as one of ``wanted``."""
    indices = [i for i, c in enumerate(cards) if c.is_joker]
    return any(r.stand_ins[indices[joker_slot]] in wanted for r in readings(cards, rules))


def _fixed_jokers(facts: TurnFacts, played: Counter) -> tuple[list[Breach], dict]:
    rules = facts.rules
    sources = []  # (before play index, joker slot, stand-in options)
    for index, play in enumerate(facts.before.table, 1):
        for slot, options in enumerate(_stand_in_options(play.cards, rules)):
            sources.append((index, slot, options))
    if not sources:
        return [], {}
    hand_jokers = plain_counter(facts.hand_before())[JOKER]
    destinations = []  # (after play index, joker slot)
    for index, play in enumerate(facts.after.table, 1):
        slots = sum(1 for c in play.cards if c.is_joker)
        destinations += [(index, slot) for slot in range(slots)]
    origins: list = sources + [None] * hand_jokers
    best: tuple[list[Breach], dict] | None = None
    best_key = None
    for order in sorted(set(permutations(range(len(destinations)), min(len(origins), len(destinations))))):
        breaches, reading = _judge_joker_reading(facts, played, origins, destinations, order)
        # Fewest breaches; among equals, the reading that keeps most jokers where they stood.
        key = (len(breaches), -sum(str(v).startswith("kept") for v in reading.values()))
        if best_key is None or key < best_key:
            best, best_key = (breaches, reading), key
        if not breaches:
            break
    return best if best is not None else ([], {})


def _judge_joker_reading(facts: TurnFacts, played: Counter, origins, destinations, order):
    """The best of the readings in which each table joker is kept or freed."""
    pairs = [(origin, dest_index) for origin, dest_index in zip(origins, order) if origin is not None]
    after = facts.after.table
    choices = []
    for (_, _, options), dest_index in pairs:
        after_index, slot = destinations[dest_index]
        keepable = _can_stand_for(after[after_index - 1].cards, slot, options, facts.rules)
        choices.append((True, False) if keepable else (False,))
    best: tuple[list[Breach], dict] | None = None
    for choice in product(*choices):
        result = _judge_joker_choice(facts, played, pairs, destinations, choice)
        if best is None or len(result[0]) < len(best[0]):
            best = result
        if not best[0]:
            break
    return best


def _judge_joker_choice(facts: TurnFacts, played: Counter, pairs, destinations, keep):
    rules = facts.rules
    show = facts.show
    breaches: list[Breach] = []
    free_tiles = Counter(played)  # rack tiles that may free a joker, each once
    reading: dict = {}
    after = facts.after.table
    before = facts.before.table
    for (origin, dest_index), kept in zip(pairs, keep):
        before_index, _, options = origin
        after_index, slot = destinations[dest_index]
        after_cards = after[after_index - 1].cards
        name = f"table/{before_index}"
        stands = " or ".join(sorted(c.notation(rules.deck) for c in options))
        if kept:
            if not _can_stand_for(after_cards, slot, options, rules):
                breaches.append(Breach("joker-not-freed",
                                       f"the joker of {name} (standing for {stands}) moved without being replaced"
                                       + (" by a tile from the rack" if rules.joker_replace_from_hand else ""),
                                       ("*",), (name,)))
                continue
            reading[name] = f"kept as {stands} in table/{after_index}"
            if rules.joker_locks_play:
                missing = plain_counter(before[before_index - 1].cards) - plain_counter(after_cards)
                if missing:
                    breaches.append(Breach("joker-locked-play",
                                           f"{show(sorted(missing.elements()))} left {name}, which holds a joker that was not replaced",
                                           tuple(c.notation(rules.deck) for c in missing.elements()), (name,)))
            continue
        freer = next((c for c in sorted(options) if free_tiles[c] > 0), None)
        if freer is None and not rules.joker_replace_from_hand:
            freer = next((c for c in sorted(options) if c in plain_counter(t for p in after for t in p.cards)), None)
        if freer is None:
            breaches.append(Breach("joker-not-freed",
                                   f"the joker of {name} (standing for {stands}) moved without being replaced"
                                   + (" by a tile from the rack" if rules.joker_replace_from_hand else ""),
                                   ("*",), (name,)))
            continue
        if rules.joker_replace_from_hand:
            free_tiles[freer] -= 1
        reading[name] = f"freed by {freer.notation(rules.deck)}, now in table/{after_index}"
        if rules.freed_joker_new_play_only:
            others = plain_counter(c for c in after_cards if not c.is_joker)
            if others - played:
                breaches.append(Breach("freed-joker-misused",
                                       f"the freed joker of {name} went into table/{after_index}, which holds table tiles; "
                                       "a freed joker may only go into a new play of rack tiles",
                                       ("*",), (name, f"table/{after_index}")))
    return breaches, reading
