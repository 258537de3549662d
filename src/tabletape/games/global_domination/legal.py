"""Global Domination's legal next events: candidates filtered through `check`, and chance's weights.

Every candidate set covers whatever `check` could accept in that state, so the two agree.
"""

from __future__ import annotations

from collections.abc import Iterator

from tabletape.tape.events import Event

from . import table as t
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
from .rules import check, head, pending, scorer
from .state import Owed, Phase, State, Step


def legal(state: State) -> Iterator[Event]:
    """Yields every legal next event; chance outcomes once per kind of card."""
    d = pending(state)
    if d is None:
        return
    if state.phase is Phase.FIRST:
        yield from (FirstPlayerChosen(player=p) for p in state.players)
        return
    if state.phase is Phase.STACKS:
        yield from (ActionStackChosen(card=c) for c in t.idx(state).actions if c not in state.stacks)
        return
    h = head(state)
    if h is not None:
        yield from _legal_step(state, h)
        return
    yield from _legal_plays(state)


def _legal_step(state: State, h: Owed) -> Iterator[Event]:
    p = h.player
    i = t.idx(state)
    cands: list[Event] = []
    match h.step:
        case Step.DRAW:
            cands = [CardDrawn(player=p, card=c) for c in state.decks[p]]
        case Step.BUILD | Step.REDUCE | Step.LAND_MIX:
            if h.step is not Step.REDUCE:
                cands += [ForceBuilt(player=p, area=a) for a in i.areas]
            if h.step is not Step.BUILD:
                cands += [ForceReduced(player=p, area=a) for a in state.board]
        case Step.REMOVE:
            cands = [ForceRemoved(player=p, area=a) for a in i.in_region.get(h.region, ())]
        case Step.SEIZE:
            cands = [ForceSeized(player=p, area=a) for a in state.board]
        case Step.TARGET:
            cands = [PlayerTargeted(player=p, target=q) for q in state.players]
        case Step.CHAIN:
            cands = [ChainAnswered(player=p, joined=True), ChainAnswered(player=p, joined=False)]
    cands.append(PointsForgone(player=p))
    yield from (e for e in cands if check(state, e) is None)


def _legal_plays(state: State) -> Iterator[Event]:
    cands: list[Event] = []
    for p in state.players:
        for c in dict.fromkeys(state.hands[p]):
            cands += [CardPlayed(player=p, card=c, use=u) for u in Use]
    if state.phase is Phase.PLAY and state.current:
        cands += _discard_candidates(state, state.current)
        cands.append(TurnEnded(player=state.current))
    if state.phase is Phase.SCORING and scorer(state):
        cands.append(ScoringPassed(player=scorer(state) or ""))
    yield from (e for e in cands if check(state, e) is None)


def _discard_candidates(state: State, p: str) -> list[Event]:
    hand = state.hands[p]
    kinds = list(dict.fromkeys(hand))
    sets = [(a,) for a in kinds]
    sets += [(a, b) for n, a in enumerate(kinds) for b in kinds[n:] if a != b or hand.count(a) > 1]
    return [CardsDiscarded(player=p, cards=s, taken=k) for s in sets for k in state.stacks]


def weight(state: State, event: Event) -> int:
    """Returns how many copies of the drawn card the Draw Deck holds (chance's odds)."""
    if isinstance(event, CardDrawn):
        return state.decks[event.player].get(event.card, 0)
    return 1
