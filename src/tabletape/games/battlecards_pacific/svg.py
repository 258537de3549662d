"""The BATTLECARDS Pacific table as SVG: `draw(game, state, pending)`, the game bound.

The BATTLECARD in play (its forces and VP, both sides' engaged and withdrawn units,
the phase and who acts), each side's three stacks by unit type with every unit's
attack/defence values (against Ground/Air/Sea), its casualties, the VP track to the
standard victory, and the decks. Another player's stacks and hands are backs when
the state is a player's `view`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from tabletape.engine.kit.svg import (
    FAINT,
    GOLD,
    INK,
    LOSS,
    Drawing,
    card,
    clip,
    group,
    lines,
    rect,
    seat_colour,
    text,
)
from tabletape.engine.kit.turns import HIDDEN

from . import BattlecardsPacific
from . import lookups as q
from .components import UnitType, Values
from .state import WITHDRAWAL, State

W = 960
COL = (W - 64) / 3


def _vals(v: Values) -> str:
    return "/".join("–" if v.of(k) is None else str(v.of(k)) for k in UnitType)


def _unit_line(game: BattlecardsPacific, state: State, p: str, name: str) -> str:
    return _unit_values(game, state.sides[p], name)


@lru_cache(maxsize=1 << 10, typed=True)
def _unit_values(game: BattlecardsPacific, side: str, name: str) -> str:
    """Returns a unit's attack and defence values (nothing for a unit not in the side's)."""
    u = game.lk.units[side].get(name)
    return f"A {_vals(u.attack)} · D {_vals(u.defence)}" if u else ""


def draw(game: BattlecardsPacific, state: State, pending: str, width: int = W) -> Drawing:
    """Returns the table: the battle in play, each side's stacks and score, the decks
    (`width` NARROW: the stacks one below the other, for a phone)."""
    narrow = width < 600
    title = f"BATTLECARDS Pacific — {q.turn(state)}" + (" — game over" if state.result
                                                            else "")
    parts = [group(text(16, 28, title, size=15 if narrow else 17, weight="bold"),
                   text(width - 16, 48 if narrow else 28, "values against "
                        + "/".join(k.value for k in UnitType), size=11, anchor="end",
                        fill=FAINT), label="title")]
    y: float = 60 if narrow else 44
    if narrow:  # the sides first: the battle changes with every event, they seldom do
        for p in state.players:
            part, y = _side_narrow(game, state, p, y, width)
            parts.append(part)
        part, y = _battle_narrow(game, state, y, width)
        parts.append(part)
        return _footer(state, parts, y, width, pending, title)
    parts.append(_battle(game, state, y))
    y += 142 if state.battle is not None else 40
    rows = max([2, *(len(units) for p in state.players for units in state.stacks[p].values())])
    for p in state.players:
        part, h = _side(game, state, p, y, rows)
        parts.append(part)
        y += h + 8
    return _footer(state, parts, y, width, pending, title)


def _footer(state: State, parts: list[str], y: float, width: int, pending: str, title: str
            ) -> Drawing:
    """Returns the drawing with its footer: the decks, the last battle, what comes next."""
    chars = int((width - 32) / 6.9)
    decks = "; ".join(f"{side} Arsenal {sum(d.values())}" for side, d in state.arsenal.items())
    conflict = "; ".join(f"{th} Conflict deck {sum(d.values())}, discard "
                         f"{len(state.conflict_discard[th])}" for th, d in state.conflict.items())
    items = []
    y += 14
    for said, size, weight in ((f"{conflict}; {decks}", 12, "normal"),
                               (f"Conflict card: {state.drawn}" if state.drawn else "", 12,
                                "bold"),
                               (f"last battle: {state.last_battle}" if state.last_battle
                                else "", 11, "normal"),
                               (pending, 12, "bold")):
        if said:
            block, n = lines(16, y, said, chars, size=size, weight=weight)
            items.append(block)
            y += n * 15 + 4
    parts.append(group(*items, label="footer"))
    return Drawing(width, int(y + 8), f"{title}; {pending}", parts)


def _battle_narrow(game: BattlecardsPacific, state: State, y: float, width: int
                   ) -> tuple[str, float]:
    b = state.battle
    if b is None:
        return group(text(16, y + 20, "no battle in play", size=12, fill=FAINT),
                     label="battle"), y + 32
    spec = game.lk.battles.get(b.card)
    stage = "withdrawal phase" if b.phase == WITHDRAWAL else f"firing phase {b.phase}"
    chars = int((width - 52) / 6.4)
    items = [text(26, y + 20, f"BATTLECARD {b.card}", size=14, weight="bold")]
    at = y + 38
    said = [f"round {b.round}, {stage}; {b.side} to act"]
    if spec is not None:
        said.append(f"{spec.vp} VP · aggressor {spec.aggressor} · forces "
                    + ", ".join(f.value for f in spec.forces))
    if b.shot is not None:
        s = b.shot
        said.append(f"{s.player}'s {s.unit} fired at {s.target}: needs {s.above + 1}-{s.upto}")
    elif b.phase != WITHDRAWAL and b.to_fire:
        said.append(f"bold: still to fire ({len(b.to_fire)})")
    for line_ in said:
        block, n = lines(26, at, line_, chars, size=11)
        items.append(block)
        at += n * 14
    for p, role in ((b.aggressor, "aggressor"), (b.defender, "defender")):
        colour = seat_colour(state.players, p)
        items.append(text(26, at + 10, f"{p} ({role})", size=12, weight="bold", fill=colour))
        at += 16
        engaged = b.forces[p]
        firing = list(b.to_fire) if p == b.side and b.phase != WITHDRAWAL else []
        for u in engaged:
            fires = u in firing
            if fires:
                firing.remove(u)
            items.append(card(26, at, width - 52, 34, u, _unit_line(game, state, p, u),
                              colour=colour, top=fires, small=10))
            at += 38
        if not engaged:
            items.append(text(26, at + 10, "no units engaged", size=11, fill=FAINT))
            at += 16
        out = ", ".join(b.withdrawn[p])
        if out:
            block, n = lines(26, at + 10, f"withdrawn: {out}", chars, size=10, fill=FAINT)
            items.append(block)
            at += n * 12 + 4
    h = at - y + 8
    return group(rect(16, y, width - 32, h, fill="#fff4d6", stroke=GOLD, width=2), *items,
                 label="battle"), y + h + 8


class Side(NamedTuple):
    """What a side's part shows: its player, their colour and side, whether eliminated, VP,
    the stacks (by unit type), Reserve Hand, Kept Cards, BATTLECARDS won and casualties."""

    p: str
    colour: str
    side: str
    eliminated: bool
    vp: int
    stacks: tuple[tuple[str, ...], ...]
    reserve: tuple[str, ...]
    kept: tuple[str, ...]
    won: tuple[str, ...]
    lost: tuple[str, ...]


def _facts(state: State, p: str) -> Side:
    """Returns what a player's side part shows."""
    side = state.sides[p]
    return Side(p, seat_colour(state.players, p), side, p in state.eliminated, state.vp[p],
                tuple(state.stacks[p][kind.value] for kind in UnitType), state.reserve[p],
                state.kept[p], state.won[p], state.arsenal_discard[side])


