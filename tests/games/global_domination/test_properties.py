"""Simulated games end and validate; `legal` and `check` agree on a broad candidate set."""

from __future__ import annotations

import itertools

import pytest

from tabletape.engine import simulate
from tabletape.games.global_domination import RULESET
from tabletape.games.global_domination import events as ev
from tabletape.games.global_domination.components import Lookups
from tabletape.tape.events import Event

from .helpers import header


def candidates(i: Lookups, state):
    """Returns far more events than could be legal: every kind, player, area and card."""
    players = (*state.players, "zed")
    areas = (*i.areas, "Atlantis")
    cards = (*i.cards, "Strategic Bombers")
    out: list[Event] = [ev.FirstPlayerChosen(player=p) for p in players]
    out += [ev.ActionStackChosen(card=c) for c in cards]
    for p in state.players:
        out += [ev.CardDrawn(player=p, card=c) for c in cards]
        out += [ev.CardPlayed(player=p, card=c, use=u) for c in cards for u in ev.Use]
        out += [ev.ForceBuilt(player=p, area=a) for a in areas]
        out += [ev.ForceReduced(player=p, area=a) for a in areas]
        out += [ev.ForceRemoved(player=p, area=a) for a in areas]
        out += [ev.ForceSeized(player=p, area=a) for a in areas]
        out += [ev.PlayerTargeted(player=p, target=q) for q in players]
        out += [ev.ChainAnswered(player=p, joined=j) for j in (True, False)]
        out += [ev.PointsForgone(player=p), ev.TurnEnded(player=p), ev.ScoringPassed(player=p)]
        hand = tuple(dict.fromkeys(state.hands[p])) + ("Domination",)
        for cs in itertools.chain(((c,) for c in hand), itertools.product(hand, repeat=2)):
            out += [ev.CardsDiscarded(player=p, cards=cs, taken=k) for k in cards]
    return out


@pytest.mark.parametrize("n,seed", [(2, 5), (2, 6), (3, 1), (3, 7), (4, 2), (4, 8), (5, 3), (6, 4)])
def test_simulated_games_end_and_agree(n, seed):
    # Given a random game of n players (two with the option that allows them)
    h = header(tuple(f"p{k}" for k in range(n)), two_players=n == 2)
    rs = RULESET.bind(h)
    state = rs.initial()
    count = 0
    for k, (_event, after) in enumerate(simulate.play(RULESET, h, seed)):
        # Then every few states, what check accepts is exactly what legal yields
        if k % 7 == 0:
            legal = set(rs.legal(state))
            accepted = {e for e in candidates(rs.lk, state) if rs.check(state, e) is None}
            assert accepted == legal, rs.pending(state)
            assert all(rs.check(state, e) is None for e in legal)
        state, count = after, k + 1
    # And the game ends well before the limit, with an outcome
    assert rs.outcome(state) is not None
    assert count < 5000
