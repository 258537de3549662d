"""Firing a Unit: targets, the Action Number window, casualties, support and Kept Cards."""

from msgspec.structs import replace

from tabletape.cli.render import drawing
from tabletape.games.battlecards_pacific.events import BattleDecided, UnitFired

from .helpers import ACTION, JAPAN, RS, US, act, discards, draw, refused, table, turned


def pearl_harbor(japan, us, **kw):
    """alice (Japan) draws Pearl Harbor and fights it."""
    state = draw(table(stacks={JAPAN: japan, US: us}, **kw), "Pearl Harbor")
    return act(state, BattleDecided(player=JAPAN, fight=True))


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


def test_attack_equal_to_defence_may_fire_but_cannot_hit():
    # bcp.fire.equal: the Zero's attack on Sea (3) equals the Iowa's defence against Air (3)
    state = pearl_harbor(("A6M Zero",), ("Iowa Battleship",))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="Iowa Battleship"))
    ev = turned(state, ACTION[3])
    assert (ev.above, ev.upto, ev.hit) == (3, 3, False)
    assert RS.describe(ev).startswith("alice's A6M Zero fires at Iowa Battleship: cannot hit")


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
    assert state.battle.forces[US] == ("F6F Hellcat",)
    assert state.arsenal_discard["US"] == ("F4U Corsair",)
    assert discards(state)[-1] == "Supply Lines Stretched"


def test_support_adds_to_other_units_shots():
    # bcp.fire.support: the Essex Carrier adds 1 to the Corsair's shots (needs 3-7 on a Zero)
    state = pearl_harbor(("A6M Zero",), ("F4U Corsair", "Essex Carrier"))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="Essex Carrier"))
    state = act(state, turned(state, ACTION[1]))
    state = act(state, UnitFired(player=US, unit="F4U Corsair", target="A6M Zero"))
    ev = turned(state, ACTION[7])
    assert (ev.above, ev.upto, ev.hit) == (3, 7, True)


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


def test_a_battle_in_progress_is_rendered_phase_by_phase():
    from rich.console import Console

    state = pearl_harbor(("A6M Zero",), ("F4U Corsair",))
    state = act(state, UnitFired(player=JAPAN, unit="A6M Zero", target="F4U Corsair"))
    console = Console(width=120, record=True)
    console.print(drawing(RS, RS.view(state, US)))
    text = console.export_text()
    assert "Pearl Harbor: round 1, firing phase 1" in text
    assert "alice's A6M Zero has fired at F4U Corsair: needs 4-6" in text
    # engaged units are face up for everyone
    assert RS.view(state, US).battle.forces[JAPAN] == ("A6M Zero",)
