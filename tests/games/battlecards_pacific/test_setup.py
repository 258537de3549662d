"""To Set Up the Game: sides, the deal, the first deployment; the component data (the bundled
cards and a user's own) and the table options."""

import pytest
from msgspec.structs import replace

from tabletape.games.battlecards_pacific import legality
from tabletape.games.battlecards_pacific.components import UnitType, default
from tabletape.games.battlecards_pacific.events import (
    ArsenalDrawn,
    BattleDecided,
    DeploymentFinished,
    Options,
    UnitDeployed,
)
from tabletape.tape.errors import UsageError
from tests.narrow import present

from .helpers import (
    GAME,
    JAPAN,
    LK,
    RS,
    US,
    act,
    draw,
    fresh,
    header,
    refused,
    table,
    with_changes,
)

# -- To Set Up the Game --------------------------------------------------------------------

def deal(state, player, units):
    return act(state, *(ArsenalDrawn(player=player, unit=u) for u in units))


J_HAND = ("A6M Zero", "Infantry Division", "Kongo Battleship", "Infantry Division",
          "I-Boat Submarine", "D3A Val Dive Bomber")
U_HAND = ("F4U Corsair", "Marine Division", "Iowa Battleship", "Gato Submarine",
          "M4 Sherman Tank", "SBD Dauntless")


@pytest.mark.rule("bcp.setup.players")
def test_two_players_one_per_side():
    # bcp.setup.players: two players, one per side
    with pytest.raises(UsageError):
        GAME.start(("alice",), Options(), GAME.default_components())
    state = fresh()
    assert sorted(state.sides.values()) == ["Japan", "US"]


@pytest.mark.rule("bcp.setup.sides")
def test_first_named_player_is_japan_unless_the_option_says_otherwise():
    # bcp.setup.sides: default, alice (named first) is Japan and deals first
    assert fresh().sides == {JAPAN: "Japan", US: "US"}
    # with first_side=US, alice is the US, and bob (Japan) still goes first
    state = fresh(first_side="US")
    assert state.sides == {JAPAN: "US", US: "Japan"}
    assert state.order == (US, JAPAN)
    # an unknown side is refused
    with pytest.raises(UsageError, match="bcp.setup.sides"):
        header(first_side="Germany")


@pytest.mark.rule("bcp.setup.deal", "bcp.turn.order")
def test_each_player_is_dealt_six():
    # bcp.setup.deal: six Arsenal cards each, alice (Japan) first
    state = fresh()
    assert present(RS.pending(state)).actor == "chance"
    state = deal(state, JAPAN, J_HAND)
    assert len(state.reserve[JAPAN]) == 6
    assert refused(state, ArsenalDrawn(player=JAPAN, unit="A6M Zero")) == "bcp.turn.order"
    state = deal(state, US, U_HAND)
    assert len(state.reserve[US]) == 6
    # the Arsenal decks are each side's own
    assert sum(state.arsenal["Japan"].values()) == 44 and sum(state.arsenal["US"].values()) == 44


@pytest.mark.rule("bcp.draw.in-deck")
def test_a_card_must_be_in_the_deck():
    # bcp.draw.in-deck: there are only two I-Boat Submarines in Japan's Arsenal
    state = deal(fresh(), JAPAN, ("I-Boat Submarine", "I-Boat Submarine"))
    assert refused(state, ArsenalDrawn(player=JAPAN, unit="I-Boat Submarine")) == "bcp.draw.in-deck"
    # and a US card is not in Japan's deck
    assert refused(state, ArsenalDrawn(player=JAPAN, unit="F4U Corsair")) == "bcp.draw.in-deck"


@pytest.mark.rule("bcp.setup.deploy")
def test_three_units_deployed_at_set_up():
    # bcp.setup.deploy: exactly three are deployed; stopping early is refused
    state = deal(deal(fresh(), JAPAN, J_HAND), US, U_HAND)
    assert refused(state, DeploymentFinished(player=JAPAN)) == "bcp.setup.deploy"
    state = act(state, UnitDeployed(player=JAPAN, unit="A6M Zero", stack=UnitType.AIR),
                UnitDeployed(player=JAPAN, unit="Infantry Division", stack=UnitType.GROUND),
                UnitDeployed(player=JAPAN, unit="Infantry Division", stack=UnitType.GROUND))
    assert state.stacks[JAPAN] == {"Ground": ("Infantry Division", "Infantry Division"),
                                   "Air": ("A6M Zero",), "Sea": ()}
    assert len(state.reserve[JAPAN]) == 3
    # then it is the US player's turn to deploy
    assert present(RS.pending(state)).actor == US


@pytest.mark.rule("bcp.deploy.stack")
def test_units_go_only_on_their_own_stack():
    # bcp.deploy.stack: a Zero is an Air unit
    state = deal(deal(fresh(), JAPAN, J_HAND), US, U_HAND)
    ev = UnitDeployed(player=JAPAN, unit="A6M Zero", stack=UnitType.SEA)
    assert refused(state, ev) == "bcp.deploy.stack"


