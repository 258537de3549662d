"""The Action cards' texts, one story per card (The Cards)."""

from __future__ import annotations

from tabletape.games.global_domination.events import (
    CardPlayed,
    ChainAnswered,
    ForceBuilt,
    ForceReduced,
    ForceRemoved,
    ForceSeized,
    PlayerTargeted,
    PointsForgone,
    ScoringPassed,
    Use,
)
from tabletape.games.global_domination.state import Force, Phase, Step

from .helpers import RS, pass_all, refused, run, started, with_board, with_hand

F, S = True, False


def text(player: str, card: str) -> CardPlayed:
    return CardPlayed(player=player, card=card, use=Use.TEXT)


def holding(card: str, player: str = "alice", **board: str):
    return with_board(with_hand(started(), player, card), **board)


def test_control_cards_score_their_resource():
    # gd.card.resource-vp: alice holds two of the three Ore Areas
    state = holding("Ore Control", Canada="alice?", Russia="alice", Central_Africa="bob")
    state = run(state, text("alice", "Ore Control"))
    assert state.vp["alice"] == 1 + 2


def test_airborne_forces_mixes_six_land_points():
    # gd.card.airborne: alice builds in Canada and reduces bob in Brazil, land only
    state = run(holding("Airborne Forces", Brazil="bob"), text("alice", "Airborne Forces"))
    assert state.steps[0].step is Step.LAND_MIX and state.steps[0].points == 6
    state = run(state, ForceBuilt(player="alice", area="Canada"),
                ForceReduced(player="alice", area="Brazil"))
    assert refused(state, ForceBuilt(player="alice", area="Arctic Ocean")) == "gd.card.airborne"
    assert state.steps[0].points == 4 and state.board["Brazil"] == Force("bob", S)


def test_airborne_forces_at_any_time():
    # gd.card.airborne.timing: on alice's turn, bob plays Airborne Forces out of turn
    state = holding("Airborne Forces", player="bob")
    state = run(state, text("bob", "Airborne Forces"), ForceBuilt(player="bob", area="Canada"),
                PointsForgone(player="bob"))
    # it is still alice's turn, and bob's play was not her use of a card
    assert state.current == "alice" and not state.used
    # bob may not play it for its Build points out of turn
    state = with_hand(state, "bob", "Airborne Forces")
    assert refused(state, CardPlayed(player="bob", card="Airborne Forces", use=Use.BUILD)) == "gd.play.order"
    # in the scoring step any player may play it, even the one who is not to decide
    state = with_hand(pass_all(with_hand(state, "alice", "Fog of War")), "carol", "Airborne Forces")
    assert state.phase is Phase.SCORING and RS.pending(state).actor == "alice"
    state = run(state, text("carol", "Airborne Forces"), ForceBuilt(player="carol", area="India"),
                PointsForgone(player="carol"), ScoringPassed(player="alice"),
                ScoringPassed(player="bob"))  # bob still holds Airborne Forces
    assert state.game_turn == 2 and state.vp["carol"] == 2


def test_amphibious_assault_lands_next_to_own_seas():
    # gd.card.amphibious: alice controls the South Atlantic, so Brazil is in reach; India is not
    state = holding("Amphibious Assault", South_Atlantic="alice?")
    state = run(state, CardPlayed(player="alice", card="Amphibious Assault", use=Use.BUILD))
    assert refused(state, ForceBuilt(player="alice", area="India")) == "gd.card.amphibious"
    assert refused(state, ForceBuilt(player="alice", area="South Atlantic")) == "gd.card.amphibious"
    state = run(state, ForceBuilt(player="alice", area="Brazil"))
    assert state.board["Brazil"] == Force("alice", S)


def test_attack_helicopters_strike_next_to_own_land():
    # gd.card.helicopters: alice holds Canada; bob's United States is next to it, his China is not
    state = holding("Attack Helicopters", Canada="alice", United_States="bob", China="bob")
    state = run(state, CardPlayed(player="alice", card="Attack Helicopters", use=Use.ATTACK))
    assert refused(state, ForceReduced(player="alice", area="China")) == "gd.card.helicopters"
    state = run(state, ForceReduced(player="alice", area="United States"))
    assert state.board["United States"] == Force("bob", S)


def test_carrier_task_forces_act_at_sea():
    # gd.card.carrier: Builds only in Sea Areas
    state = run(holding("Carrier Task Forces"), CardPlayed(player="alice", card="Carrier Task Forces",
                                                           use=Use.BUILD))
    assert refused(state, ForceBuilt(player="alice", area="Canada")) == "gd.card.carrier"
    state = run(state, ForceBuilt(player="alice", area="North Pacific"))
    assert "North Pacific" in state.board


def test_restriction_cards_have_no_separate_text():
    # gd.card.restriction-text: their text only places their own points
    state = holding("Carrier Task Forces")
    assert refused(state, text("alice", "Carrier Task Forces")) == "gd.use.text-none"


def test_aimed_cards_choose_another_player():
    # gd.card.target: Bad Leadership must be aimed at someone else at the table
    state = run(holding("Bad Leadership"), text("alice", "Bad Leadership"))
    assert refused(state, PlayerTargeted(player="alice", target="alice")) == "gd.card.target"
    assert refused(state, PlayerTargeted(player="alice", target="zed")) == "gd.card.target"
    assert refused(state, PointsForgone(player="alice")) == "gd.play.step"


