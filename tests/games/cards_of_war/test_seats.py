"""The seats of Cards of War: who enters each event, what each seat may know, what a phone
offers for its own draw, and non-interference (two games that differ only in a card one
seat may not know give that seat the same views, offers, events, words and drawings)."""

from __future__ import annotations

from functools import cache

import pytest
from msgspec.structs import replace

from tabletape.app import pictures
from tabletape.engine import CHANCE, simulate
from tabletape.engine.seats import Held, check_seating, may_enter, offered, owner, secret_from, seen
from tabletape.games.cards_of_war import seats
from tabletape.games.cards_of_war.events import EVENTS, CardDiscarded
from tabletape.games.cards_of_war.lookups import other
from tests.games.cards_of_war.helpers import (
    RULESET,
    A,
    B,
    CardDrawn,
    HandReported,
    OpeningCardDrawn,
    Owed,
    State,
    Step,
    battle,
    bound,
    deploy,
    draw,
    feed,
    header,
    report,
    start,
    table,
)
from tests.narrow import only, present

HAND_A = ("Tank", "Flak", "Spy", "Infantry", "Decoy", "Marines", "Gliders", "Saboteur")
HAND_B = ("Infantry", "Radar", "Destroyer", "Submarine", "Fighters", "Amphib", "Resistance", "Spy")


def cards(events) -> list[str]:
    return [e.card for e in events]


# -- OWNERS: who enters each event ---------------------------------------------------------


def test_owners_name_every_event_and_fit_them():
    assert set(seats.OWNERS) == set(EVENTS)
    assert check_seating("cards-of-war", EVENTS, seats.OWNERS, seats.SECRETS) is None


def test_a_draw_is_its_drawers_and_so_is_an_opening_card():
    rs = bound()
    # Playing a Round: bob's refill goes into bob's hand; alice may not enter it
    assert owner(rs, draw(B, "Tank")) == B
    assert not may_enter(rs, draw(B, "Tank"), A) and may_enter(rs, draw(B, "Tank"), B)
    # Setup: the opening cards are turned up for both, each by its player, who enters it
    assert owner(rs, OpeningCardDrawn(player=A, card="Tank")) == A
    assert not may_enter(rs, OpeningCardDrawn(player=A, card="Tank"), B)
    # each play is its player's: a deployment, the RECON answer, an exhaustion discard
    for ev in (deploy(A, "Tank", 1), HandReported(player=A), CardDiscarded(player=A, card="Tank")):
        assert owner(rs, ev) == A and not may_enter(rs, ev, B)


def test_the_opening_draw_is_offered_to_the_player_who_turns_it_up():
    rs = bound()
    state = rs.initial()
    assert offered(rs, state, A) == list(rs.legal(state)) and offered(rs, state, B) == []
    # alice has turned up her card; bob's is next, and his to enter
    state = feed(state, OpeningCardDrawn(player=A, card="Tank"))
    assert offered(rs, state, B) == list(rs.legal(state)) and offered(rs, state, A) == []
    assert all(e.player == B for e in only(OpeningCardDrawn, offered(rs, state, B)))


# -- SECRETS: what a seat may not know -----------------------------------------------------


def test_a_drawn_card_is_known_to_its_drawer_alone():
    rs = bound()
    state = feed(table(hands={A: HAND_A, B: HAND_B}, turn=B), deploy(B, "Infantry", 1))
    ev = draw(B, "Tank")
    assert secret_from(rs, state, ev) == ("card",)
    assert seen(rs, state, ev, A) == draw(B, "?")  # alice: bob draws a card
    assert seen(rs, state, ev, B) == ev and seen(rs, state, ev, None) == ev  # bob, the umpire


@pytest.mark.parametrize("options", [{"two_decks": True}, {"alternative_reinforce": True}])
def test_a_reinforcements_draw_is_secret_under_every_option(options):
    # Special Abilities 2: the extra card goes into the hand, from the drawer's own deck
    # under the 2 Deck Version; under Alternative Reinforce it is shown only when deployed
    rs = bound(**options)
    state = table(hands={A: HAND_A, B: HAND_B}, **options,
                  steps=(Owed(Step.REINFORCE_DRAW, A), Owed(Step.REINFORCE_DEPLOY, A)))
    assert seen(rs, state, draw(A, "Radar"), B) == draw(A, "?")
    assert seen(rs, state, draw(A, "Radar"), A) == draw(A, "Radar")


def test_what_the_table_sees_is_public():
    rs = bound(strategic_exhaustion=True, length="long")
    state = table(hands={A: HAND_A, B: HAND_B}, strategic_exhaustion=True, length="long")
    # Setup: the opening card is turned up; Playing a Round: a deployment is face up;
    # Special Abilities 3: the RECON answer is said aloud; a discard goes face up
    for ev in (OpeningCardDrawn(player=A, card="Tank"), deploy(A, "Tank", 1),
               report(state, B), CardDiscarded(player=A, card="Tank"),
               deploy(A, "Radar", 1, from_discard=True)):
        assert secret_from(rs, state, ev) is None
        assert seen(rs, state, ev, other(state, ev.player)) == ev


