"""Global Domination in words: one plain sentence per event, the rules that govern each kind,
and the component values those rules read (for the provenance of a ruling).

All are `match` statements over the event type.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tabletape.engine.provenance import Derivation, Deriving
from tabletape.tape.events import Event

from .components import Kind, Lookups, Restriction
from .events import (
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
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
    Use,
)
from .legality import check
from .points import ZONE_RULE

USE_WORDS = {Use.BUILD: "its Build points", Use.ATTACK: "its Reductions", Use.TEXT: "its text"}


def describe(event: Event) -> str:
    """Returns one plain sentence for a game event."""
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


def governing(event: Event) -> tuple[str, ...]:
    """Returns the ids of the rules that decide whether this kind of event is legal."""
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
                    "gd.build.supply", "gd.card.airborne", "gd.card.amphibious",
                    "gd.card.helicopters", "gd.card.carrier")
        case ForceReduced():
            return ("gd.play.step", "gd.map.area", "gd.reduce.opposing", "gd.reduce.effect",
                    "gd.card.megastorm", "gd.card.airborne", "gd.card.amphibious",
                    "gd.card.helicopters", "gd.card.carrier")
        case ForceRemoved():
            return ("gd.play.step", "gd.card.global-disruption", "gd.card.surrender",
                    "gd.card.surrender.own")
        case ForceSeized():
            return ("gd.play.step", "gd.card.insurgents", "gd.build.supply")
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


def consulted(lk: Lookups, state: Any, event: Event) -> Iterator[tuple[str, Any, tuple[str, ...]]]:
    """Yields the track values the ruling on this event rests on (the cards and areas the
    check reads as it runs are recorded: `Ruleset.reads`): a Build or a seizure judged on
    its merits (not refused on whose turn it is) the Force tokens in a set. A discard's
    Logistical track is read by its derivation (`derive`)."""
    match event:
        case ForceBuilt() | ForceSeized():
            v = check(lk, state, event)
            if v is None or v.rule == "gd.build.supply":
                yield "the set of Forces", lk.tracks, ("force_tokens",)


def derive(lk: Lookups, state: Any, event: Event) -> Derivation | None:
    """Returns the arithmetic a ruling on this event computes, as its terms: a card played
    for its Build or Reduction points, the points it gives (The Cards: Build and Attack
    uses; gd.use.zero); a Discard that takes a card with a Logistical cost, the marker
    after paying it (Acquiring Cards: gd.cost.logistics). None for other events and for a
    refusal about something else (whose turn or say it is, a card not held: no sum)."""
    v = check(lk, state, event)
    match event:
        case CardPlayed(card=c, use=u) if u is not Use.TEXT and (
                v is None or v.rule == "gd.use.zero"):
            card, field = lk.cards[c], "build" if u is Use.BUILD else "reduce"
            how = Deriving()
            what = USE_WORDS[u].removeprefix("its ")
            points = how.term(c, getattr(card, field), c, card, field)
            return how.done(f"{event.player}'s {what} from {c}", points)
        case CardsDiscarded(player=p, taken=k) if (
                v is None or v.rule == "gd.cost.logistics") and lk.cards[k].cost:
            card, track = lk.cards[k], lk.tracks.logistics
            how = Deriving()
            low = how.read("the Logistical track", track, "low")
            lg = how.given("marker", state.logistics[p], f"the log: {p}'s Logistics marker")
            cost = how.term("cost", -card.cost, k, card, "cost", k)
            return how.done(f"{p}'s Logistics marker after taking {k} (the track's left end "
                            f"is {low})", lg + cost)
        case ForceBuilt(area=a) | ForceReduced(area=a) if (
                state.steps and a in lk.areas and state.steps[0].restriction in _NEAR
                and (v is None or v.rule == ZONE_RULE[state.steps[0].restriction])):
            return _near(lk, state, state.steps[0].player, a, state.steps[0].restriction)
    return None


_NEAR = {Restriction.NEAR_OWN_SEA: Kind.SEA, Restriction.NEAR_OWN_LAND: Kind.LAND}


def _near(lk: Lookups, state: Any, player: str, area: str, restriction: Restriction
          ) -> Derivation:
    """Returns how many Areas of the kind a restricted card needs `player` controls next
    to `area` (Amphibious, Helicopters: at least one; gd.card.amphibious, .helicopters)."""
    how = Deriving()
    entry, kind = lk.areas[area], _NEAR[restriction]
    if how.read(area, entry, "kind") is Kind.LAND:
        for n in sorted(how.read(area, entry, "adjacent")):
            f = state.board.get(n)
            if f is not None and f.owner == player and how.read(n, lk.areas[n], "kind") is kind:
                how.given(n, 1, f"the log: {player}'s Force in {n}", f"{kind.value.capitalize()} Area")
    count = sum(t.value for t in how.terms)
    return how.done(f"{kind.value.capitalize()} Areas {player} controls next to {area} (needs 1 or more)",
                    count)
