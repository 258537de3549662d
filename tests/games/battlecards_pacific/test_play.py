"""Playing the Game, If a BATTLECARD Is Drawn, Fighting a Battle, Game Phases, Firing a Unit,
Stalemate and Emergency Deployment: the sequence of turns, rounds and battles."""

import pytest
from msgspec.structs import replace

from tabletape.games.battlecards_pacific.components import Reveal, UnitType
from tabletape.games.battlecards_pacific.events import (
    ArsenalDrawn,
    BattleDecided,
    CardsRevealed,
    ConflictDrawn,
    DeploymentFinished,
    EmergencyDeclined,
    EmergencyDeployed,
    UnitDeployed,
    UnitFired,
    UnitWithdrawn,
    WithdrawalFinished,
)
from tabletape.games.battlecards_pacific.state import WITHDRAWAL, Step
from tabletape.tape.errors import UsageError
from tests.narrow import present

from .helpers import (
    ACTION,
    GAME,
    JAPAN,
    RS,
    US,
    act,
    discards,
    draw,
    fresh,
    invasion_of_japan,
    pearl_harbor,
    refusal,
    refused,
    table,
    turned,
    with_changes,
)

# -- Playing the Game: turns and the Conflict cards ----------------------------------------

@pytest.mark.rule("bcp.turn.order")
def test_japan_opens_and_turns_alternate():
    # bcp.turn.order: after set-up, Japan (alice) draws first, then the US
    state = table(reserve={JAPAN: ("A6M Zero",)})
    assert state.turn == JAPAN and state.steps[0].step is Step.CHOOSE
    assert refused(state, EmergencyDeclined(player=US)) == "bcp.turn.order"
    state = act(state, EmergencyDeclined(player=JAPAN), ConflictDrawn(player=JAPAN, card="Monsoon"))
    assert state.turn == US


@pytest.mark.rule("bcp.turn.step")
def test_owed_steps_come_first():
    # bcp.turn.step: nobody draws a Conflict card during the deal
    state = fresh()
    assert refused(state, ConflictDrawn(player=JAPAN, card="Monsoon")) == "bcp.turn.step"


@pytest.mark.rule("bcp.conflict.discard")
def test_a_plain_card_is_discarded_and_the_turn_passes():
    # bcp.conflict.discard: Monsoon has no instruction
    state = draw(table(), "Monsoon")
    assert discards(state) == ("Monsoon",)
    assert state.turn == US


@pytest.mark.rule("bcp.conflict.keep")
def test_a_keep_card_stays_with_its_drawer():
    # bcp.conflict.keep: Radar Advantage goes face down beside alice's stacks
    state = draw(table(), "Radar Advantage")
    assert state.kept[JAPAN] == ("Radar Advantage",)
    assert discards(state) == ()
    # the opponent's view shows only that a card is kept
    assert RS.view(state, US).kept[JAPAN] == ("?",)


@pytest.mark.rule("bcp.conflict.draw")
def test_a_draw_card_fills_the_reserve_hand_one_card_at_a_time():
    # bcp.conflict.draw: Reinforcements draws two Arsenal cards
    state = draw(table(), "Reinforcements")
    assert state.steps[0].step is Step.DRAW_ARSENAL and present(RS.pending(state)).actor == "chance"
    state = act(state, ArsenalDrawn(player=JAPAN, unit="A6M Zero"),
                ArsenalDrawn(player=JAPAN, unit="Kagero Destroyer"))
    assert state.reserve[JAPAN] == ("A6M Zero", "Kagero Destroyer")
    assert state.turn == US


@pytest.mark.rule("bcp.conflict.deploy", "bcp.turn.order")
def test_a_deploy_card_allows_up_to_its_number():
    # bcp.conflict.deploy: Mobilization deploys up to two; alice stops after one
    state = draw(table(reserve={JAPAN: ("A6M Zero", "Infantry Division", "Kongo Battleship")}),
                 "Mobilization")
    state = act(state, UnitDeployed(player=JAPAN, unit="A6M Zero", stack=UnitType.AIR))
    assert refused(state, DeploymentFinished(player=US)) == "bcp.turn.order"
    state = act(state, DeploymentFinished(player=JAPAN))
    assert state.stacks[JAPAN]["Air"] == ("A6M Zero",)
    assert state.reserve[JAPAN] == ("Infantry Division", "Kongo Battleship")
    assert state.turn == US


