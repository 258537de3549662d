"""Rules versions declared where they act (issue 36): a game's `Rulebook` binds each
difference of a version to the rule id it changes and to the field of the tables the rules
read (a switch, or a pin keeping the old function); every name is checked when the game
class is made, so a slip fails at import naming the game and the name, not when an old log
is read."""

from __future__ import annotations

import pytest

from tabletape import engine
from tabletape.engine.kit.contract import ContractError
from tabletape.engine.versions import Pin
from tabletape.games.battlecards_pacific import BattlecardsPacific, decks
from tabletape.games.cards_of_war import CardsOfWar


def variant(base: type, **declared: object) -> type:
    """Makes a subclass of a real game with `declared` in its class, as an import would."""
    return type("Bad", (base,), {"__module__": base.__module__, **declared})


def test_a_misspelled_switch_fails_when_the_class_is_made():
    switches = {**CardsOfWar.switches, "kill_targt": ("1.1", "cow.kill.target")}
    with pytest.raises(ContractError, match="game Bad: switch 'kill_targt' names no switch "
                                            "field of Lookups"):
        variant(CardsOfWar, switches=switches)


def test_a_dangling_switch_fails_when_the_class_is_made():
    """A field of the tables that no changelog entry binds would read alike under every
    version: its older branch dead, its version unsaid."""
    switches = {k: v for k, v in CardsOfWar.switches.items() if k != "no_fit"}
    with pytest.raises(ContractError, match="game Bad: Lookups.no_fit is a dangling switch"):
        variant(CardsOfWar, switches=switches)


def test_a_switch_bound_to_an_unknown_rule_id_fails_when_the_class_is_made():
    changelog = {**CardsOfWar.changelog, "1.2": {**CardsOfWar.changelog["1.2"],
                                                  "cow.kill.nope": "a rule no catalogue has"}}
    switches = {**CardsOfWar.switches, "kill_target": ("1.2", "cow.kill.nope")}
    with pytest.raises(ContractError, match="game Bad: switch 'kill_target' is bound to rule "
                                            "'cow.kill.nope', which is no rule of the game"):
        variant(CardsOfWar, changelog=changelog, switches=switches)


def test_a_switch_on_no_changelog_entry_fails_when_the_class_is_made():
    switches = {**CardsOfWar.switches, "kill_target": ("1.2", "cow.kill.target")}
    with pytest.raises(ContractError, match="game Bad: switch 'kill_target' reads "
                                            "'cow.kill.target' of version '1.2', which its "
                                            "changelog does not list"):
        variant(CardsOfWar, switches=switches)


def test_a_misspelled_or_dangling_pin_fails_when_the_class_is_made():
    pin = BattlecardsPacific.pins["reshuffled"]
    with pytest.raises(ContractError, match="game Bad: pin 'reshuffle' names no pin field"):
        variant(BattlecardsPacific, pins={"reshuffle": pin})
    with pytest.raises(ContractError, match="game Bad: Lookups.reshuffled is a dangling pin"):
        variant(BattlecardsPacific, pins={})
    with pytest.raises(ContractError, match="game Bad: pin 'reshuffled' keeps 'bcp.deck.nope'"):
        variant(BattlecardsPacific, pins={"reshuffled": Pin("1.2", "bcp.deck.nope", pin.before)})


def test_a_pin_keeps_the_old_function_for_the_versions_before_it():
    """BATTLECARDS 1.2 changed when the Conflict deck is reshuffled: the function 1.1 judged
    with is kept whole (`decks.reshuffled_1_1`), and the tables of a game judged by 1.0 or 1.1
    hold it where 1.2's hold the current one; the rules call `lk.reshuffled`."""
    assert BattlecardsPacific.pins == {"reshuffled": Pin("1.2", "bcp.deck.reshuffle",
                                                         decks.reshuffled_1_1)}
    rs = engine.get("battlecards-pacific")
    header = rs.start(("ann", "bob"), rs.Options(), rs.default_components())
    assert {v: rs.bind(header, v).lk.reshuffled for v in rs.versions} == {
        "1.0": decks.reshuffled_1_1, "1.1": decks.reshuffled_1_1, "1.2": decks.reshuffled}
