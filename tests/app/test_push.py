"""`serve --play` keeps one fold of the log and pushes each change to the pages (issue 34,
points 2 and 6): a write costs one fold step however many seats look; each page's stream of
server-sent events brings the table as it moved, from the server's writes and from a shell's
`append` alike; a log rewritten behind the server is read again and judged as it is."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time

import pytest

from tests.app.test_play import cut, post

uvicorn = pytest.importorskip("uvicorn", reason="serve --play needs the view extra")

SIM = "replays/cards-of-war/sim-normal.jsonl"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Stream:
    """One page's stream of server-sent events, read from a plain HTTP connection."""

    def __init__(self, port: int, path: str, timeout: float = 10):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("content-type", "").startswith("text/event-stream")

    def next(self) -> tuple[str, str]:
        """Returns the next event's name and data (comments and `retry` skipped)."""
        name, data = "message", list[str]()
        while True:
            raw = self.response.readline()
            if not raw:
                raise EOFError("the stream ended")
            line = raw.rstrip(b"\n").decode()
            if line == "":
                if data:
                    return name, "\n".join(data)
                name = "message"
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)

    def page(self) -> dict:
        """Returns the next page data pushed."""
        name, data = self.next()
        assert name == "page", (name, data)
        return json.loads(data)

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def served(tmp_path):
    """A Cards of War game at seq 20 (bob deploys next), served for play with an umpire."""
    from tabletape.app import play
    from tabletape.web import table as web
    from tests.app.test_serve import Served
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)
    t = play.Table(str(path))
    seats = play.Seats(("alice", "bob"), umpire=True)
    app = web.play_app(t, seats)
    s = Served(app)
    yield path, s, {seat.name: p for seat, p in seats.links()}, t, app
    s.close()


def gd6(tmp_path, lines: int = 40):
    """A six-player Global Domination game, its first `lines` lines."""
    from tabletape import engine
    from tabletape.engine import simulate
    from tabletape.tape import log as tapelog
    rs = engine.get("global-domination")
    players = ("alice", "bob", "carol", "dave", "erin", "frank")
    header = simulate.header_for(rs, players)
    events = list(simulate.play(rs, header, 1, max_events=lines - 1))[: lines - 1]
    path = str(tmp_path / "gd6.jsonl")
    tail = tapelog.create(path, header, rs.codec)
    tapelog.append(path, [e for e, _ in events], rs.codec, expect=tail)
    return path, players


def test_one_write_with_six_seats_costs_one_fold_step(tmp_path):
    # A six-player table, every seat, the umpire and the shared page looking at it
    from tabletape.app import play
    path, players = gd6(tmp_path)
    table = play.Table(path)
    seats = [play.Seat(p) for p in players] + [play.Seat(play.UMPIRE, umpire=True), play.PUBLIC]
    for seat in seats:
        table.shown(seat)
    assert table.folded.reads == 1
    steps = table.folded.steps
    # the umpire enters the first move offered: one write, then every page drawn again
    page = table.shown(seats[-2])
    event = page.groups[0].events[0].event
    said = table.enter(seats[-2], {"event": event, "after": page.version})
    assert said.startswith("recorded seq 40")
    pages = [table.shown(seat) for seat in seats]
    # one fold step (the event written), no replay from a checkpoint or line 1
    assert table.folded.steps - steps == 1
    assert table.folded.reads == 1
    assert {p.seq for p in pages} == {40}
    assert len({p.version for p in pages}) == 1


def test_a_look_at_an_unchanged_log_reads_nothing(tmp_path):
    from tabletape.app import play
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)
    table = play.Table(str(path))
    time.sleep(0.05)  # past the file system's clock: the stamp is final
    first = table.now()
    again = table.now()
    assert again is first  # the same Moment: nothing read, nothing derived again
    assert (table.folded.reads, table.folded.steps) == (1, 0)


