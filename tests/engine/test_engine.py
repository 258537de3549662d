"""The fold: undo, illegal events and what follows them, --keep-going, disputes, core rules."""

from __future__ import annotations

import msgspec
import pytest

from tabletape import engine
from tabletape.engine import Ruleset
from tabletape.games.cards_of_war.events import CardDrawn, Options
from tabletape.tape.errors import IllegalEvent
from tabletape.tape.events import Header, Note, Undone
from tests.conftest import COW
from tests.narrow import instance, present

ALICE_DRAWS = CardDrawn(player="alice", card="Tank")
BOB_DRAWS = CardDrawn(player="bob", card="Tank")  # illegal while alice is refilling


def fold_with(*events, keep_going: bool = False) -> engine.Fold:
    """Returns a fold over a short game whose opening made alice the first player."""
    from tabletape.games.cards_of_war.events import OpeningCardDrawn
    header = COW.start(("alice", "bob"), Options(length="short"), COW.default_components())
    fold = engine.Fold(COW, header, keep_going=keep_going)
    opening = [OpeningCardDrawn(player="alice", card="Battleship"),
               OpeningCardDrawn(player="bob", card="Spy")]
    for seq, ev in enumerate([*opening, *events], 1):
        fold.feed(seq, ev)
    return fold


def test_undone_retracts_the_latest_effective_event():
    # alice draws a Tank, then the draw is undone
    before = fold_with().state
    fold = fold_with(ALICE_DRAWS, Undone(target=3))
    assert fold.state == before
    assert fold.retracted == {3: 4}


def test_successive_undos_walk_back_one_event_each():
    fold = fold_with(ALICE_DRAWS, ALICE_DRAWS, Undone(target=4), Undone(target=3))
    assert fold.state == fold_with().state


def test_undone_must_name_the_latest_effective_event():
    fold = fold_with(ALICE_DRAWS, Undone(target=1))
    [problem] = fold.core_problems
    assert problem.rule == "core.undo.latest" and "seq 3" in problem.reason


def test_notes_are_not_effective_events_for_undo():
    fold = fold_with(ALICE_DRAWS, Note(text="nice"), Undone(target=3))
    assert not fold.core_problems and fold.state == fold_with().state


def test_undo_with_nothing_to_retract_is_refused():
    header = COW.start(("alice", "bob"), Options(), COW.default_components())
    fold = engine.Fold(COW, header)
    err = fold.feed(1, Undone(target=0))
    assert err is not None and err.rule == "core.undo.nothing"


def test_an_illegal_event_blocks_judgement_until_undone():
    # bob's draw is illegal (alice is refilling); the next draw is not judged
    fold = fold_with(BOB_DRAWS, ALICE_DRAWS)
    assert list(fold.illegal) == [3] and fold.illegal[3].rule == "cow.turn.order"
    assert set(fold.unjudged) == {4}
    assert fold.state == fold_with().state


def test_undoing_the_illegal_event_corrects_the_log():
    fold = fold_with(BOB_DRAWS, Undone(target=3), ALICE_DRAWS)
    assert not fold.illegal and list(fold.corrected) == [3]
    assert fold.state == fold_with(ALICE_DRAWS).state


def test_keep_going_skips_the_illegal_event_and_judges_the_rest():
    fold = fold_with(BOB_DRAWS, ALICE_DRAWS, keep_going=True)
    assert list(fold.illegal) == [3] and not fold.unjudged
    assert fold.state == fold_with(ALICE_DRAWS).state


def test_a_dispute_about_an_illegal_event_is_ruled_illegal_with_its_rule():
    fold = fold_with(BOB_DRAWS, Note(text="not his turn", about=3, dispute=True, by="alice"))
    [ruling] = fold.disputes
    assert (ruling.about, ruling.verdict, ruling.rule, ruling.by) == (3, "illegal", "cow.turn.order", "alice")
    assert "alice draws now" in ruling.reason


