"""`tabletape serve FILE --play` (issue 27): each player's page and writes, on a real server
on loopback (uvicorn in a thread, as in test_serve.py); the pages in Chromium are in
test_browser.py."""

from __future__ import annotations

import http.client
import json
import os
import random
import re
from typing import Any

import msgspec
import pytest

from tabletape import engine
from tests.app.test_serve import Served
from tests.narrow import present

uvicorn = pytest.importorskip("uvicorn", reason="serve --play needs the view extra")

SIM = "replays/cards-of-war/sim-normal.jsonl"
# what --play says on a loopback address (issue 34, point 6): no phone opens such a link
LOOPBACK_NOTE = ("note: --host 127.0.0.1 is this machine only: no phone can open these links; "
                 "serve with --host 0.0.0.0 to reach phones on the same network\n")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cut(src: str, dst, lines: int) -> None:
    """Writes the first `lines` lines of a log (a valid log: a prefix of the chain)."""
    with open(src, "rb") as f:
        dst.write_bytes(b"".join(f.readlines()[:lines]))


@pytest.fixture
def table(tmp_path):
    """A Cards of War game at seq 20 (bob deploys next), served for play with an umpire."""
    from tabletape.app import play
    from tabletape.web import table as live
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 21)
    t = play.Table(str(path))
    seats = play.Seats(("alice", "bob"), umpire=True)
    told: list[str] = []
    served = Served(live.play_app(t, seats, told=told.append))
    links = {seat.name: p for seat, p in seats.links()}
    yield path, served, links, told
    served.close()


def post(served: Served, path: str, body: object, origin: str | None = "same",
         content_type: str = "application/json") -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    host = f"127.0.0.1:{served.port}"
    headers = {"Host": host, "Content-Type": content_type}
    if origin is not None:
        headers["Origin"] = f"http://{host}" if origin == "same" else origin
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    try:
        conn.request("POST", path, body=raw, headers=headers)
        r = conn.getresponse()
        text = r.read()
        try:
            return r.status, json.loads(text)
        except ValueError:
            return r.status, {"raw": text.decode()}
    finally:
        conn.close()


def state(served: Served, link: str) -> dict:
    status, _, body = served.get(f"{link}/state")
    assert status == 200, body
    return json.loads(body)


def replayed(path) -> engine.Replay:
    result = engine.replay(str(path))
    assert result.error is None and not result.problems
    return result


def hidden_from(path, who: str) -> set[str]:
    """Returns the card names in other hands that `who` cannot see anywhere on the table."""
    result = replayed(path)
    assert result.fold is not None
    rs, state = result.ruleset, result.fold.state
    assert rs is not None
    seen = msgspec.json.encode(rs.view(state, who)).decode()
    return {c for p, hand in state.hands.items() if p != who for c in hand
            if f'"{c}"' not in seen}


# -- item 1: the links ---------------------------------------------------------------------

@pytest.fixture
def no_server(monkeypatch):
    calls = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: calls.append(1))
    return calls


def test_play_prints_the_shared_link_and_a_secret_link_and_qr_per_player(run, no_server):
    res = run("serve", SIM, "--play", "--umpire", "--port", "0")
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.splitlines()
    m = re.fullmatch(rf"serving {SIM} for play at (http://127\.0\.0\.1:\d+)/ \(the shared "
                     r"table: public; Ctrl-C stops\)", lines[0])
    assert m, lines[0]
    links = [line for line in lines if re.match(r"(alice|bob|umpire): http", line)]
    assert [line.split(":")[0] for line in links] == ["alice", "bob", "umpire"]
    tokens = [present(re.fullmatch(rf"\w+: {m[1]}/p/([A-Za-z0-9_-]{{24}})", line))[1] for line in links]
    assert len(set(tokens)) == 3
    assert sum("█" in line for line in lines) > 30  # a QR code under each link
    assert res.stderr == LOOPBACK_NOTE
    again = run("serve", SIM, "--play", "--port", "0")
    assert not set(tokens) & set(re.findall(r"/p/([A-Za-z0-9_-]+)", again.stdout))  # per session
    assert "umpire" not in again.stdout


def test_play_on_the_network_warns(run, no_server):
    res = run("serve", SIM, "--play", "--host", "0.0.0.0", "--port", "0")
    assert res.exit_code == 0
    assert res.stderr.startswith("warning: --host 0.0.0.0: anyone who can reach this machine")
    assert "only the links below (keep them secret) can write to it" in res.stderr


