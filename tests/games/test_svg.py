"""`tabletape svg`: every game's table as SVG, from any state, as anyone sees it.

Pure Python and deterministic: the same state gives the same bytes (snapshots in
tests/__snapshots__/test_svg/), and the drawing is well-formed XML.
"""

from __future__ import annotations

import glob
import os
import xml.etree.ElementTree as ET

import pytest
from syrupy.extensions.image import SVGImageSnapshotExtension

from tabletape import engine
from tabletape.app import pictures
from tabletape.engine.kit.turns import HIDDEN
from tests.registry import BUNDLED, GAMES

REPLAYS = sorted(glob.glob("replays/*/*.jsonl"))
DISPUTED = {os.path.basename(os.path.dirname(p)): p for p in REPLAYS if "dispute" in p}
pytestmark = pytest.mark.usefixtures("template_registered")


@pytest.fixture
def snapshot_svg(snapshot):
    return snapshot.use_extension(SVGImageSnapshotExtension)


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """Returns a game's log to draw: its disputed replay, or (a game with no replays yet, the
    template) a simulated game written once."""
    def log_of(game: str) -> str:
        if game in DISPUTED:
            return DISPUTED[game]
        from tabletape.engine import simulate
        from tabletape.tape import log
        rs = engine.get(game)
        header = simulate.header_for(rs, ("alice", "bob"))
        path = str(tmp_path_factory.mktemp("sim") / f"{game}.jsonl")
        tail = log.create(path, header, rs.codec)
        log.append(path, [ev for ev, _ in simulate.play(rs, header, 1)], rs.codec, expect=tail)
        return path
    return log_of


def test_every_bundled_game_has_a_disputed_replay():
    assert sorted(DISPUTED) == BUNDLED


@pytest.mark.parametrize("game", GAMES)
def test_the_table_after_the_disputed_game(game, snapshot_svg, logs):
    r = engine.replay(logs(game))
    assert r.ruleset is not None
    assert snapshot_svg == pictures.draw(r.ruleset, r.state).svg()


