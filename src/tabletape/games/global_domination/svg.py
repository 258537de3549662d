"""The Global Domination table as SVG: `draw(game, state, pending)`, the game bound.

The world map as a schematic (the Land Areas grouped by Region, the Seas in a band
between them, adjacency as lines), each Area's Force in its owner's colour (Full:
solid; Struggling: pale and dashed), the Turn and Logistics tracks, and each
player's VP, hand, Draw Deck and discards (another player's hand is backs when the
state is a player's `view`).
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from tabletape.engine.kit import route
from tabletape.engine.kit.svg import (
    CARD,
    FAINT,
    INK,
    Drawing,
    card,
    circle,
    clip,
    group,
    lines,
    polyline,
    rect,
    seat_colour,
    text,
)
from tabletape.engine.kit.turns import HIDDEN

from . import GlobalDomination
from . import lookups as q
from .state import Force, Phase, State

W = 960
AREA_H = 34
GAP = 6  # routes run at least this far from any box: boxes are twice as far apart


class Map:
    """Where each Area's box is (x, y, width, height), the Regions' frames, the map's end."""

    def __init__(self, game: GlobalDomination, width: int, top: float = 44) -> None:
        lk = game.lk
        self.narrow = width < 600
        self.width = width
        north = [r for i, r in enumerate(lk.regions) if i % 2 == 0]
        south = [r for i, r in enumerate(lk.regions) if i % 2 == 1]
        cols = 2 if self.narrow else max(len(north), len(south), 1)
        col_w = (width - 24) / cols
        area_w = col_w - 32 if self.narrow else min(250.0, col_w - 40)
        per = max([1, *(len(lk.in_region[r]) for r in lk.regions)])
        region_h = 28 + per * (AREA_H + 3 * GAP) + GAP
        self.box: dict[str, tuple[float, float, float, float]] = {}
        self.frames: list[str] = []
        self.titles: dict[str, tuple[float, float, float, float]] = {}
        y = top

        def regions(names: list[str], y: float) -> float:
            for i, r in enumerate(names):
                x = 12 + (i % cols) * col_w
                top = y + (i // cols) * (region_h + 4 * GAP)
                self.frames.append(rect(x + GAP, top, col_w - 2 * GAP, region_h,
                                        fill="#efe9da", stroke=FAINT)
                                   + text(x + GAP + 8, top + 18, r, size=13, weight="bold"))
                self.titles[r] = (x + GAP + 6, top + 4, len(r) * 8.5 + 4, 18)  # routes avoid it
                for k, a in enumerate(lk.in_region[r]):
                    self.box[a] = (round(x + (col_w - area_w) / 2),
                                   round(top + 28 + k * (AREA_H + 3 * GAP)), round(area_w),
                                   AREA_H)  # whole numbers: the SVG says them exactly
            rows = (len(names) + cols - 1) // cols
            return y + rows * (region_h + 4 * GAP)

        y = regions(north, y)
        sea_cols = 2 if self.narrow else max(len(lk.sea), 1)
        sea_w = (width - 24) / sea_cols
        sea_box = min(130.0, sea_w - 2 * GAP - 2)
        for k, s in enumerate(lk.sea):
            self.box[s] = (round(12 + (k % sea_cols) * sea_w + (sea_w - sea_box) / 2),
                           round(y + 2 * GAP + (k // sea_cols) * (AREA_H + 6 * GAP)),
                           int(sea_box), AREA_H)
        y += ((len(lk.sea) + sea_cols - 1) // sea_cols) * (AREA_H + 6 * GAP) + 4 * GAP
        self.bottom = regions(south, y)

    def routes(self, game: GlobalDomination) -> list[list[tuple[float, float]]]:
        """Returns each adjacency's route, around the other boxes."""
        lk = game.lk
        pairs = sorted({(min(a, b), max(a, b)) for a in lk.areas for b in lk.adjacent[a]
                        if a in self.box and b in self.box})
        return route.routes({**self.box, **{f" {r}": b for r, b in self.titles.items()}},
                            pairs, GAP)


def draw(game: GlobalDomination, state: State, pending: str, width: int = W) -> Drawing:
    """Returns the table: the map, the tracks, the players (`width` NARROW: for a phone)."""
    players = state.players
    turn = "Start" if state.game_turn == 0 else ("End" if state.phase is Phase.OVER
                                                 else str(state.game_turn))
    title = f"Global Domination — Game Turn {turn} — {state.phase.value}"
    size = 17 if width >= 600 else 14
    head, n = lines(16, 28, title, int((width - 32) / (size * 0.62)), size=size, weight="bold")
    top = 44 + (n - 1) * 17
    m, drawn = _map(game, width, top)
    parts = [group(head, label="title"), drawn,
             *_areas(game, state.players, tuple(state.board.items()), width, top)]
    y = m.bottom + 8
    part, y = _tracks(game, state, y, width)
    parts.append(part)
    for p in players:
        part, y = _player(game, state, p, y, width)
        parts.append(part)
    stacks = ", ".join(f"{c} ({n})" for c, n in state.stacks.items()) or "not chosen yet"
    chars = int((width - 32) / 6.2)
    listed, n = lines(16, y + 16, f"Action stacks: {stacks}", chars, size=11)  # whole
    y += (n - 1) * 13
    nxt, k = lines(16, y + 36, pending, int((width - 32) / 7.2), size=12,
                   weight="bold")
    parts.append(group(listed, nxt, label="footer"))
    return Drawing(width, int(y + 52 + (k - 1) * 14), f"{title}; {pending}", parts)


@lru_cache(maxsize=16, typed=True)
def _map(game: GlobalDomination, width: int, top: float) -> tuple[Map, str]:
    """Returns the map's layout and its part (frames and routes): the same for every state
    of a bound game drawn at a width, so drawn once."""
    m = Map(game, width, top)
    links = [polyline(r, stroke="#a39b86") for r in m.routes(game)]
    return m, group(*m.frames, *links, label="map")


@lru_cache(maxsize=1 << 10, typed=True)
def _areas(game: GlobalDomination, players: tuple[str, ...],
           board: tuple[tuple[str, Force], ...], width: int, top: float) -> tuple[str, ...]:
    """Returns each Area's part, in the game's order, with the Force the board puts there."""
    m = _map(game, width, top)[0]
    forces = dict(board)
    out = []
    for a in game.lk.areas:
        if a in m.box:
            f = forces.get(a)
            owner, full = (f.owner, f.full) if f else (None, False)
            out.append(_area_drawn(game, a, m.box[a], m.narrow, owner, full,
                                   seat_colour(players, owner)))
    return tuple(out)


@lru_cache(maxsize=1 << 12, typed=True)
def _area_drawn(game: GlobalDomination, a: str, box: tuple[float, float, float, float],
                narrow: bool, owner: str | None, full: bool, colour: str) -> str:
    """Returns an Area's part: its box, name, resource and Force (`owner` None: empty)."""
    lk = game.lk
    x, y, w, h = box
    sea = a in lk.sea
    if owner is None:
        shape = rect(x, y, w, h, fill="#dbe9f4" if sea else CARD, stroke=FAINT,
                     rx=16 if sea else 4)
    else:
        shape = rect(x, y, w, h, fill=colour, stroke=colour, rx=16 if sea else 4,
                     opacity=1 if full else 0.3, width=2, dash="" if full else "4 2")
    ink = "#fff" if owner is not None and full else INK
    res = lk.areas[a].resource
    sym = next((r.symbol for r in game.header.components.resources if r.name == res), "") \
        if res else ""
    size = 10 if sea or narrow else 11
    room = w - (26 if sym else 12)  # the name whole where it fits (all of the game's do)
    items = [shape, text(x + 8, y + 14, clip(a, int(room / (size * 0.62))), size=size,
                         weight="bold", fill=ink)]
    if sym:
        items.append(text(x + w - 8, y + 14, sym, size=10, anchor="end", fill=ink))
    if owner is not None:
        items.append(text(x + 8, y + 28, f"{owner} · {'Full' if full else 'Struggling'}",
                          size=10, fill=ink))
    return group(*items, label=f"area {a}")


def _tracks(game: GlobalDomination, state: State, y: float, width: int) -> tuple[str, float]:
    squares = _squares(game)
    now = "End" if state.phase is Phase.OVER else squares[min(state.game_turn, len(squares) - 2)]
    marks = tuple(state.logistics[p] for p in state.players)
    return _tracks_drawn(game, state.players, marks, now, y, width), y + 72


def _squares(game: GlobalDomination) -> list[str]:
    """Returns the Turn track's squares."""
    return ["Start", *(str(n) for n in range(1, game.lk.tracks.turns + 1)), "End"]


@lru_cache(maxsize=1 << 10, typed=True)
def _tracks_drawn(game: GlobalDomination, players: tuple[str, ...], marks: tuple[int, ...],
                  now: str, y: float, width: int) -> str:
    """Returns the tracks' part: the Turn track at `now`, each player's Logistics mark."""
    lk = game.lk
    left = 100 if width >= 600 else 84
    items = [text(16, y + 14, "Turn", size=12, weight="bold")]
    squares = _squares(game)
    step = min(54.0, (width - 16 - left) / len(squares))
    for k, sq in enumerate(squares):
        x = left + k * step
        items.append(rect(x, y, step - 4, 22, fill=INK if sq == now else CARD, stroke=FAINT))
        items.append(text(x + (step - 4) / 2, y + 15, sq, size=11 if step > 40 else 10,
                          anchor="middle", fill="#fff" if sq == now else INK))
    low, high = lk.tracks.logistics.low, lk.tracks.logistics.high
    items.append(text(16, y + 52, "Logistics", size=12, weight="bold"))
    at = Counter[int]()
    step = min(54.0, (width - 16 - left) / (high - low + 1))
    for n in range(low, high + 1):
        x = left + (n - low) * step
        items.append(rect(x, y + 36, step - 4, 26, fill=CARD, stroke=FAINT))
        items.append(text(x + 3, y + 47, str(n), size=10, fill=FAINT))
    for p, mark in zip(players, marks, strict=True):
        n = max(low, min(high, mark))
        x = left + (n - low) * step + min(14, step / 3) + at[n] * min(8, step / 5)
        at[n] += 1
        items.append(circle(x, y + 56, 4 if step < 40 else 5, fill=seat_colour(players, p),
                            stroke=INK))
    return group(*items, label="tracks")


def acting(state: State) -> str | None:
    """Returns who enters the next event, as the seats' pages name them: the player owed a
    step (a target's discard, their own draw), else the turn's player, or in scoring the
    scorer; None while chance sets the game up and once it is over."""
    if state.steps:
        return state.steps[0].player
    if state.phase is Phase.PLAY:
        return state.current
    if state.phase is Phase.SCORING:
        return q.scorer(state)
    return None


def _player(game: GlobalDomination, state: State, p: str, y: float, width: int
            ) -> tuple[str, float]:
    status = ("First Player; " if p == state.first else "") + (
        "passed" if p in state.passed else "to act" if p == acting(state) else "")
    facts = (f"VP {state.vp[p]} · Logistics {state.logistics[p]}",
             f"deck {sum(state.decks[p].values())} · discard {len(state.discards[p])}")
    return _player_drawn(p, seat_colour(state.players, p), status.strip("; "), facts,
                         state.hands[p], y, width)


@lru_cache(maxsize=1 << 10, typed=True)
def _player_drawn(p: str, colour: str, status: str, facts: tuple[str, str],
                  hand: tuple[str, ...], y: float, width: int) -> tuple[str, float]:
    """Returns a player's part (name, status, VP and Logistics, deck and discards, hand)
    and where the next part starts."""
    narrow = width < 600
    left = 26 if narrow else 190  # where the hand's cards start
    card_w = 96 if narrow else 84  # "Manufacturing" whole on a line
    per = max(1, int((width - 26 - left - (0 if narrow else 110)) // (card_w + 4)))
    rows = max(1, (len(hand) + per - 1) // per)
    top = y + 46 if narrow else y + 6
    h = (top - y) + rows * 38 + (2 if narrow else 2)
    items = [rect(16, y, width - 32, h, fill="#fbf8ef", stroke=colour),
             text(26, y + 18, p, size=14, weight="bold", fill=colour),
             text(26, y + 36, facts[0], size=11),
             text(width - 26, y + 18, status, size=11, anchor="end"),
             text(width - 26, y + 36, facts[1], size=11, anchor="end", fill=FAINT)]
    for k, name in enumerate(hand):
        items.append(card(left + (k % per) * (card_w + 4), top + (k // per) * 38, card_w, 34,
                          name,
                          hidden=name == HIDDEN, colour=colour, small=10 if narrow else 9))
    if not hand:
        items.append(text(left, top + 22, "empty hand", size=11, fill=FAINT))
    return group(*items, label=f"player {p}"), y + h + 6
