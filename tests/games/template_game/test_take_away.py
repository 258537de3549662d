"""The template game's rules, one story each (docs/adding-a-game.md: a story per rule)."""

from __future__ import annotations

import pytest

from tabletape import engine
from tests.registry import TEMPLATE
from tests.story import refusal
from tests.template_game.events import Dealt, Options, Rolled, Taken

pytestmark = pytest.mark.usefixtures("template_registered")


def dealt(pile: int = 4, rules: str | None = None, cards: tuple[int, int] = (1, 2)):
    """Returns the bound rules and the table of ann and bob once the die (1) is rolled and
    each is dealt a card (`cards`): the pile is `pile` + 1."""
    rs = engine.get(TEMPLATE)
    rs = rs.bind(rs.start(("ann", "bob"), Options(pile=pile), rs.default_components()), rules)
    state = rs.apply(rs.initial(), Rolled(count=1))
    for player, card in zip(("ann", "bob"), cards, strict=True):
        state = rs.apply(state, Dealt(player=player, card=card))
    return rs, state


@pytest.mark.rule("take.setup.roll")
def test_the_die_is_rolled_before_the_first_turn_and_once():
    rs, _ = dealt(pile=5)
    assert rs.pending(rs.initial()).actor == engine.CHANCE
    assert refusal(rs, rs.initial(), Taken(player="ann", count=1)).rule == "take.setup.roll"
    rolled = rs.apply(rs.initial(), Rolled(count=6))
    assert rolled.pile == 11 and refusal(rs, rolled, Rolled(count=1)).rule == "take.setup.roll"


@pytest.mark.rule("take.setup.deal")
def test_each_player_is_dealt_one_hidden_card_in_seat_order():
    rs, state = dealt()
    rolled = rs.apply(rs.initial(), Rolled(count=1))
    # Given the die rolled, ann is dealt first; bob waits, and nobody takes yet
    assert refusal(rs, rolled, Dealt(player="bob", card=1)).rule == "take.setup.deal"
    assert refusal(rs, rolled, Taken(player="ann", count=1)).rule == "take.setup.deal"
    # Then each holds a card only they see (the others see a face-down card)
    assert state.hands == {"ann": (1,), "bob": (2,)}
    assert rs.view(state, "ann").hands == {"ann": (1,), "bob": (0,)}
    assert rs.held(rs.view(state, "bob"), "bob")[0].cards == ("2",)
    # And a card the deck no longer holds is refused
    three = rs.apply(rolled, Dealt(player="ann", card=3))
    three = rs.apply(three, Dealt(player="bob", card=3))
    assert rs.check(rs.apply(rs.initial(), Rolled(count=1)), Dealt(player="ann", card=4)).rule \
        == "take.setup.deal"
    assert 3 not in three.deck  # (the kit's `take`: a deck keeps no zero counts)


@pytest.mark.rule("take.turn.order")
def test_players_take_turns_in_seat_order():
    rs, state = dealt(pile=5)
    assert refusal(rs, state, Taken(player="bob", count=1)).rule == "take.turn.order"


@pytest.mark.rule("take.take.count")
def test_a_turn_takes_at_most_the_limit():
    rs, state = dealt()
    assert refusal(rs, state, Taken(player="ann", count=4)).rule == "take.take.count"


@pytest.mark.rule("take.take.pile")
def test_a_turn_cannot_take_more_than_the_pile_under_rules_1_1():
    rs, state = dealt(pile=1)  # a pile of 2
    assert refusal(rs, state, Taken(player="ann", count=3)).rule == "take.take.pile"
    # Under rules 1.0 (the switch `pile_bound` off) the take empties the pile instead
    old, state = dealt(pile=1, rules="1.0")
    assert old.check(state, Taken(player="ann", count=3)) is None
    assert old.apply(state, Taken(player="ann", count=3)).pile == 0


@pytest.mark.rule("take.end.last")
def test_the_cards_score_and_the_last_taker_scores_more():
    rs, state = dealt(pile=1, cards=(3, 1))
    state = rs.apply(state, Taken(player="ann", count=1))
    state = rs.apply(state, Taken(player="bob", count=1))
    assert rs.outcome(state).scores == {"ann": 3, "bob": 4}  # bob: 1 + 3, the last taker
    assert rs.outcome(state).winners == ("bob",)
    # Under rules 1.0 (a pin: the score function 1.0 used) the last taker's card is doubled
    old, _ = dealt(pile=1, rules="1.0")
    assert old.outcome(state).scores == {"ann": 3, "bob": 2}
    assert old.outcome(state).winners == ("ann",)
