"""A table players can read (issue 27, item 6): full card names, wrapped and never cut;
hand counts worded as "cards / hand size"; a finished game's results kept."""

from __future__ import annotations

import glob
import re

import pytest

from tabletape import engine
from tabletape.app import pictures
from tabletape.engine.kit.svg import wrap
from tabletape.tape.words import counted
from tests.narrow import present

Box = tuple[float, float, float, float]  # x, y, width, height


def crosses(a: tuple[float, float], b: tuple[float, float], box: Box) -> bool:
    """Returns whether the axis-parallel segment a-b passes through the inside of `box`
    (touching its edge is not crossing)."""
    x, y, w, h = box
    (x1, y1), (x2, y2) = a, b
    lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
    return lo_x < x + w and hi_x > x and lo_y < y + h and hi_y > y



def texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_wrap_keeps_every_character():
    assert wrap("Anti-Tank Gun", 11) == ["Anti-Tank", "Gun"]
    assert wrap("Codebreakers", 5) == ["Codeb", "reake", "rs"]
    assert wrap("", 5) == [""]
    for s in ("Shore Bombardment", "a b c d e f", "Nuclear Weapons"):
        for n in range(1, 20):
            assert "".join(wrap(s, n)).replace(" ", "") == s.replace(" ", "")
            assert all(len(r) <= n for r in wrap(s, n))


@pytest.mark.parametrize("path", sorted(glob.glob("replays/cards-of-war/*.jsonl")))
def test_cards_of_war_hand_names_are_whole(path):
    result = engine.replay(path)
    rs = result.ruleset
    assert result.fold is not None
    for state in (result.fold.state,):
        assert rs is not None
        svg = pictures.draw(rs, state).svg()
        shown = " ".join(texts(svg))
        assert "…" not in shown.replace("next:", "")
        for p, hand in state.hands.items():
            for name in hand:
                assert all(word in shown for word in name.split()), name
            assert f"{len(hand)} cards / hand size {state.hand_size[p]}" in shown


def test_a_finished_cards_of_war_game_keeps_its_results():
    result = engine.replay("replays/cards-of-war/sim-normal.jsonl")
    assert result.ruleset is not None
    assert result.fold is not None
    svg = pictures.draw(result.ruleset, result.fold.state).svg()
    shown = texts(svg)
    assert "game over — winner: alice" in shown
    assert "round 1: bob, round 2: alice, round 3: alice; rounds won: alice 2, bob 1" in shown
    assert not any(t.startswith("battle ") for t in shown)  # not three empty battles


def test_liberation_shows_the_slot_numbers_and_whole_hands():
    path = sorted(glob.glob("replays/liberation/*.jsonl"))[0]
    result = engine.replay(path, to=25)
    assert result.fold is not None
    state = result.fold.state
    assert result.ruleset is not None
    shown = texts(pictures.draw(result.ruleset, state).svg())
    for p in state.players:
        assert f"{counted(len(state.hands[p]), 'card')} in hand:" in shown
        for card in state.hands[p]:
            assert any(card in t for t in shown), card
    rows = max(len(r) for r in state.played.values())
    assert rows and shown.count("slot 0") == sum(1 for r in state.played.values() if r)
    assert f"slot {rows - 1}" in shown
    assert not any("…" in t for t in shown)


def test_global_domination_lists_every_action_stack():
    result = engine.replay("replays/global-domination/cards-builds-and-scoring.jsonl")
    assert result.ruleset is not None
    assert result.fold is not None
    svg = pictures.draw(result.ruleset, result.fold.state).svg()
    joined = " ".join(texts(svg))
    for name in result.fold.state.stacks:
        assert name in joined
    assert "…" not in joined


def _areas_and_routes(svg: str) -> tuple[dict[str, Box], list[list[tuple[float, ...]]]]:
    """Returns each Area's box (its group's first rect) and each route's points, from the SVG."""
    boxes: dict[str, Box] = {}
    for name, body in re.findall(r'<g data-part="area ([^"]+)">(.*?)</g>', svg):
        x, y, w, h = (float(v) for v in present(re.search(
            r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', body)).groups())
        boxes[name] = (x, y, w, h)
    routes = [[tuple(float(v) for v in pt.split(",")) for pt in pts.split()]
              for pts in re.findall(r'<polyline points="([^"]+)"[^>]*class="route"', svg)]
    return boxes, routes


def _on_edge(p, box) -> bool:
    x, y, w, h = box
    inside = x <= p[0] <= x + w and y <= p[1] <= y + h
    return inside and (p[0] in (x, x + w) or p[1] in (y, y + h))


@pytest.mark.parametrize("width", [960, 360])
@pytest.mark.parametrize("path", sorted(glob.glob("replays/global-domination/*.jsonl")))
def test_global_domination_routes_go_around_the_boxes(path, width):
    """Every adjacency drawn as a route of horizontal and vertical segments from the edge
    of one Area's box to the other's, no segment through any Area's box (nor the two ends':
    a route starts and ends on their edges)."""
    result = engine.replay(path)
    rs = result.ruleset
    assert rs is not None
    assert result.fold is not None
    svg = rs.svg.draw(rs, result.fold.state, "next", width).svg()
    boxes, routes = _areas_and_routes(svg)
    lk = rs.lk
    assert set(boxes) == set(lk.areas)
    pairs = {frozenset((a, b)) for a in lk.areas for b in lk.adjacent[a]}
    ends = set()
    for r in routes:
        assert len(r) >= 2
        for (x1, y1), (x2, y2) in zip(r, r[1:], strict=False):
            assert x1 == x2 or y1 == y2, r  # orthogonal
            hit = [a for a, box in boxes.items() if crosses((x1, y1), (x2, y2), box)]
            assert hit == [], (r, hit)
        first = [a for a, box in boxes.items() if _on_edge(r[0], box)]
        last = [a for a, box in boxes.items() if _on_edge(r[-1], box)]
        assert len(first) == len(last) == 1, r
        ends.add(frozenset((first[0], last[0])))
    assert ends == pairs and len(routes) == len(pairs)  # every adjacency, once


def test_a_route_that_would_cross_a_box_is_seen():
    """The check above sees a line through a box (the old straight lines)."""
    from tabletape.engine.kit.route import routes
    box = (10.0, 10.0, 20.0, 10.0)
    assert crosses((0, 15), (40, 15), box) and not crosses((0, 5), (40, 5), box)
    assert not crosses((10, 0), (10, 30), box)  # along its edge
    [r] = routes({"a": (0, 0, 10, 10), "b": (60, 0, 10, 10), "c": (30, -20, 10, 50)},
                 [("a", "b")])
    assert not any(crosses(p, q, (30, -20, 10, 50)) for p, q in zip(r, r[1:], strict=False))
