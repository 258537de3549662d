"""`tabletape serve`: its command line, and the server itself, run for real on loopback
(uvicorn in a thread of the test process); the page in a browser is in test_browser.py."""

from __future__ import annotations

import base64
import gzip
import hashlib
import http.client
import json
import logging
import os
import re
import shutil
import socket
import threading
import time

import pytest

from tabletape.cli import see
from tests.narrow import instance, present

KILL = "replays/cards-of-war/kill-dispute.jsonl"

uvicorn = pytest.importorskip("uvicorn", reason="serve needs the view extra")


@pytest.fixture
def no_server(monkeypatch):
    """uvicorn's server, not run: what it was given (its socket listening by then)."""
    calls = []

    def run(self, sockets=None):
        calls.append({"at": [s.getsockname()[:2] for s in sockets],
                      "listening": [_listening(s) for s in sockets]})
    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    return calls


def _listening(sock: socket.socket) -> bool:
    with socket.create_connection(sock.getsockname()[:2], timeout=2):
        return True


def test_serve_binds_to_localhost_by_default(run, no_server):
    res = run("serve", KILL, "--port", "0")
    assert res.exit_code == 0
    port = no_server[0]["at"][0][1]
    assert res.stdout == (f"serving {KILL} at http://127.0.0.1:{port}/ (read-only; Ctrl-C stops)\n")
    assert res.stderr == ""
    assert no_server[0]["at"][0][0] == "127.0.0.1"
    assert no_server[0]["listening"] == [True]  # "serving" is said once it is true


def test_serve_on_the_lan_warns(run, no_server):
    res = run("serve", KILL, "--host", "0.0.0.0", "--port", "0")
    assert res.exit_code == 0
    port = no_server[0]["at"][0][1]
    assert res.stderr.startswith("warning: --host 0.0.0.0: anyone who can reach this machine "
                                 f"on port {port} can watch this game")
    assert no_server[0]["at"][0][0] == "0.0.0.0"


def test_loopback_addresses():
    assert all(see._loopback(h) for h in ("localhost", "127.0.0.1", "127.0.0.2", "::1"))
    assert not any(see._loopback(h) for h in ("0.0.0.0", "192.168.1.5", "example.org", "::"))


def test_the_app_has_only_read_routes():
    from starlette.routing import Route

    from tabletape.web import view
    app = view.app_for(KILL)
    for route in app.routes:
        assert present(instance(Route, route).methods) <= {"GET", "HEAD"}


FOLLOWED = ["replays/battlecards-pacific/stalemate-after-casualty.jsonl",  # one short log a game
            "replays/cards-of-war/joint-adjacent.jsonl",
            "replays/global-domination/fog-of-war-build-example.jsonl",
            "replays/liberation/tie-break-draws.jsonl"]


