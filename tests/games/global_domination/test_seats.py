"""Seats: who enters each event, what each seat may know, and non-interference.

The non-interference check plays pairs of histories that differ only in one card another
player drew (hidden from seat S) and asserts that S receives the same bytes from both.
"""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from tabletape.app import pictures
from tabletape.engine import CHANCE, seats, simulate
from tabletape.games.global_domination import seats as gd_seats
from tabletape.games.global_domination.events import (
    EVENTS,
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    FirstPlayerChosen,
    PlayerTargeted,
    TurnEnded,
    Use,
)
from tabletape.games.global_domination.state import Phase, State, Step
from tabletape.tape.events import Event
from tests import story
from tests.narrow import present

from .helpers import PLAYERS, RS, header, run, setup_events, started, with_hand

# -- OWNERS ----------------------------------------------------------------------------------


def test_owners_name_every_event_and_fit_it():
    assert set(gd_seats.OWNERS) == set(EVENTS)
    assert seats.check_seating("gd", EVENTS, gd_seats.OWNERS, gd_seats.SECRETS) is None


def test_the_first_player_is_chosen_in_the_open_by_anyone():
    # Start of the Game: chance names alice, and bob may enter it (the field is who is chosen)
    state = RS.initial()
    chosen = FirstPlayerChosen(player="alice")
    assert seats.owner(RS, chosen) is None and seats.may_enter(RS, chosen, "bob")
    assert chosen in seats.offered(RS, state, "bob")
    assert seats.secret_from(RS, state, chosen) is None


def test_a_stack_is_chosen_in_the_open():
    state = run(RS.initial(), FirstPlayerChosen(player="alice"))
    offered = seats.offered(RS, state, "carol")
    assert offered and offered == list(RS.legal(state))
    assert all(seats.owner(RS, e) is None and seats.seen(RS, state, e, "carol") == e
               for e in offered)


def test_a_player_enters_only_their_own_plays_and_targets():
    # alice's turn: bob is offered none of her plays; a target is the player who aims it
    state = started()
    assert seats.offered(RS, state, "bob") == []
    assert all(seats.owner(RS, e) == "alice" for e in seats.offered(RS, state, "alice"))
    assert seats.owner(RS, PlayerTargeted(player="alice", target="bob")) == "alice"


# -- SECRETS ---------------------------------------------------------------------------------


def before_draw(**options) -> State:
    """Returns the table at set-up's end: alice (the First Player) draws first."""
    return run(RS.bind(header(PLAYERS, **options)).initial(), *setup_events()[:11])


def test_a_card_drawn_is_known_to_its_drawer_alone():
    # Player Decks: alice draws into her hand; bob and carol see that she drew, not what
    state = before_draw()
    drawn = CardDrawn(player="alice", card="Domination")
    assert seats.owner(RS, drawn) == "alice"
    assert seats.secret_from(RS, state, drawn) == ("card",)
    assert seats.seen(RS, state, drawn, "alice") == drawn
    assert seats.seen(RS, state, drawn, "bob") == CardDrawn(player="alice", card="?")
    assert seats.seen(RS, state, drawn, None) == drawn  # the umpire


def test_cards_used_and_discarded_are_shown():
    # Each Game Turn: a card played and a Discard (to a face-up pile, from a face-up stack)
    state = with_hand(started(), "alice", "Domination", "Fog of War", "Megastorm")
    for ev in (CardPlayed(player="alice", card="Megastorm", use=Use.BUILD),
               CardsDiscarded(player="alice", cards=("Domination", "Fog of War"),
                              taken="Insurgents")):
        assert RS.check(state, ev) is None
        assert seats.secret_from(RS, state, ev) is None and seats.seen(RS, state, ev, "bob") == ev


# -- candidates and held ---------------------------------------------------------------------


def test_a_drawer_is_offered_the_kinds_of_card_in_their_own_deck():
    # alice's deck holds Domination and Fog of War; bob holds Fog of War cards or none: the
    # same list, Fog of War in it, and bob is offered nothing while alice draws
    state = before_draw()
    state = replace(state, decks={**state.decks, "alice": {"Fog of War": 1, "Domination": 3}})
    one = with_hand(state, "bob", "Fog of War", "Fog of War")
    other = with_hand(state, "bob", "Domination")
    want = [CardDrawn(player="alice", card=c) for c in ("Domination", "Fog of War")]
    assert list(RS.candidates(one, "alice")) == list(RS.candidates(other, "alice")) == want
    assert seats.offered(RS, one, "alice") == want
    assert sorted(RS.legal(one), key=str) == sorted(want, key=str)  # all she cannot rule out
    assert seats.offered(RS, one, "bob") == []