def test_a_shell_append_is_read_on_one_line_at_a_time(tmp_path):
    # the server has the log folded; `tabletape append` writes beside it
    from tabletape.app import play
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)
    table = play.Table(str(path))
    before = table.now()
    with open(SIM, "rb") as f:
        line = f.readlines()[21]
    event = {k: v for k, v in json.loads(line).items() if k not in ("seq", "prev", "at", "by")}
    done = subprocess.run([sys.executable, "-m", "tabletape", "append", str(path),
                           json.dumps(event)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")})
    assert done.returncode == 0, done.stderr
    after = table.now()
    # read on from where the fold ended: one step, no second read
    assert after.seq == before.seq + 1 and after.version != before.version
    assert table.folded.reads == 1 and table.folded.steps == 1


def test_a_log_rewritten_behind_the_server_is_read_again_and_judged(tmp_path):
    # the server has 21 lines folded; the file is cut back to 12 (a backup restored)
    from tabletape.app import play
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)
    table = play.Table(str(path))
    assert table.now().ok
    cut(SIM, path, 12)
    moment = table.now()
    assert moment.ok and moment.seq == 11 and table.folded.reads == 2
    # then rewritten with a line 6 that is not canonical, and as long as before
    raw = path.read_bytes().split(b"\n")
    raw[5] = raw[5].replace(b'"seq":5', b'"seq":5 ')
    path.write_bytes(b"\n".join(raw))
    moment = table.now()
    assert table.folded.reads == 3
    assert moment.error is not None and moment.error.startswith("unreadable: line 6: not canonical")
    page = table.shown(play.PUBLIC)
    assert not page.ok and page.verdict == moment.error


def test_a_write_reaches_every_page_by_push(served):
    path, s, links, table, app = served
    streams = {name: Stream(s.port, f"{link}/events") for name, link in links.items()}
    streams["public"] = Stream(s.port, "/events")
    try:
        first = {name: st.page() for name, st in streams.items()}  # the page as it is now
        assert {p["seq"] for p in first.values()} == {20}
        assert first["public"]["you"] == "" and first["bob"]["you"] == "bob"
        move = first["bob"]["groups"][0]["events"][0]
        status, said = post(s, f"{links['bob']}/event",
                            {"event": move["event"], "after": first["bob"]["version"]})
        assert status == 200, said
        t0 = time.monotonic()
        pushed = {name: st.page() for name, st in streams.items()}
        assert time.monotonic() - t0 < 2
        assert {p["seq"] for p in pushed.values()} == {21}
        assert pushed["alice"]["you"] == "alice"  # each stream its own seat's page
        assert not pushed["public"]["groups"]
    finally:
        for st in streams.values():
            st.close()


def test_a_shell_append_reaches_the_pages(served):
    path, s, links, table, app = served
    stream = Stream(s.port, f"{links['alice']}/events")
    try:
        assert stream.page()["seq"] == 20
        with open(SIM, "rb") as f:
            line = f.readlines()[21]
        event = {k: v for k, v in json.loads(line).items()
                 if k not in ("seq", "prev", "at", "by")}
        done = subprocess.run([sys.executable, "-m", "tabletape", "append", str(path),
                               json.dumps(event)], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "src")})
        assert done.returncode == 0, done.stderr
        assert stream.page()["seq"] == 21
        assert table.folded.reads == 1  # read on, not read again
    finally:
        stream.close()


def test_a_stream_opened_at_the_current_version_waits(served):
    # a page that has the table as it is (its version in `v`) is sent nothing until it moves
    path, s, links, table, app = served
    version = table.now().version
    stream = Stream(s.port, f"{links['alice']}/events?v={version}", timeout=1)
    try:
        with pytest.raises(TimeoutError):
            stream.next()
    finally:
        stream.close()


def test_no_stream_no_watcher(served):
    # an idle table: no page open, no task watching the file
    path, s, links, table, app = served
    hub = app.state.hub
    stream = Stream(s.port, f"{links['alice']}/events")
    stream.page()
    assert hub.streams == 1
    stream.close()
    for _ in range(100):
        if hub.streams == 0:
            break
        time.sleep(0.02)
    assert hub.streams == 0 and hub._task is None


def test_a_broken_log_is_not_read_again_until_it_changes(tmp_path):
    from tabletape.app import play
    path = tmp_path / "game.jsonl"
    path.write_text("not a log\n")
    table = play.Table(str(path))
    time.sleep(0.05)  # past the file system's clock: the stamp is final
    first = table.now()
    assert first.error is not None and first.error.startswith("unreadable: line 1")
    assert table.now() == first and table.folded.reads <= 2
    reads = table.folded.reads
    table.now()
    assert table.folded.reads == reads
    cut(SIM, path, 21)  # mended: read again, and shown
    assert table.now().seq == 20
