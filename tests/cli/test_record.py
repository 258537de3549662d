"""The recorder and the stepping replay: RecordSession without a terminal, then the real
thing driven through a pseudo-terminal (pexpect), whose logs must equal `append`'s."""

from __future__ import annotations

import os
import re
import signal
import sys
from typing import Any

import msgspec
import pexpect
import pytest
from msgspec.structs import replace

from tabletape import engine
from tabletape.app import record
from tabletape.app.record import RecordSession, kind_label, listing
from tabletape.engine import simulate
from tabletape.games.cards_of_war.events import CardDeployed, CardDrawn, Options
from tabletape.tape import log
from tabletape.tape.errors import IllegalEvent, StaleWriter, TornTail
from tabletape.tape.events import Note, Undone
from tests.conftest import COW, lines, new_log, opening
from tests.narrow import instance, present
from tests.registry import GAMES

PLAYERS = ("alice", "bob", "carol")


def header_for(rs: engine.Ruleset):
    opts = Options(length="short") if rs.id == "cards-of-war" else rs.Options()
    return rs.start(PLAYERS[:max(2, rs.players[0])], opts, rs.default_components())


def as_json(event) -> str:
    return msgspec.json.encode(event).decode()


# -- labels and listings -----------------------------------------------------------------

def test_an_event_type_is_entered_as_a_verb_and_what_it_acts_on():
    assert kind_label(CardDeployed) == "deploy card"
    assert kind_label(CardDrawn) == "draw card"
    assert kind_label(Undone) == "undone"  # an unknown past tense stays as it is


def test_the_listing_groups_by_kind_and_shows_what_differs(game):
    # Given alice's refill draw is owed, then her first deployment
    s = RecordSession(str(game))
    group, entries = s.shown.groups()[0]
    assert group == "draw card alice"
    assert [e.number for e in entries] == list(range(1, len(entries) + 1))
    tank = next(e for e in entries if e.item == "Tank")
    assert tank.label == "draw card alice Tank" and tank.weight == 2
    assert tank.sentence == "alice draws Tank"
    for card in ("Tank", "Spy", "Radar", "Marines", "Gliders", "Flak", "Decoy", "Amphib"):
        assert s.handle(f"draw card alice {card}").recorded
    # Then bob refills; alice deploys: the player is the same for all, the card and battle vary
    for card in ("Tank", "Spy", "Radar", "Marines", "Gliders", "Flak", "Decoy", "Amphib"):
        assert s.handle(f"bob {card}").recorded
    group, entries = s.shown.groups()[0]
    assert group == "deploy card alice"
    assert {"Tank 1", "Tank 3", "Amphib 2"} <= {e.item for e in entries}


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.usefixtures("template_registered")
def test_every_legal_event_has_a_unique_label_that_resolves_to_it(game_id):
    header = header_for(engine.get(game_id))
    rs = engine.get(game_id).bind(header)  # the rules are called on a bound ruleset
    for i, (_, state) in enumerate(simulate.play(rs, header, 3, max_events=400)):
        if i % 7 or rs.pending(state) is None:
            continue
        shown = listing(rs, state)
        labels = [e.label for e in shown.entries]
        assert len(set(labels)) == len(labels)
        assert len(shown.shown) == min(len(labels), record.MAX_LIST)
        session = _Fake(rs, state, shown)
        for e in shown.entries[:30]:
            assert RecordSession.resolve(session, e.label) == e.event


class _Fake(RecordSession):
    """Just what RecordSession.resolve reads: a ruleset, a state and the listings (no log is
    opened: RecordSession's own __init__ is not run)."""

    def __init__(self, rs, state, shown):
        self.ruleset, self._state, self.full, self.shown = rs, state, shown, shown

    @property
    def state(self) -> Any:
        return self._state