def test_the_hand_panel_is_the_players_own_hand():
    state = with_hand(started(), "bob", "Fog of War", "Megastorm")
    assert RS.held(RS.view(state, "bob"), "bob") == (seats.Held("Hand", ("Fog of War", "Megastorm")),)
    assert RS.held(RS.view(state, "alice"), "alice") == (seats.Held("Hand", ("Domination",) * 4),)


# -- non-interference ------------------------------------------------------------------------


def received(state: State, seat: str) -> list[bytes]:
    """Returns everything `seat` receives of a state, as bytes."""
    d, o = RS.pending(state), RS.outcome(state)
    view = RS.view(state, seat)
    out = [msgspec.json.encode(view), msgspec.json.encode(RS.held(view, seat)),
           msgspec.json.encode(seats.offered(RS, state, seat)),
           (d.detail if d else "").encode(), (o.summary if o else "").encode()]
    h = state.steps[0] if state.steps else None
    if d and d.actor == CHANCE and h and h.step is Step.DRAW and h.player == seat:
        out.append(msgspec.json.encode(list(RS.candidates(state, seat))))
    return out


def drawn_svg(state: State, seat: str) -> list[bytes]:
    return [pictures.draw(RS, state, seat).svg().encode(),
            pictures.draw(RS, state, seat, narrow=True).svg().encode()]


def simulated(players: tuple[str, ...], options: dict, seed: int) -> tuple[list, list]:
    """Returns the events of a simulated game and the state before each."""
    events, befores = [], []
    rs = RS.bind(header(players, **options))
    before = rs.initial()
    for ev, after in simulate.play(rs, header(players, **options), seed):
        events.append(ev)
        befores.append(before)
        before = after
    return events, befores


def swaps(events: list, befores: list, scoring: bool) -> list[tuple[int, str]]:
    """Returns, for each Game Turn, a draw that can have another outcome (the one whose card
    its drawer keeps hidden longest), its position and another card of the drawer's deck
    (`scoring`: one of the two may be played in the scoring step, else neither)."""
    timely = RS.lk.at_scoring
    best: dict[int, tuple[int, int, str]] = {}
    for i, (ev, before) in enumerate(zip(events, befores, strict=True)):
        if not isinstance(ev, CardDrawn):
            continue
        others = [c for c in sorted(before.decks[ev.player]) if c != ev.card
                  and scoring == ((c in timely) != (ev.card in timely))]
        if not others:
            continue
        shown = next((j for j in range(i + 1, len(events)) if shows(events[j], ev.player,
                                                                    (ev.card, others[0]))),
                     len(events))
        turn = before.game_turn
        if turn not in best or shown - i > best[turn][0]:
            best[turn] = (shown - i, i, others[0])
    return [(i, card) for _, i, card in best.values()]


def shows(ev, player: str, cards: tuple[str, ...]) -> bool:
    """Returns whether `player` uses or draws one of `cards` in `ev` (where a twin may end)."""
    named = (getattr(ev, "card", None), *getattr(ev, "cards", ()))
    return getattr(ev, "player", None) == player and any(c in cards for c in named)


def twin(events: list, start: State, i: int, card: str, keep_turn: bool
         ) -> tuple[list, list]:
    """Returns two histories from event i (`card` drawn there in the second), played on as
    far as the events after it are legal in both and (`keep_turn`) the Game Turn lasts:
    [(event, event)] and [(state before, state before)], then the states after the last."""
    swapped = replace(events[i], card=card)
    evs, states = [(events[i], swapped)], [(start, start)]
    sa, sb = RS.apply(start, events[i]), RS.apply(start, swapped)
    for ev in events[i + 1:]:
        if RS.check(sa, ev) is not None or RS.check(sb, ev) is not None:
            break
        na, nb = RS.apply(sa, ev), RS.apply(sb, ev)
        if keep_turn and na.game_turn != sa.game_turn:
            break  # option hands=discard: the hands go face up on the discard piles
        states.append((sa, sb))
        evs.append((ev, ev))
        sa, sb = na, nb
    states.append((sa, sb))
    return evs, states