# -- candidates: what a phone offers for its own draw --------------------------------------


def test_a_draw_offers_a_card_the_opponent_holds_every_copy_of():
    # the deck has one Shore Bombardment; in one game bob holds it, in the other a Tank.
    # Alice cannot tell the two apart, so her refill offers the same cards in both, the
    # Shore Bombardment among them (the umpire's legal draws differ)
    rs = bound()
    games = [feed(table(hands={A: HAND_A, B: (*HAND_B[:7], card)}), deploy(A, "Decoy", 2))
             for card in ("Shore Bombardment", "Battleship")]
    offers = [seats.candidates(rs.lk, s, A) for s in games]
    assert offers[0] == offers[1]
    assert "Shore Bombardment" in cards(offers[0])
    assert "Shore Bombardment" not in cards(rs.legal(games[0]))
    assert all(isinstance(e, CardDrawn) and e.player == A for e in offers[0])
    assert cards(offers[0]) == sorted(cards(offers[0]))
    # the engine offers the same to alice's phone, and nothing to bob's
    assert offered(rs, games[0], A) == offers[0] and offered(rs, games[0], B) == []


def test_a_draw_leaves_out_a_card_whose_every_copy_the_drawer_sees():
    # alice holds one Spy, bob's and one more lie in battle 1, face up: none is left to draw
    rs = bound()
    state = table(hands={A: HAND_A, B: HAND_B[:7]},
                  battles=[battle(alice=["Spy"], bob=["Spy"]), battle(), battle()])
    state = feed(state, deploy(A, "Decoy", 2))
    offer = cards(seats.candidates(rs.lk, state, A))
    assert "Spy" not in offer and "Decoy" in offer  # one Decoy of two was just deployed
    # what the drawer cannot see is every card the deck may hold, and never fewer
    assert set(offer) >= set(cards(rs.legal(state)))


def test_under_two_decks_the_drawer_can_tell_their_own_deck_exactly():
    # 2 Deck Version: each deck is its owner's, so what alice cannot see of hers is her
    # pile itself: the legal draws, whatever bob holds
    rs = bound(two_decks=True)
    state = feed(table(hands={A: HAND_A, B: HAND_B}, two_decks=True), deploy(A, "Decoy", 2))
    assert sorted(cards(seats.candidates(rs.lk, state, A))) == sorted(cards(rs.legal(state)))


def test_other_decisions_offer_the_legal_events():
    rs = bound()
    assert list(seats.candidates(rs.lk, start(), A)) == list(rs.legal(start()))
    state = table(hands={A: HAND_A, B: HAND_B})
    assert list(seats.candidates(rs.lk, state, A)) == list(rs.legal(state))


# -- held: the hand panel ------------------------------------------------------------------


def test_held_is_the_players_own_hand_from_their_view():
    rs = bound()
    state = table(hands={A: HAND_A, B: HAND_B})
    for p, hand in ((A, HAND_A), (B, HAND_B)):
        assert rs.held(rs.view(state, p), p) == (Held("Hand", tuple(sorted(hand))),)


# -- view ----------------------------------------------------------------------------------


def test_a_reinforcement_drawn_as_a_round_ends_is_not_shown_to_the_other_player():
    # cow.reinforce.round-end: bob's extra card is drawn as round 2 starts, and alice's
    # refill is owed next; the card bob drew is his alone (the view showed it to whoever
    # owed the next step: alice here)
    rs = bound(reinforce_draw_at_round_end=True)
    state = table(hands={A: HAND_A[:7], B: HAND_B}, turn=B, reinforce_draw_at_round_end=True,
                  steps=(Owed(Step.REINFORCE_DRAW, B), Owed(Step.REFILL, A)))
    after = [feed(state, draw(B, card)) for card in ("Tank", "Battleship")]
    assert after[0].reinforce_card == "Tank" and present(rs.pending(after[0])).actor == CHANCE
    assert rs.view(after[0], A).reinforce_card is None
    assert rs.view(after[0], A) == rs.view(after[1], A)


def test_a_reinforcements_card_is_shown_to_its_drawer_while_its_deployment_is_owed():
    rs = bound(alternative_reinforce=True)
    state = feed(table(hands={A: HAND_A, B: HAND_B}, alternative_reinforce=True,
                       steps=(Owed(Step.REINFORCE_DRAW, A), Owed(Step.REINFORCE_DEPLOY, A))),
                 draw(A, "Radar"))
    assert rs.view(state, A).reinforce_card == "Radar"
    assert rs.view(state, B).reinforce_card is None


# -- non-interference ----------------------------------------------------------------------

# (options, seed): each option that changes who draws from which pile or what a drawn card
# is for, the seed of a game in which it comes into play (a reinforcement drawn as a round
# ends under reinforce_draw_at_round_end, an exhausted hand's discards)
GAMES: list[tuple[dict[str, object], int]] = [
    ({}, 1), ({"two_decks": True}, 1), ({"joint_deployment": True}, 1),
    ({"alternative_reinforce": True}, 1),
    ({"alternative_reinforce": True, "reinforce_draw_at_round_end": True, "two_decks": True}, 42),
    ({"reinforce_draw_at_round_end": True}, 14),
    ({"strategic_exhaustion": True, "length": "long", "automatic_kill": True}, 1)]
