"""House Rummy turns (rules.md §5), judged in end-state form.

A reading fixes what the end state cannot show: which identical card went
where (the jokers), which jokers were replaced and by what, which played
cards were the meld. The turn is legal when some reading is; otherwise the
reading with the fewest breaches is reported.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import combinations, islice, permutations, product
from typing import TypedDict

from ..cards import JOKER, Card
from ..family import HOUSE
from ..plays import Play, PlayName, is_whole
from ..position import Replacement
from ..rules import Ruleset
from .facts import TurnFacts, plain_counter
from .tokens import HAND, Token, token_readings
from .verdict import Breach

MAX_MELD_OPTIONS = 300

# A play's cards as a sorted tuple of plain cards; a space's plays count them (identical plays alike).
PlayKey = tuple[Card, ...]


@dataclass
class Reading:
    tokens: list[Token]
    replaced: list[tuple[str, Card]] = field(default_factory=list)
    meld: list[tuple[Card, ...]] | None = None
    inferred: list[str] = field(default_factory=list)


class StealPayment(TypedDict):
    """A play holding stolen cards: those cards and the hand cards that paid for them."""

    stolen: list[str]
    paid_by: list[str]


class HouseReading(TypedDict):
    """The reading a House Rummy verdict reports (``describe_reading``)."""

    meld: list[str]
    replaced: list[str]
    discard: str | None
    steals: dict[PlayName, StealPayment]
    inferred: list[str]


class HouseJudge:
    def __init__(self, facts: TurnFacts) -> None:
        self.facts = facts
        self.rules = facts.rules
        self.before = facts.before
        self.after = facts.after
        self.mover = facts.mover
        self.melded_before = self.before.mover.melded
        self.cost = self.rules.meld_threshold(self.before.hand_number)
        self.turn = self.after.turn

    # ---------------------------------------------------------------- search
    def judge(self) -> tuple[list[Breach], Reading]:
        best: tuple[list[Breach], Reading] | None = None
        for tokens in token_readings(self.before, self.after, self.facts.discards):
            for reading in self.readings(tokens):
                breaches = self.evaluate(reading)
                if best is None or len(breaches) < len(best[0]):
                    best = (breaches, reading)
                if not breaches:
                    return best
        assert best is not None
        return best

    def readings(self, tokens: list[Token]) -> Iterable[Reading]:
        for replaced_tokens, replaced, note in self.replacement_options(tokens):
            for meld_tokens, meld, meld_note in self.meld_options(replaced_tokens):
                yield Reading(meld_tokens, replaced, meld, [n for n in (note, meld_note) if n])

    # ---------------------------------------------------------- replacements
    def replacement_options(self, tokens: list[Token]) -> Iterator[tuple[list[Token], list[tuple[str, Card]], str]]:
        """Jokers replaced before melding: (tokens after the swaps, [(play, card)], note)."""
        declared = self.turn.replaced if self.turn is not None else None
        if self.melded_before:
            yield tokens, [(r.play, r.card) for r in declared or ()], ""
            return
        if declared is not None:
            yield self.apply_declared_replacements(tokens, declared), [(r.play, r.card) for r in declared], ""
            return
        # The jokers on the table before the turn, by token, with the play each was in.
        joker_plays = {i: t.origin_play for i, t in enumerate(tokens) if t.card.is_joker and t.origin_play is not None}
        jokers = list(joker_plays)
        candidates = [i for i, t in enumerate(tokens) if t.from_hand and t.on_table and not t.card.is_joker]
        yield tokens, [], ""
        for k in range(1, len(jokers) + 1):
            for chosen_jokers in combinations(jokers, k):
                for chosen_cards in _distinct_assignments(len(chosen_jokers), candidates):
                    swaps = list(zip(chosen_jokers, chosen_cards))
                    if all(self.replacement_whole(joker_plays[j], tokens[c].card) for j, c in swaps):
                        swapped = _swap(tokens, swaps)
                        yield swapped, [(joker_plays[j], tokens[c].card) for j, c in swaps], "replaced inferred"

    def replacement_whole(self, play_name: str, card: Card) -> bool:
        cards = list(self.before.named_plays()[PlayName(play_name)].cards)
        cards.remove(JOKER)
        return is_whole(tuple(cards) + (card,), self.rules)

    def apply_declared_replacements(self, tokens: list[Token], declared: tuple[Replacement, ...]) -> list[Token]:
        swaps: list[tuple[int, int]] = []
        used: set[int] = set()
        for r in declared:
            jokers = [i for i, t in enumerate(tokens) if t.card.is_joker and t.origin_play == r.play and i not in used]
            # With two jokers in the play, the replaced one is the one that left it.
            jokers.sort(key=lambda i: tokens[i].dest_play == r.play)
            joker = jokers[0] if jokers else None
            card = next((i for i, t in enumerate(tokens) if t.card == r.card and t.from_hand and i not in used), None)
            if joker is None or card is None:
                continue
            used.update((joker, card))
            swaps.append((joker, card))
        return _swap(tokens, swaps)

    # ------------------------------------------------------------------ meld
    def meld_options(self, tokens: list[Token]) -> Iterator[tuple[list[Token], list[tuple[Card, ...]] | None, str]]:
        """(tokens with meld cards marked, meld plays or None, note)."""
        declared = self.turn.meld if self.turn is not None else None
        if self.melded_before:
            yield tokens, (list(p.cards for p in declared) if declared else None), ""
            return
        if declared is not None:
            plays = [tuple(c.plain() for c in p.cards) for p in declared]
            for marked, note in self.declared_meld_markings(tokens, plays):
                yield marked, plays if plays else None, note
            return
        playable = [(i, t.card) for i, t in enumerate(tokens) if t.from_hand and t.on_table and not t.replacement]
        melds = minimal_melds(playable, self.rules, self.cost)
        if not melds:
            # No meld reaches the cost: read the biggest one there is, so the breach says so.
            melds = minimal_melds(playable, self.rules, 1)[:1]
        for meld in melds:
            marked = list(tokens)
            for play in meld:
                for i in play:
                    marked[i] = replace(marked[i], in_meld=True)
            yield marked, [tuple(tokens[i].card for i in play) for play in meld], "meld inferred"
        yield tokens, None, ""

    def declared_meld_markings(self, tokens: list[Token],
                               plays: list[tuple[Card, ...]]) -> Iterator[tuple[list[Token], str]]:
        """Every way of marking the declared meld cards among the tokens: (marked tokens, note).

        The declaration names the meld's cards, not which of two identical
        ones (the jokers) is the meld's: the meld cards may have moved on, so
        the meld's joker may be the one in any play a hand joker ended in, and
        only a hand card that is not the meld's pays for a steal. Each distinct
        choice is a reading; the note says which was read where there was a choice.
        """
        wanted = Counter(card for play in plays for card in play)
        per_card: list[list[tuple[int, ...]]] = []
        chosen_cards: list[Card] = []
        for card, count in sorted(wanted.items()):
            # A meld card is a hand card that ended on the table (not one put in for a joker).
            candidates = [i for i, t in enumerate(tokens)
                          if t.card == card and t.from_hand and t.on_table and not t.replacement]
            options: list[tuple[int, ...]] = []
            seen: set[tuple[tuple[str, str, bool], ...]] = set()
            for combo in combinations(candidates, min(count, len(candidates))):
                # Tokens of one card that lie in the same place alike are interchangeable.
                key = tuple(sorted((tokens[i].dest, str(tokens[i].dest_play), tokens[i].released) for i in combo))
                if key not in seen:
                    seen.add(key)
                    options.append(combo)
            per_card.append(options)
            chosen_cards.append(card)
        choices = [k for k, options in enumerate(per_card) if len(options) > 1]
        for choice in islice(product(*per_card), MAX_MELD_OPTIONS):
            marked = list(tokens)
            for combo in choice:
                for i in combo:
                    marked[i] = replace(marked[i], in_meld=True)
            notes = [f"meld {self.facts.show([chosen_cards[k]])} read as the one in "
                     f"{', '.join(sorted(str(tokens[i].dest_play) for i in choice[k]))}" for k in choices]
            yield marked, "; ".join(notes)

    # -------------------------------------------------------------- evaluate
    def evaluate(self, reading: Reading) -> list[Breach]:
        tokens = reading.tokens
        breaches: list[Breach] = []
        show = self.facts.show
        melding = bool(reading.meld)
        active = self.melded_before or melding

        if self.melded_before and reading.replaced:
            breaches.append(Breach("joker-replaced-after-meld",
                                   "a melded player may not replace jokers; they can only steal them",
                                   tuple(c.notation() for _, c in reading.replaced),
                                   tuple(p for p, _ in reading.replaced)))
        for t in tokens:
            if t.origin_play is not None and not t.on_table:
                if t.card.is_joker and self.melded_before:
                    breaches.append(Breach("joker-replaced-after-meld",
                                           f"the joker from {t.origin_play} went to the {t.dest}: "
                                           "after melding jokers are stolen, not replaced",
                                           ("*",), (t.origin_play,)))
                else:
                    breaches.append(Breach("table-card-to-hand",
                                           f"{show([t.card])} from {t.origin_play} went to the {t.dest}; "
                                           "table cards stay on the table",
                                           (t.card.notation(),), (t.origin_play,)))
        breaches += self.replacement_breaches(reading)
        if not self.melded_before:
            if melding:
                breaches += self.meld_breaches(reading)
            else:
                breaches += self.unmelded_breaches(reading)
        if active:
            breaches += self.steal_breaches(tokens)
            breaches += self.spite_breaches(reading)
        breaches += self.temperature_breaches(tokens)
        return breaches

    def replacement_breaches(self, reading: Reading) -> list[Breach]:
        breaches: list[Breach] = []
        if self.melded_before:
            return breaches
        plays = self.before.named_plays()
        hand = plain_counter(self.facts.hand_before())
        for play_name, card in reading.replaced:
            if play_name not in plays or JOKER not in plays[PlayName(play_name)].cards:
                breaches.append(Breach("bad-replacement", f"{play_name} held no joker to replace", (card.notation(),),
                                       (play_name,)))
            elif hand[card] == 0:
                breaches.append(Breach("bad-replacement",
                                       f"{self.facts.show([card])} put in for the joker of {play_name} "
                                       "was not in the hand",
                                       (card.notation(),), (play_name,)))
            elif not self.replacement_whole(play_name, card):
                breaches.append(Breach("bad-replacement",
                                       f"{self.facts.show([card])} in place of the joker "
                                       f"does not make {play_name} whole",
                                       (card.notation(),), (play_name,)))
        return breaches

    def meld_breaches(self, reading: Reading) -> list[Breach]:
        breaches: list[Breach] = []
        show = self.facts.show
        total = 0
        for play in reading.meld or []:
            if not is_whole(play, self.rules):
                breaches.append(Breach("not-whole", f"the meld play {show(play)} is not whole",
                                       tuple(c.notation() for c in play)))
            total += HOUSE.play_score(play, self.rules)
        if total < self.cost:
            breaches.append(Breach("meld-too-small",
                                   f"the meld is worth {total} but hand {self.before.hand_number} "
                                   f"costs {self.cost} to meld",
                                   tuple(c.notation() for p in reading.meld or [] for c in p)))
        # Every declared meld card must be a hand card that ended on the table.
        available = Counter(t.card for t in reading.tokens if t.in_meld)
        wanted = Counter(c.plain() for p in reading.meld or [] for c in p)
        missing = wanted - available
        if missing:
            cards = sorted(missing.elements())
            breaches.append(Breach("meld-not-from-hand",
                                   f"the meld uses {show(cards)}, which were not hand cards played this turn",
                                   tuple(c.notation() for c in cards)))
        return breaches

    def unmelded_breaches(self, reading: Reading) -> list[Breach]:
        """Without melding, only joker replacement may change the table."""
        breaches: list[Breach] = []
        show = self.facts.show
        played = [t for t in reading.tokens if t.from_hand and t.on_table and not t.replacement]
        if played:
            cards = [t.card for t in played]
            breaches.append(Breach("touched-before-meld",
                                   f"{show(cards)} played to the table without melding",
                                   tuple(c.notation() for c in cards), tuple(sorted(_dest_plays(played)))))
        expected = self.spaces_after_replacement(reading)
        actual = _plays_by_owner(self.after.named_plays().items())
        changed = sorted(owner for owner in set(expected) | set(actual)
                         if expected.get(owner, Counter()) != actual.get(owner, Counter()))
        if changed and not played:
            breaches.append(Breach("touched-before-meld",
                                   f"the table changed in {', '.join(changed)}'s space before the mover melded",
                                   plays=tuple(changed)))
        return breaches

    def spaces_after_replacement(self, reading: Reading) -> dict[str, Counter[PlayKey]]:
        plays: dict[PlayName, tuple[Card, ...]] = {}
        for name, play in self.before.named_plays().items():
            cards = [c.plain() for c in play.cards]
            for play_name, card in reading.replaced:
                if play_name == name and JOKER in cards:
                    cards.remove(JOKER)
                    cards.append(card)
            plays[name] = tuple(cards)
        return _plays_by_owner(plays.items())

    def steal_breaches(self, tokens: list[Token]) -> list[Breach]:
        breaches: list[Breach] = []
        show = self.facts.show
        for play_name, members in sorted(_by_dest_play(tokens).items()):
            space = PlayName(play_name).owner
            stolen = [t for t in members if t.origin not in (HAND, self.mover, space)]
            payers = [t for t in members if t.from_hand and not t.in_meld]
            if len(payers) >= len(stolen):
                continue
            meld_cards = [t for t in members if t.in_meld]
            stolen_cards = [t.card for t in stolen]
            breaches.append(Breach("unpaid-steal",
                                   f"{play_name} holds {len(stolen)} stolen card(s) ({show(stolen_cards)}, from "
                                   f"{', '.join(sorted(_origin_plays(stolen)))}) but only {len(payers)} hand card(s) "
                                   f"played to it{': ' + show([t.card for t in payers]) if payers else ''}",
                                   tuple(c.notation() for c in stolen_cards),
                                   (play_name,) + tuple(sorted(_origin_plays(stolen)))))
            if meld_cards and len(payers) + len(meld_cards) >= len(stolen):
                breaches.append(Breach("meld-card-as-payment",
                                       f"meld cards {show([t.card for t in meld_cards])} in {play_name} "
                                       "cannot pay for a steal",
                                       tuple(t.card.notation() for t in meld_cards), (play_name,)))
        return breaches

    def spite_breaches(self, reading: Reading) -> list[Breach]:
        breaches: list[Breach] = []
        before = {owner: sum(HOUSE.play_score(cards, self.rules) for cards in plays.elements())
                  for owner, plays in self.spaces_after_replacement(reading).items()}
        after = {owner: sum(HOUSE.play_score(cards, self.rules) for cards in plays.elements())
                 for owner, plays in _plays_by_owner(self.after.named_plays().items()).items()}
        stolen = Counter(t.origin for t in reading.tokens
                         if t.on_table and t.origin not in (HAND, self.mover) and t.dest != t.origin)
        for player in self.before.players:
            owner = player.name
            if owner == self.mover:
                continue
            loss = before.get(owner, 0) - after.get(owner, 0)
            allowed = 10 * stolen[owner]
            if loss > allowed:
                breaches.append(Breach("spite",
                                       f"{owner}'s space lost {loss} points but only {stolen[owner]} card(s) "
                                       f"were stolen from it (at most {allowed} may be lost)", plays=(owner,)))
        return breaches

    def temperature_breaches(self, tokens: list[Token]) -> list[Breach]:
        breaches: list[Breach] = []
        show = self.facts.show
        mover = self.before.mover
        hot = plain_counter(mover.hot)
        warm = plain_counter(mover.warm)
        hand_before = plain_counter(mover.hand or ())
        # A hot card put in for a joker counts as played (rules.md §5).
        played = Counter(t.card for t in tokens if t.on_table and ((t.from_hand and not t.released) or t.replacement))
        for card, count in sorted(hot.items()):
            if played[card] < count:
                breaches.append(Breach("hot-card-unplayed", f"the hot card {show([card])} was not played",
                                       (card.notation(),)))
        discards = self.facts.discards
        if len(discards) > 1:
            breaches.append(Breach("extra-discard",
                                   f"{len(discards)} cards discarded ({show(discards)}); a turn ends with one",
                                   tuple(c.notation() for c in discards)))
        for card in discards:
            plain = card.plain()
            if hot[plain] and hot[plain] >= hand_before[plain]:
                breaches.append(Breach("hot-discard", f"{show([card])} is hot: it must be played, not discarded",
                                       (card.notation(),)))
            elif warm[plain] and warm[plain] >= hand_before[plain]:
                breaches.append(Breach("warm-discard", f"{show([card])} is warm: it may not be discarded this turn",
                                       (card.notation(),)))
        if not discards and self.rules.discard:
            left = plain_counter(self.facts.hand_after())
            discardable = left - warm - hot
            if discardable:
                breaches.append(Breach("missing-discard",
                                       f"the hand still holds {show(sorted(discardable.elements()))}, "
                                       "so one card must be discarded",
                                       tuple(c.notation() for c in discardable.elements())))
        return breaches


def _swap(tokens: list[Token], swaps: list[tuple[int, int]]) -> list[Token]:
    result = list(tokens)
    for joker, card in swaps:
        play = tokens[joker].origin_play
        assert play is not None, "only a joker that was in a play is replaced"
        result[joker] = replace(tokens[joker], origin=HAND, origin_play=None, released=True)
        result[card] = replace(tokens[card], origin=PlayName(play).owner, origin_play=play, replacement=True)
    return result


def _distinct_assignments(k: int, candidates: list[int]) -> Iterator[tuple[int, ...]]:
    return permutations(candidates, k)


def _plays_by_owner(items: Iterable[tuple[str, Play | tuple[Card, ...]]]) -> dict[str, Counter[PlayKey]]:
    result: dict[str, Counter[PlayKey]] = defaultdict(Counter)
    for name, play in items:
        cards = play.cards if isinstance(play, Play) else play
        result[PlayName(name).owner][tuple(sorted(c.plain() for c in cards))] += 1
    return dict(result)


def _by_dest_play(tokens: Iterable[Token]) -> dict[PlayName, list[Token]]:
    """The cards on the table after the turn, by the play they ended in."""
    by_play: dict[PlayName, list[Token]] = defaultdict(list)
    for t in tokens:
        # A card on the table always names its play (dest_play is None only in the hand or the discard).
        if t.on_table and t.dest_play is not None:
            by_play[t.dest_play].append(t)
    return by_play


def _dest_plays(tokens: Iterable[Token]) -> set[PlayName]:
    """The plays these cards ended in (cards on the table)."""
    return {t.dest_play for t in tokens if t.dest_play is not None}


def _origin_plays(tokens: Iterable[Token]) -> set[PlayName]:
    """The plays these cards came from (cards from the table: a card's origin_play is None only from the hand)."""
    return {t.origin_play for t in tokens if t.origin_play is not None}


# -------------------------------------------------------------- meld search
def whole_subplays(items: list[tuple[int, Card]], rules: Ruleset) -> list[tuple[int, ...]]:
    """Every subset of the given cards that is a whole play (as item indices)."""
    jokers = [i for i, c in items if c.is_joker]
    naturals = [(i, c) for i, c in items if not c.is_joker]
    found: set[tuple[int, ...]] = set()
    groups: dict[tuple[str, int | str], list[tuple[int, Card]]] = defaultdict(list)
    for i, c in naturals:
        groups[("book", c.rank)].append((i, c))
        groups[("run", c.suit)].append((i, c))
    for (kind, _), members in groups.items():
        limit = rules.book_max if kind == "book" else rules.run_max
        for size in range(1, min(len(members), limit) + 1):
            for combo in combinations(members, size):
                for j in range(0, len(jokers) + 1):
                    if size + j < min(rules.book_min, rules.run_min) or size + j > max(rules.book_max, rules.run_max):
                        continue
                    for joker_combo in combinations(jokers, j):
                        cards = tuple(c for _, c in combo) + (JOKER,) * j
                        if is_whole(cards, rules):
                            found.add(tuple(sorted([i for i, _ in combo] + list(joker_combo))))
    return sorted(found)


def minimal_melds(items: list[tuple[int, Card]], rules: Ruleset, cost: int) -> list[list[tuple[int, ...]]]:
    """Sets of disjoint whole plays worth at least ``cost``, none of which can be dropped."""
    cards = dict(items)
    plays = [(p, HOUSE.play_score(tuple(cards[i] for i in p), rules)) for p in whole_subplays(items, rules)]
    plays.sort(key=lambda ps: -ps[1])
    results: list[list[tuple[int, ...]]] = []

    def walk(start: int, chosen: list[tuple[tuple[int, ...], int]], used: set[int], score: int) -> None:
        if len(results) >= MAX_MELD_OPTIONS:
            return
        if score >= cost:
            if all(score - s < cost for _, s in chosen):
                results.append([p for p, _ in chosen])
            return
        for k in range(start, len(plays)):
            play, value = plays[k]
            if used.isdisjoint(play):
                walk(k + 1, chosen + [(play, value)], used | set(play), score + value)

    walk(0, [], set(), 0)
    return results


def judge_house(facts: TurnFacts) -> tuple[list[Breach], HouseReading]:
    judge = HouseJudge(facts)
    breaches, reading = judge.judge()
    return breaches, describe_reading(facts, reading)


def describe_reading(facts: TurnFacts, reading: Reading) -> HouseReading:
    show = facts.show
    payments: dict[PlayName, StealPayment] = {}
    for play_name, members in sorted(_by_dest_play(reading.tokens).items()):
        space = PlayName(play_name).owner
        stolen = [t.card for t in members if t.origin not in (HAND, facts.mover, space)]
        if stolen:
            payers = [t.card for t in members if t.from_hand and not t.in_meld]
            payments[play_name] = {"stolen": show(stolen).split(), "paid_by": show(payers).split()}
    return {
        "meld": [Play(tuple(p)).notation(facts.rules) for p in reading.meld or []],
        "replaced": [f"{play} {card.notation(facts.deck)}" for play, card in reading.replaced],
        "discard": (facts.discards[0].notation(facts.deck) if len(facts.discards) == 1
                    else (show(facts.discards) or None)),
        "steals": payments,
        "inferred": reading.inferred + ([f"discard {facts.discard_note}"]
                                        if facts.discard_note not in ("declared",) else []),
    }
