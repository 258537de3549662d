"""Issue 25: rulings an umpire can check by hand: the arithmetic shown (a derivation from
the numbers the check used), exactly the values a ruling rests on, the undo shown."""

from __future__ import annotations

import glob
import json
import shutil
from typing import Any

import pytest

from tabletape import engine
from tabletape.engine.kit.packaged import Packaged
from tabletape.tape.events import Event
from tests.narrow import instance, present

BCP = "replays/battlecards-pacific/battle-withdrawal-dispute.jsonl"
KILL_LOG = "replays/cards-of-war/kill-dispute.jsonl"
LIB = "replays/liberation/disputed-play.jsonl"
SUM = ("needs 4-8: attack 6 (A6M Zero, air) + support 1 (Shokaku Carrier) "
       "+ Radar Advantage 1 = 8")


def _at(path: str, seq: int):
    result = engine.capture(path, seq)
    rec, before, _ = present(result.captured)
    return result.ruleset, before, rec.event


# -- item 1: the arithmetic shown --------------------------------------------------------

def test_explain_shows_the_window_as_its_terms(run):
    r = run("explain", BCP, 27)
    assert r.exit_code == 0
    assert f"  {SUM}" in r.stdout.splitlines()
    data = json.loads(run("explain", BCP, 27, "--json").stdout)
    d = data["derivation"]
    assert (d["what"], d["result"]) == ("needs 4-8", 8)
    assert d["terms"] == [
        {"term": "attack", "value": 6, "source": "components: A6M Zero.attack",
         "provenance": "reconstructed", "detail": "A6M Zero, air"},
        {"term": "support", "value": 1, "source": "components: Shokaku Carrier.support",
         "provenance": "reconstructed", "detail": "Shokaku Carrier"},
        {"term": "Radar Advantage", "value": 1, "source": "components: Radar Advantage.bonus",
         "provenance": "reconstructed"}]


def test_the_dispute_ruling_carries_the_derivation_too(run):
    report = json.loads(run("validate", BCP, "--json").stdout)
    ruling = next(d for d in report["disputes"] if d["about"] == 27)
    assert ruling["derivation"]["result"] == 8


def test_every_window_derived_is_the_window_the_check_used():
    # the sentence's numbers and the check's are one computation: they agree on every shot
    seen: list = []

    def visit(j: engine.Judged) -> None:
        if j.before is None or j.fold is None or type(j.event).__name__ != "ConflictTurned":
            return
        d = j.fold.ruleset.derive(j.before, j.event)
        shot = j.before.battle.shot
        assert d is not None and d.result == shot.upto == sum(t.value for t in d.terms)
        assert d.what.startswith(f"needs {shot.above + 1}-") or "cannot hit" in d.what
        seen.append(d)
    for path in sorted(glob.glob("replays/battlecards-pacific/*.jsonl")):
        engine.replay(path, visit=visit)
    assert len(seen) > 5


# -- item 2: rests on exactly what the check read --------------------------------------

def test_the_window_rests_on_every_term_it_summed():
    rs, before, event = _at(BCP, 27)
    rested = {(r.entry, r.field) for r in engine.rests_on(rs, before, event)}
    assert {("A6M Zero", "attack"), ("Shokaku Carrier", "support"),
            ("Radar Advantage", "bonus"), ("F4U Corsair", "defence"),
            ("Supply Lines Stretched", "action")} <= rested
    assert "bcp.fire.kept" in rs.governing(event)


def test_a_turn_order_refusal_rests_on_no_card_value(run):
    rs, before, event = _at(LIB, 14)
    assert rs.check(before, event).rule == "lib.turn.order"
    assert list(rs.reads(before, event)) == []
    assert engine.rests_on(rs, before, event) == []
    assert "rests on" not in run("explain", LIB, 14).stdout


def test_what_a_check_reads_is_recorded_as_it_reads():
    rs, before, event = _at(KILL_LOG, 21)
    read = {(n, f) for n, _, fs in rs.reads(before, event) for f in fs}
    assert {("Anti-Tank Gun", "kill"), ("Torpedo Bomber", "types")} <= read


# -- item 4 (the issue's): the undo shown -------------------------------------------------

