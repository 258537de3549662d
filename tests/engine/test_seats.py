"""The seats part of the game contract (engine.seats): checked when a game class is made."""

from __future__ import annotations

import pytest

from tabletape import engine
from tabletape.engine.kit.multiset import swapped_in
from tabletape.engine.seats import Secret, check_seating, masked, owner
from tabletape.games.cards_of_war.events import CardDrawn
from tabletape.tape.events import Event, Name, Note
from tests.narrow import present


class Drawn(Event, tag="drawn", kw_only=True, frozen=True):
    player: Name
    card: Name


class Turned(Event, tag="turned", kw_only=True, frozen=True):
    card: Name


def test_every_event_needs_an_owner_entry_naming_one_of_its_fields():
    assert check_seating("G", (Drawn, Turned), {Drawn: "player", Turned: None}, {}) is None
    assert "names no owner for Turned" in present(check_seating("G", (Drawn, Turned),
                                                                {Drawn: "player"}, {}))
    assert "Drawn has no field 'who'" in present(check_seating("G", (Drawn,), {Drawn: "who"}, {}))


def test_a_secret_names_fields_of_its_event_and_someone_who_knows():
    owners: dict[type, str | None] = {Drawn: "player", Turned: None}
    ok: dict[type, Secret] = {Drawn: Secret(fields=("card",), seen_by=("player",))}
    assert check_seating("G", (Drawn, Turned), owners, ok) is None
    bad: dict[type, Secret] = {Drawn: Secret(fields=("cards",), seen_by=("player",))}
    assert "Drawn has no field 'cards'" in present(check_seating("G", (Drawn, Turned), owners,
                                                                 bad))
    nobody: dict[type, Secret] = {Turned: Secret(fields=("card",), seen_by=())}
    assert "hides nothing or from no one" in present(check_seating("G", (Drawn, Turned), owners,
                                                                   nobody))


def test_a_game_class_without_its_seats_fails_when_it_is_made():
    from tabletape.engine.kit.contract import ContractError
    from tabletape.games.cards_of_war import CardsOfWar
    with pytest.raises(ContractError, match="seating"):
        type("NoSeats", (CardsOfWar,), {"seating": None, "__module__": __name__})


def test_notes_are_anyones_and_draws_their_drawers():
    rs = engine.get("cards-of-war")
    assert rs.events[1] is CardDrawn
    drawn = CardDrawn(player="bob", card="Tank")
    assert owner(rs, drawn) == "bob"
    assert owner(rs, Note(text="hello")) is None


def test_what_a_seat_sees_of_a_hidden_value():
    assert masked("Tank") == "?" and masked(("a", "b")) == ("?", "?") and masked(None) is None


def test_a_card_swapped_into_a_deck_keeps_its_size():
    deck = {"Marines": 2, "Tank": 1}
    assert swapped_in(deck, "Tank") is deck  # it holds one already
    out = swapped_in(deck, "Spy")
    assert out == {"Marines": 1, "Spy": 1, "Tank": 1} and sum(out.values()) == 3
    assert swapped_in({}, "Spy") == {"Spy": 1}
