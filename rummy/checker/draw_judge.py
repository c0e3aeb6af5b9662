"""Turns judged from the draw phase: House Rummy and lay-off rummy (rules.md §5 "Draw advice", §8).

``check`` hands a draw-phase BEFORE to the family's draw judge
(``Family.draw_judge``): for these families, ``judge_drawn_turn`` here
(Robber Rummy judges its own draw, checker/robber.py). The draw is applied
first (``rummy.checker.draw_apply``, which says what each draw does): the
result is the play-phase position right after it, the cards drawn in the
mover's hand with their temperatures, the piles updated. The rest of the turn
is judged from there by the family's own judge, exactly as ``check`` judges a
play-phase turn. Breaches of the draw itself come first in the verdict.

**Which draw.** ``[turn] draw`` (``after.turn.draw``) declares it; where it
leaves out the depth taken from the discard pile, or a demand's card or
player, the end state fills them in. Without a declaration, every draw the
end state may follow from is a reading, and the turn is legal when one of
them is (``reading["draw"]`` says which, ``inferred`` that it was read):
the stock (not while the upcard shows), ``open`` and ``pass`` (only while it
shows), every depth of the discard pile that leaves the pile after the turn
(with at most the discard on top), and a demand from each player whose hand
lost one card. Readings are tried in the order of draw advice (stock, open,
discard, demand, pass); the first legal one wins, else the one with the
fewest breaches. A failed demand (the turn ends with nothing moved) is read
only when declared, and, like an undeclared pass, only where nothing moved.

**Gain.** The family's gain of the play phase, measured from the position
right after the draw, minus what the cards drawn cost in hand
(``Family.hand_cost``): the draw option's value of rules.md §5, as ``best``
measures it. A pass or a failed demand is worth 0.

**A random draw answered alone** (``best --json`` with ``after`` null: a stock
of unknown cards, a demand from a hidden hand): ``judge_random_draw`` judges
the draw by itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..cards import Card
from ..errors import PositionError, quote
from ..position import DrawTaken, Player, Position
from ..vocabulary import DrawSource, Phase
from .draw_apply import (
    AppliedDraw,
    appeared_card,
    apply_draw_taken,
    demand_rule_breaches,
    discard_rule_breaches,
    empty_stock,
    failed_demand,
    no_such_draw,
    notation_in,
    same_card,
    same_stock,
    stock_rule_breaches,
    upcard_rule_breaches,
)
from .facts import PILE_CHANGED, check_same_game, gather_facts, plain_counter
from .gain import breakdown, turn_gain
from .hidden import hidden_witness
from .verdict import Breach, Verdict, dedupe, json_number

__all__ = ["draw_candidates", "judge_drawn_turn", "judge_random_draw", "random_draw_sources"]


# ------------------------------------------------------------------ the turn
def judge_drawn_turn(before: Position, after: Position) -> Verdict:
    """Judge the turn from the draw-phase ``before`` to ``after``: the draw, then the play phase."""
    _draw_sources(before)
    declared = after.turn.draw if after.turn is not None else None
    readings = (_declared_readings(before, after, declared) if declared is not None
                else _inferred_readings(before, after))
    best: tuple[list[Breach], dict[str, Any]] | None = None
    for applied in readings:
        if applied.if_unchanged and best is not None and _changes(before, after, applied):
            continue
        breaches, reading = _judge(before, after, applied)
        if best is None or len(breaches) < len(best[0]):
            best = (breaches, reading)
        if not breaches:
            break
    assert best is not None, "every draw-phase turn has at least one reading"
    return Verdict(not best[0], tuple(best[0]), best[1])


def _judge(before: Position, after: Position, applied: AppliedDraw) -> tuple[list[Breach], dict[str, Any]]:
    rules = before.rules
    family = rules.family
    draw = _draw_data(before, applied)
    if applied.start is None:  # the draw ended the turn
        check_same_game(replace(before, phase=Phase.PLAY, turn=None), after)
        breaches = dedupe([*applied.breaches, *_unchanged_breaches(before, after, applied)])
        return breaches, {"draw": draw, "inferred": list(applied.inferred), "gain": 0}
    start, end = applied.start, after
    count_breaches: tuple[Breach, ...] = ()
    hidden_note = None
    if start.mover.hand is None:  # a hidden mover: the play judged through a witness hand, as in play_phase
        witness = hidden_witness(start, after)
        start, end, count_breaches, hidden_note = witness.before, witness.after, witness.breaches, witness.note
    facts = gather_facts(start, end)
    if applied.pile_explained:
        facts.breaches = [b for b in facts.breaches if b.message != PILE_CHANGED]
    judge = family.judge_function()
    family_breaches, family_reading = judge(facts)
    # JSON data whose keys depend on the family (Verdict.reading), the draw read added.
    reading: dict[str, Any] = dict(family_reading)
    reading["draw"] = draw
    if applied.inferred:
        reading["inferred"] = [*applied.inferred, *reading.get("inferred", [])]
    if hidden_note is not None:
        reading["hidden_hand"] = hidden_note
    breaches = dedupe([*applied.breaches, *count_breaches, *facts.breaches, *family_breaches])
    cost = family.hand_cost(applied.drawn, rules)
    gain = turn_gain(start, end) - cost
    reading["gain"] = json_number(gain)
    lines = breakdown(start, end, drawn=applied.drawn)
    reading["breakdown"] = [{"what": what, "points": json_number(points)} for what, points in lines]
    return breaches, reading


def _draw_data(before: Position, applied: AppliedDraw) -> dict[str, Any]:
    """The draw as the verdict's reading shows it: ``from`` (and ``draw``, as Robber's), the
    declaration's fields, the cards drawn (top first) and their temperatures."""
    deck = before.rules.deck
    data: dict[str, Any] = {"draw": applied.taken.source, **applied.taken.to_data(deck)}
    data["from"] = applied.taken.source
    if applied.drawn:
        data["cards"] = [c.notation(deck) for c in applied.drawn]
    if applied.hot:
        data["hot"] = [c.notation(deck) for c in applied.hot]
    if applied.warm:
        data["warm"] = [c.notation(deck) for c in applied.warm]
    if applied.failed:
        data["failed"] = True
    return data