def test_explain_says_the_event_was_undone(run):
    r = run("explain", KILL_LOG, 21)
    assert "  undone at seq 23: it no longer counts in the game" in r.stdout.splitlines()
    assert json.loads(run("explain", KILL_LOG, 21, "--json").stdout)["undone_at"] == 23
    assert json.loads(run("explain", KILL_LOG, 20, "--json").stdout)["undone_at"] is None


# -- item 5 (the issue's): provenance everywhere, through one function -------------------

def test_replay_step_shows_the_dispute_ruling_with_its_sum_and_basis(run):
    r = run("replay", BCP, "--step", input="g 27\nq\n")
    assert r.exit_code == 0
    assert SUM in r.output
    assert "rests on values not from the rulebook: Supply Lines Stretched's action" in r.output


def test_the_viewer_marks_carry_the_same_lines():
    from tabletape.app import viewer
    marks = viewer.build(BCP).frames[27]["m"]
    assert SUM in marks
    assert any(m.startswith("rests on values not from the rulebook") for m in marks)


def test_record_dispute_shows_what_its_ruling_rests_on(run, tmp_path):
    path = tmp_path / "g.jsonl"
    shutil.copy(BCP, path)
    r = run("record", path, input="dispute 27 @bob was that right?\n")
    lines = r.output.splitlines()
    assert any(x.startswith("ruling on seq 27: legal") for x in lines)
    assert f"  {SUM}" in lines
    assert any(x.startswith("  rests on values not from the rulebook: ") for x in lines)


def test_note_dispute_shows_the_sum(run, tmp_path):
    path = tmp_path / "g.jsonl"
    shutil.copy(BCP, path)
    r = run("note", path, "the Shokaku should not count", "--about", 27, "--dispute",
            "--by", "bob")
    assert f"  {SUM}" in r.output.splitlines()


# -- item 6 (the issue's): no sentence names a cause that did not occur ------------------

def test_a_dispute_about_an_undone_event_says_it_was_undone(run, tmp_path):
    # a legal event undone, then disputed: the state before it is gone, for that reason only
    path = tmp_path / "g.jsonl"
    shutil.copy(BCP, path)
    assert "undoes seq 38" in run("record", path, input="undo\n").output
    r = run("note", path, "was that draw fair?", "--about", 38, "--dispute", "--by", "bob")
    assert r.exit_code == 0
    assert "before a checkpoint" not in r.output and "undo depth" not in r.output
    assert ("the component values it rests on are not known here (the event was undone at "
            "seq 39, before this dispute, and the state before an undone event is not kept)"
            ) in " ".join(r.output.split())


def _first(path: str, kind: str):
    found: list[tuple[engine.Ruleset[Any, Any, Any], Any, Event]] = []

    def visit(j: engine.Judged) -> None:
        if not found and j.before is not None and type(j.event).__name__ == kind:
            assert j.fold is not None
            found.append((j.fold.ruleset, j.before, j.event))
    engine.replay(path, visit=visit)
    return found[0]


def test_a_card_dealt_to_the_wrong_player_says_who_is_dealt_to():
    import msgspec
    rs, before, event = _first(LIB, "ForceCardDealt")
    other = next(p for p in before.players if p != event.player)
    v = rs.check(before, msgspec.structs.replace(event, player=other))
    assert v.rule == "lib.turn.order"  # the verdict and its rule stay
    assert v.reason == f"the force card dealt now goes to {event.player}, not {other}"


# -- item 3 (the issue's): the real box's values --------------------------------------------

def _box(tmp_path, bonus: int):
    header = json.loads(open(BCP).readline())
    comp = header["components"]
    for card in comp["conflict"]:
        if card["name"] == "Radar Advantage":
            card["bonus"] = bonus
    path = tmp_path / "box.json"
    path.write_text(json.dumps(comp))
    return path


NOTE = ("judged with the components in {}, not the log's header (1 value differs from the "
        "header's: Radar Advantage's bonus: 1 → 2); the log is unchanged")


def test_explain_redoes_the_ruling_with_the_box_values(run, tmp_path):
    box = _box(tmp_path, 2)
    before = open(BCP, "rb").read()
    r = run("explain", BCP, 27, "--components", box)
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[0] == NOTE.format(box)
    assert "ruling: illegal — alice's shot needs more than 3 and at most 9, not 3-8" in lines
    assert ("  needs 4-9: attack 6 (A6M Zero, air) + support 1 (Shokaku Carrier) "
            "+ Radar Advantage 2 = 9") in lines
    data = json.loads(run("explain", BCP, 27, "--components", box, "--json").stdout)
    assert (data["verdict"], data["rule"]) == ("illegal", "bcp.fire.hit")
    assert data["components"] == {"file": str(box),
                                  "differs": ["Radar Advantage's bonus: 1 → 2"]}
    assert open(BCP, "rb").read() == before  # the log is only read


