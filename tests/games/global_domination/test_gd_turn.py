"""Each Game Turn: order, the five uses of a card, the Discards and the stacks."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.games.global_domination.events import (
    CardPlayed,
    CardsDiscarded,
    ForceBuilt,
    TurnEnded,
    Use,
)
from tabletape.games.global_domination.state import Phase, Step

from .helpers import pass_all, refused, run, started, with_hand

DOM = "Domination"


def play(player: str, card: str, use: Use) -> CardPlayed:
    return CardPlayed(player=player, card=card, use=use)


def test_only_the_current_player_plays():
    # gd.play.order: it is alice's turn; bob cannot play a Domination
    state = started()
    assert refused(state, play("bob", DOM, Use.BUILD)) == "gd.play.order"
    assert refused(state, play("zed", DOM, Use.BUILD)) == "gd.play.order"


def test_owed_steps_come_first():
    # gd.play.step: alice owes 3 Builds, so she cannot play another card yet
    state = run(started(), play("alice", DOM, Use.BUILD))
    assert refused(state, play("alice", DOM, Use.ATTACK)) == "gd.play.step"
    assert refused(state, TurnEnded(player="alice")) == "gd.play.step"


def test_cards_come_from_the_hand():
    # gd.play.in-hand: alice holds no Fog of War
    state = started()
    assert refused(state, play("alice", "Fog of War", Use.BUILD)) == "gd.play.in-hand"
    assert refused(state, play("alice", "Nothing", Use.BUILD)) == "gd.play.in-hand"


def test_a_turn_without_a_card_passes_for_the_game_turn():
    # gd.play.pass: alice uses a card, ends her turn, and is still in
    state = run(started(), play("alice", DOM, Use.BUILD), ForceBuilt(player="alice", area="Canada"))
    state = run(state, *[ForceBuilt(player="alice", area=a) for a in ("Mexico", "Brazil")])
    state = run(state, TurnEnded(player="alice"))
    assert state.passed == () and state.current == "bob"
    # bob ends his turn without a card: he is out until the next Game Turn
    state = run(state, TurnEnded(player="bob"))
    assert state.passed == ("bob",) and state.current == "carol"
    state = run(state, TurnEnded(player="carol"))
    # so after alice's next turn, play skips bob and carol
    assert state.current == "alice"


def test_the_game_turn_ends_when_everyone_has_passed():
    # gd.play.end: three passes in a row lead to scoring and the next Game Turn's draws
    state = pass_all(started())
    assert state.game_turn == 2 and state.phase is Phase.PLAY  # nothing left to draw
    assert state.vp == {"alice": 1, "bob": 1, "carol": 1}


def test_build_use_gives_its_build_points():
    # gd.use.build: Domination gives 3 Builds
    state = run(started(), play("alice", DOM, Use.BUILD))
    assert (state.steps[0].step, state.steps[0].points) == (Step.BUILD, 3)


def test_attack_use_gives_its_reduction_points():
    # gd.use.attack: Domination used to Attack gives 3 Reductions
    state = run(started(), play("alice", DOM, Use.BUILD))
    state = run(state, *[ForceBuilt(player="alice", area=a) for a in ("Canada", "Mexico", "Brazil")])
    state = run(state, TurnEnded(player="alice"), play("bob", DOM, Use.ATTACK))
    assert (state.steps[0].step, state.steps[0].points) == (Step.REDUCE, 3)


def test_domination_has_no_text():
    # gd.use.text-none: a card without its own text cannot be played for it
    state = started()
    assert refused(state, play("alice", DOM, Use.TEXT)) == "gd.use.text-none"


def test_a_use_needs_points():
    # gd.use.zero: Nuclear Winter has no Build points
    state = with_hand(started(), "alice", "Nuclear Winter")
    assert refused(state, play("alice", "Nuclear Winter", Use.BUILD)) == "gd.use.zero"


def test_played_cards_go_to_the_discard_pile():
    # gd.card.discard: the used Domination lies in alice's discard pile
    state = run(started(), play("alice", DOM, Use.BUILD))
    assert state.discards["alice"] == (DOM,) and state.hands["alice"] == (DOM,) * 3


def test_discard_one_takes_a_card_to_the_discard_pile():
    # gd.use.discard1: one Domination buys a Megastorm onto the discard pile
    state = run(started(), CardsDiscarded(player="alice", cards=(DOM,), taken="Megastorm"))
    assert state.discards["alice"] == (DOM, "Megastorm")
    assert state.stacks["Megastorm"] == 5 and state.hands["alice"] == (DOM,) * 3


def test_discard_two_takes_a_card_into_the_hand():
    # gd.use.discard2: two cards buy a Military Base into the hand, playable at once
    state = run(started(), CardsDiscarded(player="alice", cards=(DOM, DOM), taken="Military Base"))
    assert state.hands["alice"] == (DOM, DOM, "Military Base")
    state = run(state, play("alice", "Military Base", Use.TEXT))
    assert state.steps[0].points == 14
    # the two cards are written in alphabetical order
    state = with_hand(started(), "alice", DOM, "Megastorm")
    bad = CardsDiscarded(player="alice", cards=("Megastorm", DOM), taken="Insurgents")
    assert refused(state, bad) == "gd.use.discard2"


def test_discards_are_own_turn_uses():
    # gd.use.discard-turn: bob cannot discard on alice's turn
    state = started()
    assert refused(state, CardsDiscarded(player="bob", cards=(DOM,), taken="Megastorm")) == "gd.play.order"
    # and a discard counts as a use: alice is not passed after it
    state = run(state, CardsDiscarded(player="alice", cards=(DOM,), taken="Megastorm"),
                TurnEnded(player="alice"))
    assert "alice" not in state.passed


def test_only_stacks_in_use_can_be_taken():
    # gd.stack.in-use: Ore Control was not chosen for this game
    state = started()
    assert refused(state, CardsDiscarded(player="alice", cards=(DOM,), taken="Ore Control")) == "gd.stack.in-use"


def test_an_empty_stack_cannot_be_taken():
    # gd.stack.empty: the Megastorm stack has run out
    state = replace(started(), stacks={**started().stacks, "Megastorm": 0})
    assert refused(state, CardsDiscarded(player="alice", cards=(DOM,), taken="Megastorm")) == "gd.stack.empty"


def test_logistical_cost_on_acquisition():
    # gd.cost.logistics: Show of Force moves alice's marker from 4 to 3
    state = run(started(), CardsDiscarded(player="alice", cards=(DOM,), taken="Show of Force"))
    assert state.logistics["alice"] == 3
    # at the track's left end she cannot take Tactical Nukes
    state = replace(state, logistics={**state.logistics, "alice": 1})
    assert refused(state, CardsDiscarded(player="alice", cards=(DOM,), taken="Tactical Nukes")) == "gd.cost.logistics"
