"""Robber Rummy draw puzzles: the stock or the whole discard pile (kind ``draw-or-pile``).

A candidate is a Robber play-phase deal of ``robber_kinds`` (the plain deal
or the trap deal, ``make_steal``) turned into a draw-phase position:

- the pile's *top card* melds at once: a hand card that fits a table play on
  its own (moved from the hand to the pile: the card the hand was waiting
  for), or an unseen card that fits a table play or makes a new play with
  two hand cards;
- *under it* 1 to 4 cards, each at random either *junk* (an unseen card
  that fits no table play and makes no play with the hand and the pile,
  the costliest first: taken and kept it costs its hand penalty) or a
  *helper* (a hand card that fits a table play, moved to the pile, or an
  unseen card that fits one: the pile then enables a bigger turn);
- the dealt discard pile goes back to the unseen cards (the stock grows by
  its size and shrinks by the unseen cards put in the new pile).

Judging (``judge_draw``, in place of the play-phase pipeline): ``best``
values both draws (rummy.model.robber.draw); the candidate is kept only when
the pile is the best draw by at least ``DRAW_MARGIN`` points over the stock's
expected value (a stock answer has no turn to state or check: left out,
docs/generate.md), the checker accepts the turn, and that turn is unique:
for every way to meld the top card (``pile_openings``, the solver's), the
best turn with the answer's final table excluded gains less. The tier is the
draw rungs' (``rummy.ladder.robber_draw``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from ..answer import Answer, answer_data, best
from ..cards import Card, cards_without
from ..checker import check
from ..errors import PositionError
from ..ladder.robber_draw import DrawGrade, draw_grade
from ..model.robber import pile_openings, robber_gain
from ..plays import is_whole
from ..position import Position
from ..rules import Ruleset, preset
from ..scoring import penalty
from ..solution import SolverConfig
from ..themes import themes_of
from ..vocabulary import DrawSource, Phase, PuzzleKind, Status, Tier
from .kinds import FAMILIES, Kind, register_kind
from .robber_kinds import STEAL_TIERS, make_steal

if TYPE_CHECKING:
    from .candidate_search import Outcome, Request

DRAW_MARGIN = 10  # points the pile must be worth over the stock's expected value (a ten, or two small cards)
UNDER = (1, 4)  # cards under the pile's top
JUNK_CHANCE = 0.5  # each card under the top: junk, else a helper
DRAW_TIERS = (Tier.EASY, Tier.MEDIUM, Tier.HARD, Tier.EXPERT)
DRAW_TASK = ("take the stock or the whole discard pile (its top card melded at once), then score the most: "
             "the points of the plays you lay, grow or steal (a stolen play also counts what its owner loses) "
             "and of every card out of your hand, the discard included, less the penalty of the pile's cards "
             "you keep")


def _pick(rng: random.Random, from_hand: list[Card], from_unseen: list[Card], moved: list[Card],
          taken: list[Card]) -> Card | None:
    """A card for the pile: a hand card (even odds, or when no unseen card will do), recorded in ``moved``, or
    an unseen one, recorded in ``taken``; None when neither list has one."""
    if from_hand and (rng.random() < 0.5 or not from_unseen):
        card = rng.choice(from_hand)
        moved.append(card)
        return card
    if from_unseen:
        card = rng.choice(from_unseen)
        taken.append(card)
        return card
    return None


def make_draw(rng: random.Random, rules: Ruleset, tier: Tier | None) -> Position | None:
    """A Robber deal turned into a draw-phase position whose pile's top card melds at once."""
    deal = make_steal(rng, rules, Tier.EXPERT if tier == Tier.EXPERT else rng.choice(STEAL_TIERS[:2]))
    if deal is None:
        return None
    return draw_position(rng, deal)


def draw_position(rng: random.Random, deal: Position) -> Position | None:
    """``deal`` (a play-phase Robber position) in the draw phase with a new discard pile; None when
    no top card melds or the hand or the stock would be empty."""
    rules = deal.rules
    hand = list(deal.mover.hand or ())
    unseen = deal.unseen_cards() + Counter(c.plain() for c in deal.discard_pile)
    plays = [play.cards for player in deal.players for play in player.plays]

    def fits_table(card: Card) -> bool:
        return any(is_whole(cards + (card,), rules) for cards in plays)

    def melds_with(card: Card, cards: list[Card]) -> bool:
        return any(is_whole((card, a, b), rules) for i, a in enumerate(cards) for b in cards[i + 1:])

    from_hand = [c for c in hand if fits_table(c)]
    from_unseen = [c for c in sorted(unseen) if fits_table(c) or melds_with(c, hand)]
    moved: list[Card] = []  # hand cards put in the pile
    taken: list[Card] = []  # unseen cards put in the pile
    top = _pick(rng, from_hand, from_unseen, moved, taken)
    if top is None:
        return None
    under: list[Card] = []
    for _ in range(rng.randint(*UNDER)):
        left = Counter(unseen) - Counter(taken)
        if rng.random() < JUNK_CHANCE:
            pool = hand + under + [top]
            junk = [c for c in sorted(left) if not fits_table(c) and not melds_with(c, pool)]
            if not junk:
                continue
            costliest = max(penalty(c, rules) for c in junk)
            card = rng.choice([c for c in junk if penalty(c, rules) >= costliest - 5])
            taken.append(card)
        else:
            helpers_in_hand = [c for c in hand if fits_table(c) and (Counter(hand) - Counter(moved))[c] > 0]
            helper = _pick(rng, helpers_in_hand, [c for c in sorted(left) if fits_table(c)], moved, taken)
            if helper is None:
                continue
            card = helper
        under.append(card)
    left_hand = cards_without(tuple(hand), Counter(moved))
    stock = deal.stock if isinstance(deal.stock, int) else 0
    stock += len(deal.discard_pile) - len(taken)
    if len(left_hand) < 2 or stock < 1:
        return None
    rng.shuffle(under)
    players = tuple(replace(p, hand=left_hand) if p.name == deal.to_move else p for p in deal.players)
    position = replace(deal, players=players, phase=Phase.DRAW, turn=None, discard_pile=tuple(under) + (top,),
                       stock=stock)
    try:
        return Position.from_data(position.to_data())
    except PositionError:
        return None