@pytest.mark.rule("bcp.deploy.in-hand")
def test_units_come_from_the_reserve_hand():
    # bcp.deploy.in-hand: alice holds no Yamato-class anything
    state = deal(deal(fresh(), JAPAN, J_HAND), US, U_HAND)
    ev = UnitDeployed(player=JAPAN, unit="Takao Heavy Cruiser", stack=UnitType.SEA)
    assert refused(state, ev) == "bcp.deploy.in-hand"


@pytest.mark.rule("bcp.turn.order", "bcp.turn.first-side")
def test_playing_the_game_the_japanese_player_starts_whatever_the_file_order():
    # Playing the Game: a card file listing the US first still has Japan draw first
    comp = default()
    us_first = replace(comp, sides=comp.sides[::-1])
    assert [s.id for s in us_first.sides] == ["US", "Japan"]
    state = fresh(us_first)
    assert state.sides == {JAPAN: "Japan", US: "US"}
    assert state.order == (JAPAN, US) and present(RS.pending(state)).detail.startswith(
        f"the Arsenal card {JAPAN} draws")
    # ... and seated the other way round (first_side=US), Japan (bob) still starts
    assert fresh(us_first, first_side="US").order == (US, JAPAN)
    # a file may name another starting side, as long as it is one of its sides
    assert fresh(replace(comp, rules=replace(comp.rules, first_turn="US"))).order == (US, JAPAN)


@pytest.mark.rule("bcp.setup.battles-unique", "bcp.setup.battles-refused")
def test_to_set_up_the_game_duplicate_battlecards_are_refused():
    # To Set Up the Game: a BATTLECARD twice in the Conflict deck (as when sets are combined)
    # is refused, naming the card, whether as a count of 2 ...
    twice = with_changes(conflict__0__count=2)
    with pytest.raises(UsageError, match=r"BATTLECARD 'Pearl Harbor' is in the Conflict deck "
                       r"2 times; remove the duplicates.*bcp.setup.battles-unique"):
        GAME.start((JAPAN, US), GAME.Options(), twice)
    # ... or as a second entry of the same name
    again = with_changes(conflict__1__name="Pearl Harbor")
    with pytest.raises(UsageError, match="BATTLECARD 'Pearl Harbor' is in the Conflict deck 2"):
        GAME.start((JAPAN, US), GAME.Options(), again)
    # copies of a plain Conflict card are ordinary
    GAME.start((JAPAN, US), GAME.Options(), with_changes(conflict__26__count=5))


# -- the component data --------------------------------------------------------------------

def test_the_bundled_cards_match_the_counts_the_rulebook_gives():
    comp = default()
    assert [s.id for s in comp.sides] == ["Japan", "US"]
    for side in comp.sides:
        assert sum(u.count for u in side.arsenal) == 50
    assert sum(c.count for c in comp.conflict) == 54
    battles = [c for c in comp.conflict if c.battle]
    assert sum(present(c.battle).vp for c in battles) == 80  # 40 VP is half of it
    assert comp.rules.standard_victory == 40 and comp.rules.provenance == "rulebook"
    eliminations = {c.name: present(c.battle).eliminates for c in battles if present(c.battle).eliminates}
    assert eliminations == {"Invasion of Australia": "US", "Invasion of Japan": "Japan"}
    assert all(u.provenance for s in comp.sides for u in s.arsenal)


@pytest.mark.parametrize("changes, problem", [
    ({"sides__1__id": "Japan"}, "side ids must be unique"),
    ({"sides__0__arsenal__1__name": "Infantry Division"}, "names must be unique"),
    ({"sides__0__arsenal__4__count": 2}, "leader"),
    ({"conflict__0__battle__aggressor": "Germany"}, "unknown aggressor"),
    ({"conflict__4__battle__requires": ["Pearl Harbour"]}, "not another BATTLECARD"),
    ({"conflict__17__name": "Reinforcements"},
     "Conflict card names must be unique: 'Reinforcements' is listed twice"),
    ({"rules__first_turn": "Germany"}, "first turn belongs to 'Germany'"),
])
def test_a_users_cards_are_checked(changes, problem):
    with pytest.raises(UsageError, match=problem):
        GAME.start((JAPAN, US), GAME.Options(), with_changes(**changes))


def test_a_users_own_values_are_played():
    # a Zero with attack 9 against Air: the window of a shot changes with the data
    comp = with_changes(sides__0__arsenal__5__attack={"air": 9})
    header = GAME.start((JAPAN, US), GAME.Options(), comp)
    assert header.components.sides[0].arsenal[5].attack.air == 9
    lk = GAME.bind(header).lk  # the bound game's tables hold the user's values
    assert lk.units["Japan"]["A6M Zero"].attack.air == 9
    state = act(draw(table(stacks={JAPAN: ("A6M Zero",), US: ("F4U Corsair",)}), "Pearl Harbor"),
                BattleDecided(player=JAPAN, fight=True))
    b = state.battle
    assert b is not None
    assert legality.window(lk, state, b, JAPAN, "A6M Zero", "F4U Corsair", None) == (3, 9)
    assert legality.window(LK, state, b, JAPAN, "A6M Zero", "F4U Corsair", None) == (3, 6)