def test_a_long_list_shows_some_of_every_group_and_narrows_by_typing():
    sizes = record._quotas([100, 2, 30], 40)
    assert sizes == [19, 2, 19] and sum(sizes) == 40
    # Given a Global Domination turn with more legal events than a list shows
    header = header_for(engine.get("global-domination"))
    rs = engine.get("global-domination").bind(header)
    state = next(st for _, st in simulate.play(rs, header, 3)
                 if rs.pending(st) and len(list(rs.legal(st))) > 2 * record.MAX_LIST)
    shown = listing(rs, state)
    assert len(shown.shown) == record.MAX_LIST
    assert sum(shown.hidden.values()) == len(shown.entries) - record.MAX_LIST
    assert all(entries for _, entries in shown.groups())  # every kind has some numbered
    # Then an entry that is not numbered is still reached by typing its label
    unseen = next(e for e in shown.entries if not e.number)
    assert RecordSession.resolve(_Fake(rs, state, shown), unseen.label) == unseen.event


# -- entries -----------------------------------------------------------------------------

def test_a_number_records_that_entry_exactly_as_append_would(game, tmp_path, run):
    s = RecordSession(str(game))
    n = next(e.number for e in s.shown.entries if e.item == "Tank")
    reply = s.handle(str(n))
    assert [(q, replace(e, salt=None)) for q, e in reply.recorded] == [
        (3, CardDrawn(player="alice", card="Tank"))]  # (salted: bob may not know it)
    assert reply.recorded[0][1].salt
    ref = tmp_path / "ref.jsonl"
    opening(ref, new_log(ref))
    assert run("append", ref, '{"type":"card_drawn","player":"alice","card":"Tank"}').exit_code == 0
    assert lines(game) == lines(ref)


def test_a_few_characters_narrow_the_list_and_numbers_then_refer_to_it(game):
    s = RecordSession(str(game))
    reply = s.handle("t")  # Tank, Torpedo Bomber, Transport Plane
    assert reply.choices is not None and not reply.recorded
    assert [e.item for e in reply.choices.shown] == ["Tank", "Torpedo Bomber", "Transport Plane"]
    assert instance(CardDrawn, s.handle("2").recorded[0][1]).card == "Torpedo Bomber"
    assert present(s.handle("zz").message).startswith("no legal entry matches 'zz'")
    assert present(s.handle("99").message).startswith("no entry 99 in the list shown")


def test_an_illegal_json_event_is_refused_with_its_rule_and_nothing_is_written(game):
    before = lines(game)
    s = RecordSession(str(game))
    reply = s.handle('{"type":"card_drawn","player":"bob","card":"Tank"}')
    assert isinstance(reply.refusal, IllegalEvent) and reply.refusal.rule == "cow.turn.order"
    assert "nothing was written" in reply.refusal.reason
    assert s.handle('{"type":"card_drawn","player":"alice"}').refusal is not None  # malformed
    assert instance(IllegalEvent, s.handle('{"type":"undone","target":1}').refusal).rule == \
        "core.undo.latest"
    assert lines(game) == before
    assert s.handle('{"type":"card_drawn","player":"alice","card":"Tank"}').recorded


def test_undo_note_and_dispute_append_core_events(game):
    s = RecordSession(str(game), by="scribe")
    s.handle("Tank")
    assert s.handle("undo").recorded == [(4, Undone(target=3, by="scribe"))]
    assert s.handle("note @bob tea break").recorded == [(5, Note(text="tea break", by="bob"))]
    reply = s.handle("dispute 2 @alice bob's card was seen")
    assert reply.recorded[0][1] == Note(text="bob's card was seen", about=2, dispute=True,
                                        by="alice")
    assert reply.ruling is not None
    assert reply.ruling.verdict == "legal" and reply.ruling.about == 2
    assert instance(IllegalEvent, s.handle("dispute 9 too late").refusal).rule == "core.note.about"
    assert present(s.handle("dispute x").message).startswith("usage: dispute")
    assert [seq for seq, *_ in s.last(3)] == [4, 5, 6]
    assert s.last(4)[0] == (3, "scribe", "alice draws Tank", 4)
    assert engine.replay(str(game)).ok


