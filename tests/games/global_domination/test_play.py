"""The Game Turn: the draws, the turns, the uses of a card, Builds and Reductions, and every card (The Cards)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from tabletape.games.global_domination import lookups as q
from tabletape.games.global_domination.events import (
    CardDrawn,
    CardPlayed,
    CardsDiscarded,
    ChainAnswered,
    ForceBuilt,
    ForceReduced,
    ForceRemoved,
    ForceSeized,
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    TurnEnded,
    Use,
)
from tabletape.games.global_domination.state import Force, Phase, Step
from tests.narrow import present

from .helpers import (
    PLAYERS,
    RS,
    end_turns,
    header,
    pass_all,
    pass_scoring,
    refused,
    run,
    setup_events,
    started,
    with_board,
    with_hand,
)

DOM = "Domination"
F, S = True, False


def play(player: str, card: str, use: Use) -> CardPlayed:
    return CardPlayed(player=player, card=card, use=use)


def text(player: str, card: str) -> CardPlayed:
    return CardPlayed(player=player, card=card, use=Use.TEXT)


def holding(card: str, player: str = "alice", **board: str):
    return with_board(with_hand(started(), player, card), **board)


def building(**board: str):
    state = with_board(started(), **board)
    return run(state, CardPlayed(player="alice", card=DOM, use=Use.BUILD))


def attacking(**board: str):
    state = with_board(started(), **board)
    return run(state, CardPlayed(player="alice", card=DOM, use=Use.ATTACK))


# -- START OF EACH GAME TURN: the draws --


@pytest.mark.rule("gd.draw.logistics", "gd.play.order")
def test_draws_follow_logistics_from_the_first_player():
    # bob is First Player, so he draws his 4 first
    state = run(RS.bind(header()).initial(), *setup_events(first="bob")[:11])
    assert [s.player for s in state.steps] == ["bob", "carol", "alice"]
    assert [s.points for s in state.steps] == [4, 4, 4]
    assert refused(state, CardDrawn(player="alice", card="Domination")) == "gd.play.order"


@pytest.mark.rule("gd.draw.in-deck")
def test_a_draw_must_be_in_the_deck():
    # the deck holds only Domination cards
    state = run(RS.bind(header()).initial(), *setup_events()[:11])
    assert refused(state, CardDrawn(player="alice", card="Fog of War")) == "gd.draw.in-deck"
    assert RS.weight(state, CardDrawn(player="alice", card="Domination")) == 4


@pytest.mark.rule("gd.draw.reshuffle", "gd.draw.exhausted")
def test_reshuffle_and_exhausted_draws():
    # alice's empty deck is rebuilt from her discard pile
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


# -- EACH GAME TURN: order, the uses of a card, the Discards and the stacks --


@pytest.mark.rule("gd.play.order")
def test_ending_a_turn_is_the_current_players():
    # only alice may end alice's turn
    state = started()
    assert refused(state, TurnEnded(player="bob")) == "gd.play.order"


@pytest.mark.rule("gd.play.order")
def test_only_the_current_player_plays():
    # it is alice's turn; bob cannot play a Domination
    state = started()
    assert refused(state, play("bob", DOM, Use.BUILD)) == "gd.play.order"
    assert refused(state, play("zed", DOM, Use.BUILD)) == "gd.play.order"


@pytest.mark.rule("gd.play.step")
def test_owed_steps_come_first():
    # alice owes 3 Builds, so she cannot play another card yet
    state = run(started(), play("alice", DOM, Use.BUILD))
    assert refused(state, play("alice", DOM, Use.ATTACK)) == "gd.play.step"
    assert refused(state, TurnEnded(player="alice")) == "gd.play.step"


@pytest.mark.rule("gd.play.in-hand")
def test_cards_come_from_the_hand():
    # alice holds no Fog of War
    state = started()
    assert refused(state, play("alice", "Fog of War", Use.BUILD)) == "gd.play.in-hand"
    assert refused(state, play("alice", "Nothing", Use.BUILD)) == "gd.play.in-hand"


@pytest.mark.rule("gd.play.pass")
def test_a_turn_without_a_card_passes_for_the_game_turn():
    # alice uses a card, ends her turn, and is still in
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


@pytest.mark.rule("gd.play.end")
def test_the_game_turn_ends_when_everyone_has_passed():
    # three passes in a row lead to scoring and the next Game Turn's draws
    state = pass_all(started())
    assert state.game_turn == 2 and state.phase is Phase.PLAY  # nothing left to draw
    assert state.vp == {"alice": 1, "bob": 1, "carol": 1}


@pytest.mark.rule("gd.use.build")
def test_build_use_gives_its_build_points():
    # Domination gives 3 Builds
    state = run(started(), play("alice", DOM, Use.BUILD))
    assert (state.steps[0].step, state.steps[0].points) == (Step.BUILD, 3)


@pytest.mark.rule("gd.use.attack")
def test_attack_use_gives_its_reduction_points():
    # Domination used to Attack gives 3 Reductions
    state = run(started(), play("alice", DOM, Use.BUILD))
    state = run(state, *[ForceBuilt(player="alice", area=a) for a in ("Canada", "Mexico", "Brazil")])
    state = run(state, TurnEnded(player="alice"), play("bob", DOM, Use.ATTACK))
    assert (state.steps[0].step, state.steps[0].points) == (Step.REDUCE, 3)


@pytest.mark.rule("gd.use.text-none")
def test_domination_has_no_text():
    # a card without its own text cannot be played for it
    state = started()
    assert refused(state, play("alice", DOM, Use.TEXT)) == "gd.use.text-none"


@pytest.mark.rule("gd.use.zero")
def test_a_use_needs_points():
    # Nuclear Winter has no Build points
    state = with_hand(started(), "alice", "Nuclear Winter")
    assert refused(state, play("alice", "Nuclear Winter", Use.BUILD)) == "gd.use.zero"


@pytest.mark.rule("gd.card.discard")
def test_played_cards_go_to_the_discard_pile():
    # the used Domination lies in alice's discard pile
    state = run(started(), play("alice", DOM, Use.BUILD))
    assert state.discards["alice"] == (DOM,) and state.hands["alice"] == (DOM,) * 3


@pytest.mark.rule("gd.use.discard1")
def test_discard_one_takes_a_card_to_the_discard_pile():
    # one Domination buys a Megastorm onto the discard pile
    state = run(started(), CardsDiscarded(player="alice", cards=(DOM,), taken="Megastorm"))
    assert state.discards["alice"] == (DOM, "Megastorm")
    assert state.stacks["Megastorm"] == 5 and state.hands["alice"] == (DOM,) * 3


@pytest.mark.rule("gd.use.discard2")
def test_discard_two_takes_a_card_into_the_hand():
    # two cards buy a Military Base into the hand, playable at once
    state = run(started(), CardsDiscarded(player="alice", cards=(DOM, DOM), taken="Military Base"))
    assert state.hands["alice"] == (DOM, DOM, "Military Base")
    state = run(state, play("alice", "Military Base", Use.TEXT))
    assert state.steps[0].points == 14


@pytest.mark.rule("gd.use.discard2")
def test_each_game_turn_discard_2_lists_its_two_cards_in_either_order():
    # alice holds a Domination and a Megastorm: the order she names them in is no rule
    state = with_hand(started(), "alice", DOM, "Megastorm")
    one = CardsDiscarded(player="alice", cards=(DOM, "Megastorm"), taken="Insurgents")
    other = CardsDiscarded(player="alice", cards=("Megastorm", DOM), taken="Insurgents")
    assert run(state, one) == run(state, other)
    assert state.hands["alice"] == (DOM, "Megastorm")
    # and both spellings are among the legal events
    legal = set(RS.legal(state))
    assert one in legal and other in legal


@pytest.mark.rule("gd.use.discard-turn", "gd.play.order")
def test_discards_are_own_turn_uses():
    # bob cannot discard on alice's turn
    state = started()
    assert refused(state, CardsDiscarded(player="bob", cards=(DOM,), taken="Megastorm")) == "gd.play.order"
    # and a discard counts as a use: alice is not passed after it
    state = run(state, CardsDiscarded(player="alice", cards=(DOM,), taken="Megastorm"),
                TurnEnded(player="alice"))
    assert "alice" not in state.passed


@pytest.mark.rule("gd.stack.in-use")
def test_only_stacks_in_use_can_be_taken():
    # Ore Control was not chosen for this game
    state = started()
    assert refused(state, CardsDiscarded(player="alice", cards=(DOM,), taken="Ore Control")) == "gd.stack.in-use"


@pytest.mark.rule("gd.stack.empty")
def test_an_empty_stack_cannot_be_taken():
    # the Megastorm stack has run out
    state = replace(started(), stacks={**started().stacks, "Megastorm": 0})
    assert refused(state, CardsDiscarded(player="alice", cards=(DOM,), taken="Megastorm")) == "gd.stack.empty"


@pytest.mark.rule("gd.cost.logistics")
def test_logistical_cost_on_acquisition():
    # Show of Force moves alice's marker from 4 to 3
    state = run(started(), CardsDiscarded(player="alice", cards=(DOM,), taken="Show of Force"))
    assert state.logistics["alice"] == 3
    # at the track's left end she cannot take Tactical Nukes
    state = replace(state, logistics={**state.logistics, "alice": 1})
    assert refused(state, CardsDiscarded(player="alice", cards=(DOM,), taken="Tactical Nukes")) == "gd.cost.logistics"


# -- GAME TERMS: Builds, Reductions and owed points --


@pytest.mark.rule("gd.map.area")
def test_unknown_area_is_refused():
    # a Build must name an Area of the map
    state = run(started(), *[])
    from tabletape.games.global_domination.events import CardPlayed, Use
    state = run(state, CardPlayed(player="alice", card="Domination", use=Use.BUILD))
    assert refused(state, ForceBuilt(player="alice", area="Atlantis")) == "gd.map.area"


@pytest.mark.rule("gd.build.empty")
def test_new_forces_go_into_empty_areas_only():
    # Canada is bob's, so alice cannot build there
    state = building(Canada="bob")
    assert refused(state, ForceBuilt(player="alice", area="Canada")) == "gd.build.empty"
    # an empty Area takes a new Struggling Force
    state = run(state, ForceBuilt(player="alice", area="Mexico"))
    assert state.board["Mexico"] == Force("alice", full=False)


@pytest.mark.rule("gd.build.upgrade")
def test_a_build_upgrades_ones_own_struggling_force():
    # Struggling becomes Full; Full cannot be built further
    state = building(Canada="alice?", Mexico="alice")
    state = run(state, ForceBuilt(player="alice", area="Canada"))
    assert state.board["Canada"].full
    assert refused(state, ForceBuilt(player="alice", area="Mexico")) == "gd.build.upgrade"


def alice_everywhere(state, struggling: tuple[str, ...], empty: tuple[str, ...]):
    """Returns the table with alice in every Area but `empty`, Struggling in `struggling`."""
    return with_board(state, **{a: "alice?" if a in struggling else "alice"
                                for a in RS.lk.areas if a not in empty})


@pytest.mark.rule("gd.build.supply", "gd.build.tokens")
def test_game_terms_a_new_force_needs_a_token_and_removed_forces_give_theirs_back():
    # alice has 20 Force tokens and all 20 are on the map, two of them Struggling
    empty = tuple(list(RS.lk.areas)[-5:])
    state = with_hand(started(), "alice", DOM, DOM, "Nuclear Winter")
    state = alice_everywhere(state, ("Canada", "Mexico"), empty)
    assert RS.lk.tracks.force_tokens == 20 and q.supply(RS.lk, state, "alice") == 0
    # her Build cannot place a new Force, but can make a Struggling one Full
    state = run(state, play("alice", DOM, Use.BUILD))
    assert refused(state, ForceBuilt(player="alice", area=empty[0])) == "gd.build.supply"
    state = run(state, ForceBuilt(player="alice", area="Canada"), PointsForgone(player="alice"))
    # Nuclear Winter takes her Struggling Mexico off the map: its token comes back
    state = run(state, text("alice", "Nuclear Winter"))
    assert "Mexico" not in state.board and q.supply(RS.lk, state, "alice") == 1
    # so one new Force can be built, and no second one
    state = run(state, play("alice", DOM, Use.BUILD), ForceBuilt(player="alice", area=empty[0]))
    assert q.supply(RS.lk, state, "alice") == 0
    assert refused(state, ForceBuilt(player="alice", area=empty[1])) == "gd.build.supply"
    # the only Build left is upgrading the Force just placed
    assert {e.area for e in RS.legal(state) if isinstance(e, ForceBuilt)} == {empty[0]}


@pytest.mark.rule("gd.build.supply", "gd.build.tokens", "gd.step.lapse")
def test_game_terms_builds_lapse_with_no_token_and_nothing_to_upgrade():
    # all 20 of alice's Forces are Full: her 3 Builds have nothing they can do
    state = alice_everywhere(started(), (), tuple(list(RS.lk.areas)[-5:]))
    state = run(state, play("alice", DOM, Use.BUILD))
    assert state.steps == () and state.current == "alice"


@pytest.mark.rule("gd.build.tokens", "gd.card.insurgents")
def test_insurgents_need_a_token_unless_the_force_taken_is_ones_own():
    # alice has no token left; bob's Canada is Struggling, and so is her own Mexico
    state = with_hand(started(), "alice", "Insurgents")
    state = alice_everywhere(state, ("Mexico",), ("Canada", "India", "China", "Brazil", "Argentina"))
    state = with_board(state, Canada="bob?")
    state = run(state, text("alice", "Insurgents"))
    assert refused(state, ForceSeized(player="alice", area="Canada")) == "gd.build.supply"
    # her own Force's token comes back and goes straight out again, made Full
    state = run(state, ForceSeized(player="alice", area="Mexico"))
    assert state.board["Mexico"] == Force("alice", F) and state.steps == ()


@pytest.mark.rule("gd.reduce.effect")
def test_a_reduction_struggles_then_removes():
    # bob's Full Force in Canada is reduced twice
    state = attacking(Canada="bob")
    state = run(state, ForceReduced(player="alice", area="Canada"))
    assert state.board["Canada"] == Force("bob", full=False)
    state = run(state, ForceReduced(player="alice", area="Canada"))
    assert "Canada" not in state.board


@pytest.mark.rule("gd.reduce.opposing")
def test_reductions_hit_opposing_forces():
    # alice cannot Reduce her own Force, nor an empty Area
    state = attacking(Canada="bob", Mexico="alice")
    assert refused(state, ForceReduced(player="alice", area="Mexico")) == "gd.reduce.opposing"
    assert refused(state, ForceReduced(player="alice", area="Brazil")) == "gd.reduce.opposing"


@pytest.mark.rule("gd.step.forgo", "gd.play.step")
def test_points_may_be_forgone():
    # alice leaves her 3 Builds unused and plays on
    state = run(building(), PointsForgone(player="alice"))
    assert state.steps == () and state.current == "alice" and state.used
    assert refused(state, PointsForgone(player="alice")) == "gd.play.step"


@pytest.mark.rule("gd.step.lapse")
def test_a_step_with_nothing_to_do_lapses():
    # no opposing Force on the map, so the Attack's Reductions lapse
    state = attacking(Mexico="alice")
    assert state.steps == () and state.current == "alice"


# -- THE CARDS: one story per card --


CONTROL = [c for c in RS.default_components().cards if c.resource]


@pytest.mark.rule("gd.card.resource-vp")
def test_control_cards_score_their_resource():
    # alice holds two of the three Ore Areas
    state = holding("Ore Control", Canada="alice?", Russia="alice", Central_Africa="bob")
    state = run(state, text("alice", "Ore Control"))
    assert state.vp["alice"] == 1 + 2


@pytest.mark.rule("gd.card.resource-vp")
@pytest.mark.parametrize("card", CONTROL, ids=[c.name for c in CONTROL])
def test_each_control_card_scores_its_own_resource(card):
    # alice holds every Area of this Resource but one; bob holds the last
    areas = [a.name for a in RS.default_components().areas if a.resource == card.resource]
    state = with_board(with_hand(started(), "alice", card.name),
                       **{a.replace(" ", "_"): "alice?" for a in areas[:2]},
                       **{areas[2].replace(" ", "_"): "bob"})
    state = run(state, CardPlayed(player="alice", card=card.name, use=Use.TEXT))
    assert state.vp["alice"] == 1 + 2


@pytest.mark.rule("gd.card.airborne")
def test_airborne_forces_mixes_six_land_points():
    # alice builds in Canada and reduces bob in Brazil, land only
    state = run(holding("Airborne Forces", Brazil="bob"), text("alice", "Airborne Forces"))
    assert state.steps[0].step is Step.LAND_MIX and state.steps[0].points == 6
    state = run(state, ForceBuilt(player="alice", area="Canada"),
                ForceReduced(player="alice", area="Brazil"))
    assert refused(state, ForceBuilt(player="alice", area="Arctic Ocean")) == "gd.card.airborne"
    assert state.steps[0].points == 4 and state.board["Brazil"] == Force("bob", S)


@pytest.mark.rule("gd.card.airborne.timing", "gd.play.order")
def test_airborne_forces_at_any_time():
    # on alice's turn, bob plays Airborne Forces out of turn
    state = holding("Airborne Forces", player="bob")
    state = run(state, text("bob", "Airborne Forces"), ForceBuilt(player="bob", area="Canada"),
                PointsForgone(player="bob"))
    # it is still alice's turn, and bob's play was not her use of a card
    assert state.current == "alice" and not state.used
    # bob may not play it for its Build points out of turn
    state = with_hand(state, "bob", "Airborne Forces")
    assert refused(state, CardPlayed(player="bob", card="Airborne Forces", use=Use.BUILD)) == "gd.play.order"
    # in the scoring step any player may play it, even the one who is not to decide
    state = with_hand(end_turns(with_hand(state, "alice", "Fog of War")), "carol", "Airborne Forces")
    assert state.phase is Phase.SCORING and present(RS.pending(state)).actor == "alice"
    state = run(state, text("carol", "Airborne Forces"), ForceBuilt(player="carol", area="India"),
                PointsForgone(player="carol"), ScoringPassed(player="alice"),
                ScoringPassed(player="bob"),  # bob still holds Airborne Forces
                ScoringPassed(player="carol"))  # carol holds nothing now, and is asked too
    assert state.game_turn == 2 and state.vp["carol"] == 2


@pytest.mark.rule("gd.card.amphibious")
def test_amphibious_assault_lands_next_to_own_seas():
    # alice controls the South Atlantic, so Brazil is in reach; India is not
    state = holding("Amphibious Assault", South_Atlantic="alice?")
    state = run(state, CardPlayed(player="alice", card="Amphibious Assault", use=Use.BUILD))
    assert refused(state, ForceBuilt(player="alice", area="India")) == "gd.card.amphibious"
    assert refused(state, ForceBuilt(player="alice", area="South Atlantic")) == "gd.card.amphibious"
    state = run(state, ForceBuilt(player="alice", area="Brazil"))
    assert state.board["Brazil"] == Force("alice", S)


@pytest.mark.rule("gd.card.helicopters")
def test_attack_helicopters_strike_next_to_own_land():
    # alice holds Canada; bob's United States is next to it, his China is not
    state = holding("Attack Helicopters", Canada="alice", United_States="bob", China="bob")
    state = run(state, CardPlayed(player="alice", card="Attack Helicopters", use=Use.ATTACK))
    assert refused(state, ForceReduced(player="alice", area="China")) == "gd.card.helicopters"
    state = run(state, ForceReduced(player="alice", area="United States"))
    assert state.board["United States"] == Force("bob", S)


@pytest.mark.rule("gd.card.carrier")
def test_carrier_task_forces_act_at_sea():
    # Builds only in Sea Areas
    state = run(holding("Carrier Task Forces"), CardPlayed(player="alice", card="Carrier Task Forces",
                                                           use=Use.BUILD))
    assert refused(state, ForceBuilt(player="alice", area="Canada")) == "gd.card.carrier"
    state = run(state, ForceBuilt(player="alice", area="North Pacific"))
    assert "North Pacific" in state.board


@pytest.mark.rule("gd.card.restriction-text", "gd.use.text-none")
def test_restriction_cards_have_no_separate_text():
    # their text only places their own points
    state = holding("Carrier Task Forces")
    assert refused(state, text("alice", "Carrier Task Forces")) == "gd.use.text-none"


@pytest.mark.rule("gd.card.target", "gd.play.step")
def test_aimed_cards_choose_another_player():
    # Bad Leadership must be aimed at someone else at the table
    state = run(holding("Bad Leadership"), text("alice", "Bad Leadership"))
    assert refused(state, PlayerTargeted(player="alice", target="alice")) == "gd.card.target"
    assert refused(state, PlayerTargeted(player="alice", target="zed")) == "gd.card.target"
    assert refused(state, PointsForgone(player="alice")) == "gd.play.step"


@pytest.mark.rule("gd.card.bad-leadership")
def test_bad_leadership_struggles_a_players_full_forces():
    # all of bob's Full Forces become Struggling, carol's are untouched
    state = holding("Bad Leadership", Canada="bob", Mexico="bob?", India="carol")
    state = run(state, text("alice", "Bad Leadership"), PlayerTargeted(player="alice", target="bob"))
    assert state.board["Canada"] == Force("bob", S) and state.board["India"] == Force("carol", F)


@pytest.mark.rule("gd.card.bio-weapons", "gd.step.forgo")
def test_bio_weapons_chain_goes_left_until_declined():
    # alice reduces 2, then bob joins, then carol declines
    state = holding("Bio Weapons", Canada="bob", Mexico="carol", India="alice")
    state = run(state, text("alice", "Bio Weapons"))
    assert refused(state, PointsForgone(player="alice")) == "gd.step.forgo"
    state = run(state, ForceReduced(player="alice", area="Canada"),
                ForceReduced(player="alice", area="Canada"))
    assert present(RS.pending(state)).actor == "bob"
    state = run(state, ChainAnswered(player="bob", joined=True),
                ForceReduced(player="bob", area="India"), ForceReduced(player="bob", area="Mexico"))
    state = run(state, ChainAnswered(player="carol", joined=False))
    assert state.steps == () and state.current == "alice"
    assert state.board == {"India": Force("alice", S), "Mexico": Force("carol", S)}
    assert state.discards["alice"] == ("Bio Weapons",)


@pytest.mark.rule("gd.card.bio-weapons.chain")
def test_bio_weapons_chain_needs_a_target_to_join():
    # with only bob's Force left, bob cannot join
    state = holding("Bio Weapons", Canada="bob")
    state = run(state, text("alice", "Bio Weapons"), ForceReduced(player="alice", area="Canada"))
    state = with_board(state, Mexico="bob")
    state = run(state, ForceReduced(player="alice", area="Mexico"))
    assert refused(state, ChainAnswered(player="bob", joined=True)) == "gd.card.bio-weapons.chain"


@pytest.mark.rule("gd.card.fog")
def test_fog_of_war_denies_other_region_monopolies():
    # bob holds all of North America, alice plays Fog of War at scoring
    state = holding("Fog of War", Canada="bob?", United_States="bob?", Mexico="bob?", India="alice?")
    state = end_turns(state)
    state = run(state, text("alice", "Fog of War"))
    # (then alice, bob and carol pass in turn, and scoring follows)
    state = pass_scoring(state)
    assert state.game_turn == 2
    assert state.vp["bob"] == 1 + 3 and state.vp["alice"] == 1 + 1
    # the card goes back to its stack, not to alice's discard pile
    assert state.stacks["Fog of War"] == 7 and "Fog of War" not in state.discards["alice"]


@pytest.mark.rule("gd.card.fog.timing")
def test_fog_of_war_text_only_when_scoring():
    # on a turn its text is refused, its 6 Builds are not (the Build example)
    state = holding("Fog of War", Canada="alice?", Mexico="alice?")
    assert refused(state, text("alice", "Fog of War")) == "gd.card.fog.timing"
    state = run(state, CardPlayed(player="alice", card="Fog of War", use=Use.BUILD))
    assert state.steps[0].points == 6


@pytest.mark.rule("gd.card.global-disruption", "gd.step.forgo")
def test_global_disruption_removes_a_land_force_in_every_region():
    # Forces in North America and Asia, one each must go
    state = holding("Global Disruption", Canada="bob", Mexico="alice", India="carol?", Arctic_Ocean="bob")
    state = run(state, text("alice", "Global Disruption"))
    assert state.steps[0].region == "North America"
    assert refused(state, ForceRemoved(player="alice", area="India")) == "gd.card.global-disruption"
    assert refused(state, PointsForgone(player="alice")) == "gd.step.forgo"
    state = run(state, ForceRemoved(player="alice", area="Canada"),
                ForceRemoved(player="alice", area="India"))
    assert state.steps == ()
    assert state.board == {"Mexico": Force("alice", F), "Arctic Ocean": Force("bob", F)}


@pytest.mark.rule("gd.card.insurgents")
def test_insurgents_turn_struggling_land_forces_into_own_full_ones():
    # bob's Struggling Canada becomes alice's Full Force
    state = holding("Insurgents", Canada="bob?", Mexico="bob", Arctic_Ocean="carol?")
    state = run(state, text("alice", "Insurgents"))
    assert refused(state, ForceSeized(player="alice", area="Mexico")) == "gd.card.insurgents"
    assert refused(state, ForceSeized(player="alice", area="Arctic Ocean")) == "gd.card.insurgents"
    state = run(state, ForceSeized(player="alice", area="Canada"))
    assert state.board["Canada"] == Force("alice", F) and state.steps == ()


@pytest.mark.rule("gd.card.megastorm", "gd.step.forgo")
def test_megastorm_halves_every_player_including_oneself():
    # alice has 4 Forces, bob 3, carol 1 -> 2, 1 and 0 Reductions
    board = dict(Canada="alice", Mexico="alice", Brazil="alice", India="alice",
                 China="bob", Russia="bob", Indonesia="bob", Arctic_Ocean="carol")
    state = run(holding("Megastorm", **board), text("alice", "Megastorm"))
    assert [(s.target, s.points) for s in state.steps] == [("alice", 2), ("bob", 1), ("carol", 0)]
    assert refused(state, ForceReduced(player="alice", area="China")) == "gd.card.megastorm"
    state = run(state, ForceReduced(player="alice", area="Canada"),
                ForceReduced(player="alice", area="Canada"))
    assert refused(state, PointsForgone(player="alice")) == "gd.step.forgo"
    state = run(state, ForceReduced(player="alice", area="China"))
    assert state.steps == () and "Canada" not in state.board


@pytest.mark.rule("gd.card.megastorm.rounding")
def test_megastorm_rounding_option():
    # with rounding up, bob's 3 Forces cost him 2 Reductions
    state = with_board(with_hand(started(megastorm_rounding="up"), "alice", "Megastorm"),
                       China="bob", Russia="bob", Indonesia="bob", Canada="carol")
    state = run(state, text("alice", "Megastorm"))
    assert [(s.target, s.points) for s in state.steps] == [("bob", 2), ("carol", 1)]


@pytest.mark.rule("gd.card.military-base")
def test_military_base_gives_fourteen_builds_on_land_and_sea():
    # Builds in Canada and the Arctic Ocean, then the rest is left
    state = run(holding("Military Base"), text("alice", "Military Base"))
    assert state.steps[0].points == 14
    state = run(state, ForceBuilt(player="alice", area="Canada"),
                ForceBuilt(player="alice", area="Arctic Ocean"), PointsForgone(player="alice"))
    assert state.board == {"Canada": Force("alice", S), "Arctic Ocean": Force("alice", S)}


@pytest.mark.rule("gd.card.nuclear-winter")
def test_nuclear_winter_clears_every_struggling_force():
    # alice's own Struggling Force goes too
    state = holding("Nuclear Winter", Canada="alice?", Mexico="bob", Brazil="carol?")
    state = run(state, text("alice", "Nuclear Winter"))
    assert state.board == {"Mexico": Force("bob", F)}


@pytest.mark.rule("gd.card.out-of-supply")
def test_out_of_supply_removes_isolated_forces():
    # bob's Canada and United States support each other, India stands alone
    state = holding("Out of Supply", Canada="bob", United_States="bob?", India="bob", China="alice")
    state = run(state, text("alice", "Out of Supply"), PlayerTargeted(player="alice", target="bob"))
    assert set(state.board) == {"Canada", "United States", "China"}


@pytest.mark.rule("gd.card.propaganda")
def test_propaganda_war_scores_regions_with_a_full_land_force():
    # Full Forces in North America (twice) and Asia; Struggling Brazil and a sea don't count
    state = holding("Propaganda War", Canada="alice", Mexico="alice", India="alice", Brazil="alice?",
                    Arctic_Ocean="alice")
    state = run(state, text("alice", "Propaganda War"))
    assert state.vp["alice"] == 1 + 2


@pytest.mark.rule("gd.card.show-of-force")
def test_show_of_force_gives_two_reductions_per_full_force():
    # two Full Forces of alice's -> 4 Reductions
    state = holding("Show of Force", Canada="alice", Mexico="alice", Brazil="alice?", India="bob")
    state = run(state, text("alice", "Show of Force"))
    assert state.steps[0].points == 4
    state = run(state, ForceReduced(player="alice", area="India"), ForceReduced(player="alice", area="India"))
    assert state.steps == ()  # nothing opposing is left: the other two lapse


@pytest.mark.rule("gd.card.supply-depots")
def test_supply_depots_make_all_own_struggling_forces_full():
    # alice's two Struggling Forces, not bob's
    state = holding("Supply Depots", Canada="alice?", Arctic_Ocean="alice?", Mexico="bob?")
    state = run(state, text("alice", "Supply Depots"))
    assert state.board["Canada"].full and state.board["Arctic Ocean"].full
    assert not state.board["Mexico"].full


@pytest.mark.rule("gd.card.surrender", "gd.card.surrender.own")
def test_surrender_removes_one_force_per_region_with_a_full_force():
    # alice is Full in North America only; Struggling in Asia earns nothing
    state = holding("Surrender", Canada="alice", Mexico="bob", United_States="carol",
                    India="alice?", China="bob")
    state = run(state, text("alice", "Surrender"))
    assert [s.region for s in state.steps] == ["North America"]
    assert refused(state, ForceRemoved(player="alice", area="China")) == "gd.card.surrender"
    # by default her own Canada is not hers to remove
    assert refused(state, ForceRemoved(player="alice", area="Canada")) == "gd.card.surrender.own"
    state = run(state, ForceRemoved(player="alice", area="Mexico"))
    assert "Mexico" not in state.board and state.steps == ()


@pytest.mark.rule("gd.card.surrender", "gd.card.surrender.own")
def test_surrender_removes_only_opposing_forces_by_default():
    # alice has only her own Forces in North America: with nothing opposing, the step lapses
    state = holding("Surrender", Canada="alice", Mexico="alice?")
    state = run(state, text("alice", "Surrender"))
    assert state.steps == () and state.board["Mexico"] == Force("alice", S)


@pytest.mark.rule("gd.card.surrender", "gd.card.surrender.own", "gd.build.supply")
def test_surrender_own_option_removes_any_force_or_skips():
    # with surrender_own: alice may take her own Force (its token goes back to her)
    state = with_board(with_hand(started(surrender_own=True), "alice", "Surrender"),
                       Canada="alice", Mexico="alice?", India="alice", China="bob")
    state = run(state, text("alice", "Surrender"))
    assert [s.region for s in state.steps] == ["North America", "Asia"]
    assert refused(state, ForceRemoved(player="alice", area="India")) == "gd.card.surrender"
    state = run(state, ForceRemoved(player="alice", area="Mexico"))
    assert "Mexico" not in state.board and q.supply(RS.lk, state, "alice") == 18
    # or skip a Region
    state = run(state, PointsForgone(player="alice"))
    assert state.steps == () and state.board["India"] == Force("alice", F)


@pytest.mark.rule("gd.card.tactical-nukes")
def test_tactical_nukes_struggle_everything():
    # every Full Force, alice's own included
    state = holding("Tactical Nukes", Canada="alice", Mexico="bob", Arctic_Ocean="carol?")
    state = run(state, text("alice", "Tactical Nukes"))
    assert not any(f.full for f in state.board.values()) and len(state.board) == 3


@pytest.mark.rule("gd.card.surrender", "gd.card.surrender.own")
def test_surrender_of_ones_own_force_cites_the_judging_versions_rule():
    # judged as 1.0, the refusal cites the card's own rule: 1.0 had no gd.card.surrender.own
    from tabletape.games.global_domination import RULESET
    from tests import story

    from .helpers import header
    old = RULESET.bind(replace(header(), rules_version="1.0"))
    state = holding("Surrender", Canada="alice", Mexico="bob")
    state = run(state, text("alice", "Surrender"))
    own = ForceRemoved(player="alice", area="Canada")
    assert refused(state, own) == "gd.card.surrender.own"
    assert story.refusal(old, state, own).rule == "gd.card.surrender"
    assert "gd.card.surrender.own" not in old.catalogue()
    assert old.governing(own) == tuple(r for r in RS.governing(own) if r != "gd.card.surrender.own")
