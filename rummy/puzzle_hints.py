"""Hints for a puzzle, from its answer, four levels deep, each telling a little more (issue 29 §5).

1. the idea: the themes the best turn needs (``rummy.themes``: each one's title
   and idea, from the statement's ``themes`` or detected from the turn), and
   the aim (the target gain; tiles: the task's own words);
2. the key card or play: the one whose move makes the turn work (the joker
   freed, the card stolen first, the play taken apart, the warm card kept...);
3. a first move that can be made on its own: the shortest start of the
   official plan after which the table is all whole plays and the checker
   finds nothing wrong but what the rest of the turn still has to do (the
   discard, a hot card);
4. the whole turn, its steps numbered, in the notation ``rummy check`` reads.

No level below 3 tells how many cards or tiles the turn plays (that gives
going out away). ``hints(position, after, gain, level)`` gives the levels up
to ``level``, never more. The answer comes from the caller (``rummy hint``
reads the puzzle's ``NAME.solution.json``, checked by the checker, or
solves); its meld is read as laid (``rummy.meld_as_laid``), as the official
plan is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import combinations

from .cards import Card, cards_notation
from .checker import check
from .errors import RummyError
from .meld_as_laid import meld_as_laid
from .plan import HAND, Plan, Step, make_plan
from .plays import PlayName, is_whole
from .position import Position
from .themes import THEMES, Theme, themes_of
from .turn_steps import read_steps, step_text, steps_text
from .vocabulary import Action, DrawSource, Phase, PuzzleKind
from .words import number

LEVELS = (1, 2, 3, 4)

# What the checker may still find wrong with the start of a turn: what only its end does (the discard,
# playing a hot card). Anything else (a play not whole, an unpaid steal, a meld too small) means the
# start cannot be made on its own.
UNFINISHED = frozenset({"missing-discard", "hot-card-unplayed"})
# Sets of one to three final plays tried as a first move built at once, at most (each costs one reading
# and one check; a bound on the work, not the clock).
MOST_BUILDS_TRIED = 300


@dataclass(frozen=True)
class Hint:
    level: int
    text: str

    def to_data(self) -> dict[str, object]:
        return {"level": self.level, "text": self.text}


@dataclass(frozen=True)
class _Answer:
    before: Position
    after: Position
    plan: Plan
    gain: float | int
    themes: tuple[Theme, ...]

    @property
    def card(self) -> str:
        return "tile" if self.before.rules.deck == "tiles" else "card"

    def show(self, cards: tuple[Card, ...] | list[Card]) -> str:
        return cards_notation(tuple(cards), self.before.rules.deck)

    def play(self, name: str) -> str:
        """A play of the table before the turn, with its cards (a real table has no numbers on its plays)."""
        return f"{name} ({self.show(self.before.play_with_layoffs(name))})"


def hints(before: Position, after: Position, gain: float | int, level: int) -> list[Hint]:
    """The hints of levels 1 to ``level`` for the best turn from ``before`` to ``after``."""
    if level not in LEVELS:
        raise ValueError(f"a hint level is 1 to 4, got {level}")
    if before.phase == Phase.DRAW:
        return _draw_hints(before, after, gain, level)
    after = meld_as_laid(before, after)
    answer = _Answer(before, after, make_plan(before, after), gain, puzzle_themes(before, after))
    makers = (_idea, _key, _first_move, _whole_turn)
    return [Hint(k, makers[k - 1](answer)) for k in LEVELS[:level]]


def _draw_hints(before: Position, after: Position, gain: float | int, level: int) -> list[Hint]:
    """A draw puzzle's hints (Robber: the pile or the stock): those of the turn played from the pile
    taken, with the take in front of the first move and of the whole turn, in the words ``rummy check``
    reads for a whole draw-phase turn (``take; ...``)."""
    from .checker.robber import apply_draw

    if not before.rules.family.answers_draw_phase:
        raise RummyError(f"hints for a draw-phase puzzle are for Robber Rummy's pile; {before.rules.name} "
                         "answers the draw apart from the turn")
    start, drawn, _ = apply_draw(before, after)
    if drawn["from"] != DrawSource.PILE:  # the stock's card is unknown: no turn to hint at yet
        raise RummyError("the best draw is the stock: the turn after it depends on the card drawn")
    top = before.discard_pile[-1]
    played = hints(start, after, gain, level)
    said = [played[0]]
    if level >= 2:
        label, key = played[1].text.split(": ", 1)  # "Key" or "Key (steal chain)"
        said.append(Hint(2, f"{label}: the pile's top card {top.notation(before.rules.deck)}, melded at once, "
                            f"and {key}"))
    if level >= 3:
        # the move that melds the top card comes first: taking the pile is made of it
        plan = make_plan(start, meld_as_laid(start, after))
        melds_top = next((step for step in plan.steps if top.plain() in (c.plain() for c in step.cards)), None)
        first = step_text(melds_top, start) if melds_top is not None else played[2].text.split(": ", 1)[1]
        said.append(Hint(3, f"First move (the table is whole after it): take; {first}"))
    if level >= 4:
        said.append(Hint(4, "Whole turn: take; " + played[3].text.removeprefix("Whole turn: ")))
    return said


def puzzle_themes(before: Position, after: Position) -> tuple[Theme, ...]:
    """The puzzle's themes: the statement's (``[puzzle] themes``), else those the turn shows."""
    statement = before.puzzle
    names: tuple[str, ...] = tuple(getattr(statement, "themes", ()) or ())
    if not names:
        names = themes_of(before, after, statement.kind if statement is not None else None)
    return tuple(THEMES[name] for name in names if name in THEMES)


# ------------------------------------------------------------------ level 1
def _idea(answer: _Answer) -> str:
    aim = _aim(answer)
    if not answer.themes:
        return aim
    ideas = "; ".join(f"{theme.title} ({_lower_first(theme.idea.rstrip('.'))})" for theme in answer.themes)
    return f"Idea: {ideas}. {aim}"


def _lower_first(text: str) -> str:
    """The sentence as a clause: its first word lower-cased, unless it is a name or a card (``QC``, ``A``)."""
    first = text.split(" ", 1)[0]
    plain = first[:1].isupper() and (first[1:].islower() or (len(first) == 1 and first == "A" and " " in text))
    return text[:1].lower() + text[1:] if plain else text


def _aim(answer: _Answer) -> str:
    before = answer.before
    statement = before.puzzle
    if before.rules.family.shared_table:
        # A tile puzzle's target is the tiles played: the level says no count (the statement has it).
        if statement is not None and statement.kind == PuzzleKind.PLAY_ALL:
            return "Aim: play all your tiles."
        return "Aim: the target, the most tiles any turn plays."
    target = statement.target if statement is not None else answer.gain
    return f"Aim: a gain of {number(target)}, the most any turn scores."


# ------------------------------------------------------------------ level 2
def _key(answer: _Answer) -> str:
    for theme in answer.themes:
        finder = _KEY_FINDERS.get(theme.name)
        found = finder(answer) if finder is not None else None
        if found:
            return f"Key ({theme.title}): {found}."
    return f"Key: {_any_key(answer)}."


def _first(answer: _Answer, *actions: Action) -> Step | None:
    return next((s for s in answer.plan.steps if s.action in actions), None)


def _joker_freed(answer: _Answer) -> str | None:
    step = _first(answer, Action.REPLACE_JOKER)
    if step is not None and step.target:
        return f"the joker in {answer.play(step.target)}"
    moved = next((s for s in answer.plan.steps if s.action in (Action.MOVE, Action.STEAL) and s.source
                  and s.source in _before_names(answer) and any(c.is_joker for c in s.cards)), None)
    return f"the joker in {answer.play(moved.source)}" if moved is not None and moved.source else None


def _before_names(answer: _Answer) -> set[str]:
    return {str(name) for name in answer.before.named_plays()}


def _steal(answer: _Answer) -> str | None:
    step = _first(answer, Action.STEAL)
    if step is None or not step.source or step.source not in _before_names(answer):
        return None
    if answer.before.rules.family.plays_change_owner:  # Robber: the play taken is the key, not the cards added
        return f"the play {answer.play(step.source)}"
    return f"{answer.show(step.cards)} in {answer.play(step.source)}"


def _chain_steal(answer: _Answer) -> str | None:
    """The steal that the turn goes on from: a later step takes from, or adds to, the play it took its
    card from or the play it went to (the first link of the chain); else the first steal."""
    steps = answer.plan.steps
    names = _before_names(answer)
    for k, step in enumerate(steps):
        if step.action != Action.STEAL or not step.source or step.source not in names:
            continue
        linked = {step.source, step.target} - {None}
        if any(later.source in linked or later.target in linked for later in steps[k + 1:]
               if later.action != Action.DISCARD):
            shown = "the play " if answer.before.rules.family.plays_change_owner else f"{answer.show(step.cards)} in "
            return f"{shown}{answer.play(step.source)}"
    return _steal(answer)


def _split(answer: _Answer) -> str | None:
    """The play of the table before the turn whose cards end in two plays or more (two or more cards in
    each, so a card taken off an end does not count), the one that sends most cards away first."""
    sent: dict[str, Counter[str]] = {}
    for step in answer.plan.steps:
        if step.action in (Action.MOVE, Action.STEAL) and step.source and step.source != HAND and step.target:
            sent.setdefault(step.source, Counter())[step.target] += len(step.cards)
    named = answer.before.named_plays()
    split = []
    for source, targets in sent.items():
        play = named.get(PlayName(source))
        if play is None:
            continue
        places = Counter(targets)
        places[source] += len(play.cards) - sum(targets.values())
        if sum(1 for n in places.values() if n >= 2) >= 2:
            split.append((-sum(targets.values()), source))
    return f"the play {answer.play(min(split)[1])}" if split else None


def _moved_play(answer: _Answer) -> str | None:
    step = next((s for s in answer.plan.steps if s.action == Action.MOVE and s.source in _before_names(answer)),
                None)
    return f"{answer.show(step.cards)} in {answer.play(step.source)}" if step is not None and step.source else None


def _temperature(answer: _Answer) -> str | None:
    mover = answer.before.mover
    kept = Counter(c.plain() for c in answer.after.player(answer.before.to_move).hand or ())
    for card in mover.warm:
        if kept[card.plain()]:
            return f"{answer.show([card])} (warm)"
    for card in mover.hot:
        return f"{answer.show([card])} (hot)"
    for card in mover.warm:
        return f"{answer.show([card])} (warm)"
    return None


def _fits(answer: _Answer, card: Card) -> list[str]:
    """The plays of the table after the turn (named as the plan names them) that ``card`` would fit."""
    after = answer.after
    names = answer.plan.names
    return [names.get(str(name), str(name)) for name, play in after.named_plays().items()
            if is_whole(after.play_with_layoffs(name) + (card,), after.rules)]


def _kept(answer: _Answer) -> str | None:
    """A card the turn keeps in the hand that a play of the table, before the turn or after it, would take."""
    before = answer.before
    for card in answer.after.player(before.to_move).hand or ():
        fits_before = any(is_whole(before.play_with_layoffs(name) + (card,), before.rules)
                          for name in before.named_plays())
        if fits_before or _fits(answer, card):
            return f"{answer.show([card])}, which a play on the table would take"
    return None


def _choice(answer: _Answer) -> str | None:
    for step in answer.plan.steps:
        if step.action in (Action.LAY_OFF, Action.PLAY, Action.MELD) and step.source == HAND:
            for card in step.cards:
                places = [name for name in answer.before.named_plays()
                          if is_whole(answer.before.play_with_layoffs(name) + (card,), answer.before.rules)]
                if len(places) >= 2 or (places and step.action != Action.LAY_OFF):
                    return f"{answer.show([card])}, which fits more than one place"
    return None


def _corner(answer: _Answer) -> str | None:
    for play in answer.after.player(answer.before.to_move).plays:
        ranks = {c.rank for c in play.cards if not c.is_joker}
        if 1 in ranks and 13 in ranks and 2 in ranks:
            ace = next(c for c in play.cards if c.rank == 1)
            return f"{answer.show([ace])}, between a king and a two"
    return None


def _into_their_space(answer: _Answer) -> str | None:
    mover = answer.before.to_move
    for step in answer.plan.steps:
        space = step.space or (PlayName(step.target).owner if step.target and "/" in step.target else None)
        if step.action in (Action.MOVE, Action.PLAY) and space not in (None, mover, "new", "table"):
            return f"{answer.show(step.cards)}, played into {space}'s space"
    return None


def _partner(answer: _Answer) -> str | None:
    before = answer.before
    partners = {p.name for p in before.players if p.side == before.mover.side and p.name != before.to_move}
    step = next((s for s in answer.plan.steps if s.source and s.source != HAND
                 and PlayName(s.source).owner in partners), None)
    return f"the play {answer.play(step.source)}" if step is not None and step.source else None


_KEY_FINDERS: dict[str, Callable[[_Answer], str | None]] = {
    "joker-reuse": _joker_freed,
    "fixed-joker-swap": _joker_freed,
    "runs-into-groups": _split,
    "groups-into-runs": _split,
    "split-and-insert": _split,
    "steal-chain": _chain_steal,
    "meld-steal": _steal,
    "warm-or-hot-card": _temperature,
    "keep-a-card": _kept,
    "layoff-choice": _choice,
    "round-the-corner": _corner,
    "into-their-space": _into_their_space,
    "partner-play": _partner,
}


def _any_key(answer: _Answer) -> str:
    """The turn's first move on the table, where no theme names one: a steal, a joker freed, a play taken
    apart, a card moved, a lay-off; else the first new play's first card."""
    for finder in (_steal, _joker_freed, _split, _moved_play, _temperature):
        found = finder(answer)
        if found:
            return found
    step = _first(answer, Action.LAY_OFF)
    if step is not None and step.target:
        return f"{answer.show(step.cards[:1])}, laid off on {answer.play(step.target)}"
    step = _first(answer, Action.MELD, Action.PLAY)
    if step is not None:
        return f"{answer.show(step.cards[:1])}, in a play of its own" if (step.target or "").startswith("new/") \
            else f"{answer.show(step.cards[:1])}, added to {answer.play(step.target or '')}"
    step = _first(answer, Action.DISCARD)
    return f"the discard, {answer.show(step.cards)}" if step is not None else "none: the best turn passes"