# ------------------------------------------------------------------ judging
def judge_draw(request: Request, index: int, position: Position) -> Outcome:
    """Candidate ``index``'s draw-phase position judged: the pile best by a clear margin, its turn
    checked, themed, graded by the draw rungs and unique."""
    from .candidate_search import Outcome, Puzzle, name_prefix
    from .difficulty import TIERS, Difficulty

    rules = preset(request.rules)
    config = SolverConfig(time_limit=request.time_limit, workers=1, seed=0)
    first = best(position, config)
    solution = first.solution
    if solution.status != Status.OPTIMAL or solution.draw is None:
        return Outcome(index, None, "timeout")
    values = {option.source: option.value for option in solution.draw.options}
    if DrawSource.PILE not in values:
        return Outcome(index, None, "the pile's top card does not meld")
    if DrawSource.STOCK not in values:
        return Outcome(index, None, "no stock to draw")
    margin = values[DrawSource.PILE] - values[DrawSource.STOCK]
    if margin < DRAW_MARGIN:
        return Outcome(index, None, "the stock is best" if margin <= 0 else f"draw margin under {DRAW_MARGIN}")
    after = solution.after
    plan = first.plan
    if after is None or plan is None or not check(position, after).legal:
        return Outcome(index, None, "checker refused the answer (a bug)")
    themes = themes_of(position, after, PuzzleKind.DRAW_OR_PILE)
    if request.themes and not set(request.themes) & set(themes):
        return Outcome(index, None, f"no theme {' or '.join(request.themes)}")
    graded = draw_grade(position, DrawSource.PILE, solution.gain)
    if request.tier is not None and graded.tier != request.tier:
        return Outcome(index, None, f"solved by {graded.rung}" if TIERS.index(graded.tier) < TIERS.index(request.tier)
                       else f"harder than {request.tier}")
    if any(d.gain is not None and d.gain > solution.gain for d in graded.decisions):
        return Outcome(index, None, "a human-like player beat the solver (a bug)")
    turn_margin = pile_turn_margin(position, first, config)
    if isinstance(turn_margin, str):
        return Outcome(index, None, turn_margin)
    bar = FAMILIES["robber"].margin_bars[TIERS.index(graded.tier)]
    if turn_margin < bar:
        return Outcome(index, None, f"turn margin under {bar:g}")
    difficulty = Difficulty(plan.plays_disturbed, len(plan.steps), plan.cards_moved, 1, False,
                            int(solution.stats.get("branches", 0)), solution.seconds, 0, graded.rung,
                            rung_gains(graded))
    name = f"{name_prefix(request)}{index:04d}"
    extra = (("turn_margin", turn_margin), ("draw_rungs", draw_rungs_data(graded)))
    puzzle = Puzzle(name, PuzzleKind.DRAW_OR_PILE, graded.tier, rules.name, request.seed, index, position,
                    answer_data(first), difficulty, margin, themes, extra)
    return Outcome(index, puzzle, None)


def pile_turn_margin(position: Position, first: Answer, config: SolverConfig) -> float | str:
    """What the pile's best turn wins by over every other turn after taking the pile (each way to
    meld the top card solved with the answer's final table excluded); a reason where it is not unique
    or a solve timed out."""
    after = first.solution.after
    assert after is not None  # the pile's answer has its turn
    second: float | None = None
    for opening, _, _ in pile_openings(position):
        rival = best(opening, replace(config, exclude=(after,)))
        status = rival.solution.status
        if status == Status.NO_LEGAL_TURN:
            continue
        if status != Status.OPTIMAL or rival.solution.after is None:
            return "timeout (uniqueness)"
        gain = robber_gain(position, rival.solution.after)
        second = gain if second is None else max(second, gain)
    if second is None:
        return first.solution.gain  # no other turn: the margin is the whole gain
    margin = first.solution.gain - second
    return margin if margin > 0 else "not unique"


def rung_gains(graded: DrawGrade) -> tuple[tuple[str, int | float | None], ...]:
    """Each draw rung climbed and the gain of its turn (None: it drew from the stock)."""
    return tuple((d.rung, d.gain) for d in graded.decisions)


def draw_rungs_data(graded: DrawGrade) -> list[dict[str, object]]:
    """Each draw rung climbed: its draw and the gain of its turn (the solution file's ``draw_rungs``)."""
    return [{"rung": d.rung, "draw": str(d.source), "gain": d.gain} for d in graded.decisions]


register_kind(Kind(PuzzleKind.DRAW_OR_PILE, ("robber",), DRAW_TASK, make_draw, tiers=DRAW_TIERS, judge=judge_draw))
