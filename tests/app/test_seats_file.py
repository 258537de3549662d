"""`serve --play --seats FILE` (issue 34, point 6): each seat's link survives a restart; a
lost phone's link is reissued; a seats file of another table is refused; the umpire's page
carries the join codes."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time

import pytest

from tests.app.test_play import cut

pytest.importorskip("uvicorn", reason="serve --play needs the view extra")

SIM = "replays/cards-of-war/sim-normal.jsonl"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src"), "PYTHONUNBUFFERED": "1",
       "TABLETAPE_CLOCK": "off"}


def serve(*args: str) -> tuple[subprocess.Popen, str, dict[str, str], str]:
    """Starts `tabletape serve ... --play --port 0` as a process; returns it, its base
    address, each seat's link path and what it said on stderr before listening."""
    proc = subprocess.Popen([sys.executable, "-m", "tabletape", "serve", *args, "--play",
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=ENV, cwd=ROOT)
    assert proc.stdout is not None
    base, links = None, {}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.match(r"serving .* for play at (http://127\.0\.0\.1:\d+)/", line)
        if m:
            base = m[1]
        m = re.fullmatch(r"(\w+): http://127\.0\.0\.1:\d+(/p/[A-Za-z0-9_-]+)\n", line)
        if m:
            links[m[1]] = m[2]
        if line.startswith("(no QR codes") or (links and "umpire" in links) or \
                (len(links) == 2 and "--umpire" not in args):
            break
    assert proc.stderr is not None
    assert base is not None, proc.stderr.read() if proc.poll() is not None else "no address"
    return proc, base, links, ""


def stop(proc: subprocess.Popen) -> str:
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err


def get(base: str, path: str) -> tuple[int, bytes]:
    host = base.removeprefix("http://")
    name, port = host.split(":")
    conn = http.client.HTTPConnection(name, int(port), timeout=10)
    try:
        conn.request("GET", path, headers={"Host": host})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def test_a_restart_with_seats_keeps_every_link(tmp_path):
    # first start: the seats file is made (0600), a link per seat
    log = tmp_path / "game.jsonl"
    cut(SIM, log, 21)
    seats = tmp_path / "game.seats"
    proc, base, first, _ = serve(str(log), "--umpire", "--seats", str(seats))
    try:
        assert sorted(first) == ["alice", "bob", "umpire"]
        for path in first.values():
            status, body = get(base, f"{path}/state")
            assert status == 200 and json.loads(body)["seq"] == 20
    finally:
        err = stop(proc)
    assert f"made {seats}: a token per seat (mode 0600; keep it secret)" in err
    assert stat.S_IMODE(os.stat(seats).st_mode) == 0o600
    # second start, another process: the same links, and each still opens its seat
    proc, base, again, _ = serve(str(log), "--umpire", "--seats", str(seats))
    try:
        assert again == first
        for name, path in again.items():
            status, body = get(base, f"{path}/state")
            assert status == 200 and json.loads(body)["you"] == name
        status, body = get(base, f"{again['umpire']}/state")
        codes = json.loads(body)["codes"]  # the umpire's page carries the join codes
        assert [c["seat"] for c in codes] == ["alice", "bob", "umpire"]
        assert all(c["url"] == base + first[c["seat"]] for c in codes)
        status, body = get(base, "/state")
        assert json.loads(body)["codes"] == []  # never on the shared page unless asked
    finally:
        stop(proc)


def test_reissue_voids_the_old_link(tmp_path):
    log = tmp_path / "game.jsonl"
    cut(SIM, log, 21)
    seats = tmp_path / "game.seats"
    proc, base, first, _ = serve(str(log), "--seats", str(seats))
    stop(proc)
    proc, base, again, _ = serve(str(log), "--seats", str(seats), "--reissue", "bob")
    try:
        assert again["alice"] == first["alice"] and again["bob"] != first["bob"]
        assert get(base, f"{first['bob']}/state")[0] == 404  # the lost phone's link
        assert get(base, f"{again['bob']}/state")[0] == 200
    finally:
        err = stop(proc)
    assert "reissued bob's link: the old one opens nothing now" in err


def test_a_seats_file_of_another_table_is_refused(tmp_path, run):
    from tabletape.app import seatfile
    log = tmp_path / "game.jsonl"
    cut(SIM, log, 21)
    seats = tmp_path / "other.seats"
    seatfile.seats_for(str(seats), "cards-of-war", ("carol", "dave"))
    before = seats.read_bytes()
    res = run("serve", str(log), "--play", "--seats", str(seats), "--port", "0")
    assert res.exit_code == 2
    assert res.stderr == (f"error: {seats} holds the seats of another table (cards-of-war: "
                          "carol, dave), not this log's (cards-of-war: alice, bob); name "
                          "another --seats file\n")
    assert seats.read_bytes() == before
    res = run("serve", str(log), "--play", "--seats", str(tmp_path / "x"), "--reissue", "eve",
              "--port", "0")
    assert res.exit_code == 2 and "--reissue eve: no such seat at this table" in res.stderr
    res = run("serve", str(log), "--reissue", "bob", "--play", "--port", "0")
    assert res.exit_code == 2 and "--reissue goes with --seats" in res.stderr


def test_a_seats_file_that_is_not_one_is_refused(tmp_path, run):
    log = tmp_path / "game.jsonl"
    cut(SIM, log, 21)
    for text in ("{}", "not json", json.dumps({"game": "cards-of-war", "players": ["alice", "bob"],
                                                "tokens": {"alice": "short"}})):
        seats = tmp_path / "bad.seats"
        seats.write_text(text)
        res = run("serve", str(log), "--play", "--seats", str(seats), "--port", "0")
        assert res.exit_code == 2 and "not a seats file" in res.stderr, res.stderr
        assert "Traceback" not in res.stderr


def test_serve_help_says_play_writes(run):
    res = run("serve", "--help")
    assert "(read-only)" not in res.stdout.splitlines()[2]
    assert "the server appends them to the log" in " ".join(res.stdout.split())


def test_a_seat_the_file_lacks_is_added_and_the_others_kept(tmp_path):
    # a seats file made without --umpire, then served with it: the umpire's token is added
    from tabletape.app import seatfile
    path = str(tmp_path / "game.seats")
    first, said = seatfile.seats_for(path, "cards-of-war", ("alice", "bob"))
    assert said == [f"made {path}: a token per seat (mode 0600; keep it secret)"]
    again, said = seatfile.seats_for(path, "cards-of-war", ("alice", "bob"), umpire=True)
    assert said == [f"added a token for umpire to {path}"]
    assert {k: again[k] for k in first} == first and again["umpire"] not in first.values()
    assert seatfile.seats_for(path, "cards-of-war", ("alice", "bob"), umpire=True) == (again, [])


def test_play_refuses_a_file_that_is_not_a_log_before_listening(run, tmp_path, monkeypatch):
    import uvicorn
    calls: list[int] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: calls.append(1))
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\nworld\n")
    seats = tmp_path / "notes.seats"
    res = run("serve", notes, "--play", "--seats", seats, "--port", "0")
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.startswith(f"error: {notes}:1 (byte 0): invalid JSON")
    assert calls == [] and not seats.exists()
