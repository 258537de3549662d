"""Global Domination's shortcuts taken for speed agree with the plain definitions they stand for.

Each on the states of simulated games (every table size, the options, rules 1.0, 1.1 and 1.2)
and on states varied at random from them (boards, hands, stacks, Logistics, the step owed,
the scoring step), which simulated play seldom reaches:

- `legality.count` is the length of `legal`;
- the end of a Game Turn (every player scored from one reading of the board) is each
  player's `score` in turn;
- `can_reduce` is `bool(reduce_areas)`, `has_supply` is `supply > 0`;
- the checks that ask their accepting case first judge every event as the plain checks
  do (the same rule and words) and read the same component values;
- `apply` (its plays written out, resolve's commonest answers asked inline, the scoring
  step's passes at once) is the plain plays followed by the plain one-a-call `resolve`;
- a random playout's draws (`playouts.pick` and `nth`: the choices counted, only the one
  drawn made) are `legal`'s events, and the Discards' sets counted and found one at a time
  are `discard_sets`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tabletape.engine import simulate
from tabletape.games.global_domination import RULESET, legality, playouts
from tabletape.games.global_domination.components import TABULATED, Restriction
from tabletape.games.global_domination.state import Force, Owed, Phase, Step
from tests.games.global_domination.helpers import header

OPTIONS: tuple[dict[str, Any], ...] = ({}, {"surrender_own": True}, {"megastorm_rounding": "up", "hands": "discard",
                                         "resource_gain": "once", "ties": "logistics"})


@cache
def _played(n: int, seed: int, k: int, rules: str | None = None):
    """Returns (header, states) of a simulated game of n players with OPTIONS[k], recorded
    under `rules` (None: the latest)."""
    h = header(tuple(f"p{i}" for i in range(n)), two_players=n == 2, **OPTIONS[k])
    if rules is not None:
        h = replace(h, rules_version=rules)
    return h, tuple(s for _, s in simulate.play(RULESET, h, seed))


@pytest.mark.parametrize("rules", [None, "1.1", "1.0"])
@pytest.mark.parametrize("n,seed,k", [(2, 1, 0), (3, 2, 1), (4, 3, 2), (5, 4, 0), (6, 5, 1)])
def test_count_is_the_number_of_legal_events(n, seed, k, rules):
    """`count` is `len(list(legal))` on every state of a simulated game (played under 1.2,
    and judged by 1.0 too; played and judged under 1.1, whose scoring step skips players)."""
    h, states = _played(n, seed, k, "1.1" if rules == "1.1" else None)
    lk = RULESET.bind(h, rules).lk
    for state in (RULESET.bind(h).initial(), *states):
        assert legality.count(lk, state) == len(list(legality.legal(lk, state)))


@st.composite
def _varied(draw, kind):
    """A state of a simulated game with its board, hands, stacks, Logistics and the step owed
    (or the phase) drawn at random: the cases simulated play seldom reaches."""
    n = draw(st.integers(2, 6))
    h, states = _played(n, draw(st.integers(0, 3)), draw(st.integers(0, len(OPTIONS) - 1)))
    rs = RULESET.bind(h, draw(st.sampled_from([None, "1.1", "1.0"])))
    lk = rs.lk
    state = draw(st.sampled_from(states[len(lk.actions) // 2:]))  # past the set-up
    players = state.players
    owners = st.sampled_from(players)
    areas = list(lk.areas)
    board = {a: Force(draw(owners), draw(st.booleans()))
             for a in areas if draw(st.integers(0, 3)) > 0}
    cards = st.sampled_from(list(lk.cards))
    hands = {p: tuple(sorted(draw(st.lists(cards, max_size=6)))) for p in players}
    stacks = {c: draw(st.integers(0, 2)) for c in draw(st.lists(st.sampled_from(lk.actions),
                                                                min_size=1, max_size=10,
                                                                unique=True))}
    logistics = {p: draw(st.integers(lk.tracks.logistics.low, lk.tracks.logistics.high))
                 for p in players}
    state = replace(state, board=board, hands=hands, stacks=stacks, logistics=logistics,
                    steps=(), fog=(), scored=())
    match kind:
        case "play":
            return lk, replace(state, phase=Phase.PLAY, current=draw(owners))
        case "scoring":
            scored = tuple(p for p in players if draw(st.booleans()))
            return lk, replace(state, phase=Phase.SCORING, current=None,
                               scored=scored if len(scored) < n else ())
        case "over":
            return lk, replace(state, phase=Phase.OVER, current=None)
    step = kind
    if step is Step.DRAW:
        decks = {p: {c: draw(st.integers(1, 3)) for c in draw(st.sets(cards, max_size=4))}
                 for p in players}
        owed = Owed(step, draw(owners), points=draw(st.integers(1, 4)))
        return lk, replace(state, phase=Phase.DRAW, current=None, steps=(owed,), decks=decks)
    owed = Owed(step, draw(owners), draw(cards), draw(st.integers(1, 4)),
                draw(st.sampled_from(list(Restriction))),
                target=draw(st.sampled_from(("", *players))) if step is Step.REDUCE else "",
                region=draw(st.sampled_from(lk.regions)), must=draw(st.booleans()),
                own=draw(st.booleans()), origin=draw(owners))
    return lk, replace(state, phase=Phase.PLAY, current=draw(owners), steps=(owed,))


KINDS = ["play", "scoring", "over", *Step]


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=30, deadline=None, derandomize=True)
@given(data=st.data())
def test_count_is_the_number_of_legal_events_on_varied_states(kind, data):
    lk, state = data.draw(_varied(kind))
    assert legality.count(lk, state) == len(list(legality.legal(lk, state)))



@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=30, deadline=None, derandomize=True)
@given(data=st.data())
def test_the_playouts_draws_are_legals_events_on_varied_states(kind, data):
    """`pick` asks `below` for an index under `legal`'s count and answers its event there (or
    None, asking nothing); `nth(i)` is `legal`'s i-th event (or None), for i below the count."""
    lk, state = data.draw(_varied(kind))
    events = list(legality.legal(lk, state))
    for i, event in enumerate(events):
        assert playouts.nth(lk, state, i) in (None, event)
        asked: list[int] = []

        def below(n: int, i: int = i, asked: list[int] = asked) -> int:
            asked.append(n)
            return i
        got = playouts.pick(lk, state, below)
        if got is None:  # no answer here: the playout counts through `legal`
            assert not asked
            continue
        assert (asked, got) == ([len(events)], event)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(hand=st.lists(st.sampled_from("ABCDE"), max_size=8).map(lambda h: tuple(sorted(h))),
       any_order=st.booleans())
