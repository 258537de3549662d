"""The move builder (issue 34, points 3 and 8): a seat's offered events as steps in players'
words (app.moves, each game's moves.py, engine.kit.moves), never a flat list of
combinations, at most 20 buttons a step; the set-up offered on one seat and drawn at
random in one write. Stories on bundled logs' prefixes; the pages in Chromium are in
test_browser_games.py."""

from __future__ import annotations

import random
import subprocess
import sys

import msgspec
import pytest

from tabletape import engine
from tabletape.app import moves, play
from tabletape.engine import seats as seating
from tabletape.engine.kit import moves as kit
from tabletape.engine.kit.moves import MOST, Pick
from tabletape.games.global_domination.events import ActionStackChosen
from tabletape.tape.events import Event
from tests.app.test_play import cut, replayed
from tests.narrow import only, present


def walk(step: moves.Step | None, trail: tuple[str, ...] = ()):
    """Yields (the labels tapped to reach it, the step) for every step of a tree."""
    if step is None:
        return
    yield trail, step
    for c in step.choices:
        yield from walk(c.next, (*trail, c.label))


def path_to(step: moves.Step, sentence: str) -> list[str] | None:
    """Returns the labels tapped to reach the leaf that records `sentence`."""
    for c in step.choices:
        if c.move is not None and c.move.sentence == sentence:
            return [c.label]
        if c.next is not None and (rest := path_to(c.next, sentence)) is not None:
            return [c.label, *rest]
    return None


def seat_tree(path, who: str) -> moves.Step | None:
    return play.Table(str(path)).shown(play.Seat(who)).moves


# -- Cards of War: a card of the hand, then its battle ------------------------------------

def test_a_deployment_is_a_card_of_the_hand_then_its_battle(tmp_path):
    # bob deploys at seq 21 of a simulated game: eight cards of his hand, three battles
    path = tmp_path / "game.jsonl"
    cut("replays/cards-of-war/sim-normal.jsonl", path, 21)
    tree = seat_tree(path, "bob")
    assert tree is not None
    # the first question names the hand's cards, not every (card, battle) pair
    assert tree.ask == "Which card do you deploy?"
    hand = present(replayed(path).fold).state.hands["bob"]
    assert {c.label for c in tree.choices} == set(hand)
    # then the battle, in players' words; the leaf records the sentence the page confirms
    card = tree.choices[0]
    assert card.next is not None and card.next.ask == f"Deploy {card.label} to which battle?"
    labels = [c.label for c in card.next.choices]
    assert labels[0] == f"Deploy {card.label} to battle 1"
    leaf = card.next.choices[0].move
    assert leaf is not None and leaf.sentence == f"bob deploys {card.label} to battle 1"
    # alice, who waits, is offered nothing
    assert seat_tree(path, "alice") is None


def test_a_recon_answer_reads_as_the_hand_it_reports():
    from tabletape.games.cards_of_war.events import HandReported
    rs = engine.get("cards-of-war")
    event = HandReported(player="bob", air=4, sea=2, ground=1, intel=1)
    assert kit.steps(rs, None, event)[-1].label == (
        "Report your hand: 4 Air, 2 Sea, 1 Ground, 1 Intel")


def test_a_draw_of_25_cards_is_asked_by_theatre_first(tmp_path):
    # the opening card: 25 kinds of card the deck holds, more than a step shows
    path = tmp_path / "game.jsonl"
    cut("replays/cards-of-war/sim-normal.jsonl", path, 1)
    tree = seat_tree(path, "alice")
    assert tree is not None and tree.ask == "Set up the table"
    assert [c.label for c in tree.choices] == [moves.RANDOM, "Choose it yourself"]
    chosen = tree.choices[1].next
    assert chosen is not None
    assert sorted(c.label for c in chosen.choices) == ["Air", "Ground", "Intel", "Sea"]
    assert moves.buttons(tree) <= MOST and len(moves.leaves(tree)) == 25


# -- Global Domination: the card to take, then the cards that pay for it, ticked ----------

