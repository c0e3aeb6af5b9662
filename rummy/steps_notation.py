"""The notation of turns written as steps: a text told from a position, split into steps, and
each step's words read (docs/formats.md "Turns written as steps"); ``rummy.turn_steps`` applies
the steps to a position.

All of it is linear in the text: a step's whitespace is collapsed and its length bounded
(``MAX_STEP_CHARS``) before any pattern sees it, so no pattern backtracks over a long run of
spaces (tests/core/test_steps_fuzz.py checks this).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .cards import Card, parse_cards
from .errors import NotationError, quote
from .plays import PlayName
from .reader import MAX_CARDS, PLAY_NAME
from .vocabulary import Action

# Words that end a list of cards (a card is never written as one of them).
CLAUSES = ("from", "to", "in", "on", "with", "paid")
VERBS = ("replace", "meld", "play", "move", "steal", "lay", "lay-off", "layoff", "discard")
STEP_WORDS = "replace, meld, play, move, steal, lay off, discard"
MAX_STEPS = 256  # a turn has at most as many steps as cards on the table and in the hand
# A step names at most every card of a position (rummy.reader.MAX_CARDS, 256, of at most 6
# characters and a space) and its clauses; best's longest printed step is about 100 characters.
# Every pattern below sees one step, whitespace collapsed, at most this long: bounded work.
MAX_STEP_CHARS = 2048

# ``rummy best``'s own words for a step, and the notes it adds (rummy.words.step_words), read as steps.
# They are matched on a step's text with its whitespace collapsed to single spaces (``_collapsed``),
# so that no ``\s*`` or ``\s+`` ever backtracks over a long run of whitespace.
_NUMBERED = re.compile(r"^\d+\.\s+")
_ROBBER_STEAL = re.compile(r"^steal\s+(\S+/\d+)\s+by\s+adding\s+(.+)$", re.IGNORECASE)
_REPLACE_WORDS = re.compile(r"^replace\s+the\s+joker\s+of\s+(\S+)\s+with\s+(\S+)\s*$", re.IGNORECASE)
_SPACE_NOTE = re.compile(r"\(\s*([^\s()']+)'s\s+space\s*\)", re.IGNORECASE)
_PAYING_NOTE = re.compile(r",?\s*paying\s+for\s+the\s+steal\s+of\s+[^,()]*", re.IGNORECASE)
_NOTE = re.compile(r"\([^()]*\)")
# "meld 2S 3S AS as new/1": the meld's name is the next new play's ("AS", the ace, is no "as").
_MELD_AS = re.compile(r"^(meld\s+.*?)\s+as\s+new/\d+\b", re.IGNORECASE)
_FROM_HAND = re.compile(r"\bfrom\s+your\s+hand\b", re.IGNORECASE)
_PAID_BY_NOTHING = re.compile(r"\bpaid\s+by\s+nothing\b", re.IGNORECASE)
_PLAY_NAME = re.compile(PLAY_NAME)  # the position format's play names
_JOKER_TO_HAND = "the joker goes to your hand"  # best once wrote it as a step of its own, after a ';'


def _collapsed(text: str) -> str:
    """``text`` with every run of whitespace one space, none at the ends (linear, no pattern)."""
    return " ".join(text.split())


def _is_step_number(word: str) -> bool:
    """``3.``: the number ``rummy best`` puts before a step (as ``_NUMBERED`` reads it)."""
    return len(word) > 1 and word.endswith(".") and word[:-1].isdecimal()


def _first_step_words(text: str) -> list[str] | None:
    """The first line with something on it outside comments, split in words, a leading step
    number dropped; None when there is no such line. Only the first few words are split off."""
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip().lstrip("\ufeff")
        if not line:
            continue
        words = line.split(maxsplit=3)
        if _is_step_number(words[0]) and len(words) > 1:
            words = words[1:]
        return words
    return None


def looks_like_steps(text: str) -> bool:
    """Whether ``text`` is a turn written as steps rather than a position (TOML or JSON): the one
    rule ``rummy check`` and the web's /api/steps both follow (docs/formats.md "Turns written as
    steps"). The first line with something on it outside comments, after a step number (``3.``),
    starts with ``;`` (which separates steps, and starts no TOML or JSON) or with a step's verb that
    no ``=`` follows (TOML's ``key = value`` is no step, even where the key is a verb)."""
    words = _first_step_words(text)
    if not words:
        return False
    if words[0].startswith(";"):
        return True
    verb, separated, _ = words[0].partition(";")
    if verb.lower() not in VERBS or "=" in verb:
        return False
    return bool(separated) or len(words) < 2 or not words[1].startswith("=")


def first_step_word(text: str) -> str:
    """The word a turn written as steps would start with (``""`` for none): the one a refusal quotes."""
    words = _first_step_words(text)
    return words[0].partition(";")[0] if words else ""


def no_step(word: str) -> str:
    """The problem of a text, or a step, that starts with ``word``, no step's verb."""
    return f"{quote(word)} is no step (steps: {STEP_WORDS})"


def split_steps(text: str) -> list[tuple[int, str]]:
    """The steps of the text, numbered from 1: separated by ``;`` (not within a note's parentheses) or new
    lines, comments and blanks dropped, whitespace collapsed to single spaces."""
    steps: list[tuple[int, str]] = []
    for line in text.splitlines():
        for part in _outside_notes(line.split("#", 1)[0]):
            part = _collapsed(part.lstrip().lstrip("\ufeff"))
            if part and part.lower().rstrip(".") != _JOKER_TO_HAND:
                steps.append((len(steps) + 1, part))
    return steps


def _outside_notes(line: str) -> list[str]:
    """The line split at each ``;`` outside parentheses: a note a player types after a play, as
    ``best`` writes its cards (``table/1 (R5 R6 *; the reds)``), stays in its step. One pass."""
    parts, start, depth = [], 0, 0
    for at, character in enumerate(line):
        if character == "(":
            depth += 1
        elif character == ")":
            depth = max(0, depth - 1)
        elif character == ";" and depth == 0:
            parts.append(line[start:at])
            start = at + 1
    parts.append(line[start:])
    return parts


# ------------------------------------------------------------------ parsing
@dataclass(frozen=True)
class ParsedStep:
    """One step as written: its action, its cards and its clauses."""

    number: int
    text: str
    action: Action
    cards: tuple[Card, ...]
    source: str | None = None  # from PLAY
    target: str | None = None  # to PLAY / on PLAY / the play of a replacement
    space: str | None = None  # in SPACE
    paid_by: tuple[Card, ...] = ()
    put_in: Card | None = None  # replace: the card put in the joker's place


class StepError(Exception):
    """A step that cannot be read or carried out: the problem, which ``rummy.turn_steps`` names with
    the step's number and text (a ``PositionError``)."""


def plain_step(text: str) -> str:
    """A step as ``rummy best`` prints it, in the words the reader reads: its number dropped, the
    explanation after a colon dropped, "(ann's space)" read as "in ann", other notes in parentheses
    ("(now cat's)", "(joker as 9S)", "(where it stood for 9D)") dropped, "from your hand" and
    ", paying for the steal of ..." dropped, "steal ann/1 by adding AS KS" read as "steal AS KS from
    ann/1" and "replace the joker of bob/1 with 3D" as "replace bob/1 * with 3D". Whitespace is
    collapsed first, and a step longer than ``MAX_STEP_CHARS`` is refused before any pattern sees it."""
    text = _collapsed(text)
    if len(text) > MAX_STEP_CHARS:  # before any pattern sees it
        raise StepError(f"a step of {len(text):,} characters; a step is at most {MAX_STEP_CHARS:,}")
    text = _collapsed(_NUMBERED.sub("", text).split(":", 1)[0])
    for note, instead in ((_SPACE_NOTE, r" in \1 "), (_PAYING_NOTE, " "), (_NOTE, " "), (_FROM_HAND, " "),
                          (_PAID_BY_NOTHING, " ")):
        text = _collapsed(note.sub(instead, text))  # the next pattern sees single spaces too
    text = _collapsed(text.replace(",", " "))
    robber = _ROBBER_STEAL.match(text)
    if robber:
        text = f"steal {robber.group(2)} from {robber.group(1)}"
    text = _MELD_AS.sub(r"\1", text)
    replaced = _REPLACE_WORDS.match(text)
    if replaced:
        text = f"replace {replaced.group(1)} * with {replaced.group(2)}"
    return text


def parse_step(number: int, text: str) -> ParsedStep:
    """One step's words (the reader's, or ``rummy best``'s: ``plain_step``); ``StepError`` when they are not a step."""
    words = plain_step(text).split()
    if not words:
        raise StepError("an empty step")
    verb = words[0].lower()
    rest = words[1:]
    if verb == "lay" and rest and rest[0].lower() == "off":
        verb, rest = "lay-off", rest[1:]
    if verb in ("layoff", "lay-off"):
        action = Action.LAY_OFF
    elif verb == "replace":
        return _parse_replace(number, text, rest)
    elif verb in ("meld", "play", "move", "steal", "discard"):
        action = Action(verb)
    else:
        raise StepError(no_step(words[0]))
    cards, clauses = _cards_and_clauses(rest)
    if not cards:
        raise StepError(f"'{verb}' needs the cards it {'discards' if action == Action.DISCARD else 'moves'}")
    allowed = {
        Action.MELD: ("in",),
        Action.PLAY: ("to", "in"),
        Action.MOVE: ("from", "to", "in"),
        Action.STEAL: ("from", "to", "in", "paid"),
        Action.LAY_OFF: ("on", "to"),
        Action.DISCARD: (),
    }[action]
    for word in clauses:
        if word not in allowed:
            said = "'paid by'" if word == "paid" else repr(word)
            raise StepError(f"{said} does not go with '{verb}'"
                            + (f" (it takes: {', '.join(allowed)})" if allowed else ""))
    needed = {Action.PLAY: ("to",), Action.MOVE: ("from", "to"), Action.STEAL: ("from",)}.get(action, ())
    for word in needed:
        if word not in clauses:
            raise StepError(f"'{verb}' needs '{word} PLAY'")
    if action == Action.LAY_OFF and "on" not in clauses and "to" not in clauses:
        raise StepError("'lay off' needs 'on PLAY'")
    if action == Action.DISCARD and len(cards) != 1:
        raise StepError("one card is discarded")
    target = clauses.get("to") or clauses.get("on")
    if "on" in clauses and "to" in clauses:
        raise StepError("'lay off' takes 'on PLAY' once")
    for word in ("from", "to", "on"):
        if word in clauses:
            _play_name(clauses[word], word)
    space = clauses.get("in")
    if space is not None and len(space.split()) != 1:
        raise StepError(f"'in' names one space, got {quote(space)}")
    paid = _cards(clauses["paid"].split(), "paid by") if "paid" in clauses else ()
    return ParsedStep(number, text, action, cards, clauses.get("from"), target, space, paid)


def _parse_replace(number: int, text: str, rest: list[str]) -> ParsedStep:
    """``replace PLAY * with CARD`` (or ``replace * in PLAY with CARD``)."""
    lowered = [w.lower() for w in rest]
    if len(rest) == 4 and lowered[2] == "with":
        play, joker, card = rest[0], rest[1], rest[3]
    elif len(rest) == 5 and lowered[1] == "in" and lowered[3] == "with":
        joker, play, card = rest[0], rest[2], rest[4]
    else:
        raise StepError("expected 'replace PLAY * with CARD', e.g. 'replace bob/1 * with 7H'")
    _play_name(play, "replace")
    found = _one_card(joker, "replace")
    if not found.is_joker:
        raise StepError(f"only a joker is replaced, not {quote(joker)}")
    put_in = _one_card(card, "with")
    if put_in.is_joker:
        raise StepError("a joker is replaced by a natural card, not a joker")
    return ParsedStep(number, text, Action.REPLACE_JOKER, (found,), target=play, put_in=put_in)


def _cards_and_clauses(words: list[str]) -> tuple[tuple[Card, ...], dict[str, str]]:
    """The cards up to the first clause word, then each clause's words (``paid by`` taking the rest)."""
    k = 0
    while k < len(words) and words[k].lower() not in CLAUSES:
        k += 1
    cards = _cards(words[:k], "cards")
    clauses: dict[str, str] = {}
    while k < len(words):
        word = words[k].lower()
        if word not in CLAUSES:
            raise StepError(f"unexpected {quote(words[k])}")
        if word in clauses:
            raise StepError(f"{quote(word)} is given twice")
        if word == "paid":
            if k + 1 >= len(words) or words[k + 1].lower() != "by":
                raise StepError("expected 'paid by CARDS'")
            clauses["paid"] = " ".join(words[k + 2:])
            if not clauses["paid"]:
                raise StepError("'paid by' needs the hand cards that pay")
            break
        if k + 1 >= len(words) or words[k + 1].lower() in CLAUSES:
            raise StepError(f"{quote(word)} needs a {'space' if word == 'in' else 'play'} after it")
        clauses[word] = words[k + 1]
        k += 2
    return cards, clauses


def _cards(tokens: Iterable[str], where: str) -> tuple[Card, ...]:
    try:
        cards = parse_cards(" ".join(tokens))
    except NotationError as error:
        raise StepError(f"{error}" if where == "cards" else f"{where}: {error}") from None
    if len(cards) > MAX_CARDS:  # shorthands (2xR5, K1-13) stand for several cards each
        raise StepError(f"{where}: {len(cards)} cards; a position holds at most {MAX_CARDS}")
    return cards


def _one_card(token: str, where: str) -> Card:
    """The one card a place takes (a shorthand standing for several is refused)."""
    cards = _cards([token], where)
    if len(cards) != 1:
        raise StepError(f"{where}: one card, not {quote(token)}")
    return cards[0]


def _play_name(text: str, word: str) -> PlayName:
    if not _PLAY_NAME.fullmatch(text):
        raise StepError(f"{quote(text)} after '{word}' is not a play name like ann/2, table/3 or new/1")
    return PlayName(text)