def test_the_discards_sets_counted_and_found_one_at_a_time_are_discard_sets(hand, any_order):
    """gd.use.discard2 (either order from rules 1.1, alphabetical under 1.0): `count_sets` is
    the number of `discard_sets`, `nth_set(j)` its j-th, on sorted hands (a hand is sorted)."""
    sets = legality.discard_sets(hand, any_order)
    kinds = tuple(dict.fromkeys(hand))
    assert legality.count_sets(hand, kinds, any_order) == len(sets)
    assert [legality.nth_set(hand, kinds, j, any_order) for j in range(len(sets))] == sets

def _end_plain(lk, state):
    """End of Each Game Turn plainly: each player's `score` in turn (reducer._end_game_turn)."""
    from tabletape.engine.kit.multiset import with_cards
    from tabletape.games.global_domination import lookups as q
    from tabletape.games.global_domination.reducer import score
    high = lk.tracks.logistics.high
    vp, lg, claimed = dict(state.vp), dict(state.logistics), dict(state.claimed)
    for p in state.players:
        gain, steps = score(lk, state, p)
        vp[p] += gain
        lg[p] = min(high, lg[p] + steps)
        if state.options.resource_gain == "once":
            claimed[p] = tuple(sorted({*claimed.get(p, ()),
                                       *q.resource_monopolies(lk, state, p)}))
    state = replace(state, vp=vp, logistics=lg, claimed=claimed, fog=(), scored=())
    if state.options.hands == "discard":
        state = replace(state, hands={p: () for p in state.players},
                        discards={p: with_cards(state.discards[p], *state.hands[p])
                                  for p in state.players})
    return state


