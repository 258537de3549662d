"""The template game's rules, one story each (README "Adding a game": a story per rule)."""

from __future__ import annotations

import pytest

from tabletape import engine
from tests.registry import TEMPLATE
from tests.template_game.events import Options, Taken

pytestmark = pytest.mark.usefixtures("template_registered")


def judged(*counts: int, pile: int = 5) -> list:
    """Returns the refusals of a game of ann and bob taking `counts` in turn."""
    rs = engine.get(TEMPLATE)
    header = rs.start(("ann", "bob"), Options(pile=pile), rs.default_components())
    fold = engine.Fold(rs, header, keep_going=True)
    players = ("ann", "bob")
    return [fold.feed(seq, Taken(player=players[(seq - 1) % 2], count=n))
            for seq, n in enumerate(counts, 1)]


@pytest.mark.rule("take.turn.order")
def test_players_take_turns_in_seat_order():
    rs = engine.get(TEMPLATE)
    rs = rs.bind(rs.start(("ann", "bob"), Options(pile=5), rs.default_components()))
    assert rs.check(rs.initial(), Taken(player="bob", count=1)).rule == "take.turn.order"


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
    for seq, (p, n) in enumerate([("ann", 2), ("bob", 3)], 1):
        assert fold.feed(seq, Taken(player=p, count=n)) is None
    assert fold.ruleset.outcome(fold.state).winners == ("bob",)
