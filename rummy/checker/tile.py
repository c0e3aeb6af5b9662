"""Tile rummy turns (rules.md §6), judged in end-state form.

The table is shared and tiles come in two interchangeable copies, so what
matters is the multiset of tiles: table tiles must all stay on the table,
and what the table gained is what the rack played. Fixed jokers need a
reading: which joker went where, which played tile freed it, and which
copy of a duplicate tile is the table's. One reading is judged against
every joker rule at once (the lock, the freed joker's new play): a turn is
legal when a single reading keeps them all.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations, product
from typing import NotRequired, TypedDict

from ..cards import JOKER, Card
from ..plays import Play, readings
from ..position import Position
from ..rules import Ruleset
from ..scoring import meld_value
from ..vocabulary import JokerMode
from .facts import TurnFacts, plain_counter, tiles_played
from .verdict import Breach

# A joker on the table before the turn: (before play index, joker slot in the play, the cards it
# may stand for, its name in the reading).
JokerSource = tuple[int, int, set[Card], str]
# What the reading says of each table joker, by its name: kept where, or freed by which tile.
JokerReading = dict[str, str]
# The jokers a reading frees: (before play index, the tile that frees it), in the order of the table.
Freed = list[tuple[int, Card]]
# One reading judged: its breaches, what it says of each joker, the jokers it frees.
JokerJudgement = tuple[list[Breach], JokerReading, Freed]


class TilesReading(TypedDict):
    """The reading a tile rummy verdict reports: the initial meld, or the fixed jokers after it."""

    played: list[str]
    meld: NotRequired[list[str]]
    jokers: NotRequired[JokerReading]


def judge_tiles(facts: TurnFacts) -> tuple[list[Breach], TilesReading]:
    rules = facts.rules
    show = facts.show
    before_table = plain_counter(c for p in facts.before.table for c in p.cards)
    after_table = plain_counter(c for p in facts.after.table for c in p.cards)
    played = after_table - before_table
    left_table = before_table - after_table
    breaches: list[Breach] = []
    reading: TilesReading = {"played": show(sorted(played.elements())).split()}

    if left_table:
        cards = sorted(left_table.elements())
        breaches.append(Breach("table-card-to-hand", f"{show(cards)} left the table; table tiles stay on the table",
                               tuple(c.notation(facts.deck) for c in cards)))
    if facts.discards and not rules.discard:
        breaches.append(Breach("extra-discard", f"{show(facts.discards)} discarded, but {rules.name} has no discard",
                               tuple(c.notation(facts.deck) for c in facts.discards)))
    count = sum(played.values())
    if rules.max_cards_per_turn is not None and count > rules.max_cards_per_turn:
        breaches.append(Breach("too-many-cards",
                               f"{count} tiles played; {rules.name} allows at most {rules.max_cards_per_turn} a turn",
                               tuple(c.notation(facts.deck) for c in sorted(played.elements()))))
    if not facts.before.mover.melded:
        meld_breaches, meld = _initial_meld(facts, played)
        breaches += meld_breaches
        reading["meld"] = meld
    elif rules.joker_mode == JokerMode.FIXED:
        joker_breaches, joker_reading, _ = _fixed_jokers(facts, played)
        breaches += joker_breaches
        reading["jokers"] = joker_reading
    return breaches, reading


def _initial_meld(facts: TurnFacts, played: Counter[Card]) -> tuple[list[Breach], list[str]]:
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
                                   "rearranging starts next turn",
                                   tuple(c.notation(rules.deck) for k in touched for c in k)))
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
                                   f"the declared meld play {play.notation(rules)} "
                                   f"uses {show(sorted(foreign.elements()))}, which did not come from the rack",
                                   tuple(c.notation(rules.deck) for c in foreign.elements())))
    return breaches, meld_notes


def _key(play: Play) -> tuple[Card, ...]:
    return tuple(sorted(c.plain() for c in play.cards))


# ----------------------------------------------------------------- fixed jokers
def _stand_in_options(cards: tuple[Card, ...], rules: Ruleset) -> list[set[Card]]:
    """For each joker of a play (in order), the cards it may stand for."""
    joker_indices = [i for i, c in enumerate(cards) if c.is_joker]
    options: list[set[Card]] = [set() for _ in joker_indices]
    for reading in readings(cards, rules):
        for k, i in enumerate(joker_indices):
            options[k].add(reading.stand_ins[i])
    return options


def _can_stand_for(cards: tuple[Card, ...], joker_slot: int, wanted: set[Card], rules: Ruleset) -> bool:
    """Whether the ``joker_slot``-th joker of a play reads as one of ``wanted``."""
    indices = [i for i, c in enumerate(cards) if c.is_joker]
    return any(r.stand_ins[indices[joker_slot]] in wanted for r in readings(cards, rules))


def freed_jokers(before: Position, after: Position) -> list[tuple[str, Card]]:
    """The table jokers a fixed-joker turn from ``before`` (the mover melded) to ``after`` frees, as
    the checker reads the turn: (the play it stood in before the turn, ``table/3``; the tile that frees
    it), in the order of the table before the turn. Nothing where jokers are not fixed or the mover
    had not melded (then no table joker may move). A move plan says each as a step of its own."""
    if before.rules.joker_mode != JokerMode.FIXED or not before.rules.family.shared_table \
            or not before.mover.melded:
        return []
    facts = TurnFacts(before, after, [], "")
    return [(f"table/{index}", tile) for index, tile in sorted(_fixed_jokers(facts, tiles_played(before, after))[2])]


def _fixed_jokers(facts: TurnFacts, played: Counter[Card]) -> JokerJudgement:
    rules = facts.rules
    sources: list[JokerSource] = []
    for index, play in enumerate(facts.before.table, 1):
        options = _stand_in_options(play.cards, rules)
        for slot, stand_ins in enumerate(options):
            name = f"table/{index}" if len(options) == 1 else f"table/{index} joker {slot + 1}"
            sources.append((index, slot, stand_ins, name))
    if not sources:
        return [], {}, []
    hand_jokers = plain_counter(facts.hand_before())[JOKER]
    destinations: list[tuple[int, int]] = []  # (after play index, joker slot)
    for index, play in enumerate(facts.after.table, 1):
        slots = sum(1 for c in play.cards if c.is_joker)
        destinations += [(index, slot) for slot in range(slots)]
    origins: list[JokerSource | None] = sources + [None] * hand_jokers  # None: a joker from the rack
    best: JokerJudgement | None = None
    best_key = None
    for order in sorted(set(permutations(range(len(destinations)), min(len(origins), len(destinations))))):
        judged = _judge_joker_reading(facts, played, origins, destinations, order)
        breaches, reading, _ = judged
        # Fewest breaches; among equals, the reading that keeps most jokers where they stood.
        key = (len(breaches), -sum(str(v).startswith("kept") for v in reading.values()))
        if best_key is None or key < best_key:
            best, best_key = judged, key
        if not breaches:
            break
    return best if best is not None else ([], {}, [])


def _judge_joker_reading(facts: TurnFacts, played: Counter[Card], origins: list[JokerSource | None],
                         destinations: list[tuple[int, int]],
                         order: tuple[int, ...]) -> JokerJudgement:
    """The best of the readings in which each table joker is kept or freed."""
    pairs = [(origin, dest_index) for origin, dest_index in zip(origins, order) if origin is not None]
    after = facts.after.table
    choices: list[tuple[bool, ...]] = []
    for (_, _, options, _), dest_index in pairs:
        after_index, slot = destinations[dest_index]
        keepable = _can_stand_for(after[after_index - 1].cards, slot, options, facts.rules)
        choices.append((True, False) if keepable else (False,))
    best: JokerJudgement | None = None
    for choice in product(*choices):
        result = _judge_joker_choice(facts, played, pairs, destinations, choice)
        if best is None or len(result[0]) < len(best[0]):
            best = result
        if not best[0]:
            break
    assert best is not None, "product() yields at least one choice: every joker has one"
    return best


def _judge_joker_choice(facts: TurnFacts, played: Counter[Card], pairs: list[tuple[JokerSource, int]],
                        destinations: list[tuple[int, int]],
                        keep: tuple[bool, ...]) -> JokerJudgement:
    """One reading: which table joker went where, and whether it was kept or freed.

    The lock and "freed jokers only in new plays of rack tiles" are judged
    together, on one placement of the tiles' copies (``_place_copies``):
    the table's copy of a duplicate tile is either in the locked play or
    among the rack tiles of a new play, never both.
    """
    rules = facts.rules
    show = facts.show
    breaches: list[Breach] = []
    reading: JokerReading = {}
    after = facts.after.table
    kept: list[tuple[int, int]] = []  # (before play index, after play index) of each kept joker
    freed: list[tuple[int, int, str]] = []  # (before play index, after play index, name) of each freed joker
    freed_by: Freed = []
    unfreed: list[tuple[int, int]] = []  # table jokers moved without being replaced: still table cards
    # (origin, after index) of the jokers read as freed, to be matched with freeing tiles
    candidates: list[tuple[JokerSource, int]] = []
    for (origin, dest_index), is_kept in zip(pairs, keep):
        before_index, _, options, name = origin
        after_index, slot = destinations[dest_index]
        if is_kept and _can_stand_for(after[after_index - 1].cards, slot, options, rules):
            kept.append((before_index, after_index))
            reading[name] = f"kept as {_stands(options, rules)} in table/{after_index}"
        else:
            candidates.append((origin, after_index))
    freers = _match_freers([options for (_, _, options, _), _ in candidates], played, after, rules)
    for ((before_index, _, options, name), after_index), freer in zip(candidates, freers):
        if freer is None:
            unfreed.append((before_index, after_index))
            breaches.append(Breach("joker-not-freed",
                                   f"the {_joker_words(name)} (standing for {_stands(options, rules)}) "
                                   "moved without being replaced"
                                   + (" by a tile from the rack" if rules.joker_replace_from_hand else ""),
                                   ("*",), (f"table/{before_index}",)))
            continue
        freed.append((before_index, after_index, name))
        freed_by.append((before_index, freer))
        reading[name] = f"freed by {freer.notation(rules.deck)}, now in table/{after_index}"

    # The plays whose kept joker locks them, and where each must end: where its kept joker is.
    targets: dict[int, int] = {}
    if rules.joker_locks_play:
        for before_index, after_index in sorted(kept):
            targets.setdefault(before_index, after_index)
    new_only = sorted({after_index for _, after_index, _ in freed}) if rules.freed_joker_new_play_only else []
    # Table jokers that stay table cards (kept, or moved unreplaced); freed jokers count as rack tiles.
    jokers = [(b, a, True) for b, a in kept + unfreed] + [(b, a, False) for b, a, _ in freed]
    missing, table_cards = _place_copies(facts, jokers, targets, new_only)
    for before_index in sorted(missing):
        gone = missing[before_index]
        if gone:
            name = f"table/{before_index}"
            breaches.append(Breach("joker-locked-play",
                                   f"{show(sorted(gone.elements()))} left {name}, "
                                   "which holds a joker that was not replaced",
                                   tuple(c.notation(rules.deck) for c in sorted(gone.elements())), (name,)))
    for _, after_index, name in freed:
        foreign = table_cards.get(after_index)
        if new_only and foreign:
            cards = sorted(foreign.elements())
            breaches.append(Breach("freed-joker-misused",
                                   f"the freed {_joker_words(name)} went into table/{after_index}, which holds tiles "
                                   f"from the table ({show(cards)}); "
                                   "a freed joker may only go into a new play of rack tiles",
                                   ("*",) + tuple(c.notation(rules.deck) for c in cards),
                                   (name.split()[0], f"table/{after_index}")))
    return breaches, reading, freed_by


def _joker_words(name: str) -> str:
    """``table/3`` -> "joker of table/3"; ``table/3 joker 2`` -> "joker 2 of table/3"."""
    play, _, number = name.partition(" joker ")
    return f"joker {number} of {play}" if number else f"joker of {play}"


def _stands(options: set[Card], rules: Ruleset) -> str:
    return " or ".join(sorted(c.notation(rules.deck) for c in options))


def _match_freers(options: list[set[Card]], played: Counter[Card], after: tuple[Play, ...],
                  rules: Ruleset) -> list[Card | None]:
    """For each joker read as freed, the tile that frees it (None: no tile can).

    With ``joker_replace_from_hand`` each rack tile played frees one joker,
    so the tiles are matched to the jokers: the match freeing most jokers,
    tried exhaustively (a deck holds few jokers). Otherwise any copy on the
    table after the turn frees a joker.
    """
    if not rules.joker_replace_from_hand:
        on_table = plain_counter(t for p in after for t in p.cards)
        return [next((c for c in sorted(o) if on_table[c] > 0), None) for o in options]
    best: list[Card | None] = [None] * len(options)
    best_count = 0

    def walk(k: int, left: Counter[Card], chosen: list[Card | None]) -> bool:
        nonlocal best, best_count
        if k == len(options):
            count = sum(c is not None for c in chosen)
            if count > best_count:
                best, best_count = list(chosen), count
            return count == len(options)
        for card in sorted(options[k]):
            if left[card] > 0:
                left[card] -= 1
                done = walk(k + 1, left, chosen + [card])
                left[card] += 1
                if done:
                    return True
        return walk(k + 1, left, chosen + [None])

    walk(0, Counter(played), [])
    return best


def _place_copies(facts: TurnFacts, jokers: list[tuple[int, int, bool]], targets: dict[int, int],
                  new_only: list[int]) -> tuple[dict[int, Counter[Card]], dict[int, Counter[Card]]]:
    """One placement of every table card after the turn, for the lock and the new-play rule together.

    ``jokers`` gives each table joker of the reading as (before index, after
    index, still a table card: kept or moved unreplaced). ``targets`` maps
    each locked play (before) to the play (after) its cards must all end in;
    ``new_only`` lists the plays (after) that may hold only rack tiles
    besides freed jokers.

    Jokers are where the reading put them. Natural tiles come in
    interchangeable copies, so which copy is the table's is chosen here,
    one choice for both rules: the locked plays' copies go to their plays,
    the table's other copies to plays outside ``new_only`` while there is
    room (then to those already holding table cards), and the rack's copies
    fill the rest. Tiles are placed independently of each other, and this
    order breaks a rule only where every placement of that tile's copies
    does, so it stands for the search over all placements, in time linear
    in the table.

    Returns the cards each locked play lost (by before index) and the table
    cards each ``new_only`` play holds (by after index).
    """
    before = facts.before.table
    after = facts.after.table
    missing: dict[int, Counter[Card]] = {index: Counter() for index in targets}
    table_cards: dict[int, Counter[Card]] = {index: Counter() for index in new_only}
    for index, target in targets.items():
        own = sum(1 for c in before[index - 1].cards if c.is_joker)
        stayed = sum(1 for b, a, _ in jokers if b == index and a == target)
        if own > stayed:
            missing[index][JOKER] += own - stayed
    for _, after_index, table_card in jokers:
        if table_card and after_index in table_cards:
            table_cards[after_index][JOKER] += 1

    before_counts = [plain_counter(c for c in p.cards if not c.is_joker) for p in before]
    after_counts = [plain_counter(c for c in p.cards if not c.is_joker) for p in after]
    tiles = sorted(set().union(*before_counts)) if before_counts else []
    outside = [i for i in range(1, len(after) + 1) if i not in table_cards]
    for tile in tiles:
        room = {i: after_counts[i - 1][tile] for i in range(1, len(after) + 1)}
        loose = 0  # the table's copies not bound to a locked play's target
        for index, counts in enumerate(before_counts, 1):
            copies = counts[tile]
            if not copies:
                continue
            bound_to = targets.get(index)  # the play this locked play's copies must end in
            if bound_to is None:
                loose += copies
                continue
            placed = min(copies, room[bound_to])
            room[bound_to] -= placed
            if bound_to in table_cards and placed:
                table_cards[bound_to][tile] += placed
            if copies > placed:
                missing[index][tile] += copies - placed
                loose += copies - placed
        for i in outside:
            placed = min(loose, room[i])
            room[i] -= placed
            loose -= placed
        # What does not fit outside lies in plays meant for rack tiles: those already spoiled first.
        for i in sorted(table_cards, key=lambda i: (not table_cards[i], i)):
            placed = min(loose, room[i])
            if placed:
                room[i] -= placed
                loose -= placed
                table_cards[i][tile] += placed
    return missing, table_cards
