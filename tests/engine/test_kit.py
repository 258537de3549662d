"""The turn kit the games share: owed steps and who owes them, the event tables, the settle
loop, seats, hidden hands, reshuffles."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletape.engine import Decision, Violation
from tabletape.engine.kit import multiset, turns


class Table(msgspec.Struct, frozen=True):
    steps: tuple[str, ...] = ()
    count: int = 0


def test_owed_steps_resolve_from_the_front():
    t = turns.owe_first(Table(("b", "c")), "a")
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


class Owed(msgspec.Struct, frozen=True):
    step: str
    player: str


class Queue(msgspec.Struct, frozen=True):
    steps: tuple[Owed, ...] = ()
    setup: bool = False


def _pending(lk, q):
    if not q.steps:
        return None if not q.setup else Decision("chance", "deal", "chance deals")
    h = q.steps[0]
    return Decision(h.player, h.step, f"{h.player} must {h.step}")


def _in_setup(q, what):
    return Violation("toy.setup", f"no {what} before the deal") if q.setup else None


OWING: turns.Owing[Any, Any, Any] = turns.Owing("toy.turn.step", "toy.turn.order", _pending, before=_in_setup)


def test_the_step_owed_now_is_answered_by_whoever_owes_it():
    q = Queue((Owed("draw a card", "bob"), Owed("play", "ann")))
    assert OWING.refuse(None, q, ("draw a card",), "bob", "draw") is None
    assert OWING.refuse(None, q, ("draw a card",), "ann", "draw") == Violation(
        "toy.turn.order", "bob must draw a card now, not ann")
    assert OWING.refuse(None, q, ("play",), "ann", "play") == Violation(
        "toy.turn.step", "no play by ann now: bob must draw a card first")


def test_out_of_step_names_the_game_s_rule_the_set_up_and_the_end():
    assert OWING.refuse(None, Queue(setup=True), ("play",), "ann", "play") == Violation(
        "toy.setup", "no play by ann before the deal")
    assert OWING.not_now(None, Queue(), "play") == Violation(
        "core.game.over", "no play: the game is over")
    assert OWING.not_now(None, Queue(), "play", "ann") == Violation(
        "core.game.over", "no play by ann: the game is over")
    words: turns.Owing[Any, Any, Any] = turns.Owing("toy.turn.step", "toy.turn.order", _pending,
                        lambda h, player, what: f"{h.player} {what}s now, not {player}")
    assert words.refuse(None, Queue((Owed("draw", "bob"),)), ("draw",), "ann", "draw") == Violation(
        "toy.turn.order", "bob draws now, not ann")


class Drawn(msgspec.Struct, frozen=True):
    card: str


class Dealt(msgspec.Struct, frozen=True):
    card: str


class Passed(msgspec.Struct, frozen=True):
    pass


def test_event_tables_are_built_from_each_handler_s_event_annotation():
    def _card(lk: None, q: Queue, ev: Drawn | Dealt) -> str:
        return ev.card

    def _pass(lk: None, q: Queue, ev: Passed) -> str:
        return "pass"

    table = turns.by_event(_card, _pass)
    assert table == {Drawn: _card, Dealt: _card, Passed: _pass}
    with pytest.raises(ValueError, match="Passed has two handlers"):
        turns.by_event(_card, _pass, _pass)


def test_a_discard_pile_is_reshuffled_into_its_own_deck():
    decks, discards = {"ann": {"Jet": 1}, "bob": {}}, {"ann": ("Spy",), "bob": ("Tank", "Jet")}
    assert multiset.reshuffle(decks, discards, "bob") == (
        {"ann": {"Jet": 1}, "bob": {"Jet": 1, "Tank": 1}}, {"ann": ("Spy",), "bob": ()})
    assert decks["bob"] == {} and discards["bob"] == ("Tank", "Jet")  # left alone


def test_a_draw_its_deck_cannot_hold_is_refused_by_the_game_s_rule_in_its_words():
    assert turns.not_in_deck("toy.draw.in-deck", "bob cannot draw 'Jet': it is not in the pile",
                             {"Spy": 2, "Tank": 1}) == Violation(
        "toy.draw.in-deck", "bob cannot draw 'Jet': it is not in the pile (3 cards left)")
    assert turns.not_in_deck("toy.draw.in-deck", "no 'Jet' in ann's deck", {"Spy": 1}).reason \
        == "no 'Jet' in ann's deck (1 card left)"


def test_a_draw_moves_one_card_from_its_deck_into_a_sorted_hand():
    decks, hands = {"ann": {"Jet": 2, "Spy": 1}, "bob": {"Tank": 1}}, {"ann": ("Tank",), "bob": ()}
    assert multiset.drawn(decks, "ann", hands, "ann", "Spy") == (
        {"ann": {"Jet": 2}, "bob": {"Tank": 1}}, {"ann": ("Spy", "Tank"), "bob": ()})
    # a common pile (keyed apart from the hands): a kind drawn to its last copy leaves no zero
    common = {"common": {"Jet": 1}}
    assert multiset.drawn(common, "common", hands, "bob", "Jet") == (
        {"common": {}}, {"ann": ("Tank",), "bob": ("Jet",)})
    assert decks["ann"] == {"Jet": 2, "Spy": 1} and hands["ann"] == ("Tank",)  # left alone


_CARDS = st.sampled_from(["Awacs", "Delta Force", "Navy SEALs", "Zulu", "a", "", "Mid"])


@given(hand=st.lists(_CARDS, max_size=8), deck=st.lists(_CARDS, min_size=1, max_size=8),
       pick=st.integers(0, 7))
def test_a_draw_is_take_and_with_cards(hand, deck, pick):
    """`drawn` and `with_card`, written for speed, give what the plain steps give."""
    cards = tuple(sorted(hand))
    pile = multiset.merge({}, tuple(deck))
    name = deck[pick % len(deck)]
    assert multiset.with_card(cards, name) == multiset.with_cards(cards, name)
    assert multiset.drawn({"p": pile}, "p", {"ann": cards}, "ann", name) == (
        {"p": multiset.take(pile, name)}, {"ann": multiset.with_cards(cards, name)})


@given(deck=st.lists(_CARDS, min_size=1, max_size=12), seed=st.integers(0, 2**32))
def test_a_chance_draw_by_the_counts_is_the_one_random_choices_makes(deck, seed):
    """`chosen`, written for speed, draws the card `random.choices` draws by the deck's counts
    from the same generator, and asks it once."""
    pile = multiset.merge({}, tuple(deck))
    fast, plain = random.Random(seed), random.Random(seed)
    assert multiset.chosen(pile, fast.random) == plain.choices(list(pile), list(pile.values()))[0]
    assert fast.random() == plain.random()


def test_every_deck_that_ran_out_takes_its_own_pile_back():
    decks = {"ann": {}, "bob": {"Jet": 1}, "cat": {}}
    discards = {"ann": ("Spy",), "bob": ("Tank",), "cat": ()}
    # empty decks only: ann's; cat's has no pile to take
    assert multiset.reshuffled(decks, discards) == (
        {"ann": {"Spy": 1}, "bob": {"Jet": 1}, "cat": {}}, {"ann": (), "bob": ("Tank",), "cat": ()})
    # down to one card: bob's last card is shuffled in with the pile
    assert multiset.reshuffled(decks, discards, most=1) == (
        {"ann": {"Spy": 1}, "bob": {"Jet": 1, "Tank": 1}, "cat": {}},
        {"ann": (), "bob": (), "cat": ()})
    assert multiset.reshuffled({"ann": {"Jet": 1}}, {"ann": ("Spy",)}) is None  # none ran out
    assert decks["ann"] == {} and discards["ann"] == ("Spy",)  # left alone


def test_a_draw_the_deck_cannot_hold_is_swapped_into_its_own_deck():
    decks = {"ann": {"Jet": 1, "Spy": 1}, "bob": {"Tank": 1}}
    assert multiset.swapped(decks, "ann", "Tank") == {"ann": {"Spy": 1, "Tank": 1},
                                                      "bob": {"Tank": 1}}
    assert multiset.swapped(decks, "bob", "Tank") == decks


@pytest.mark.parametrize("package", ["battlecards_pacific", "cards_of_war", "global_domination",
                                     "liberation"])
def test_every_event_of_a_game_has_its_check_and_its_apply(package):
    """The tables `by_event` builds from the annotations cover exactly the game's events."""
    import importlib
    game = f"tabletape.games.{package}"
    events = set(importlib.import_module(f"{game}.events").EVENTS)
    assert set(importlib.import_module(f"{game}.legality").CHECK) == events
    assert set(importlib.import_module(f"{game}.reducer").APPLY) == events


