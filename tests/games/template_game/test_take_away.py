"""The template game's rules, one story each (README "Adding a game": a story per rule)."""

from __future__ import annotations

import pytest

from tabletape import engine
from tests.registry import TEMPLATE
from tests.template_game.events import Options, Rolled, Taken

pytestmark = pytest.mark.usefixtures("template_registered")


def judged(*counts: int, pile: int = 4) -> list:
    """Returns the refusals of a game of ann and bob taking `counts` in turn."""
    rs = engine.get(TEMPLATE)
    header = rs.start(("ann", "bob"), Options(pile=pile), rs.default_components())
    fold = engine.Fold(rs, header, keep_going=True)
    assert fold.feed(1, Rolled(count=1)) is None  # the pile: `pile` + 1
    players = ("ann", "bob")
    return [fold.feed(seq, Taken(player=players[seq % 2], count=n))
            for seq, n in enumerate(counts, 2)]


@pytest.mark.rule("take.setup.roll")
def test_the_die_is_rolled_before_the_first_turn_and_once():
    rs = engine.get(TEMPLATE)
    rs = rs.bind(rs.start(("ann", "bob"), Options(pile=5), rs.default_components()))
    assert rs.pending(rs.initial()).actor == engine.CHANCE
    assert rs.check(rs.initial(), Taken(player="ann", count=1)).rule == "take.setup.roll"
    rolled = rs.apply(rs.initial(), Rolled(count=6))
    assert rolled.pile == 11 and rs.check(rolled, Rolled(count=1)).rule == "take.setup.roll"


@pytest.mark.rule("take.turn.order")
def test_players_take_turns_in_seat_order():
    rs = engine.get(TEMPLATE)
    rs = rs.bind(rs.start(("ann", "bob"), Options(pile=5), rs.default_components()))
    rolled = rs.apply(rs.initial(), Rolled(count=2))
    assert rs.check(rolled, Taken(player="bob", count=1)).rule == "take.turn.order"


@pytest.mark.rule("take.take.count")
def test_a_turn_takes_at_most_the_limit():
    assert judged(4)[0].rule == "take.take.count"


@pytest.mark.rule("take.take.pile")
def test_a_turn_cannot_take_more_than_the_pile():
    assert judged(3, 3)[1].rule == "take.take.pile"


@pytest.mark.rule("take.end.last")
def test_whoever_takes_the_last_counter_wins():
    rs = engine.get(TEMPLATE)
    header = rs.start(("ann", "bob"), Options(pile=5), rs.default_components())
    fold = engine.Fold(rs, header)
    for seq, ev in enumerate([Rolled(count=1), Taken(player="ann", count=3),
                              Taken(player="bob", count=3)], 1):
        assert fold.feed(seq, ev) is None
    assert fold.ruleset.outcome(fold.state).winners == ("bob",)
