"""Liberation's shortcuts taken for speed agree with the plain definitions they stand for.

Every state of simulated games is asked both ways: the games are walked with the game's own
legal events (chance weighted as `simulate` weighs it) under several seat counts, both
readings of the options, the rules 1.0 and 1.1 switches (1.1: only a holder of a prevent card
is asked) and the earlier card data of the rules 1.0 fixtures (its turn-up cards).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from msgspec.structs import replace

from tabletape import engine
from tabletape.engine import CHANCE
from tabletape.engine.kit import turns
from tabletape.engine.kit.multiset import without
from tabletape.games.liberation import RULESET, legality, lookups, reducer
from tabletape.games.liberation.components import Ability, Trigger
from tabletape.games.liberation.events import (
    ForceCardPlayed,
    Options,
    TurnOverDeclined,
    TurnOverPrevented,
)
from tabletape.games.liberation.state import CHANCE_STEPS, Owed, Played, Stage, Step
from tests.games.liberation.helpers import SEATS
from tests.games.liberation.test_properties import candidates
from tests.games.test_games import simulated
from tests.narrow import present

OLD_CARDS = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "rules-1.0",
                         "liberation", "iraq-abilities.jsonl")  # the earlier cards: turn-up


def _components(old: bool):
    if not old:
        return RULESET.default_components()
    header: Any = next(iter(engine.iter_records(OLD_CARDS))).event  # the log's header
    return header.components


def walk(n: int, seed: int, rules: str | None = None, old: bool = False, **options):
    """Returns the bound ruleset and every state of a game walked at random from `legal`."""
    header = RULESET.start(SEATS[:n], Options(**options), _components(old))
    rs = RULESET.bind(header, rules)
    rng = random.Random(seed)
    state, states = rs.initial(), list[Any]()
    while rs.pending(state) is not None and len(states) < 3000:
        states.append(state)
        events = list(rs.legal(state))
        chance = present(rs.pending(state)).actor == CHANCE
        ev = rng.choices(events, rs.weights(state, events) if chance else None)[0]
        state = rs.apply(state, ev)
    states.append(state)
    return rs, states


GAMES = [(2, 1, None, False, {}), (3, 2, None, False, {}), (4, 3, None, False, {}),
         (6, 4, None, False, {}), (5, 5, None, False, {"turn_over": "optional"}),
         (3, 6, None, False, {"turn_over": "optional", "double_play_tie": "one_card"}),
         (4, 7, "1.0", False, {}), (3, 8, "1.0", True, {}), (5, 9, None, True, {}),
         (4, 10, None, True, {"turn_over": "optional"}), (3, 11, "1.1", False, {})]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}p-seed{g[1]}-{g[2]}"
                f"{'-old' if g[3] else ''}{'-' + '-'.join(g[4].values()) if g[4] else ''}")
def played(request):
    n, seed, rules, old, options = request.param
    return walk(n, seed, rules, old, **options)


def plain_has_choice(lk, state, h):
    """has_choice as first written: any event of `_legal_choices` but a prevent or a stop."""
    return any(not isinstance(ev, (TurnOverPrevented, TurnOverDeclined))
               for ev in legality._legal_choices(lk, state, h))


def plain_can_play(lk, state, player):
    """can_play as resolve first asked it: `legal` yields a ForceCardPlayed."""
    return any(isinstance(e, ForceCardPlayed) for e in legality.legal(lk, state))


def plain_played(lk, state, ev):
    """A play as first written: every step it sets in motion owed, the end of the turn too
    (settled by `resolve`), the state replaced field by field."""
    state = turns.done(state)
    me, c = ev.player, lk.cards[ev.card]
    first = state.plays[me] == 0
    state = replace(state, hands={**state.hands, me: without(state.hands[me], ev.card)},
                    plays={**state.plays, me: state.plays[me] + 1}, turn_plays=state.turn_plays + 1)
    owed = []
    if c.ability is Ability.TRADE_CARD:
        owed.append(Owed(Step.TAKE, me, card=ev.card))
    else:
        state = replace(state, played={**state.played, me: state.played[me] + (Played(ev.card),)})
    match c.ability:
        case Ability.TURN_OVER:
            owed += [Owed(Step.TURN_OVER, me, card=ev.card)] * (c.turns if lk.turn_count else 1)
        case Ability.TURN_UP:
            owed.append(Owed(Step.TURN_UP, me, card=ev.card))
        case Ability.ALL_TURN_DOWN:
            owed += [Owed(Step.TURN_DOWN_OWN, q, card=ev.card)
                     for q in lookups.clockwise(state, me) if q != me]
        case Ability.TRADE_HANDS:
            owed.append(Owed(Step.SWAP, me, card=ev.card))
        case Ability.FIRST_DRAW if first:
            owed.append(Owed(Step.DRAW, me, card=ev.card))
    land = lookups.country(lk, state)
    if land and land.card_type == c.type:
        if land.trigger is Trigger.TURN_OVER:
            owed.append(Owed(Step.TURN_DOWN, me, card=land.name))
        elif land.trigger is Trigger.DRAW:
            owed.append(Owed(Step.DRAW, me, card=land.name))
    again = (land is not None and land.trigger is Trigger.DOUBLE_PLAY and state.turn_plays == 1
             and c.ability is not Ability.TRADE_HANDS
             and (state.stage is not Stage.EXTRA or state.options.double_play_tie == "two_cards"))
    owed.append(Owed(Step.SECOND if again else Step.END_TURN, me))
    return turns.owe_first(state, *owed)


PLAIN_APPLY = {ForceCardPlayed: plain_played}


def plain_apply(lk, state, ev):
    """apply as first written: the plain play above, then `settle` (the kit's loop)."""
    return reducer.settle(lk, PLAIN_APPLY.get(type(ev), reducer.APPLY[type(ev)])(lk, state, ev))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_count_on_the_simulated_games_of_the_suite(seed):
    header, _, states = simulated("liberation", seed)
    rs = RULESET.bind(header)
    for state in (rs.initial(), *states):
        assert rs.count(state) == len(list(rs.legal(state)))


def test_count_is_the_number_of_legal_events(played):
    rs, states = played
    for state in states:
        assert legality.count(rs.lk, state) == len(list(rs.legal(state))), rs.pending(state)
        assert rs.count(state) == len(list(rs.legal(state)))


def test_has_choice_is_any_legal_choice_but_a_prevent_or_a_stop(played):
    rs, states = played
    seen = set()
    for state in states:
        if state.steps and state.steps[0].step not in CHANCE_STEPS:
            h = state.steps[0]
            seen.add(h.step)
            assert legality.has_choice(rs.lk, state, h) == plain_has_choice(rs.lk, state, h)
    assert Step.TURN_OVER in seen  # the walks reach the turning steps


def owed_now(state):
    """Yields the state with each choice step owed first by each player (a turn-over having
    spent its first target, if any): the steps that lapse are reached only inside `apply`."""
    slots = [(q, i) for q in state.players for i in range(len(state.played[q]))]
    for p in state.players:
        for step in (*legality.TURNING, Step.TAKE, Step.SWAP):
            yield replace(state, steps=(Owed(step, p, card="Fighter Wing"), *state.steps))
        if slots:
            yield replace(state, steps=(Owed(Step.TURN_OVER, p, card="Fighter Wing",
                                             spent=(slots[0],)), *state.steps))
            q, i = slots[-1]
            yield replace(state, steps=(Owed(Step.PREVENT, q, card="Fighter Wing", owner=q,
                                             slot=i, by=p), *state.steps))


def test_has_choice_and_count_with_every_choice_step_owed(played):
    rs, states = played
    for state in states[::4]:
        if rs.pending(state) is None:
            continue
        for s in owed_now(state):
            h = s.steps[0]
            assert legality.has_choice(rs.lk, s, h) == plain_has_choice(rs.lk, s, h), h
            assert legality.count(rs.lk, s) == len(list(rs.legal(s))), h


def test_can_play_is_legal_offering_a_play(played):
    rs, states = played
    for state in states:
        h = state.steps[0] if state.steps else None
        if rs.pending(state) is not None and (h is None or h.step is Step.SECOND):
            player = h.player if h else state.turn
            assert legality.can_play(rs.lk, state, player) == plain_can_play(rs.lk, state, player)


def test_the_fold_with_the_plain_definitions_reaches_the_same_states(played, monkeypatch):
    # validate's verdicts unchanged: `check` accepts exactly what `legal` yields, and every
    # legal event leads to the same state with the plain definitions in place
    rs, states = played
    fast = [[(ev, rs.apply(s, ev)) for ev in rs.legal(s)] for s in states[:-1]]
    monkeypatch.setattr(legality, "has_choice", plain_has_choice)
    monkeypatch.setattr(legality, "can_play", plain_can_play)
    for k, (state, outcomes) in enumerate(zip(states, fast, strict=False)):
        for ev, after in outcomes:
            assert rs.check(state, ev) is None
            assert plain_apply(rs.lk, state, ev) == after
        if k % 5 == 0:
            ok = {repr(e) for e in candidates(rs.lk, state) if rs.check(state, e) is None}
            assert ok == {repr(ev) for ev, _ in outcomes}


def plain_total(lk, state, player):
    """total as first written: each face-up card's `points` (the country's bonus asked each time)."""
    return sum(lookups.points(lk, state, p.card) for p in state.played[player] if p.up)


def test_total_is_the_sum_of_the_face_up_cards_points(played):
    rs, states = played
    bonus = [c for c, land in rs.lk.countries.items() if land.trigger is Trigger.BONUS]
    assert bonus
    for k, state in enumerate(states):
        # each table as it was, and (now and then) fought over each bonus country instead
        for s in (state, *(replace(state, country=c) for c in bonus if k % 4 == 0)):
            for p in s.players:
                assert lookups.total(rs.lk, s, p) == plain_total(rs.lk, s, p)