@pytest.mark.rule("bcp.deck.reshuffle")
def test_an_empty_deck_takes_its_discards_back():
    # bcp.deck.reshuffle: the Conflict deck holds one card; drawing it reshuffles the discards
    state = table()
    state = replace(state, conflict={"Pacific": {"Monsoon": 1}},
                    conflict_discard={"Pacific": ("Fog of War", "Monsoon")})
    state = draw(state, "Monsoon")
    assert state.conflict == {"Pacific": {"Fog of War": 1, "Monsoon": 2}}
    assert discards(state) == ()


# -- If a BATTLECARD Is Drawn --------------------------------------------------------------

@pytest.mark.rule("bcp.battle.prerequisites")
def test_unmet_prerequisites_discard_the_card():
    # bcp.battle.prerequisites: Midway needs Pearl Harbor in Japanese hands
    state = draw(table(stacks={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)}), "Battle of Midway")
    assert discards(state) == ("Battle of Midway",)
    assert state.turn == US and state.battle is None
    # once Japan holds Pearl Harbor, alice decides whether to fight it
    state = draw(table(won={JAPAN: ("Pearl Harbor",)}), "Battle of Midway")
    assert state.steps[0].step is Step.DECIDE and present(RS.pending(state)).actor == JAPAN


@pytest.mark.rule("bcp.battle.decide")
def test_the_aggressor_may_decline():
    # bcp.battle.decide: alice declines Pearl Harbor; the card is discarded, the turn lost
    state = draw(table(stacks={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)}), "Pearl Harbor")
    state = act(state, BattleDecided(player=JAPAN, fight=False))
    assert discards(state) == ("Pearl Harbor",)
    assert state.turn == US and state.vp == {JAPAN: 0, US: 0}


@pytest.mark.rule("bcp.battle.aggressor-decides")
def test_the_aggressor_decides_even_on_the_other_players_draw():
    # bcp.battle.aggressor-decides: alice draws Doolittle Raid, a US attack: bob decides
    state = draw(table(stacks={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)}), "Doolittle Raid")
    assert refused(state, BattleDecided(player=JAPAN, fight=True)) == "bcp.battle.aggressor-decides"
    state = act(state, BattleDecided(player=US, fight=True))
    assert state.battle is not None
    assert state.battle.aggressor == US and state.battle.side == US


@pytest.mark.rule("bcp.battle.forces")
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


# -- Fighting a Battle; Game Phases --------------------------------------------------------

@pytest.mark.rule("bcp.battle.rounds")
def test_aggressor_fires_first_in_each_phase():
    # bcp.battle.rounds: phase 1, alice (aggressor) fires before bob
    state = pearl_harbor(("A6M Zero",), ("F4U Corsair",))
    b = state.battle
    assert (b.round, b.phase, b.side) == (1, 1, JAPAN)
    ev = UnitFired(player=US, unit="F4U Corsair", target="A6M Zero")
    assert refused(state, ev) == "bcp.battle.rounds"
    # the stacks called are turned face up: engaged, no longer on the stacks
    assert state.stacks[JAPAN]["Air"] == () and b.forces[JAPAN] == ("A6M Zero",)


@pytest.mark.rule("bcp.fire.phase")
def test_units_fire_only_in_their_phases():
    # bcp.fire.phase: the Kongo lists phases 3 and 4, not 1
    state = pearl_harbor(("A6M Zero", "Kongo Battleship"), ("F4U Corsair",))
    ev = UnitFired(player=JAPAN, unit="Kongo Battleship", target="F4U Corsair")
    assert refused(state, ev) == "bcp.fire.phase"


@pytest.mark.rule("bcp.fire.each-phase")
def test_each_unit_fires_once_per_listed_phase():
    # bcp.fire.each-phase: the Zero fires, misses, and cannot fire again in phase 1
    state = pearl_harbor(("A6M Zero", "D3A Val Dive Bomber"), ("F4U Corsair", "Essex Carrier"))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair"))
    state = act(state, turned(state, ACTION[1]))
    again = UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair")
    assert refused(state, again) == "bcp.fire.each-phase"
    # the Val still owes its shot, then bob's volley comes
    assert state.battle is not None
    assert state.battle.to_fire == ("D3A Val Dive Bomber",)