def test_umpire_needs_play(run, no_server):
    res = run("serve", SIM, "--umpire", "--port", "0")
    assert (res.exit_code, res.stderr) == (2, "error: --umpire goes with --play\n")
    assert no_server == []


# -- item 2: what each page is sent; the writes ------------------------------------------

def test_each_page_is_sent_only_what_its_seat_may_see(table):
    path, served, links, _ = table
    for who in ("alice", "bob"):
        secret = hidden_from(path, who)
        assert secret  # the other hand has cards this player cannot see
        for link in (links[who] + "/state", links[who]):
            status, _, body = served.get(link)
            assert status == 200
            assert not {c for c in secret if c in body.decode()}, (who, link)
    result = replayed(path)
    for who in ("alice", "bob"):  # the hand panel: the game's `held`, pile by pile
        assert result.fold is not None
        assert state(served, links[who])["hand"] == [
            {"pile": "Hand", "cards": list(result.fold.state.hands[who])}]
    public = state(served, "")
    both = hidden_from(path, "alice") | hidden_from(path, "bob")
    assert not {c for c in both if c in json.dumps(public)}
    assert public["groups"] == [] and public["verdict"] == "valid" and public["hand"] == []
    umpire = state(served, links["umpire"])
    result = replayed(path)
    from tabletape.app import pictures
    assert result.ruleset is not None
    assert result.fold is not None
    assert umpire["svg"] == pictures.draw(result.ruleset, result.fold.state).svg()  # everything
    assert all(word in umpire["svg"] for c in both for word in c.split())  # whole names


def test_only_the_player_waited_on_gets_buttons(table):
    _, served, links, _ = table
    alice, bob = state(served, links["alice"]), state(served, links["bob"])
    assert alice["groups"] == [] and alice["waiting"] == "bob deploys a card"
    kinds = {g["group"] for g in bob["groups"]}
    assert kinds and all(k.startswith("deploy card") for k in kinds)
    assert state(served, links["umpire"])["groups"] == bob["groups"]


def test_a_pressed_event_is_appended_through_the_checked_path(table):
    path, served, links, told = table
    bob = state(served, links["bob"])
    event = bob["groups"][0]["events"][0]["event"]
    status, said = post(served, links["bob"] + "/event", {"event": event, "after": bob["version"]})
    assert status == 200, said
    assert said["message"].startswith("recorded seq 21: bob deploys")
    result = replayed(path)
    assert result.fold is not None
    assert result.events == 22 and result.fold.header.players == ("alice", "bob")
    last = json.loads(path.read_text().splitlines()[-1])
    assert (last["by"], last["type"]) == ("bob", "card_deployed")
    assert told[-1] == "bob: recorded seq 21"  # the console, seen at the table: no card
    # the same press again, from the page as it was: refused, nothing written; the answer
    # names no rule and no reason (whether it is still legal may turn on a hidden card)
    status, said = post(served, links["bob"] + "/event", {"event": event, "after": bob["version"]})
    assert status == 409
    assert said == {"message": "the table moved on since your page was drawn (the log ends "
                               "at seq 21); nothing was written: look again", "rule": None}
    assert replayed(path).events == 22


def test_bad_writes_write_nothing(table):
    path, served, links, _ = table
    before = path.read_bytes()
    bob = state(served, links["bob"])
    event = bob["groups"][0]["events"][0]["event"]
    body = {"event": event, "after": bob["version"]}
    cases: list[tuple[tuple[str, Any], int | tuple[int, ...], str | None]] = [
        (("/p/wrong-token/event", body), 404, "no such seat"),
        ((links["bob"][:-1] + "/event", body), 404, "no such seat"),
        (("/event", body), (404, 405), None),  # the shared page writes nothing
        ((links["alice"] + "/event", body), 403, "that is bob's to enter, not yours"),
        ((links["bob"] + "/event", {"event": event, "after": "0-x"}), 409, "the table moved on"),
        ((links["bob"] + "/event", {"event": {"type": "nope"}}), 400, "not a valid"),
        ((links["bob"] + "/event", [1, 2]), 400, "a write is one JSON object"),
        ((links["bob"] + "/event", b"{"), 400, "a write is one JSON object"),
        ((links["bob"] + "/event", {"event": 3}), 400, "expected"),
        ((links["bob"] + "/note", {"text": "x" * 5000}), 413, "a write is at most"),
        ((links["bob"] + "/note", {"text": " "}), 400, "a note needs some text"),
    ]
    for (where, what), code, says in cases:
        status, said = post(served, where, what)
        assert status == code if isinstance(code, int) else status in code, (where, said)
        if says:
            assert says in said["message"], said
    for origin in (None, "http://evil.example", "null", f"https://127.0.0.1:{served.port}"):
        status, said = post(served, links["bob"] + "/event", body, origin=origin)
        assert (status, said["message"]) == (403, "a write must come from this server's own "
                                                  "page (Origin); nothing was written")
    status, said = post(served, links["bob"] + "/event", body, content_type="text/plain")
    assert status == 415
    status, _, _ = served.get(links["bob"] + "/event")
    assert status == 405
    assert path.read_bytes() == before


