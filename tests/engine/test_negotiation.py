"""Undo requests and their answers, judged by the fold: one short story per core.ask rule.

alice's draw of a Tank is seq 3 in each story (`fold_with` plays the opening first).
"""

from __future__ import annotations

import pytest

from tabletape import engine
from tabletape.engine.fold import restore, snapshot
from tabletape.tape.events import Event, Note, Signed, UndoAsked, Undone, UndoRefused
from tests.engine.test_engine import ALICE_DRAWS, fold_with
from tests.narrow import present

ASK = UndoAsked(target=3, by="alice")  # at seq 4
ACCEPT = Undone(target=3, asked=4, by="bob")
REFUSE = UndoRefused(target=3, asked=4, by="bob")


def problems(fold: engine.Fold) -> list[tuple[int | None, str | None]]:
    return [(p.seq, p.rule) for p in fold.core_problems]


def test_an_accepted_request_retracts_the_event():
    # alice asks, a note comes between, bob accepts: the draw is undone by bob's line
    fold = fold_with(ALICE_DRAWS, ASK, Note(text="we agree", by="bob"),
                     Undone(target=3, asked=4, by="bob"))
    assert problems(fold) == [] and fold.retracted == {3: 6}
    assert fold.state == fold_with().state and fold.open_request() is None


def test_a_refused_request_leaves_the_event_standing():
    fold = fold_with(ALICE_DRAWS, ASK, REFUSE)
    assert problems(fold) == [] and fold.latest() == 3 and fold.open_request() is None
    assert fold.state == fold_with(ALICE_DRAWS).state


def test_a_request_stays_open_across_notes_disputes_and_signatures():
    fold = fold_with(ALICE_DRAWS, ASK, Note(text="?", about=3, dispute=True, by="bob"),
                     Signed(player="bob", signature="0" * 128))
    asked = fold.open_request()
    assert asked is not None and (asked.seq, asked.target, asked.by) == (4, 3, "alice")


def test_the_umpire_may_accept_a_request():
    fold = fold_with(ALICE_DRAWS, ASK, Undone(target=3, asked=4, by="umpire"))
    assert problems(fold) == [] and fold.latest() == 2


def test_a_request_and_an_answer_say_who_made_them():
    # core.ask.by: a request without `by`, then an answer without it
    fold = fold_with(ALICE_DRAWS, UndoAsked(target=3))
    assert problems(fold) == [(4, "core.ask.by")] and fold.open_request() is None
    fold = fold_with(ALICE_DRAWS, ASK, Undone(target=3, asked=4))
    assert problems(fold) == [(5, "core.ask.by")] and fold.latest() == 3


def test_a_request_names_the_latest_effective_event():
    # core.ask.latest: seq 2 is not the latest (alice's draw at seq 3 is)
    fold = fold_with(ALICE_DRAWS, UndoAsked(target=2, by="alice"))
    [p] = fold.core_problems
    assert p.rule == "core.ask.latest" and "the latest effective event is seq 3" in p.reason
    # nor a signature, which nothing undoes
    fold = fold_with(ALICE_DRAWS, Signed(player="bob", signature="0" * 128),
                     UndoAsked(target=4, by="alice"))
    assert problems(fold) == [(5, "core.ask.latest")]


def test_an_answer_names_an_earlier_request():
    # core.ask.none: seq 3 is a draw, not a request; seq 9 is not earlier
    fold = fold_with(ALICE_DRAWS, ASK, Undone(target=3, asked=3, by="bob"),
                     UndoRefused(target=3, asked=9, by="bob"))
    assert problems(fold) == [(5, "core.ask.none"), (6, "core.ask.none")]
    assert fold.latest() == 3 and fold.open_request() is not None  # neither stood


def test_an_invalid_request_is_no_request():
    fold = fold_with(ALICE_DRAWS, UndoAsked(target=1, by="alice"),
                     Undone(target=3, asked=4, by="bob"))
    assert problems(fold) == [(4, "core.ask.latest"), (5, "core.ask.none")]


