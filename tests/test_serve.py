"""`tabletape serve`: its command line (the server itself runs in test_browser.py)."""

from __future__ import annotations

import pytest

from tabletape.cli import see

KILL = "replays/cards-of-war/kill-dispute.jsonl"


@pytest.fixture
def no_server(monkeypatch):
    uvicorn = pytest.importorskip("uvicorn", reason="serve needs the view extra")
    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    return calls


def test_serve_binds_to_localhost_by_default(run, no_server):
    res = run("serve", KILL)
    assert res.exit_code == 0
    assert res.stdout == (f"serving {KILL} at http://127.0.0.1:8000/ (read-only; Ctrl-C stops)\n")
    assert res.stderr == ""
    assert no_server == [{"host": "127.0.0.1", "port": 8000, "log_level": "warning"}]


def test_serve_on_the_lan_warns(run, no_server):
    res = run("serve", KILL, "--host", "0.0.0.0", "--port", "8123")
    assert res.exit_code == 0
    assert res.stderr.startswith("warning: --host 0.0.0.0: anyone who can reach this machine "
                                 "on port 8123 can watch this game")
    assert no_server[0]["host"] == "0.0.0.0"


def test_loopback_addresses():
    assert all(see._loopback(h) for h in ("localhost", "127.0.0.1", "127.0.0.2", "::1"))
    assert not any(see._loopback(h) for h in ("0.0.0.0", "192.168.1.5", "example.org", "::"))


def test_the_app_has_only_read_routes():
    from tabletape.app import live
    app = live.app_for(KILL)
    for route in app.routes:
        assert route.methods <= {"GET", "HEAD"}


@pytest.mark.parametrize("path", sorted(__import__("glob").glob("replays/*/*.jsonl")))
def test_the_live_view_follows_every_bundled_replay(path):
    """What serve shows is the viewer's book of the log (the page and its data)."""
    import asyncio

    pytest.importorskip("starlette", reason="serve needs the view extra")
    from tabletape.app import live, viewer
    book = asyncio.run(live.Follower(path).current())
    fresh = viewer.build(path)
    assert book.version == fresh.version and book.frames == fresh.frames