def test_writes_are_rate_limited(table):
    _, served, links, _ = table
    codes = [post(served, links["alice"] + "/note", {"text": " "})[0] for _ in range(32)]
    assert codes[:30] == [400] * 30 and codes[30:] == [429, 429]
    assert post(served, links["bob"] + "/note", {"text": " "})[0] == 400  # per seat


def test_a_note_and_a_dispute_from_a_page(table):
    path, served, links, _ = table
    v = state(served, links["alice"])["version"]
    status, said = post(served, links["alice"] + "/note", {"text": "bob took long", "after": v})
    assert (status, said["message"]) == (200, "recorded seq 21: note")
    v = state(served, links["alice"])["version"]
    status, said = post(served, links["alice"] + "/note",
                        {"text": "that draw was seen", "dispute": True, "after": v})
    assert (status, said["message"]) == (200, "recorded seq 22: dispute")
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[-1]["about"] == 20 and lines[-1]["dispute"] and lines[-1]["by"] == "alice"
    replayed(path)


def test_undo_needs_another_players_confirmation(table):
    # alice asks: the request is a line of the log, which bob's page then offers to answer
    path, served, links, _ = table
    v = state(served, links["alice"])["version"]
    status, said = post(served, links["alice"] + "/undo", {"after": v})
    assert (status, said["message"]) == (200, "recorded seq 21: alice asks to undo seq 20; "
                                              "another player (or the umpire) answers it "
                                              "from their page")
    bob = state(served, links["bob"])
    assert bob["undo"] == {"target": 20, "sentence": "alice: card_drawn (not seen by bob)",
                           "asked": 21,
                           "asked_by": "alice", "may_confirm": True, "may_refuse": True,
                           "may_ask": False}
    assert state(served, links["alice"])["undo"]["may_confirm"] is False
    before = path.read_bytes()
    status, said = post(served, links["alice"] + "/undo", {"after": bob["version"]})
    assert (status, said) == (409, {"message": "you asked already: another player (or the "
                                               "umpire) answers it; nothing was written",
                                    "rule": "core.ask.self"})
    assert path.read_bytes() == before
    # bob accepts: one `undone` line, his, naming the request
    status, said = post(served, links["bob"] + "/undo", {"after": bob["version"]})
    assert (status, said["message"]) == (200, "recorded seq 22: bob accepts the request at "
                                              "seq 21: undoes seq 20")
    last = json.loads(path.read_text().splitlines()[-1])
    assert (last["type"], last["target"], last["asked"], last["by"]) == ("undone", 20, 21, "bob")
    assert present(replayed(path).fold).latest() == 19


def test_the_umpire_undoes_at_once(table):
    path, served, links, _ = table
    v = state(served, links["umpire"])["version"]
    status, said = post(served, links["umpire"] + "/undo", {"after": v})
    assert (status, said["message"]) == (200, "recorded seq 21: undoes seq 20")
    assert json.loads(path.read_text().splitlines()[-1])["by"] == "umpire"
    replayed(path)


def test_a_shell_append_beside_the_server_keeps_one_chain(table, run):
    path, served, links, _ = table
    bob = state(served, links["bob"])
    event = bob["groups"][0]["events"][0]["event"]
    res = run("append", path, json.dumps(event), "--by", "bob")
    assert res.exit_code == 0, res.stderr
    after = state(served, links["bob"])
    assert after["version"] != bob["version"] and after["seq"] == 21
    status, said = post(served, links["bob"] + "/event", {"event": event, "after": bob["version"]})
    assert status == 409  # the page was drawn before the shell's append
    assert after["waiting"].startswith("the card bob draws")  # only bob sees it: his buttons
    assert state(served, links["alice"])["groups"] == []
    deck = present(replayed(path).fold).state.decks  # bob presses a card he holds: one in the deck
    drawn = next(c for c in after["groups"][0]["events"]
                 if any(d.get(c["event"]["card"]) for d in deck.values()))
    status, said = post(served, links["bob"] + "/event",
                        {"event": drawn["event"], "after": after["version"]})
    assert status == 200, said
    assert replayed(path).events == 23


