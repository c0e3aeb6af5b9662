"""Warnings on a position: input that is legal but probably not meant (docs/formats.md "Warnings").

One home for them: the command line prints each as ``rummy: warning: LINE`` on
stderr, and the web's answers list the same lines under ``warnings``. A
warning changes no answer and no exit code. What the game state does not keep
(a ``melded`` left out, a card written in the other deck's notation) the
reader noted in ``Position.reading``; the rest is asked of the position.
"""

from __future__ import annotations

from rummy.cards import Card, cards_notation
from rummy.errors import quote
from rummy.position import Player, Position
from rummy.rules import DEALS, Ruleset, dealt
from rummy.vocabulary import Phase
from rummy.words import unit

# Places in the other deck's notation warned of, at most; the rest are counted in one more line.
MAX_NOTATION_WARNINGS = 8


def position_warnings(position: Position) -> list[str]:
    """Every warning on the position, one line each (``place: what``, as error lines name places)."""
    reading = position.reading
    prefix = f"{reading.source}: " if reading is not None else ""
    lines = [prefix + line for line in _hand_size_warnings(position)]
    if reading is not None:
        lines += [prefix + line for line in _melded_warnings(position, reading.melded_unstated)]
        lines += [prefix + line for line in _notation_warnings(position, reading.other_notation)]
    return lines


def _hand_size_warnings(position: Position) -> list[str]:
    """A hand larger than the preset deals, beyond what the position shows may have been drawn since
    (``_drawn_since_deal``). A puzzle's hands are made, not dealt: none is warned of."""
    rules = position.rules
    deal = dealt(rules, len(position.players))
    if deal is None or position.puzzle is not None:
        return []
    drawn = _drawn_since_deal(position, deal)
    lines = []
    for player in position.players:
        allowed = deal + drawn + _just_drawn(position, player)
        if player.hand_size > allowed:
            key = "hand" if player.hand is not None else "hand_count"
            lines.append(f"players.{player.name}.{key}: {player.hand_size} {unit(rules)} in {player.name}'s hand, "
                         f"more than {rules.name} deals ({deal} each{_for_players(rules, len(position.players))})"
                         f"{_drawn_words(drawn, rules)}: is that meant?")
    return lines


def _drawn_since_deal(position: Position, deal: int) -> int:
    """The most cards drawn from the stock since the deal, told by the stock the position gives (0
    when it gives none): what a hand may have gained by drawing (a tile rack grows a tile a pass)."""
    stock = position.stock
    if stock is None:
        return 0
    left = stock if isinstance(stock, int) else len(stock)
    return max(0, len(position.rules.deck_cards) - deal * len(position.players) - left)


def _just_drawn(position: Position, player: Player) -> int:
    """The mover of a game that draws first holds this turn's draw too: one card, or the discard-pile
    cards taken (the hot and warm cards) where more."""
    if player.name != position.to_move or position.phase != Phase.PLAY or not position.rules.family.draw_sources:
        return 0
    return max(1, len(player.hot) + len(player.warm))


def _drawn_words(drawn: int, rules: Ruleset) -> str:
    return f" and at most {drawn} {unit(rules)} drawn since, by the stock given" if drawn else ""


def _for_players(rules: Ruleset, players: int) -> str:
    return f" to {players} players" if len(DEALS.get(rules.name, {})) > 1 else ""


def _melded_warnings(position: Position, unstated: tuple[str, ...]) -> list[str]:
    """A player whose ``melded`` is left out, read as not melded, where melding matters."""
    rules = position.rules
    if not rules.melding_matters:
        return []
    if rules.initial_meld:
        needs = f"{{name}}'s first meld needs {rules.meld_threshold(position.hand_number)} points"
    else:
        needs = "{name} must meld before laying off"
    lines = []
    for player in position.players:
        if player.name in unstated and not player.melded:
            lines.append(f"players.{player.name}: {player.name} has not melded (melded = false unless given): "
                         + needs.format(name=player.name) + _plays_note(player))
    return lines


def _plays_note(player: Player) -> str:
    return f" (yet {player.name} has plays on the table: melded = true?)" if player.plays else ""


def _notation_warnings(position: Position, found: tuple[tuple[str, str, tuple[Card, ...]], ...]) -> list[str]:
    """Cards written in the other deck's notation (``7H`` in a tile game), once a place."""
    deck = position.rules.deck
    written = "card" if deck == "tiles" else "tile"
    lines = []
    for place, token, cards in found[:MAX_NOTATION_WARNINGS]:
        shown = cards_notation(cards, deck)
        lines.append(f"{place}: {quote(token)} is {written} notation in a {deck[:-1]} game, read as {shown}")
    more = len(found) - MAX_NOTATION_WARNINGS
    if more > 0:
        lines.append(f"and {more} more place{'s' if more > 1 else ''} in {written} notation")
    return lines
