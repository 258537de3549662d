"""The Cards of War table as SVG: `draw(game, state, pending)`, the game bound.

The three battles with each player's pile (top card in bold, the point total, won
battles marked), the hands (another player's cards are backs when the state is a
player's `view`), decks and discards, rounds won and the options in force.
"""

from __future__ import annotations

from tabletape.engine.kit.svg import (
    FAINT,
    GOLD,
    WIN,
    Drawing,
    card,
    circle,
    group,
    lines,
    rect,
    seat_colour,
    text,
)
from tabletape.engine.kit.turns import HIDDEN

from . import CardsOfWar
from .components import Card
from .lookups import owner, total
from .state import Phase, State

W = 900
COL = 284  # a battle's column
CARD_H = 22
ROW = 70  # a player's row: the hand's cards, each with its value and abilities


def draw(game: CardsOfWar, state: State, pending: str) -> Drawing:
    """Returns the table: battles, hands, piles, rounds and options."""
    lk = game.lk
    players = state.players
    rows = max([3, *(len(b.piles[p]) for b in state.battles for p in players)])
    pile_h = 22 + rows * (CARD_H + 2) + 22
    title = f"Cards of War — round {state.round}" + (" — game over" if state.phase is Phase.OVER
                                                      else "")
    parts = [group(text(16, 26, title, size=17, weight="bold"),
                   text(W - 16, 26, f"turn: {state.turn or '—'}", size=12, anchor="end",
                        fill=seat_colour(players, state.turn)), label="title")]
    top = 40
    over = state.phase is Phase.OVER  # the battles were cleared: the results stand instead
    for no, b in enumerate(() if over else state.battles, 1):
        x = 16 + (no - 1) * (COL + 8)
        h = 24 + len(players) * pile_h
        head = f"battle {no}" + (f" — {b.theatre.value}" if b.theatre else "")
        items = [rect(x, top, COL, h, fill="#fbf8ef", stroke=WIN if b.closed else FAINT,
                      width=2 if b.closed else 1),
                 text(x + 8, top + 17, head, size=13, weight="bold")]
        if b.closed:
            won = f"won by {b.winner} ({b.points} pts)" if b.winner else "drawn"
            items.append(text(x + COL - 8, top + 17, won, size=12, anchor="end",
                              weight="bold", fill=seat_colour(players, b.winner)))
        for i, p in enumerate(players):
            y = top + 24 + i * pile_h
            colour = seat_colour(players, p)
            items.append(text(x + 8, y + 14, p, size=12, weight="bold", fill=colour))
            pile = b.piles[p]
            if b.closed and b.winner == p:
                items.append(text(x + COL - 8, y + 14, "★ won", size=12, anchor="end",
                                  fill=GOLD, weight="bold"))
            for k, name in enumerate(pile):
                c = lk.cards.get(name)
                sub = f"{c.value} pts · {c.theatre.value}" if c else ""
                items.append(card(x + 8, y + 20 + k * (CARD_H + 2), COL - 16, CARD_H, name,
                                  "", top=k == len(pile) - 1, colour=colour,
                                  faded=b.closed))
                items.append(text(x + COL - 12, y + 20 + k * (CARD_H + 2) + 15, sub, size=10,
                                  anchor="end", fill=FAINT))
            if not pile:
                items.append(text(x + 8, y + 36, "no cards", size=10, fill=FAINT))
            if not b.closed:
                items.append(text(x + COL - 8, y + pile_h - 6,
                                  f"{total(lk, state, b, p)} pts", size=13, anchor="end",
                                  weight="bold", fill=colour))
        parts.append(group(*items, label=f"battle {no}"))
    y = top + 24 + len(players) * pile_h + 16
    if over:
        y = top + 16
        parts.append(_results(state, y))
        y += 50
    for p in players:
        parts.append(_player(game, state, p, y))
        y += ROW + 8
    parts.append(_footer(state, y, pending))
    return Drawing(W, y + 70, f"{title}; {pending}", parts)


def _player(game: CardsOfWar, state: State, p: str, y: int) -> str:
    players = state.players
    colour = seat_colour(players, p)
    won = state.rounds_won.get(p, 0)
    hand = state.hands[p]
    items = [rect(16, y, W - 32, ROW, fill="#fbf8ef", stroke=colour),
             text(26, y + 18, p, size=14, weight="bold", fill=colour),
             text(26, y + 36, f"{len(hand)} cards / hand size {state.hand_size[p]}",
                  size=10, fill=FAINT),
             text(26, y + 50, f"face down {len(state.face_down[p])}", size=10, fill=FAINT)]
    for k in range(won):
        items.append(circle(30 + k * 14, y + 60, 5, fill=GOLD, stroke=GOLD))
    items.append(text(26 + won * 14, y + 64, f"rounds won {won}", size=10, fill=FAINT))
    for k, name in enumerate(hand[:9]):
        c = game.lk.cards.get(name)
        items.append(card(170 + k * 78, y + 6, 74, ROW - 12, name, f"{c.value} pts" if c else "",
                          hidden=name == HIDDEN, colour=colour))
        if c is not None and name != HIDDEN:
            items.append(lines(174 + k * 78, y + 41, _abilities(c), 14, size=9, leading=9,
                               fill=FAINT)[0])
    if len(hand) > 9:
        items.append(text(W - 22, y + 32, f"+{len(hand) - 9}", size=11, anchor="end"))
    if not hand:
        items.append(text(170, y + 32, "empty hand", size=11, fill=FAINT))
    return group(*items, label=f"player {p}")


def _abilities(c: Card) -> str:
    """Returns a card's abilities in a few words (`kill T S`, `reinforce`, `recon`), or
    its theatre when it has none."""
    out = []
    if c.kill:
        out.append("kill " + " ".join(c.kill))
    if c.reinforce:
        out.append("reinforce")
    if c.recon:
        out.append("recon")
    return " · ".join(out) or c.theatre.value


def _results(state: State, y: int) -> str:
    """Returns the finished game's results: each round's winner and the winner."""
    rounds = ", ".join(f"round {i}: {w or 'drawn'}"
                       for i, w in enumerate(state.round_winners, 1)) or "no round finished"
    won = ", ".join(f"{p} {state.rounds_won.get(p, 0)}" for p in state.players)
    items = [rect(16, y - 8, W - 32, 42, fill="#fbf8ef", stroke=GOLD, width=2),
             text(26, y + 10, f"game over — winner: {state.winner or 'none (drawn)'}",
                  size=14, weight="bold", fill=seat_colour(state.players, state.winner)),
             text(26, y + 27, f"{rounds}; rounds won: {won}", size=11)]
    return group(*items, label="results")


def _footer(state: State, y: int, pending: str) -> str:
    opts = state.options
    on = [f for f in opts.__struct_fields__ if f != "length" and getattr(opts, f)]
    piles = []
    for o, d in state.decks.items():
        count = sum(d.values())
        top = state.discards[o][-1] if state.discards[o] else None
        piles.append(f"{o}: deck {count}, discard {len(state.discards[o])}"
                     + (f" (top {top})" if top else ""))
    mine = {owner(state, p) for p in state.players}
    items = [text(16, y + 14, "; ".join(x for x, o in zip(piles, state.decks, strict=True)
                                        if o in mine) or "no decks", size=12),
             text(16, y + 32, f"{opts.length} game" + (f"; options: {', '.join(on)}" if on
                                                        else "; no options"), size=12),
             lines(16, y + 52, pending, 130, size=12, weight="bold")[0]]
    return group(*items, label="footer")