def test_a_dispute_about_a_legal_event_is_ruled_legal_citing_the_governing_rules():
    fold = fold_with(ALICE_DRAWS, Note(text="?", about=3, dispute=True))
    [ruling] = fold.disputes
    assert ruling.verdict == "legal" and "cow.draw.in-deck" in present(ruling.rule)


def test_a_dispute_about_an_unjudged_event_says_so():
    fold = fold_with(BOB_DRAWS, ALICE_DRAWS, Note(text="?", about=4, dispute=True))
    assert fold.disputes[0].verdict == "not judged" and "seq 3" in fold.disputes[0].reason


def test_a_dispute_about_a_corrected_event_is_still_ruled_illegal():
    fold = fold_with(BOB_DRAWS, Undone(target=3), Note(text="?", about=3, dispute=True))
    assert fold.disputes[0].verdict == "illegal" and "undone at seq 4" in fold.disputes[0].reason


def test_a_dispute_about_a_note_is_not_a_game_event():
    fold = fold_with(Note(text="a"), Note(text="?", about=3, dispute=True))
    assert fold.disputes[0].verdict == "not a game event"


def test_a_note_cannot_be_about_a_later_event():
    fold = fold_with(Note(text="?", about=9))
    assert fold.core_problems[0].rule == "core.note.about"


def test_a_second_header_is_refused():
    header = COW.start(("alice", "bob"), Options(), COW.default_components())
    fold = fold_with(header)
    assert fold.core_problems[0].rule == "core.header.first"
    assert isinstance(header, Header)


def test_no_game_event_after_the_game_is_over(tmp_path):
    result = engine.replay("replays/cards-of-war/joint-adjacent.jsonl")
    assert result.ruleset is not None
    assert result.ruleset.outcome(result.state) is not None
    assert result.fold is not None
    assert present(result.fold.judge(ALICE_DRAWS)).rule == "core.game.over"


def test_undo_reaches_back_only_so_far(monkeypatch):
    from tabletape.engine import fold as fold_module
    monkeypatch.setattr(fold_module, "MAX_UNDO_DEPTH", 2)
    header = COW.start(("alice", "bob"), Options(), COW.default_components())
    fold = engine.Fold(COW, header)
    from tabletape.games.cards_of_war.events import OpeningCardDrawn
    events = [OpeningCardDrawn(player="alice", card="Battleship"),
              OpeningCardDrawn(player="bob", card="Spy"), ALICE_DRAWS]
    for seq, ev in enumerate(events, 1):
        fold.feed(seq, ev)
    assert fold.feed(4, Undone(target=3)) is None
    assert fold.feed(5, Undone(target=2)) is None
    assert present(fold.feed(6, Undone(target=1))).rule == "core.undo.depth"


def test_replay_to_a_seq_stops_there():
    full = engine.replay("replays/cards-of-war/sim-normal.jsonl")
    part = engine.replay("replays/cards-of-war/sim-normal.jsonl", to=40)
    assert part.tail is not None
    assert part.events == 41 and part.tail.seq == 40 and part.state != full.state


def test_replay_keeps_a_format_error_and_the_state_before_it(tmp_path):
    path = tmp_path / "g.jsonl"
    data = open("replays/cards-of-war/sim-normal.jsonl", "rb").read().splitlines(keepends=True)
    path.write_bytes(b"".join(data[:30]) + b"{oops}\n")
    result = engine.replay(str(path))
    assert result.error is not None and result.error.line == 31
    assert result.events == 30
    assert result.state == engine.replay("replays/cards-of-war/sim-normal.jsonl", to=29).state


def _hand_made(tmp_path, header: dict) -> str:
    """Writes a log whose header was made by hand (no `new`), chained as a writer would."""
    from tabletape.tape import log
    path = str(tmp_path / "hand.jsonl")
    good = COW.start(("alice", "bob"), Options(), COW.default_components())
    body = {**msgspec.to_builtins(good), **header}
    log.create(path, msgspec.convert(body, COW.Header), COW.codec)
    return path


