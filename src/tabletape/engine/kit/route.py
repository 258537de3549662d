"""Lines between boxes that go around the other boxes: orthogonal routes in the gaps.

`routes(boxes, pairs)` returns, for each pair of boxes, a polyline from the edge of the
first to the edge of the second made of horizontal and vertical segments that run only
through the space between boxes (at least `gap` from any box but its two ends'). It is
a shortest path with a cost for each bend and for a segment another route already took
(so routes spread over the gaps), on the grid of the lines just outside every box's
edges and through every box's centre. Pure and deterministic; cached by its arguments.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left
from functools import lru_cache

Box = tuple[float, float, float, float]  # x, y, width, height
Point = tuple[float, float]

BEND = 40.0  # a bend costs as much as this much length
SHARED = 0.6  # a segment already taken by another route costs this much more per length


def routes(boxes: dict[str, Box], pairs: list[tuple[str, str]], gap: float = 6,
           ) -> list[list[Point]]:
    """Returns one route (a list of points) per pair, in the order of `pairs`."""
    key = tuple(sorted(boxes.items()))
    return [list(r) for r in _routes(key, tuple(pairs), gap)]


@lru_cache(maxsize=16)
def _routes(key: tuple[tuple[str, Box], ...], pairs: tuple[tuple[str, str], ...], gap: float,
            ) -> tuple[tuple[Point, ...], ...]:
    boxes = dict(key)
    xs_set: set[float] = set()
    ys_set: set[float] = set()
    for x, y, w, h in boxes.values():
        xs_set.update((x - gap, x + w / 2, x + w + gap))
        ys_set.update((y - gap, y + h / 2, y + h + gap))
    xs, ys = sorted(xs_set), sorted(ys_set)
    inflated = [(x - gap + 0.5, y - gap + 0.5, w + 2 * gap - 1, h + 2 * gap - 1)
                for x, y, w, h in boxes.values()]

    def free(i: int, j: int) -> bool:
        px, py = xs[i], ys[j]
        return not any(x < px < x + w and y < py < y + h for x, y, w, h in inflated)

    ok = [[free(i, j) for j in range(len(ys))] for i in range(len(xs))]
    used: dict[tuple[int, int, int, int], int] = {}
    out = []
    for a, b in pairs:
        path = _path(boxes[a], boxes[b], xs, ys, ok, used, gap)
        for (i1, j1), (i2, j2) in zip(path, path[1:], strict=False):
            used[(i1, j1, i2, j2)] = used.get((i1, j1, i2, j2), 0) + 1
            used[(i2, j2, i1, j1)] = used.get((i2, j2, i1, j1), 0) + 1
        pts = [(xs[i], ys[j]) for i, j in path]
        out.append(tuple(_simplify([_edge(boxes[a], pts[0]), *pts, _edge(boxes[b], pts[-1])])))
    return tuple(out)


def _ports(box: Box, xs: list[float], ys: list[float], gap: float) -> list[tuple[int, int]]:
    """Returns the grid nodes just outside the middle of each side of a box."""
    x, y, w, h = box
    ix = [bisect_left(xs, v) for v in (x - gap, x + w / 2, x + w + gap)]
    iy = [bisect_left(ys, v) for v in (y - gap, y + h / 2, y + h + gap)]
    return [(ix[1], iy[0]), (ix[1], iy[2]), (ix[0], iy[1]), (ix[2], iy[1])]


def _edge(box: Box, port: Point) -> Point:
    """Returns where a route leaving `box` at `port` touches the box's edge."""
    x, y, w, h = box
    px, py = port
    return (min(max(px, x), x + w), min(max(py, y), y + h))


def _path(a: Box, b: Box, xs: list[float], ys: list[float], ok: list[list[bool]],
          used: dict[tuple[int, int, int, int], int], gap: float) -> list[tuple[int, int]]:
    starts = [p for p in _ports(a, xs, ys, gap) if ok[p[0]][p[1]]]
    goals = {p for p in _ports(b, xs, ys, gap) if ok[p[0]][p[1]]}
    targets = [(xs[i], ys[j]) for i, j in goals]

    def guess(i: int, j: int) -> float:
        px, py = xs[i], ys[j]
        return min([abs(px - x) + abs(py - y) for x, y in targets])

    # a state: node and the direction it was entered (0 none, 1 horizontal, 2 vertical)
    best: dict[tuple[int, int, int], float] = {}
    came: dict[tuple[int, int, int], tuple[int, int, int] | None] = {}
    heap: list[tuple[float, float, tuple[int, int, int]]] = []
    for i, j in starts:
        s = (i, j, 0)
        best[s], came[s] = 0.0, None
        heapq.heappush(heap, (guess(i, j), 0.0, s))
    while heap:
        _, cost, s = heapq.heappop(heap)
        if cost > best.get(s, float("inf")):
            continue
        i, j, d = s
        if (i, j) in goals:
            path = []
            at: tuple[int, int, int] | None = s
            while at is not None:
                path.append((at[0], at[1]))
                at = came[at]
            return path[::-1]
        for di, dj, nd in ((1, 0, 1), (-1, 0, 1), (0, 1, 2), (0, -1, 2)):
            ni, nj = i + di, j + dj
            if not (0 <= ni < len(xs) and 0 <= nj < len(ys)) or not ok[ni][nj]:
                continue
            length = abs(xs[ni] - xs[i]) + abs(ys[nj] - ys[j])
            step = length * (1 + SHARED * used.get((i, j, ni, nj), 0))
            step += BEND if d and d != nd else 0
            n = (ni, nj, nd)
            if cost + step < best.get(n, float("inf")):
                best[n], came[n] = cost + step, s
                heapq.heappush(heap, (cost + step + guess(ni, nj), cost + step, n))
    raise ValueError("no route between two boxes: the boxes leave no gap around them")


def _simplify(pts: list[Point]) -> list[Point]:
    """Returns the points without repeats and without the middle of straight runs."""
    out: list[Point] = []
    for p in pts:
        if out and out[-1] == p:
            continue
        if len(out) >= 2 and (out[-2][0] == out[-1][0] == p[0] or out[-2][1] == out[-1][1] == p[1]):
            out[-1] = p
        else:
            out.append(p)
    return out
