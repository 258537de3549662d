"""Rich rendering of a Cards of War table: `render(game, state, pending)`, the game bound."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import CardsOfWar
from .lookups import total
from .state import Phase, State


def render(game: CardsOfWar, state: State, pending: str) -> Group:
    """Returns the table as a person reads it: battles, hands, piles and the score."""
    opts = state.options
    lk = game.lk
    title = f"Cards of War — round {state.round}"
    if state.phase is Phase.OVER:
        title += " — game over"
    battles = Table(title=title, show_lines=True)
    battles.add_column("player")
    for no, b in enumerate(state.battles, 1):
        head = f"battle {no}" + (f" ({b.theatre})" if b.theatre else "")
        battles.add_column(head)
    for p in state.players:
        cells: list[str | Text] = []
        for b in state.battles:
            if b.closed:
                cells.append(f"won ({b.points})" if b.winner == p else "—" if b.winner else "drawn")
            else:
                pile = ", ".join(b.piles[p]) or "·"
                cells.append(Text.assemble(f"{pile}\n", (str(total(lk, state, b, p)), "bold"), " pts"))
        battles.add_row(p, *cells)
    people = Table(show_header=True)
    for col in ("player", "hand", "cards / hand size", "rounds won", "face down"):
        people.add_column(col)
    for p in state.players:  # what is held beside the limit: 7 / 8 is a hand one short
        people.add_row(p, ", ".join(state.hands[p]) or "·",
                       f"{len(state.hands[p])} / {state.hand_size[p]}",
                       str(state.rounds_won.get(p, 0)), str(len(state.face_down[p])))
    piles = ", ".join(f"{o}: deck {sum(d.values())}, discard {len(state.discards[o])}"
                      + (f" (top {state.discards[o][-1]})" if state.discards[o] else "")
                      for o, d in state.decks.items())
    on = [f for f in opts.__struct_fields__ if f != "length" and getattr(opts, f)]
    footer = Text(f"{opts.length} game" + (f"; options: {', '.join(on)}" if on else "")
                  + f"\n{piles}\n{pending}")
    return Group(battles, people, footer)