def _side_narrow(game: BattlecardsPacific, state: State, p: str, y: float, width: int
                 ) -> tuple[str, float]:
    most = tuple(max(len(state.stacks[q][kind.value]) for q in state.players)
                 for kind in UnitType)
    return _side_narrow_drawn(game, _facts(state, p), most, y, width)


@lru_cache(maxsize=1 << 10, typed=True)
def _side_narrow_drawn(game: BattlecardsPacific, f: Side, most: tuple[int, ...], y: float,
                       width: int) -> tuple[str, float]:
    """Returns a side's part for a phone (each stack given as many rows as the longest of
    its type, `most`) and where the next part starts."""
    p, colour, side = f.p, f.colour, f.side
    name = f"{p} ({side})" + (" — eliminated" if f.eliminated else "")
    goal = game.lk.rules.standard_victory
    chars = int((width - 52) / 6.4)
    items = [text(26, y + 20, name, size=14, weight="bold", fill=colour),
             text(width - 26, y + 20, f"{f.vp} VP of {goal}", size=13, anchor="end",
                  weight="bold", fill=GOLD)]
    tw = width - 52
    items.append(rect(26, y + 28, tw, 10, fill="#fff", stroke=FAINT, rx=2))
    filled = tw * min(f.vp, goal) / goal
    if filled:
        items.append(rect(26, y + 28, filled, 10, fill=GOLD, stroke=GOLD, rx=2))
    at = y + 60
    half = (width - 52 - 4) / 2
    for kind, units, longest in zip(UnitType, f.stacks, most, strict=True):
        items.append(text(26, at, f"{kind.value} stack ({len(units)})", size=12, weight="bold"))
        at += 6
        for i, u in enumerate(units):
            items.append(card(26 + (i % 2) * (half + 4), at + (i // 2) * 38, half, 34, u,
                              _unit_values(game, side, u), hidden=u == HIDDEN,
                              colour=colour, small=10))
        at += ((longest + 1) // 2) * 38 + 16  # as many rows as either side's: steadier
    reserve, kept, lost = f.reserve, f.kept, f.lost
    shown = "" if all(c == HIDDEN for c in reserve) else ": " + ", ".join(reserve)
    kept_s = "" if all(c == HIDDEN for c in kept) else ": " + ", ".join(kept)
    for said, fill, least in ((f"Reserve Hand {len(reserve)}{shown}", INK, 3),
                              (f"kept {len(kept)}{kept_s}; won: "
                               + (", ".join(f.won) or "—"), INK, 1),
                              (f"casualties ({side}, {len(lost)}): "
                               + (", ".join(lost) or "none"), LOSS if lost else INK, 1)):
        block, n = lines(26, at, said, chars, size=11, fill=fill)
        items.append(block)
        at += max(n, least) * 14 + 2
    h = at - y
    return group(rect(16, y, width - 32, h, fill="#fbf8ef", stroke=colour), *items,
                 label=f"side {p}"), y + h + 8


def _battle(game: BattlecardsPacific, state: State, y: float) -> str:
    b = state.battle
    if b is None:
        return group(text(16, y + 20, "no battle in play", size=12, fill=FAINT),
                     label="battle")
    spec = game.lk.battles.get(b.card)
    stage = "withdrawal phase" if b.phase == WITHDRAWAL else f"firing phase {b.phase}"
    items = [rect(16, y, W - 32, 132, fill="#fff4d6", stroke=GOLD, width=2),
             text(26, y + 20, f"BATTLECARD {b.card}", size=15, weight="bold"),
             text(W - 26, y + 20, f"round {b.round}, {stage}; {b.side} to act", size=12,
                  anchor="end")]
    if spec is not None:
        items.append(text(330, y + 20, f"{spec.vp} VP · aggressor {spec.aggressor} · forces "
                          + ", ".join(f.value for f in spec.forces), size=11, fill=FAINT))
    for k, (p, role) in enumerate(((b.aggressor, "aggressor"), (b.defender, "defender"))):
        yy = y + 46 + k * 40
        colour = seat_colour(state.players, p)
        items.append(text(26, yy + 14, f"{p} ({role})", size=12, weight="bold", fill=colour))
        engaged = b.forces[p]
        firing = list(b.to_fire) if p == b.side and b.phase != WITHDRAWAL else []
        for i, u in enumerate(engaged[:5]):
            fires = u in firing
            if fires:
                firing.remove(u)  # copies of a unit: as many bold as are still to fire
            items.append(card(180 + i * 148, yy, 144, 34, u, _unit_line(game, state, p, u),
                              colour=colour, top=fires))
        if len(engaged) > 5:
            items.append(text(180 + 5 * 148, yy + 20, f"+{len(engaged) - 5}", size=11))
        if not engaged:
            items.append(text(180, yy + 20, "no units engaged", size=11, fill=FAINT))
        out = ", ".join(b.withdrawn[p])
        if out:
            items.append(text(26, yy + 30, clip(f"withdrawn: {out}", 26), size=9, fill=FAINT))
    if b.shot is not None:
        s = b.shot
        items.append(text(W - 26, y + 38, f"{s.player}'s {s.unit} fired at {s.target}: needs "
                          f"{s.above + 1}-{s.upto}", size=11, anchor="end", fill=LOSS))
    elif b.phase != WITHDRAWAL and b.to_fire:
        items.append(text(W - 26, y + 38, f"bold: still to fire ({len(b.to_fire)})", size=10,
                          anchor="end", fill=FAINT))
    return group(*items, label="battle")


def _side(game: BattlecardsPacific, state: State, p: str, y: float, rows: int
          ) -> tuple[str, float]:
    return _side_drawn(game, _facts(state, p), y, rows)


@lru_cache(maxsize=1 << 10, typed=True)
def _side_drawn(game: BattlecardsPacific, f: Side, y: float, rows: int) -> tuple[str, float]:
    """Returns a side's part (its stacks `rows` cards high) and its height."""
    p, colour, side = f.p, f.colour, f.side
    h = 52 + rows * 36 + 40
    name = f"{p} ({side})" + (" — eliminated" if f.eliminated else "")
    goal = game.lk.rules.standard_victory
    items = [rect(16, y, W - 32, h, fill="#fbf8ef", stroke=colour),
             text(26, y + 20, name, size=14, weight="bold", fill=colour),
             text(W - 26, y + 20, f"{f.vp} VP", size=14, anchor="end", weight="bold",
                  fill=GOLD)]
    # the VP track
    tx, tw = 250, W - 26 - 250 - 60
    items.append(rect(tx, y + 10, tw, 12, fill="#fff", stroke=FAINT, rx=2))
    filled = tw * min(f.vp, goal) / goal
    if filled:
        items.append(rect(tx, y + 10, filled, 12, fill=GOLD, stroke=GOLD, rx=2))
    items.append(text(tx + tw + 4, y + 21, str(goal), size=9, fill=FAINT))
    for k, (kind, units) in enumerate(zip(UnitType, f.stacks, strict=True)):
        x = 26 + k * (COL + 8)
        items.append(text(x, y + 44, f"{kind.value} stack ({len(units)})", size=12,
                          weight="bold"))
        for i, u in enumerate(units[:rows]):
            items.append(card(x, y + 52 + i * 36, COL, 32, u, _unit_values(game, side, u),
                              hidden=u == HIDDEN, colour=colour))
    yy = y + 52 + rows * 36 + 14
    reserve, kept, lost = f.reserve, f.kept, f.lost
    shown = "" if all(c == HIDDEN for c in reserve) else ": " + ", ".join(reserve)
    kept_s = "" if all(c == HIDDEN for c in kept) else ": " + ", ".join(kept)
    items.append(text(26, yy, clip(f"Reserve Hand {len(reserve)}{shown}", 70), size=11))
    items.append(text(W / 2, yy, clip(f"kept {len(kept)}{kept_s}; won: "
                                      + (", ".join(f.won) or "—"), 70), size=11))
    items.append(text(26, yy + 18, clip(f"casualties ({side}, {len(lost)}): "
                                        + (", ".join(lost) or "none"), 140), size=11,
                      fill=LOSS if lost else INK))
    return group(*items, label=f"side {p}"), h