@pytest.mark.parametrize("kind", ["scoring", "play"])
@settings(max_examples=40, deadline=None, derandomize=True)
@given(data=st.data())
def test_the_end_of_a_game_turn_is_every_players_score(kind, data):
    """`_end_game_turn` (the board read once for all) is each player's `score` in turn, on
    varied boards: Regions and Resources held whole or not, Fog of War played or not, the
    Resources already claimed (option resource_gain=once)."""
    from tabletape.games.global_domination import reducer
    lk, state = data.draw(_varied(kind))
    players = st.sampled_from(state.players)
    if data.draw(st.booleans()):  # a Region or a Resource held whole by someone
        who = data.draw(players)
        r = data.draw(st.sampled_from(lk.regions))
        held = lk.in_region[r] + data.draw(st.sampled_from(list(lk.with_resource.values())))
        state = replace(state, board={**state.board, **{a: Force(who, True) for a in held}})
    state = replace(state, fog=tuple(data.draw(st.lists(players, max_size=2))),
                    claimed={p: tuple(sorted(data.draw(st.sets(st.sampled_from(lk.resources)))))
                             for p in state.players})
    assert reducer._end_game_turn(lk, state) == _end_plain(lk, state)


@pytest.mark.parametrize("kind", ["play", *(s for s in Step if s is not Step.DRAW)])
@settings(max_examples=30, deadline=None, derandomize=True)
@given(data=st.data())
def test_can_reduce_is_reduce_areas(kind, data):
    """`can_reduce` (the first Force found) is `bool(reduce_areas)` for every player,
    restriction and target, on varied boards (every restriction of the box's cards)."""
    from tabletape.games.global_domination import lookups as q
    lk, state = data.draw(_varied(kind))
    if data.draw(st.booleans()):  # a board of one owner: often nothing to Reduce
        who = data.draw(st.sampled_from(state.players))
        state = replace(state, board={a: replace(f, owner=who) for a, f in state.board.items()})
    for p in state.players:
        for r in Restriction:
            for t in ("", *state.players):
                assert q.can_reduce(lk, state, p, r, t) == bool(q.reduce_areas(lk, state, p, r, t))


@pytest.mark.parametrize("kind", ["play", "over"])
@settings(max_examples=30, deadline=None, derandomize=True)
@given(data=st.data())
def test_has_supply_is_a_token_left(kind, data):
    """`has_supply` (at once while the map holds fewer Forces than a set has tokens) is
    `supply > 0`, on boards where someone's tokens are often all on the map."""
    from tabletape.games.global_domination import lookups as q
    lk, state = data.draw(_varied(kind))
    who = data.draw(st.sampled_from(state.players))
    mine = data.draw(st.integers(lk.tracks.force_tokens - 2, lk.tracks.force_tokens + 1))
    board = dict(state.board) if data.draw(st.booleans()) else {}  # {}: only `who` on the map
    for a in data.draw(st.permutations(list(lk.areas)))[:mine]:
        board[a] = Force(who, data.draw(st.booleans()))
    state = replace(state, board=board)
    for p in state.players:
        assert q.has_supply(lk, state, p) == (q.supply(lk, state, p) > 0)


def _check_plain(lk, state, ev):
    """`legality.check` with each check that asks its accepting case first replaced by the
    plain check it stands for."""
    from tabletape.games.global_domination import events as e
    from tabletape.games.global_domination import plays, points
    plain: dict[type, Callable[..., Any]] = {**legality.CHECK, e.CardDrawn: legality._check_draw_plain,
             e.ForceBuilt: points._check_point, e.ForceReduced: points._check_point,
             e.CardsDiscarded: plays._check_discard}
    return plain[type(ev)](lk, state, ev)