@pytest.mark.rule("bcp.withdraw.phase", "bcp.battle.end", "bcp.battle.survivors")
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
    assert state.battle is not None
    assert state.battle.phase == WITHDRAWAL and state.battle.side == JAPAN
    assert refused(state, WithdrawalFinished(player=US)) == "bcp.withdraw.phase"
    assert refused(state, UnitWithdrawn(player=JAPAN, unit="A6M Zero")) == "bcp.withdraw.phase"
    # alice stays, bob stays: round 2 starts at phase 1
    state = act(state, WithdrawalFinished(player=JAPAN), WithdrawalFinished(player=US))
    assert state.battle is not None
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


@pytest.mark.rule("bcp.battle.special")
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
    assert "special victory" in present(state.last_battle)


@pytest.mark.rule("bcp.withdraw.phase")
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
    assert present(RS.pending(state)).actor == US and present(RS.pending(state)).kind == "withdraw"
    state = act(state, UnitWithdrawn(player=US, unit="Fletcher Destroyer"))
    assert state.won[JAPAN] == ("Pearl Harbor",) and state.vp[JAPAN] == 5
    assert state.stacks[US]["Sea"] == ("Fletcher Destroyer",)


# -- Firing a Unit -------------------------------------------------------------------------

@pytest.mark.rule("bcp.fire.target")
def test_targets_must_be_engaged_and_attackable():
    # bcp.fire.target: the Val's attack against Air (2) is below the Corsair's defence (3)
    state = pearl_harbor(("A6M Zero", "D3A Val Dive Bomber"), ("F4U Corsair",))
    ev = UnitFired(player=JAPAN, unit="D3A Val Dive Bomber", target="F4U Corsair")
    assert refused(state, ev) == "bcp.fire.target"
    # and bob has no Hellcat in this battle
    ev = UnitFired(player=JAPAN, unit="A6M Zero", target="F6F Hellcat")
    assert refused(state, ev) == "bcp.fire.target"
    # nor does alice have a Betty to fire
    ev = UnitFired(player=JAPAN, unit="G4M Betty Bomber", target="F4U Corsair")
    assert refused(state, ev) == "bcp.fire.target"


@pytest.mark.rule("bcp.fire.equal")
def test_attack_equal_to_defence_may_fire_but_cannot_hit():
    # bcp.fire.equal: the Zero's attack on Sea (3) equals the Iowa's defence against Air (3)
    state = pearl_harbor(("A6M Zero",), ("Iowa Battleship",))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="Iowa Battleship"))
    ev = turned(state, ACTION[3])
    assert (ev.above, ev.upto, ev.hit) == (3, 3, False)
    assert RS.describe(ev).startswith("alice's A6M Zero fires at Iowa Battleship: cannot hit")


@pytest.mark.rule("bcp.fire.hit", "bcp.draw.in-deck", "bcp.fire.casualties")
def test_the_action_number_decides_the_shot():
    # bcp.fire.hit: the Zero needs 4-6 against the Corsair
    state = pearl_harbor(("A6M Zero",), ("F4U Corsair", "F6F Hellcat"))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair"))
    ev = turned(state, ACTION[6])
    assert (ev.action, ev.above, ev.upto, ev.hit) == (6, 3, 6, True)
    assert RS.describe(ev) == ("alice's A6M Zero fires at F4U Corsair: needs 4-6, turned 6 "
                               "(Supply Lines Stretched): destroyed")
    # a wrong result, a wrong number or a wrong window is refused
    assert refused(state, replace(ev, hit=False)) == "bcp.fire.hit"
    assert refused(state, replace(ev, action=5)) == "bcp.fire.hit"
    assert refused(state, replace(ev, upto=7)) == "bcp.fire.hit"
    assert refused(state, replace(ev, card="Pearl Harbor")) == "bcp.draw.in-deck"
    # bcp.fire.casualties: the Corsair is gone at once, face up on the US Arsenal discard
    state = act(state, ev)
    assert state.battle is not None
    assert state.battle.forces[US] == ("F6F Hellcat",)
    assert state.arsenal_discard["US"] == ("F4U Corsair",)
    assert discards(state)[-1] == "Supply Lines Stretched"