def test_undo_with_nothing_to_undo_is_refused(tmp_path):
    path = tmp_path / "g.jsonl"
    new_log(path)
    reply = RecordSession(str(path)).handle("undo")
    assert instance(IllegalEvent, reply.refusal).rule == "core.undo.nothing"
    assert len(lines(path)) == 1


def test_a_stale_session_is_refused_and_rereads_the_log(game):
    a, b = RecordSession(str(game)), RecordSession(str(game))
    assert a.handle("Tank").recorded
    reply = b.handle("Spy")
    assert isinstance(reply.refusal, StaleWriter) and "re-read" in reply.refusal.reason
    assert len(lines(game)) == 4
    assert b.next_seq == 4 and b.state.hands["alice"] == ("Tank",)


def test_a_torn_or_invalid_log_is_refused_on_opening(game, run):
    with open(game, "ab") as f:
        f.write(b'{"type":"card_dr')
    with pytest.raises(TornTail):
        RecordSession(str(game))
    assert run("repair", game).exit_code == 0
    assert run("append", game, '{"type":"card_drawn","player":"bob","card":"Tank"}',
               "--force").exit_code == 0
    with pytest.raises(IllegalEvent, match="opens only valid logs"):
        RecordSession(str(game))


def test_auto_chance_draws_with_its_seed_and_pauses_after_undo(tmp_path):
    paths = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        new_log(path)
        s = RecordSession(str(path), auto_chance=5)
        drawn = s.auto_draws()
        # the opening and both hands of eight are chance: alice's first deployment is next
        assert s.decision is not None
        assert len(drawn) >= 18 and s.decision.actor != engine.CHANCE
        paths.append(path)
    assert lines(paths[0]) == lines(paths[1])
    reply = s.handle("1")
    assert len(reply.recorded) >= 2 and reply.drawn == len(reply.recorded) - 1
    s.handle("undo")  # retracts the tool's last draw and does not draw again at once
    assert s.decision is not None
    assert s.decision.actor == engine.CHANCE
    assert s.handle("auto").recorded and s.decision.actor != engine.CHANCE


def test_commands_that_only_show_things(game):
    s = RecordSession(str(game))
    assert s.handle("help").show == "help"
    assert s.handle("state").show == "state"
    assert (s.handle("last 3").show, s.handle("last 3").count) == ("last", 3)
    assert s.handle("quit").quit
    assert present(s.handle("auto").message).startswith("start the recorder with --auto-chance")
    assert s.handle("").message


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.usefixtures("template_registered")
def test_every_game_can_be_recorded_by_typing_labels(game_id, tmp_path):
    # Given a random legal game, entered by label, and the same events appended directly
    rs = engine.get(game_id)
    header = header_for(rs)
    mine, ref = tmp_path / "mine.jsonl", tmp_path / "ref.jsonl"
    log.create(str(mine), header, rs.codec)
    log.create(str(ref), header, rs.codec)
    s = RecordSession(str(mine))
    events = [ev for ev, _ in simulate.play(rs, header, 1, max_events=120)]
    for ev in events:
        entry = next(e for e in s.full.entries if e.event == ev)
        assert replace(s.handle(entry.label).recorded[0][1], salt=None) == ev
    from tabletape.app import entries  # the one door for appends: the same salts (seeded)
    entries.append_checked(str(ref), list(events), entries.open_for_append(str(ref)))
    # Then the logs are the same, byte for byte
    assert lines(mine) == lines(ref)


# -- the command line, without a terminal (plain lines on stdin) -------------------------

