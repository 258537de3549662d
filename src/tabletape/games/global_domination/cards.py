"""What each Action card's text does when played: immediate changes, or steps owed.

Rule code reads a card's `effect`, never its name (see components.json).
"""

from __future__ import annotations

import math

from msgspec.structs import replace

from . import table as t
from .components import Card, Effect, Restriction
from .state import Force, Owed, State, Step


def play_text(state: State, player: str, card: Card) -> State:
    """Returns the state after `player` plays `card` for its text (the card already left the hand)."""
    fx = card.effect
    if fx is Effect.RESOURCE_VP:  # gd.card.resource-vp
        n = sum(1 for a in t.idx(state).with_resource.get(card.resource or "", ())
                if t.owner(state, a) == player)
        return _gain(state, player, n)
    if fx is Effect.REGION_FULL_VP:  # gd.card.propaganda
        i = t.idx(state)
        n = sum(1 for r in i.regions if any(
            (f := state.board.get(a)) and f.owner == player and f.full for a in i.in_region[r]))
        return _gain(state, player, n)
    if fx is Effect.DENY_REGIONS:  # gd.card.fog
        return replace(state, fog=(*state.fog, player))
    if fx is Effect.CLEAR_STRUGGLING:  # gd.card.nuclear-winter
        return replace(state, board={a: f for a, f in state.board.items() if f.full})
    if fx is Effect.STRUGGLE_ALL:  # gd.card.tactical-nukes
        return replace(state, board={a: Force(f.owner, False) for a, f in state.board.items()})
    if fx is Effect.UPGRADE_ALL:  # gd.card.supply-depots
        return replace(state, board={a: Force(f.owner, True) if f.owner == player else f
                                     for a, f in state.board.items()})
    return _owe(state, _owed(state, player, card))


def _owed(state: State, player: str, card: Card) -> tuple[Owed, ...]:
    """Returns the steps a card text leaves owed, in the order they are resolved."""
    name, n, zone = card.name, card.amount, card.text_restriction
    match card.effect:
        case Effect.LAND_MIX:  # gd.card.airborne
            return (Owed(Step.LAND_MIX, player, name, n, zone),)
        case Effect.BUILDS:  # gd.card.military-base
            return (Owed(Step.BUILD, player, name, n, zone),)
        case Effect.INSURGENCY:  # gd.card.insurgents
            return (Owed(Step.SEIZE, player, name, n, zone),)
        case Effect.WEAKEN_PLAYER | Effect.CUT_SUPPLY:  # gd.card.target
            return (Owed(Step.TARGET, player, name),)
        case Effect.CHAIN_REDUCE:  # gd.card.bio-weapons
            return chain_link(state, player, name, n, origin=player)
        case Effect.REDUCE_PER_FULL:  # gd.card.show-of-force
            full = sum(1 for f in state.board.values() if f.owner == player and f.full)
            return (Owed(Step.REDUCE, player, name, n * full, zone),)
        case Effect.HALVE:  # gd.card.megastorm
            return tuple(Owed(Step.REDUCE, player, name, _half(state, q), target=q, must=True)
                         for q in _from(state, player))
        case Effect.REMOVE_PER_REGION:  # gd.card.global-disruption
            return tuple(Owed(Step.REMOVE, player, name, region=r, must=True, own=True)
                         for r in t.idx(state).regions)
        case Effect.SURRENDER:  # gd.card.surrender
            i = t.idx(state)
            return tuple(Owed(Step.REMOVE, player, name, region=r, own=state.options.surrender_own)
                         for r in i.regions if any(
                             (f := state.board.get(a)) and f.owner == player and f.full
                             for a in i.in_region[r]))
    return ()


def chain_link(state: State, player: str, card: str, n: int, origin: str) -> tuple[Owed, ...]:
    """Bio Weapons: `player` owes the Reductions, then the player on the left is asked."""
    return (Owed(Step.REDUCE, player, card, n, must=True),
            Owed(Step.CHAIN, t.left(state, player), card, n, origin=origin))


def targeted(state: State, card: Card, target: str) -> State:
    """Returns the state after an aimed card text (Bad Leadership, Out of Supply) hits `target`."""
    if card.effect is Effect.WEAKEN_PLAYER:  # gd.card.bad-leadership
        return replace(state, board={a: Force(f.owner, False) if f.owner == target else f
                                     for a, f in state.board.items()})
    cut = set(t.isolated(state, target))  # gd.card.out-of-supply
    return replace(state, board={a: f for a, f in state.board.items() if a not in cut})


def _half(state: State, player: str) -> int:
    """gd.card.megastorm.rounding: half a player's Forces, rounded as the option says."""
    n = sum(1 for f in state.board.values() if f.owner == player)
    return math.ceil(n / 2) if state.options.megastorm_rounding == "up" else n // 2


def _from(state: State, player: str) -> tuple[str, ...]:
    i = state.players.index(player)
    return state.players[i:] + state.players[:i]


def _gain(state: State, player: str, n: int) -> State:
    return replace(state, vp={**state.vp, player: state.vp[player] + n})


def _owe(state: State, owed: tuple[Owed, ...]) -> State:
    return replace(state, steps=owed + state.steps)


def possible(state: State, h: Owed) -> bool:
    """Returns whether anything but forgoing can be done about a step (else it lapses)."""
    match h.step:
        case Step.BUILD:
            return h.points > 0 and bool(t.build_areas(state, h.player, h.restriction))
        case Step.REDUCE:
            return h.points > 0 and bool(t.reduce_areas(state, h.player, h.restriction, h.target))
        case Step.LAND_MIX:
            return h.points > 0 and bool(t.build_areas(state, h.player, h.restriction)
                                         or t.reduce_areas(state, h.player, h.restriction))
        case Step.REMOVE:
            return any((f := state.board.get(a)) and (h.own or f.owner != h.player)
                       for a in t.idx(state).in_region[h.region])
        case Step.SEIZE:
            return h.points > 0 and any(not f.full and t.is_land(state, a)
                                        for a, f in state.board.items())
    return True


__all__ = ["Restriction", "chain_link", "play_text", "possible", "targeted"]
