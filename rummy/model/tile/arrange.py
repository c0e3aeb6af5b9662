"""A tile table given as a bag (tiles without their plays), laid out in whole plays.

Arranging the table is the tile model with nothing on the table and the bag
as the hand of a melded player: the most tiles "played" is the most of the
bag that whole plays can hold (``TileModel``, the same runs, books and
jokers as every answer). All of them: the bag's arrangement. Fewer: the bag
cannot be laid out, and the tiles left out are those of one largest
arrangement (``Arrangement.left_out``).

A joker that carries its stand-in (``*=R7``) is pinned to that card: it is
counted as one more tile of the card while arranging, and put back into one
play that holds the card. A bare ``*`` goes wherever a joker fits (the
reader refuses bare jokers in a bag under fixed-joker presets).

Bounded: the reader passes at most a deck's tiles (106) and a time limit
(``rummy.table_bag.ARRANGE_SECONDS``); a search stopped there is not
``proven``.
"""

from __future__ import annotations

from collections import Counter

from ...cards import Card, cards_without
from ...rules import Ruleset
from ...table_bag import Arrangement
from ...vocabulary import Objective, SearchStatus
from .cells import TileModel
from .decode import FinalPlay, decode, layout_key, to_play
from .table import TileSetting, card_of, cell_of, check_supported, count_cells


def arrange_bag(bag: tuple[Card, ...], rules: Ruleset, time_limit: float, /) -> Arrangement:
    check_supported(rules)
    pinned = [card.stands_for for card in bag if card.stands_for is not None]
    naturals, free_jokers = count_cells(card for card in bag if card.stands_for is None)
    for card in pinned:
        naturals[cell_of(card)] += 1
    setting = TileSetting(
        rules=rules, melded=True, table=Counter(), table_jokers=0, hand=naturals, hand_jokers=free_jokers,
        plays=(), jokers=(), threshold=0, max_tiles=None, objective=Objective.TILES,
    )
    model = TileModel(setting, frozenset())
    model.maximize(1)  # nothing to keep: the most tiles laid
    result = model.solve(time_limit, 1, 0)
    if result.values is None:
        return Arrangement((), bag, proven=False)
    final = sorted(decode(setting, result.values), key=layout_key)
    _pin_jokers(final, pinned)
    plays = tuple(to_play(play, setting) for play in final)
    left_out = cards_without(bag, Counter(card.plain() for play in plays for card in play.cards))
    # Every tile laid needs no proof; fewer are the most only when the search says so.
    proven = not left_out or result.status == SearchStatus.OPTIMAL
    return Arrangement(plays, left_out, proven)


def _pin_jokers(final: list[FinalPlay], pinned: list[Card]) -> None:
    """A joker with a stand-in was arranged as a tile of its card: one such tile becomes the joker again."""
    for stand_in in pinned:
        cell = cell_of(stand_in)
        for play in final:
            slot = next((k for k, card in enumerate(play.cards)
                         if play.cells[k] == cell and card is not None and not card.is_joker), None)
            if slot is not None:
                play.cards[slot] = Card.joker(card_of(cell))
                break
