"""Cards of War's shortcuts for speed agree with the plain definitions they stand for.

The plain definitions are written out here as the rules read before the shortcuts: each
play followed by the settle loop over `resolve` (`reducer.settled`), the whole chain of
checks per event, the RECON answer read card by card, and the legal events counted one by
one. They are compared on every state of simulated games under several tables of options
and rules versions, with the events that were played and with candidates, legal or not.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

import msgspec
import pytest
from msgspec.structs import replace

from tabletape.engine import Violation, simulate
from tabletape.engine.kit.multiset import take, with_cards, without
from tabletape.engine.kit.turns import head
from tabletape.engine.provenance import grouped, recording
from tabletape.games.cards_of_war import legality, reducer
from tabletape.games.cards_of_war.components import TABULATED, Theatre
from tabletape.games.cards_of_war.lookups import other, owner, total
from tabletape.games.cards_of_war.state import State
from tests.games.cards_of_war.helpers import (
    RULESET,
    Battle,
    CardDeployed,
    CardDiscarded,
    CardDrawn,
    HandReported,
    OpeningCardDrawn,
    Owed,
    Phase,
    Step,
    header,
)

# (rules version judging, options): every optional rule in some table, old versions too
TABLES: list[tuple[str, dict[str, object]]] = [
    ("1.2", {}),
    ("1.2", {"theatres_of_war": True, "joint_deployment": True}),
    ("1.2", {"alternative_reinforce": True, "automatic_kill": True, "two_decks": True}),
    ("1.2", {"theatres_of_war": True, "alternative_reinforce": True, "joint_deployment": True,
             "automatic_kill": True, "no_reshuffle_between_rounds": True}),
    ("1.2", {"length": "long", "strategic_exhaustion": True, "joint_deployment": True,
             "reinforce_draw_at_round_end": True}),
    ("1.2", {"length": "short", "tactical_advantage": True, "automatic_kill": True}),
    ("1.1", {"length": "long", "strategic_exhaustion": True, "two_decks": True}),
    ("1.0", {"theatres_of_war": True}),
    ("1.0", {"length": "long", "strategic_exhaustion": True}),
    ("1.0", {}),
]
IDS = [f"{v}-{'-'.join(sorted(o)) or 'plain'}" for v, o in TABLES]
SEEDS = (1, 3)


@cache
def game(table: int, seed: int) -> tuple:
    """Returns (lk, [(state before, event)...], final state) of a simulated game."""
    version, options = TABLES[table]
    h = replace(header(**options), rules_version=version)
    rs = RULESET.bind(h)
    state, steps = rs.initial(), []
    for ev, after in simulate.play(RULESET, h, seed):
        steps.append((state, ev))
        state = after
    return rs.lk, tuple(steps), state


def same(a, b) -> bool:
    """Equal and encoded alike: the snapshots see the order of every dict too."""
    return msgspec.json.encode(a) == msgspec.json.encode(b)


# -- the plain definitions ------------------------------------------------------------------

def _draw_plain(lk, state, ev):
    own = owner(state, ev.player)
    state = replace(state, decks={**state.decks, own: take(state.decks[own], ev.card)},
                    hands={**state.hands, ev.player: with_cards(state.hands[ev.player], ev.card)})
    if state.steps[0].step is Step.REINFORCE_DRAW:
        state = replace(state, steps=state.steps[1:], reinforce_card=ev.card)
    return state


def _deploy_plain(lk, state, ev):
    me, opp = ev.player, other(state, ev.player)
    owed_before = state.steps[1:] if state.steps else None
    hands, discards = dict(state.hands), dict(state.discards)
    if ev.from_discard:
        own = owner(state, me)
        discards[own] = discards[own][:-1]
        if state.reinforce_card is not None:
            hands[me] = without(hands[me], state.reinforce_card)
            discards[own] += (state.reinforce_card,)
    else:
        hands[me] = without(hands[me], ev.card)
    i = ev.battle - 1
    battle = state.battles[i]
    piles = dict(battle.piles)
    if ev.kill:
        victim = piles[opp][-1]
        piles[opp] = piles[opp][:-1]
        discards[owner(state, opp)] += (victim,)
    piles[me] += (ev.card,)
    battle = replace(battle, piles=piles, theatre=battle.theatre or ev.theatre)
    state = replace(state, hands=hands, discards=discards, reinforce_card=None,
                    battles=reducer._put(state.battles, i, battle))
    card = lk.cards[ev.card]
    owed: tuple = ()
    if ev.joint:
        owed += (Owed(Step.PARTNER, me, battle=ev.battle, card=ev.card),)
    if card.recon:
        owed += (Owed(Step.RECON, opp),)
    if card.reinforce:
        owed += (Owed(Step.REINFORCE_DRAW, me), Owed(Step.REINFORCE_DEPLOY, me))
    if total(lk, state, battle, me) >= 15:
        state = reducer._win_battle(lk, state, i, me)
        if all(b.closed for b in state.battles):
            state = reducer._end_round(lk, state)
            if lk.round_end_abilities and state.phase is Phase.PLAY:
                return reducer._abilities_past_the_round(state, owed + (owed_before or ()))
            return state
    if owed_before is None:
        owed_before = (Owed(Step.REFILL, me), Owed(Step.PASS, me))
    return replace(state, steps=owed + owed_before)


PLAYS_PLAIN: dict[type, Callable[..., State]] = {
    OpeningCardDrawn: reducer._opening, CardDrawn: _draw_plain, HandReported: reducer._report,
    CardDeployed: _deploy_plain, CardDiscarded: reducer._discard}


def apply_plain(lk, state, ev):
    """The play, then the settle loop over `resolve`, one step at a time."""
    return reducer.settled(lk, PLAYS_PLAIN[type(ev)](lk, state, ev))


def _counts_plain(lk, hand):
    counts = {"air": 0, "sea": 0, "ground": 0, "intel": 0}
    for name in hand:
        counts[lk.cards[name].theatre.value.lower()] += 1
    return counts


def check_plain(lk, state, ev):
    """`check` with the whole chain of tests for every draw, report and deployment."""
    if isinstance(ev, CardDrawn):
        return (legality.OWING.refuse(lk, state, legality.DRAWS, ev.player, "draw")
                or legality._check_in_deck(state, ev.player, ev.card))
    if isinstance(ev, HandReported):
        if v := legality.OWING.refuse(lk, state, (Step.RECON,), ev.player, "recon report"):
            return v
        truth = _counts_plain(lk, state.hands[ev.player])
        said = {"air": ev.air, "sea": ev.sea, "ground": ev.ground, "intel": ev.intel}
        if said != truth:
            wrong = ", ".join(f"{k} {said[k]} (holds {truth[k]})" for k in truth
                              if said[k] != truth[k])
            return Violation("cow.recon.report", f"{ev.player}'s report is untrue: {wrong}")
        return None
    if isinstance(ev, CardDeployed):
        return (legality._check_deployer(lk, state, ev.player)
                or legality._check_placement(lk, state, ev, head(state)))
    return legality.check(lk, state, ev)


def candidates(lk, state, ev, rng: random.Random) -> list:
    """Returns the event played and a sample of its neighbours, legal or not: another
    player, card, battle, KILL and target, theatre, pair or source; other draws and reports."""
    players = (*state.players, "nobody")
    names = [*lk.cards, "No Such Card"]
    out = [ev]
    for _ in range(12):
        p = rng.choice(players)
        card = rng.choice(names)
        out.append(CardDrawn(player=p, card=card))
        tops = [t for b in state.battles for t in b.piles.values() if t]
        target = rng.choice([None, None, rng.choice(tops)[-1] if tops else None, card])
        out.append(CardDeployed(
            player=p, card=rng.choice([card, *state.hands.get(p, ())]), battle=rng.randint(1, 3),
            kill=rng.random() < 0.4, target=target,
            theatre=rng.choice([None, None, None, *Theatre]), joint=rng.random() < 0.15,
            from_discard=rng.random() < 0.1))
    for p in state.players:
        truth = _counts_plain(lk, state.hands[p])
        out.append(HandReported(player=p, **truth))
        out.append(HandReported(player=p, **{**truth, "air": truth["air"] + 1}))
    if isinstance(ev, CardDeployed):  # the played deployment with one field changed
        out += [replace(ev, kill=not ev.kill), replace(ev, target=None),
                replace(ev, battle=ev.battle % 3 + 1), replace(ev, player=other(state, ev.player))]
    return out


# -- the tests ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("table", range(len(TABLES)), ids=IDS)
def test_apply_is_the_play_then_the_settle_loop(table, seed):
    """`apply` (plays written out with one `replace`, `_settle`'s stops and steps) leaves
    the very state the plain plays and `resolve` one step at a time leave, dicts in order."""
    lk, steps, _ = game(table, seed)
    for state, ev in steps:
        assert same(reducer.apply(lk, state, ev), apply_plain(lk, state, ev)), (state, ev)
        played = PLAYS_PLAIN[type(ev)](lk, state, ev)  # not yet settled
        assert same(reducer._settle(lk, played), reducer.settled(lk, played)), (played, ev)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("table", range(len(TABLES)), ids=IDS)
def test_check_gives_the_whole_chains_verdicts(table, seed):
    """`check` with its inline answers (the step owed now, a plain deployment's tests) gives
    every candidate, legal or not, the plain chain's verdict: rule id and words."""
    lk, steps, _ = game(table, seed)
    rng = random.Random(seed)
    refused = 0
    for state, ev in steps:
        for cand in candidates(lk, state, ev, rng):
            fast, plain = legality.check(lk, state, cand), check_plain(lk, state, cand)
            assert fast == plain, (state, cand)
            refused += fast is not None
        assert legality.check(lk, state, ev) is None
    assert refused > len(steps)


@pytest.mark.parametrize("table", range(len(TABLES)), ids=IDS)
def test_check_reads_the_same_component_values(table):
    """What a ruling rests on (`Ruleset.reads`, recorded by the lookups) is unchanged: the
    RECON answer's theatres are read from `theatre_of` as from each card's `theatre`."""
    lk, steps, _ = game(table, 1)
    rng = random.Random(7)
    reports = 0
    for state, ev in steps[::3] + tuple(s for s in steps if isinstance(s[1], HandReported)):
        for cand in candidates(lk, state, ev, rng)[:8]:
            fast_log: list = []
            plain_log: list = []
            legality.check(recording(lk, fast_log, TABULATED), state, cand)
            check_plain(recording(lk, plain_log, TABULATED), state, cand)
            assert grouped(fast_log) == grouped(plain_log), cand
            reports += isinstance(cand, HandReported) and bool(fast_log)
    assert reports or not any(isinstance(e, HandReported) for _, e in steps)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("table", range(len(TABLES)), ids=IDS)
def test_count_is_the_number_of_legal_events(table, seed):
    """`count` (closed forms for draws, reports, discards and plain deployments) is
    len(list(legal)) on every state, and on states with battles laid out, steps owed and
    hands changed by hand."""
    lk, steps, final = game(table, seed)
    deploys = 0
    for state in (*(s for s, _ in steps), final):
        n = legality.count(lk, state)
        assert n == len(list(legality.legal(lk, state))), state
        deploys += n and state.phase is Phase.PLAY and not state.steps
    assert deploys > 10
    for state, _ in steps[::7]:  # every player's tops face every hand, closed battles too
        if state.phase is not Phase.PLAY or state.steps:
            continue
        a, b = state.players
        mixed = replace(state, battles=(
            Battle(piles={a: state.hands[b][:2], b: state.hands[a][-2:]}),
            Battle(piles={a: (), b: ()}, closed=True, winner=a),
            Battle(piles={a: state.hands[b][-1:], b: ()})))
        assert legality.count(lk, mixed) == len(list(legality.legal(lk, mixed)))
        for v in (*_variants(state), replace(state, turn=None)):  # steps owed, hands, no turn
            assert legality.count(lk, v) == len(list(legality.legal(lk, v))), v


def test_the_fresh_turns_steps_are_made_once_per_player():
    """`_refill_and_pass` gives equal values each time, the same object for the same name."""
    a = reducer._refill_and_pass("alice")
    assert a == (Owed(Step.REFILL, "alice"), Owed(Step.PASS, "alice"))
    assert reducer._refill_and_pass("alice") is a
    assert reducer._refill_and_pass("bob") == (Owed(Step.REFILL, "bob"), Owed(Step.PASS, "bob"))


def _variants(state):
    """Yields the state with other steps owed, hands emptied or filled and (2 Deck Version)
    the other pile nearly empty: the stops of `_settle` and of a draw's own settling that
    play seldom reaches (an opponent or a reinforcer with no card, a pile to reshuffle)."""
    a, b = state.players
    for p, q in ((a, b), (b, a)):
        queues = [(), (Owed(Step.REFILL, p), Owed(Step.PASS, p)),
                  (Owed(Step.REINFORCE_DEPLOY, p), Owed(Step.REFILL, p), Owed(Step.PASS, p)),
                  (Owed(Step.REINFORCE_DRAW, p), Owed(Step.REINFORCE_DEPLOY, p)),
                  (Owed(Step.RECON, q), Owed(Step.REFILL, p), Owed(Step.PASS, p)),
                  (Owed(Step.REFILL, p), Owed(Step.REFILL, q)), (Owed(Step.PASS, p),),
                  (Owed(Step.REFILL, p), Owed(Step.PASS, p), Owed(Step.RECON, q)),
                  (Owed(Step.REINFORCE_DRAW, p), Owed(Step.REINFORCE_DEPLOY, q))]
        full = tuple(sorted(state.hands[p] + state.hands[q]))[:8]
        hands = [state.hands, {**state.hands, q: ()}, {**state.hands, p: ()},
                 {**state.hands, p: full}, {**state.hands, p: full, q: ()}, {p: (), q: ()}]
        decks = [state.decks]
        if state.options.two_decks:  # the other pile down to one card, or none
            low = {**state.decks, q: dict(list(state.decks[q].items())[:1])}
            decks += [low, {**state.decks, q: {}}]
        for steps in queues:
            for held in hands:
                for piles in decks:
                    yield replace(state, steps=steps, hands=held, turn=p, decks=piles)


@pytest.mark.parametrize("table", range(len(TABLES)), ids=IDS)
def test_settle_is_the_settle_loop_on_states_play_seldom_reaches(table):
    """`_settle`, and a draw's own settling, on states with other steps owed and hands
    emptied or filled: the same state as the settle loop leaves."""
    lk, steps, _ = game(table, 1)
    tried = 0
    for state, _ in steps[::5]:
        if state.phase is not Phase.PLAY:
            continue
        for v in _variants(state):
            assert same(reducer._settle(lk, v), reducer.settled(lk, v)), v
            tried += 1
            h = v.steps[0] if v.steps else None
            deck = v.decks[owner(v, h.player)] if h else {}
            if h and h.step in (Step.REFILL, Step.REINFORCE_DRAW) and deck:
                for card in list(deck)[:2]:  # the draw's own settling, on the same states
                    ev = CardDrawn(player=h.player, card=card)
                    assert same(reducer.apply(lk, v, ev), apply_plain(lk, v, ev)), (v, ev)
    assert tried > 100


@pytest.mark.parametrize("table", range(len(TABLES)), ids=IDS)
def test_validate_judges_a_log_as_the_plain_rules_do(table):
    """A fold over the played events with neighbours slipped in now and then (judged past
    each refusal, `keep_going`): the same refusals, words and final state with the rules
    as they are and with the plain `check` and `apply` bound in their place."""
    from functools import partial

    from tabletape.engine.fold import Fold
    lk, steps, _ = game(table, 1)
    h = replace(header(**TABLES[table][1]), rules_version=TABLES[table][0])
    rng = random.Random(table)
    events = []
    for state, ev in steps:
        if rng.random() < 0.1:
            events.append(rng.choice(candidates(lk, state, ev, rng)))
        events.append(ev)
    fast = Fold(RULESET, h, keep_going=True)
    plain = Fold(RULESET, h, keep_going=True)
    vars(plain.ruleset).update(check=partial(check_plain, plain.ruleset.lk),
                               apply=partial(apply_plain, plain.ruleset.lk))
    for seq, ev in enumerate(events, 1):
        fast.feed(seq, ev)
        plain.feed(seq, ev)
        assert same(fast.state, plain.state), (seq, ev)
    assert [(s, e.rule, e.reason) for s, e in fast.illegal.items()] == \
        [(s, e.rule, e.reason) for s, e in plain.illegal.items()]
    assert len(fast.illegal) > 0


@pytest.mark.parametrize("field", ["types", "kill"])
def test_undeclared_type_symbols_are_named_as_before(field):
    """`problems` tests each card's symbols against the declared ones without a set per card;
    a card using an undeclared one is named with the symbols it lacks, sorted."""
    from tabletape.games.cards_of_war.components import default, problems
    comp = default()
    assert problems(comp) is None
    card = comp.cards[3]
    bad = replace(comp, cards=(*comp.cards[:3], replace(card, **{field: ("Z", "Q", *getattr(
        card, field))}), *comp.cards[4:]))
    assert problems(bad) == f"card {card.name!r} uses undeclared type symbols ['Q', 'Z']"