@pytest.mark.rule("bcp.fire.support")
def test_support_adds_to_other_units_shots():
    # bcp.fire.support: the Essex Carrier adds 1 to the Corsair's shots (needs 3-7 on a Zero)
    state = pearl_harbor(("A6M Zero",), ("F4U Corsair", "Essex Carrier"))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="Essex Carrier"))
    state = act(state, turned(state, ACTION[1]))
    # by default no supporter is named: naming one is refused
    named = UnitFired(player=US, unit="F4U Corsair", target="A6M Zero", support=("Essex Carrier",))
    assert refused(state, named) == "bcp.fire.support"
    state = act(state, UnitFired(player=US, unit="F4U Corsair", target="A6M Zero"))
    ev = turned(state, ACTION[7])
    assert (ev.above, ev.upto, ev.hit) == (3, 7, True)


def volley_of_two(**options):
    """Pearl Harbor: alice's Zero misses the Essex; bob's Corsair and Hellcat (both phase 1)
    are to fire, the Essex supporting Air units."""
    state = pearl_harbor(("A6M Zero",), ("F4U Corsair", "F6F Hellcat", "Essex Carrier"),
                         **options)
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="Essex Carrier"))
    return act(state, turned(state, ACTION[1]))


@pytest.mark.rule("bcp.fire.support")
def test_firing_a_unit_support_adds_to_every_shot_by_default():
    # Firing a Unit (default reading): the Essex adds 1 to the Corsair's and the Hellcat's shots
    state = volley_of_two()
    state = act(state, UnitFired(player=US, unit="F4U Corsair", target="A6M Zero"))
    assert turned(state, ACTION[1]).upto == 7
    state = act(state, turned(state, ACTION[1]))
    state = act(state, UnitFired(player=US, unit="F6F Hellcat", target="A6M Zero"))
    assert turned(state, ACTION[1]).upto == 8


@pytest.mark.rule("bcp.fire.support-allocated")
def test_firing_a_unit_support_allocated_to_one_shot_per_volley():
    # Firing a Unit (option support=allocated): bob allocates the Essex to the Corsair's shot
    state = volley_of_two(support="allocated")
    assert state.options.support == "allocated"
    fired = [e for e in RS.legal(state) if isinstance(e, UnitFired) and e.unit == "F4U Corsair"]
    assert {e.support for e in fired} == {(), ("Essex Carrier",)}
    # without naming it, the Corsair fires unsupported
    plain = act(state, UnitFired(player=US, unit="F4U Corsair", target="A6M Zero"))
    assert turned(plain, ACTION[1]).upto == 6
    backed = UnitFired(player=US, unit="F4U Corsair", target="A6M Zero",
                       support=("Essex Carrier",))
    assert RS.describe(backed).endswith("takes aim at A6M Zero, backed by Essex Carrier")
    state = act(state, backed)
    assert turned(state, ACTION[1]).upto == 7
    state = act(state, turned(state, ACTION[1]))
    # the Essex has backed a shot in this volley: the Hellcat fires on its own attack
    again = UnitFired(player=US, unit="F6F Hellcat", target="A6M Zero", support=("Essex Carrier",))
    v = refusal(state, again)
    assert v.rule == "bcp.fire.support-allocated" and "already allocated: Essex Carrier" in v.reason
    # a unit cannot back itself, nor a type it does not support
    self_backed = UnitFired(player=US, unit="F6F Hellcat", target="A6M Zero",
                            support=("F6F Hellcat",))
    assert refused(state, self_backed) == "bcp.fire.support-allocated"
    state = act(state, UnitFired(player=US, unit="F6F Hellcat", target="A6M Zero"))
    assert turned(state, ACTION[1]).upto == 7
    state = act(state, turned(state, ACTION[1]))
    # phase 2: a new volley, the Essex may back the Corsair again
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="Essex Carrier"))
    state = act(state, turned(state, ACTION[2]))
    state = act(state, backed)
    assert turned(state, ACTION[2]).upto == 7


