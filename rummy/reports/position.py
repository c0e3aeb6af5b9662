"""``rummy show``'s answer: a position read from its text, and the lines that draw it.

Plays carry the names move plans use (``ann/2``, ``table/3``) and are
printed in play order, so what ``show`` prints can be read next to a plan
from ``rummy best``.
"""

from __future__ import annotations

from rummy.end_states import end_state_or_draw_from_text, is_answer
from rummy.errors import PlayNotWhole
from rummy.plays import PlayName, is_whole
from rummy.position import Player, Position, position_data
from rummy.reports.lines import Styled, card_text, cards_text, text
from rummy.reports.puzzle import puzzle_lines
from rummy.scoring import play_score
from rummy.words import (
    declared_draw_words,
    player_facts,
    position_facts,
    rule_changes,
    rules_summary,
    sort_for_display,
    table_bag_words,
    unit,
)

NOT_WHOLE = ("  not a whole play", "bold red")


def position_from_text(text: str, source: str, kind: str, after: bool = False) -> Position:
    """A position as ``rummy show`` reads it (``kind``: toml, json or code). A position to play from is read
    strictly. An after-position (``after``, any text with a [turn] table, or a ``best --json`` answer) is
    read as ``check`` reads AFTER: it may hold the breaches ``check`` is there to report, so it is drawn
    as it is, with plays that are not whole marked."""
    if kind == "code":  # unpacked once, then read as its JSON
        from rummy.position_code import code_json

        text, kind = code_json(text, source), "json"
    if after or is_answer(text, kind, source):
        # As check reads AFTER: a position, or the JSON of 'best --json' (a puzzle's NAME.solution.json), its after.
        position_after, _ = end_state_or_draw_from_text(text, source, kind)
        assert position_after is not None  # only a random draw has none, and it is not asked for here
        return position_after
    # Read once (a table given as a bag is arranged by a search of up to 10 s), and strictly unless it has
    # a [turn]: a bag beyond the deck's counts is then refused before any search.
    data = position_data(text, source, kind)
    if "turn" in data:
        return Position.from_data(data, source, strict=False, mover_may_be_hidden=True)
    try:  # a hidden mover is shown: a position waiting for that player's turn to be entered
        return Position.from_data(data, source, mover_may_be_hidden=True)
    except PlayNotWhole as error:
        # A play that is not whole (the counts of the deck are no after-position's business): the file may be one.
        raise PlayNotWhole(error.place, f"{error.problem} (an after-position? 'rummy show --after' draws it)") from None


# --------------------------------------------------------------- drawing
def show_lines(position: Position) -> list[Styled | str]:
    """What ``rummy show`` prints: a puzzle's statement on top (a puzzle states itself), then the position."""
    return puzzle_lines(position) + position_lines(position)


def position_lines(position: Position) -> list[Styled | str]:
    lines: list[Styled | str] = header_lines(position)
    if position.rules.family.shared_table:
        lines.append("")
        lines.extend(shared_table_lines(position))
    for player in position.players:
        lines.append("")
        lines.extend(player_lines(position, player))
    lines.append("")
    lines.extend(pile_lines(position))
    if position.turn is not None:
        lines.append("")
        lines.extend(turn_lines(position))
    return lines


def header_lines(position: Position) -> list[Styled | str]:
    rules = position.rules
    lines: list[Styled | str] = [
        text(("rules: ", "bold"), (rules.name, "bold cyan"), rule_changes(rules), f"  ({rules_summary(rules)})")
    ]
    facts = position_facts(position)
    if facts:
        lines.append(", ".join(facts))
    lines.append(text(("to move: ", "bold"), (position.to_move, "bold green"), f" ({position.phase} phase)"))
    return lines


def player_lines(position: Position, player: Player) -> list[Styled | str]:
    rules = position.rules
    deck = rules.deck
    facts = player_facts(position, player)
    is_mover = player.name == position.to_move
    name_style = "bold green" if is_mover else "bold"
    lines: list[Styled | str] = [
        text((player.name, name_style), ("  (to move)" if is_mover else ""), "  " + ", ".join(facts))
    ]
    if player.hand is None:
        lines.append(f"  hand  {player.hand_count} {unit(rules)}, not known")
    else:
        hand = sort_for_display(player.hand)
        shown = cards_text(hand, deck, hot=player.hot, warm=player.warm) if hand else text("(empty)")
        lines.append(text("  hand  ", shown))
    if player.hot:
        lines.append(text("  hot   ", cards_text(player.hot, deck), "  (must be played this turn)"))
    if player.warm:
        lines.append(text("  warm  ", cards_text(player.warm, deck), "  (may not be discarded this turn)"))
    if not rules.family.shared_table:
        lines.extend(owned_play_lines(position, player))
    return lines


