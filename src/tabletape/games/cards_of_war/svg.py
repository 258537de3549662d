"""The Cards of War table as SVG: `draw(game, state, pending)`, the game bound.

The three battles with each player's pile (top card in bold, the point total, won
battles marked), the hands (another player's cards are backs when the state is a
player's `view`), decks and discards, rounds won and the options in force.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

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
from .components import Card, Theatre
from .legality import next_opener
from .lookups import owner, total
from .state import Phase, State

W = 900
COL = 284  # a battle's column
CARD_H = 22
ROW = 70  # a player's row: the hand's cards, each with its value and abilities


def draw(game: CardsOfWar, state: State, pending: str, width: int = W) -> Drawing:
    """Returns the table: battles, hands, piles, rounds and options (`width` NARROW: the
    battles one below the other, for a phone)."""
    narrow = width < 600
    col = width - 32 if narrow else COL
    lk = game.lk
    players = state.players
    rows = max([1 if narrow else 3, *(len(b.piles[p]) for b in state.battles for p in players)])
    card_h = 36 if narrow else CARD_H  # narrow: the value and theatre on the card's 2nd line
    pile_h = 22 + rows * (card_h + 2) + 22
    beside = narrow and len(players) == 2  # the two piles side by side
    pile_w = (col - 24) / 2 if beside else col - 16
    title = f"Cards of War — round {state.round}" + (" — game over" if state.phase is Phase.OVER
                                                      else "")
    actor = acting(state)
    head_items = [text(16, 26, title, size=15 if narrow else 17, weight="bold")]
    if actor:  # who the seats' pages say acts (once over, the title says so)
        head_items.append(text(width - 16, 26, f"to act: {actor}",
                               size=12, anchor="end", fill=seat_colour(players, actor)))
    parts = [group(*head_items, label="title")]
    top = 40
    h = 24 + (1 if beside else len(players)) * pile_h
    over = state.phase is Phase.OVER  # the battles were cleared: the results stand instead
    for no, b in enumerate(() if over else state.battles, 1):
        x = 16 + (0 if narrow else (no - 1) * (COL + 8))
        top = 40 + ((no - 1) * (h + 8) if narrow else 0)
        totals = () if b.closed else tuple(total(lk, state, b, p) for p in players)
        parts.append(_battle(game, players, no, (b.theatre, b.closed, b.winner, b.points),
                             tuple(b.piles[p] for p in players), totals,
                             Layout(x, top, col, h, pile_w, pile_h, card_h, narrow, beside)))
    y = top + h + 16
    if over:
        y = 40 + 16
        part, y = _results(state, y, width)
        parts.append(part)
    for p in players:
        part, y = _player(game, state, p, y, width)
        parts.append(part)
    part, y = _footer(state, y, pending, width)
    parts.append(part)
    return Drawing(width, y, f"{title}; {pending}", parts)


class Layout(NamedTuple):
    """Where a battle is drawn: its box, its piles' width and height, its cards' height."""

    x: float
    top: float
    col: float
    h: float
    pile_w: float
    pile_h: float
    card_h: int
    narrow: bool
    beside: bool


@lru_cache(maxsize=1 << 10, typed=True)
def _battle(game: CardsOfWar, players: tuple[str, ...], no: int,
            result: tuple[Theatre | None, bool, str | None, int],
            piles: tuple[tuple[str, ...], ...], totals: tuple[int, ...], at: Layout) -> str:
    """Returns a battle's part: its theatre, its result (closed, winner, points), each
    player's pile and, while open, its total."""
    theatre, closed, winner, points = result
    x, top, col, h, pile_w, pile_h, card_h, narrow, beside = at
    head = f"battle {no}" + (f" — {theatre.value}" if theatre else "")
    items = [rect(x, top, col, h, fill="#fbf8ef", stroke=WIN if closed else FAINT,
                  width=2 if closed else 1),
             text(x + 8, top + 17, head, size=13, weight="bold")]
    if closed:
        won = f"won by {winner} ({points} pts)" if winner else "drawn"
        items.append(text(x + col - 8, top + 17, won, size=12, anchor="end",
                          weight="bold", fill=seat_colour(players, winner)))
    for i, (p, pile) in enumerate(zip(players, piles, strict=True)):
        y = top + 24 + (0 if beside else i * pile_h)
        px = x + 8 + (i * (pile_w + 8) if beside else 0)  # the pile's left edge
        colour = seat_colour(players, p)
        items.append(text(px, y + 14, p, size=12, weight="bold", fill=colour))
        if closed and winner == p:
            items.append(text(px + pile_w, y + 14, "★ won", size=12, anchor="end",
                              fill=GOLD, weight="bold"))
        for k, name in enumerate(pile):
            c = game.lk.cards.get(name)
            sub = f"{c.value} pts · {c.theatre.value}" if c else ""
            items.append(card(px, y + 20 + k * (card_h + 2), pile_w, card_h, name,
                              sub if narrow else "", top=k == len(pile) - 1,
                              colour=colour, faded=closed, small=10 if narrow else 9))
            if not narrow:
                items.append(text(x + col - 12, y + 20 + k * (CARD_H + 2) + 15, sub,
                                  size=10, anchor="end", fill=FAINT))
        if not pile:
            items.append(text(px, y + 36, "no cards", size=10, fill=FAINT))
        if not closed:
            items.append(text(px + pile_w, y + pile_h - 6, f"{totals[i]} pts", size=13,
                              anchor="end", weight="bold", fill=colour))
    return group(*items, label=f"battle {no}")