@pytest.mark.parametrize("path", FOLLOWED)
def test_the_live_view_follows_a_growing_log_as_the_viewer_draws_it(path, tmp_path):
    """What serve shows is the viewer's book of the log (the page and its data), also once the
    log has grown under it (the drawings of the lines already seen are reused). One short
    log of each game: tests/app/test_viewer.py draws every bundled replay."""
    from tabletape.app import live, viewer
    lines = open(path, "rb").read().splitlines(keepends=True)
    grown = tmp_path / "grown.jsonl"
    grown.write_bytes(b"".join(lines[:len(lines) // 2]))
    follower = live.Follower(str(grown))
    assert follower.look().book.frames == viewer.build(str(grown)).frames
    with open(grown, "ab") as f:
        f.write(b"".join(lines[len(lines) // 2:]))
    book = follower.look().book
    fresh = viewer.build(str(grown))
    assert len(fresh.frames) == len(lines)
    assert book.version == fresh.version and book.frames == fresh.frames


# -- issue 22.13: what is not a log is refused before listening; a busy port is said ------

def test_a_file_that_is_not_a_log_is_refused_before_listening(run, no_server, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\nworld\n")
    res = run("serve", notes, "--port", "0")
    assert res.exit_code == 2
    assert res.stdout == ""
    assert res.stderr.startswith(f"error: {notes}:1 (byte 0): invalid JSON")
    assert no_server == []
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    res = run("serve", empty, "--port", "0")
    assert (res.exit_code, res.stderr) == (2, f"error: {empty}:1 (byte 0): empty file: no "
                                              "header line\n")
    assert no_server == []


def test_a_port_in_use_is_a_clear_error(run):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = run("serve", KILL, "--port", port)
    assert res.exit_code == 2
    assert res.stdout == ""  # not "serving", which it is not
    assert res.stderr == (f"error: cannot listen on 127.0.0.1:{port}: Address already in use "
                          "(another server? try --port)\n")


# -- a real server on loopback --------------------------------------------------------------

class Served:
    """A live app served by uvicorn in a thread; requests with any Host header."""

    def __init__(self, app):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.02)

    def get(self, path: str, host: str | None = None, timeout: float = 10,
            **headers: str) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("GET", path, headers={"Host": f"127.0.0.1:{self.port}" if host is None else host,
                                               **{k.replace("_", "-"): v
                                                  for k, v in headers.items()}})
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    def data(self, v: str = "x") -> dict:
        status, _, body = self.get(f"/data?v={v}")
        assert status == 200
        return json.loads(body)

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def log_copy(tmp_path):
    path = tmp_path / "game.jsonl"
    shutil.copyfile(KILL, path)
    return path


@pytest.fixture
def serve_app():
    """Serves `live.app_for(...)` apps; each stopped at the end of the test."""
    running = []

    def start(app) -> Served:
        running.append(Served(app))
        return running[-1]
    yield start
    for s in running:
        s.close()


@pytest.fixture
def told():
    return []


@pytest.fixture
def served(serve_app, log_copy, told):
    from tabletape.web import view
    return serve_app(view.app_for(str(log_copy), told=told.append))


# -- issue 22.11: only this server's names; a CSP that lets the page run its own script ---

def test_a_page_elsewhere_rebinding_its_name_to_loopback_gets_nothing(served, told):
    for host in ("evil.example", f"evil.example:{served.port}", "127.0.0.1.evil.example",
                 "localhost.", ""):
        for path in ("/", "/data?v=x"):
            status, _, body = served.get(path, host=host)
            assert (status, body) == (400, b"Invalid host header"), host
    assert told == ["refused a request for Host 'evil.example': not a name of this server",
                    f"refused a request for Host 'evil.example:{served.port}': not a name "
                    "of this server",
                    "refused a request for Host '127.0.0.1.evil.example': not a name of "
                    "this server",
                    "refused a request for Host 'localhost.': not a name of this server",
                    "refused a request for Host '': not a name of this server"]
    for host in ("127.0.0.1", f"127.0.0.1:{served.port}", f"localhost:{served.port}",
                 "LOCALHOST", f"[::1]:{served.port}"):
        assert served.get("/", host=host)[0] == 200, host


def test_the_host_names_of_each_address():
    from tabletape.web import guard as live
    lo = live.host_check("127.0.0.1", 8000)
    assert all(map(lo, ("127.0.0.1", "127.0.0.1:8000", "localhost", "localhost:8000")))
    assert not any(map(lo, ("127.0.0.1:8001", "[::1]", "evil.example", "192.168.1.5",
                            "localhost:80x", "127.0.0.1:8000:8000", "")))
    v6 = live.host_check("::1", 8000)
    assert all(map(v6, ("[::1]", "[::1]:8000", "localhost:8000")))
    assert not any(map(v6, ("::1", "127.0.0.1", "evil.example")))
    lan = live.host_check("0.0.0.0", 8000)  # every address: an IP literal cannot be rebound
    assert all(map(lan, ("192.168.1.5:8000", "10.0.0.7", "[fe80::1]:8000", "localhost")))
    assert not any(map(lan, ("evil.example:8000", "192.168.1.5.nip.io", "fe80::1")))
    assert lan(socket.gethostname() + ":8000") and lan(socket.gethostname() + ".local")
    named = live.host_check("192.168.1.5", 8000, ["tablet.lan"])
    assert all(map(named, ("192.168.1.5:8000", "tablet.lan:8000", "TABLET.LAN")))
    assert not any(map(named, ("localhost", "127.0.0.1", "10.0.0.7", "evil.example")))


def test_every_response_carries_the_security_headers(served):
    status, headers, page = served.get("/")
    assert status == 200
    csp = dict(d.strip().split(" ", 1) for d in headers["content-security-policy"].split(";"))
    scripts = re.findall(rb"<script>(.*?)</script>", page, re.S)  # the inline ones that run
    styles = re.findall(rb"<style>(.*?)</style>", page, re.S)
    assert scripts and styles

    def hashed(b: bytes) -> str:
        return f"'sha256-{base64.b64encode(hashlib.sha256(b).digest()).decode()}'"
    assert csp == {"default-src": "'none'",
                   "script-src": " ".join(map(hashed, scripts)),
                   "style-src": " ".join(map(hashed, styles)),
                   "connect-src": "'self'", "base-uri": "'none'", "form-action": "'none'",
                   "frame-ancestors": "'none'"}
    assert "unsafe" not in headers["content-security-policy"]
    for path, host in (("/", None), ("/data?v=x", None), ("/nowhere", None),
                       ("/", "evil.example")):
        status, headers, _ = served.get(path, host=host)
        assert headers["x-content-type-options"] == "nosniff", path
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]


# -- issue 22.12: the page follows the file, not the size and mtime it once had -----------

def _edited(path, old: bytes, new: bytes) -> None:
    """Edits the log in place, the same size, its mtime put back as it was."""
    st = os.stat(path)
    data = path.read_bytes()
    assert len(old) == len(new) and data.count(old) >= 1
    with open(path, "r+b") as f:
        f.seek(data.index(old))
        f.write(new)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(path).st_size == st.st_size


def test_an_edit_in_place_keeping_size_and_mtime_shows(served, log_copy):
    first = served.data()
    assert (first["verdict"], first["version"][:3]) == ("valid", "92-")
    _edited(log_copy, b'"by":"umpire"', b'"by":"umpirf"')
    after = served.data(first["version"])  # not a 204: the log changed
    assert after["verdict"].startswith("chain broken at line")
    assert not after["ok"] and after["version"] != first["version"]
    assert served.get(f"/data?v={after['version']}")[0] == 204


def test_a_log_replaced_by_another_of_the_same_size_and_mtime_shows(served, log_copy):
    first = served.data()
    other = log_copy.with_name("other.jsonl")
    data = log_copy.read_bytes()
    other.write_bytes(data.replace(b'"by":"umpire"', b'"by":"umpirf"', 1))
    st = os.stat(log_copy)
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, log_copy)
    assert served.data(first["version"])["verdict"].startswith("chain broken at line")


@pytest.mark.parametrize("how", ["deleted", "emptied", "header broken"])
def test_a_log_that_cannot_be_read_any_more_is_shown_so(served, log_copy, how, told, capfd):
    first = served.data()
    if how == "deleted":
        os.unlink(log_copy)
    elif how == "emptied":
        log_copy.write_bytes(b"")
    else:
        _edited(log_copy, b'{"type":"game_started"', b'{"type":"game_startex"')
    now = served.data(first["version"])
    assert now["verdict"] == {
        "deleted": "unreadable: the file is gone (deleted or moved)",
        "emptied": "unreadable: line 1: empty file: no header line",
    }.get(how, now["verdict"])
    assert now["verdict"].startswith("unreadable: ") and not now["ok"]
    assert (now["frames"], now["players"], now["head"]) == ([], [], "")  # nothing of before
    status, _, page = served.get("/")  # the page too: a 200 that says so, not a 500
    assert status == 200 and b"Invalid" not in page
    packed = re.search(rb'<script id="data" type="application/gzip;base64">(.*?)</script>',
                       page, re.S)
    assert packed is not None
    assert json.loads(gzip.decompress(base64.b64decode(packed[1])))["verdict"] == now["verdict"]
    assert told[-1] == f"{log_copy}: {now['verdict']}"
    assert "Traceback" not in capfd.readouterr().err
    shutil.copyfile(KILL, log_copy)  # back as it was: valid again, the first version
    assert served.data(now["version"])["version"] == first["version"]


def test_the_last_bytes_are_compared_as_well_as_the_stamp(log_copy, monkeypatch):
    """Where a file system keeps the stamp (a coarse clock, a same-tick edit), the bytes
    re-read at the end of the log still show the change."""
    from tabletape.app import live
    follower = live.Follower(str(log_copy))
    first = follower.look()
    monkeypatch.setattr(live, "stat", lambda path: first.stamp)  # the stamp: unchanged
    _edited(log_copy, b'"Recon Plane","battle":2}', b'"Recon Plano","battle":2}')
    assert follower.look().version != first.version


# -- issue 22.14: each version is encoded once, off the event loop ------------------------

def test_each_version_is_encoded_once_for_every_client(served, log_copy, monkeypatch):
    from tabletape.app import viewer
    encodes = []
    real = viewer.data_json

    def encoded(*a, **k):
        encodes.append(1)
        return real(*a, **k)
    monkeypatch.setattr(viewer, "data_json", encoded)
    pages = [served.get("/") for _ in range(3)]
    datas = [served.get("/data?v=x", Accept_Encoding="gzip") for _ in range(3)]
    plain = [served.get("/data?v=x") for _ in range(2)]
    assert len(encodes) == 1
    assert len({p[2] for p in pages}) == 1
    assert json.loads(gzip.decompress(datas[0][2])) == json.loads(plain[0][2])
    assert datas[0][1]["content-encoding"] == "gzip" and "content-encoding" not in plain[0][1]
    _note(log_copy)  # a new version: encoded once more
    for _ in range(3):
        served.get("/data?v=x", Accept_Encoding="gzip")
    assert len(encodes) == 2


def _note(path) -> None:
    from click.testing import CliRunner

    from tabletape.cli.group import main
    res = CliRunner().invoke(main, ["note", str(path), "one more", "--by", "dave"])
    assert res.exit_code == 0, res.output


def test_the_event_loop_answers_while_a_page_is_built(served, monkeypatch):
    from tabletape.app import viewer
    release, encodes = threading.Event(), []
    real = viewer.data_json

    def slow(*a, **k):
        encodes.append(1)
        assert release.wait(20)
        return real(*a, **k)
    monkeypatch.setattr(viewer, "data_json", slow)
    answers: list = []
    clients = [threading.Thread(target=lambda: answers.append(served.get("/")))
               for _ in range(3)]
    try:
        for c in clients:
            c.start()
        for _ in range(100):
            if encodes:
                break
            time.sleep(0.02)
        assert encodes == [1]  # the page is being built
        assert served.get("/nowhere", timeout=3)[0] == 404  # and the server still answers
        assert served.get("/", host="evil.example", timeout=3)[0] == 400
    finally:
        release.set()
        for c in clients:
            c.join(timeout=20)
    assert [a[0] for a in answers] == [200] * 3 and encodes == [1]


# -- the server's own lines: escaped at the one door ---------------------------------------

def test_what_uvicorn_logs_is_escaped():
    record = logging.LogRecord("uvicorn.error", logging.WARNING, __file__, 1,
                               "bad request %s", ("/\x1b]0;owned\x07",), None)
    from tabletape.web import run
    assert run._Escaped().filter(record)
    assert record.getMessage() == "bad request /\\x1b]0;owned\\x07"


def test_a_hostile_file_name_is_escaped_in_the_servers_news(run, no_server, tmp_path):
    path = tmp_path / "g\x1b[2J.jsonl"
    shutil.copyfile(KILL, path)
    res = run("serve", path, "--port", "0")
    assert res.exit_code == 0 and "\x1b" not in res.stdout and "\\x1b[2J" in res.stdout


def test_a_torn_tail_and_its_repair_are_two_versions(log_copy):
    """The same events and head, another verdict: the page must hear of it."""
    from tabletape.app import live
    follower = live.Follower(str(log_copy))
    first = follower.look()
    kept = log_copy.read_bytes()
    with open(log_copy, "ab") as f:
        f.write(b'{"type":"no')
    torn = follower.look()
    assert torn.book.verdict.startswith("torn at line 93") and torn.version != first.version
    log_copy.write_bytes(kept)
    assert follower.look().version == first.version


def test_a_stalled_client_holds_a_piece_not_the_page():
    """Every client is sent the one encoded copy, a piece at a time: uvicorn waits for a
    slow client to drain before it is handed the next piece."""
    import asyncio

    from starlette.responses import StreamingResponse

    from tabletape.web import guard as live
    body = bytes(range(256)) * 2000
    response = instance(StreamingResponse, live.sent(body, "text/html", {}))
    assert response.headers["content-length"] == str(len(body))

    async def pieces() -> list[bytes]:
        return [instance(bytes, p) async for p in response.body_iterator]
    got = asyncio.run(pieces())
    assert b"".join(got) == body and max(map(len, got)) == live.PIECE
