"""Nine tiles or eight (issue 26): which rule lets the other suite's position play all nine hand tiles?

The position of gregorias/rummikubsolver's ``shouldSolveTheRummikubCompletely`` (docs/rules.md §6,
"Nine tiles or eight"). An independent set-partition search, sharing nothing with rummy's model:
every run and group of these tiles (at most one joker each, as the table holds one), chosen at most
twice each, must hold the table's tiles and the hand tiles played. Printed, one line a variant:

- the most hand tiles under the standard rules, and with runs that wrap around (12-13-1);
- for each rule rummy can relax (a group repeating a colour, a run of 2, a group of 2), whether
  all 41 tiles can be laid with just one play that breaks it, and that play;
- each table tile (other than the hand's own) that, taken back into the rack, lets all nine hand
  tiles be placed (what the other suite's integer program allows: its rack counts have no lower
  bound).

    python benchmarks/nine_or_eight.py      # about 2 s
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from ortools.sat.python import cp_model


def tiles(colour: str, low: int, high: int) -> list[str]:
    return [f"{colour}{n}" for n in range(low, high + 1)]


TABLE = (tiles("R", 5, 13) + tiles("B", 7, 13) + ["B10", "B1", "O1", "O10", "O11"] + tiles("K", 3, 7)
         + tiles("K", 9, 11) + ["K1", "K13", "*"])
HAND = ["R2", "R12", "B2", "O2", "O5", "O6", "O8", "K2", "K12"]
COLOURS = "RBOK"
ALL = Counter(TABLE) + Counter(HAND)
Play = tuple[str, ...]


def runs(shortest: int, wrap: bool) -> Iterator[Play]:
    for colour, start, length in itertools.product(COLOURS, range(1, 14), range(shortest, 14)):
        if not wrap and start + length - 1 > 13:
            continue
        numbers = [(start - 1 + k) % 13 + 1 for k in range(length)]
        for joker_at in [None, *range(length)]:
            yield tuple(sorted("*" if k == joker_at else f"{colour}{n}" for k, n in enumerate(numbers)))


def groups(smallest: int, largest: int, repeat_colours: bool) -> Iterator[Play]:
    for number, size in itertools.product(range(1, 14), range(smallest, largest + 1)):
        pool = [f"{c}{number}" for c in COLOURS] * (2 if repeat_colours else 1)
        for jokers in (0, 1):
            for chosen in itertools.combinations(pool, size - jokers):
                yield tuple(sorted([*chosen, *["*"] * jokers]))


def plays(run_min: int = 3, group_min: int = 3, wrap: bool = False, repeat_colours: bool = False) -> list[Play]:
    """Every play of the variant that these 41 tiles can make (no tile more often than they hold)."""
    found = set(runs(run_min, wrap)) | set(groups(group_min, 4, repeat_colours))
    return sorted(p for p in found if all(Counter(p)[t] <= ALL[t] for t in set(p)))


def standard(play: Play) -> bool:
    return play in STANDARD


STANDARD = set(plays())


def search(candidates: list[Play], table: Counter[str], most: bool, odd_at_most: int | None = None
           ) -> tuple[str, int, list[Play]]:
    """``most``: the most hand tiles placed; else every hand tile placed (feasibility)."""
    model = cp_model.CpModel()
    chosen = [model.new_int_var(0, 2, "") for _ in candidates]
    placed = {t: model.new_int_var(0, n, "") for t, n in Counter(HAND).items()}
    for tile in ALL:  # every tile, those a variant's table lacks included
        used = sum(chosen[i] * p.count(tile) for i, p in enumerate(candidates) if tile in p)
        model.add(used == table[tile] + placed.get(tile, 0))
    if odd_at_most is not None:
        model.add(sum(chosen[i] for i, p in enumerate(candidates) if not standard(p)) <= odd_at_most)
    if most:
        model.maximize(sum(placed.values()))
    else:
        model.add(sum(placed.values()) == len(HAND))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 120
    solver.parameters.num_workers = 2
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return solver.status_name(status), 0, []
    laid = [p for i, p in enumerate(candidates) for _ in range(solver.value(chosen[i]))]
    return solver.status_name(status), sum(solver.value(v) for v in placed.values()), laid


def main() -> None:
    table = Counter(TABLE)
    for name, candidates in (("standard rules", plays()), ("runs wrap around (12-13-1)", plays(wrap=True))):
        status, count, _ = search(candidates, table, most=True)
        print(f"{name}: at most {count} hand tiles ({status})")
    for name, candidates in (("a group repeating a colour", plays(repeat_colours=True)),
                             ("a run of 2", plays(run_min=2)), ("a group of 2", plays(group_min=2))):
        status, _, laid = search(candidates, table, most=False, odd_at_most=1)
        odd = [" ".join(p) for p in laid if not standard(p)]
        print(f"{name}, one at most: {'nine' if laid else 'not nine'} ({status}) {odd}")
    # A hand tile's own copy taken back is no move at all (the other suite counts it as 0 placed).
    for tile in sorted(set(table) - set(HAND)):
        status, _, laid = search(sorted(STANDARD), table - Counter([tile]), most=False)
        if laid:
            print(f"{tile} taken back into the rack: nine placed ({status})")


if __name__ == "__main__":
    main()