# ---------------------------------------------------------------- readings
def _declared_readings(before: Position, after: Position, declared: DrawTaken) -> Iterator[AppliedDraw]:
    _check_declared(before, declared)
    source = declared.source
    if source == DrawSource.DISCARD and declared.take is None:
        for take in _pile_takes(before, after) or [1]:
            yield apply_draw_taken(before, replace(declared, take=take), after, ("draw take inferred",))
        return
    if source == DrawSource.DEMAND and (declared.card is None or declared.player is None):
        matches = [c for c in _demand_candidates(before, after)
                   if (declared.card is None or c.card == declared.card.plain())
                   and (declared.player is None or c.player == declared.player)]
        if not matches:
            raise PositionError("after: turn.draw", "a demand names the card and the player asked; the end state "
                                "shows no player's hand short of one card to read them from")
        for match in matches:
            yield apply_draw_taken(before, match, after, ("draw card and player inferred",))
        return
    yield apply_draw_taken(before, declared, after)
    if source == DrawSource.DEMAND:
        yield failed_demand(before, declared)


def _inferred_readings(before: Position, after: Position) -> Iterator[AppliedDraw]:
    for taken in draw_candidates(before, after):
        applied = apply_draw_taken(before, taken, after, ("draw inferred",))
        yield replace(applied, if_unchanged=True) if applied.start is None else applied


def draw_candidates(before: Position, after: Position) -> list[DrawTaken]:
    """The draws ``after`` may follow from, in the order they are read (module docstring).

    Where none fits the end state, every draw the rules give (the stock, each
    depth of the pile), so that the breaches say why none fits.
    """
    family = before.rules.family
    sources = _draw_sources(before)
    shows_upcard = before.upcard is not None
    found: list[DrawTaken] = []
    if DrawSource.STOCK in sources and not shows_upcard and not empty_stock(before.stock):
        found.append(DrawTaken(DrawSource.STOCK))
    if DrawSource.OPEN in sources and shows_upcard:
        found.append(DrawTaken(DrawSource.OPEN))
    if DrawSource.DISCARD in sources:
        found += [DrawTaken(DrawSource.DISCARD, take=take) for take in _pile_takes(before, after)]
    if DrawSource.DEMAND in sources and before.rules.demand:
        found += _demand_candidates(before, after)
    if DrawSource.PASS in sources and shows_upcard:
        found.append(DrawTaken(DrawSource.PASS))
    if found:
        return found
    fallback: list[DrawTaken] = []
    if DrawSource.STOCK in sources:
        fallback.append(DrawTaken(DrawSource.STOCK))
    if DrawSource.DISCARD in sources:
        most = min(len(before.discard_pile), family.discard_take_max or len(before.discard_pile))
        fallback += [DrawTaken(DrawSource.DISCARD, take=take) for take in range(1, most + 1)]
    return fallback or [DrawTaken(sources[0])]