def acting(state: State) -> str | None:
    """Returns who enters the next event, as the seats' pages name them: the player owed a
    step (a recon report is the reporter's, though the turn is the other's), the player
    whose card chance turns up, else the turn's player; None once the game is over."""
    if state.phase is Phase.OVER:
        return None
    if state.phase is Phase.OPENING:
        return next_opener(state)
    return state.steps[0].player if state.steps else state.turn


def _player(game: CardsOfWar, state: State, p: str, y: int, width: int) -> tuple[str, int]:
    counts = (state.hand_size[p], len(state.face_down[p]), state.rounds_won.get(p, 0))
    return _player_drawn(game, p, seat_colour(state.players, p), state.hands[p], counts, y,
                         width)


@lru_cache(maxsize=1 << 10, typed=True)
def _player_drawn(game: CardsOfWar, p: str, colour: str, hand: tuple[str, ...],
                  counts: tuple[int, int, int], y: int, width: int) -> tuple[str, int]:
    """Returns a player's row (`counts`: hand size, cards face down, rounds won) and where
    the next part starts."""
    hand_size, face_down, won = counts
    narrow = width < 600
    left = 24 if narrow else 170  # where the hand's cards start
    per = 9 if not narrow else max(1, (width - 40 - left) // 78 + 1)
    card_w = 76 if narrow else 74
    rows = max(1, (len(hand) + per - 1) // per) if narrow else 1
    top = y + 72 if narrow else y + 6
    height = ROW if not narrow else 72 + rows * (ROW + 2) + 2
    items = [rect(16, y, width - 32, height, fill="#fbf8ef", stroke=colour),
             text(26, y + 18, p, size=14, weight="bold", fill=colour),
             text(26, y + 36, f"{len(hand)} cards / hand size {hand_size}",
                  size=10, fill=FAINT),
             text(26, y + 50, f"face down {face_down}", size=10, fill=FAINT)]
    for k in range(won):
        items.append(circle(30 + k * 14, y + 60, 5, fill=GOLD, stroke=GOLD))
    items.append(text(26 + won * 14, y + 64, f"rounds won {won}", size=10, fill=FAINT))
    small = 10 if narrow else 9
    for k, name in enumerate(hand if narrow else hand[:9]):
        c = game.lk.cards.get(name)
        x, yy = left + (k % per) * 78, top + (k // per) * (ROW + 2 if narrow else 0)
        items.append(card(x, yy, card_w, ROW - 4 if narrow else ROW - 12, name,
                          f"{c.value} pts" if c else "", hidden=name == HIDDEN, colour=colour,
                          small=small))
        if c is not None and name != HIDDEN:
            items.append(lines(x + 4, yy + 35, _abilities(c), 14 if small == 9 else 12,
                               size=small, leading=small, fill=FAINT)[0])
    if len(hand) > 9 and not narrow:
        items.append(text(width - 22, y + 32, f"+{len(hand) - 9}", size=11, anchor="end"))
    if not hand:
        items.append(text(left, top + 26, "empty hand", size=11, fill=FAINT))
    return group(*items, label=f"player {p}"), y + height + 8


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


def _results(state: State, y: int, width: int) -> tuple[str, int]:
    """Returns the finished game's results: each round's winner and the winner."""
    rounds = ", ".join(f"round {i}: {w or 'drawn'}"
                       for i, w in enumerate(state.round_winners, 1)) or "no round finished"
    won = ", ".join(f"{p} {state.rounds_won.get(p, 0)}" for p in state.players)
    said, n = lines(26, y + 27, f"{rounds}; rounds won: {won}", int((width - 52) / 6.4), size=11)
    items = [rect(16, y - 8, width - 32, 42 + (n - 1) * 13, fill="#fbf8ef", stroke=GOLD,
                  width=2),
             text(26, y + 10, f"game over — winner: {state.winner or 'none (drawn)'}",
                  size=14, weight="bold", fill=seat_colour(state.players, state.winner)), said]
    return group(*items, label="results"), y + 50 + (n - 1) * 13


def _footer(state: State, y: int, pending: str, width: int) -> tuple[str, int]:
    opts = state.options
    on = [f for f in opts.__struct_fields__ if f != "length" and getattr(opts, f)]
    piles = []
    for o, d in state.decks.items():
        count = sum(d.values())
        top = state.discards[o][-1] if state.discards[o] else None
        piles.append(f"{o}: deck {count}, discard {len(state.discards[o])}"
                     + (f" (top {top})" if top else ""))
    mine = {owner(state, p) for p in state.players}
    chars = int((width - 32) / 6.9)
    said = ["; ".join(x for x, o in zip(piles, state.decks, strict=True) if o in mine)
            or "no decks",
            f"{opts.length} game" + (f"; options: {', '.join(on)}" if on else "; no options")]
    items = []
    y += 14
    for s in said:
        block, n = lines(16, y, s, chars, size=12)
        items.append(block)
        y += n * 14 + 4
    block, n = lines(16, y + 2, pending, min(130, chars), size=12, weight="bold")
    items.append(block)
    return group(*items, label="footer"), y + n * 14 + 16
