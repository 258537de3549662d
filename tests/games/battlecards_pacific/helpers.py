"""Shared set-ups for the BATTLECARDS Pacific rule tests: a table laid out by hand."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from tabletape import engine
from tabletape.engine.kit.multiset import take, with_cards
from tabletape.games.battlecards_pacific import lookups, reducer
from tabletape.games.battlecards_pacific.components import Components, default
from tabletape.games.battlecards_pacific.events import (
    BattleDecided,
    ConflictDrawn,
    ConflictTurned,
    EmergencyDeclined,
    Options,
)
from tabletape.games.battlecards_pacific.state import State, Step
from tabletape.tape.events import Event
from tests import story

GAME = engine.get("battlecards-pacific")  # unbound: enough to start, decode and describe
JAPAN, US = "alice", "bob"  # the first player named is Japan by default (bcp.setup.sides)


def header(comp=None, **options):
    """Returns a new game's header for alice and bob with the default cards (or `comp`)."""
    return GAME.start((JAPAN, US), Options(**options), comp or GAME.default_components())


RS = GAME.bind(header())  # the rules of a game with the default cards
LK = RS.lk  # its lookup tables


def fresh(comp=None, **options) -> State:
    """Returns the state before the deal."""
    return GAME.bind(header(comp, **options)).initial()


def act(state: State, *events: Event, rs=RS) -> State:
    """Applies legal events one by one, failing the test on a refusal."""
    return story.play(rs, state, *events, offered=True)


def refusal(state: State, event: Event, rs=RS):
    """Returns the Violation that refuses the event (failing if it is legal)."""
    return story.refusal(rs, state, event, offered=True)


def refused(state: State, event: Event, rs=RS) -> str:
    """Returns the rule id that refuses the event (failing if it is legal)."""
    return refusal(state, event, rs).rule


def table(*, stacks: dict[str, tuple[str, ...]] | None = None,
          reserve: dict[str, tuple[str, ...]] | None = None,
          kept: dict[str, tuple[str, ...]] | None = None,
          won: dict[str, tuple[str, ...]] | None = None,
          vp: dict[str, int] | None = None, turn: str = JAPAN, comp=None, **options) -> State:
    """Returns a table after set-up, laid out by hand, at the start of `turn`'s turn."""
    state = fresh(comp, **options)
    lk = GAME.bind(header(comp, **options)).lk
    arsenal = {s: dict(d) for s, d in state.arsenal.items()}
    piles: dict[str, dict[str, tuple[str, ...]]] = {p: {k: () for k in state.stacks[p]} for p in state.players}
    for p, units in (stacks or {}).items():
        for u in units:
            kind = lookups.unit(LK, state, p, u).type.value
            piles[p][kind] = with_cards(piles[p][kind], u)
            arsenal[state.sides[p]] = take(arsenal[state.sides[p]], u)
    hands: dict[str, tuple[str, ...]] = {p: () for p in state.players}
    for p, units in (reserve or {}).items():
        hands[p] = with_cards((), *units)
        for u in units:
            arsenal[state.sides[p]] = take(arsenal[state.sides[p]], u)
    conflict = dict(lookups.deck(LK, state))
    held: dict[str, tuple[str, ...]] = {p: () for p in state.players}
    for src, dst in ((kept, held),):
        for p, cards in (src or {}).items():
            dst[p] = tuple(cards)
            for c in cards:
                conflict = take(conflict, c)
    wins: dict[str, tuple[str, ...]] = {p: () for p in state.players}
    for p, cards in (won or {}).items():
        wins[p] = tuple(cards)
        for c in cards:
            conflict = take(conflict, c)
    before = [p for p in state.order if p != turn][0] if turn != state.order[0] else None
    state = replace(state, stacks=piles, reserve=hands, arsenal=arsenal, kept=held, won=wins,
                    conflict={LK.theatre: conflict}, vp={**state.vp, **(vp or {})}, steps=(), turn=before)
    return reducer.settle(lk, state)


def discards(state: State) -> tuple[str, ...]:
    """Returns the Conflict discard pile in play."""
    return state.conflict_discard[LK.theatre]


def draw(state: State, card: str, rs=RS) -> State:
    """The drawing player keeps their Reserve Hand (if any) and draws `card`."""
    p = state.steps[0].player
    if state.steps[0].step is Step.CHOOSE:
        state = act(state, EmergencyDeclined(player=p), rs=rs)
    return act(state, ConflictDrawn(player=p, card=card), rs=rs)


def turned(state: State, card: str) -> ConflictTurned:
    """Returns the legal `conflict_turned` event for the owed shot and this card."""
    return next(e for e in RS.legal(state) if isinstance(e, ConflictTurned) and e.card == card)


# Conflict cards by Action Number, none of them a BATTLECARD
ACTION = {1: "Reinforcements", 2: "Fresh Troops", 3: "Mobilization", 4: "Rapid Mobilization",
          5: "Replenish Reserves", 6: "Supply Lines Stretched", 7: "Radar Advantage",
          8: "Monsoon", 9: "Codebreakers"}


def pearl_harbor(japan, us, **kw):
    """alice (Japan) draws Pearl Harbor and fights it."""
    state = draw(table(stacks={JAPAN: japan, US: us}, **kw), "Pearl Harbor")
    return act(state, BattleDecided(player=JAPAN, fight=True))


def invasion_of_japan(reserve=()):
    """bob (US) has won Iwo Jima and Okinawa and draws Invasion of Japan."""
    state = table(stacks={US: ("Marine Division",)}, reserve={JAPAN: reserve},
                  won={US: ("Iwo Jima", "Okinawa")}, vp={US: 11}, turn=US)
    state = draw(state, "Invasion of Japan")
    return act(state, BattleDecided(player=US, fight=True))


def with_changes(**changes) -> Components:
    """Returns the default cards with some values changed: path parts joined by `__`."""
    raw = msgspec.to_builtins(default())
    for path, value in changes.items():
        *where, key = path.split("__")
        node = raw
        for part in where:
            node = node[int(part)] if part.isdigit() else node[part]
        node[key] = value
    return msgspec.convert(raw, Components)
