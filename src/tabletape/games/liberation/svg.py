"""The Liberation table as SVG: `draw(game, state, pending)`, the game bound.

The countries in a row with their VP and who liberated them (failed ones crossed
out, the one in play raised with its special instruction), each player's cards on
the table face up (with their force points) or face down, totals, hands (another
player's hand is backs when the state is a player's `view`) and scores.
"""

from __future__ import annotations

from functools import lru_cache

from tabletape.engine.kit.svg import (
    BACK,
    CARD,
    FAINT,
    GOLD,
    INK,
    LOSS,
    Drawing,
    card,
    clip,
    group,
    line,
    lines,
    rect,
    seat_colour,
    text,
)
from tabletape.engine.kit.turns import HIDDEN
from tabletape.tape.words import counted

from . import Liberation
from . import lookups as t
from .components import Country
from .state import Phase, Played, State

W = 960
ROW = 104  # a player's row: cards on the table with their slots, and the hand


def instruction(land: Country) -> str:
    """Returns a country's special instruction in a few words."""
    return (land.trigger.value.replace("_", " ") + (f" {land.card_type}" if land.card_type else "")
            + (f" +{land.amount}" if land.amount else ""))


def draw(game: Liberation, state: State, pending: str, width: int = W) -> Drawing:
    """Returns the table: the countries, each player's row of cards, the score (`width`
    NARROW: the countries in rows of four, the cards in rows, for a phone)."""
    narrow = width < 600
    lk = game.lk
    players = state.players
    land = t.country(lk, state)
    if state.phase is Phase.OVER:
        title = "Liberation — game over"
    elif land:
        title = f"Liberation — {land.name}: {t.stage(state)}"
    else:
        title = "Liberation — between countries"
    size = 14 if narrow else 17
    head, n = lines(16, 28, title, int((width - 32) / (size * 0.62)), size=size, weight="bold")
    parts = [group(head, text(width - 16, 28 + n * 18 if narrow else 28,
                              f"target {t.target(state)} VP", size=12, anchor="end"),
                   label="title")]
    top = 44 + (n * 18 if narrow else 0)
    part, y = _countries(game, state, top, width)
    parts.append(part)
    chars = int((width - 52) / 8)
    if land is not None:
        said, k = lines(26, y + 20, f"in play: {land.name} ({land.vp} VP) — special "
                        f"instruction: {instruction(land)}", chars if narrow else 130, size=13,
                        weight="bold")
        parts.append(group(rect(16, y, width - 32, 30 + (k - 1) * 16, fill="#fff4d6",
                                stroke=GOLD, width=2), said, label="in play"))
        y += (k - 1) * 16
    y += 40
    for p in players:
        part, y = _player(game, state, p, y, width)
        parts.append(part)
    chars = int((width - 32) / 6.9)
    left, k1 = lines(16, y + 16, f"countries left {len(state.countries)}; force deck "
                     f"{t.deck_size(state)}; discards {len(state.discards)}"
                     + (f"; failed: {', '.join(state.failed)}" if state.failed else ""),
                     chars, size=12)
    y += (k1 - 1) * 14
    nxt, k2 = lines(16, y + 36, pending, min(130, chars), size=12, weight="bold")
    parts.append(group(left, nxt, label="footer"))
    return Drawing(width, int(y + 52 + (k2 - 1) * 14), f"{title}; {pending}", parts)


def _countries(game: Liberation, state: State, top: float, width: int) -> tuple[str, float]:
    by = {c: p for p in state.players for c in state.liberated[p]}
    marks = tuple((by.get(name), name in state.failed, name == state.country,
                   name in state.countries) for name in game.lk.country_names)
    return _countries_drawn(game, state.players, marks, top, width)


# a country's mark: who liberated it (None: nobody), failed, in play, still to come
Mark = tuple[str | None, bool, bool, bool]