@pytest.mark.parametrize("later, why", [
    (REFUSE, "refused at seq 5"),
    (Undone(target=3, by="umpire"), "the undo at seq 5 made it void"),
    (UndoAsked(target=3, by="bob"), "a later request (seq 5) made it void"),
    (ALICE_DRAWS, "the game event at seq 5 made it void"),
])
def test_only_an_open_request_may_be_answered(later, why):
    # core.ask.void: answered, or made void by an undo, another request, a game event
    fold = fold_with(ALICE_DRAWS, ASK, later, Undone(target=3, asked=4, by="bob"))
    [p] = fold.core_problems
    assert (p.seq, p.rule) == (6, "core.ask.void") and why in p.reason


def test_a_game_event_and_its_undo_leave_a_request_void():
    # the table moved on (seq 5) and back (seq 6): the request stays void
    fold = fold_with(ALICE_DRAWS, ASK, ALICE_DRAWS, Undone(target=5, by="alice"), ACCEPT)
    [p] = fold.core_problems
    assert p.rule == "core.ask.void" and "seq 5 made it void" in p.reason


def test_no_one_answers_their_own_request():
    # core.ask.self: alice asked; she can neither accept nor refuse it
    fold = fold_with(ALICE_DRAWS, ASK, Undone(target=3, asked=4, by="alice"),
                     UndoRefused(target=3, asked=4, by="alice"))
    assert problems(fold) == [(5, "core.ask.self"), (6, "core.ask.self")]
    assert "alice asked for this undo at seq 4" in fold.core_problems[0].reason


def test_an_answer_names_the_requests_event():
    # core.ask.target: the request is for seq 3
    fold = fold_with(ALICE_DRAWS, ASK, UndoRefused(target=2, asked=4, by="bob"))
    [p] = fold.core_problems
    assert p.rule == "core.ask.target" and "asks to undo seq 3, not seq 2" in p.reason


def test_every_new_rule_is_in_the_catalogue_and_checked_before_writing():
    cat = engine.CORE_RULES
    assert {"core.ask.by", "core.ask.latest", "core.ask.none", "core.ask.void",
            "core.ask.self", "core.ask.target"} <= set(cat)
    # `violation` (what `append` asks first) agrees with the fold, and changes nothing
    fold = fold_with(ALICE_DRAWS, ASK)
    assert present(fold.violation(5, Undone(target=3, asked=4, by="alice"))).rule == "core.ask.self"
    assert present(fold.violation(5, UndoRefused(target=2, asked=4, by="bob"))).rule == "core.ask.target"
    assert present(fold.violation(5, UndoAsked(target=2, by="bob"))).rule == "core.ask.latest"
    assert fold.violation(5, ACCEPT) is None and fold.open_request() is not None


def test_a_checkpoint_keeps_the_open_request():
    fold = fold_with(ALICE_DRAWS, ASK)
    raw = snapshot(fold)
    assert raw is not None
    back = restore(raw, fold.ruleset, fold.header, 4, "game.jsonl")
    asked = back.open_request()
    assert asked is not None and (asked.seq, asked.by) == (4, "alice")
    assert back.feed(5, ACCEPT) is None and back.latest() == 2
    # and one the table moved on from stays void
    fold = fold_with(ALICE_DRAWS, ASK, ALICE_DRAWS)
    back = restore(present(snapshot(fold)), fold.ruleset, fold.header, 5, "game.jsonl")
    assert back.open_request() is None
    assert present(back.feed(6, Undone(target=5, asked=4, by="bob"))).rule == "core.ask.void"
    assert present(back.feed(7, UndoAsked(target=3, by="bob"))).rule == "core.ask.latest"


def test_the_sentences_name_who_asked_and_who_answered():
    rs = fold_with().ruleset
    assert engine.describe(rs, ASK) == "alice asks to undo seq 3"
    assert engine.describe(rs, ACCEPT) == "bob accepts the request at seq 4: undoes seq 3"
    assert engine.describe(rs, REFUSE) == "bob refuses the request at seq 4: seq 3 stands"
    assert engine.describe(rs, Undone(target=3)) == "undoes seq 3"  # as before


