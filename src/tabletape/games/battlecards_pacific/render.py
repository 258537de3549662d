"""Rich rendering of a BATTLECARDS table: each side's stacks, hands, kept and won cards,
and the battle in progress phase by phase."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import BattlecardsPacific
from . import lookups as q
from .components import UnitType
from .state import WITHDRAWAL, State


def _units(names: tuple[str, ...]) -> str:
    return ", ".join(names) or "·"


def render(game: BattlecardsPacific, state: State, pending: str) -> Group:
    """Returns the table as a person reads it."""
    title = f"BATTLECARDS Pacific — {q.turn(state)}"
    if state.result is not None:
        title += " — game over"
    people = Table(title=title, show_lines=True)
    for col in ("player", "VP", *(k.value for k in UnitType), "reserve", "kept", "won"):
        people.add_column(col)
    for p in state.players:
        name = f"{p} ({state.sides[p]})" + (" — eliminated" if p in state.eliminated else "")
        people.add_row(name, str(state.vp[p]), *(_units(state.stacks[p][k.value]) for k in UnitType),
                       _units(state.reserve[p]), _units(state.kept[p]), _units(state.won[p]))
    parts: list[Table | Text] = [people]
    b = state.battle
    if b is not None:
        stage = "withdrawal phase" if b.phase == WITHDRAWAL else f"firing phase {b.phase}"
        fight = Table(title=f"{b.card}: round {b.round}, {stage}, {b.side} to act")
        for col in ("", "engaged", "withdrawn", "still to fire"):
            fight.add_column(col)
        for p, role in ((b.aggressor, "aggressor"), (b.defender, "defender")):
            fight.add_row(f"{p} ({role})", _units(b.forces[p]), _units(b.withdrawn[p]),
                          _units(b.to_fire) if p == b.side and b.phase != WITHDRAWAL else "")
        parts.append(fight)
        if b.shot is not None:
            s = b.shot
            parts.append(Text(f"{s.player}'s {s.unit} has fired at {s.target}: needs "
                              f"{s.above + 1}-{s.upto}"))
    decks = ", ".join(f"{side} Arsenal {sum(d.values())} (discard {len(state.arsenal_discard[side])})"
                      for side, d in state.arsenal.items())
    conflict = "; ".join(f"{th} Conflict deck {sum(d.values())} (discard "
                         f"{len(state.conflict_discard[th])})" for th, d in state.conflict.items())
    footer = f"{conflict}; {decks}"
    if state.last_battle:
        footer += f"\nlast battle: {state.last_battle}"
    parts.append(Text(footer + f"\n{pending}"))
    return Group(*parts)