@pytest.mark.rule("bcp.fire.kept")
def test_kept_cards_add_their_bonus_once():
    # bcp.fire.kept: Radar Advantage adds 1 to an Air unit's shot, and is then discarded
    state = pearl_harbor(("A6M Zero",), ("F4U Corsair",),
                         kept={JAPAN: ("Radar Advantage", "Naval Gunfire Support")})
    wrong = UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair", kept="Codebreakers")
    assert refused(state, wrong) == "bcp.fire.kept"  # not held
    wrong = UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair",
                      kept="Naval Gunfire Support")
    assert refused(state, wrong) == "bcp.fire.kept"  # no bonus for Air units
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair",
                                 kept="Radar Advantage"))
    assert state.kept[JAPAN] == ("Naval Gunfire Support",)
    assert "Radar Advantage" in discards(state)
    ev = turned(state, ACTION[7])
    assert (ev.upto, ev.hit) == (7, True)


# -- Stalemate -----------------------------------------------------------------------------

@pytest.mark.rule("bcp.stalemate")
def test_stalemate_hands_the_battle_to_the_defender():
    # bcp.stalemate: an I-Boat cannot touch infantry, nor infantry a submarine
    state = draw(table(stacks={JAPAN: ("I-Boat Submarine",), US: ("Army Infantry Division",)}),
                 "Wake Island")
    state = act(state, BattleDecided(player=JAPAN, fight=True))
    assert state.battle is None and state.won[US] == ("Wake Island",) and state.vp[US] == 3
    assert state.stacks[JAPAN]["Sea"] == ("I-Boat Submarine",)  # withdrawn, home again
    assert "stalemate" in present(state.last_battle)


@pytest.mark.rule("bcp.stalemate.test")
def test_stalemate_test_counts_kept_cards():
    # bcp.stalemate.test: the Corsair's attack on Yamashita equals his defence; only a kept
    # bonus could make a hit, so without one the battle is a stalemate ...
    forces: dict[str, tuple[str, ...]] = {JAPAN: ("General Yamashita",), US: ("F4U Corsair",)}
    state = act(draw(table(stacks=forces), "Fall of the Philippines"),
                BattleDecided(player=JAPAN, fight=True))
    assert state.won[US] == ("Fall of the Philippines",)
    # ... but with Codebreakers kept, bob could hit, so the battle is fought
    state = act(draw(table(stacks=forces, kept={US: ("Codebreakers",)}), "Fall of the Philippines"),
                BattleDecided(player=JAPAN, fight=True))
    assert state.battle is not None and state.battle.side == US


@pytest.mark.rule("bcp.stalemate", "bcp.stalemate.test")
def test_stalemate_when_casualties_leave_neither_side_able_to_hit():
    # Stalemate: at Wake Island alice's I-Boat cannot touch bob's infantry, nor his infantry
    # the I-Boat; only her Special Naval Landing Force can fight
    forces = {JAPAN: ("I-Boat Submarine", "Special Naval Landing Force"),
              US: ("Army Infantry Division",)}
    start = act(draw(table(stacks=forces), "Wake Island"), BattleDecided(player=JAPAN, fight=True))
    # phase 2: the landing force misses; phase 3: the infantry destroys it
    state = act(start, UnitFired(player=JAPAN, unit="Special Naval Landing Force",
                                 target="Army Infantry Division"))
    state = act(state, turned(state, ACTION[1]))
    state = act(state, UnitFired(player=US, unit="Army Infantry Division",
                                 target="Special Naval Landing Force"))
    state = act(state, turned(state, ACTION[5]))
    # the casualty leaves neither side able to hit: the battle is over at once, no
    # withdrawal phase in which the defender could pull out and hand the card over
    assert state.battle is None and state.won[US] == ("Wake Island",) and state.vp[US] == 3
    assert state.won[JAPAN] == () and "stalemate" in present(state.last_battle)
    assert state.stacks[JAPAN]["Sea"] == ("I-Boat Submarine",)  # withdrawn, home again
    assert refused(state, WithdrawalFinished(player=JAPAN)) == "bcp.turn.step"
    # the same when the aggressor withdraws the only unit that could hit: the I-Boat may
    # not stay on, and bob does not get to withdraw and hand alice the card
    state = act(start, UnitFired(player=JAPAN, unit="Special Naval Landing Force",
                                 target="Army Infantry Division"))
    state = act(state, turned(state, ACTION[1]))
    for _ in range(2):  # phases 3 and 4: the infantry misses twice
        state = act(state, UnitFired(player=US, unit="Army Infantry Division",
                                     target="Special Naval Landing Force"))
        state = act(state, turned(state, ACTION[1]))
        assert state.battle is not None
        if state.battle.phase == 4 and state.battle.side == JAPAN:  # the force fires in 4
            state = act(state, UnitFired(player=JAPAN, unit="Special Naval Landing Force",
                                         target="Army Infantry Division"))
            state = act(state, turned(state, ACTION[1]))
    assert state.battle is not None
    assert state.battle.phase == WITHDRAWAL and state.battle.side == JAPAN
    state = act(state, UnitWithdrawn(player=JAPAN, unit="Special Naval Landing Force"))
    assert state.battle is None and state.won[US] == ("Wake Island",)
    assert "stalemate" in present(state.last_battle)