def test_record_starts_a_log_and_reads_plain_lines(tmp_path, run):
    path = tmp_path / "g.jsonl"
    r = run("record", path, "--game", "cards-of-war", "--players", "alice,bob",
            "--option", "length=short", input="3\nBattle\nnote hello\nlast 2\nquit\n")
    assert r.exit_code == 0, r.output
    assert "started" in r.output and "seq 1: alice turns up Anti-Tank Gun" in r.output
    assert "seq 2: bob turns up Battleship" in r.output
    assert "seq 3: someone notes: hello" in r.output and "stopped:" in r.output
    assert len(lines(path)) == 4
    r = run("record", path, input="")  # reopened; end of input ends it cleanly
    assert r.exit_code == 0 and "4 events so far" in r.output


def test_a_scripted_session_with_refused_input_exits_1(game, run):
    r = run("record", game, input="Tank\nnonsense-entry\n")
    assert r.exit_code == 1 and "1 line of the input refused" in r.stderr
    assert len(lines(game)) == 4  # what was taken stays
    r = run("record", game, input="undo\n")
    assert r.exit_code == 0


def test_record_usage_errors(tmp_path, run, game):
    r = run("record", tmp_path / "none.jsonl")
    assert r.exit_code == 2 and "--game GAME --players" in r.output
    assert run("record", game, "--game", "liberation").exit_code == 2
    r = run("record", tmp_path / "x.jsonl", "--game", "chess", "--players", "a,b")
    assert r.exit_code == 2 and "unknown game" in r.output


def test_replay_step_reads_keys_as_lines(run):
    r = run("replay", "replays/cards-of-war/kill-dispute.jsonl", "--step",
            input="n\ng 20\ni\nd\ni\np\ng 500\nq\n")
    assert r.exit_code == 0
    out = r.output
    for text in ("seq 0: cards-of-war 1.1 starts", "seq 1: alice turns up", "seq 20: ",
                 "illegal [cow.kill.type-match]", "undone at seq 23",
                 "seq 22: bob disputes seq 21", "ruling on seq 21: illegal",
                 "no illegal event after this seq", "no seq 500: the log runs from 0 to 91"):
        assert text in out, text
    assert out.index("seq 21: alice deploys") < out.index("seq 22: bob disputes")


# -- through a real pseudo-terminal ------------------------------------------------------

ENV = {**os.environ, "TABLETAPE_CLOCK": "off", "TABLETAPE_SALTS": "seed:tests", "TERM": "xterm", "NO_COLOR": "1",
       "PROMPT_TOOLKIT_NO_CPR": "1", "COLUMNS": "140", "LINES": "60"}


def spawn(*args) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "tabletape", *map(str, args)], env=ENV,
                          dimensions=(60, 140), encoding="utf-8", timeout=30)
    return child


def prompt(seq: int) -> str:
    return rf"(?<!\d){seq} [\w-]+>"


class Table:
    """The test's own view of the game: the state and the number of the next seq."""

    def __init__(self, child: pexpect.spawn, rs, seq: int):
        self.child, self.rs, self.state, self.seq = child, rs, rs.initial(), seq
        self.printed = ""  # since the last event recorded: the list numbers refer to

    def ready(self) -> str:
        """Waits for the prompt of the next seq; returns what was printed since the last event."""
        self.child.expect(prompt(self.seq))
        self.printed += self.child.before
        return self.printed

    def enter(self, ev, how: str) -> None:
        """Enters a legal event by its number in the printed list, or by completion."""
        shown = listing(self.rs, self.state)
        entry = next(e for e in shown.entries if e.event == ev)
        if how == "number":
            printed = self.ready()
            assert re.search(rf"(^|\s){entry.number}  {re.escape(entry.item)}(  ×\d+)?(\s|$)",
                             printed, flags=re.M), entry
            self.child.sendline(str(entry.number))
        else:
            self.ready()
            self.child.send(self.unique_prefix(entry, shown) + "\t")
            self.child.expect(re.escape(entry.label))  # Tab completed the whole entry
            self.child.send("\r")
        self.child.expect(re.escape(f"seq {self.seq}: {self.rs.describe(ev)}"))
        self.state = self.rs.apply(self.state, ev)
        self.seq += 1
        self.printed = ""

    @staticmethod
    def unique_prefix(entry, shown) -> str:
        """Returns the fewest leading characters of the entry's item that only it matches."""
        tries = [entry.item[:k] for k in range(2, len(entry.item) + 1)] + [entry.label]
        for typed in tries:
            found = [e for e in shown.entries if record.matches(record.words(typed), e.label)]
            command = " " not in typed and any(c.startswith(typed.lower())
                                               for c in record.COMMANDS)
            # (a prefix of the label itself would be completed by printing only the rest)
            if found == [entry] and not command and not typed.endswith(" ") \
                    and not entry.label.startswith(typed):
                return typed
        raise AssertionError(f"{entry.label} cannot be completed uniquely")