def _events(lk, state):
    """Events of the types whose checks take a shortcut, legal ones and near misses: by the
    player who decides and by another, in every Area (and one off the map), every card
    they could draw (and one not in their Draw Deck), every Discard of their hand (in either
    order, and of a card not held) taking every stack in use (and a card of no stack)."""
    from tabletape.games.global_domination import events as e
    decides = state.steps[0].player if state.steps else state.current or state.players[0]
    other = next(p for p in state.players if p != decides)
    for p in (decides, other):
        hand = state.hands[p]
        yield from (e.CardDrawn(player=p, card=c) for c in (*state.decks[p], "Nothing"))
        for a in (*lk.areas, "Atlantis"):
            yield e.ForceBuilt(player=p, area=a)
            yield e.ForceReduced(player=p, area=a)
        sets = [*legality.discard_sets(hand), *((c, c) for c in set(hand)), ("Nothing",),
                (*hand[:1], "Nothing")]
        for taken in (*state.stacks, lk.basic):
            yield from (e.CardsDiscarded(player=p, cards=cards, taken=taken) for cards in sets)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=15, deadline=None, derandomize=True)
@given(data=st.data())
def test_the_checks_asking_their_accepting_case_first_are_the_plain_checks(kind, data):
    """`check` judges every event as the plain checks do, with the same words and rule, and
    reads the same component values (what a ruling rests on) in the same order."""
    from tabletape.engine.provenance import grouped, recording
    lk, state = data.draw(_varied(kind))
    decides = state.steps[0].player if state.steps else state.current or state.players[0]
    low = lk.tracks.logistics.low  # a stack's cost paid to the track's end, or not
    state = replace(state, logistics={**state.logistics, decides: low + data.draw(st.integers(0, 2))},
                    stacks={**state.stacks, **{c: 1 for c in lk.actions if lk.cards[c].cost}})
    if data.draw(st.booleans()):  # the one who decides has every token on the map, or all but one
        mine = lk.tracks.force_tokens - data.draw(st.integers(0, 1))
        state = replace(state, board={a: Force(decides, data.draw(st.booleans()))
                                      for a in data.draw(st.permutations(list(lk.areas)))[:mine]})
    for ev in _events(lk, state):
        assert legality.check(lk, state, ev) == _check_plain(lk, state, ev), ev
        fast, plain = [], []  # type: ignore[var-annotated]
        legality.check(recording(lk, fast, TABULATED), state, ev)
        _check_plain(recording(lk, plain, TABULATED), state, ev)
        assert grouped(fast) == grouped(plain), ev


def _drawn_plain(lk, state, ev):
    """A draw plainly: the card from the Draw Deck to the hand, then a point of the step spent
    (`reducer._drawn` writes it out and drops a step it spends to nothing)."""
    from tabletape.engine.kit.multiset import take, with_cards
    p, h = ev.player, state.steps[0]
    return replace(state, decks={**state.decks, p: take(state.decks[p], ev.card)},
                   hands={**state.hands, p: with_cards(state.hands[p], ev.card)},
                   steps=(replace(h, points=h.points - 1), *state.steps[1:]))


def _discarded_plain(lk, state, ev):
    """A Discard plainly (`reducer._discarded` writes it out, one copy of each map)."""
    from tabletape.engine.kit.multiset import with_cards, without
    p = ev.player
    hand = state.hands[p]
    for c in ev.cards:
        hand = without(hand, c)
    pile = with_cards(state.discards[p], *ev.cards)
    if len(ev.cards) == 1:
        pile = with_cards(pile, ev.taken)
    else:
        hand = with_cards(hand, ev.taken)
    cost = lk.cards[ev.taken].cost
    return replace(state, hands={**state.hands, p: hand}, discards={**state.discards, p: pile},
                   stacks={**state.stacks, ev.taken: state.stacks[ev.taken] - 1},
                   logistics={**state.logistics, p: state.logistics[p] - cost}, used=True)


