"""Reading the pictures rummy draws (rummy.svg): their words, and the cards drawn in each place."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

from rummy.position import Position

NS = "{http://www.w3.org/2000/svg}"


def words_of(root: ET.Element) -> str:
    """Every line of text in the picture (a line's cards and bold words are <tspan>s inside it)."""
    return " ".join("".join(t.itertext()) for t in root.iter(f"{NS}text"))


def places(root: ET.Element) -> dict[str, list[str]]:
    """data-place -> the data-card of every card in it (each card's <title> must say the same)."""
    found: dict[str, list[str]] = {}
    for group in root.iter(f"{NS}g"):
        place = group.get("data-place")
        if place is None:
            continue
        assert place not in found, f"place {place} drawn twice"
        cards = []
        for card in group.iter(f"{NS}g"):
            if card.get("class") == "card":
                title = card.find(f"{NS}title")
                assert title is not None and title.text == card.get("data-card")
                cards.append(card.get("data-card") or "")
        found[place] = cards
    return found


def expected_places(position: Position) -> dict[str, Counter[str]]:
    deck = position.rules.deck
    expected: dict[str, Counter[str]] = {}
    for name, play in position.named_plays().items():
        expected[name] = Counter(c.notation(deck) for c in play.cards)
    for player in position.players:
        for attached in player.layoffs:
            expected[f"{attached.target}+{player.name}"] = Counter(c.notation(deck) for c in attached.cards)
        if player.hand is not None:
            expected[f"hand:{player.name}"] = Counter(c.notation(deck) for c in player.hand)
    if position.discard_pile:
        expected["discard"] = Counter(c.notation(deck) for c in position.discard_pile)
    if isinstance(position.stock, tuple):
        expected["stock"] = Counter(c.notation(deck) for c in position.stock)
    if position.upcard is not None:
        expected["upcard"] = Counter([position.upcard.notation(deck)])
    return expected