def completable(ev, state, rs) -> bool:
    shown = listing(rs, state)
    entry = next(e for e in shown.entries if e.event == ev)
    try:
        Table.unique_prefix(entry, shown)
    except AssertionError:
        return False
    return True


def test_a_whole_game_recorded_through_a_terminal_equals_append(tmp_path, run):
    # Given a short game of Cards of War (50 events), a scribe, and the same game appended
    rs = COW
    header = header_for(rs)
    events = [ev for ev, _ in simulate.play(rs, header, 10)]
    path, ref = tmp_path / "game.jsonl", tmp_path / "ref.jsonl"
    child = spawn("record", path, "--game", "cards-of-war", "--players", "alice,bob",
                  "--option", "length=short")
    rs = rs.bind(header)
    t = Table(child, rs, 1)
    typed = 0
    for i, ev in enumerate(events[:20]):
        # By number mostly; every third entry by a few typed characters and Tab
        how = "typed" if i % 3 == 2 and completable(ev, t.state, t.rs) else "number"
        typed += how == "typed"
        t.enter(ev, how)
    assert typed >= 4
    # An illegal entry (bob plays out of turn) is refused with its rule; nothing is written
    wrong = CardDeployed(player="bob", card="Tank", battle=1)
    v = rs.check(t.state, wrong)
    t.ready()
    child.sendline(as_json(wrong))
    assert v is not None
    child.expect(r"refused: .*\[" + re.escape(v.rule) + r"\]")
    assert len(lines(path)) == 21
    # A legal slip is undone, and an earlier draw is disputed (with a ruling at once)
    slip = next(e.event for e in listing(rs, t.state).entries if e.event != events[20])
    before = t.state
    t.enter(slip, "number")
    t.ready()
    child.sendline("undo")
    child.expect(f"seq {t.seq}: undoes seq {t.seq - 1}")
    t.state, t.seq = before, t.seq + 1
    t.ready()
    child.sendline("dispute 3 @bob alice's card was seen")
    child.expect(f"seq {t.seq}: bob disputes seq 3")
    child.expect("ruling on seq 3: legal")
    t.seq += 1
    for ev in events[20:30]:
        t.enter(ev, "number")
    # When the recorder is killed outright, and reopened
    t.ready()
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    assert len(lines(path)) == t.seq
    child = spawn("record", path)
    child.expect(f"{t.seq} events so far")
    t.child = child
    for i, ev in enumerate(events[30:]):
        t.enter(ev, "typed" if i % 3 == 2 and completable(ev, t.state, t.rs) else "number")
    child.expect("game over: ")
    t.ready()
    child.sendeof()  # Ctrl-D
    child.expect("stopped: .* nothing entered was lost")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # Then nothing was lost, and the log is the one `append`, `undo` and `note` write
    assert run("new", "cards-of-war", ref, "--players", "alice,bob",
               "--option", "length=short").exit_code == 0
    feed = "\n".join(as_json(ev) for ev in events[:20] + [slip])
    assert run("append", ref, input=feed).exit_code == 0
    assert run("undo", ref).exit_code == 0
    assert run("note", ref, "alice's card was seen", "--about", 3, "--dispute",
               "--by", "bob").exit_code == 0
    assert run("append", ref, input="\n".join(as_json(ev) for ev in events[20:])).exit_code == 0
    assert lines(path) == lines(ref)
    assert run("validate", path).exit_code == 0