def _turn_ended_plain(lk, state, ev):
    """An end of turn plainly: the next seat to the left not out (`turns.left_of`)."""
    from tabletape.engine.kit import turns
    passed = state.passed if state.used else (*state.passed, ev.player)
    state = replace(state, passed=passed, used=False)
    nxt = ev.player
    for _ in state.players:
        nxt = turns.left_of(state.players, nxt)
        if nxt not in passed:
            return replace(state, current=nxt)
    return replace(state, current=None, phase=Phase.SCORING, scored=(), fog=())


def _apply_plain(lk, state, ev):
    """`reducer.apply` plainly: the play (plainly), then `resolve` (plainly) until nothing
    is left."""
    from tabletape.games.global_domination import events as e
    from tabletape.games.global_domination import reducer
    plain = {**reducer.APPLY, e.CardDrawn: _drawn_plain, e.CardsDiscarded: _discarded_plain,
             e.TurnEnded: _turn_ended_plain}
    return _settled_plain(lk, plain[type(ev)](lk, state, ev))


@pytest.mark.parametrize("n,seed,k,rules", [(2, 1, 0, None), (3, 2, 1, None), (4, 3, 2, None),
                                            (6, 5, 1, None), (3, 2, 1, "1.1"), (6, 5, 1, "1.1")])
def test_apply_asking_resolve_inline_is_the_plain_settle(n, seed, k, rules):
    """`apply` (resolve's commonest answers asked inline) is the play followed by `resolve`
    until it finds nothing to do, for every legal event of the states of a simulated game
    (played under 1.2, or under 1.1, whose scoring step skips players)."""
    from tabletape.games.global_domination import reducer
    h, states = _played(n, seed, k, rules)
    lk = RULESET.bind(h).lk
    for state in states[::3]:
        for ev in legality.legal(lk, state):
            assert reducer.apply(lk, state, ev) == _apply_plain(lk, state, ev)


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=10, deadline=None, derandomize=True)
@given(data=st.data())
def test_apply_asking_resolve_inline_is_the_plain_settle_on_varied_states(kind, data):
    from tabletape.games.global_domination import reducer
    lk, state = data.draw(_varied(kind))
    for ev in legality.legal(lk, state):
        assert reducer.apply(lk, state, ev) == _apply_plain(lk, state, ev)


def _resolve_plain(lk, state):
    """`reducer.resolve` with the scoring step plainly one thing a call: everyone done, the
    Game Turn ends; else (until rules 1.1) the scorer with no card to play passes, or (rules
    1.2: gd.score.window asks every player) it is the scorer's say."""
    from tabletape.games.global_domination import lookups as q
    from tabletape.games.global_domination import reducer
    if state.phase is Phase.SCORING and not state.steps:
        who = q.scorer(state)
        if who is None:
            return reducer._start_game_turn(lk, reducer._end_game_turn(lk, state))
        if lk.ask_every_scorer:
            return None
        if not q.has_scoring_card(lk, state, who):
            return replace(state, scored=(*state.scored, who))
        return None
    return reducer.resolve(lk, state)


def _settled_plain(lk, state):
    while (after := _resolve_plain(lk, state)) is not None:
        state = after
    return state


@settings(max_examples=60, deadline=None, derandomize=True)
@given(data=st.data())
def test_the_scoring_passes_at_once_are_the_plain_passes_one_at_a_time(data):
    """`_pass_scoring` (until rules 1.1 every pass of a player with no scoring card, and the
    end of the Game Turn, in one call; under 1.2 the end once everyone has passed) settles to
    the state the plain one-a-call `resolve` settles to."""
    from tabletape.games.global_domination import reducer
    lk, state = data.draw(_varied("scoring"))
    if data.draw(st.booleans()):  # nobody holds a card for the scoring step: the turn ends
        state = replace(state, hands={p: tuple(c for c in h if c not in lk.at_scoring)
                                      for p, h in state.hands.items()})
    fast = state
    while (after := reducer.resolve(lk, fast)) is not None:
        fast = after
    assert fast == _settled_plain(lk, state)
