"""Cards of War: a random playout's fast paths (engine.playout, declared in the game's
`extras`), beside legality: they answer what `legal`, `weights` and `pending` answer,
without making every event.

A random playout draws one event without making every one: chance's odds in `legal`'s order,
and the i-th event `legal` yields, where that is cheap: a card drawn, or a plain deployment
(the case `_count_deploys` counts by its groups; the group of the i-th goes through the
same checks as `_legal_deploys`). None elsewhere: the playout counts through `legal`.
tests/app/test_balance_speed.py pins both to `legal` and `weights` on simulated games.
"""

from __future__ import annotations

from itertools import islice

from tabletape.engine.kit.turns import head

from .components import Lookups
from .events import CardDeployed, CardDrawn, CowEvent, OpeningCardDrawn
from .legality import (
    OPENING,
    OVER,
    PLAY,
    REFILL,
    REINFORCE_DEPLOY,
    REINFORCE_DRAW,
    check_joint,
    check_kill,
    check_off_theatre,
    check_partner,
    check_theatre,
    next_opener,
)
from .lookups import owner
from .state import State


def odds(lk: Lookups, state: State) -> list[int] | None:
    """Returns `weights(legal(state))` without making the events where chance draws a card,
    else None."""
    phase = state.phase
    if phase is OPENING:
        return list(state.decks[owner(state, next_opener(state))].values())
    steps = state.steps
    if phase is OVER or not steps:
        return None
    h = steps[0]
    if h.step is REFILL or h.step is REINFORCE_DRAW:
        return list(state.decks[owner(state, h.player)].values())
    return None


def nth(lk: Lookups, state: State, i: int) -> CowEvent | None:
    """Returns the i-th event `legal` yields where that is cheap (see above), else None."""
    phase = state.phase
    if phase is OVER:
        return None
    if phase is OPENING:
        p = next_opener(state)
        return OpeningCardDrawn(player=p, card=next(islice(state.decks[owner(state, p)], i,
                                                           None)))
    steps = state.steps
    if steps:
        h = steps[0]
        if h.step is REFILL or h.step is REINFORCE_DRAW:
            return CardDrawn(player=h.player,
                             card=next(islice(state.decks[owner(state, h.player)], i, None)))
        if h.step is not REINFORCE_DEPLOY:
            return None
        return _nth_deploy(lk, state, h.player, i)
    return _nth_deploy(lk, state, state.turn or "", i)


def _nth_deploy(lk: Lookups, state: State, player: str, i: int) -> CowEvent | None:
    opts = state.options
    a, b = state.players
    if (opts.theatres_of_war or opts.joint_deployment or opts.alternative_reinforce
            or state.phase is not PLAY or (player != a and player != b)):
        return None
    opp = b if player == a else a
    cards, hunters, auto = lk.cards, lk.hunters, opts.automatic_kill
    battles = [(no, bt.piles[opp][-1:]) for no, bt in enumerate(state.battles, 1)
               if not bt.closed]
    for name in dict.fromkeys(state.hands[player]):
        if name not in cards:
            continue
        for no, victim in battles:
            n = 2 if victim and not auto and name in hunters[victim[0]] else 1
            if i >= n:
                i -= n
                continue
            c, h = cards[name], head(state)
            kills: tuple[tuple[bool, str | None], ...] = ((False, None),)
            if c.kill and victim:
                kills += ((True, victim[0] if lk.kill_target else None),)
            for kill, target in kills:
                ev = CardDeployed(player=player, card=name, battle=no, kill=kill, target=target)
                if (check_theatre(state, ev) or check_joint(lk, state, ev, h)
                        or check_partner(lk, state, ev, h) or check_off_theatre(lk, state, ev)
                        or check_kill(lk, state, ev)) is None:
                    if not i:
                        return ev
                    i -= 1
            return None
    return None
