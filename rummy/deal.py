"""A hand dealt from a seeded, shuffled deck: the full-knowledge position a game starts from.

``deal(rules, players, seed)`` deals exactly as the game does (docs/formats.md
"Dealt positions"): the ruleset's deck shuffled by ``random.Random(seed)``
(``rummy.generator.deck.DeckPool``, the deck every random position is dealt
from), one card at a time round the table starting on the dealer's left, as
many each as the preset deals (``rummy.rules.dealt``); then the piles as the
family starts them:

- House: the next card is the stock's face-up top card (``piles.upcard``), the
  stock not opened, no discard pile; the draw phase;
- Robber and lay-off rummy: the next card is turned face up to start the
  discard pile; the draw phase;
- tile rummy: no discard pile; the play phase.

What is left is the stock, listed top first, and every hand is known: a
position to play on with full knowledge (self-play, a game record's start).
The dealer is the last seat for the first hand and passes to the left after
each hand (seeds/house-rummy.txt §5), so the first to move in hand ``hand``
is seat ``(hand - 1) mod players``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import cards_notation
from .errors import RulesError, quote
from .generator.deck import DeckPool
from .position import Position
from .rules import Ruleset, dealt, ruleset_to_spec
from .vocabulary import Phase

MAX_SEED = 2**63 - 1  # as a game record's ``deal`` (rummy.games.record)


def deal(rules: Ruleset, players: Sequence[str], seed: int, hand: int = 1) -> Position:
    """The position hand number ``hand`` (from 1) starts from, dealt from the deck shuffled by ``seed``.

    RulesError where the rules deal no hand to this many players (an unknown count, too few or too
    many for the family), or where the seed or the hand number is out of range."""
    family = rules.family
    count = len(players)
    if count < max(2, family.min_players) or (family.max_players is not None and count > family.max_players):
        most = family.max_players or "any number of"
        raise RulesError(f"{rules.name} is played by {max(2, family.min_players)} to {most} players, not {count}")
    if len(set(players)) != count:
        raise RulesError(f"a player is named twice in {', '.join(players)}")
    each = dealt(rules, count)
    if each is None:
        raise RulesError(f"{rules.name}: how many cards to deal {count} players is not known (rummy.rules.DEALS)")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise RulesError(f"seed: expected a whole number from 0 to {MAX_SEED}, got {quote(seed)}")
    if family.hands_in_game is not None and not 1 <= hand <= family.hands_in_game:
        raise RulesError(f"hand {hand}: a game of {rules.name} has hands 1 to {family.hands_in_game}")
    if hand < 1:
        raise RulesError(f"hand {hand}: hands count from 1")
    turned_up = 1 if family.stock_upcard or family.draw_judge is not None else 0
    if each * count + turned_up >= len(rules.deck_cards):  # a stock to draw from is left, as in every game
        raise RulesError(f"{rules.name}: {count} players of {each} {_cards(rules)} each need more than the "
                         f"{len(rules.deck_cards)} of the deck")
    pool = DeckPool(rules, random.Random(seed))
    first = (hand - 1) % count
    seats = [players[(first + k) % count] for k in range(count)]  # dealing order: the dealer's left first
    hands: dict[str, list[str]] = {name: [] for name in players}
    for index, card in enumerate(pool.draw(each * count)):
        hands[seats[index % count]].append(card.notation(rules.deck))
    piles: dict[str, Any] = {"discard": ""}
    if family.stock_upcard:
        piles["upcard"] = pool.draw(1)[0].notation(rules.deck)
    elif family.draw_judge is not None:  # a family with a draw phase turns a card up for the discard pile
        piles["discard"] = cards_notation(pool.draw(1), rules.deck)
    piles["stock"] = cards_notation(pool.cards, rules.deck)
    data: dict[str, Any] = {"rules": ruleset_to_spec(rules)}
    if family.hands_in_game is not None:
        data["hand_number"] = hand
    data.update({
        "to_move": seats[0],
        "phase": str(Phase.DRAW if family.draw_judge is not None else Phase.PLAY),
        "players": {name: {"melded": False, "hand": " ".join(hands[name]),
                           **({} if family.shared_table else {family.plays_key: []})} for name in players},
        "piles": piles,
    })
    return Position.from_data(data, f"deal {seed}")


def _cards(rules: Ruleset) -> str:
    return "tiles" if rules.deck == "tiles" else "cards"


__all__ = ["MAX_SEED", "deal"]
