"""The Global Domination table as SVG: `draw(game, state, pending)`, the game bound.

The world map as a schematic (the Land Areas grouped by Region, the Seas in a band
between them, adjacency as lines), each Area's Force in its owner's colour (Full:
solid; Struggling: pale and dashed), the Turn and Logistics tracks, and each
player's VP, hand, Draw Deck and discards (another player's hand is backs when the
state is a player's `view`).
"""

from __future__ import annotations

from collections import Counter

from tabletape.engine.kit.svg import (
    CARD,
    FAINT,
    INK,
    Drawing,
    card,
    circle,
    clip,
    group,
    line,
    lines,
    rect,
    seat_colour,
    text,
)
from tabletape.engine.kit.turns import HIDDEN

from . import GlobalDomination
from .state import Phase, State

W = 960
AREA_W, AREA_H = 250, 34


def _layout(game: GlobalDomination) -> tuple[dict[str, tuple[float, float]], list[str], int]:
    """Returns each Area's box corner, the Regions' frames and where the map ends."""
    lk = game.lk
    cols = (len(lk.regions) + 1) // 2
    col_w = (W - 40) / max(cols, 1)
    per = max([1, *(len(lk.in_region[r]) for r in lk.regions)])
    region_h = 28 + per * (AREA_H + 6)
    top, band = 50, 90
    pos: dict[str, tuple[float, float]] = {}
    frames = []
    for i, r in enumerate(lk.regions):
        x, y = 20 + (i // 2) * col_w, top + (i % 2) * (region_h + band)
        frames.append(rect(x, y, col_w - 16, region_h, fill="#efe9da", stroke=FAINT)
                      + text(x + 8, y + 18, r, size=13, weight="bold"))
        for k, a in enumerate(lk.in_region[r]):
            pos[a] = (x + 8 + (col_w - 16 - 16 - AREA_W) / 2, y + 26 + k * (AREA_H + 6))
    sea_w = (W - 40) / max(len(lk.sea), 1)
    for k, s in enumerate(lk.sea):
        pos[s] = (20 + k * sea_w + (sea_w - 120) / 2, top + region_h + band / 2 - AREA_H / 2)
    return pos, frames, top + 2 * region_h + band


def draw(game: GlobalDomination, state: State, pending: str) -> Drawing:
    """Returns the table: the map, the tracks, the players."""
    lk = game.lk
    players = state.players
    turn = "Start" if state.game_turn == 0 else ("End" if state.phase is Phase.OVER
                                                 else str(state.game_turn))
    title = f"Global Domination — Game Turn {turn} — {state.phase.value}"
    pos, frames, bottom = _layout(game)

    def centre(a: str) -> tuple[float, float]:
        x, y = pos[a]
        w = AREA_W if a not in lk.sea else 120
        return x + w / 2, y + AREA_H / 2

    seen: set[tuple[str, str]] = set()
    links = []
    for a in lk.areas:
        for b in sorted(lk.adjacent[a]):
            if (b, a) in seen or a not in pos or b not in pos:
                continue
            seen.add((a, b))
            (x1, y1), (x2, y2) = centre(a), centre(b)
            links.append(line(x1, y1, x2, y2, stroke="#b9b2a0"))
    parts = [group(text(16, 28, title, size=17, weight="bold"), label="title"),
             group(*links, *frames, label="map")]
    for a in lk.areas:
        if a in pos:
            parts.append(_area(game, state, a, *pos[a]))
    y = bottom + 14
    parts.append(_tracks(game, state, y))
    y += 86
    for p in players:
        parts.append(_player(game, state, p, y))
        y += 52
    stacks = ", ".join(f"{c} ({n})" for c, n in state.stacks.items()) or "not chosen yet"
    listed, n = lines(16, y + 16, f"Action stacks: {stacks}", 150, size=11)  # whole
    y += (n - 1) * 13
    parts.append(group(listed,
                       lines(16, y + 36, pending, 130, size=12, weight="bold")[0],
                       label="footer"))
    return Drawing(W, y + 52, f"{title}; {pending}", parts)


def _area(game: GlobalDomination, state: State, a: str, x: float, y: float) -> str:
    lk = game.lk
    sea = a in lk.sea
    w = 120 if sea else AREA_W
    f = state.board.get(a)
    colour = seat_colour(state.players, f.owner) if f else FAINT
    if f is None:
        box = rect(x, y, w, AREA_H, fill="#dbe9f4" if sea else CARD, stroke=FAINT,
                   rx=16 if sea else 4)
    else:
        box = rect(x, y, w, AREA_H, fill=colour, stroke=colour, rx=16 if sea else 4,
                   opacity=1 if f.full else 0.3, width=2, dash="" if f.full else "4 2")
    ink = "#fff" if f is not None and f.full else INK
    res = lk.areas[a].resource
    sym = next((r.symbol for r in game.header.components.resources if r.name == res), "") \
        if res else ""
    items = [box, text(x + 8, y + 14, clip(a, 17 if sea else 26), size=10 if sea else 11,
                       weight="bold", fill=ink)]
    if sym:
        items.append(text(x + w - 8, y + 14, sym, size=10, anchor="end", fill=ink))
    if f is not None:
        items.append(text(x + 8, y + 28, f"{f.owner} · {'Full' if f.full else 'Struggling'}",
                          size=10, fill=ink))
    return group(*items, label=f"area {a}")


def _tracks(game: GlobalDomination, state: State, y: float) -> str:
    lk = game.lk
    players = state.players
    items = [text(16, y + 14, "Turn", size=12, weight="bold")]
    squares = ["Start", *(str(n) for n in range(1, lk.tracks.turns + 1)), "End"]
    now = "End" if state.phase is Phase.OVER else squares[min(state.game_turn, len(squares) - 2)]
    for k, sq in enumerate(squares):
        x = 100 + k * 54
        items.append(rect(x, y, 50, 22, fill=INK if sq == now else CARD, stroke=FAINT))
        items.append(text(x + 25, y + 15, sq, size=11, anchor="middle",
                          fill="#fff" if sq == now else INK))
    low, high = lk.tracks.logistics.low, lk.tracks.logistics.high
    items.append(text(16, y + 52, "Logistics", size=12, weight="bold"))
    at = Counter[int]()
    for n in range(low, high + 1):
        x = 100 + (n - low) * 54
        items.append(rect(x, y + 36, 50, 26, fill=CARD, stroke=FAINT))
        items.append(text(x + 4, y + 47, str(n), size=9, fill=FAINT))
    for p in players:
        n = max(low, min(high, state.logistics[p]))
        x = 100 + (n - low) * 54 + 14 + at[n] * 8
        at[n] += 1
        items.append(circle(x, y + 54, 5, fill=seat_colour(players, p), stroke=INK))
    return group(*items, label="tracks")


def _player(game: GlobalDomination, state: State, p: str, y: float) -> str:
    colour = seat_colour(state.players, p)
    status = ("First Player; " if p == state.first else "") + (
        "passed" if p in state.passed else "to play" if p == state.current else "")
    deck = sum(state.decks[p].values())
    items = [rect(16, y, W - 32, 46, fill="#fbf8ef", stroke=colour),
             text(26, y + 18, p, size=14, weight="bold", fill=colour),
             text(26, y + 36, f"VP {state.vp[p]} · Logistics {state.logistics[p]}", size=11),
             text(W - 26, y + 18, status.strip("; "), size=11, anchor="end"),
             text(W - 26, y + 36, f"deck {deck} · discard {len(state.discards[p])}", size=11,
                  anchor="end", fill=FAINT)]
    hand = state.hands[p]
    for k, name in enumerate(hand[:8]):
        items.append(card(190 + k * 72, y + 6, 68, 34, name, hidden=name == HIDDEN,
                          colour=colour))
    if len(hand) > 8:
        items.append(text(190 + 8 * 72, y + 28, f"+{len(hand) - 8}", size=11))
    if not hand:
        items.append(text(190, y + 28, "empty hand", size=11, fill=FAINT))
    return group(*items, label=f"player {p}")
