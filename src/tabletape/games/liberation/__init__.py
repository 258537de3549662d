"""Liberation (the rulebook prints no title): liberate countries with force cards."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tabletape.engine import Outcome, Ruleset
from tabletape.tape.events import Event

from . import components, play, rules
from .catalogue import RULES
from .events import (
    EVENTS,
    CountryTurned,
    ForceCardDealt,
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    LiberationStarted,
    Options,
    PlayedCardTaken,
    PlayedCardTurned,
    TieBreakDrawn,
    TurnOverAccepted,
    TurnOverPrevented,
    TurnPassed,
)
from .state import MAX_PLAYERS, MIN_PLAYERS, State

_GOVERNING: dict[type, tuple[str, ...]] = {
    CountryTurned: ("lib.turn.step", "lib.turn.order", "lib.country.turn", "lib.country.next"),
    ForceCardDealt: ("lib.turn.step", "lib.deal.count", "lib.draw.in-deck", "lib.deck.refresh"),
    ForceCardDrawn: ("lib.turn.step", "lib.draw.in-deck", "lib.ability.first-draw",
                     "lib.ability.draw-two", "lib.country.draw-type"),
    TieBreakDrawn: ("lib.turn.step", "lib.tie.draw", "lib.draw.in-deck"),
    ForceCardPlayed: ("lib.turn.order", "lib.round.count", "lib.play.in-hand",
                      "lib.country.double-play", "lib.country.forbid-type"),
    TurnPassed: ("lib.turn.order", "lib.play.pass", "lib.country.double-play"),
    PlayedCardTurned: ("lib.turn.step", "lib.ability.turn-over", "lib.ability.turn-up",
                       "lib.ability.all-turn-down", "lib.ability.protected",
                       "lib.country.turn-over-type"),
    TurnOverPrevented: ("lib.turn.step", "lib.ability.prevent", "lib.ability.prevent.forced"),
    TurnOverAccepted: ("lib.turn.step", "lib.ability.prevent"),
    PlayedCardTaken: ("lib.turn.step", "lib.ability.trade-card"),
    HandsTraded: ("lib.turn.step", "lib.ability.trade-hands"),
}


class Liberation(Ruleset):
    id = "liberation"
    version = "1.0"
    title = "Liberation"
    players = (MIN_PLAYERS, MAX_PLAYERS)
    Header = LiberationStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES

    def default_components(self) -> components.Components:
        return components.default()

    def check_header(self, header: Any) -> str | None:
        lo, hi = self.players
        if not lo <= len(header.players) <= hi:
            return f"liberation is played by {lo} to {hi} players (lib.setup.players)"
        return components.problems(header.components)

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
        """Returns the state as `player` sees it: other hands and the force deck hidden.

        The countries left are public (all ten cards are known); only their order is
        secret, and the state never holds it.
        """
        hands = {p: h if p == player else ("?",) * len(h) for p, h in state.hands.items()}
        return replace(state, hands=hands, deck={"?": sum(state.deck.values())})

    def describe(self, event: Event) -> str:
        match event:
            case CountryTurned(player=p, country=c):
                return f"{p} turns up {c}"
            case ForceCardDealt(player=p, card=c):
                return f"{p} is dealt {c}"
            case ForceCardDrawn(player=p, card=c):
                return f"{p} draws {c}"
            case TieBreakDrawn(player=p, card=c):
                return f"{p} draws {c} to break the tie"
            case ForceCardPlayed(player=p, card=c):
                return f"{p} plays {c} face up"
            case TurnPassed(player=p):
                return f"{p} passes"
            case PlayedCardTurned(player=p, owner=o, slot=s, face_up=up):
                whose = "their own" if o == p else f"{o}'s"
                return f"{p} turns {whose} card at slot {s} " + ("back face up" if up else "face down")
            case TurnOverPrevented(player=p, card=c):
                return f"{p} discards {c} to keep their card face up"
            case TurnOverAccepted(player=p):
                return f"{p} lets the turn-over stand"
            case PlayedCardTaken(player=p, owner=o, slot=s):
                return f"{p} takes {o}'s card at slot {s} in trade"
            case HandsTraded(player=p, other=o):
                return f"{p} trades hands with {o}"
        return type(event).__name__

    def governing(self, event: Event) -> tuple[str, ...]:
        return _GOVERNING.get(type(event), ())


RULESET = Liberation()

__all__ = ["RULESET", "Liberation", "Outcome"]