@lru_cache(maxsize=1 << 10, typed=True)
def _countries_drawn(game: Liberation, players: tuple[str, ...], marks: tuple[Mark, ...],
                     top: float, width: int) -> tuple[str, float]:
    """Returns the countries' part, each as marked, and where the next part starts."""
    lk = game.lk
    names = lk.country_names
    per = 4 if width < 600 else max(len(names), 1)
    step = (width - 32) / per
    small = 10 if width < 600 else 9
    items = []
    for k, (name, (by, failed, playing, to_come)) in enumerate(zip(names, marks, strict=True)):
        c = lk.countries[name]
        x, y = 16 + (k % per) * step, top + (k // per) * 120
        w = step - 6
        if by is not None:
            colour = seat_colour(players, by)
            items.append(rect(x, y, w, 110, fill=colour, stroke=colour, opacity=0.25, width=2))
            items.append(text(x + w / 2, y + 96, f"✔ {clip(by, 10)}", size=11,
                              anchor="middle", weight="bold", fill=colour))
        elif failed:
            items.append(rect(x, y, w, 110, fill="#e4e0d6", stroke=FAINT))
            items.append(line(x + 4, y + 4, x + w - 4, y + 106, stroke=LOSS, width=2))
            items.append(text(x + w / 2, y + 96, "failed", size=10, anchor="middle", fill=LOSS))
        else:
            items.append(rect(x, y - (6 if playing else 0), w, 110, fill=CARD,
                              stroke=GOLD if playing else FAINT, width=3 if playing else 1))
            if playing:
                items.append(text(x + w / 2, y + 96, "in play", size=11, anchor="middle",
                                  weight="bold", fill=INK))
            elif to_come:
                items.append(text(x + w / 2, y + 96, "to come", size=10, anchor="middle",
                                  fill=FAINT))
        items.append(lines(x + w / 2, y + 20, name, int(w / 6.5), size=11, leading=11,
                           anchor="middle", weight="bold")[0])
        items.append(text(x + w / 2, y + 48, f"{c.vp} VP", size=18, anchor="middle",
                          weight="bold", fill=GOLD))
        items.append(lines(x + w / 2, y + 66, instruction(c), int(w / (5.8 * small / 9)),
                           size=small, leading=10, anchor="middle", fill=FAINT)[0])  # inside
    rows = (len(names) + per - 1) // per
    return group(*items, label="countries"), top + rows * 120 + 4


def acting(state: State) -> str | None:
    """Returns who enters the next event, as the seats' pages name them: the player owed a
    step (a prevent card is the card's owner's to play, in another's turn), else the turn's
    player; None once the game is over."""
    if state.phase is Phase.OVER:
        return None
    return state.steps[0].player if state.steps else state.turn


def _player(game: Liberation, state: State, p: str, y: float, width: int
            ) -> tuple[str, float]:
    lk = game.lk
    played = state.played[p]
    points = tuple(t.points(lk, state, s.card) if s.up else 0 for s in played)
    facts = (seat_colour(state.players, p), " ▶" if p == acting(state) else "",
             t.total(lk, state, p), t.vp(lk, state, p))
    return _player_drawn(p, facts, played, points, state.liberated[p],
                         state.tie_cards.get(p, ()), state.hands[p], y, width)


@lru_cache(maxsize=1 << 10, typed=True)
def _player_drawn(p: str, facts: tuple[str, str, int, int], played: tuple[Played, ...],
                  points: tuple[int, ...], liberated: tuple[str, ...], ties: tuple[str, ...],
                  hand: tuple[str, ...], y: float, width: int) -> tuple[str, float]:
    """Returns a player's row (`facts`: their colour, the mark of who acts, their total and
    VP; `points`: each played card's force points) and where the next part starts."""
    colour, mark, total, vp = facts
    narrow = width < 600
    small = 10 if narrow else 9
    left = 26 if narrow else 190  # where the cards on the table start
    per = max(1, (width - 40 - left) // 76 + 1) if narrow else 9
    slots = played if narrow else played[:9]
    rows = max(1, (len(slots) + per - 1) // per)
    top = y + 90 if narrow else y
    shown = "" if all(c == HIDDEN for c in hand) else ", ".join(hand)
    hand_at = top + rows * 70 + 14 if narrow else y + 84
    listed, k = lines(26 if narrow else 300, hand_at + (14 if narrow else 0),
                      shown or ("?" * min(len(hand), 12)), int((width - 52) / 6.2) if narrow
                      else 95, size=10, leading=11)  # every card named
    height = (hand_at - y) + 14 + max(k, 2) * 11 + 6 if narrow else ROW  # steadier
    items = [rect(16, y, width - 32, height, fill="#fbf8ef", stroke=colour,
                  width=2 if mark else 1),
             text(26, y + 20, p + mark, size=14, weight="bold", fill=colour),
             text(26, y + 40, f"total {total}", size=12, weight="bold"),
             text(26, y + 58, f"{vp} VP", size=12, fill=GOLD, weight="bold"),
             lines(26, y + 76, "liberated: " + (", ".join(liberated) or "—"), 28,
                   size=small, leading=10, fill=FAINT)[0]]
    for k, (one, pts) in enumerate(zip(slots, points, strict=False)):
        x, yy = left + (k % per) * 76, top + (k // per) * 70
        if one.up:
            items.append(card(x, yy + 8, 72, 44, one.card, f"{pts} pts", colour=colour,
                              small=small))
        else:
            items.append(rect(x, yy + 8, 72, 44, fill=BACK, stroke=INK)
                         + lines(x + 4, yy + 20, one.card, 13 if small == 9 else 11,
                                 size=small, leading=small, fill="#fff")[0]
                         + text(x + 4, yy + 48, "face down", size=small, fill="#fff"))
        items.append(text(x + 36, yy + 64, f"slot {k}", size=10, anchor="middle",
                          fill=FAINT))  # the number an event names (turn over, trade)
    if not played:
        items.append(text(left, top + 34, "no cards on the table", size=11, fill=FAINT))
    if ties:
        items.append(text(width - 26, y + 20, clip("tie-break: " + ", ".join(ties), 40),
                          size=10, anchor="end"))
    items.append(text(26 if narrow else 190, hand_at, f"{counted(len(hand), 'card')} in hand:",
                      size=10, fill=FAINT))
    items.append(listed)
    return group(*items, label=f"player {p}"), y + height + 8
