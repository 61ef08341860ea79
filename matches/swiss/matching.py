"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm, O(V^3)).

The pairing search uses it as an oracle when its own depth-first search runs out of budget,
and to pair with the fewest rematches when some rematch cannot be avoided.
"""

from __future__ import annotations

from collections import deque


def maximum_matching(n: int, adjacency: list[list[int]]) -> list[int]:
    """``mate[v]`` for every vertex of a graph on 0..n-1 (-1 when unmatched)."""
    mate = [-1] * n
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    blossom = [False] * n

    def lowest_common_ancestor(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_path(v: int, b: int, child: int) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    def find_path(root: int) -> int:
        for i in range(n):
            used[i], parent[i], base[i] = False, -1, i
        used[root] = True
        queue = deque([root])
        while queue:
            v = queue.popleft()
            for to in adjacency[v]:
                if base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                    current = lowest_common_ancestor(v, to)
                    for i in range(n):
                        blossom[i] = False
                    mark_path(v, current, to)
                    mark_path(to, current, v)
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = current
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if mate[to] == -1:
                        return to
                    used[mate[to]] = True
                    queue.append(mate[to])
        return -1

    for v in range(n):  # a greedy start leaves few augmenting paths to find
        if mate[v] == -1:
            for to in adjacency[v]:
                if mate[to] == -1:
                    mate[v], mate[to] = to, v
                    break
    for v in range(n):
        if mate[v] == -1:
            u = find_path(v)
            while u != -1:
                pv = parent[u]
                ppv = mate[pv]
                mate[u], mate[pv] = pv, u
                u = ppv
    return mate
