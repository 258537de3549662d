"""Global Domination, Game Terms and The Cards: spending owed points (Builds, Reductions,
removals, Insurgent seizures), aiming a card at a player, answering a chain, forgoing.

Each check answers one event type (`legality.CHECK`); every function takes the game's
`Lookups` (`lk`) first.
"""

from __future__ import annotations

from tabletape.engine import Violation

from . import lookups as q
from .components import (
    RESTRICTION_ANY,
    RESTRICTION_LAND,
    RESTRICTION_NEAR_OWN_LAND,
    RESTRICTION_NEAR_OWN_SEA,
    RESTRICTION_SEA,
    Lookups,
    Restriction,
)
from .events import (
    ChainAnswered,
    ForceBuilt,
    ForceReduced,
    ForceRemoved,
    ForceSeized,
    PlayerTargeted,
    PointsForgone,
)
from .state import (
    STEP_BUILD,
    STEP_CHAIN,
    STEP_DRAW,
    STEP_LAND_MIX,
    STEP_REDUCE,
    STEP_REMOVE,
    STEP_SEIZE,
    STEP_TARGET,
    Owed,
    State,
)
from .turn import OWING, owed_text

# the rule that places a restricted card's Builds and Reductions
ZONE_RULE = {RESTRICTION_LAND: "gd.card.airborne", RESTRICTION_SEA: "gd.card.carrier",
             RESTRICTION_NEAR_OWN_SEA: "gd.card.amphibious",
             RESTRICTION_NEAR_OWN_LAND: "gd.card.helicopters"}
ZONE_TEXT = {RESTRICTION_LAND: "a Land Area", RESTRICTION_SEA: "a Sea Area",
             RESTRICTION_NEAR_OWN_SEA: "a Land Area next to a Sea Area they control",
             RESTRICTION_NEAR_OWN_LAND: "a Land Area next to a Land Area they control"}
FIXED = (STEP_DRAW, STEP_TARGET, STEP_CHAIN)  # steps that cannot be forgone


def _check_area(lk: Lookups, player: str, area: str) -> Violation | None:
    if area not in lk.areas:
        return Violation("gd.map.area", f"{player} names {area!r}, and there is no such area "
                         "on this map")
    return None


def _check_zone(lk: Lookups, state: State, player: str, area: str,
                restriction: Restriction) -> Violation | None:
    if q.in_zone(lk, state, player, area, restriction):
        return None
    return Violation(ZONE_RULE[restriction], f"these points must be spent in "
                     f"{ZONE_TEXT[restriction]}, and {area} is not one for {player}")


def check_point(lk: Lookups, state: State, ev: ForceBuilt | ForceReduced) -> Violation | None:
    """Returns why a Build or a Reduction cannot be spent now, or None: `_check_point`, its
    accepting case asked first in one frame (the step owed is the player's and takes it, the
    Area is on the map and in the card's zone, an empty Area with a token left or one's own
    Struggling Force to Build, an opposing Force (the target's) to Reduce); the zone is read
    as `_check_zone` reads it (tests/games/global_domination/test_fast_paths.py pins both)."""
    steps, p, area = state.steps, ev.player, ev.area
    if steps and (h := steps[0]).player == p and area in lk.areas:
        step, zone, building = h.step, h.restriction, isinstance(ev, ForceBuilt)
        if (step is STEP_LAND_MIX or step is (STEP_BUILD if building else STEP_REDUCE)) \
                and (zone is RESTRICTION_ANY or q.in_zone(lk, state, p, area, zone)):
            f = state.board.get(area)
            if building:
                if f.owner == p and not f.full if f is not None else q.has_supply(lk, state, p):
                    return None
            elif f is not None and (f.owner == h.target if h.target else f.owner != p):
                return None
    return _check_point(lk, state, ev)


def _check_point(lk: Lookups, state: State, ev: ForceBuilt | ForceReduced) -> Violation | None:
    building = isinstance(ev, ForceBuilt)
    steps = (STEP_BUILD, STEP_LAND_MIX) if building else (STEP_REDUCE, STEP_LAND_MIX)
    if v := OWING.refuse(lk, state, steps, ev.player, "Build" if building else "Reduction"):
        return v
    h = state.steps[0]
    return check_spend(lk, state, h, ev.area, building)


