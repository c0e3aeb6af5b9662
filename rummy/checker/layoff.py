"""Straight and traditional Rummy turns (rules.md §8): melds in one's own space,
lay-offs attached to any play, plays that only grow.

A play on a personal table is read in **layers**: the cards of one player
on it, its owner's meld cards (and the owner's own lay-offs on it), and each
other player's ``layoffs`` entries naming it (``"bob/1 QD"`` under ann: ann's
layer of bob/1). rules.md §3: a card laid off lies in the layer's space,
attached to that play, and scores for the layer. So, play by play:

- every other player's layer is exactly as it was (``layoff-moved`` when a
  card already on the table changed layer: an earlier lay-off written into
  the meld or under another player, a meld card written as a lay-off);
- the mover's layer only grows, by hand cards (``layoff-not-in-own-space``
  when a hand card is written into another player's meld or under another
  player's ``layoffs``).

On the mover's own play both ways of writing a lay-off are the mover's
layer, so one may grow the meld itself or write a ``layoffs`` entry naming
it. Lay-offs moved to another play break the play they left
(``play-split``).
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from ..cards import Card
from ..plays import PlayName
from ..position import Position
from .extend import Growth, discard_breaches, match_growth
from .facts import TurnFacts, plain_counter
from .robber import table_card_breaches
from .verdict import Breach

Layers = dict[str, Counter[Card]]


class LayoffReading(TypedDict):
    """The reading a Straight or traditional Rummy verdict reports."""

    melds: list[PlayName]
    layoffs: dict[PlayName, list[str]]
    discard: str | None


def judge_layoff(facts: TurnFacts) -> tuple[list[Breach], LayoffReading]:
    rules = facts.rules
    mover = facts.mover
    before_units = {name: facts.before.play_with_layoffs(name) for name in facts.before.named_plays()}
    after_units = {name: facts.after.play_with_layoffs(name) for name in facts.after.named_plays()}
    before_layers = {name: play_layers(facts.before, name) for name in before_units}
    after_layers = {name: play_layers(facts.after, name) for name in after_units}

    def kept_layers(before: PlayName, after: PlayName) -> bool:
        lost, came = _layer_changes(before_layers[before], after_layers[after])
        return not lost and set(came) <= {mover}

    breaches = list(table_card_breaches(facts, before_units, after_units))
    growth = match_growth(facts, before_units, after_units, same_owner=True, prefer=kept_layers)
    breaches += growth.breaches
    breaches += layer_breaches(facts, growth, before_layers, after_layers)
    new_plays = growth.new_plays()
    laid_off = growth.extended()
    for name in new_plays:
        if PlayName(name).owner != mover:
            breaches.append(Breach("meld-not-in-own-space", f"{name} is a new meld in {PlayName(name).owner}'s space; "
                                   f"{mover} melds in their own space", plays=(name,)))
    if rules.plays_per_turn is not None and len(new_plays) > rules.plays_per_turn:
        breaches.append(Breach("too-many-plays", f"{len(new_plays)} new melds ({', '.join(new_plays)}); "
                               f"{rules.name} allows {rules.plays_per_turn} a turn", plays=tuple(new_plays)))
    # "After one's first play" (rules.md §2): a mover with melds or lay-offs on the table has made it,
    # whatever the position's melded flag says.
    before_mover = facts.before.mover
    first_play_made = before_mover.melded or bool(before_mover.plays) or bool(before_mover.layoffs)
    if laid_off and rules.layoff_needs_meld and not first_play_made and not new_plays:
        breaches.append(Breach("layoff-before-meld", f"cards laid off on {', '.join(n for n, _, _ in laid_off)} "
                               "before the player's first meld", plays=tuple(n for n, _, _ in laid_off)))
    hand_left = facts.hand_after()
    if rules.keep_one_to_discard and not hand_left and not facts.discards:
        breaches.append(Breach("last-card-played",
                               "the last card was played; with keep_one_to_discard the turn must end "
                               "by discarding it"))
    breaches += discard_breaches(facts, must_discard=bool(hand_left))
    return breaches, {
        "melds": new_plays,
        "layoffs": {name: facts.show(sorted(added.elements())).split() for name, _, added in laid_off},
        "discard": facts.discards[0].notation(facts.deck) if len(facts.discards) == 1 else None,
    }


def play_layers(position: Position, name: PlayName) -> Layers:
    """The cards of play ``name`` by the player whose they are: the owner's meld
    cards (with the owner's own lay-offs on it), and each lay-off under its layer."""
    owner = PlayName(name).owner
    layers: Layers = {owner: plain_counter(position.named_plays()[name].cards)}
    for player in position.players:
        for attached in player.layoffs:
            if attached.target == name:
                layers[player.name] = layers.get(player.name, Counter()) + plain_counter(attached.cards)
    return {layer: cards for layer, cards in layers.items() if cards}


def _layer_changes(before: Layers, after: Layers) -> tuple[Layers, Layers]:
    """Per layer: the cards it lost, and the cards it gained."""
    lost: Layers = {}
    came: Layers = {}
    for layer in set(before) | set(after):
        was, now = before.get(layer, Counter()), after.get(layer, Counter())
        if was - now:
            lost[layer] = was - now
        if now - was:
            came[layer] = now - was
    return lost, came


def layer_breaches(facts: TurnFacts, growth: Growth, before_layers: dict[PlayName, Layers],
                   after_layers: dict[PlayName, Layers]) -> list[Breach]:
    """Cards written in the wrong player's layer (module docstring)."""
    mover = facts.mover
    show = facts.show
    breaches: list[Breach] = []
    for after_name, (origin, _) in growth.grew.items():
        owner = PlayName(after_name).owner
        lost, came = _layer_changes(before_layers[origin] if origin else {}, after_layers[after_name])
        if origin is None and owner != mover:
            came.pop(owner, None)  # a meld laid in another space: meld-not-in-own-space says it
        if origin is not None:  # a new play lost no cards
            for layer, cards in sorted(lost.items()):
                went = [other for other, arrived in sorted(came.items()) if arrived & cards]
                where = ", ".join(_layer_text(other, owner) for other in went) or "off the play"
                breaches.append(Breach(
                    "layoff-moved",
                    f"{show(sorted(cards.elements()))} on {origin} was {_layer_text(layer, owner)} before the turn and "
                    f"is {where} after it; a card on the table keeps its place (a lay-off stays in its layer's space, "
                    "attached to its play)",
                    tuple(c.notation(facts.deck) for c in cards.elements()), (origin, after_name)))
        moved = sum(lost.values(), Counter())
        for layer, cards in sorted(came.items()):
            if layer == mover:
                continue
            from_hand = cards - moved
            moved -= cards
            if not from_hand:
                continue
            shown = show(sorted(from_hand.elements()))
            breaches.append(Breach(
                "layoff-not-in-own-space",
                f"{shown} from {mover}'s hand is {_layer_text(layer, owner, after_name)}; a card {mover} lays off "
                f"lies in {mover}'s space, attached to the play, and scores for {mover} "
                f"(write it under {mover}'s layoffs: \"{origin or after_name} {shown}\")",
                tuple(c.notation(facts.deck) for c in from_hand.elements()), (after_name,)))
    return breaches


def _layer_text(layer: str, owner: str, play: str = "") -> str:
    if layer == owner:
        return f"written in {owner}'s meld{' ' + play if play else ''}"
    return f"listed under {layer}'s layoffs{' on ' + play if play else ''}"