def test_play_pages_carry_the_csp_and_the_viewers_data_is_not_served(table):
    from tabletape.web import guard as live
    from tabletape.web import play_page
    _, served, links, _ = table
    for where in ("/", links["alice"], links["alice"] + "/state", "/state"):
        status, headers, _ = served.get(where)
        assert status == 200
        assert headers["content-security-policy"] == live.policy(play_page.PAGE)
    scripts = re.findall(r"<script>(.*?)</script>", play_page.PAGE, re.S)  # the builder's too
    assert f"script-src {' '.join(map(live._sha256, scripts))};" in live.policy(play_page.PAGE)
    assert not re.search(r"\son[a-z]+=", play_page.PAGE)  # no inline event handlers
    assert served.get("/data?v=x")[0] == 404  # every view at once: never served in play
    assert served.get("/", host="evil.example")[0] == 400


def test_a_log_that_breaks_under_the_server_is_said_not_raised(table):
    path, served, links, _ = table
    kept = path.read_bytes()
    path.write_bytes(kept + b'{"type": "note", "broken\n')
    data = state(served, links["alice"])
    assert data["ok"] is False and data["verdict"].startswith("unreadable: ")
    assert data["svg"] == "" and data["groups"] == []
    status, said = post(served, links["alice"] + "/note", {"text": "hello", "after": "x"})
    assert status == 409 and said["message"].startswith("the log cannot take a write (line 22")
    assert said["message"].endswith("; nothing was written")
    assert path.read_bytes() == kept + b'{"type": "note", "broken\n'
    path.unlink()
    assert state(served, links["bob"])["verdict"].startswith("unreadable: ")


# -- done when: a whole game from the pages ------------------------------------------------

def play_from_pages(path, players: tuple[str, ...], most: int, monkeypatch) -> int:
    """Plays by pressing, on whichever page has buttons, its first event; returns how many
    were pressed (until the game is over or `most`)."""
    from tabletape.app import play
    from tabletape.web import table as live
    monkeypatch.setattr(play, "RATE", (10**6, 1.0))
    t = play.Table(str(path))
    seats = play.Seats(players)
    served = Served(live.play_app(t, seats))
    links = {seat.name: p for seat, p in seats.links()}
    pressed = 0
    rng = random.Random(27)
    try:
        while pressed < most:
            pages = {p: state(served, links[p]) for p in players}
            ready = [(p, s) for p, s in pages.items() if s["groups"]]
            if not ready:
                assert next(iter(pages.values()))["actor"] is None  # over, not stuck
                break
            actor = ready[0][1]["actor"]
            mine = [(p, s) for p, s in ready if p == actor]  # the seat waited on, if a player
            who, page = (mine or ready)[0]
            choices = [e["event"] for g in page["groups"] for e in g["events"]]
            # an honest player presses the card they drew: one the deck holds (the page
            # offers every card they cannot rule out, some of which another seat holds)
            result = replayed(path)
            assert result.ruleset is not None
            assert result.fold is not None
            legal = [json.loads(result.ruleset.codec.encode(e)) for e in
                     result.ruleset.legal(result.fold.state)]
            choices = [c for c in choices if {**c, "seq": -1} in
                       [{**e, "seq": -1} for e in legal]] or choices
            event = rng.choice(choices)
            status, said = post(served, links[who] + "/event",
                                {"event": event, "after": page["version"]})
            assert status == 200, said
            pressed += 1
    finally:
        served.close()
    replayed(path)
    return pressed


def test_a_whole_short_game_of_cards_of_war_from_two_pages(tmp_path, run, monkeypatch):
    path = tmp_path / "game.jsonl"
    assert run("new", "cards-of-war", path, "--players", "alice,bob", "--option",
               "length=short").exit_code == 0
    pressed = play_from_pages(path, ("alice", "bob"), 1000, monkeypatch)
    result = replayed(path)
    assert result.ruleset is not None
    assert result.fold is not None
    assert result.ruleset.outcome(result.fold.state) is not None  # played to the end
    assert pressed == result.events - 1


