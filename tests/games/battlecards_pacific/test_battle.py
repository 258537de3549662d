"""If a BATTLECARD Is Drawn, Fighting a Battle, Game Phases, Stalemate."""

from tabletape.games.battlecards_pacific.events import (
    BattleDecided,
    UnitFired,
    UnitWithdrawn,
    WithdrawalFinished,
)
from tabletape.games.battlecards_pacific.state import WITHDRAWAL, Step

from .helpers import ACTION, JAPAN, RS, US, act, discards, draw, refused, table, turned


def test_unmet_prerequisites_discard_the_card():
    # bcp.battle.prerequisites: Midway needs Pearl Harbor in Japanese hands
    state = draw(table(stacks={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)}), "Battle of Midway")
    assert discards(state) == ("Battle of Midway",)
    assert state.turn == US and state.battle is None
    # once Japan holds Pearl Harbor, alice decides whether to fight it
    state = draw(table(won={JAPAN: ("Pearl Harbor",)}), "Battle of Midway")
    assert state.steps[0].step is Step.DECIDE and RS.pending(state).actor == JAPAN


def test_the_aggressor_may_decline():
    # bcp.battle.decide: alice declines Pearl Harbor; the card is discarded, the turn lost
    state = draw(table(stacks={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)}), "Pearl Harbor")
    state = act(state, BattleDecided(player=JAPAN, fight=False))
    assert discards(state) == ("Pearl Harbor",)
    assert state.turn == US and state.vp == {JAPAN: 0, US: 0}


def test_the_aggressor_decides_even_on_the_other_players_draw():
    # bcp.battle.aggressor-decides: alice draws Doolittle Raid, a US attack: bob decides
    state = draw(table(stacks={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)}), "Doolittle Raid")
    assert refused(state, BattleDecided(player=JAPAN, fight=True)) == "bcp.battle.aggressor-decides"
    state = act(state, BattleDecided(player=US, fight=True))
    assert state.battle.aggressor == US and state.battle.side == US


def test_forces_called_ignored_and_default():
    # bcp.battle.forces: neither side has Air: Doolittle Raid is ignored
    state = draw(table(stacks={JAPAN: ("Infantry Division",), US: ("Marine Division",)}),
                 "Doolittle Raid")
    state = act(state, BattleDecided(player=US, fight=True))
    assert discards(state) == ("Doolittle Raid",) and state.vp[US] == 0
    assert state.turn == US
    # only the US has Air: the US wins it by default
    state = draw(table(stacks={JAPAN: ("Infantry Division",), US: ("F4U Corsair",)}),
                 "Doolittle Raid")
    state = act(state, BattleDecided(player=US, fight=True))
    assert state.won[US] == ("Doolittle Raid",) and state.vp[US] == 3


def pearl_harbor(japan, us, **kw):
    """alice (Japan) draws Pearl Harbor and fights it."""
    state = draw(table(stacks={JAPAN: japan, US: us}, **kw), "Pearl Harbor")
    return act(state, BattleDecided(player=JAPAN, fight=True))


def test_aggressor_fires_first_in_each_phase():
    # bcp.battle.rounds: phase 1, alice (aggressor) fires before bob
    state = pearl_harbor(("A6M Zero",), ("F4U Corsair",))
    b = state.battle
    assert (b.round, b.phase, b.side) == (1, 1, JAPAN)
    ev = UnitFired(player=US, unit="F4U Corsair", target="A6M Zero")
    assert refused(state, ev) == "bcp.battle.rounds"
    # the stacks called are turned face up: engaged, no longer on the stacks
    assert state.stacks[JAPAN]["Air"] == () and b.forces[JAPAN] == ("A6M Zero",)


def test_units_fire_only_in_their_phases():
    # bcp.fire.phase: the Kongo lists phases 3 and 4, not 1
    state = pearl_harbor(("A6M Zero", "Kongo Battleship"), ("F4U Corsair",))
    ev = UnitFired(player=JAPAN, unit="Kongo Battleship", target="F4U Corsair")
    assert refused(state, ev) == "bcp.fire.phase"


def test_each_unit_fires_once_per_listed_phase():
    # bcp.fire.each-phase: the Zero fires, misses, and cannot fire again in phase 1
    state = pearl_harbor(("A6M Zero", "D3A Val Dive Bomber"), ("F4U Corsair", "Essex Carrier"))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair"))
    state = act(state, turned(state, ACTION[1]))
    again = UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair")
    assert refused(state, again) == "bcp.fire.each-phase"
    # the Val still owes its shot, then bob's volley comes
    assert state.battle.to_fire == ("D3A Val Dive Bomber",)