def owned_play_lines(position: Position, player: Player) -> list[Styled | str]:
    """A player's space or owned plays, each with its score and lay-offs."""
    rules = position.rules
    named = {name: play for name, play in position.named_plays().items() if PlayName(name).owner == player.name}
    label = rules.family.plays_key
    if not named:
        return [f"  {label}: empty"]
    scored = rules.family.scores_plays
    width = max(len(name) for name in named)
    lines: list[Styled | str] = []
    total = 0
    for name, play in named.items():
        cards = position.play_with_layoffs(name)
        line = text(f"  {name.ljust(width)}  ", cards_text(play.ordered(rules), rules.deck))
        if not is_whole(cards, rules):
            line += NOT_WHOLE
        elif scored:
            score = play_score(cards, rules)
            total += score
            line += f"  {score} points"
        lines.append(line)
        for layer, attached in position.layoffs_on(name):
            lines.append(text(" " * (width + 4) + "+ ", cards_text(attached, rules.deck), f"  laid off by {layer}"))
    if rules.family.scores_by_space:
        lines.append(f"  space total: {total} points")
    return lines


def shared_table_lines(position: Position) -> list[Styled | str]:
    rules = position.rules
    named = position.named_plays()
    if not named:
        return [text(("table", "bold"), ": empty")]
    width = max(len(name) for name in named)
    lines: list[Styled | str] = [text(("table", "bold"), f"  {len(named)} plays")]
    arranged = table_bag_words(position)
    if arranged:
        lines.append(text((f"  ({arranged})", "italic")))
    for name, play in named.items():
        line = text(f"  {name.ljust(width)}  ", cards_text(play.ordered(rules), rules.deck))
        lines.append(line if is_whole(play.cards, rules) else line + NOT_WHOLE)
    return lines


def pile_lines(position: Position) -> list[Styled | str]:
    rules = position.rules
    deck = rules.deck
    lines: list[Styled | str] = []
    # Tile rummy has no discard pile; say nothing about one unless the file gives it.
    if rules.discard or position.discard_pile:
        discard = cards_text(position.discard_pile, deck) if position.discard_pile else text("empty")
        lines.append(text(("discard", "bold"), " (bottom to top): ", discard))
    stock = position.stock
    if stock is None:
        lines.append(text(("stock", "bold"), ": not given"))
    elif isinstance(stock, int):
        lines.append(text(("stock", "bold"), f": {stock} {unit(rules)}"))
    else:
        lines.append(text(("stock", "bold"), f" ({len(stock)} {unit(rules)}, top first): ", cards_text(stock, deck)))
    if position.upcard is not None:
        lines.append(text(("upcard", "bold"), " (the stock's face-up top card; the stock is not opened): ",
                          cards_text((position.upcard,), deck)))
    return lines


def turn_lines(position: Position) -> list[Styled | str]:
    """The [turn] declarations of an after-position (what the end state cannot show)."""
    turn = position.turn
    assert turn is not None
    rules = position.rules
    lines: list[Styled | str] = [text(("turn", "bold"), " (declared)")]
    if turn.meld is None:
        lines.append("  meld: not declared")
    elif not turn.meld:
        lines.append("  meld: none")
    else:
        melds = [cards_text(play.ordered(rules), rules.deck) for play in turn.meld]
        lines.append(text("  meld: ", text(" | ").join(melds)))
    if turn.replaced is None:
        lines.append("  replaced: not declared")
    elif not turn.replaced:
        lines.append("  replaced: none")
    else:
        pieces = [text(f"{r.play} ", card_text(r.card, rules.deck)) for r in turn.replaced]
        lines.append(text("  replaced: ", text(", ").join(pieces)))
    if turn.discard is not None:
        lines.append(text("  discard: ", card_text(turn.discard, rules.deck)))
    else:
        lines.append("  discard: none" if turn.discard_declared else "  discard: not declared")
    if turn.draw is not None:
        lines.append(f"  draw: {declared_draw_words(turn.draw, rules.deck)}")
    return lines