@pytest.mark.rule("bcp.stalemate", "bcp.stalemate.test", "bcp.fire.kept")
def test_stalemate_once_the_kept_card_that_made_a_hit_possible_is_spent():
    # Stalemate: the Corsair can only hit Yamashita with Codebreakers; once bob plays it
    # (and misses), neither side can hit and alice, the aggressor, must withdraw
    forces: dict[str, tuple[str, ...]] = {JAPAN: ("General Yamashita",), US: ("F4U Corsair",)}
    state = act(draw(table(stacks=forces, kept={US: ("Codebreakers",)}),
                     "Fall of the Philippines"), BattleDecided(player=JAPAN, fight=True))
    state = act(state, UnitFired(player=US, unit="F4U Corsair", target="General Yamashita",
                                 kept="Codebreakers"))
    state = act(state, turned(state, ACTION[1]))
    assert state.battle is None and state.won[US] == ("Fall of the Philippines",)


# -- Emergency Deployment ------------------------------------------------------------------

@pytest.mark.rule("bcp.emergency.turn", "bcp.turn.order")
def test_emergency_deployment_instead_of_drawing():
    # bcp.emergency.turn: alice deploys her whole Reserve Hand and draws nothing this turn
    state = table(reserve={JAPAN: ("A6M Zero", "Infantry Division")})
    assert refused(state, ConflictDrawn(player=JAPAN, card="Monsoon")) == "bcp.emergency.turn"
    state = act(state, EmergencyDeployed(player=JAPAN, units=("A6M Zero", "Infantry Division")))
    assert state.reserve[JAPAN] == ()
    assert state.stacks[JAPAN] == {"Ground": ("Infantry Division",), "Air": ("A6M Zero",),
                                   "Sea": ()}
    assert state.turn == US and sum(state.conflict["Pacific"].values()) == 54
    # alice's turn is over: her Conflict draw is refused because it is bob's turn, not
    # because of any Reserve Hand (hers is empty, and bob holds none)
    late = refusal(state, ConflictDrawn(player=JAPAN, card="Monsoon"))
    assert late.rule == "bcp.turn.order" and late.reason.startswith("it is bob's turn")
    assert "Reserve Hand" not in late.reason
    # not in the middle of someone else's turn
    state = table(reserve={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)})
    assert refused(state, EmergencyDeployed(player=US, units=("F4U Corsair",))) == "bcp.turn.order"
    state = draw(state, "Reinforcements")
    assert refused(state, EmergencyDeployed(player=JAPAN, units=("A6M Zero",))) == \
        "bcp.emergency.turn"


@pytest.mark.rule("bcp.emergency.turn", "bcp.turn.order")
def test_emergency_deployment_ends_the_turn_and_the_next_player_chooses():
    # Emergency Deployment: after alice deploys instead of drawing, bob (who holds a Reserve
    # Hand) chooses; alice's late draw is refused under bcp.turn.order, naming bob's turn
    state = table(reserve={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)})
    state = act(state, EmergencyDeployed(player=JAPAN, units=("A6M Zero",)))
    assert state.steps[0].step is Step.CHOOSE and state.steps[0].player == US
    late = refusal(state, ConflictDrawn(player=JAPAN, card="Monsoon"))
    assert late.rule == "bcp.turn.order"
    assert late.reason == ("it is bob's turn: alice may not draw a Conflict card now; bob must "
                           "draw a Conflict card or emergency deploy")
    # bob's own draw before choosing is still refused under bcp.emergency.turn
    assert refused(state, ConflictDrawn(player=US, card="Monsoon")) == "bcp.emergency.turn"