def non_interference(options: dict, players: tuple[str, ...], seed: int, scoring: bool = False
                     ) -> tuple[int, int, list]:
    """Returns (pairs, comparisons, leaks) over a simulated game's pairs of histories, each
    seat but the drawer's compared at every position."""
    events, befores = simulated(players, options, seed)
    n = compared = 0
    leaks = []
    for i, card in swaps(events, befores, scoring):
        evs, states = twin(events, befores[i], i, card, options.get("hands") == "discard")
        n += 1
        for seat in (p for p in players if p != events[i].player):
            for k, (sa, sb) in enumerate(states):
                got_a, got_b = received(sa, seat), received(sb, seat)
                if k % 8 == 1 or k == len(states) - 1:  # the drawings, at a few points
                    got_a += drawn_svg(sa, seat)
                    got_b += drawn_svg(sb, seat)
                if k < len(evs):  # the event entered in this state, as the seat is told it
                    for got, e, s in ((got_a, evs[k][0], sa), (got_b, evs[k][1], sb)):
                        shown = seats.seen(RS, s, e, seat)
                        got += [msgspec.json.encode(shown), RS.describe(shown).encode()]
                compared += len(got_a)
                if got_a != got_b:
                    leaks.append((seed, i, seat, k))
    return n, compared, leaks


@pytest.mark.parametrize(("options", "players", "seed"), [
    ({}, PLAYERS, 1),
    ({"hands": "discard"}, PLAYERS, 2),
    ({"two_players": True}, ("alice", "bob"), 3),
    ({"hands": "discard", "resource_gain": "once"}, ("ann", "ben", "cy", "dee"), 4),
])
def test_a_card_another_player_drew_changes_nothing_a_seat_receives(options, players, seed):
    # pairs of histories that differ only in one card another player drew, at each Game
    # Turn of a simulated game, played on as long as the card stays hidden
    n, compared, leaks = non_interference(options, players, seed)
    assert n >= 5 and compared > 300
    assert leaks == []


def fog_or_not(rs) -> tuple[State, State]:
    """Returns the scoring step of two histories judged by `rs`: alice draws Fog of War in
    one, Domination in the other; everyone then ends their turns."""
    state = before_draw()
    state = replace(state, decks={**state.decks, "alice": {"Fog of War": 1, "Domination": 4}})
    rest: list[Event] = [CardDrawn(player="alice", card="Domination")] * 3
    rest += [CardDrawn(player=p, card="Domination") for p in ("bob", "carol") for _ in range(4)]
    rest += [TurnEnded(player=p) for p in PLAYERS]
    return (story.play(rs, state, CardDrawn(player="alice", card="Fog of War"), *rest),
            story.play(rs, state, CardDrawn(player="alice", card="Domination"), *rest))


@pytest.mark.rule("gd.score.window")
def test_who_holds_a_scoring_card_does_not_show_in_the_scoring_step():
    # rules 1.2: alice is asked whatever she holds, so bob receives the same in both
    a, b = fog_or_not(RS)
    assert a.phase is Phase.SCORING and b.phase is Phase.SCORING
    assert present(RS.pending(a)).actor == present(RS.pending(b)).actor == "alice"
    assert received(a, "bob") == received(b, "bob")
    assert drawn_svg(a, "bob") == drawn_svg(b, "bob")


@pytest.mark.rule("gd.score.window")
def test_rules_1_1_show_who_holds_a_scoring_card_in_the_scoring_step():
    # what a log recorded under rules 1.1 exposes, judged as 1.1 judged it: alice holding no
    # card for the scoring step is skipped (with no such card anywhere the step does not
    # happen at all), so whose say it is, `scored` and the drawings tell bob what she holds
    rs = RS.bind(header(), "1.1")
    a, b = fog_or_not(rs)
    assert a.phase is Phase.SCORING and present(rs.pending(a)).actor == "alice"
    assert b.phase is Phase.DRAW and b.game_turn == 2  # nobody was asked: the next draws
    assert present(rs.pending(a)).detail != present(rs.pending(b)).detail
    assert msgspec.json.encode(rs.view(a, "bob")) != msgspec.json.encode(rs.view(b, "bob"))


def test_the_check_finds_a_view_that_shows_another_hand(monkeypatch):
    # (the check has teeth: with every hand shown, the pairs differ for the other seats)
    from tabletape.games.global_domination import lookups
    monkeypatch.setattr(lookups, "view", lambda state, player: state)
    _, _, leaks = non_interference({"two_players": True}, ("alice", "bob"), 3)
    assert leaks


@pytest.mark.rule("gd.score.window")
def test_a_scoring_card_another_player_drew_changes_nothing_a_seat_receives():
    # rules 1.2: pairs of histories in which the card drawn is a scoring card in one and not
    # in the other, played on through the scoring step (each player asked, whatever they hold)
    n, compared, leaks = non_interference({}, PLAYERS, 3, scoring=True)
    assert n >= 5 and compared > 1000
    assert leaks == []
