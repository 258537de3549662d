"""Rich rendering of a Global Domination table.

`render(game, state, pending)` is handed the bound game: the map comes from its box.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import GlobalDomination
from . import lookups as q
from .state import Phase, State


def _force(state: State, area: str) -> str:
    f = state.board.get(area)
    if f is None:
        return "·"
    return f"{f.owner} ({'Full' if f.full else 'Struggling'})"


def render(game: GlobalDomination, state: State, pending: str) -> Group:
    """Returns the board as people read it: Regions, seas, players and the stacks."""
    i = game.lk
    turn = "Start" if state.game_turn == 0 else ("End" if state.phase is Phase.OVER
                                                   else str(state.game_turn))
    parts: list[Table | Text] = [
        Text(f"Global Domination — Game Turn {turn} — {state.phase.value}", style="bold")]
    regions = Table(title="Regions")
    for col in ("region", "area", "resource", "force"):
        regions.add_column(col)
    for r in i.regions:
        if r != i.regions[0]:
            regions.add_section()
        for n, a in enumerate(i.in_region[r]):
            regions.add_row(r if n == 0 else "", a, i.areas[a].resource or "", _force(state, a))
    seas = Table(title="Seas")
    seas.add_column("sea")
    seas.add_column("force")
    for s in i.sea:
        seas.add_row(s, _force(state, s))
    people = Table(title="Players")
    for col in ("player", "VP", "Logistics", "hand", "deck", "discard", "Forces in supply",
                "status"):
        people.add_column(col)
    for p in state.players:
        status = ("First Player " if p == state.first else "") + (
            "passed" if p in state.passed else "to play" if p == state.current else "")
        people.add_row(p, str(state.vp[p]), str(state.logistics[p]), str(len(state.hands[p])),
                       str(sum(state.decks[p].values())), str(len(state.discards[p])),
                       str(q.supply(i, state, p)), status.strip())
    stacks = ", ".join(f"{c} ({n})" for c, n in state.stacks.items()) or "not chosen yet"
    parts += [regions, seas, people, Text(f"cards in use: {stacks}\n{pending}")]
    return Group(*parts)
