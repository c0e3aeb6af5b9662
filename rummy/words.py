"""The words of an answer: its verdict and gain, its plan's steps, its draw options, said once for every medium.

``rummy best`` prints them, ``rummy.svg`` draws them and ``rummy sheets``
draws them again from a stored answer: all three take their words from here,
so a step reads the same in a terminal, a picture and a puzzle sheet.

Each function gives a sequence of pieces: a plain string, or a tuple of cards
the medium shows as it shows cards (the terminal colours their notation, a
picture writes it in the cards' ink). A ``Strong`` string is a piece a medium
may set apart (bold): the gain, a verdict. Joined with ``plain``, the pieces
are the words as a pipe reads them.

The words every view of a position shares (``rule_changes``,
``position_facts``, ``player_facts``, ``unit``, ``sort_for_display``...) live
here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from .cards import SUITS, Card, Deck, cards_notation
from .plays import PlayName
from .vocabulary import Action, DrawSource, Status

if TYPE_CHECKING:
    from .answer import Answer
    from .plan import Step
    from .position import DrawTaken, Player, Position
    from .rules import Ruleset
    from .solution import DrawChoice, DrawOption


class Strong(str):
    """Words a medium may set apart (bold): a gain, a verdict."""


Piece = str | tuple[Card, ...]
Words = tuple[Piece, ...]

# The draw options listed (``--json`` lists every one).
OPTIONS_SHOWN = 12
DRAW_OPTIONS_TITLE = "draw options"
DRAW_OPTIONS_NOTE = (" (best first; each valued by the best turn after it, looking one turn ahead, "
                     "from the position before the draw)")


def number(value: float | None) -> str:
    """A gain, bound or value as shown: whole numbers without a fraction, others to two places."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.2f}"
    return str(int(value)) if isinstance(value, float) else str(value)


def plain(words: Sequence[Piece], deck: Deck) -> str:
    """The pieces as one line of text, cards in notation."""
    return "".join(piece if isinstance(piece, str) else cards_notation(piece, deck) for piece in words)


# ------------------------------------------------------------------ verdict
def verdict_words(answer: Answer, timed: bool = True) -> Words:
    """The answer's first line: no turn and why, or what it gains and whether that is proven best.

    ``timed``: with the seconds the search took (a stored answer's picture leaves them out)."""
    solution = answer.solution
    status = solution.status
    if status == Status.NO_LEGAL_TURN:
        return Strong("no legal turn"), f": {solution.reason or ''}"
    if status == Status.DRAW:
        return Strong("draw"), ": nothing can be played; draw a tile"
    if status == Status.UNKNOWN:
        return Strong("no answer"), f": {solution.reason or 'the time limit passed before any turn was found'}"
    what = answer.position.rules.family.gain_words(answer.solution_objective, solution.gain, solution.cards_played)
    proof = "optimal" if status == Status.OPTIMAL else f"feasible, bound {number(solution.bound)} (time limit reached)"
    seconds = f"; {solution.seconds:.3f} s" if timed else ""
    return f"{what} ", Strong(number(solution.gain)), f"  ({proof}{seconds})"


def breakdown_words(answer: Answer) -> Words:
    """Where the gain comes from, "= table points won 25 + hand penalty avoided 34"; nothing where one line would
    only repeat the gain."""
    from .answer import gain_breakdown

    parts = breakdown_parts(gain_breakdown(answer) or ())
    return ("= " + " + ".join(parts),) if len(parts) > 1 else ()


def breakdown_parts(lines: Iterable[tuple[str, float | Fraction | int]]) -> list[str]:
    """The breakdown's lines as read (a line of 0 left out): "table points won 25". The hand penalty
    line (JSON ``what``: "hand penalty") is the penalty the turn avoids when positive ("hand penalty
    avoided 34") and one it adds when negative ("hand penalty -8")."""
    parts = []
    for what, points in lines:
        if not points:
            continue
        shown = number(float(points))
        parts.append(f"hand penalty avoided {shown}" if what == "hand penalty" and points > 0 else f"{what} {shown}")
    return parts


# -------------------------------------------------------------------- steps
def owner_note(name: PlayName, shown: str, rules: Ruleset) -> str:
    """Whose a play of the table after a turn is, where its plan name ``shown`` does not say it:
    "ann's space" for a new play in a space, "now cat's" for a play that changed owner (Robber)."""
    if rules.family.shared_table:
        return ""
    if shown.startswith("new/"):
        return f"{name.owner}'s space"
    if shown != name and PlayName(shown).owner != name.owner:
        return f"now {name.owner}'s"
    return ""


