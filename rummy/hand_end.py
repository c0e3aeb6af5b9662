"""The end of a hand: recognised in the position a turn led to, and scored (issue 27 §1).

``hand_end(position)`` takes the position ``rummy.next_position.next_position``
gives (the turn passed, ``first_out`` recorded) and says whether the hand is
over, why, and what every player writes on the score sheet for it; None while
the hand goes on. ``next_hand(ending, ...)`` gives what the next hand needs
(who deals and moves first, the running totals). When each family's hand
ends, and how it is scored, is decided in docs/rules.md "The end of a hand".

- House (rules.md §5, the seed's rules 18-21): the hand ends when one side has
  gone out for good (full out) or the stock is exhausted (no stock card left:
  ``piles.stock`` 0 or empty, and no upcard), at the end of the turn that
  did it. Going out is for good, except Epic's first out before their
  re-entry turn (``reentered``). Score per side: its spaces' play scores;
  Classic less its unplayed cards' penalty; plus the first-out bonus; never
  below 0. Partners share their side's score.
- Robber (§7): a player went out, or the stock is empty after a turn (the turn
  of the player who drew its last card). Each player: the plays they own less
  their hand (aces 15); partnerships pool.
- Lay-off rummy (§8): a player went out. Straight: the winner scores the
  others' hands (doubled, or +10, for going rummy), the others 0;
  traditional: every loser writes their hand as penalty points, the winner 0.
- Tile rummy (§6): a player went out: the winner scores the others' racks,
  each other player minus their own. Or the pool is empty and nobody can play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .checker.draw_apply import empty_stock, first_out_reenters
from .errors import RummyError, quote
from .family import HOUSE, LAYOFF, ROBBER, TILE
from .position import Player, Position
from .rules import Ruleset
from .scoring import hand_penalty
from .vocabulary import FirstOutBonus, GoingRummy, Phase, Status

GOING_RUMMY_BONUS = 10  # lay-off rummy's "bonus10" variation (the Straight Rummy seed's variations)
PENALTY_POINTS_PRESETS = ("traditional",)  # lay-off presets whose sheet counts penalty points (lowest wins)


@dataclass(frozen=True)
class HandEnd:
    """A hand that is over: why, and each player's score for it, as written on the score sheet.

    ``scores``: one number per player (partners in House and Robber write their side's);
    ``side_scores``: per side where the family scores sides (House, Robber), else empty;
    ``lower_wins``: the sheet counts penalty points (traditional rummy);
    ``unscored``: why there are no scores (a hidden hand the score needs), else None.
    """

    reason: str
    scores: Mapping[str, int] | None = None
    side_scores: Mapping[str, int] = field(default_factory=dict)
    lower_wins: bool = False
    unscored: str | None = None
    went_out: str | None = None  # the player whose going out ended the hand, if one did

    def summary(self) -> str:
        """One line: ``ann went out; ann 35, bob -12``."""
        if self.scores is None:
            return f"{self.reason}; not scored: {self.unscored}"
        return f"{self.reason}; " + ", ".join(f"{name} {points}" for name, points in self.scores.items())

    def to_data(self) -> dict[str, object]:
        data: dict[str, object] = {"reason": self.reason}
        if self.scores is not None:
            data["scores"] = dict(self.scores)
        if self.side_scores:
            data["side_scores"] = dict(self.side_scores)
        if self.lower_wins:
            data["lower_wins"] = True
        if self.unscored is not None:
            data["unscored"] = self.unscored
        if self.went_out is not None:
            data["went_out"] = self.went_out
        return data


def hand_end(position: Position, before: Position | None = None) -> HandEnd | None:
    """The end of the hand in ``position``, the position a turn led to; None while the hand goes on.

    ``before``, the position that turn was played from, tells what the end state cannot: whether a lay-off
    player went rummy (nothing laid before this turn). Without it, going rummy is not counted.
    A position in the middle of a turn (the play phase of a family with a draw phase) is no hand end.
    """
    family = position.rules.family
    if family.draw_judge is not None and position.phase == Phase.PLAY:
        return None  # a draw carried out alone: the same player plays on
    if family == HOUSE:
        return _house_end(position)
    out = next((p for p in position.players if p.hand_size == 0), None)
    if family == ROBBER:
        if out is not None:
            return _robber_end(position, f"{out.name} went out", out.name)
        if _stock_empty(position):
            return _robber_end(position, "the stock is exhausted", None)
        return None
    if family == LAYOFF:
        return _layoff_end(position, out, before) if out is not None else None
    if family == TILE:
        if out is not None:
            return _tile_end(position, out, f"{out.name} went out")
        return _tile_blocked(position)
    return None


def _stock_empty(position: Position) -> bool:
    """No stock card left: counted 0 or listed empty, and no upcard (the unopened stock's top). An
    unknown stock (``piles.stock`` absent) is not known to be empty."""
    return position.stock is not None and position.upcard is None and empty_stock(position.stock)


def _hidden(players: tuple[Player, ...] | list[Player]) -> list[str]:
    return [p.name for p in players if p.hand is None and (p.hand_count or 0) > 0]


def _unscored(names: list[str]) -> str:
    if len(names) == 1:
        return f"{names[0]}'s hand is hidden (hand_count): the score counts its cards"
    return (f"{', '.join(names[:-1])} and {names[-1]}'s hands are hidden (hand_count): the score counts their "
            "cards")


# ---------------------------------------------------------------------------------------------- House


def out_for_good(position: Position, player: Player) -> bool:
    """House: the player has gone out for good: an empty hand, except Epic's first out before their
    re-entry turn (the seed's rule 19: first out is out for good only when out twice)."""
    if player.hand_size > 0:
        return False
    return not (first_out_reenters(position.rules) and player.name == position.first_out and not position.reentered)


def full_out_side(position: Position) -> str | None:
    """House: the side all of whose players have gone out for good (full out), if one has."""
    sides: dict[str, list[Player]] = {}
    for player in position.players:
        sides.setdefault(player.side, []).append(player)
    return next((side for side, members in sides.items() if all(out_for_good(position, p) for p in members)), None)


def _house_end(position: Position) -> HandEnd | None:
    sides: dict[str, list[Player]] = {}
    for player in position.players:
        sides.setdefault(player.side, []).append(player)
    full_out = full_out_side(position)
    if full_out is not None and not position.last_turns:  # no one more turn pending (rule 20)
        names = " and ".join(p.name for p in sides[full_out])
        reason = f"{names} went out" if len(sides[full_out]) == 1 else f"side {full_out} ({names}) went out"
        return _house_scored(position, sides, reason, full_out)
    if _stock_empty(position):
        return _house_scored(position, sides, "the stock is exhausted", full_out)
    if position.last_turns == ():
        return _house_scored(position, sides, "the last turns after full out are played", full_out)
    return None


def _house_scored(position: Position, sides: Mapping[str, list[Player]], reason: str,
                  side_out: str | None) -> HandEnd:
    """rules.md §5 "Hand end score" of every side: its spaces, Classic less its unplayed cards, plus
    the first-out bonus, never below 0; each player writes their side's."""
    from .checker.gain import side_table_points

    rules = position.rules
    went_out = next((p.name for p in sides[side_out]), None) if side_out is not None else None
    needed = list(position.players) if rules.hand_penalty_at_end else []
    first_out = position.player(position.first_out) if position.first_out is not None else None
    if first_out is not None and rules.first_out_bonus == FirstOutBonus.HANDS:
        needed = [p for p in position.players if p.side != first_out.side] if position.first_out_points is None else []
    hidden = _hidden(needed)
    if hidden:
        return HandEnd(reason, unscored=_unscored(hidden), went_out=went_out)
    points = side_table_points(position)
    side_scores: dict[str, int] = {}
    for side, members in sides.items():
        score = points[side]
        if rules.hand_penalty_at_end:
            score -= sum(hand_penalty(p.hand or (), rules) for p in members)
        if first_out is not None and first_out.side == side:
            score += house_first_out_bonus(position, first_out)
        side_scores[side] = max(score, 0)
    scores = {p.name: side_scores[p.side] for p in position.players}
    return HandEnd(reason, MappingProxyType(scores), MappingProxyType(side_scores), went_out=went_out)


def house_first_out_bonus(position: Position, first_out: Player) -> int:
    """Classic: 25. Epic: the penalty of first out's opponents' hands (partner excluded) at the moment they
    went out (``first_out_points``, which ``play`` records then); else those the position shows, all known
    here: the family's own bonus, as if first out were to move."""
    from dataclasses import replace

    if position.first_out_points is not None and position.rules.first_out_bonus == FirstOutBonus.HANDS:
        return position.first_out_points
    return int(HOUSE.first_out_bonus(replace(position, to_move=first_out.name)))


def first_out_points(position: Position) -> int | None:
    """House Epic, in the position where ``first_out`` has just gone out: their bonus, fixed now (the
    opponents' hands at that moment); None elsewhere, or where an opponent's hand is hidden."""
    first_out = position.first_out
    if first_out is None or position.rules.first_out_bonus != FirstOutBonus.HANDS:
        return None
    side = position.player(first_out).side
    if _hidden([p for p in position.players if p.side != side]):
        return None
    return house_first_out_bonus(position, position.player(first_out))


# --------------------------------------------------------------------------------------------- Robber


def _robber_end(position: Position, reason: str, went_out: str | None) -> HandEnd:
    """Each side: the plays its players own less their hands (rules.md §7)."""
    from .checker.gain import side_table_points

    hidden = _hidden(position.players)
    if hidden:
        return HandEnd(reason, unscored=_unscored(hidden), went_out=went_out)
    rules = position.rules
    side_scores = Counter(side_table_points(position))
    for player in position.players:
        side_scores[player.side] -= hand_penalty(player.hand or (), rules)
    sides = {p.side: side_scores[p.side] for p in position.players}
    scores = {p.name: sides[p.side] for p in position.players}
    return HandEnd(reason, MappingProxyType(scores), MappingProxyType(sides), went_out=went_out)


# ------------------------------------------------------------------------------------------- lay-off


def _layoff_end(position: Position, winner: Player, before: Position | None) -> HandEnd:
    """Straight: the winner scores the others' hands (going rummy: doubled, or +10); traditional
    (penalty points): every loser their own hand, the winner 0 (rules.md §8)."""
    rules = position.rules
    others = [p for p in position.players if p.name != winner.name]
    reason = f"{winner.name} went out"
    hidden = _hidden(others)
    if hidden:
        return HandEnd(reason, unscored=_unscored(hidden), went_out=winner.name)
    values = {p.name: hand_penalty(p.hand or (), rules) for p in others}
    if _penalty_points(rules):
        scores = {p.name: 0 if p.name == winner.name else values[p.name] for p in position.players}
        return HandEnd(reason, MappingProxyType(scores), lower_wins=True, went_out=winner.name)
    won = sum(values.values())
    if before is not None and went_rummy(before, winner.name):
        reason = f"{winner.name} went rummy"
        if rules.going_rummy == GoingRummy.DOUBLE:
            won *= 2
        elif rules.going_rummy == GoingRummy.BONUS10:
            won += GOING_RUMMY_BONUS
    scores = {p.name: won if p.name == winner.name else 0 for p in position.players}
    return HandEnd(reason, MappingProxyType(scores), went_out=winner.name)


def _penalty_points(rules: Ruleset) -> bool:
    return rules.name in PENALTY_POINTS_PRESETS


def went_rummy(before: Position, name: str) -> bool:
    """Going rummy: going out in one turn with nothing melded or laid off before it (Straight Rummy)."""
    player = before.player(name)
    return not player.plays and not player.layoffs


# ---------------------------------------------------------------------------------------------- tiles


def _tile_end(position: Position, winner: Player, reason: str) -> HandEnd:
    """The others' racks count against them; the winner scores their sum, less the winner's own rack
    (0 when they went out: the pool-empty case is docs/rules.md's)."""
    rules = position.rules
    hidden = _hidden(position.players)
    if hidden:
        return HandEnd(reason, unscored=_unscored(hidden), went_out=winner.name if winner.hand_size == 0 else None)
    racks = {p.name: hand_penalty(p.hand or (), rules) for p in position.players}
    others = sum(points for name, points in racks.items() if name != winner.name)
    scores = {name: others - points if name == winner.name else -points for name, points in racks.items()}
    return HandEnd(reason, MappingProxyType(scores), went_out=winner.name if winner.hand_size == 0 else None)


NOBODY_CAN_PLAY_SECONDS = 5.0  # per rack: whether any play exists is a small question for the solver


def _tile_blocked(position: Position) -> HandEnd | None:
    """The pool is empty and no player can play from their rack (each asked of the solver, from the
    position with that player to move): the lowest rack wins (first in seating order on a tie). With a
    hidden rack nobody can tell, and the hand goes on."""
    if not _stock_empty(position) or _hidden(position.players):
        return None
    from dataclasses import replace

    from .answer import best
    from .solution import SolverConfig

    for player in position.players:
        answer = best(replace(position, to_move=player.name, phase=Phase.PLAY),
                      SolverConfig(time_limit=NOBODY_CAN_PLAY_SECONDS))
        if answer.solution.status != Status.DRAW:
            return None
    rules = position.rules
    winner = min(position.players, key=lambda p: hand_penalty(p.hand or (), rules))
    return _tile_end(position, winner, "the pool is empty and nobody can play")


# ------------------------------------------------------------------------------------- the next hand

HOUSE_HANDS_PER_GAME = 6  # the seed's rule 3
# The totals that end a game (the seeds): Robber first to 400, Straight 500, traditional 100 penalty points.
GAME_TARGETS = {"robber": 400, "straight": 500, "traditional": 100}


@dataclass(frozen=True)
class NextHand:
    """What the next hand needs: its number, who deals and who moves first, and the running totals.
    ``game_over``: why the game is over after this hand (then there is no next hand to deal), else None."""

    hand_number: int
    dealer: str
    first: str
    totals: Mapping[str, int]
    game_over: str | None = None


def next_hand(ending: HandEnd, rules: Ruleset, players: tuple[str, ...] | list[str], hand_number: int, dealer: str,
              totals: Mapping[str, int] | None = None) -> NextHand:
    """After hand ``hand_number`` (1-based) dealt by ``dealer`` ended as ``ending``: the deal passes to the
    left (the next name in seating order, ``players``) and the player to the new dealer's left moves first;
    the totals are ``totals`` plus this hand's scores (an unscored hand adds nothing). The game is over after
    House's sixth hand, or when a total reaches the preset's target (``GAME_TARGETS``); tile rummy plays
    on for as long as the players agree."""
    names = list(players)
    if dealer not in names:
        raise RummyError(f"the dealer {quote(dealer)} is not a player ({', '.join(names)})")
    new_dealer = names[(names.index(dealer) + 1) % len(names)]
    first = names[(names.index(new_dealer) + 1) % len(names)]
    running = {name: (totals or {}).get(name, 0) + (ending.scores or {}).get(name, 0) for name in names}
    return NextHand(hand_number + 1, new_dealer, first, MappingProxyType(running),
                    _game_over(rules, hand_number, running, ending.lower_wins))


def _game_over(rules: Ruleset, hand_number: int, totals: Mapping[str, int], lower_wins: bool) -> str | None:
    if rules.family == HOUSE:
        return f"the game's {HOUSE_HANDS_PER_GAME} hands are played" if hand_number >= HOUSE_HANDS_PER_GAME else None
    target = GAME_TARGETS.get(rules.name)
    if target is None or max(totals.values(), default=0) < target:
        return None
    best = (min if lower_wins else max)(totals.values())
    leaders = " and ".join(name for name, points in totals.items() if points == best)
    return f"a total reached {target}: {leaders} {'win' if ' and ' in leaders else 'wins'}"
