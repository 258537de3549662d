"""Rich rendering of a Liberation table."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tabletape.engine.kit.turns import HIDDEN

from . import Liberation
from . import lookups as t
from .state import Phase, State


def render(game: Liberation, state: State, pending: str) -> Group:
    """Returns the table as a person reads it: the country, each row of cards, the score."""
    lk = game.lk
    land = t.country(lk, state)
    if state.phase is Phase.OVER:
        title = "Liberation — game over"
    elif land:
        instruction = land.trigger.value + (f" {land.card_type}" if land.card_type else "") \
            + (f" +{land.amount}" if land.amount else "")
        title = (f"Liberation — {land.name} ({land.vp} VP, {instruction}) — "
                 f"{t.stage(state)}")
    else:
        title = "Liberation — between countries"
    grid = Table(title=title, show_lines=True)
    for col in ("player", "face up", "face down", "total", "hand", "liberated", "VP"):
        grid.add_column(col)
    for p in state.players:
        up = ", ".join(f"{c.card} {t.points(lk, state, c.card)}" for c in state.played[p] if c.up) or "·"
        down = ", ".join(c.card for c in state.played[p] if not c.up) or "·"
        ties = state.tie_cards.get(p, ())
        if ties:
            up += f"\n(tie-break: {', '.join(ties)})"
        mark = " ▶" if p == state.turn else ""
        grid.add_row(p + mark, up, down, str(t.total(lk, state, p)), _hand(state.hands[p]),
                     ", ".join(state.liberated[p]) or "·", str(t.vp(lk, state, p)))
    footer = Text(f"target {t.target(state)} VP; countries left {len(state.countries)}; "
                  f"force deck {t.deck_size(state)}, discards {len(state.discards)}"
                  + (f"; failed: {', '.join(state.failed)}" if state.failed else "")
                  + f"\n{pending}")
    return Group(grid, footer)


def _hand(cards: tuple[str, ...]) -> str:
    """Returns a hand as its owner (or the umpire) sees it, or only its size when hidden."""
    if not cards:
        return "·"
    if HIDDEN in cards:
        return f"{len(cards)} hidden"
    return f"{len(cards)}: " + ", ".join(cards)
