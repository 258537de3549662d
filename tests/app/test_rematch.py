"""`POST /p/TOKEN/rematch` (issue 34, point 9, the server's side): at game over a seat starts
a new log beside the old one, same game, players, options and components, and the same
links serve it from then on."""

from __future__ import annotations

import shutil

import pytest

from tabletape import engine
from tests.app.test_play import post
from tests.app.test_push import Stream

pytest.importorskip("uvicorn", reason="serve --play needs the view extra")

SIM = "replays/cards-of-war/sim-normal.jsonl"  # a whole game: it ends


@pytest.fixture
def finished(tmp_path):
    from tabletape.app import play
    from tabletape.web import table as web
    from tests.app.test_serve import Served
    path = tmp_path / "game.jsonl"
    shutil.copy(SIM, path)
    t = play.Table(str(path))
    seats = play.Seats(("alice", "bob"), umpire=True)
    s = Served(web.play_app(t, seats))
    yield path, s, {seat.name: p for seat, p in seats.links()}, t
    s.close()


def test_a_rematch_starts_a_new_log_served_by_the_same_links(finished):
    path, s, links, table = finished
    stream = Stream(s.port, f"{links['bob']}/events")
    try:
        page = stream.page()
        assert page["over"] and page["rematch"] == str(path.parent / "game-rematch-1.jsonl")
        status, said = post(s, f"{links['alice']}/rematch", {"after": page["version"]})
        new = path.parent / "game-rematch-1.jsonl"
        assert (status, said) == (200, {"message": f"rematch started: {new}"})
        pushed = stream.page()  # bob's page, by push: the new game
        assert pushed["seq"] == 0 and not pushed["over"] and pushed["rematch"] is None
    finally:
        stream.close()
    old, again = engine.replay(str(path)).header, engine.replay(str(new)).header
    assert (again.game, again.players, again.options, again.components) == \
        (old.game, old.players, old.options, old.components)
    assert again.by == "alice"
    assert (old.format, again.format) == (1, 2)  # today's format: its secret lines salted
    assert path.read_bytes() == open(SIM, "rb").read()  # the old log untouched
    # the new game is not over: no rematch of it yet
    version = table.now().version
    status, said = post(s, f"{links['umpire']}/rematch", {"after": version})
    assert status == 409 and said["message"].startswith("the game is not over")


def test_the_shared_page_starts_no_rematch(finished):
    path, s, links, table = finished
    status, said = post(s, "/p/nosuchtoken/rematch", {"after": table.now().version})
    assert status == 404


def test_rematch_paths_count_on():
    from tabletape.app.seatfile import rematch_path
    assert rematch_path("/nowhere/game.jsonl") == "/nowhere/game-rematch-1.jsonl"
    assert rematch_path("/nowhere/game-rematch-1.jsonl") == "/nowhere/game-rematch-2.jsonl"
