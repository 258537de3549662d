"""Properties of Cards of War over random legal games: cards are conserved, chance's odds
add up to the pile, what a player sees is the table less what is hidden from them.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape.engine import CHANCE, simulate
from tabletape.games.cards_of_war.lookups import owner
from tests.games.cards_of_war.helpers import COMMON, RULESET, A, B, Options, Phase, State, header

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True)
OPTIONS = st.builds(
    Options, length=st.sampled_from(["short", "normal", "long"]),
    alternative_reinforce=st.booleans(), theatres_of_war=st.booleans(),
    tactical_advantage=st.booleans(), strategic_exhaustion=st.booleans(),
    joint_deployment=st.booleans(), two_decks=st.booleans(), automatic_kill=st.booleans(),
    no_reshuffle_between_rounds=st.booleans(),
).filter(lambda o: not o.strategic_exhaustion  # cow.setup.options: the mixes `new` writes
         or (o.length == "long" and not o.tactical_advantage))


def _fields(options: Options) -> dict:
    return {f: getattr(options, f) for f in options.__struct_fields__}


@cache
def game(options: Options, seed: int) -> tuple:
    """Returns the bound ruleset and every state of a random legal game (the first included)."""
    h = header(**_fields(options))
    rs = RULESET.bind(h)
    return rs, (rs.initial(), *(s for _, s in simulate.play(RULESET, h, seed)))


def held(state: State, own: str) -> int:
    """Returns how many cards of `own`'s deck are anywhere: pile, discards, hands, table."""
    n = sum(state.decks[own].values()) + len(state.discards[own])
    for p in state.players:
        if owner(state, p) == own:
            n += len(state.hands[p]) + len(state.face_down[p])
            n += sum(len(b.piles[p]) for b in state.battles)
    return n


@pytest.mark.rule("cow.deck.common", "cow.opt.two-decks", "cow.deck.reshuffle", "cow.battle.win")
@SETTINGS
@given(options=OPTIONS, seed=st.integers(0, 10_000))
def test_no_card_is_lost_or_made(options, seed):
    # every deck's 52 cards stay 52, wherever they lie: kills and wins send cards home
    rs, states = game(options, seed)
    owners = (A, B) if options.two_decks else (COMMON,)
    for state in states:
        assert {own: held(state, own) for own in owners} == {own: 52 for own in owners}
    assert states[-1].phase is Phase.OVER and rs.outcome(states[-1]) is not None


@pytest.mark.rule("cow.draw.in-deck", "cow.setup.opening")
@SETTINGS
@given(options=OPTIONS, seed=st.integers(0, 10_000))
def test_chance_draws_by_the_cards_left(options, seed):
    # chance offers each kind of card left once; its odds add up to the pile it draws from
    rs, states = game(options, seed)
    for state in states[::7]:
        d = rs.pending(state)
        if d is None or d.actor != CHANCE:
            continue
        events = list(rs.legal(state))
        drawer = events[0].player
        assert all(rs.weight(state, e) > 0 for e in events)
        assert sum(rs.weight(state, e) for e in events) == \
            sum(state.decks[owner(state, drawer)].values())


@SETTINGS
@given(options=OPTIONS, seed=st.integers(0, 10_000), who=st.sampled_from([A, B]))
def test_a_view_hides_only_what_the_player_cannot_see(options, seed, who):
    # own hand and the table as they are; the other hand by its size; piles by their count
    rs, states = game(options, seed)
    for state in states[::5]:
        seen = rs.view(state, who)
        assert seen.hands[who] == state.hands[who]
        assert all(len(seen.hands[p]) == len(state.hands[p]) for p in state.players)
        assert seen.battles == state.battles and seen.discards == state.discards
        assert {o: sum(d.values()) for o, d in seen.decks.items()} == \
            {o: sum(d.values()) for o, d in state.decks.items()}
        assert rs.pending(seen) == rs.pending(state)
