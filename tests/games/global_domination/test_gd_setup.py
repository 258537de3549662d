"""Start of the Game and Start of Each Game Turn, one story per rule."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from tabletape.games.global_domination.events import (
    ActionStackChosen,
    CardDrawn,
    FirstPlayerChosen,
    ForceBuilt,
    TurnEnded,
)
from tabletape.games.global_domination.state import Phase
from tabletape.tape.errors import UsageError

from .helpers import PLAYERS, RS, STACKS, header, pass_all, refused, run, setup_events, started


def test_three_to_six_players():
    # gd.setup.players: two or seven players cannot start a game
    with pytest.raises(UsageError):
        header(("alice", "bob"))
    with pytest.raises(UsageError):
        header(tuple(f"p{i}" for i in range(7)))
    assert header(tuple(f"p{i}" for i in range(6))).players[5] == "p5"


def test_first_player_is_a_recorded_chance_event():
    # gd.setup.first: nothing happens before chance names the First Player
    state = RS.bind(header()).initial()
    assert refused(state, ActionStackChosen(card="Megastorm")) == "gd.setup.stacks"
    assert refused(state, CardDrawn(player="alice", card="Domination")) == "gd.setup.first"
    assert refused(state, FirstPlayerChosen(player="zed")) == "gd.setup.first"
    # when bob is chosen, he cannot be chosen again
    state = run(state, FirstPlayerChosen(player="bob"))
    assert state.first == "bob"
    assert refused(state, FirstPlayerChosen(player="carol")) == "gd.setup.first"


def test_ten_distinct_action_stacks_are_chosen_one_by_one():
    # gd.setup.stacks: each pick is a different Action type of the box
    state = run(RS.bind(header()).initial(), FirstPlayerChosen(player="alice"),
                ActionStackChosen(card="Megastorm"))
    assert refused(state, ActionStackChosen(card="Megastorm")) == "gd.setup.stacks"
    assert refused(state, ActionStackChosen(card="Domination")) == "gd.setup.stacks"
    assert len(list(RS.legal(state))) == 23
    # after ten picks the stacks are set and the Game Turn's draws begin
    state = run(RS.bind(header()).initial(), *setup_events()[:11])
    assert state.phase is Phase.DRAW and set(state.stacks) == set(STACKS)
    assert refused(state, ActionStackChosen(card="Ore Control")) == "gd.setup.stacks"


def test_no_strategic_bombers_in_the_box():
    # gd.card.strategic-bombers: the Discard 1 example's card is a stray, not a stack
    state = run(RS.bind(header()).initial(), FirstPlayerChosen(player="alice"))
    assert "Strategic Bombers" not in {c.name for c in RS.default_components().cards}
    assert refused(state, ActionStackChosen(card="Strategic Bombers")) == "gd.setup.stacks"


def test_tracks_start_at_four_and_one():
    # gd.setup.tracks: Logistics 4, VP 1, Turn track at Start
    state = RS.bind(header()).initial()
    assert set(state.logistics.values()) == {4} and set(state.vp.values()) == {1}
    assert state.game_turn == 0


def test_each_deck_is_four_domination_cards():
    # gd.setup.deck: four Domination cards per player; too few for the table is refused
    state = RS.bind(header()).initial()
    assert all(d == {"Domination": 4} for d in state.decks.values())
    comp = RS.default_components()
    small = replace(comp, cards=tuple(replace(c, count=12) if c.basic else c for c in comp.cards))
    with pytest.raises(UsageError, match="gd.setup.deck"):
        RS.start(("a", "b", "c", "d"), RS.Options(), small)


def test_components_must_be_coherent():
    # gd.components: a one-way border is refused, a round-trip through JSON is accepted
    comp = RS.default_components()
    again = msgspec.json.decode(msgspec.json.encode(comp), type=RS.Components)
    assert RS.check_header(header()) is None and again == comp
    areas = tuple(replace(a, adjacent=(*a.adjacent, "India")) if a.name == "Canada" else a
                  for a in comp.areas)
    with pytest.raises(UsageError, match="gd.components"):
        RS.start(PLAYERS, RS.Options(), replace(comp, areas=areas))


def test_unknown_area_is_refused():
    # gd.map.area: a Build must name an Area of the map
    state = run(started(), *[])
    from tabletape.games.global_domination.events import CardPlayed, Use
    state = run(state, CardPlayed(player="alice", card="Domination", use=Use.BUILD))
    assert refused(state, ForceBuilt(player="alice", area="Atlantis")) == "gd.map.area"


def test_draws_follow_logistics_from_the_first_player():
    # gd.draw.logistics: bob is First Player, so he draws his 4 first
    state = run(RS.bind(header()).initial(), *setup_events(first="bob")[:11])
    assert [s.player for s in state.steps] == ["bob", "carol", "alice"]
    assert [s.points for s in state.steps] == [4, 4, 4]
    assert refused(state, CardDrawn(player="alice", card="Domination")) == "gd.play.order"


def test_a_draw_must_be_in_the_deck():
    # gd.draw.in-deck: the deck holds only Domination cards
    state = run(RS.bind(header()).initial(), *setup_events()[:11])
    assert refused(state, CardDrawn(player="alice", card="Fog of War")) == "gd.draw.in-deck"
    assert RS.weight(state, CardDrawn(player="alice", card="Domination")) == 4


def test_turn_track_end_ends_the_game():
    # gd.turn.advance: after the last Game Turn's scoring the marker enters End
    state = started()
    assert state.game_turn == 1
    state = pass_all(replace(state, game_turn=6))
    assert state.phase is Phase.OVER and state.game_turn == 7
    assert RS.pending(state) is None and not state.steps


def test_reshuffle_and_exhausted_draws():
    # gd.draw.reshuffle: alice's empty deck is rebuilt from her discard pile
    state = started()
    state = replace(state, hands={p: () for p in PLAYERS},
                    discards={**state.discards, "alice": ("Domination", "Megastorm")},
                    decks={p: {} for p in PLAYERS})
    state = pass_all(state)
    assert state.game_turn == 2 and state.steps[0].player == "alice"
    assert state.decks["alice"] == {"Domination": 1, "Megastorm": 1}
    assert state.discards["alice"] == ()
    # gd.draw.exhausted: she draws her two cards, then the rest of her draw lapses;
    # bob and carol have nothing at all, so play starts
    state = run(state, CardDrawn(player="alice", card="Megastorm"),
                CardDrawn(player="alice", card="Domination"))
    assert state.phase is Phase.PLAY and state.hands["bob"] == ()


def test_hands_are_kept_between_game_turns():
    # gd.hand.carry: unplayed cards stay in hand by default
    state = pass_all(started())
    assert state.hands["alice"] == ("Domination",) * 4
    # with hands=discard they go to the discard pile after scoring
    state = pass_all(started(hands="discard"))
    # (and, her deck being empty, are reshuffled at once for the next draw)
    assert state.hands["alice"] == () and state.decks["alice"] == {"Domination": 4}
    assert state.steps[0].points == 4


def test_ending_a_turn_is_the_current_players():
    # gd.play.order: only alice may end alice's turn
    state = started()
    assert refused(state, TurnEnded(player="bob")) == "gd.play.order"