def _random_table(seed: int, n: int) -> list:
    """Returns `n` events after the opening: legal draws, undos, requests and answers
    (some valid, some not), notes, chosen at random."""
    import random
    rng = random.Random(seed)
    fold = fold_with()
    seq, events = 2, list[Event]()
    for _ in range(n):
        seq += 1
        roll = rng.random()
        latest, who = fold.latest(), rng.choice(("alice", "bob", "umpire"))
        near = rng.choice((latest, latest, max(latest - 1, 0), seq - 1))  # mostly right
        asked = fold.requests.last.seq if fold.requests.last and rng.random() < .8 \
            else rng.randrange(1, seq)
        open_ = fold.open_request()
        ev: Event
        if open_ is not None and rng.random() < .5:  # an answer, mostly a valid one
            kind = rng.choice((Undone, UndoRefused))
            ev = kind(target=open_.target, asked=open_.seq, by=who)
        elif roll < .3:
            ev = next(iter(fold.ruleset.legal(fold.state)), Note(text="over"))
        elif roll < .45:
            ev = UndoAsked(target=near, by=who)
        elif roll < .6:
            ev = Undone(target=near, asked=asked, by=who)
        elif roll < .7:
            ev = UndoRefused(target=near, asked=asked, by=who)
        elif roll < .8:
            ev = Undone(target=near, by=who)
        else:
            ev = Note(text="hm", by=who)
        events.append(ev)
        fold.feed(seq, ev)
    return events


@pytest.mark.parametrize("seed", range(6))
def test_the_fold_predicts_and_a_checkpoint_keeps_every_verdict(seed):
    # what `violation` says before each line is what the fold then finds; a fold restored
    # from a snapshot after any line judges the rest as the unbroken fold does
    events = _random_table(seed, 200)
    fold = fold_with()
    for seq, ev in enumerate(events, 3):
        predicted = fold.violation(seq, ev)
        refusal = fold.feed(seq, ev)
        assert (predicted and predicted.rule) == (refusal and refusal.rule), (seq, ev)
    found = problems(fold)
    assert {rule for _, rule in found} >= {"core.ask.void", "core.ask.none", "core.ask.self"}
    answered = [ev for seq, ev in enumerate(events, 3) if getattr(ev, "asked", None) is not None
                and seq not in {s for s, _ in found}]
    assert {type(ev) for ev in answered} == {Undone, UndoRefused}  # valid answers of each kind
    restored = 0
    for cut_at in range(3, 3 + len(events), 17):
        head = fold_with(*events[:cut_at - 2])
        raw = snapshot(head)
        if raw is None:  # too many problems to be worth a checkpoint (MAX_PROBLEMS)
            continue
        restored += 1
        back = restore(raw, head.ruleset, head.header, cut_at, "game.jsonl")
        later = [(s, e.rule) for s, ev in enumerate(events[cut_at - 2:], cut_at + 1)
                 if (e := back.feed(s, ev)) is not None and e.rule.startswith("core.")]
        assert later == [p for p in found if present(p[0]) > cut_at], cut_at
    assert restored >= 4


def test_explain_reads_on_for_an_accepted_request_only(tmp_path, run):
    # explain 20 reads the lines after it as the fold would: alice's own acceptance does not
    # stand (core.ask.self), bob's does
    import json

    from tests.app.test_play import SIM, cut
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)

    def append(body: str, by: str, *more: str) -> None:
        assert run("append", path, body, "--by", by, *more).exit_code in (0, 1)

    def undone_at() -> int | None:
        return json.loads(run("explain", path, "20", "--json").stdout)["undone_at"]

    append('{"type":"undo_asked","target":20}', "alice")
    append('{"type":"undone","target":20,"asked":21}', "alice", "--force")
    assert undone_at() is None
    append('{"type":"undone","target":20,"asked":21}', "bob")
    assert undone_at() == 23