def test_validate_judges_with_the_box_values_and_says_so(run, tmp_path):
    box = _box(tmp_path, 2)
    r = run("validate", BCP, "--components", box)
    assert r.exit_code == 1
    assert f"  {NOTE.format(box)}" in r.stdout.splitlines()
    assert "[bcp.fire.hit]" in r.stdout
    same = _box(tmp_path, 1)
    r = run("validate", BCP, "--components", same, "--json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["components"]["differs"] == []


def test_components_that_do_not_fit_are_a_usage_error(run, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"sides": 3}')
    r = run("explain", BCP, 27, "--components", bad)
    assert r.exit_code == 2 and "components do not fit the battlecards-pacific schema" in r.output
    r = run("validate", BCP, "--components", tmp_path / "none.json")
    assert r.exit_code == 2 and "cannot read components file" in r.output
    assert "Traceback" not in r.output


def test_an_illegal_event_shows_its_basis_in_step_and_the_viewer(run, tmp_path):
    # the kill log cut after the illegal kill: no dispute about it, its own ruling only
    from tabletape.app import viewer
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(open(KILL_LOG, "rb").readlines()[:22]))
    rests = ("rests on values not from the rulebook: Anti-Tank Gun's kill (T; reconstructed), "
             "Torpedo Bomber's types (B; rulebook-name)")
    assert rests in viewer.build(str(path)).frames[21]["m"]
    r = run("replay", path, "--step", input="g 21\nq\n")
    assert rests in " ".join(r.output.split())


@pytest.mark.parametrize("path", sorted(glob.glob("replays/*/*.jsonl")))
def test_the_recording_lookups_judge_as_the_real_ones(path):
    # rests-on is read by running the check over recording lookups: same verdict, every event
    from tabletape.engine.provenance import recording

    def visit(j: engine.Judged) -> None:
        if j.before is None or j.fold is None or j.seq in j.fold.core_seqs:
            return
        rs = instance(Packaged, j.fold.ruleset)  # a game in the package shape: its legality
        event = rs.upcast(j.before, j.event)
        log: list = []
        assert rs.legality.check(recording(rs.lk, log), j.before, event) == rs.check(
            j.before, j.event)
        assert all(f not in ("name", "provenance") for _, _, f in log)
    engine.replay(path, visit=visit, version="latest")
    engine.replay(path, visit=visit)


@pytest.mark.parametrize("path", sorted(glob.glob("replays/*/*.jsonl")))
def test_a_refusal_for_the_wrong_player_names_the_player_who_acted(path):
    # every bundled event a player makes, made by another player instead: its refusal's
    # sentence names that player (the one who acted), whatever the rule
    import msgspec

    def visit(j: engine.Judged) -> None:
        if j.before is None or j.fold is None or j.seq in j.fold.core_seqs or j.problem:
            return
        if not hasattr(j.event, "player"):
            return
        for other in j.before.players:
            if other != j.event.player:
                v = j.fold.ruleset.check(j.before, msgspec.structs.replace(j.event, player=other))
                assert v is None or other in v.reason, (j.seq, other, v)
    engine.replay(path, visit=visit)


def test_a_shot_that_cannot_be_aimed_has_no_derivation_and_explains_without_error():
    import msgspec
    rs, before, event = _at(BCP, 26)
    assert rs.derive(before, event).what == "needs 4-8"
    for bad in (msgspec.structs.replace(event, support=("Nobody",)),
                msgspec.structs.replace(event, kept="No Such Card"),
                msgspec.structs.replace(event, target="Nobody")):
        assert rs.check(before, bad) is not None
        assert rs.derive(before, bad) is None
        engine.rests_on(rs, before, bad)  # no error