@pytest.mark.rule("bcp.emergency.all")
def test_emergency_deployment_takes_the_whole_hand():
    # bcp.emergency.all: keeping one card back is not an emergency deployment
    state = table(reserve={JAPAN: ("A6M Zero", "Infantry Division")})
    ev = EmergencyDeployed(player=JAPAN, units=("A6M Zero",))
    assert refused(state, ev) == "bcp.emergency.all"


@pytest.mark.rule("bcp.emergency.homeland")
def test_emergency_deployment_when_the_homeland_is_invaded():
    # bcp.emergency.homeland: alice may put her reserve down before the forces are revealed
    state = invasion_of_japan(reserve=("Infantry Division",))
    assert state.steps[0].step is Step.HOMELAND and present(RS.pending(state)).actor == JAPAN
    state = act(state, EmergencyDeployed(player=JAPAN, units=("Infantry Division",)))
    assert state.battle is not None
    assert state.battle.forces[JAPAN] == ("Infantry Division",)


@pytest.mark.rule("bcp.emergency.homeland")
def test_no_homeland_decision_without_a_reserve_hand():
    # bcp.emergency.homeland: with an empty Reserve Hand there is nothing to decide
    state = invasion_of_japan(reserve=())
    assert state.eliminated == (JAPAN,)


# -- The Game Concept: learning about the opponent ----------------------------------------

@pytest.mark.rule("bcp.conflict.reveal", "bcp.conflict.reveal-recorded")
def test_the_game_concept_a_card_that_learns_about_the_opponent_is_recorded():
    # The Game Concept: a card set in which Fog of War lets its drawer see the opponent's
    # Reserve Hand; what bob shows alice is an event, checked against his hand
    comp = with_changes(conflict__27__reveal="reserve")
    rs = GAME.bind(GAME.start((JAPAN, US), GAME.Options(), comp))
    state = table(comp=comp, reserve={US: ("F4U Corsair", "Marine Division")})
    state = draw(state, "Fog of War", rs=rs)
    assert present(rs.pending(state)).actor == US and present(rs.pending(state)).kind == "reveal"
    shown = CardsRevealed(player=US, to=JAPAN, what="reserve",
                          cards=("F4U Corsair", "Marine Division"))
    assert list(rs.legal(state)) == [shown]
    assert refused(state, replace(shown, cards=("Marine Division",)), rs) == "bcp.conflict.reveal"
    assert refused(state, replace(shown, what="kept", cards=()), rs) == "bcp.conflict.reveal"
    assert refused(state, replace(shown, player=JAPAN, to=US), rs) == "bcp.turn.order"
    assert rs.describe(shown) == "bob shows alice their Reserve Hand: F4U Corsair, Marine Division"
    state = act(state, shown, rs=rs)
    assert state.turn == US and "Fog of War" in discards(state)
    # kept cards and deployed stacks may be shown the same way (an empty hand too)
    shows: tuple[tuple[Reveal, tuple[str, ...]], ...] = (("kept", ()),
                                                          ("stacks", ("Iowa Battleship",)))
    for what, expect in shows:
        comp = with_changes(conflict__27__reveal=what)
        rs = GAME.bind(GAME.start((JAPAN, US), GAME.Options(), comp))
        state = draw(table(comp=comp, stacks={US: ("Iowa Battleship",)}), "Fog of War", rs=rs)
        assert list(rs.legal(state)) == [CardsRevealed(player=US, to=JAPAN, what=what,
                                                       cards=expect)]
    # a BATTLECARD cannot also reveal
    with pytest.raises(UsageError, match="cannot also be kept, draw, deploy or reveal"):
        GAME.start((JAPAN, US), GAME.Options(), with_changes(conflict__0__reveal="kept"))
