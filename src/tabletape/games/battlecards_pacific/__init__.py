"""BATTLECARDS World Conflict, Pacific Theater (DG Associates): US against Japan."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tabletape.engine import Outcome, Ruleset
from tabletape.tape.events import Event

from . import components, play, rules
from .catalogue import RULES
from .describe import describe as _describe
from .describe import governing as _governing
from .events import EVENTS, BcpStarted, Options
from .state import State


class BattlecardsPacific(Ruleset):
    id = "battlecards-pacific"
    version = "1.0"
    title = "BATTLECARDS Pacific Theater"
    players = (2, 2)
    Header = BcpStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES

    def default_components(self) -> components.Components:
        return components.default()

    def check_header(self, header: Any) -> str | None:
        comp: components.Components = header.components
        problem = components.problems(comp)
        if problem:
            return problem
        sides = [s.id for s in comp.sides]
        if header.options.first_side not in sides:
            return (f"first_side must be one of {', '.join(sides)}, not "
                    f"{header.options.first_side!r} (bcp.setup.sides)")
        if len(sides) != len(header.players):
            return (f"these cards have {len(sides)} sides; one player per side is needed "
                    "(bcp.setup.players)")
        return None

    def initial(self) -> State:
        return play.initial(self.header)

    apply = staticmethod(play.apply)
    outcome = staticmethod(play.outcome)

    pending = staticmethod(rules.pending)
    over = staticmethod(rules.over)
    check = staticmethod(rules.check)
    legal = staticmethod(rules.legal)
    weight = staticmethod(rules.weight)

    def view(self, state: State, player: str) -> State:
        """Returns the state as `player` sees it: others' hands, stacks and kept cards face
        down, and every deck as a count."""
        def hide(cards: tuple[str, ...]) -> tuple[str, ...]:
            return ("?",) * len(cards)

        others = [p for p in state.players if p != player]
        reserve = {**state.reserve, **{p: hide(state.reserve[p]) for p in others}}
        kept = {**state.kept, **{p: hide(state.kept[p]) for p in others}}
        stacks = {**state.stacks, **{p: {k: hide(v) for k, v in state.stacks[p].items()}
                                     for p in others}}
        arsenal = {s: {"?": sum(d.values())} for s, d in state.arsenal.items()}
        return replace(state, reserve=reserve, kept=kept, stacks=stacks, arsenal=arsenal,
                       conflict={th: {"?": sum(d.values())} for th, d in state.conflict.items()})

    def describe(self, event: Event) -> str:
        return _describe(event)

    def governing(self, event: Event) -> tuple[str, ...]:
        return _governing(event)


RULESET = BattlecardsPacific()

__all__ = ["RULESET", "BattlecardsPacific", "Outcome"]
