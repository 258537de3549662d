"""The remaining Action cards: Military Base to Tactical Nukes."""

from __future__ import annotations

from tabletape.games.global_domination.events import (
    CardPlayed,
    ForceBuilt,
    ForceReduced,
    ForceRemoved,
    PlayerTargeted,
    PointsForgone,
    Use,
)
from tabletape.games.global_domination.state import Force

from .helpers import refused, run, started, with_board, with_hand

F, S = True, False


def text(player: str, card: str) -> CardPlayed:
    return CardPlayed(player=player, card=card, use=Use.TEXT)


def holding(card: str, player: str = "alice", **board: str):
    return with_board(with_hand(started(**{}), player, card), **board)


def test_military_base_gives_fourteen_builds_on_land_and_sea():
    # gd.card.military-base: Builds in Canada and the Arctic Ocean, then the rest is left
    state = run(holding("Military Base"), text("alice", "Military Base"))
    assert state.steps[0].points == 14
    state = run(state, ForceBuilt(player="alice", area="Canada"),
                ForceBuilt(player="alice", area="Arctic Ocean"), PointsForgone(player="alice"))
    assert state.board == {"Canada": Force("alice", S), "Arctic Ocean": Force("alice", S)}


def test_nuclear_winter_clears_every_struggling_force():
    # gd.card.nuclear-winter: alice's own Struggling Force goes too
    state = holding("Nuclear Winter", Canada="alice?", Mexico="bob", Brazil="carol?")
    state = run(state, text("alice", "Nuclear Winter"))
    assert state.board == {"Mexico": Force("bob", F)}


def test_out_of_supply_removes_isolated_forces():
    # gd.card.out-of-supply: bob's Canada and United States support each other, India stands alone
    state = holding("Out of Supply", Canada="bob", United_States="bob?", India="bob", China="alice")
    state = run(state, text("alice", "Out of Supply"), PlayerTargeted(player="alice", target="bob"))
    assert set(state.board) == {"Canada", "United States", "China"}


def test_propaganda_war_scores_regions_with_a_full_land_force():
    # gd.card.propaganda: Full Forces in North America (twice) and Asia; Struggling Brazil and a sea don't count
    state = holding("Propaganda War", Canada="alice", Mexico="alice", India="alice", Brazil="alice?",
                    Arctic_Ocean="alice")
    state = run(state, text("alice", "Propaganda War"))
    assert state.vp["alice"] == 1 + 2


def test_show_of_force_gives_two_reductions_per_full_force():
    # gd.card.show-of-force: two Full Forces of alice's -> 4 Reductions
    state = holding("Show of Force", Canada="alice", Mexico="alice", Brazil="alice?", India="bob")
    state = run(state, text("alice", "Show of Force"))
    assert state.steps[0].points == 4
    state = run(state, ForceReduced(player="alice", area="India"), ForceReduced(player="alice", area="India"))
    assert state.steps == ()  # nothing opposing is left: the other two lapse


def test_supply_depots_make_all_own_struggling_forces_full():
    # gd.card.supply-depots: alice's two Struggling Forces, not bob's
    state = holding("Supply Depots", Canada="alice?", Arctic_Ocean="alice?", Mexico="bob?")
    state = run(state, text("alice", "Supply Depots"))
    assert state.board["Canada"].full and state.board["Arctic Ocean"].full
    assert not state.board["Mexico"].full


def test_surrender_removes_one_force_per_region_with_a_full_force():
    # gd.card.surrender: alice is Full in North America only; Struggling in Asia earns nothing
    state = holding("Surrender", Canada="alice", Mexico="bob", United_States="carol",
                    India="alice?", China="bob")
    state = run(state, text("alice", "Surrender"))
    assert [s.region for s in state.steps] == ["North America"]
    assert refused(state, ForceRemoved(player="alice", area="China")) == "gd.card.surrender"
    assert refused(state, ForceRemoved(player="alice", area="Canada")) == "gd.card.surrender"
    state = run(state, ForceRemoved(player="alice", area="Mexico"))
    assert "Mexico" not in state.board and state.steps == ()


def test_surrender_own_option_and_skipping():
    # gd.card.surrender with surrender_own: alice may take her own Force, or skip the Region
    state = with_board(with_hand(started(surrender_own=True), "alice", "Surrender"),
                       Canada="alice", Mexico="alice?")
    state = run(state, text("alice", "Surrender"))
    assert refused(state, ForceRemoved(player="alice", area="India")) == "gd.card.surrender"
    state = run(state, PointsForgone(player="alice"))
    assert state.board["Mexico"] == Force("alice", S)


def test_tactical_nukes_struggle_everything():
    # gd.card.tactical-nukes: every Full Force, alice's own included
    state = holding("Tactical Nukes", Canada="alice", Mexico="bob", Arctic_Ocean="carol?")
    state = run(state, text("alice", "Tactical Nukes"))
    assert not any(f.full for f in state.board.values()) and len(state.board) == 3