def test_a_discard_is_the_card_to_take_then_the_cards_that_pay_ticked(tmp_path):
    # alice at seq 84 of a 3-player game: 172 events offered (plays and discards)
    path = tmp_path / "game.jsonl"
    cut("replays/global-domination/simulated-3-players.jsonl", path, 84)
    table = play.Table(str(path))
    page = table.shown(play.Seat("alice"))
    assert sum(len(g.events) for g in page.groups) == 172  # the flat list of before
    tree = page.moves
    assert tree is not None and tree.ask == "What do you do?"
    kinds = {c.label: c for c in tree.choices}
    assert {"Play a card", "Discard to take an Action card"} <= set(kinds)
    take = kinds["Discard to take an Action card"].next
    assert take is not None and take.ask == "Which card do you take?"
    pay = take.choices[0].next
    assert pay is not None and pay.tick and pay.ask.startswith(f"Which cards pay for "
                                                               f"{take.choices[0].label}?")
    items = {t for c in pay.choices for t in c.ticks or ()}
    hand = set(present(replayed(path).fold).state.hands["alice"])
    assert items <= hand  # each card of the hand once, to tick: not every pair of them
    sets = [tuple(sorted(c.ticks or ())) for c in pay.choices]
    assert len(sets) == len(set(sets))  # a pair in either order is one move
    assert moves.buttons(tree) <= MOST


def test_the_set_up_is_offered_on_one_seat_and_drawn_in_one_write(tmp_path):
    # a new 3-player game waits on chance for its First Player, then 10 Action stacks
    path = tmp_path / "game.jsonl"
    subprocess.run([sys.executable, "-m", "tabletape", "new", "global-domination", str(path),
                    "--players", "ann,bob,cat"], check=True, capture_output=True)
    table = play.Table(str(path))
    ann, bob = table.shown(play.Seat("ann")), table.shown(play.Seat("bob"))
    # ann (first in seat order) sets the table up; bob and cat wait, with no buttons
    assert ann.setting_up == "ann" and ann.moves is not None
    assert ann.moves.choices[0].setup and ann.moves.choices[0].label == moves.RANDOM
    assert bob.moves is None and bob.groups == [] and bob.setting_up == "ann"
    # bob may not draw it
    with pytest.raises(play.NotYours):
        table.setup(play.Seat("bob"), {"after": bob.version})
    # ann draws it: one write of 11 events, as the chance events the rules accept
    said = table.setup(play.Seat("ann"), {"after": ann.version})
    assert said.startswith("recorded seq 1 to 11: set up at random (")
    result = replayed(path)
    assert result.events == 12
    lines = path.read_text().splitlines()[1:]
    assert [msgspec.json.decode(x)["type"] for x in lines] == (
        ["first_player_chosen"] + ["action_stack_chosen"] * 10)
    assert all(msgspec.json.decode(x)["by"] == "ann" for x in lines)
    # and nothing is left to set up: a second press is refused
    with pytest.raises(play.Conflict):
        table.setup(play.Seat("ann"), {"after": table.shown(play.Seat("ann")).version})
    assert subprocess.run([sys.executable, "-m", "tabletape", "validate", str(path)],
                          capture_output=True).returncode == 0


def test_a_players_own_set_up_draw_is_theirs_to_draw(tmp_path):
    # Cards of War: each player turns up their own opening card; alice's draw stops at bob's
    path = tmp_path / "game.jsonl"
    cut("replays/cards-of-war/sim-normal.jsonl", path, 1)
    table = play.Table(str(path))
    said = table.setup(play.Seat("alice"), {"after": table.shown(play.Seat("alice")).version})
    assert said.startswith("recorded seq 1 to 1: set up at random (alice turns up ")
    bob = table.shown(play.Seat("bob"))
    assert bob.setting_up == "bob" and bob.moves is not None and bob.moves.choices[0].setup


def test_a_set_up_drawn_at_random_follows_chances_weights():
    rs, state = _new("global-domination", ("ann", "bob", "cat"))
    drawn = moves.draw_setup(rs, state, random.Random(1), None)
    assert len(drawn) == 11 and len({e.card for e in only(ActionStackChosen, drawn[1:])}) == 10
    for e in drawn:
        assert rs.check(state, e) is None
        state = rs.apply(state, e)
    assert not moves.setting_up(rs, state, seating.offered(rs, state, "ann"))


def _new(game: str, players: tuple[str, ...]):
    from tabletape.engine.simulate import header_for
    rs = engine.get(game)
    bound = rs.bind(header_for(rs, players))
    return bound, bound.initial()


# -- every game: at most 20 buttons a step, every offered event reached ---------------------