def step_words(step: Step) -> Words:
    """One step of a plan: "steal 7H from bob/1 to new/2, paid by 8H". A play of the table before the
    turn is named with its cards where the plan first names it, "to table/7 (B9 B10 * B11)": a real
    table has no numbers on it."""
    cards: Words = (step.cards,)
    if step.action == Action.REPLACE_JOKER and step.target is not None:  # a replacement names its play
        stood: Words = ()
        shown = step.play_cards(step.target)
        if step.stands_for and shown is None:
            stood = ("standing for ", step.stands_for)
        elif step.stands_for and shown and any(c.is_joker and c.stands_for is None for c in shown):
            stood = ("the joker standing for ", step.stands_for)  # the play's cards do not say it (B2 B3 * B5)
        # House: the joker joins the hand; tile rummy says what the freed joker must do (``why``).
        return ("replace the joker of ", *_play_words(step, step.target, stood), " with ", *cards,
                f" ({step.why or 'the joker goes to your hand'})")
    if step.stands_for:  # a joker played or moved: what it stands for where it goes
        cards += (f" (joker{'s' if len(step.stands_for) > 1 else ''} as ", step.stands_for, ")")
    elif step.stands_as_rank:  # its card is left open, its rank is not
        cards += (f" (joker as {_a_rank(step.stands_as_rank)})",)
    where = f" ({step.space}'s space)" if step.space else ""
    why = f": {step.why}" if step.why else ""
    # A joker taken from a play: what it stood for there.
    source = _play_words(step, step.source, _stood_words(step.stood_for) if step.stood_for else ())
    target = _play_words(step, step.target)
    if step.action == Action.MELD:
        return ("meld ", *cards, f" as {step.target}{where}")
    if step.action == Action.PLAY:
        pays: Words = (", paying for the steal of ", step.pays_for) if step.pays_for else ()
        return ("play ", *cards, " from your hand to ", *target, where, *pays, why)
    if step.action == Action.MOVE:
        return ("move ", *cards, " from ", *source, " to ", *target, f"{where}{why}")
    if step.action == Action.STEAL and step.paid_by is None and step.source is not None:
        # The play keeps its name (the one the table after the turn lists it under); its owner changes.
        return ("steal ", *source, " by adding ", *cards, f" (now {PlayName(step.target).owner}'s)")
    if step.action == Action.LAY_OFF:
        return ("lay off ", *cards, " on ", *target)
    if step.action == Action.STEAL:
        paid: Piece = step.paid_by if step.paid_by else "nothing"
        return ("steal ", *cards, " from ", *source, " to ", *target, f"{where}, paid by ", paid)
    if step.action == Action.DISCARD:
        return ("discard ", *cards)
    return (f"{step.action} ", *cards)


def _play_words(step: Step, name: str | None, note: Words = ()) -> Words:
    """A play as a step names it, with its cards where the step is the first to name it and the step's
    note on it, in one parenthesis the steps reader passes over: "table/1 (R5 R6 *=R7, where it stood
    for R7)"."""
    cards = step.play_cards(name)
    inside: Words = ((cards,) if cards else ()) + ((", ",) if cards and note else ()) + note
    return (name or "", " (", *inside, ")") if inside else (name or "",)


def _stood_words(stood: tuple[Card, ...]) -> Words:
    """What a joker stood for in the play it leaves: "where it stood for 9D", or each card its
    readings gave it: "where it stood for 9D or QD"."""
    pieces: list[Piece] = ["where it stood for "]
    for k, card in enumerate(stood):
        pieces += [", " if 0 < k < len(stood) - 1 else " or " if k else "", (card,)]
    return tuple(pieces)


def _a_rank(rank: str) -> str:
    """The rank with its article: "a 2", "an 8", "an A" (ace), "a K"."""
    return f"an {rank}" if rank in ("8", "11", "18", "A") else f"a {rank}"


