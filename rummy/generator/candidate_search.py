"""The generator loop: deal candidates, solve them, keep the unique ones of the wanted tier.

Candidate ``i`` of a request is dealt from ``random.Random`` seeded with the
seed, preset, kind, tier asked for and ``i``; every solve uses one worker
and the solver's fixed seed. Candidates are judged in parallel processes
but taken in index order, and the run stops at the ``count``-th puzzle, so
a seed gives the same puzzles (and the same summary) whatever the number of
processes. Only a solve cut short by ``time_limit`` depends on the machine.
A run starts at most one process a core (``available_cores``): more would
only queue for the CPUs, each holding its own solver's memory.

Per candidate, cheapest test first: deal, solve (proven optimal, else
"timeout"), the kind's test, the checker, the themes (rummy.themes: "no theme
NAME" when none of those --theme asks for), the tier (the weakest human-like
player of ``rummy.ladder`` that finds the optimum: a candidate that a player
below the tier asked for solves is rejected as "solved by RUNG"), a theme for
every tier but easy ("no theme": plain-play alone counts as none), for easy
and medium puzzles no answer that wins by a rule corner, uniqueness with the
near count, and the margin over the second best (at least the family's bar
for the tier). The run itself then keeps its themes spread (``Spread``).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any

from ..answer import answer_data, best
from ..checker import check, turn_gain
from ..errors import RummyError, with_prefix
from ..parallel import cores, runner
from ..position import Position, PuzzleStatement
from ..rules import preset
from ..solution import GENERATE_TIME_LIMIT, SolverConfig
from ..themes import THEMES, family_themes, idea_themes, themes_of
from ..vocabulary import PuzzleKind, Status, Tier
from .difficulty import NEAR_CAP, TIERS, Difficulty, grade, tier_of
from .kinds import FAMILIES, kind_for
from .rules_notes import rules_note
from .unique import judge

# Candidates dealt per puzzle asked for before the run gives up.
CANDIDATES_PER_PUZZLE = 400
SPREAD_TIERS = (Tier.HARD, Tier.EXPERT)  # the tiers the spread rule of themes holds for


@dataclass(frozen=True)
class Request:
    rules: str  # a preset name
    kind: PuzzleKind  # as text too: validate() refuses an unknown word
    count: int
    tier: Tier | None = None  # None: any tier
    seed: int = 0
    time_limit: float = GENERATE_TIME_LIMIT  # per solve
    workers: int = 2  # processes judging candidates (--jobs; 0: one a core)
    max_candidates: int | None = None
    cluster: str | None = None  # a Dask scheduler's address: candidates are judged there instead
    themes: tuple[str, ...] = ()  # --theme: a puzzle needs at least one of these (none given: any)
    spread: bool = True  # no theme on more than half of the run's hard and expert puzzles (--no-spread)
    games: tuple[str, ...] = ()  # game records to mine (--games): candidate i is the i-th record

    @property
    def limit(self) -> int:
        limit = self.max_candidates if self.max_candidates is not None else self.count * CANDIDATES_PER_PUZZLE
        return min(limit, len(self.games)) if self.games else limit


@dataclass(frozen=True)
class Puzzle:
    name: str
    kind: PuzzleKind
    tier: Tier
    rules: str
    seed: int
    index: int
    position: Position
    answer: dict[str, Any]  # the ``best --json`` object
    difficulty: Difficulty
    margin: float | str  # best gain minus the second best, or unique.NO_OTHER_TURN
    themes: tuple[str, ...] = ()  # the ideas the best turn needs (rummy.themes)
    extra: tuple[tuple[str, Any], ...] = ()  # more keys of the solution file, the kind's own (formats.md)

    def statement(self) -> PuzzleStatement:
        """The puzzle's ``[puzzle]`` table: its kind, tier, task, target (the best gain), themes and the
        rule that decides it (``rules_note``), never the answer."""
        rules = preset(self.rules)
        task = kind_for(self.kind, rules).task_for(rules)
        note = rules_note(self.position, Position.from_data(self.answer["after"], strict=False))
        return PuzzleStatement(str(self.kind), str(self.tier), task, self.answer["gain"], note, themes=self.themes)

    def solution_data(self) -> dict[str, Any]:
        """The solution file: the ``best --json`` answer, then what the generator measured."""
        return {
            **self.answer,
            "puzzle": self.name,
            "kind": self.kind,
            "tier": self.tier,
            "unique": True,
            "margin": self.margin,
            "difficulty": self.difficulty.to_data(),
            "themes": list(self.themes),
            **dict(self.extra),
        }


@dataclass(frozen=True)
class Outcome:
    index: int
    puzzle: Puzzle | None
    reason: str | None  # why the candidate was rejected


@dataclass
class Report:
    request: Request
    puzzles: list[Puzzle] = field(default_factory=list)
    rejected: Counter[str] = field(default_factory=Counter)
    candidates: int = 0
    seconds: float = 0.0

    @property
    def short(self) -> bool:
        return len(self.puzzles) < self.request.count


def validate(request: Request) -> None:
    """Bad options as RummyError (one line, exit 2 at the command line)."""
    try:
        rules = preset(request.rules)
    except RummyError as error:
        raise with_prefix(error, "--rules") from None
    kind = kind_for(request.kind, rules)
    if request.tier is not None and request.tier not in TIERS:
        raise RummyError(f"--difficulty: unknown tier {request.tier!r} (known: {', '.join(TIERS)})")
    if request.tier is not None and request.tier not in kind.tiers:
        raise RummyError(f"--difficulty: kind {kind.name!r} is never {request.tier} "
                         f"(its tiers: {', '.join(kind.tiers)})")
    if request.count < 1:
        raise RummyError(f"--count: at least 1 puzzle, got {request.count}")
    if request.time_limit <= 0:
        raise RummyError(f"--time-limit: must be more than 0 seconds, got {request.time_limit}")
    possible = family_themes(rules.family.name, kind.name)
    for name in request.themes:
        if name not in THEMES:
            raise RummyError(f"--theme: unknown theme {name!r} (known: {', '.join(THEMES)})")
        if name not in possible:
            raise RummyError(f"--theme: {rules.name} puzzles of kind {kind.name!r} are never given theme {name!r} "
                             f"(theirs: {', '.join(possible)})")
    if request.games:
        if kind.from_game is None:
            raise RummyError(f"--games: kind {kind.name!r} makes its own positions (only 'mined' mines games)")
        from .mined_kinds import validate_records

        validate_records(request.games, rules)


def available_cores() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    return cores()


def workers_for(request: Request) -> int:
    """Processes a run starts: ``request.workers`` (0: one a core), never more than the cores (more
    only queue for them)."""
    return max(1, min(request.workers or available_cores(), available_cores()))


def name_prefix(request: Request) -> str:
    """What every puzzle name of the request starts with (``PRESET-KIND-TIER-sSEED-``); the
    candidate's index follows."""
    rules = preset(request.rules)
    return _prefix(rules.name, kind_for(request.kind, rules).name, request.tier, request.seed)