@pytest.mark.parametrize("log", [
    "replays/cards-of-war/alt-reinforce-theatres-joint.jsonl",
    "replays/global-domination/simulated-3-players.jsonl",
    "replays/liberation/sim-6-players.jsonl",
    "replays/battlecards-pacific/simulated-seed-0.jsonl",
])
def test_every_step_of_a_whole_game_shows_at_most_20_buttons(log):
    from tabletape.app.logrows import header_of
    header, game = header_of(log)
    rs = game.bind(header)
    state, worst, events = rs.initial(), 0, 0
    with open(log, "rb") as f:
        lines = f.read().splitlines()[1:]
    for n, line in enumerate(lines, 1):
        event = rs.codec.decode(line, log, n, 0)
        if rs.pending(state) is None or rs.check(state, event) is not None:
            break
        if n % 3 == 0:  # every third position: the test stays quick
            for p in header.players:
                offered = seating.offered(rs, state, p)
                tree = moves.tree(rs, rs.view(state, p), offered)
                worst = max(worst, moves.buttons(tree))
                reached = [msgspec.json.encode(x.event) for x in moves.leaves(tree)]
                assert set(reached) <= {msgspec.json.encode(msgspec.to_builtins(e))
                                        for e in offered}
                assert bool(reached) == bool(offered)
                for trail, step in walk(tree):  # headings in players' words
                    assert "_" not in step.ask and step.ask[0].isupper(), (trail, step.ask)
        state = rs.apply(state, event)
        events += 1
    assert 0 < worst <= MOST and events > 50


# -- a fifth game: steps from its events' fields ------------------------------------------

def test_a_game_without_moves_gets_steps_from_its_events_fields():
    from tests.template_game import RULESET
    from tests.template_game.events import Rolled, Taken
    assert kit.part(RULESET) is None
    assert kit.steps(RULESET, None, Taken(player="ann", count=2)) == (
        Pick("What do you do?", "Taken"), Pick("Count?", "2"))
    assert kit.setup(RULESET) == frozenset({Rolled})  # its public chance outcome


def test_a_long_step_is_asked_in_ranges_of_at_most_20():
    from tests.template_game import RULESET
    from tests.template_game.events import Taken
    many: list[Event] = [Taken(player="ann", count=n) for n in range(1, 46)]
    tree = moves.tree(RULESET, None, many)
    assert tree is not None and len(tree.choices) == 3
    assert [c.label for c in tree.choices][0] == "1 … 15"
    assert moves.buttons(tree) == 15 and len(moves.leaves(tree)) == 45


def test_the_set_up_route_writes_for_the_seat_that_sets_up(tmp_path):
    pytest.importorskip("uvicorn", reason="serve --play needs the view extra")
    from tabletape.web import table as live
    from tests.app.test_play import post, state
    from tests.app.test_serve import Served
    path = tmp_path / "game.jsonl"
    subprocess.run([sys.executable, "-m", "tabletape", "new", "global-domination", str(path),
                    "--players", "ann,bob,cat"], check=True, capture_output=True)
    seats = play.Seats(("ann", "bob", "cat"))
    served = Served(live.play_app(play.Table(str(path)), seats))
    try:
        links = {seat.name: p for seat, p in seats.links()}
        # bob's page waits for ann; a set-up posted from it is refused (403), nothing written
        bob = state(served, links["bob"])
        assert bob["moves"] is None and bob["setting_up"] == "ann"
        status, said = post(served, links["bob"] + "/setup", {"after": bob["version"]})
        assert status == 403 and "ann sets the table up" in said["message"]
        assert len(path.read_text().splitlines()) == 1
        # ann's is written: 11 events in one write
        ann = state(served, links["ann"])
        status, said = post(served, links["ann"] + "/setup", {"after": ann["version"]})
        assert status == 200 and said["message"].startswith("recorded seq 1 to 11")
        assert len(path.read_text().splitlines()) == 12
    finally:
        served.close()


@pytest.mark.parametrize("game", ["cards-of-war", "global-domination", "liberation",
                                  "battlecards-pacific"])
def test_each_game_declares_its_moves(game):
    import inspect
    rs = engine.get(game)
    part = kit.part(rs)
    assert part is not None and getattr(part, "__name__", "").endswith(".moves")  # a module
    assert list(inspect.signature(part.steps).parameters) == ["lk", "view", "event"]
    assert isinstance(part.SETUP, frozenset) and part.SETUP <= set(rs.events)
    assert not part.SETUP & set(rs.SECRETS)  # set up in the open: no seat's secret