@pytest.mark.parametrize("how", ["ctrl-c", "hang-up"])
def test_ctrl_c_clears_the_line_and_ctrl_d_or_a_closed_terminal_end_cleanly(game, how):
    child = spawn("record", game)
    child.expect(prompt(3))
    child.sendline("Tank")
    child.expect("seq 3: alice draws Tank")
    child.expect(prompt(4))
    if how == "ctrl-c":  # clears the line being typed; Ctrl-D then quits
        child.send("Spy Spy")  # (Ctrl-D on a line that was not cleared would delete a character)
        child.sendintr()
        child.sendeof()
        child.expect("stopped: .* nothing entered was lost")
        child.expect(pexpect.EOF)
    else:
        child.kill(signal.SIGHUP)
        child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, (child.exitstatus, child.signalstatus)
    assert len(lines(game)) == 4 and engine.replay(str(game)).ok


def test_another_game_through_a_terminal(tmp_path, run):
    rs = engine.get("liberation")
    header = header_for(rs)
    events = [ev for ev, _ in simulate.play(rs, header, 2, max_events=12)]
    path, ref = tmp_path / "lib.jsonl", tmp_path / "ref.jsonl"
    child = spawn("record", path, "--game", "liberation", "--players", "alice,bob")
    rs = rs.bind(header)
    state, seq = rs.initial(), 1
    for ev in events:
        child.expect(prompt(seq))
        entry = next(e for e in listing(rs, state).entries if e.event == ev)
        child.sendline(str(entry.number))
        child.expect(re.escape(f"seq {seq}: {rs.describe(ev)}"))
        state, seq = rs.apply(state, ev), seq + 1
    child.expect(prompt(seq))
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    run("new", "liberation", ref, "--players", "alice,bob")
    run("append", ref, input="\n".join(as_json(ev) for ev in events))
    assert lines(path) == lines(ref)