def _prefix(rules: str, kind: str, tier: str | None, seed: int) -> str:
    return f"{rules}-{kind}-{tier or 'any'}-s{seed}-"


def generate(request: Request, on_outcome: Callable[[Outcome, Report], None] | None = None) -> Report:
    validate(request)
    report = Report(request)
    started = time.perf_counter()
    outcomes = _outcomes(request)
    try:
        spread = Spread(request)
        for outcome in outcomes:
            report.candidates += 1
            if outcome.puzzle is not None:
                outcome = spread.judge(outcome)
            if outcome.puzzle is not None:
                report.puzzles.append(outcome.puzzle)
            else:
                report.rejected[outcome.reason or "rejected"] += 1
            if on_outcome is not None:
                on_outcome(outcome, report)
            if len(report.puzzles) >= request.count:
                break
    finally:
        outcomes.close()  # stops the processes now, also when on_outcome raised
    report.seconds = time.perf_counter() - started
    return report


class Spread:
    """The spread rule of a run (docs/generate.md "Themes"): no theme on more than ``max(1, count // 2)``
    of the run's hard and expert puzzles, the themes asked for with --theme aside. Judged as outcomes
    arrive in index order, so a seed still makes the same puzzles whatever the number of processes."""

    def __init__(self, request: Request) -> None:
        self.on = request.spread
        self.cap = max(1, request.count // 2)
        self.asked = set(request.themes)
        self.counts: Counter[str] = Counter()

    def judge(self, outcome: Outcome) -> Outcome:
        """The outcome, or its rejection if its puzzle would break the rule; counts what it keeps."""
        puzzle = outcome.puzzle
        if puzzle is None or not self.on or puzzle.tier not in SPREAD_TIERS:
            return outcome
        over = [name for name in puzzle.themes if name not in self.asked and self.counts[name] >= self.cap]
        if over:
            return Outcome(outcome.index, None, f"theme {over[0]} would cover more than half")
        self.counts.update(puzzle.themes)
        return outcome


def _outcomes(request: Request) -> Generator[Outcome, None, None]:
    """Outcomes in index order, whoever judges them (this process, a pool of them, a Dask cluster):
    the same seed makes the same puzzles however many judge."""
    run = runner(workers_for(request), request.cluster)
    try:
        yield from run.ordered(candidate, ((request, index) for index in range(request.limit)))
    finally:
        run.close()


def candidate(request: Request, index: int) -> Outcome:
    """Deal candidate ``index`` of the request and judge it."""
    rules = preset(request.rules)
    kind = kind_for(request.kind, rules)
    wanted = request.tier or "any"
    rng = random.Random(f"{request.seed}/{rules.name}/{kind.name}/{wanted}/{index}")
    made: Position | tuple[Position, ...] | None
    if request.games and kind.from_game is not None:
        try:
            made = kind.from_game(request.games[index], rules)
        except RummyError:  # read by validate(): only a turn that does not replay is left
            return Outcome(index, None, "the game does not replay")
    elif request.themes and kind.steered is not None:
        made = kind.steered(rng, rules, request.tier, tuple(request.themes))
    else:
        made = kind.make(rng, rules, request.tier)
    if not isinstance(made, tuple):
        return judged(request, index, made)
    # Several positions (a mined game's, the most instructive first): the candidate is the first that
    # passes every test; where none does, the first one's rejection is the candidate's.
    first: Outcome | None = None
    for position in made:
        outcome = judged(request, index, position)
        if outcome.puzzle is not None:
            return outcome
        first = first or outcome
    return first or Outcome(index, None, "deal failed")


def judged(request: Request, index: int, position: Position | None) -> Outcome:
    """Candidate ``index``'s position judged: solved, the kind's test, the tier, unique, the margin."""
    rules = preset(request.rules)
    kind = kind_for(request.kind, rules)
    support = FAMILIES[rules.family]
    if position is None:
        return Outcome(index, None, "deal failed")
    if kind.judge is not None:
        return kind.judge(request, index, position)
    config = SolverConfig(time_limit=request.time_limit, workers=1, seed=0)
    first = best(position, config)
    solution = first.solution
    if solution.status != Status.OPTIMAL:
        return Outcome(index, None, "nothing plays" if solution.status == Status.DRAW else "timeout")
    if kind.accept is not None:
        reason = kind.accept(position, first)
        if reason:
            return Outcome(index, None, reason)
    plan = first.plan
    after = solution.after
    assert plan is not None and after is not None  # an optimal answer has its turn, and so its plan
    disturbed, steps, moved = plan.plays_disturbed, len(plan.steps), plan.cards_moved
    if not check(position, after).legal:
        return Outcome(index, None, "checker refused the answer (a bug)")
    themes = themes_of(position, after, kind.name)
    if request.themes and not set(request.themes) & set(themes):
        return Outcome(index, None, f"no theme {' or '.join(request.themes)}")
    graded = grade(position, turn_gain(position, after))  # exact: Epic's gains are fractions
    if graded.beaten:
        return Outcome(index, None, "a human-like player beat the solver (a bug)")
    if request.tier is not None and graded.tier != request.tier:
        return Outcome(index, None, graded.rejection(request.tier))
    if graded.tier not in kind.tiers:
        return Outcome(index, None, f"graded {graded.tier}, a tier the kind does not offer")
    if not idea_themes(themes) and graded.tier != Tier.EASY:
        return Outcome(index, None, "no theme")
    if support.corner is not None and TIERS.index(graded.tier) <= TIERS.index(Tier.MEDIUM):
        reason = support.corner(position, plan)
        if reason:
            return Outcome(index, None, reason)
    verdict = judge(position, first, config, support, NEAR_CAP)
    if verdict.reason:
        return Outcome(index, None, verdict.reason)
    assert verdict.margin is not None  # judge measures the margin of every unique puzzle
    bar = support.margin_bars[TIERS.index(graded.tier)]
    if isinstance(verdict.margin, (int, float)) and verdict.margin < bar:
        return Outcome(index, None, f"margin under {bar:g}")
    difficulty = Difficulty(disturbed, steps, moved, verdict.near, verdict.near_capped,
                            int(solution.stats.get("branches", 0)), solution.seconds, verdict.proof_branches,
                            graded.rung, graded.rung_gains, tier_of(Difficulty(disturbed, steps, moved), rules.family))
    name = f"{_prefix(rules.name, kind.name, request.tier, request.seed)}{index:04d}"
    puzzle = Puzzle(name, kind.name, graded.tier, rules.name, request.seed, index, position, answer_data(first),
                    difficulty, verdict.margin, themes)
    return Outcome(index, puzzle, None)