def _pile_takes(before: Position, after: Position) -> list[int]:
    """The depths N whose taking leaves the pile after the turn: what was left, at most the discard on top."""
    pile = [c.plain() for c in before.discard_pile]
    now = [c.plain() for c in after.discard_pile]
    most = before.rules.family.discard_take_max or len(pile)
    takes = []
    for take in range(1, min(most, len(pile)) + 1):
        rest = pile[: len(pile) - take]
        if now[: len(rest)] == rest and len(rest) <= len(now) <= len(rest) + 1:
            takes.append(take)
    return takes


def _demand_candidates(before: Position, after: Position) -> list[DrawTaken]:
    """A demand from each other player whose hand lost exactly one card: that card (a known hand),
    or the one card that came to the mover's side (a hidden hand)."""
    found: list[DrawTaken] = []
    for player in before.players:
        if player.name == before.to_move:
            continue
        now = after.player(player.name)
        if player.hand is not None and now.hand is not None:
            lost = plain_counter(player.hand) - plain_counter(now.hand)
            if sum(lost.values()) == 1 and not plain_counter(now.hand) - plain_counter(player.hand):
                found.append(DrawTaken(DrawSource.DEMAND, card=next(iter(lost)), player=player.name))
        elif now.hand_size == player.hand_size - 1:
            card = appeared_card(before, after)
            if card is not None:
                found.append(DrawTaken(DrawSource.DEMAND, card=card, player=player.name))
    return found


def _check_declared(before: Position, declared: DrawTaken) -> None:
    """A declaration that names no draw of the family, or fields of another draw, is bad input."""
    family = before.rules.family
    if declared.source not in family.draw_sources:
        raise no_such_draw(before, declared.source, "after: turn.draw.from")
    if declared.take is not None and declared.source not in (DrawSource.DISCARD, DrawSource.STOCK):
        raise PositionError("after: turn.draw.take", f"only a draw from the discard pile or the stock (House Epic's "
                            f"re-entry: 3) takes a number of cards, not {quote(declared.source)}")
    if (declared.card is not None or declared.player is not None) and declared.source != DrawSource.DEMAND:
        raise PositionError("after: turn.draw",
                            f"only a demand names a card and a player, not {quote(declared.source)}")
    if declared.player is not None and declared.player not in {p.name for p in before.players}:
        raise PositionError("after: turn.draw.player", f"{quote(declared.player)} is not a player")


def _ending(before: Position, applied: AppliedDraw) -> str:
    taken = applied.taken
    if taken.source == DrawSource.PASS:
        return "a pass"
    return f"the failed demand for {notation_in(before)([taken.card] if taken.card else [])} from {taken.player}"


def _changes(before: Position, after: Position, applied: AppliedDraw) -> list[str]:
    """What moved, where a draw that ends the turn (a pass, a failed demand) moves nothing."""
    show = notation_in(before)
    mover = before.to_move
    changed: list[str] = []
    was, now = plain_counter(before.mover.hand or ()), plain_counter(after.player(mover).hand or ())
    if was != now:
        parts = [f"{word} {show(sorted(cards.elements()))}"
                 for word, cards in (("gained", now - was), ("lost", was - now)) if cards]
        changed.append(f"{mover}'s hand ({' and '.join(parts)})")
    if before.table_key() != after.table_key() or _layoffs(before) != _layoffs(after):
        changed.append("the table")
    if [c.plain() for c in before.discard_pile] != [c.plain() for c in after.discard_pile]:
        changed.append("the discard pile")
    if not same_stock(before.stock, after.stock):
        changed.append("the stock")
    if not same_card(before.upcard, after.upcard):
        upcard = before.upcard
        changed.append(f"the upcard ({show([upcard])} stays face up on the stock)" if upcard is not None
                       else "the upcard")
    for player in before.players:
        if player.name != mover and _hand_changed(player, after.player(player.name)):
            changed.append(f"{player.name}'s hand")
    turn = after.turn
    if turn is not None and turn.discard is not None:
        changed.append(f"the turn declares the discard {turn.discard.notation(before.rules.deck)}")
    if turn is not None and turn.meld:
        changed.append("the turn declares a meld")
    return changed


def _unchanged_breaches(before: Position, after: Position, applied: AppliedDraw) -> list[Breach]:
    """A pass or a failed demand ends the turn with no card moved: the end state is the position before."""
    changed = _changes(before, after, applied)
    if not changed:
        return []
    return [Breach("draw-mismatch", f"{_ending(before, applied)} ends the turn with no card moved and no discard, but "
                   f"the end state differs: {'; '.join(changed)}")]


