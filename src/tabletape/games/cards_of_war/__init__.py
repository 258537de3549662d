"""Cards of War (Krassner & Schutze, 2002; rules revised 2007): two players, three battles."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tabletape.engine import Outcome, Ruleset
from tabletape.tape.events import Event

from . import components, play, rules
from .catalogue import RULES
from .events import (
    EVENTS,
    CardDeployed,
    CardDrawn,
    CowStarted,
    HandReported,
    OpeningCardDrawn,
    Options,
)
from .state import State


class CardsOfWar(Ruleset):
    id = "cards-of-war"
    version = "1.0"
    title = "Cards of War"
    players = (2, 2)
    Header = CowStarted
    Options = Options
    Components = components.Components
    events = EVENTS
    RULES = RULES

    def default_components(self) -> components.Components:
        return components.default()

    def check_header(self, header: Any) -> str | None:
        opts: Options = header.options
        if opts.strategic_exhaustion and opts.length != "long":
            return "strategic_exhaustion is played only with length=long (cow.setup.options)"
        if opts.strategic_exhaustion and opts.tactical_advantage:
            return "strategic_exhaustion replaces tactical_advantage; choose one (cow.setup.options)"
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
        """Returns the state as `player` sees it: the opponent's hand and the decks hidden."""
        hands = {p: h if p == player else ("?",) * len(h) for p, h in state.hands.items()}
        decks = {o: {"?": sum(d.values())} for o, d in state.decks.items()}
        drew = state.steps[0].player if state.steps else state.turn
        secret = state.reinforce_card if drew == player else None  # the card just drawn
        return replace(state, hands=hands, decks=decks, reinforce_card=secret)

    def describe(self, event: Event) -> str:
        match event:
            case OpeningCardDrawn(player=p, card=c):
                return f"{p} turns up {c} to decide who starts"
            case CardDrawn(player=p, card=c):
                return f"{p} draws {c}"
            case HandReported(player=p):
                return (f"{p} reports for recon: {event.air} Air, {event.sea} Sea, "
                        f"{event.ground} Ground, {event.intel} Intel")
            case CardDeployed(player=p, card=c, battle=b):
                s = f"{p} deploys {c}" + (" from the discard pile" if event.from_discard else "")
                s += f" to battle {b}"
                if event.theatre:
                    s += f", naming it the {event.theatre} theatre"
                if event.kill:
                    s += ", killing the opponent's top card there"
                if event.joint:
                    s += ", its pair partner to follow"
                return s
        return type(event).__name__

    def governing(self, event: Event) -> tuple[str, ...]:
        match event:
            case OpeningCardDrawn():
                return ("cow.setup.opening", "cow.draw.in-deck")
            case CardDrawn():
                return ("cow.turn.step", "cow.draw.refill", "cow.draw.in-deck")
            case HandReported():
                return ("cow.recon.report",)
            case CardDeployed():
                ids = ["cow.turn.order", "cow.deploy.in-hand", "cow.deploy.open-battle"]
                if event.kill:
                    ids += ["cow.kill.ability", "cow.kill.top-only", "cow.kill.type-match"]
                if event.joint:
                    ids += ["cow.opt.joint", "cow.opt.joint.pair"]
                if event.from_discard:
                    ids += ["cow.opt.alt-reinforce"]
                if event.theatre:
                    ids += ["cow.opt.theatres.choose"]
                return tuple(ids)
        return ()


RULESET = CardsOfWar()

__all__ = ["RULESET", "CardsOfWar", "Outcome"]