@pytest.mark.parametrize(("game", "players", "options"), [
    ("liberation", "ann,bob", ()),
    ("battlecards-pacific", "ann,bob", ()),
    ("global-domination", "ann,bob,cat", ()),
])
def test_a_few_turns_of_each_other_game_from_the_pages(tmp_path, run, monkeypatch, game,
                                                         players, options):
    path = tmp_path / "game.jsonl"
    assert run("new", game, path, "--players", players, *options).exit_code == 0
    assert play_from_pages(path, tuple(players.split(",")), 30, monkeypatch) == 30


def test_a_draws_buttons_tell_nothing_of_the_other_hand(tmp_path):
    """The cards a player may say they drew: every card they cannot rule out from what they
    see (the game's candidates), sorted, whatever the other hand holds. One the deck cannot
    hold (bob has its last copy) is not refused, which would tell alice so: it is written
    and flagged to the umpire, whose page says why; alice's and bob's pages only that the
    umpire rules on it; the players' table plays on as though the card had been drawn."""
    from tabletape.app import play
    from tabletape.web import table as live
    path = tmp_path / "game.jsonl"
    cut(SIM, path, 20)  # alice deployed at seq 19; she draws next
    result = replayed(path)
    assert result.fold is not None
    state = result.fold.state
    deck = {c for c, n in state.decks[next(iter(state.decks))].items() if n}
    bobs = set(state.hands["bob"])
    flagged: list[str] = []
    t = play.Table(str(path), flagged=flagged.append)
    seats = play.Seats(("alice", "bob"), umpire=True)
    served = Served(live.play_app(t, seats))
    try:
        links = {("umpire" if seat.umpire else seat.name): p for seat, p in seats.links()}
        alice = json.loads(served.get(links["alice"] + "/state")[2])
        [group] = alice["groups"]
        items = [e["item"] for e in group["events"]]
        assert items == sorted(items) and set(items) >= deck | bobs
        only_bobs = sorted(bobs - deck)
        assert only_bobs  # this cut has one: the test would say nothing otherwise
        [pressed] = [e["event"] for e in group["events"] if e["item"] == only_bobs[0]]
        status, said = post(served, links["alice"] + "/event",
                            {"event": pressed, "after": alice["version"]})
        assert status == 200 and said["message"] == f"recorded seq 20: alice draws {only_bobs[0]}"
        assert len(flagged) == 1 and "[cow.draw.in-deck]" in flagged[0]
        for who in ("alice", "bob"):  # the table plays on as though the card was drawn
            page = json.loads(served.get(links[who] + "/state")[2])
            assert (page["verdict"], page["blocked"]) == ("valid", False)
        hand = json.loads(served.get(links["alice"] + "/state")[2])["hand"][0]["cards"]
        assert only_bobs[0] in hand
        umpire = json.loads(served.get(links["umpire"] + "/state")[2])
        assert umpire["verdict"] == "invalid at seq 20 [cow.draw.in-deck]"
        assert umpire["blocked"] and umpire["groups"] == []  # the umpire rules first
    finally:
        served.close()


# -- the walk-through's transcript (docs/play.md) ------------------------------------------

def test_the_walk_through_shows_what_serve_play_prints(run, no_server, monkeypatch, tmp_path):
    """docs/play.md shows `serve --play` as the terminal prints it: this run, with each
    random token replaced by a made-up one (the code passes through the same path: only
    `secrets.token_urlsafe` is swapped), on port 8000 (not listened on: no server runs)."""
    import itertools
    import secrets
    made_up = (f"docs-example-token-{n:05d}" for n in itertools.count(1))
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=18: next(made_up))
    log_path = tmp_path / "game.jsonl"
    assert run("new", "cards-of-war", log_path, "--players", "alice,bob", "--option",
               "length=short").exit_code == 0
    from tabletape.cli import see

    class Port8000:  # the port the page says, whether or not this machine has it free
        def getsockname(self):
            return ("127.0.0.1", 8000)

        def close(self):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass
    monkeypatch.setattr(see, "_listen", lambda host, port: Port8000())
    monkeypatch.chdir(tmp_path)
    res = run("serve", "game.jsonl", "--play", "--port", "8000")
    assert res.exit_code == 0 and res.stderr == LOOPBACK_NOTE
    printed = res.stdout.rstrip("\n")
    with open(f"{ROOT}/docs/play.md", encoding="utf-8") as f:
        page = f.read()
    shown = re.search(r"\$ tabletape serve game.jsonl --play --port 8000\n(.*?)\n```",
                      page, flags=re.S)
    assert shown, "docs/play.md shows the transcript of serve --play"
    assert shown[1] == printed, "docs/play.md's transcript, as printed now:\n" + printed
