"""The Liberation table as SVG: `draw(game, state, pending)`, the game bound.

The countries in a row with their VP and who liberated them (failed ones crossed
out, the one in play raised with its special instruction), each player's cards on
the table face up (with their force points) or face down, totals, hands (another
player's hand is backs when the state is a player's `view`) and scores.
"""

from __future__ import annotations

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
from .state import Phase, State

W = 960
ROW = 104  # a player's row: cards on the table with their slots, and the hand


def instruction(land: Country) -> str:
    """Returns a country's special instruction in a few words."""
    return (land.trigger.value.replace("_", " ") + (f" {land.card_type}" if land.card_type else "")
            + (f" +{land.amount}" if land.amount else ""))


def draw(game: Liberation, state: State, pending: str) -> Drawing:
    """Returns the table: the countries, each player's row of cards, the score."""
    lk = game.lk
    players = state.players
    land = t.country(lk, state)
    if state.phase is Phase.OVER:
        title = "Liberation — game over"
    elif land:
        title = f"Liberation — {land.name}: {t.stage(state)}"
    else:
        title = "Liberation — between countries"
    parts = [group(text(16, 28, title, size=17, weight="bold"),
                   text(W - 16, 28, f"target {t.target(state)} VP", size=12, anchor="end"),
                   label="title")]
    parts.append(_countries(game, state))
    y = 168
    if land is not None:
        parts.append(group(rect(16, y, W - 32, 30, fill="#fff4d6", stroke=GOLD, width=2),
                           text(26, y + 20, f"in play: {land.name} ({land.vp} VP) — special "
                                f"instruction: {instruction(land)}", size=13, weight="bold"),
                           label="in play"))
    y += 40
    for p in players:
        parts.append(_player(game, state, p, y))
        y += ROW + 8
    parts.append(group(
        text(16, y + 16, f"countries left {len(state.countries)}; force deck "
             f"{t.deck_size(state)}; discards {len(state.discards)}"
             + (f"; failed: {', '.join(state.failed)}" if state.failed else ""), size=12),
        lines(16, y + 36, pending, 130, size=12, weight="bold")[0],
        label="footer"))
    return Drawing(W, y + 52, f"{title}; {pending}", parts)


def _countries(game: Liberation, state: State) -> str:
    lk = game.lk
    names = lk.country_names
    step = (W - 32) / max(len(names), 1)
    by = {c: p for p in state.players for c in state.liberated[p]}
    items = []
    for k, name in enumerate(names):
        c = lk.countries[name]
        x, y = 16 + k * step, 44
        w = step - 6
        playing = name == state.country
        if name in by:
            colour = seat_colour(state.players, by[name])
            items.append(rect(x, y, w, 110, fill=colour, stroke=colour, opacity=0.25, width=2))
            items.append(text(x + w / 2, y + 96, f"✔ {clip(by[name], 10)}", size=11,
                              anchor="middle", weight="bold", fill=colour))
        elif name in state.failed:
            items.append(rect(x, y, w, 110, fill="#e4e0d6", stroke=FAINT))
            items.append(line(x + 4, y + 4, x + w - 4, y + 106, stroke=LOSS, width=2))
            items.append(text(x + w / 2, y + 96, "failed", size=10, anchor="middle", fill=LOSS))
        else:
            items.append(rect(x, y - (6 if playing else 0), w, 110, fill=CARD,
                              stroke=GOLD if playing else FAINT, width=3 if playing else 1))
            if playing:
                items.append(text(x + w / 2, y + 96, "in play", size=11, anchor="middle",
                                  weight="bold", fill=INK))
            elif name in state.countries:
                items.append(text(x + w / 2, y + 96, "to come", size=10, anchor="middle",
                                  fill=FAINT))
        items.append(lines(x + w / 2, y + 20, name, int(w / 6.5), size=11, leading=11,
                           anchor="middle", weight="bold")[0])
        items.append(text(x + w / 2, y + 48, f"{c.vp} VP", size=18, anchor="middle",
                          weight="bold", fill=GOLD))
        items.append(lines(x + w / 2, y + 66, instruction(c), int(w / 5.2), size=9,
                           leading=10, anchor="middle", fill=FAINT)[0])  # inside its box
    return group(*items, label="countries")


def _player(game: Liberation, state: State, p: str, y: float) -> str:
    lk = game.lk
    colour = seat_colour(state.players, p)
    mark = " ▶" if p == state.turn else ""
    items = [rect(16, y, W - 32, ROW, fill="#fbf8ef", stroke=colour, width=2 if mark else 1),
             text(26, y + 20, p + mark, size=14, weight="bold", fill=colour),
             text(26, y + 40, f"total {t.total(lk, state, p)}", size=12, weight="bold"),
             text(26, y + 58, f"{t.vp(lk, state, p)} VP", size=12, fill=GOLD, weight="bold"),
             lines(26, y + 76, "liberated: " + (", ".join(state.liberated[p]) or "—"), 28,
                   size=9, leading=10, fill=FAINT)[0]]
    for k, played in enumerate(state.played[p][:9]):
        x = 190 + k * 76
        if played.up:
            items.append(card(x, y + 8, 72, 44, played.card,
                              f"{t.points(lk, state, played.card)} pts", colour=colour))
        else:
            items.append(rect(x, y + 8, 72, 44, fill=BACK, stroke=INK)
                         + lines(x + 4, y + 20, played.card, 13, size=9, leading=9,
                                 fill="#fff")[0]
                         + text(x + 4, y + 48, "face down", size=9, fill="#fff"))
        items.append(text(x + 36, y + 64, f"slot {k}", size=10, anchor="middle",
                          fill=FAINT))  # the number an event names (turn over, trade)
    if not state.played[p]:
        items.append(text(190, y + 34, "no cards on the table", size=11, fill=FAINT))
    ties = state.tie_cards.get(p, ())
    if ties:
        items.append(text(W - 26, y + 20, clip("tie-break: " + ", ".join(ties), 40), size=10,
                          anchor="end"))
    hand = state.hands[p]
    items.append(text(190, y + 84, f"{counted(len(hand), 'card')} in hand:", size=10, fill=FAINT))
    shown = "" if all(c == HIDDEN for c in hand) else ", ".join(hand)
    items.append(lines(300, y + 84, shown or ("?" * min(len(hand), 12)), 95, size=10,
                       leading=11)[0])  # every card named, on a second line if need be
    return group(*items, label=f"player {p}")