# --------------------------------------------------------- a random draw alone
def judge_random_draw(before: Position, draw: DrawTaken) -> Verdict:
    """A random draw answered without the turn after it (``best --json``'s ``after`` null).

    Only a draw whose outcome is unknown is answered that way: the stock when
    its cards are not listed, a demand from a hidden hand. Its turn cannot be
    judged before the card is known, so the draw alone is: legal unless the
    draw itself is not (an empty stock, a stock not opened, a demand the rules
    do not allow or for a player's last card). A certain draw without the
    turn after it (the discard pile, Robber's pile, the upcard, a pass, a
    listed stock, a demand from a known hand) is bad input, as is a draw the
    family does not have.
    """
    family = before.rules.family
    sources = random_draw_sources(before)
    source = draw.source
    if source not in sources:
        raise no_such_draw(before, source)
    deck = before.rules.deck
    data: dict[str, Any] = {"draw": source, **draw.to_data(deck)}
    data["from"] = source
    if source == DrawSource.PILE:
        raise PositionError("after", "is null, but taking the pile is a certain draw: give the position after the "
                            "turn (its top card is melded at once) to have it judged")
    if source == DrawSource.STOCK:
        breaches = stock_rule_breaches(before)
        stock = before.stock
        if not breaches and isinstance(stock, tuple) and stock:
            raise PositionError("after", f"is null, but the stock is listed: its top card {stock[0].notation(deck)} "
                                "is a certain draw; give the position after the turn to have it judged")
        judged = "the draw alone: the stock's card is unknown, so the turn after it is not judged"
    elif source == DrawSource.DEMAND:
        if draw.card is None or draw.player is None:
            raise PositionError("draw", "a demand names the card and the player asked")
        card, name = draw.card.plain(), draw.player
        if name not in {p.name for p in before.players}:
            raise PositionError("draw.player", f"{quote(name)} is not a player")
        breaches = demand_rule_breaches(before, card, name)
        shown = card.notation(deck)
        if not breaches:
            asked = before.player(name)
            if asked.hand is not None:
                raise PositionError("after", f"is null, but {name}'s hand is known, so the demand for {shown} is a "
                                    "certain draw; give the position after the turn to have it judged")
            unseen = before.unseen_cards()
            if unseen[card] <= 0:
                raise PositionError("after", f"is null, but {shown} is in sight, so it cannot be in {name}'s hand: "
                                    "the demand surely fails; give the position after the turn to have it judged")
            chance = min(Fraction(asked.hand_size * unseen[card], sum(unseen.values())), Fraction(1))
            data["probability"] = round(float(chance), 4)
        judged = f"the draw alone: whether {name} holds {shown} is unknown, so the turn after it is not judged"
    else:
        if source == DrawSource.DISCARD:
            breaches = discard_rule_breaches(before, draw.take or 1)
            what = f"taking {draw.take or 1} from the discard pile"
        else:
            breaches = upcard_rule_breaches(before, source)
            what = "opening the stock" if source == DrawSource.OPEN else "a pass"
        if not breaches:
            raise PositionError("after", f"is null, but {what} is a certain draw: give the position after the turn "
                                f"({family.long_name}) to have it judged")
        judged = "the draw alone"
    return Verdict(not breaches, tuple(breaches), {"draw": data, "judged": judged})


def random_draw_sources(before: Position) -> tuple[DrawSource, ...]:
    """The draws of ``before``'s family; bad input where ``before`` has no draw to judge alone."""
    sources = before.rules.family.draw_sources
    if before.phase != Phase.DRAW or not sources:
        raise PositionError("after", "has no position after the turn; only a random draw from a draw-phase position "
                            "(a stock of unknown cards, a demand from a hidden hand) is judged without one")
    return sources


def _draw_sources(before: Position) -> tuple[DrawSource, ...]:
    sources = before.rules.family.draw_sources
    if before.phase != Phase.DRAW or not sources:
        raise PositionError("before: phase", f"{before.phase!r}: the draw is judged from a draw-phase position "
                            f"(phase = \"draw\") of a game with draws, not {before.rules.name}")
    return sources


# ----------------------------------------------------------------- helpers
def _layoffs(position: Position) -> list[tuple[str, str, tuple[Card, ...]]]:
    return sorted((p.name, a.target, tuple(sorted(c.plain() for c in a.cards)))
                  for p in position.players for a in p.layoffs)


def _hand_changed(was: Player, now: Player) -> bool:
    if was.hand is not None and now.hand is not None:
        return plain_counter(was.hand) != plain_counter(now.hand)
    return was.hand_size != now.hand_size