@pytest.mark.parametrize("game", GAMES)
def test_the_table_halfway_as_the_second_player_sees_it(game, snapshot_svg, logs):
    events = engine.read_chain(logs(game)).events
    r = engine.replay(logs(game), to=events // 2)
    player = r.header.players[1]
    assert r.ruleset is not None
    assert snapshot_svg == pictures.draw(r.ruleset, r.state, player).svg()


@pytest.mark.parametrize("path", REPLAYS)
def test_every_replay_draws_well_formed_and_deterministic(path):
    r = engine.replay(path)
    for who in (None, *r.header.players):
        assert r.ruleset is not None
        one = pictures.draw(r.ruleset, r.state, who).svg()
        assert one == pictures.draw(r.ruleset, r.state, who).svg()
        root = ET.fromstring(one)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert "rich" not in one


def test_another_players_hand_is_backs():
    """Cards of War: as bob sees it, alice's hand is card backs; as alice, her cards."""
    path = DISPUTED["cards-of-war"]
    r = engine.replay(path, to=30)
    hand = r.state.hands["alice"]
    assert hand
    assert r.ruleset is not None
    part = next(p for p in pictures.draw(r.ruleset, r.state, "bob").parts
                if 'data-part="player alice"' in p)
    assert all(f">{name}<" not in part for name in hand)
    assert part.count(f">{HIDDEN}<") == len(hand)
    mine = next(p for p in pictures.draw(r.ruleset, r.state, "alice").parts
                if 'data-part="player alice"' in p)
    assert f">{hand[0][:8]}" in mine


def test_what_each_table_shows():
    """Each drawing carries what the issue lists for its game (spot checks on the text)."""
    r = engine.replay(DISPUTED["global-domination"])
    assert r.ruleset is not None
    svg = pictures.draw(r.ruleset, r.state).svg()
    lk = r.ruleset.lk
    assert len(lk.land) == 18 and len(lk.sea) == 7 and len(lk.regions) == 6
    for name in (*lk.regions, *lk.sea, "Logistics", "Turn"):
        assert f">{name}<" in svg
    assert svg.count('class="route"') >= 30  # adjacency, routed around the boxes
    r = engine.replay(DISPUTED["liberation"])
    assert r.ruleset is not None
    svg = pictures.draw(r.ruleset, r.state).svg()
    for name in r.ruleset.lk.country_names:
        assert f">{name}<" in svg
    assert " VP<" in svg
    r = engine.replay(DISPUTED["battlecards-pacific"], to=30)
    assert r.ruleset is not None
    svg = pictures.draw(r.ruleset, r.state).svg()
    assert "BATTLECARD Pearl Harbor" in svg and "Ground stack" in svg and "casualties" in svg
    r = engine.replay(DISPUTED["cards-of-war"])
    assert r.ruleset is not None
    svg = pictures.draw(r.ruleset, r.state).svg()
    assert "game over — winner" in svg and "rounds won" in svg  # over: the results, no
    assert "battle 3" not in svg  # empty battles (issue 27)
    r = engine.replay(DISPUTED["cards-of-war"], to=30)
    assert r.ruleset is not None
    assert "battle 3" in pictures.draw(r.ruleset, r.state).svg()


def test_svg_command(run, tmp_path):
    out = tmp_path / "t.svg"
    path = DISPUTED["cards-of-war"]
    res = run("svg", path, "--to", "30", "--as", "bob", "-o", out)
    assert res.exit_code == 0, res.output
    assert res.output == f"wrote {out}: the table after seq 30, as bob sees it\n"
    r = engine.replay(path, to=30)
    assert r.ruleset is not None
    assert out.read_text() == pictures.draw(r.ruleset, r.state, "bob").svg()
    res = run("svg", path, "-o", "-")
    assert res.output.startswith("<svg ") and res.output.endswith("</svg>\n")


@pytest.mark.parametrize("args,message", [
    (("--to", "9999"), "--to 9999: the log ends at seq 91"),
    (("--as", "zed"), "--as zed: not a player; players: alice, bob"),
])
def test_svg_command_refuses(run, tmp_path, args, message):
    res = run("svg", DISPUTED["cards-of-war"], *args, "-o", tmp_path / "t.svg")
    assert res.exit_code == 2
    assert message in res.output
    assert not (tmp_path / "t.svg").exists()


def test_a_battle_in_play(snapshot_svg):
    """BATTLECARDS Pacific mid-battle: the BATTLECARD, engaged units with their values."""
    r = engine.replay(DISPUTED["battlecards-pacific"], to=27)
    assert r.state.battle is not None
    assert r.ruleset is not None
    assert snapshot_svg == pictures.draw(r.ruleset, r.state, "alice").svg()



def test_svg_of_a_log_with_problems_says_so(run, game, tmp_path):
    """The picture of an invalid or broken log does not pass for a clean one: svg prints the
    problems replay prints (stderr, exit 1): an illegal event still in effect, a break after
    --to (the lines after SEQ are read for their chain)."""
    r = run("append", game, "--force", '{"type":"card_drawn","player":"bob","card":"Tank"}')
    assert r.exit_code == 0
    res = run("svg", game, "-o", tmp_path / "g.svg")
    assert res.exit_code == 1 and "[cow.turn.order]" in res.stderr
    assert "the state shown is the one before the illegal event at seq 3" in res.stderr
    ls = open(DISPUTED["cards-of-war"], "rb").read().splitlines(keepends=True)
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(b"".join([*ls[:-2], ls[-2].replace(b'"seq"', b'"seq" ', 1), ls[-1]]))
    res = run("svg", broken, "--to", "30", "-o", tmp_path / "b.svg")
    assert res.exit_code == 1, res.output
    assert "the state shown is after seq 30, but the log breaks later" in res.stderr
    assert res.stdout == f"wrote {tmp_path / 'b.svg'}: the table after seq 30\n"
    res = run("svg", broken, "--to", "30", "-o", tmp_path / "b.svg", "--force",
              "--json")
    assert res.exit_code == 1 and '"problems":[{' in res.stdout