# --------------------------------------------------------------------- draws
def option_words(option: DrawOption, draw: DrawChoice) -> Words:
    """What a draw option takes: "the discard pile, the top 2 cards: JH 5D"."""
    cards = option.cards
    if option.source == DrawSource.STOCK:
        if cards:
            return "the stock (its top card is known: ", cards, ")"
        chance = f"; {_scores_chance(float(option.scores_chance))}" if option.scores_chance is not None else ""
        return (f"the stock (expected over {draw.unseen} unseen cards{chance})",)
    if option.source == DrawSource.DISCARD:
        what = "its top card" if option.take == 1 else f"the top {option.take} cards"
        return f"the discard pile, {what}: ", cards
    if option.source == DrawSource.PILE:
        return "the whole discard pile (", cards, "), its top card melded at once"
    if option.source == DrawSource.OPEN:
        return "open the stock, taking its face-up card ", cards
    if option.source == DrawSource.PASS:
        return ("pass (the turn ends, gain 0)",)
    if option.source == DrawSource.DEMAND and option.card is not None:
        chance = f"{float(option.probability):.0%}" if option.probability is not None else "?"
        return "demand ", (option.card,), f" from {option.player} (succeeds with {chance})"
    return (str(option.source),)


def _scores_chance(chance: float) -> str:
    """How likely the turn after a stock draw scores: "the turn always scores", "never", or with a chance."""
    if chance >= 1:
        return "the turn always scores"
    if chance <= 0:
        return "the turn never scores"
    shown = f"{chance:.0%}"
    shown = {"100%": "more than 99%", "0%": "less than 1%"}.get(shown, shown)
    return f"the turn scores something with {shown}"


def more_options_words(draw: DrawChoice) -> str | None:
    """The options past the ``OPTIONS_SHOWN`` listed, in one line (None where every one is listed)."""
    rest = draw.options[OPTIONS_SHOWN:]
    if not rest:
        return None
    return (f"... {len(rest)} more, worth {number(rest[-1].value)} to {number(rest[0].value)} "
            "(--json lists them all)")


def unvalued_words(count: int) -> Words:
    """Draws the time limit left without a value."""
    return (Strong(f"{count} more draw(s) not valued before the time limit"),
            " (left out, and not covered by the bound; a longer --time-limit values them)")


# --------------------------------------------------------- views of a position
def unit(rules: Ruleset) -> str:
    """What the game's pieces are called."""
    return "tiles" if rules.deck == "tiles" else "cards"


def sort_for_display(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """A hand grouped by suit (colour), ranks ascending, jokers last; the file's order is not meaningful."""
    return tuple(sorted(cards, key=lambda c: (c.is_joker, SUITS.index(c.suit) if c.suit else 0, c.rank)))


def rule_changes(rules: Ruleset) -> str:
    """What the position's rules change in their preset, " with jokers = 4, discard = false" (or nothing)."""
    from .rules import ruleset_to_spec

    spec = ruleset_to_spec(rules)
    if not isinstance(spec, dict):
        return ""
    return " with " + ", ".join(f"{key} = {value}" for key, value in spec.items() if key != "preset")


def rules_summary(rules: Ruleset) -> str:
    """The preset's one-line summary (a ruleset of no preset: its family)."""
    from .rules import PRESET_SUMMARIES

    return PRESET_SUMMARIES.get(rules.name, str(rules.family))


def position_facts(position: Position) -> list[str]:
    """The hand's facts under the rules' name: its number, what an initial meld costs, who went out first."""
    rules = position.rules
    facts = []
    if position.hand_number is not None:
        hands = rules.family.hands_in_game
        facts.append(f"hand {position.hand_number} of {hands}" if hands else f"hand {position.hand_number}")
    cost = rules.meld_threshold(position.hand_number)
    if cost:
        facts.append(rules.family.meld_threshold_words.format(cost=cost))
    if position.first_out is not None:
        facts.append(f"first out: {position.first_out}")
    return facts


def table_bag_words(position: Position) -> str | None:
    """Said wherever a position is shown whose table rummy laid out from a bag (rummy.table_bag)."""
    if position.table_bag is None:
        return None
    return f"table arranged by rummy from a bag of {position.table_bag} tiles"


def player_facts(position: Position, player: Player) -> list[str]:
    """What a player's heading says: their side, whether they melded (where it matters), their hand's size."""
    facts = []
    if player.side != player.name:
        facts.append(f"side {player.side}")
    if position.rules.melding_matters:
        facts.append("melded" if player.melded else "not melded")
    facts.append(f"{player.hand_size} in hand")
    return facts


def declared_draw_words(draw: DrawTaken, deck: Deck) -> str:
    """An after-position's ``[turn] draw`` declaration: "from discard, take 2"."""
    what = [f"from {draw.source}"] + ([f"take {draw.take}"] if draw.take is not None else [])
    what += [f"{draw.card.notation(deck)} from {draw.player}"] if draw.card is not None else []
    return ", ".join(what)
