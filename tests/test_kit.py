"""The turn kit the games share: owed steps, the settle loop, seats, hidden hands."""

from __future__ import annotations

import msgspec

from tabletape.engine.kit import turns


class Table(msgspec.Struct, frozen=True):
    steps: tuple[str, ...] = ()
    count: int = 0


def test_owed_steps_resolve_from_the_front():
    t = turns.owe_last(turns.owe_first(Table(("b",)), "a"), "c")
    assert t.steps == ("a", "b", "c") and turns.head(t) == "a"
    assert turns.head(turns.done(t)) == "b" and turns.head(Table()) is None


def test_settle_resolves_until_a_decision_is_pending():
    def resolve(t: Table) -> Table | None:  # counts to 3, then someone must decide
        return msgspec.structs.replace(t, count=t.count + 1) if t.count < 3 else None
    assert turns.settle(Table(), resolve).count == 3


def test_seats_turn_to_the_left_and_skip_who_is_out():
    players = ("ann", "bob", "cat")
    assert turns.left_of(players, "cat") == "ann"
    assert turns.seats_from(players, "bob") == ("bob", "cat", "ann")
    assert turns.seats_from(players, None) == players
    assert turns.next_in(players, "ann", out={"bob"}) == "cat"
    assert turns.next_in(players, None, out={"ann"}) == "bob"
    assert turns.next_in(players, "ann", out=players) is None


def test_hidden_hands_show_only_their_size():
    hands = {"ann": ("Spy", "Tank"), "bob": ("Jet",)}
    assert turns.hide_hands(hands, "ann") == {"ann": ("Spy", "Tank"), "bob": ("?",)}
    assert turns.hide_deck({"Spy": 2, "Tank": 1}) == {"?": 3}