def check_spend(lk: Lookups, state: State, h: Owed, area: str, building: bool
                 ) -> Violation | None:
    """Returns why the player owing `h` cannot spend a Build (or Reduction) in `area`, or None."""
    player = h.player
    v = _check_area(lk, player, area) or _check_zone(lk, state, player, area, h.restriction)
    if v:
        return v
    if building:
        why = q.build_problem(lk, state, player, area)
        if why:
            return Violation(_build_rule(state, player, area), why)
        return None
    why = q.reduce_problem(state, player, area, h.target)
    if why:
        return Violation("gd.card.megastorm" if h.target else "gd.reduce.opposing", why)
    return None


def _build_rule(state: State, player: str, area: str) -> str:
    """Returns the rule a refused Build breaks: the Area is taken, Full, or no token is left."""
    f = state.board.get(area)
    if f is None:
        return "gd.build.supply"
    return "gd.build.empty" if f.owner != player else "gd.build.upgrade"


def check_remove(lk: Lookups, state: State, ev: ForceRemoved) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_REMOVE,), ev.player, "removal"):
        return v
    h = state.steps[0]
    rule = "gd.card.global-disruption" if h.must else "gd.card.surrender"
    v = _check_area(lk, ev.player, ev.area)
    if v:
        return v
    if lk.areas[ev.area].region != h.region:
        return Violation(rule, f"{ev.player}'s removal is in {h.region}, and {ev.area} is not")
    f = state.board.get(ev.area)
    if f is None:
        return Violation(rule, f"{ev.player} cannot remove a Force from {ev.area}: it holds none")
    if f.owner == ev.player and not h.own:  # rules 1.0 cited the card's own rule
        return Violation("gd.card.surrender.own" if lk.surrender_own_cited else rule, f"{ev.area} holds {ev.player}'s own Force; "
                         "Surrender removes opposing Forces unless option surrender_own is set")
    return None


def check_seize(lk: Lookups, state: State, ev: ForceSeized) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_SEIZE,), ev.player, "seizure"):
        return v
    v = _check_area(lk, ev.player, ev.area)
    if v:
        return v
    f = state.board.get(ev.area)
    if not q.is_land(lk, ev.area) or f is None or f.full:
        return Violation("gd.card.insurgents", f"{ev.player}'s Insurgents take only Struggling "
                         f"Land Forces, and {ev.area} holds none")
    if f.owner != ev.player and not q.has_supply(lk, state, ev.player):
        return Violation("gd.build.supply", f"{ev.player} has no Force token left in supply "
                         f"to put in {ev.area}")
    return None


def check_target(lk: Lookups, state: State, ev: PlayerTargeted) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_TARGET,), ev.player, "target"):
        return v
    h = state.steps[0]
    if ev.target not in state.players or ev.target == ev.player:
        return Violation("gd.card.target", f"{ev.player} aims {h.card} at another player at "
                         f"the table, not {ev.target}")
    return None


def check_chain(lk: Lookups, state: State, ev: ChainAnswered) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_CHAIN,), ev.player, "chain answer"):
        return v
    h = state.steps[0]
    if ev.joined and not q.reduce_areas(lk, state, ev.player, RESTRICTION_ANY):
        return Violation("gd.card.bio-weapons.chain", f"{ev.player} has no opposing Force to "
                         f"Reduce, so can only decline {h.card}")
    return None


def check_forgo(lk: Lookups, state: State, ev: PointsForgone) -> Violation | None:
    h = q.head(state)
    if h is None or h.step in FIXED:
        return OWING.not_now(lk, state, "forgoing", ev.player)
    if ev.player != h.player:
        return Violation("gd.play.order", f"{h.player} decides now, not {ev.player}")
    if h.must:
        return Violation("gd.step.forgo", f"{owed_text(h)}, and these are not optional")
    return None
