"""Turns written as steps: the plan's own words, read into the position after the turn, and written back.

A turn can be written the way ``rummy best`` plans one (docs/formats.md
"Turns written as steps")::

    replace bob/1 * with 3D; meld 9C 10C QC *; steal 7H from bob/1 to new/2 paid by 8H
    play 8H to new/2; move 5S from ann/1 to ann/2; discard KS

Steps are separated by ``;`` or new lines, ``#`` starts a comment. Plays are
named as in the position before the turn (``ann/2``, ``table/3``) and
``new/K`` for the plays laid this turn, in the order they are made.

``read_steps(before, text)`` applies the steps to ``before`` and returns the
position after the turn, its ``[turn]`` table filled (meld, replaced,
discard). A step that cannot be read or applied (an unknown word, a card
that is not where the step takes it from, a play that does not exist) is a
``PositionError`` naming the step's number and quoting it; whether the turn
is legal is the checker's business. The text is split and each step's words
read by ``rummy.steps_notation``, which also tells steps from a position. ``steps_text(plan, before)`` writes a
``Plan``'s steps in the same words: the reader and the writer live here side
by side, so they agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from .cards import Card, Deck, cards_notation, cards_within
from .errors import PositionError, quote
from .plan import Plan, Step
from .plays import Play, PlayName, readings
from .position import Attached, Position, Replacement, Turn
from .steps_notation import MAX_STEPS, ParsedStep, StepError, parse_step, split_steps
from .vocabulary import Action, Phase, Rearrange

_NEW = "new"


# ----------------------------------------------------------------- applying
@dataclass
class _TablePlay:
    name: str  # as before the turn, or new/K
    space: str | None  # whose space (None: a shared table)
    cards: list[Card]
    changed: bool = False


@dataclass
class _Turn:
    """The turn being built, step by step."""

    before: Position
    plays: dict[str, _TablePlay]
    hand: list[Card]
    meld: list[tuple[str, Play]] = field(default_factory=list)  # (new play, its cards as melded)
    replaced: list[Replacement] = field(default_factory=list)
    discard: Card | None = None
    discarded: bool = False
    new_count: int = 0
    played_into: dict[str, Counter[Card]] = field(default_factory=dict)  # hand cards played into each play
    stolen: list[str] = field(default_factory=list)  # Robber: plays that became the mover's
    layoffs: list[Attached] = field(default_factory=list)
    # A hidden mover (hand_count): ``hand`` holds the cards known to be in it (hot, warm); the others are
    # ``hidden`` many cards, each one of the ``unseen`` cards (what BEFORE does not show, copies counted).
    hidden: int = 0
    unseen: Counter[Card] = field(default_factory=Counter)


def read_steps(before: Position, text: str, source: str = "<steps>", first_number: int = 1) -> Position:
    """The position after the turn the steps describe, from ``before`` (a play-phase position).

    Every step is applied in order; a step that cannot be read or applied is a
    PositionError ``SOURCE: step N: problem (in 'TEXT')``, N counted from ``first_number`` (2 for
    the steps after a draw's words: rummy.turn_text)."""
    return read_steps_named(before, text, source, first_number)[0]


def read_steps_named(before: Position, text: str, source: str = "<steps>",
                     first_number: int = 1) -> tuple[Position, dict[str, str]]:
    """``read_steps``, and the after-position's plays under the names the steps use for them (as before
    the turn, new/K): a play the steps emptied gives its name to none, so every name drawn is one the
    next step can use."""
    state = _Turn(before, {}, [])
    for _ in _applied(before, text, source, state, first_number):
        pass
    return _after(state), _step_names(state)


@dataclass(frozen=True)
class TableAfterStep:
    """The table and the mover's hand after one step, plays named as in the plan (as before the turn, new/K)."""

    plays: tuple[tuple[str, str | None, tuple[Card, ...]], ...]  # (name, whose space or None, cards)
    hand: tuple[Card, ...]
    discard: Card | None

    def to_data(self, deck: Deck) -> dict[str, object]:
        return {
            "plays": [{"name": str(name), "space": space, "cards": [c.notation(deck) for c in cards]}
                      for name, space, cards in self.plays],
            "hand": [c.notation(deck) for c in self.hand],
            "discard": self.discard.notation(deck) if self.discard is not None else None,
        }


def step_tables(before: Position, text: str, source: str = "<steps>") -> list[TableAfterStep]:
    """The table after each step of the turn, in order (the way a player watches a plan unfold), each
    play with the cards laid off on it; the same reading, and the same errors, as ``read_steps``."""
    state = _Turn(before, {}, [])
    others: dict[str, tuple[Card, ...]] = {
        str(name): tuple(c for layer, cards in before.layoffs_on(name) if layer != before.to_move for c in cards)
        for name in before.named_plays()}  # cards the other players laid off stay where they are

    def laid_off(name: str) -> tuple[Card, ...]:
        return others.get(name, ()) + tuple(c for attached in state.layoffs if attached.target == name
                                            for c in attached.cards)

    return [TableAfterStep(tuple((p.name, p.space, tuple(p.cards) + laid_off(p.name))
                                 for p in state.plays.values() if p.cards),
                           tuple(state.hand), state.discard)
            for _ in _applied(before, text, source, state)]


def _applied(before: Position, text: str, source: str, state: _Turn, first_number: int = 1) -> Iterator[int]:
    """Fills ``state`` from ``before`` and applies the steps to it one by one, yielding each step's number."""
    if before.phase != Phase.PLAY:
        raise PositionError(source, f"{before.to_move} is in the {before.phase} phase: begin the turn with the "
                                    "draw, e.g. 'draw; discard 7H' or 'take 1; play ...' (or give the "
                                    "position after the draw)")
    steps = split_steps(text)
    if not steps:
        raise PositionError(source, "no steps: write them like 'play 7H 8H 9H to new/1; discard KS'")
    if len(steps) > MAX_STEPS:
        raise PositionError(source, f"{len(steps)} steps; a turn has at most {MAX_STEPS}")
    shared = before.rules.family.shared_table
    state.plays.update({name: _TablePlay(name, None if shared else PlayName(name).owner, list(play.cards))
                        for name, play in before.named_plays().items()})
    _fill_hand(state, before)
    state.layoffs.extend(before.mover.layoffs)
    for number, step_text in steps:
        number += first_number - 1
        try:
            _apply(state, parse_step(number, step_text))
        except StepError as error:
            raise PositionError(f"{source}: step {number}", f"{error} (in {quote(step_text)})") from None
        yield number


def _apply(state: _Turn, step: ParsedStep) -> None:
    before = state.before
    family = before.rules.family
    mover = before.to_move
    if state.discarded:
        raise StepError("the discard ends the turn: no step comes after it")
    if step.action == Action.DISCARD:
        state.discard = _from_hand(state, step.cards[0])
        state.discarded = True
        return
    if step.action == Action.REPLACE_JOKER:
        if step.put_in is None:
            raise StepError("expected 'replace PLAY * with CARD', e.g. 'replace bob/1 * with 7H'")
        play = _existing(state, _clause(step, "to"))
        joker = _take(play, step.cards[0], f"no joker in {play.name}")
        put_in = _from_hand(state, step.put_in)
        play.cards.append(put_in)
        play.changed = True
        state.hand.append(joker.plain())
        state.replaced.append(Replacement(play.name, put_in))
        return
    if step.action == Action.MELD:
        if step.space is not None:
            _space(state, step.space)
        play = _new_play(state, f"{_NEW}/{state.new_count + 1}", step.space)
        _play_from_hand(state, play, step.cards)
        state.meld.append((play.name, Play(tuple(play.cards))))
        return
    if step.action in (Action.PLAY, Action.LAY_OFF) and family.plays_change_owner and step.target in state.plays \
            and state.plays[step.target].space != mover:
        # Robber: hand cards played to another player's play steal it, however the step says it.
        step = replace(step, action=Action.STEAL, source=step.target, target=None)
    if step.action == Action.STEAL and family.plays_change_owner:
        # Robber: hand cards added to another player's play, which becomes the mover's.
        play = _existing(state, _clause(step, "from"))
        if play.space == mover:
            raise StepError(f"{play.name} is already {mover}'s: write 'lay off CARDS on {play.name}'")
        if step.target is not None and PlayName(step.target).owner != mover:
            raise StepError(f"a stolen play becomes {mover}'s: "
                            f"'to' names one of {mover}'s plays, not {quote(step.target)}")
        if step.paid_by:
            raise StepError("a steal in Robber Rummy is paid by the cards it adds: no 'paid by'")
        _play_from_hand(state, play, step.cards)
        play.space = mover
        state.stolen.append(play.name)
        return
    if step.action == Action.LAY_OFF and family.plays_change_owner:
        play = _existing(state, _clause(step, "on"))
        if play.space != mover:
            raise StepError(f"cards added to {play.name} steal it: write 'steal CARDS from {play.name}'")
        _play_from_hand(state, play, step.cards)
        return
    if (step.action == Action.LAY_OFF and family.layoffs_attached) or (
            step.action == Action.PLAY and family.layoffs_attached and not _is_new(step.target)):
        _lay_off(state, _existing(state, _clause(step, "on" if step.action == Action.LAY_OFF else "to")), step.cards)
        return
    if step.action in (Action.PLAY, Action.LAY_OFF):
        name = _clause(step, "on" if step.action == Action.LAY_OFF else "to")
        if step.space is not None:
            _space(state, step.space)
        play = _target(state, name, step.space)
        if step.space is not None and not _is_new(name) and play.space != step.space:
            raise StepError(f"{play.name} is in {play.space}'s space, not {step.space}'s")
        _play_from_hand(state, play, step.cards)
        return
    # move, and a steal anywhere but in Robber Rummy: table cards from one play to another, which
    # 'to' names (the parser cannot ask for it: a Robber steal has no 'to')
    source_name, target_name = _clause(step, "from"), _clause(step, "to")
    if step.space is not None:
        _space(state, step.space)
    source = _existing(state, source_name)
    moved = [_take(source, card, f"{card.notation(before.rules.deck)} is not in {source.name}") for card in step.cards]
    target = _target(state, target_name, step.space)
    if target is source:
        raise StepError(f"a card moved from {source.name} goes to another play")
    target.cards.extend(_placed(card, written) for card, written in zip(moved, step.cards))
    target.changed = True
    if step.paid_by:
        # The payment is hand cards played into the same play: those not played there yet are played now.
        already = state.played_into.setdefault(target.name, Counter())
        for card in step.paid_by:
            if already[card.plain()] > 0:
                already[card.plain()] -= 1
            else:
                target.cards.append(_from_hand(state, card))


def _clause(step: ParsedStep, word: str) -> str:
    """The play a step's clause names ('from': its source; 'to', 'on': its target), or the step's error."""
    name = step.source if word == "from" else step.target
    if name is None:
        raise StepError(f"'{_VERB_WORDS.get(step.action, step.action.value)}' needs '{word} PLAY'")
    return name


_VERB_WORDS = {Action.REPLACE_JOKER: "replace", Action.LAY_OFF: "lay off"}  # else the action's own word


def _is_new(name: str | None) -> bool:
    return name is not None and PlayName(name).owner == _NEW


def _space(state: _Turn, space: str) -> str:
    before = state.before
    if before.rules.family.shared_table:
        raise StepError(f"{before.rules.name} has one shared table: no 'in SPACE'")
    if space not in {p.name for p in before.players}:
        raise StepError(f"{quote(space)} is not a player's space "
                        f"(players: {', '.join(p.name for p in before.players)})")
    return space


def _existing(state: _Turn, name: str) -> _TablePlay:
    play = state.plays.get(name)
    if play is None:
        if _is_new(name):
            raise StepError(f"{name} is not laid yet (new plays are new/1, new/2, ... in the order they are made)")
        raise StepError(f"{quote(name)} names no play (plays: {_names(state)})")
    return play


def _names(state: _Turn) -> str:
    names = list(state.plays)
    return ", ".join(names[:12]) + (", ..." if len(names) > 12 else "") if names else "none"


def _target(state: _Turn, name: str, space: str | None) -> _TablePlay:
    """The play cards go to: an existing one, or the next new play (laid in ``space``, the mover's by default)."""
    if name in state.plays:
        return state.plays[name]
    if _is_new(name):
        expected = f"{_NEW}/{state.new_count + 1}"
        if name != expected:
            raise StepError(f"the next new play is {expected}, not {name}")
        return _new_play(state, name, space)
    return _existing(state, name)


def _new_play(state: _Turn, name: str, space: str | None) -> _TablePlay:
    shared = state.before.rules.family.shared_table
    play = _TablePlay(name, None if shared else (space or state.before.to_move), [], changed=True)
    state.plays[name] = play
    state.new_count += 1
    return play


def _take(play: _TablePlay, card: Card, missing: str) -> Card:
    """Take ``card`` out of a play (the same stand-in first, else any copy)."""
    for exact in (True, False):
        for i, have in enumerate(play.cards):
            if have == card and (not exact or have.stands_for == card.stands_for):
                play.changed = True
                return play.cards.pop(i)
    raise StepError(missing)


def _fill_hand(state: _Turn, before: Position) -> None:
    mover = before.mover
    if mover.hand is not None:
        state.hand.extend(mover.hand)
        return
    # Cards seen taken are known to be in the hidden hand; every copy of them is out of the unseen ones.
    state.hand.extend(mover.hot + mover.warm)
    state.hidden = max(mover.hand_size - len(state.hand), 0)
    state.unseen.update(before.unseen_cards())


def _from_hand(state: _Turn, card: Card) -> Card:
    for i, have in enumerate(state.hand):
        if have == card:
            state.hand.pop(i)
            return _placed(have, card)
    deck = state.before.rules.deck
    mover = state.before.to_move
    if state.before.mover.hand is None:  # a hidden hand: any unseen card, as many as it holds
        plain = card.plain()
        if state.hidden and state.unseen[plain]:
            state.hidden -= 1
            state.unseen[plain] -= 1
            return _placed(plain, card)
        if not state.hidden:
            raise StepError(f"{card.notation(deck)} is not in {mover}'s hand (its hidden cards are all played)")
        raise StepError(f"{card.notation(deck)} is not in {mover}'s hidden hand (every copy of it is in sight)")
    held = cards_notation(state.hand, deck) or "nothing"
    raise StepError(f"{card.notation(deck)} is not in {mover}'s hand (it holds {held})")


def _placed(card: Card, written: Card) -> Card:
    """A card as it lies in its new play: a joker takes the stand-in written in the step, if any."""
    if card.is_joker:
        return written if written.stands_for is not None else card.plain()
    return card.plain()


def _play_from_hand(state: _Turn, play: _TablePlay, cards: tuple[Card, ...]) -> None:
    placed = [_from_hand(state, card) for card in cards]
    play.cards.extend(placed)
    play.changed = True
    state.played_into.setdefault(play.name, Counter()).update(c.plain() for c in placed)


def _lay_off(state: _Turn, play: _TablePlay, cards: tuple[Card, ...]) -> None:
    """Lay-off rummy: onto the mover's own play the play grows (when it reads grown); else the
    cards are attached under the mover's ``layoffs``."""
    placed = tuple(_from_hand(state, card) for card in cards)
    rules = state.before.rules
    if play.space == state.before.to_move and readings(tuple(play.cards) + placed, rules):
        play.cards.extend(placed)
        play.changed = True
        return
    for i, attached in enumerate(state.layoffs):
        if attached.target == play.name:
            state.layoffs[i] = Attached(play.name, attached.cards + placed)
            break
    else:
        state.layoffs.append(Attached(play.name, placed))
    play.changed = True


def _plays_left(state: _Turn) -> dict[str | None, list[_TablePlay]]:
    """The plays left on the table, by space (None: the shared table), in the after-position's order."""
    kept = [play for play in state.plays.values() if play.cards]
    before = state.before
    if before.rules.family.shared_table:
        return {None: kept}
    spaces: dict[str | None, list[_TablePlay]] = {p.name: [] for p in before.players}
    # The mover's own plays first, then plays stolen (Robber), then the mover's new plays, in order.
    order = [p for p in kept if not _is_new(p.name) and p.name not in state.stolen]
    order += [p for p in kept if p.name in state.stolen] + [p for p in kept if _is_new(p.name)]
    for play in order:
        assert play.space is not None
        spaces[play.space].append(play)
    return spaces


def _step_names(state: _Turn) -> dict[str, str]:
    """The after-position's plays (``ann/2``, ``table/3``) under the names the steps gave them."""
    return {str(PlayName.of(space if space is not None else "table", i)): play.name
            for space, plays in _plays_left(state).items() for i, play in enumerate(plays, 1)}


def _after(state: _Turn) -> Position:
    before = state.before
    rules = before.rules
    mover_name = before.to_move
    extend_only = rules.rearrange == Rearrange.EXTEND_ONLY

    def settled(play: _TablePlay) -> Play:
        cards = tuple(play.cards)
        if play.changed and any(c.stands_for is not None for c in cards) and not readings(cards, rules):
            cards = tuple(c.plain() for c in cards)  # stand-ins the grown play contradicts are dropped
        return Play(cards)

    kept = [play for play in state.plays.values() if play.cards]
    meld = [play for _, play in state.meld]
    if extend_only:  # every play laid this turn is a meld
        melded_names = {name for name, _ in state.meld}
        meld += [Play(tuple(p.cards)) for p in kept if _is_new(p.name) and p.name not in melded_names]
    placed = _plays_left(state)
    if rules.family.shared_table:
        after = replace(before, table=tuple(settled(p) for p in placed[None]))
    else:
        after = replace(before, players=tuple(replace(p, plays=tuple(settled(play) for play in placed[p.name]))
                                              for p in before.players))
    mover = after.mover
    held = Counter(c.plain() for c in state.hand)
    hidden = mover.hand is None
    mover = replace(
        mover, hand=None if hidden else tuple(state.hand),
        hand_count=len(state.hand) + state.hidden if hidden else None,
        hot=cards_within(mover.hot, held), warm=cards_within(mover.warm, held),
        melded=mover.melded or bool(meld),
        layoffs=tuple(state.layoffs) if rules.family.layoffs_attached else mover.layoffs,
    )
    after = after.replace_player(mover)
    turn = Turn(meld=tuple(meld), replaced=tuple(state.replaced), discard=state.discard,
                discard_declared=state.discarded or rules.discard)
    pile = before.discard_pile + ((state.discard,) if state.discard is not None else ())
    assert mover.name == mover_name
    return replace(after, discard_pile=pile, turn=turn, puzzle=None)


# ------------------------------------------------------------------ writing
def step_text(step: Step, before: Position) -> str:
    """One plan step in the notation ``read_steps`` reads; a play the step is the first to name carries
    its cards in a note the reader passes over, ``play R7 to table/1 (R5 R6 *=R7)``."""
    deck = before.rules.deck
    mover = before.to_move
    cards = cards_notation(step.cards, deck)
    space = f" in {step.space}" if step.space is not None and step.space != mover \
        and not before.rules.family.shared_table else ""

    def play(name: str | None) -> str:
        named = step.play_cards(name)
        return f"{name} ({cards_notation(named, deck)})" if named else str(name)

    source, target = play(step.source), play(step.target)
    if step.action == Action.REPLACE_JOKER:
        return f"replace {target} * with {cards}"
    if step.action == Action.MELD:
        return f"meld {cards}{space}"
    if step.action == Action.PLAY:
        return f"play {cards} to {target}{space}"
    if step.action == Action.MOVE:
        return f"move {cards} from {source} to {target}{space}"
    if step.action == Action.STEAL:
        if before.rules.family.plays_change_owner:
            return f"steal {cards} from {source}"
        paid = f" paid by {cards_notation(step.paid_by, deck)}" if step.paid_by else ""
        return f"steal {cards} from {source} to {target}{space}{paid}"
    if step.action == Action.LAY_OFF:
        return f"lay off {cards} on {target}"
    if step.action == Action.DISCARD:
        return f"discard {cards}"
    raise ValueError(f"a {step.action} step is not written as a step of the play")


def steps_text(plan: Plan, before: Position, separator: str = "; ") -> str:
    """A plan's steps in the notation ``read_steps`` reads: ``play 7H 8H 9H to new/1; discard KS``."""
    return separator.join(step_text(step, before) for step in plan.steps)


def step_from_data(data: dict[str, object]) -> Step:
    """A step of ``best --json`` (formats.md "Steps") as a ``Step``, to be written by ``step_text``."""
    from .cards import Card as _Card

    def cards(value: object) -> tuple[Card, ...]:
        if isinstance(value, str):
            return (_Card.from_notation(value),)
        if isinstance(value, list):
            return tuple(_Card.from_notation(str(v)) for v in value)
        return ()

    action = Action(str(data["action"]))
    paid = data.get("paid_by")
    def text(key: str) -> str | None:
        return str(data[key]) if key in data else None

    named = data.get("play_cards")
    plays = tuple((str(name), cards(value)) for name, value in named.items()) if isinstance(named, dict) else ()
    return Step(action, cards(data.get("card", data.get("cards"))), text("from"), text("to"), text("space"),
                cards(paid) if paid is not None else None, named=plays)
