"""Plain sentences for BATTLECARDS events, the rules that govern each kind, and the card values
those rules read, for the provenance of a ruling (each a `match` over the event type)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tabletape.engine.provenance import Derivation, Deriving
from tabletape.tape.events import Event

from . import lookups as q
from .components import Lookups
from .events import (
    ArsenalDrawn,
    BattleDecided,
    CardsRevealed,
    ConflictDrawn,
    ConflictTurned,
    DeploymentFinished,
    EmergencyDeclined,
    EmergencyDeployed,
    UnitDeployed,
    UnitFired,
    UnitWithdrawn,
    WithdrawalFinished,
)
from .fire import window
from .legality import check


def describe(event: Event) -> str:
    """Returns one plain sentence for a game event."""
    match event:
        case ArsenalDrawn(player=p, unit=u):
            return f"{p} draws {u} from the Arsenal deck into the Reserve Hand"
        case UnitDeployed(player=p, unit=u, stack=s):
            return f"{p} deploys {u} face down on the {s} stack"
        case DeploymentFinished(player=p):
            return f"{p} deploys nothing more"
        case EmergencyDeployed(player=p, units=us):
            return f"{p} emergency deploys the whole Reserve Hand: {', '.join(us)}"
        case EmergencyDeclined(player=p):
            return f"{p} keeps the Reserve Hand rather than emergency deploy"
        case ConflictDrawn(player=p, card=c):
            return f"{p} draws the Conflict card {c}"
        case BattleDecided(player=p, fight=yes):
            return f"{p} {'fights' if yes else 'declines'} the battle"
        case UnitFired(player=p, unit=u, target=tg, kept=k, support=sup):
            return (f"{p}'s {u} takes aim at {tg}" + (f", playing the Kept Card {k}" if k else "")
                    + (f", backed by {', '.join(sup)}" if sup else ""))
        case CardsRevealed(player=p, to=to, what=w, cards=cs):
            shown = {"reserve": "Reserve Hand", "kept": "Kept Cards", "stacks": "deployed stacks"}
            return f"{p} shows {to} their {shown[w]}: {', '.join(cs) or 'nothing'}"
        case ConflictTurned(player=p, unit=u, target=tg, card=c, action=a, above=lo, upto=hi):
            needs = f"needs {lo + 1}-{hi}" if hi > lo else f"cannot hit (defence {lo}, attack {hi})"
            result = "destroyed" if event.hit else "no effect"
            return f"{p}'s {u} fires at {tg}: {needs}, turned {a} ({c}): {result}"
        case UnitWithdrawn(player=p, unit=u):
            return f"{p} withdraws {u} from the battle"
        case WithdrawalFinished(player=p):
            return f"{p} withdraws nothing more this round"
    return type(event).__name__


def governing(event: Event) -> tuple[str, ...]:
    """Returns the ids of the rules that decide whether this kind of event is legal."""
    match event:
        case ArsenalDrawn():
            return ("bcp.setup.deal", "bcp.conflict.draw", "bcp.draw.in-deck", "bcp.turn.step")
        case UnitDeployed():
            return ("bcp.setup.deploy", "bcp.conflict.deploy", "bcp.deploy.in-hand",
                    "bcp.deploy.stack", "bcp.turn.order")
        case DeploymentFinished():
            return ("bcp.conflict.deploy", "bcp.setup.deploy")
        case EmergencyDeployed() | EmergencyDeclined():
            return ("bcp.emergency.turn", "bcp.emergency.homeland", "bcp.emergency.all",
                    "bcp.turn.order")
        case ConflictDrawn():
            return ("bcp.turn.order", "bcp.emergency.turn", "bcp.draw.in-deck")
        case CardsRevealed():
            return ("bcp.conflict.reveal", "bcp.turn.order")
        case BattleDecided():
            return ("bcp.battle.decide", "bcp.battle.aggressor-decides",
                    "bcp.battle.prerequisites")
        case UnitFired():
            return ("bcp.battle.rounds", "bcp.fire.phase", "bcp.fire.each-phase",
                    "bcp.fire.target", "bcp.fire.equal", "bcp.fire.kept", "bcp.fire.support",
                    "bcp.fire.support-allocated")
        case ConflictTurned():
            return ("bcp.fire.hit", "bcp.fire.support", "bcp.fire.support-allocated",
                    "bcp.fire.kept", "bcp.draw.in-deck")
        case UnitWithdrawn() | WithdrawalFinished():
            return ("bcp.withdraw.phase",)
    return ()


Consulted = Iterator[tuple[str, Any, tuple[str, ...]]]


def consulted(lk: Lookups, state: Any, event: Event) -> Consulted:
    """Yields the card values the ruling on this event rests on that the check does not
    read itself as it runs (that is recorded: `Ruleset.reads`): a draw reads how many the
    deck holds, filled from the cards' counts; a shot's target is read from the table of
    who may fire at whom, built from both units' types. A turned card's window is the
    shot's derivation (`derive`)."""
    def unit(player: str, name: str | None, *fields: str, enemy: bool = False) -> Consulted:
        own = state.sides.get(player)
        for side, units in lk.units.items():
            if (side != own) == enemy and name in units:
                yield str(name), units[name], fields
                return

    match event:
        case ArsenalDrawn(player=p, unit=u) if _on_the_deck(lk, state, event):
            yield from unit(p, u, "count")
        case ConflictDrawn(card=c) if c in lk.cards and _on_the_deck(lk, state, event):
            yield c, lk.cards[c], ("count",)
        case UnitFired(player=p, unit=u, target=t):  # the volley was drawn up from phases
            yield from unit(p, u, "type", "phases")
            yield from unit(p, t, "type", enemy=True)


def derive(lk: Lookups, state: Any, event: Event) -> Derivation | None:
    """Returns the window of a shot (bcp.fire.hit) as its terms: for a Conflict card turned,
    the shot's; for a unit firing, the one it would have. None for other events, or when no
    such shot is in the state."""
    b = state.battle
    match event:
        case ConflictTurned() if b is not None and b.shot is not None:
            s = b.shot
            player, unit, target, kept, support = s.player, s.unit, s.target, s.kept, s.support
        case UnitFired(player=player, unit=unit, target=target, kept=kept, support=support):
            own = lk.units.get(state.sides.get(player, ""), {})
            if b is None or player not in b.forces or not (
                    unit in own and target in b.forces.get(q.opponent(b, player), ())
                    and all(n in own for n in support)
                    and (kept is None or kept in lk.cards)):
                return None  # a shot the rules cannot even aim: no window to show
        case _:
            return None
    how = Deriving()
    above, upto = window(lk, state, b, player, unit, target, kept, support, how)
    needs = f"needs {above + 1}-{upto}" if upto > above else f"cannot hit (defence {above})"
    return how.done(needs, upto)


def _on_the_deck(lk: Lookups, state: Any, event: Event) -> bool:
    """Whether a draw's ruling turns on the deck (it passed, or the card is not in it): a
    draw refused on whose turn or which step it is reads no card's count."""
    v = check(lk, state, event)
    return v is None or v.rule == "bcp.draw.in-deck"