# ------------------------------------------------------------------ level 3
def first_move(before: Position, after: Position, plan: Plan) -> str:
    """A first move that can be made on its own, as steps: after it every play on the table is whole and
    the checker finds nothing but what the turn's end still does (``UNFINISHED``).

    The shortest start of the plan (its discard left out) that stands; where only the whole turn does,
    the shortest that stands of: a part of the plan that touches no play the rest touches (a joker
    freed and the play it goes to, a tile added to a play nothing else changes), in the plan's order;
    one to three final plays built at once as new plays, from the hand and the plays their cards come
    from (a tile plan names a final play after the play it grew from, so its table is whole only at
    the end). Else the whole turn but its discard."""
    steps = tuple(s for s in plan.steps if s.action != Action.DISCARD)
    if len(steps) <= 1:
        return steps_text(Plan(steps, 0, 0), before) if steps else ""
    for count in range(1, len(steps)):
        text = steps_text(Plan(steps[:count], 0, 0), before)
        if stands(before, text):
            return text
    # Else the smallest of: a part of the plan that touches no play the rest touches, one to three final
    # plays built at once (shorter than the turn: a move as long as the turn is no first move).
    candidates = [steps_text(Plan(_renumbered(part), 0, 0), before)
                  for part in _independent_parts(steps) if len(part) < len(steps)]
    built = _built_plays(before, after, plan)
    for size in (1, 2, 3):
        for chosen in combinations(built, size):
            built_text = _build_text(before, chosen)
            if built_text is not None and built_text.count("; ") + 1 < len(steps):
                candidates.append(built_text)
            if len(candidates) >= MOST_BUILDS_TRIED:
                break
    for text in sorted(candidates, key=lambda t: t.count("; ")):
        if stands(before, text):
            return text
    return steps_text(Plan(steps, 0, 0), before)


