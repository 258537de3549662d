"""Global Domination (Dan Verssen Games): deck-building area control for 3 to 6 players."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from tabletape.engine import Outcome, Ruleset
from tabletape.tape.events import Event

from . import components, play, rules
from . import legal as moves
from .catalogue import RULES
from .events import (
    EVENTS,
    ActionStackChosen,
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    ChainAnswered,
    FirstPlayerChosen,
    ForceBuilt,
    ForceReduced,
    ForceRemoved,
    ForceSeized,
    GdStarted,
    Options,
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
    Use,
)
from .state import State

USE_WORDS = {Use.BUILD: "its Build points", Use.ATTACK: "its Reductions", Use.TEXT: "its text"}


class GlobalDomination(Ruleset):
    id = "global-domination"
    version = "1.0"
    title = "Global Domination"
    players = (3, 6)
    Header = GdStarted
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
            return f"{problem} (gd.components)"
        basic = next(c for c in comp.cards if c.basic)
        if basic.count < comp.tracks.starting_cards * len(header.players):
            return (f"{len(header.players)} players need {comp.tracks.starting_cards} "
                    f"{basic.name} cards each, the box has {basic.count} (gd.setup.deck)")
        return None

    def initial(self) -> State:
        return play.initial(self.header)

    apply = staticmethod(play.apply)
    outcome = staticmethod(play.outcome)

    pending = staticmethod(rules.pending)
    over = staticmethod(rules.over)
    check = staticmethod(rules.check)
    legal = staticmethod(moves.legal)
    weight = staticmethod(moves.weight)

    def view(self, state: State, player: str) -> State:
        """Returns the state as `player` sees it: other hands and every other Draw Deck hidden."""
        hands = {p: h if p == player else ("?",) * len(h) for p, h in state.hands.items()}
        decks = {p: d if p == player else {"?": sum(d.values())} for p, d in state.decks.items()}
        return replace(state, hands=hands, decks=decks)

    def describe(self, event: Event) -> str:
        match event:
            case FirstPlayerChosen(player=p):
                return f"{p} is chosen as First Player"
            case ActionStackChosen(card=c):
                return f"{c} is one of the Action stacks in use"
            case CardDrawn(player=p, card=c):
                return f"{p} draws {c}"
            case CardPlayed(player=p, card=c, use=u):
                return f"{p} plays {c} for {USE_WORDS[u]}"
            case CardsDiscarded(player=p, cards=cs, taken=k):
                where = "discard pile" if len(cs) == 1 else "hand"
                return f"{p} discards {' and '.join(cs)} to take {k} into their {where}"
            case ForceBuilt(player=p, area=a):
                return f"{p} builds in {a}"
            case ForceReduced(player=p, area=a):
                return f"{p} reduces the Force in {a}"
            case ForceRemoved(player=p, area=a):
                return f"{p} removes the Force in {a}"
            case ForceSeized(player=p, area=a):
                return f"{p}'s insurgents take {a} with a Full Force"
            case PlayerTargeted(player=p, target=q):
                return f"{p} aims the card at {q}"
            case ChainAnswered(player=p, joined=j):
                return f"{p} {'joins' if j else 'declines'} the Bio Weapons chain"
            case PointsForgone(player=p):
                return f"{p} leaves the rest of the owed points unused"
            case TurnEnded(player=p):
                return f"{p} ends their turn"
            case ScoringPassed(player=p):
                return f"{p} plays nothing more before scoring"
        return type(event).__name__

    def governing(self, event: Event) -> tuple[str, ...]:
        match event:
            case FirstPlayerChosen():
                return ("gd.setup.first",)
            case ActionStackChosen():
                return ("gd.setup.stacks",)
            case CardDrawn():
                return ("gd.draw.logistics", "gd.draw.in-deck", "gd.draw.reshuffle")
            case CardPlayed():
                return ("gd.play.order", "gd.play.step", "gd.play.in-hand", "gd.use.build",
                        "gd.use.attack", "gd.use.text-none", "gd.use.zero", "gd.card.fog.timing",
                        "gd.card.airborne.timing", "gd.score.window")
            case CardsDiscarded():
                return ("gd.play.order", "gd.play.in-hand", "gd.use.discard1", "gd.use.discard2",
                        "gd.stack.in-use", "gd.stack.empty", "gd.cost.logistics")
            case ForceBuilt():
                return ("gd.play.step", "gd.map.area", "gd.build.empty", "gd.build.upgrade",
                        "gd.card.airborne", "gd.card.amphibious", "gd.card.helicopters",
                        "gd.card.carrier")
            case ForceReduced():
                return ("gd.play.step", "gd.map.area", "gd.reduce.opposing", "gd.reduce.effect",
                        "gd.card.megastorm", "gd.card.airborne", "gd.card.amphibious",
                        "gd.card.helicopters", "gd.card.carrier")
            case ForceRemoved():
                return ("gd.play.step", "gd.card.global-disruption", "gd.card.surrender")
            case ForceSeized():
                return ("gd.play.step", "gd.card.insurgents")
            case PlayerTargeted():
                return ("gd.play.step", "gd.card.target")
            case ChainAnswered():
                return ("gd.play.step", "gd.card.bio-weapons", "gd.card.bio-weapons.chain")
            case PointsForgone():
                return ("gd.play.step", "gd.step.forgo")
            case TurnEnded():
                return ("gd.play.order", "gd.play.pass", "gd.play.end")
            case ScoringPassed():
                return ("gd.play.order", "gd.score.window")
        return ()


RULESET = GlobalDomination()

__all__ = ["RULESET", "GlobalDomination", "Outcome"]