def test_a_header_no_new_would_write_is_invalid_when_read(tmp_path):
    path = _hand_made(tmp_path, {"players": ["alice", "bob", "carol"]})
    result = engine.replay(path)
    assert not result.ok and result.fold is None
    assert str(result.error) == f"{path}:1 (byte 0): bad header: cards-of-war needs 2 players, got 3"


def test_an_option_mix_new_refuses_is_invalid_when_read(tmp_path):
    path = _hand_made(tmp_path, {"options": {"strategic_exhaustion": True}})
    result = engine.replay(path)
    assert result.error is not None and result.error.line == 1
    assert "strategic_exhaustion is played only with length=long" in str(result.error)


# -- the toy game (tests/toy_game.py): the engine with nothing of the four games ---------------

@pytest.fixture
def toy(monkeypatch):
    """Registers the toy game, as a fifth game's package would be found."""
    monkeypatch.setitem(engine.GAMES, "take-away", "tests.toy_game")
    return engine.get("take-away")


def toy_log(tmp_path, toy, *counts: int, players=("ann", "bob")) -> str:
    """Writes a toy game's log: the players take `counts` in turn (checked like `append`)."""
    from tabletape.tape import log
    from tests.toy_game import Taken
    path = str(tmp_path / f"toy-{'-'.join(map(str, counts))}.jsonl")
    header = toy.start(players, toy.Options(pile=5), toy.default_components())
    tail = log.create(path, header, toy.codec)
    events = [Taken(player=players[i % len(players)], count=n) for i, n in enumerate(counts)]
    log.append(path, events, toy.codec, expect=tail)
    return path


def test_the_toy_game_is_played_through_the_engine(tmp_path, toy):
    result = engine.replay(toy_log(tmp_path, toy, 2, 3))
    assert result.ok and result.state.pile == 0
    assert result.ruleset is not None
    assert present(result.ruleset.outcome(result.state)).winners == ("bob",)
    assert result.ruleset.pending(result.state) is None


def test_the_toy_game_refusals_name_their_rule(tmp_path, toy):
    [problem] = engine.replay(toy_log(tmp_path, toy, 4)).problems
    assert instance(IllegalEvent, problem).rule == "toy.take.count" and problem.seq == 1
    [problem] = engine.replay(toy_log(tmp_path, toy, 3, 3)).problems
    assert instance(IllegalEvent, problem).rule == "toy.take.pile" and problem.seq == 2


def test_legal_and_check_agree_on_the_toy_game(toy):
    from tabletape.engine import simulate
    for seed in range(20):
        rs = toy.bind(simulate.header_for(toy, ("ann", "bob", "cat")))
        state = rs.initial()
        for event, after in simulate.play(toy, rs.header, seed):
            assert rs.check(state, event) is None
            assert all(rs.check(state, e) is None for e in rs.legal(state))
            state = after
        assert rs.outcome(state) is not None and not list(rs.legal(state))


def test_a_toy_header_with_too_many_players_is_invalid_when_read(tmp_path, toy):
    from tabletape.tape import log
    from tests.toy_game import Started
    path = str(tmp_path / "five.jsonl")
    good = toy.start(("a", "b"), toy.Options(), toy.default_components())
    log.create(path, msgspec.structs.replace(good, players=("a", "b", "c", "d", "e")), toy.codec)
    assert isinstance(good, Started)
    assert "take-away needs 2 to 4 players, got 5" in str(engine.replay(path).error)


def test_a_game_that_lacks_a_rule_fails_when_it_is_made_not_when_it_is_played():
    from tests.toy_game import TakeAway

    class Forgetful(TakeAway):
        check = Ruleset.check  # the abstract one: as if the game never wrote it

    with pytest.raises(TypeError, match="check"):
        Forgetful()