def test_replay_step_through_a_terminal():
    child = spawn("replay", "replays/cards-of-war/kill-dispute.jsonl", "--step")
    child.expect("seq 0: cards-of-war")
    child.send("\x1b[C")  # right arrow
    child.expect("seq 1: alice turns up")
    child.send("\x1b[D")  # left arrow
    child.expect("seq 0: cards-of-war")
    child.send("g")
    child.expect("go to seq:")
    child.sendline("20")
    child.expect("seq 20: ")
    child.send("i")
    child.expect(r"seq 21: alice deploys Anti-Tank Gun.*illegal \[cow.kill.type-match\]")
    child.send("d")
    child.expect("seq 22: bob disputes seq 21")
    child.send("n")
    child.expect("seq 23: undoes seq 21")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_cli_starts_without_prompt_toolkit():
    import subprocess
    code = ("import sys, tabletape.cli.group; from tabletape.app import record, stepper; "
            "sys.exit('prompt_toolkit' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_state_shows_the_table_and_state_all_every_field(game, run):
    r = run("record", game, input="state\nstate all\nquit\n")
    assert r.exit_code == 0
    assert "Cards of War — round 1" in r.output  # the table, though chance decides now
    assert "'decks': {" in r.output and "'steps': (" in r.output


def test_the_readme_session_is_what_record_prints(tmp_path):
    # The manual's transcript (docs/recording.md), replayed: its entries typed, every line
    # it shows printed
    import subprocess
    page = open("docs/recording.md", encoding="utf-8").read()
    section = page[page.index("# Recording at the table"):]
    block = present(re.search(r"```text\n(.*?)```", section, flags=re.S)).group(1).splitlines()
    command, shown = block[0], block[1:]
    entries = [m.group(1) for line in shown if (m := re.match(r"\d+ [\w-]+> (.*)$", line))]
    argv = [sys.executable, "-m", "tabletape", *command.split()[2:]]
    done = subprocess.run(argv, cwd=tmp_path, input="\n".join(entries) + "\n", text=True,
                          capture_output=True, env={**ENV, "COLUMNS": "100"})
    # it types one illegal event on purpose: a scripted session with a refusal exits 1
    assert done.returncode == 1 and done.stderr == "1 line of the input refused\n", done.stderr
    printed = [line.rstrip() for line in done.stdout.splitlines()]
    at = 0
    for line in shown:
        if line.strip() in ("", "…"):
            continue
        assert line in printed[at:], line
        at = printed.index(line, at) + 1


def test_rerunning_the_starting_command_reopens_but_other_settings_are_refused(tmp_path, run):
    path = tmp_path / "g.jsonl"
    start = ("record", path, "--game", "cards-of-war", "--players", "alice,bob",
             "--option", "length=short")
    assert run(*start, input="Batt\n").exit_code == 0
    r = run(*start, input="")
    assert r.exit_code == 0 and "2 events so far" in r.output
    r = run("record", path, "--players", "alice,carol", input="")
    assert r.exit_code == 2 and "played by alice, bob" in r.output
    r = run("record", path, "--option", "length=long", input="")
    assert r.exit_code == 2 and "other options" in r.output


# -- the stepper without a terminal ------------------------------------------------------

def test_the_stepper_moves_and_says_why_it_cannot():
    from tabletape.app.stepper import Stepper
    s = Stepper("replays/cards-of-war/kill-dispute.jsonl", at=20)
    assert s.frame.seq == 20 and s.marks() == []
    assert s.key("illegal") is None and s.frame.seq == 21
    assert s.marks()[0].text.startswith("illegal [cow.kill.type-match]") and s.marks()[0].illegal
    assert ("undone at seq 23", False) in s.marks()
    assert s.key("dispute") is None and s.frame.seq == 22
    # a ruling on a dispute about an illegal event does not make the dispute illegal
    assert s.marks()[0].text.startswith("ruling on seq 21: illegal [cow.kill.type-match]")
    assert not any(m.illegal for m in s.marks())
    assert s.key("prev") is None and s.frame.seq == 21
    assert s.key("first") is None and s.key("prev") == "this is the header (seq 0)"
    assert s.key("end") is None and s.key("next") == "this is the last event"
    assert s.key("goto", "x") == "not a seq: 'x'"
    assert s.key("goto", "92") == "no seq 92: the log runs from 0 to 91"
    # the state after an event, as a player sees it
    s = Stepper("replays/cards-of-war/kill-dispute.jsonl", as_player="bob", at=30)
    assert "?" in s.state().hands["alice"]


def test_the_stepper_walks_what_can_be_read_of_a_broken_log(game, run):
    with open(game, "ab") as f:
        f.write(b'{"type":"card_drawn","seq":3}\n')
    from tabletape.app.stepper import Stepper
    s = Stepper(str(game))
    assert s.last == 2 and s.error is not None
    r = run("replay", game, "--step", input="g 2\nq\n")
    assert r.exit_code == 0 and "reading stopped after this line" in r.output
    assert run("replay", game, "--step", "--json").exit_code == 2


def test_a_typed_undone_aimed_at_a_signature_is_refused_as_append_refuses_it(game, tmp_path,
                                                                             run):
    assert run("keygen", "alice", "--dir", str(tmp_path)).exit_code == 0
    assert run("sign", str(game), "--key", str(tmp_path / "alice.key")).exit_code == 0
    signed_at = len(lines(game)) - 1
    s = RecordSession(str(game))
    reply = s.handle(f'{{"type":"undone","target":{signed_at}}}')
    assert instance(IllegalEvent, reply.refusal).rule == "core.sign.final"
    assert len(lines(game)) == signed_at + 1
