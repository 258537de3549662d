"""BATTLECARDS Pacific's shortcuts taken for speed agree with the plain definitions they stand
for (the game's own; those shared with the other games are in tests/games/test_fast_paths.py)."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape.engine import simulate
from tabletape.games.battlecards_pacific import RULESET, legality

from .helpers import header

SUPPORT = ("every-shot", "allocated")


@cache
def played(support: str, seed: int) -> tuple:
    """Returns (bound ruleset, events, states) of a simulated game, the initial state first."""
    h = header(support=support)
    rs = RULESET.bind(h)
    events, states = [], [rs.initial()]
    for ev, state in simulate.play(RULESET, h, seed):
        events.append(ev)
        states.append(state)
    return rs, tuple(events), tuple(states)


@pytest.mark.parametrize("support", SUPPORT)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_count_is_the_number_of_legal_events(support, seed):
    """`legality.count` (corpus check asks it after every event) is `len(list(legal))` in every
    state of simulated games, with either kind of support."""
    rs, _, states = played(support, seed)
    fired = 0
    for state in states:
        n = legality.count(rs.lk, state)
        assert n == len(list(legality.legal(rs.lk, state)))
        b = state.battle
        fired += b is not None and b.shot is None and b.phase <= 4 and n > 1
    assert fired  # volleys with a choice were counted


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 200), support=st.sampled_from(SUPPORT), data=st.data())
def test_count_is_the_number_of_legal_events_with_kept_cards_held(seed, support, data):
    """The same with every Kept Card of the deck in the hands of the firing side (their bonus
    choices multiply the shots), on states drawn from any simulated game."""
    from msgspec.structs import replace
    rs, _, states = played(support, seed)
    battles = [s for s in states if s.battle is not None and s.battle.shot is None]
    if not battles:
        return
    state = data.draw(st.sampled_from(battles))
    keep = tuple(sorted(n for n, c in rs.lk.cards.items() if c.keep))
    some = data.draw(st.lists(st.sampled_from(keep), max_size=6))
    state = replace(state, kept={**state.kept, state.battle.side: tuple(sorted(some))})
    assert legality.count(rs.lk, state) == len(list(legality.legal(rs.lk, state)))


def test_the_need_table_is_the_window_for_every_pair_of_units_and_bonus():
    """`lk.need` (read by the stalemate test, `can_hit`) holds `shortfall` for every pair, and
    `lk.bare` (read by every shot played) the defence and attack of its window, and
    a shot could hit with a bonus exactly when its need is at most that bonus: the unit lists
    a firing phase, may fire at the target, and some Action Number falls in the window
    (above the defence, at most the attack plus the bonus)."""
    from tabletape.games.battlecards_pacific.components import shortfall, targetable
    for support in SUPPORT:
        lk = played(support, 1)[0].lk
        pairs = 0
        for side, units in lk.units.items():
            for enemy_side, theirs in lk.units.items():
                if enemy_side == side:
                    continue
                for name, me in units.items():
                    need = lk.need[side][name][enemy_side]
                    assert list(need) == sorted(need)  # least need first
                    for target, them in theirs.items():
                        n = shortfall(me, them, lk.actions)
                        assert dict((t, k) for k, t in need).get(target) == n
                        above = them.defence.of(me.type) or 0
                        attack = me.attack.of(them.type) or 0
                        assert lk.bare[side][name][enemy_side][target] == (above, attack)
                        for bonus in range(0, 25):
                            plain = bool(me.phases) and targetable(me, them) and any(
                                above < a <= attack + bonus for a in lk.actions)
                            assert (n is not None and n <= bonus) == plain
                        pairs += 1
        assert pairs > 100


def test_the_kept_bonus_table_is_kept_bonus_for_every_card_and_unit():
    """`lk.kept_bonuses` (read by a random volley) holds `kept_bonus` for every Conflict card
    and every unit of either side: a card absent, or a unit type absent under it, cannot be
    played for that unit."""
    from tabletape.games.battlecards_pacific.fire import kept_bonus
    lk = played("every-shot", 1)[0].lk
    playable = 0
    for card in lk.cards:
        for units in lk.units.values():
            for unit in units.values():
                bonus = kept_bonus(lk, card, unit)
                assert lk.kept_bonuses.get(card, {}).get(unit.type) == bonus, (card, unit.name)
                playable += bonus is not None
    assert playable > 10 and len(lk.kept_bonuses) >= 3


@pytest.mark.parametrize("support", SUPPORT)
@pytest.mark.parametrize("seed", [4, 5])
def test_resolve_by_table_of_steps_is_the_plain_settling(support, seed):
    """`resolve` (one function per owed step, from a table) settles every state of simulated
    games as the plain definition does: the step owed dropped when nothing can fulfil it
    (bcp.deck.exhausted, empty hands), a CHOOSE with an empty Reserve Hand turned into a
    Conflict draw, the game ended on points when no Conflict card is left to draw."""
    from msgspec.structs import replace

    from tabletape.games.battlecards_pacific import reducer
    from tabletape.games.battlecards_pacific.state import Step
    rs, _, states = played(support, seed)
    lk = rs.lk
    for state in states:
        if state.result is not None or state.battle is not None or not state.steps:
            continue
        for s in (state, replace(state, reserve={p: () for p in state.reserve}),
                  replace(state, conflict={t: {} for t in state.conflict},
                          conflict_discard={t: () for t in state.conflict})):
            h = s.steps[0]
            match h.step:
                case Step.DEAL | Step.DRAW_ARSENAL:
                    skip = h.count <= 0 or not s.arsenal[s.sides[h.player]]
                case Step.FIRST_DEPLOY | Step.DEPLOY:
                    skip = h.count <= 0 or not s.reserve[h.player]
                case Step.HOMELAND:
                    skip = not s.reserve[h.player]
                case Step.REVEAL:
                    skip = h.player in s.eliminated
                case _:
                    skip = False
            after = reducer.resolve(lk, s)
            if h.step is Step.CHOOSE and not s.reserve[h.player]:
                assert after is not None and after.steps[0].step is Step.DRAW_CONFLICT
            elif h.step is Step.DRAW_CONFLICT and not s.conflict[lk.theatre]:
                assert after is not None and after.result is not None
            elif h.step is Step.BATTLE:
                assert after is not None
            elif skip:
                assert after == replace(s, steps=s.steps[1:])
            else:
                assert after is None


# The digests of `_verdicts` as the rules before this round's shortcuts gave them (main at
# ece59f2, before legality.count and the plays' single changes): every state and refusal the
# same, byte for byte.
VERDICTS = {"every-shot": "d6d87fe2ad841b9f", "allocated": "0f03f72c04e9e793"}


def _verdicts(support: str, seeds: range) -> str:
    """Returns a digest of every state of simulated games (each event applied) and of the
    verdict (rule and words) on each event fed 1, 2 and 5 events before its place."""
    import hashlib

    import msgspec
    # pinned under rules 1.1, which these digests were taken with (1.2 reshuffles later)
    h = msgspec.structs.replace(header(support=support), rules_version="1.1")
    rs = RULESET.bind(h)
    sha = hashlib.sha256()
    for seed in seeds:
        events = [e for e, _ in simulate.play(RULESET, h, seed)]
        state, states = rs.initial(), []
        for i, ev in enumerate(events):
            states.append(state)
            for back in (1, 2, 5):  # the event fed where it does not belong
                if i >= back:
                    v = rs.check(states[i - back], ev)
                    sha.update(repr(None if v is None else (v.rule, v.reason)).encode())
            assert rs.check(state, ev) is None
            state = rs.apply(state, ev)
            sha.update(msgspec.json.encode(state))
    return sha.hexdigest()[:16]


@pytest.mark.parametrize("support", SUPPORT)
def test_the_verdicts_and_states_are_those_of_the_plain_rules(support):
    """Validating simulated games gives the states and refusals the rules gave before the
    shortcuts (`VERDICTS`, from the tree before them)."""
    assert _verdicts(support, range(24)) == VERDICTS[support]


@pytest.mark.parametrize("support", SUPPORT)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_window_of_a_shot_played_is_the_window_written_down(support, seed):
    """`window` with nothing to write down (`_window`, the play of every shot) gives the window
    the written-down arithmetic gives, for every shot of simulated games, with each Kept Card
    of the deck played for it too."""
    from tabletape.engine.provenance import Deriving
    from tabletape.games.battlecards_pacific import fire
    from tabletape.games.battlecards_pacific.events import UnitFired
    rs, events, states = played(support, seed)
    keep = [None, *sorted(n for n, c in rs.lk.cards.items() if c.keep)]
    shots = 0
    for state, ev in zip(states, events, strict=False):
        if not isinstance(ev, UnitFired):
            continue
        for kept in keep:
            args = (rs.lk, state, state.battle, ev.player, ev.unit, ev.target, kept, ev.support)
            assert fire.window(*args) == fire.window(*args, Deriving())
            shots += 1
    assert shots


@pytest.mark.parametrize("support", SUPPORT)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_support_bonus_is_the_sum_over_the_supporters(support, seed):
    """`fire.support_bonus` (read from `lk.backers`, each backer counted by its copies engaged)
    is the support of every unit `supporters` names, for every unit of both sides, and for
    a unit not engaged (none)."""
    from tabletape.games.battlecards_pacific import fire
    rs, _, states = played(support, seed)
    lk, asked = rs.lk, 0
    for state in states:
        b = state.battle
        if b is None:
            continue
        for player in (b.aggressor, b.defender):
            units = lk.units[state.sides[player]]
            for name in units:
                plain = sum(units[n].support
                            for n in fire.supporters(lk, state, b, player, name))
                assert fire.support_bonus(lk, state, b, player, name) == plain
                asked += plain > 0
    assert asked


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_next_turn_is_the_next_in_turn_order(seed):
    """`_next_turn` (the next seat, while nobody is out) passes the turn to whom
    `turns.next_in` names, on the states of simulated games with the turn over (nothing owed),
    with a player out of the game, and before the first turn."""
    from msgspec.structs import replace

    from tabletape.engine.kit import turns
    from tabletape.games.battlecards_pacific import reducer
    from tabletape.games.battlecards_pacific.state import Owed, Step
    rs, _, states = played("every-shot", seed)
    passed = 0
    for state in states:
        if state.result is not None or state.battle is not None:
            continue
        state = replace(state, steps=())
        for s in (state, replace(state, eliminated=state.order[-1:]),
                  replace(state, turn=None), replace(state, reserve={p: () for p in state.reserve})):
            after = reducer._next_turn(rs.lk, s)
            if after.result is None:
                assert after.turn == turns.next_in(s.order, s.turn, s.eliminated)
                # the step owed is CHOOSE as settling would leave it (an empty Reserve Hand:
                # the Conflict draw at once)
                assert after.turn is not None
                plain = replace(after, steps=(Owed(Step.CHOOSE, after.turn),))
                assert reducer.settle(rs.lk, after) == reducer.settle(rs.lk, plain)
                passed += 1
    assert passed


@settings(max_examples=8, deadline=None)
@given(seeds=st.lists(st.integers(0, 30), min_size=1, max_size=3), data=st.data())
def test_the_volley_found_ready_remembered_is_fire_ready(seeds, data):
    """`_ready` (a volley made only of units last found ready against the very same battle's
    units is ready again) answers as `fire.ready` does, states of several games asked in any
    order, some with their units, their volley or the side firing changed."""
    from msgspec.structs import replace

    from tabletape.games.battlecards_pacific import fire, reducer
    asked = []
    for seed in seeds:
        rs, _, states = played("every-shot", seed)
        asked += [(rs.lk, s) for s in states if s.battle is not None]
    if not asked:
        return
    order = data.draw(st.permutations(range(len(asked))))
    for i in order[:200]:
        lk, state = asked[i]
        b = state.battle
        roll = data.draw(st.integers(0, 6))
        if roll == 0:  # the same units in a new dict
            b = replace(b, forces=dict(b.forces))
        elif roll == 1:  # the enemy thinned to its first unit
            enemy = b.defender if b.side == b.aggressor else b.aggressor
            b = replace(b, forces={**b.forces, enemy: b.forces[enemy][:1]})
        elif roll == 2:  # every engaged unit of the side firing in the volley
            b = replace(b, to_fire=b.forces[b.side])
        elif roll == 3:  # the other side fires, all its units in the volley
            other = b.defender if b.side == b.aggressor else b.aggressor
            b = replace(b, side=other, to_fire=b.forces[other])
        if not b.to_fire:
            continue
        state = replace(state, battle=b)
        assert reducer._ready(lk, state, b) == fire.ready(lk, state, b, b.side, b.to_fire)


def test_the_volley_found_ready_remembered_is_asked_again_for_the_other_side(monkeypatch):
    """The side firing is part of what the remembered volley is kept with (both sides may
    field units of one name): with the same battle's units, the other side's volley is asked
    again, the same side's is not."""
    from msgspec.structs import replace

    from tabletape.games.battlecards_pacific import reducer
    rs, _, states = played("every-shot", 1)
    state = next(s for s in states if s.battle is not None and s.battle.to_fire)
    b = state.battle
    calls = []

    def every_one(lk, state, battle, player, names):
        calls.append(player)
        return names
    monkeypatch.setattr(reducer, "fire_ready", every_one)
    monkeypatch.setattr(reducer, "_last_ready", (None, None, None, None, frozenset()))
    other = b.defender if b.side == b.aggressor else b.aggressor
    theirs = replace(b, side=other, to_fire=b.to_fire)  # the same names, the other side
    assert reducer._ready(rs.lk, state, b) == b.to_fire and calls == [b.side]
    assert reducer._ready(rs.lk, state, b) == b.to_fire and calls == [b.side]  # remembered
    assert reducer._ready(rs.lk, state, theirs) == b.to_fire and calls == [b.side, other]


@pytest.mark.parametrize("pin", ["reshuffled", "reshuffled_1_1"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_no_deck_to_refill_is_no_reshuffle(pin, seed):
    """`resolve` asks the reshuffle only where `decks.refillable` finds an empty deck with a
    pile to take back: everywhere else each version's reshuffle changes nothing, on the states
    of simulated games and on them with every deck emptied (its pile kept, or emptied too)."""
    from msgspec.structs import replace

    from tabletape.games.battlecards_pacific import decks
    shuffle = getattr(decks, pin)
    rs, _, states = played("every-shot", seed)
    refilled = 0
    for state in states:
        emptied = replace(state, arsenal={s: {} for s in state.arsenal},
                          conflict={t: {} for t in state.conflict})
        bare = replace(emptied, arsenal_discard={s: () for s in state.arsenal},
                       conflict_discard={t: () for t in state.conflict})
        for s in (state, emptied, bare):
            if not decks.refillable(s):
                assert shuffle(rs.lk, s) is None
            refilled += decks.refillable(s)
    assert refilled > 0