@given(st.one_of(st.integers(-10**6, 10**6), st.floats(-1e6, 1e6, allow_nan=False)))
def test_a_coordinate_is_written_as_the_plain_rule_writes_it(v):
    """`svg.num`'s shortcut for an int gives what its plain rule gives (no needless fraction,
    else one decimal)."""
    from tabletape.engine.kit.svg import num
    assert num(v) == (str(int(v)) if v == int(v) else f"{v:.1f}")


def test_the_memoized_drawing_helpers_keep_equal_values_of_other_types_apart():
    """The SVG helpers are memoized: `1`, `True` and `1.0` are equal keys to a plain cache,
    but each is written as itself, and a list handed out is the caller's own."""
    from tabletape.engine.kit.svg import esc, text, wrap
    # 1. equal values of three types, drawn one after the other
    assert [text(0, 0, v) for v in (1, True, 1.0)] == [
        '<text x="0" y="0" font-size="12">1</text>',
        '<text x="0" y="0" font-size="12">True</text>',
        '<text x="0" y="0" font-size="12">1.0</text>']
    assert [esc(v) for v in (0, False, 0.0)] == ["0", "False", "0.0"]
    # 2. a caller changing the lines it was given changes nobody else's
    rows = wrap("alpha beta gamma", 5)
    rows.append("mine")
    assert wrap("alpha beta gamma", 5) == ["alpha", "beta", "gamma"]
