"""What the page's position editor asks the server: each preset's deck and table shape, and
one play's check (its cards read by the position reader, whole or not, its score).

The editor builds positions itself; these answers keep it from knowing any game's rules
(no deck, no play rule is written twice in JavaScript). Bad input raises ``RummyError``
with the line the command line would print.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rummy.cards import Card, cards_notation
from rummy.reader import Reader
from rummy.rules import PRESET_SUMMARIES, PRESETS, Ruleset, dealt, ruleset_from_spec
from rummy.vocabulary import JokerMode

# Where the error lines of a play check say the text came from.
CARDS = "cards"


def presets_report() -> dict[str, Any]:
    """Every preset as the editor needs it: its deck (each card once, with its copies) and the
    shape of its positions (where plays lie, what the piles hold, which keys it takes); and every puzzle
    theme with its title and idea (rummy.themes)."""
    from rummy.reports.page import theme_catalog

    # the themes too: a puzzle's [puzzle] themes are names of these (the editor keeps them as they came)
    return {"presets": [preset_shape(ruleset) for ruleset in PRESETS.values()], "themes": theme_catalog()}


def preset_shape(rules: Ruleset) -> dict[str, Any]:
    family = rules.family
    copies = Counter(rules.deck_cards)
    return {
        "name": rules.name,
        "family": str(family),
        "summary": PRESET_SUMMARIES.get(rules.name, ""),
        "deck": rules.deck,
        "unit": "tiles" if rules.deck == "tiles" else "cards",
        "cards": [{"card": card.notation(rules.deck), "copies": count} for card, count in copies.items()],
        "plays_key": family.plays_key,  # "table" (shared), "space" or "plays" (owned)
        "layoffs": family.layoffs_attached,
        "scores_plays": family.scores_plays,
        "fixed_jokers": rules.joker_mode == JokerMode.FIXED,
        "discard": rules.discard,
        "upcard": family.stock_upcard,
        "draw_phase": family.advises_draws,
        "hands_in_game": family.hands_in_game,
        "sides": family.four_players_in_pairs,
        "melding_matters": rules.melding_matters,
        "min_players": family.min_players,
        "max_players": family.max_players or 8,
        # The cards (tiles) dealt each player, by the number of players ("2": 10): an unknown hand
        # starts at the deal, as the command line assumes, not at 0 (a player who has gone out).
        "deal": {str(n): dealt(rules, n) for n in range(family.min_players, (family.max_players or 8) + 1)},
    }


def play_check_report(rules_spec: Any, text: str) -> dict[str, Any]:
    """The cards of ``text`` read as a position's play is (the same reader, the same messages),
    and the play they make under the rules: whole or not, its score, what its jokers stand for."""
    from rummy.plays import jokers_undecided, readings
    from rummy.scoring import meld_value, play_score

    rules = _rules(rules_spec)
    cards = read_cards(rules, text)
    found = readings(cards, rules) if cards else ()
    whole = bool(found)
    undecided = whole and rules.joker_mode == JokerMode.FIXED and any(
        c.is_joker and c.stands_for is None for c in cards) and jokers_undecided(found)
    stand_ins = sorted({cards_notation(r.joker_stand_ins(), rules.deck) for r in found if r.joker_stand_ins()})
    return {
        "cards": [card.notation(rules.deck) for card in cards],
        "whole": whole,
        "ordered": [card.notation(rules.deck) for card in found[0].ordered()] if whole else None,
        "score": play_score(cards, rules) if whole and rules.family.scores_plays else None,
        "meld_value": meld_value(cards, rules) if whole and rules.melding_matters else None,
        "stand_in_needed": undecided,  # a fixed joker the play leaves open must say its card (*=R7)
        "stand_ins": stand_ins,  # what the jokers may stand for, one string per reading
    }


def read_cards(rules: Ruleset, text: str) -> tuple[Card, ...]:
    """``text``'s cards, read as a position's hand is: every unknown card is one error line."""
    reader = Reader(CARDS)
    reader.rules = rules  # unknown cards are told in this deck's notation
    cards = reader.cards(text, "")
    if reader.card_errors:
        raise reader.all_errors()
    return cards


def _rules(spec: Any) -> Ruleset:
    from rummy.errors import PositionError, RulesError

    try:
        return ruleset_from_spec(spec)
    except RulesError as error:
        raise PositionError("rules", str(error)) from None