PAIRS = 8  # hidden draws swapped per game
AFTER = 6  # how many plays past the swapped draw a pair is followed, at most


@cache
def simulated(options: tuple, seed: int) -> tuple:
    """Returns the bound rules, the events and the states before each (and the last)."""
    h = header(**dict(options))
    rs = RULESET.bind(h)
    states, events = [rs.initial()], []
    for ev, state in simulate.play(RULESET, h, seed):
        events.append(ev)
        states.append(state)
    return rs, events, states


def swaps(rs, events, states) -> list[tuple[int, str]]:
    """Returns (position, other card) for PAIRS hidden draws of a game: its reinforcements'
    first, then draws spread over the game; the other card is one the pile holds there, of
    the same theatre when it can be (a RECON answer then stays the same)."""
    draws = [k for k, ev in enumerate(events) if isinstance(ev, CardDrawn)]
    extra = [k for k in draws if states[k].steps[0].step is Step.REINFORCE_DRAW]
    # those drawn as a round ends first (cow.reinforce.round-end): no deployment follows
    extra = sorted(extra, key=lambda k: _redeploys(states[k + 1]))[:PAIRS // 2]
    spread = draws[::max(1, len(draws) // (PAIRS - len(extra)))]
    out = []
    for k in sorted({*extra, *spread[:PAIRS - len(extra)]}):
        ev = events[k]
        pile = [c.card for c in rs.legal(states[k]) if c.card != ev.card]
        same = [c for c in pile if rs.lk.theatre_of[c] == rs.lk.theatre_of[ev.card]]
        if same or pile:
            out.append((k, (same or pile)[0]))
    return out


def _redeploys(state: State) -> bool:
    return bool(state.steps) and state.steps[0].step is Step.REINFORCE_DEPLOY


def confined(one: State, two: State, drawer: str) -> bool:
    """Whether two true states differ only in the drawer's hand (its size the same) and in
    the piles' contents (their sizes the same): what the rules keep from the other seat."""
    if len(one.hands[drawer]) != len(two.hands[drawer]):
        return False
    if {o: sum(d.values()) for o, d in one.decks.items()} != \
            {o: sum(d.values()) for o, d in two.decks.items()}:
        return False
    return replace(one, hands={**one.hands, drawer: two.hands[drawer]}, decks=two.decks,
                   reinforce_card=two.reinforce_card) == two


def what_a_seat_gets(rs, state, seat: str) -> tuple:
    """Returns everything `seat` is given of a state: its view, its offers (its own draw's
    candidates among them), its hand panel, what comes next, the result, its drawings."""
    mine = rs.view(state, seat)
    d, o = rs.pending(state), rs.outcome(state)
    draws = d is not None and d.actor == CHANCE and offered(rs, state, seat)
    return (mine, offered(rs, state, seat),
            list(rs.candidates(state, seat)) if draws else None, rs.held(mine, seat),
            d, o.summary if o else None,
            pictures.draw(rs, state, seat).svg(), pictures.draw(rs, state, seat, narrow=True).svg())


@pytest.mark.parametrize(("options", "seed"), GAMES,
                         ids=[",".join(o) or "plain" for o, _ in GAMES])
def test_a_seat_cannot_tell_two_games_apart_by_the_other_players_draw(options, seed):
    # the same game, but at a hidden draw the other player draws another card: while the
    # difference stays off the table, the seat gets the same of both, item by item
    pairs = states_compared = events_compared = 0
    rs, events, states = simulated(tuple(options.items()), seed)
    for k, card in swaps(rs, events, states):
        drawer = events[k].player
        seat = other(states[k], drawer)
        ours, theirs = list(events[:k + 1]), [*events[:k], draw(drawer, card)]
        befores = [(s, s) for s in states[:k + 1]]  # the state each event was entered in
        one, two = states[k + 1], rs.apply(states[k], theirs[-1])
        for ev in [*events[k + 1:k + 1 + AFTER], None]:  # None: the last state
            if not confined(one, two, drawer):
                break
            assert what_a_seat_gets(rs, one, seat) == what_a_seat_gets(rs, two, seat)
            states_compared += 1
            if ev is None or rs.check(two, ev) is not None:  # the games part here
                break
            befores.append((one, two))
            ours.append(ev)
            theirs.append(ev)
            one, two = rs.apply(one, ev), rs.apply(two, ev)
        # every event of both games, as the seat sees it, position by position
        for (b1, b2), e1, e2 in zip(befores, ours, theirs, strict=True):
            assert seen(rs, b1, e1, seat) == seen(rs, b2, e2, seat)
            events_compared += 1
        pairs += 1
    assert pairs >= PAIRS - 1 and states_compared >= 2 * pairs
    print(f"non-interference {options}: {pairs} pairs, {states_compared} states of 8 items, "
          f"{events_compared} events seen")
