"""Start of the Game: players, the First Player, the Action stacks, tracks, decks and the box."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from tabletape.games.global_domination.events import (
    ActionStackChosen,
    CardDrawn,
    CardPlayed,
    FirstPlayerChosen,
    ForceBuilt,
    Use,
)
from tabletape.games.global_domination.state import Phase
from tabletape.tape.errors import UsageError

from .helpers import PLAYERS, RS, STACKS, header, refused, run, setup_events


@pytest.mark.rule("gd.setup.players", "gd.setup.two-players")
def test_three_to_six_players_by_default():
    # two players need the option, seven cannot start a game at all
    with pytest.raises(UsageError, match="gd.setup.two-players"):
        header(("alice", "bob"))
    with pytest.raises(UsageError):
        header(tuple(f"p{i}" for i in range(7)))
    with pytest.raises(UsageError):
        header(("alice",), two_players=True)
    assert header(tuple(f"p{i}" for i in range(6))).players[5] == "p5"
    assert header(PLAYERS, two_players=True).players == PLAYERS


@pytest.mark.rule("gd.setup.players", "gd.setup.two-players")
def test_start_of_the_game_two_players_with_the_option():
    # with two_players, alice and bob start a game and draw their four cards each
    h = header(("alice", "bob"), two_players=True)
    rs = RS.bind(h)
    state = rs.initial()
    for ev in setup_events(("alice", "bob")):
        assert rs.check(state, ev) is None
        state = rs.apply(state, ev)
    assert state.phase is Phase.PLAY and state.current == "alice"
    assert all(len(hand) == 4 for hand in state.hands.values())


@pytest.mark.rule("gd.setup.first", "gd.setup.stacks")
def test_first_player_is_a_recorded_chance_event():
    # nothing happens before chance names the First Player
    state = RS.bind(header()).initial()
    assert refused(state, ActionStackChosen(card="Megastorm")) == "gd.setup.stacks"
    assert refused(state, CardDrawn(player="alice", card="Domination")) == "gd.setup.first"
    assert refused(state, FirstPlayerChosen(player="zed")) == "gd.setup.first"
    # when bob is chosen, he cannot be chosen again
    state = run(state, FirstPlayerChosen(player="bob"))
    assert state.first == "bob"
    assert refused(state, FirstPlayerChosen(player="carol")) == "gd.setup.first"


@pytest.mark.rule("gd.setup.stacks")
def test_ten_distinct_action_stacks_are_chosen_one_by_one():
    # each pick is a different Action type of the box
    state = run(RS.bind(header()).initial(), FirstPlayerChosen(player="alice"),
                ActionStackChosen(card="Megastorm"))
    assert refused(state, ActionStackChosen(card="Megastorm")) == "gd.setup.stacks"
    assert refused(state, ActionStackChosen(card="Domination")) == "gd.setup.stacks"
    assert len(list(RS.legal(state))) == 23
    # after ten picks the stacks are set and the Game Turn's draws begin
    state = run(RS.bind(header()).initial(), *setup_events()[:11])
    assert state.phase is Phase.DRAW and set(state.stacks) == set(STACKS)
    assert refused(state, ActionStackChosen(card="Ore Control")) == "gd.setup.stacks"


@pytest.mark.rule("gd.card.strategic-bombers", "gd.setup.stacks")
def test_no_strategic_bombers_in_the_box():
    # the Discard 1 example's card is a stray, not a stack
    state = run(RS.bind(header()).initial(), FirstPlayerChosen(player="alice"))
    assert "Strategic Bombers" not in {c.name for c in RS.default_components().cards}
    assert refused(state, ActionStackChosen(card="Strategic Bombers")) == "gd.setup.stacks"


@pytest.mark.rule("gd.setup.tracks")
def test_tracks_start_at_four_and_one():
    # Logistics 4, VP 1, Turn track at Start
    state = RS.bind(header()).initial()
    assert set(state.logistics.values()) == {4} and set(state.vp.values()) == {1}
    assert state.game_turn == 0


@pytest.mark.rule("gd.setup.tracks", "gd.components", "gd.build.tokens")
def test_start_of_the_game_each_track_value_has_its_own_provenance():
    # the Logistical start at 4, the VP start at 1, the 4 Domination cards and the 10 stacks
    # are the rulebook's; the track's ends, the Game Turns and the Force tokens are ours
    tracks = RS.default_components().tracks
    assert msgspec.to_builtins(tracks.logistics.provenance) == {
        "low": "reconstructed", "high": "reconstructed", "start": "rulebook"}
    p = tracks.provenance
    assert (p.victory_start, p.turns, p.starting_cards, p.stacks_in_use, p.force_tokens) == (
        "rulebook", "reconstructed", "rulebook", "rulebook", "reconstructed")
    assert (tracks.logistics.start, tracks.victory_start, tracks.starting_cards,
            tracks.stacks_in_use) == (4, 1, 4, 10)


@pytest.mark.rule("gd.build.supply", "gd.build.tokens")
def test_start_of_the_game_each_player_gets_a_set_of_force_tokens():
    # a box with 2 Force tokens per player: alice's Build places two Forces, not three
    comp = RS.default_components()
    small = replace(comp, tracks=replace(comp.tracks, force_tokens=2))
    rs = RS.bind(RS.start(PLAYERS, RS.Options(), small))
    state = rs.initial()
    for ev in [*setup_events(), CardPlayed(player="alice", card="Domination", use=Use.BUILD),
               ForceBuilt(player="alice", area="Canada"), ForceBuilt(player="alice", area="Mexico")]:
        assert rs.check(state, ev) is None
        state = rs.apply(state, ev)
    v = rs.check(state, ForceBuilt(player="alice", area="Brazil"))
    assert v is not None and v.rule == "gd.build.supply"
    assert rs.check(state, ForceBuilt(player="alice", area="Canada")) is None  # an upgrade


@pytest.mark.rule("gd.setup.deck")
def test_each_deck_is_four_domination_cards():
    # four Domination cards per player; too few for the table is refused
    state = RS.bind(header()).initial()
    assert all(d == {"Domination": 4} for d in state.decks.values())
    comp = RS.default_components()
    small = replace(comp, cards=tuple(replace(c, count=12) if c.basic else c for c in comp.cards))
    with pytest.raises(UsageError, match="gd.setup.deck"):
        RS.start(("a", "b", "c", "d"), RS.Options(), small)


@pytest.mark.rule("gd.components")
def test_components_must_be_coherent():
    # a one-way border is refused, a round-trip through JSON is accepted
    comp = RS.default_components()
    again = msgspec.json.decode(msgspec.json.encode(comp), type=RS.Components)
    assert RS.check_header(header()) is None and again == comp
    areas = tuple(replace(a, adjacent=(*a.adjacent, "India")) if a.name == "Canada" else a
                  for a in comp.areas)
    with pytest.raises(UsageError, match="gd.components"):
        RS.start(PLAYERS, RS.Options(), replace(comp, areas=areas))


@pytest.mark.rule("gd.build.tokens")
def test_a_box_written_before_force_tokens_still_reads_with_the_reconstructed_twenty():
    # a box as logs before rules 1.1 carry it: no token count, one provenance label for all
    old = msgspec.to_builtins(RS.default_components())
    old["tracks"].pop("force_tokens", None)  # (20, the default, is left out when written)
    old["tracks"]["provenance"] = "reconstructed"
    old["tracks"]["logistics"]["provenance"] = "reconstructed"
    box: Any = msgspec.convert(old, RS.Components)
    assert box.tracks.force_tokens == 20 and box.tracks.provenance == "reconstructed"
