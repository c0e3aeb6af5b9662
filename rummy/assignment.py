"""Maximum-weight assignment (the Hungarian method), for the move planner and
the checker of extend-only tables (which play before grew into which after).

Both used networkx's matching, but importing networkx costs about 90 ms of
every `rummy best` start, a third of the start-up budget; the matrices here
are small (plays before x plays after), so an O(n^3) method in plain Python
takes well under a millisecond.
"""

from __future__ import annotations


def max_weight_assignment(weights: list[list[float]]) -> list[tuple[int, int]]:
    """Pairs (row, column) of positive weight maximising the total; each row and column used once."""
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    if not rows or not cols:
        return []
    size = max(rows, cols)
    top = max(max(row) for row in weights)
    # Minimise cost = top - weight on a square matrix padded with zero-weight cells.
    cost = [[top - (weights[i][j] if i < rows and j < cols else 0.0) for j in range(size)] for i in range(size)]
    infinity = float("inf")
    u = [0.0] * (size + 1)
    v = [0.0] * (size + 1)
    owner = [0] * (size + 1)  # owner[column] = row assigned to it (1-based; 0 = none)
    way = [0] * (size + 1)
    for i in range(1, size + 1):
        owner[0] = i
        j0 = 0
        least = [infinity] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = owner[j0], infinity, 0
            for j in range(1, size + 1):
                if used[j]:
                    continue
                reduced = cost[i0 - 1][j - 1] - u[i0] - v[j]
                if reduced < least[j]:
                    least[j], way[j] = reduced, j0
                if least[j] < delta:
                    delta, j1 = least[j], j
            for j in range(size + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    pairs = []
    for j in range(1, size + 1):
        i = owner[j]
        if i and i <= rows and j <= cols and weights[i - 1][j - 1] > 0:
            pairs.append((i - 1, j - 1))
    return sorted(pairs)