def test_a_lookup_in_a_tabulated_table_is_a_read_of_the_field_it_came_from():
    # Global Domination tabulates each area's neighbours (`Extras.tabulated`): a check that
    # looks them up rests on that area's `adjacent`
    found: list[str] = []

    def visit(j: engine.Judged) -> None:
        if j.before is None or j.fold is None or j.seq in j.fold.core_seqs:
            return
        found.extend(f for _, _, fs in j.fold.ruleset.reads(j.before, j.event) for f in fs
                     if f == "adjacent")
    for path in sorted(glob.glob("replays/global-domination/*.jsonl")):
        engine.replay(path, visit=visit)
    assert found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_window_derived_agrees_under_allocated_support(run, tmp_path, seed):
    path = tmp_path / "g.jsonl"
    r = run("simulate", "battlecards-pacific", "--seed", seed, "--option", "support=allocated",
            "-o", path)
    assert r.exit_code in (0, 1), r.output
    seen = []

    def visit(j: engine.Judged) -> None:
        if j.before is None or j.fold is None or type(j.event).__name__ != "ConflictTurned":
            return
        d = j.fold.ruleset.derive(j.before, j.event)
        assert d.result == j.before.battle.shot.upto == sum(t.value for t in d.terms)
        seen.append(d)
    engine.replay(str(path), visit=visit)
    assert seen


def test_undone_at_follows_the_undo_stack_past_the_explained_event(run, tmp_path):
    path = tmp_path / "g.jsonl"
    shutil.copy(BCP, path)
    out = run("record", path, input="undo\nundo\n").output
    assert "seq 39: undoes seq 38" in out and "seq 40: undoes seq 37" in out
    assert json.loads(run("explain", path, 38, "--json").stdout)["undone_at"] == 39
    assert json.loads(run("explain", path, 37, "--json").stdout)["undone_at"] == 40
    assert json.loads(run("explain", path, 36, "--json").stdout)["undone_at"] is None


# -- --components on replay and view: judged with the box's values, the log untouched -------

def _files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def _bcp_alone(tmp_path):
    """Returns the disputed BATTLECARDS log copied alone into a folder, a box with Radar
    Advantage's bonus 2, and the folder's files now (to show nothing was written)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    path = logs / "g.jsonl"
    shutil.copy(BCP, path)
    return logs, path, _box(tmp_path, 2), _files(logs)


def test_replay_judges_with_the_box_values_and_says_so(run, tmp_path):
    logs, path, box, before = _bcp_alone(tmp_path)
    r = run("replay", path, "--components", box)
    assert r.exit_code == 1  # seq 27 is illegal with these values
    assert r.stdout.splitlines()[0] == NOTE.format(box)
    assert "before seq 27: seq 27 is illegal [bcp.fire.hit]" in r.stdout
    data = json.loads(run("replay", path, "--to", 26, "--components", box, "--json").stdout)
    assert data["components"] == {"file": str(box), "differs": ["Radar Advantage's bonus: 1 → 2"]}
    r = run("replay", path, "--step", "--components", box, input="g 27\nq\n")
    assert NOTE.format(box) in " ".join(r.output.split())
    assert "Radar Advantage 2 = 9" in r.output
    assert _files(logs) == before  # the log's bytes, and no index written beside it
    # without --components: the header's values, and no note
    r = run("replay", path)
    assert r.exit_code == 0 and "judged with the components" not in r.output


def test_view_judges_with_the_box_values_and_the_page_says_so(run, tmp_path):
    from tabletape.app import viewer
    from tabletape.app.whatif import Whatif
    logs, path, box, before = _bcp_alone(tmp_path)
    out = tmp_path / "g.html"
    r = run("view", path, "-o", out, "--components", box)
    assert r.exit_code == 1
    assert r.stdout.splitlines()[0] == NOTE.format(box)
    assert "invalid at seq 27 [bcp.fire.hit]" in r.stdout
    page = out.read_text()
    assert 'id="judged"' in page
    book = viewer.build(str(path), components=Whatif(str(box)))
    assert book.data()["judged"] == NOTE.format(box)
    assert any("Radar Advantage 2 = 9" in m for m in book.frames[27]["m"])
    assert "judged" not in viewer.build(str(path)).data()  # the header's values: no note
    data = json.loads(run("view", path, "-o", out, "--force", "--components", box,
                          "--json").stdout)
    assert data["components"]["differs"] == ["Radar Advantage's bonus: 1 → 2"]
    assert _files(logs) == before
    r = run("view", path, "-o", out, "--force", "--components", tmp_path / "none.json")
    assert r.exit_code == 2 and "cannot read components file" in r.output
