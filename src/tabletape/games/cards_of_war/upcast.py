"""Cards of War upcasters: older events read under newer rules, one function per change.

Each fills a field that a newer version's rule needs and that an event recorded under an
older version implies (engine.versions.Upcaster); the changelog entry it answers is named
beside it, and `UPCASTERS` lists them in the changelog's order.
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine.versions import Upcaster

from .components import Lookups
from .events import CardDeployed
from .lookups import other
from .state import State


def kill_target(lk: Lookups, state: State, ev: CardDeployed) -> CardDeployed:
    """1.1 cow.kill.target: a 1.0 KILL took the opponent's top card in the killer's battle,
    its only possible target; 1.1 names it. An empty pile leaves it unnamed (and refused)."""
    if not ev.kill or ev.target is not None or ev.player not in state.players:
        return ev
    pile = state.battles[ev.battle - 1].piles[other(state, ev.player)]
    return replace(ev, target=pile[-1]) if pile else ev


UPCASTERS = (Upcaster("1.1", "cow.kill.target", CardDeployed, kill_target),)