def test_bad_leadership_struggles_a_players_full_forces():
    # gd.card.bad-leadership: all of bob's Full Forces become Struggling, carol's are untouched
    state = holding("Bad Leadership", Canada="bob", Mexico="bob?", India="carol")
    state = run(state, text("alice", "Bad Leadership"), PlayerTargeted(player="alice", target="bob"))
    assert state.board["Canada"] == Force("bob", S) and state.board["India"] == Force("carol", F)


def test_bio_weapons_chain_goes_left_until_declined():
    # gd.card.bio-weapons: alice reduces 2, then bob joins, then carol declines
    state = holding("Bio Weapons", Canada="bob", Mexico="carol", India="alice")
    state = run(state, text("alice", "Bio Weapons"))
    assert refused(state, PointsForgone(player="alice")) == "gd.step.forgo"
    state = run(state, ForceReduced(player="alice", area="Canada"),
                ForceReduced(player="alice", area="Canada"))
    assert RS.pending(state).actor == "bob"
    state = run(state, ChainAnswered(player="bob", joined=True),
                ForceReduced(player="bob", area="India"), ForceReduced(player="bob", area="Mexico"))
    state = run(state, ChainAnswered(player="carol", joined=False))
    assert state.steps == () and state.current == "alice"
    assert state.board == {"India": Force("alice", S), "Mexico": Force("carol", S)}
    assert state.discards["alice"] == ("Bio Weapons",)


def test_bio_weapons_chain_needs_a_target_to_join():
    # gd.card.bio-weapons.chain: with only bob's Force left, bob cannot join
    state = holding("Bio Weapons", Canada="bob")
    state = run(state, text("alice", "Bio Weapons"), ForceReduced(player="alice", area="Canada"))
    state = with_board(state, Mexico="bob")
    state = run(state, ForceReduced(player="alice", area="Mexico"))
    assert refused(state, ChainAnswered(player="bob", joined=True)) == "gd.card.bio-weapons.chain"


def test_fog_of_war_denies_other_region_monopolies():
    # gd.card.fog: bob holds all of North America, alice plays Fog of War at scoring
    state = holding("Fog of War", Canada="bob?", United_States="bob?", Mexico="bob?", India="alice?")
    state = pass_all(state)
    # (with no scoring card left, alice is skipped and scoring follows at once)
    state = run(state, text("alice", "Fog of War"))
    assert state.game_turn == 2
    assert state.vp["bob"] == 1 + 3 and state.vp["alice"] == 1 + 1
    # the card goes back to its stack, not to alice's discard pile
    assert state.stacks["Fog of War"] == 7 and "Fog of War" not in state.discards["alice"]


def test_fog_of_war_text_only_when_scoring():
    # gd.card.fog.timing: on a turn its text is refused, its 6 Builds are not (the Build example)
    state = holding("Fog of War", Canada="alice?", Mexico="alice?")
    assert refused(state, text("alice", "Fog of War")) == "gd.card.fog.timing"
    state = run(state, CardPlayed(player="alice", card="Fog of War", use=Use.BUILD))
    assert state.steps[0].points == 6


def test_global_disruption_removes_a_land_force_in_every_region():
    # gd.card.global-disruption: Forces in North America and Asia, one each must go
    state = holding("Global Disruption", Canada="bob", Mexico="alice", India="carol?", Arctic_Ocean="bob")
    state = run(state, text("alice", "Global Disruption"))
    assert state.steps[0].region == "North America"
    assert refused(state, ForceRemoved(player="alice", area="India")) == "gd.card.global-disruption"
    assert refused(state, PointsForgone(player="alice")) == "gd.step.forgo"
    state = run(state, ForceRemoved(player="alice", area="Canada"),
                ForceRemoved(player="alice", area="India"))
    assert state.steps == ()
    assert state.board == {"Mexico": Force("alice", F), "Arctic Ocean": Force("bob", F)}


def test_insurgents_turn_struggling_land_forces_into_own_full_ones():
    # gd.card.insurgents: bob's Struggling Canada becomes alice's Full Force
    state = holding("Insurgents", Canada="bob?", Mexico="bob", Arctic_Ocean="carol?")
    state = run(state, text("alice", "Insurgents"))
    assert refused(state, ForceSeized(player="alice", area="Mexico")) == "gd.card.insurgents"
    assert refused(state, ForceSeized(player="alice", area="Arctic Ocean")) == "gd.card.insurgents"
    state = run(state, ForceSeized(player="alice", area="Canada"))
    assert state.board["Canada"] == Force("alice", F) and state.steps == ()


def test_megastorm_halves_every_player_including_oneself():
    # gd.card.megastorm: alice has 4 Forces, bob 3, carol 1 -> 2, 1 and 0 Reductions
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


def test_megastorm_rounding_option():
    # gd.card.megastorm.rounding: with rounding up, bob's 3 Forces cost him 2 Reductions
    state = with_board(with_hand(started(megastorm_rounding="up"), "alice", "Megastorm"),
                       China="bob", Russia="bob", Indonesia="bob", Canada="carol")
    state = run(state, text("alice", "Megastorm"))
    assert [(s.target, s.points) for s in state.steps] == [("bob", 2), ("carol", 1)]