def test_withdrawal_phase_after_four_firing_phases():
    # bcp.withdraw.phase: nobody can hit in phases 2-4 here, so after phase 1 comes withdrawal
    state = pearl_harbor(("D3A Val Dive Bomber",), ("Fletcher Destroyer",))
    # Val (phase 1) at Fletcher: needs 3-6; turned 1: no effect
    state = act(state, UnitFired(player=JAPAN, unit="D3A Val Dive Bomber", target="Fletcher Destroyer"))
    state = act(state, turned(state, ACTION[1]))
    # phases 2 and 3: Fletcher fires at the Val (needs 3-3)
    state = act(state, UnitFired(player=US, unit="Fletcher Destroyer", target="D3A Val Dive Bomber"))
    state = act(state, turned(state, ACTION[1]))
    state = act(state, UnitFired(player=US, unit="Fletcher Destroyer", target="D3A Val Dive Bomber"))
    state = act(state, turned(state, ACTION[2]))
    assert state.battle.phase == WITHDRAWAL and state.battle.side == JAPAN
    assert refused(state, WithdrawalFinished(player=US)) == "bcp.withdraw.phase"
    assert refused(state, UnitWithdrawn(player=JAPAN, unit="A6M Zero")) == "bcp.withdraw.phase"
    # alice stays, bob stays: round 2 starts at phase 1
    state = act(state, WithdrawalFinished(player=JAPAN), WithdrawalFinished(player=US))
    assert (state.battle.round, state.battle.phase, state.battle.side) == (2, 1, JAPAN)
    # alice pulls the Val out: bob wins Pearl Harbor and its 5 VP
    state = act(state, UnitFired(player=JAPAN, unit="D3A Val Dive Bomber", target="Fletcher Destroyer"))
    state = act(state, turned(state, ACTION[8]))
    state = act(state, UnitFired(player=US, unit="Fletcher Destroyer", target="D3A Val Dive Bomber"))
    state = act(state, turned(state, ACTION[2]))
    state = act(state, UnitFired(player=US, unit="Fletcher Destroyer", target="D3A Val Dive Bomber"))
    state = act(state, turned(state, ACTION[4]))
    state = act(state, UnitWithdrawn(player=JAPAN, unit="D3A Val Dive Bomber"))
    # bcp.battle.end: the side left in the battle wins the card and its VP
    assert state.battle is None and state.won[US] == ("Pearl Harbor",) and state.vp[US] == 5
    # bcp.battle.survivors: everyone goes home face down
    assert state.stacks[JAPAN]["Air"] == ("D3A Val Dive Bomber",)
    assert state.stacks[US]["Sea"] == ("Fletcher Destroyer",)
    assert state.turn == US


def test_special_victory():
    # bcp.battle.special: Iwo Jima is won by destroying the last enemy Ground unit;
    # the loser's other engaged units are then discarded (the card's data says so)
    state = draw(table(stacks={JAPAN: ("Infantry Division", "A6M Zero"),
                               US: ("Marine Division",)}, turn=US), "Iwo Jima")
    state = act(state, BattleDecided(player=US, fight=True))
    # phases 1 and 2: the Zero (US aggressor has nothing in phase 1-2) fires at the Marines
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="Marine Division"))
    state = act(state, turned(state, ACTION[1]))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="Marine Division"))
    state = act(state, turned(state, ACTION[1]))
    # phase 3: the Marines hit the Infantry Division (needs 4-5, turned 5)
    state = act(state, UnitFired(player=US, unit="Marine Division", target="Infantry Division"))
    state = act(state, turned(state, ACTION[5]))
    assert state.battle is None and state.won[US] == ("Iwo Jima",)
    assert state.stacks[JAPAN]["Air"] == ()
    assert state.arsenal_discard["Japan"] == ("Infantry Division", "A6M Zero")
    assert "special victory" in state.last_battle


def test_stalemate_hands_the_battle_to_the_defender():
    # bcp.stalemate: an I-Boat cannot touch infantry, nor infantry a submarine
    state = draw(table(stacks={JAPAN: ("I-Boat Submarine",), US: ("Army Infantry Division",)}),
                 "Wake Island")
    state = act(state, BattleDecided(player=JAPAN, fight=True))
    assert state.battle is None and state.won[US] == ("Wake Island",) and state.vp[US] == 3
    assert state.stacks[JAPAN]["Sea"] == ("I-Boat Submarine",)  # withdrawn, home again
    assert "stalemate" in state.last_battle


def test_stalemate_test_counts_kept_cards():
    # bcp.stalemate.test: the Corsair's attack on Yamashita equals his defence; only a kept
    # bonus could make a hit, so without one the battle is a stalemate ...
    forces = {JAPAN: ("General Yamashita",), US: ("F4U Corsair",)}
    state = act(draw(table(stacks=forces), "Fall of the Philippines"),
                BattleDecided(player=JAPAN, fight=True))
    assert state.won[US] == ("Fall of the Philippines",)
    # ... but with Codebreakers kept, bob could hit, so the battle is fought
    state = act(draw(table(stacks=forces, kept={US: ("Codebreakers",)}), "Fall of the Philippines"),
                BattleDecided(player=JAPAN, fight=True))
    assert state.battle is not None and state.battle.side == US


def test_a_defender_who_pulls_everything_out_loses():
    # bcp.withdraw.phase: after alice stays, bob withdraws his only unit: alice wins
    state = pearl_harbor(("D3A Val Dive Bomber",), ("Fletcher Destroyer",))
    state = act(state, UnitFired(player=JAPAN, unit="D3A Val Dive Bomber", target="Fletcher Destroyer"))
    state = act(state, turned(state, ACTION[1]))
    state = act(state, UnitFired(player=US, unit="Fletcher Destroyer", target="D3A Val Dive Bomber"))
    state = act(state, turned(state, ACTION[1]))
    state = act(state, UnitFired(player=US, unit="Fletcher Destroyer", target="D3A Val Dive Bomber"))
    state = act(state, turned(state, ACTION[2]))
    state = act(state, WithdrawalFinished(player=JAPAN))
    assert RS.pending(state).actor == US and RS.pending(state).kind == "withdraw"
    state = act(state, UnitWithdrawn(player=US, unit="Fletcher Destroyer"))
    assert state.won[JAPAN] == ("Pearl Harbor",) and state.vp[JAPAN] == 5
    assert state.stacks[US]["Sea"] == ("Fletcher Destroyer",)