def _independent_parts(steps: tuple[Step, ...]) -> list[tuple[Step, ...]]:
    """The plan's steps in groups that share no play (a freed joker ties its replacement to the step
    that plays it), each in the plan's order, the groups by their first step."""
    parent = list(range(len(steps)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    first_with: dict[str, int] = {}
    freed: list[int] = []
    for k, step in enumerate(steps):
        for name in {step.source, step.target} - {None, HAND}:
            assert name is not None
            parent[root(k)] = root(first_with.setdefault(name, k))
        if step.action == Action.REPLACE_JOKER:
            freed.append(k)
        elif freed and step.source == HAND and any(c.is_joker for c in step.cards):
            parent[root(k)] = root(freed.pop(0))
    groups: dict[int, list[Step]] = {}
    for k, step in enumerate(steps):
        groups.setdefault(root(k), []).append(step)
    return [tuple(group) for _, group in sorted(groups.items(), key=lambda item: steps.index(item[1][0]))]


def _renumbered(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """``steps`` with the new plays they make named new/1, new/2... in the order they make them."""
    names: dict[str, str] = {}

    def named(name: str | None) -> str | None:
        if name is None or not name.startswith("new/"):
            return name
        return names.setdefault(name, f"new/{len(names) + 1}")

    return tuple(replace(step, source=named(step.source), target=named(step.target)) for step in steps)


def stands(before: Position, text: str) -> bool:
    """Whether the turn's start ``text`` (steps) leaves a table the rules accept, its end left to come."""
    try:
        partial = read_steps(before, text)
    except RummyError:
        return False
    return all(code in UNFINISHED for code in check(before, partial).codes)


# A play of the table after the turn: whose space it lies in (None: a shared table), and its cards, each
# with where it lies before the turn (a play's name, or HAND).
Origins = tuple[str | None, tuple[tuple[Card, str], ...]]


def _built_plays(before: Position, after: Position, plan: Plan) -> list[Origins]:
    """The plays of the table after the turn that the turn changed, in the plan's order, each card with
    where it comes from (the hand, or the play of the table before the turn the plan takes it from):
    each such play can be built at once as a new play. A play holding a card that comes from a play
    made this turn is left out (it is no move of its own)."""
    before_names = {str(name) for name in before.named_plays()}
    built = []
    for after_name in after.named_plays():
        target = plan.names.get(str(after_name), str(after_name))
        arrivals = [(card.plain(), step.source or HAND) for step in plan.steps if step.target == target
                    and step.action in (Action.PLAY, Action.MELD, Action.MOVE, Action.STEAL) for card in step.cards]
        if not arrivals:
            continue  # the play is as it was
        cards = after.play_with_layoffs(after_name)
        kept = Counter(c.plain() for c in cards) - Counter(card for card, _ in arrivals)
        origins = arrivals + [(card, target) for card in kept.elements()]
        if all(origin in before_names or origin == HAND for _, origin in origins):
            order = [c.plain() for c in cards]  # the cards as the play lies at the end
            space = None if before.rules.family.shared_table else PlayName(str(after_name)).owner
            built.append((space, tuple(sorted(origins, key=lambda o: order.index(o[0]) if o[0] in order
                                                else len(order)))))
    return built


def _build_text(before: Position, plays: tuple[Origins, ...]) -> str | None:
    """Steps that build ``plays`` as new plays, new/1 on, each play of the table named with its cards the
    first time (a real table has no numbers on its plays); a card from another player's space is a steal,
    paid by a hand card of the same play (None where the play has too few)."""
    deck = before.rules.deck
    named: set[str] = set()
    words = []
    for index, (space, origins) in enumerate(plays, 1):
        where = f" in {space}" if space is not None else ""  # said once, by the step that makes the play
        hand = [card for card, origin in origins if origin == HAND]
        if hand:
            words.append(f"play {cards_notation(tuple(hand), deck)} to new/{index}{where}")
            where = ""
        payers = iter(hand)
        for card, origin in origins:
            if origin == HAND:
                continue
            shown = origin if origin in named else \
                f"{origin} ({cards_notation(before.play_with_layoffs(origin), deck)})"
            named.add(origin)
            owner = PlayName(origin).owner
            if space is not None and owner not in (before.to_move, space):
                payer = next(payers, None)
                if payer is None:
                    return None
                words.append(f"steal {card.notation(deck)} from {shown} to new/{index}{where} "
                             f"paid by {payer.notation(deck)}")
            else:
                words.append(f"move {card.notation(deck)} from {shown} to new/{index}{where}")
            where = ""
    return "; ".join(words)


def _first_move(answer: _Answer) -> str:
    turn = [s for s in answer.plan.steps if s.action != Action.DISCARD]
    if not turn:
        return "First move: none but the discard." if answer.plan.steps else "First move: none; the turn passes."
    text = first_move(answer.before, answer.after, answer.plan)
    whole = text == steps_text(Plan(tuple(turn), 0, 0), answer.before)
    if whole and len(turn) > 1:
        return f"First move (made as one; nothing smaller leaves the table whole): {text}"
    return f"First move: {text}" if whole else f"First move (the table is whole after it): {text}"


# ------------------------------------------------------------------ level 4
def _whole_turn(answer: _Answer) -> str:
    if not answer.plan.steps:
        return "Whole turn: none; the best turn makes no move."
    steps = "; ".join(f"{k}. {step_text(step, answer.before)}" for k, step in enumerate(answer.plan.steps, 1))
    return f"Whole turn: {steps}"
