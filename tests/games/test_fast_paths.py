"""The shortcuts taken for speed agree with the plain definitions they stand for."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import typing

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletape import engine
from tabletape.tape.errors import ChainError, LogFormatError
from tests.conftest import lines, session_log, write
from tests.narrow import present
from tests.registry import GAMES

from .test_games import simulated


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.usefixtures("template_registered")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_over_is_exactly_when_nothing_is_pending(game, seed):
    header, _, states = simulated(game, seed)
    rs = engine.get(game).bind(header)  # the rules are called on a bound ruleset
    for state in (rs.initial(), *states):
        assert rs.over(state) == (rs.pending(state) is None)
    assert rs.over(states[-1])


@pytest.mark.parametrize("at", [1, 1500, 2999])
@pytest.mark.parametrize("prev", [b'"prev":"' + b"AB" * 32 + b'"', b'"prev":"' + b"0" * 63 + b'"'])
def test_a_prev_that_is_no_digest_is_a_format_error_as_the_schema_says(tmp_path, long_log,
                                                                       at, prev):
    ls = lines(long_log)
    ls[at] = re.sub(rb'"prev":"[0-9a-f]{64}"', prev, ls[at])
    path = tmp_path / "bad.jsonl"
    write(path, b"".join(ls))
    with pytest.raises(LogFormatError) as info:
        sum(1 for _ in engine.iter_records(str(path)))
    e = info.value
    assert (e.line, e.field) == (at + 1, "$.prev") and not isinstance(e, ChainError)
    assert "Expected `str` matching regex '^[0-9a-f]{64}$'" in e.reason


def test_the_strict_decoder_differs_only_in_prev_and_names():
    from tabletape.tape.events import Name, StrictName

    def plain(kind):  # a strict field's type, written as the fast decoder's would be
        return repr(kind).replace(repr(StrictName), repr(Name))

    for rs in engine.all_games():
        fast, strict = typing.get_args(rs.codec.decoder.type), typing.get_args(rs.codec.strict.type)
        for a, b in zip(fast, strict, strict=True):
            fa, fb = msgspec.structs.fields(a), msgspec.structs.fields(b)
            assert [(f.name, repr(f.type)) for f in fa if f.name != "prev"] == \
                [(f.name, plain(f.type)) for f in fb if f.name != "prev"]
            assert a.__struct_config__.tag == b.__struct_config__.tag


def test_a_block_with_an_unsafe_character_takes_the_strict_path():
    from tabletape.tape import reader
    for text in ("\x1b[2K", "\u202e", "\u200b", "\x85", "a\nb", "\ufeff", "\x7f", "\u2060",
                 "\u00ad", "\ufe0f", "\u3164", "\uffff", "\U000e0001", "\U0010fffe"):
        line = msgspec.json.encode({"type": "note", "text": text})
        assert reader._UNSAFE_BYTES.search(line), text
    assert not reader._UNSAFE_BYTES.search(msgspec.json.encode({"player": "Zoë", "card": "Spy"}))


def test_the_unsafe_bytes_are_the_unsafe_characters_for_every_code_point():
    """`_UNSAFE_BYTES` finds a character in its canonical encoding exactly when UNSAFE names it.

    (Surrogates cannot be in a decoded line: msgspec refuses a lone one, escaped or raw.)
    """
    import re

    from tabletape.tape import reader
    from tabletape.tape.events import UNSAFE
    char = re.compile(f"[{UNSAFE}]")
    differ = [hex(c) for c in range(0x110000) if not 0xd800 <= c <= 0xdfff
              and bool(reader._UNSAFE_BYTES.search(msgspec.json.encode(chr(c))))
              != bool(char.match(chr(c)))]
    assert differ == []



@pytest.mark.parametrize("char", ["\x7f", "\x1b", "\u202e", "\x85"])
def test_a_name_holding_an_unsafe_character_is_refused_by_the_block_reader_too(game, char):
    """msgspec writes DEL raw: the block reader must send it to the strict decoder like the rest."""
    from tabletape.engine import reading
    ls = lines(game)
    assert b'"player":"bob"' in ls[-1]
    ls[-1] = ls[-1].replace(b'"player":"bob"', b'"player":"b' + msgspec.json.encode(char)[1:-1]
                            + b'ob"')
    write(game, b"".join(ls))
    with pytest.raises(LogFormatError) as block:
        list(reading.iter_records(str(game)))
    assert block.value.line == len(ls) and block.value.field == "$.player"

_FRAGMENTS = [b"\\", b"\\u001b", b"\\u007f", b"\\n", b"\\\\", b"\\\"", b"\xc2", b"\xc2\x85",
              b"\xc2\xa0", b"\xd8", b"\xd8\x9c", b"\xe2\x80", b"\xe2\x80\x8b", b"\xe2\x80\x94",
              b"\xe2\x81\xa6", b"\xef\xbb\xbf", b"\xef", b"\xe1\x85\x9f", b"\xe3\x85\xa4",
              b"\xef\xbf\xbf", b"\xf3\xa0", b"\xf0\x9f\xbf\xbe", b"\xf0\x9f\x98\x80", b"\xcd\x8f",
              b"\xe6\x97\xa5", b"a", b'"', b"\n", b"{}", b"\x00"]


@given(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.binary(max_size=4)), max_size=12))
@settings(max_examples=400, deadline=None, derandomize=True)
def test_the_unsafe_prefilter_is_the_regex(parts):
    """`_unsafe` looks for the bytes every match begins with before searching: same answer."""
    from tabletape.tape import reader
    chunk = b"".join(parts)
    assert reader._unsafe(chunk) == (reader._UNSAFE_BYTES.search(chunk) is not None)


def _engaged(seed):
    """Yields (lk, state, battle, player, unit) for every engaged unit of a simulated
    BATTLECARDS game, then checks the game ended."""
    header, _, states = simulated("battlecards-pacific", seed)
    rs = engine.get("battlecards-pacific").bind(header)
    for state in states:
        b = state.battle
        if b is None:
            continue
        for player in (b.aggressor, b.defender):
            for name in dict.fromkeys(b.forces[player]):
                yield rs.lk, state, b, player, name
    assert rs.over(states[-1])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_battlecards_can_fire_is_having_a_target(seed):
    from tabletape.games.battlecards_pacific import fire
    asked = 0
    for lk, state, b, player, name in _engaged(seed):
        assert fire.can_fire(lk, state, b, player, name) == bool(
            fire.targets(lk, state, b, player, name))
        asked += 1
    assert asked


def _can_hit_plain(lk, state, battle, player):
    """bcp.stalemate.test as the rule reads: some unit, some target, some Action Number
    in its window with every supporter and its best Kept Card (legality.can_hit's definition)."""
    from tabletape.games.battlecards_pacific import fire, legality
    from tabletape.games.battlecards_pacific import lookups as q
    for name in dict.fromkeys(battle.forces[player]):
        me = q.unit(lk, state, player, name)
        if not me.phases:
            continue
        best = max((fire.kept_bonus(lk, k, me) or 0 for k in state.kept[player]), default=0)
        for target in fire.targets(lk, state, battle, player, name):
            above, upto = legality.window(lk, state, battle, player, name, target, None,
                                          legality.supporters(lk, state, battle, player, name))
            if any(above < a <= upto + best for a in lk.actions):
                return True
    return False


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_battlecards_can_hit_is_its_plain_definition(seed):
    from tabletape.games.battlecards_pacific import legality
    header, _, states = simulated("battlecards-pacific", seed)
    rs = engine.get("battlecards-pacific").bind(header)
    answers = set()
    for state in states:
        b = state.battle
        if b is None:
            continue
        for player in (b.aggressor, b.defender):
            fast = legality.can_hit(rs.lk, state, b, player)
            assert fast == _can_hit_plain(rs.lk, state, b, player)
            answers.add(fast)
    assert True in answers


def _feed_core_plainly(monkeypatch) -> None:
    """Makes Fold.feed send every core event to `_feed_core`, its plain definition (no inline
    undo of the latest event)."""
    from tabletape.engine import fold as folding
    feed = folding.Fold.feed

    def plain(self, seq, event, line=None):
        if isinstance(event, folding._CORE):
            self.at.seq = seq
            return self._feed_core(seq, event, line)
        return feed(self, seq, event, line)
    monkeypatch.setattr(folding.Fold, "feed", plain)


@pytest.mark.parametrize("path", ["replays/cards-of-war/undo-correction.jsonl",
                                  "replays/cards-of-war/kill-dispute.jsonl"])
def test_the_usual_undo_inline_is_feed_core(path, monkeypatch):
    """Fold.feed takes the undo of the latest event inline; `_feed_core` is its definition."""
    from tabletape.engine import reading

    def facts(r):
        f = r.fold
        return (msgspec.to_builtins(f.state), dict(f.retracted), set(f.core_seqs),
                {s: e.rule for s, e in f.corrected.items()}, sorted(f.illegal), f.blocked,
                [e.seq for e in f.stack], [msgspec.structs.asdict(r) for r in f.disputes])

    fast = facts(reading.replay(path))
    _feed_core_plainly(monkeypatch)
    assert facts(reading.replay(path)) == fast


def test_the_usual_undo_inline_on_a_long_session(long_log, monkeypatch):
    from tabletape.engine import reading
    fast = reading.replay(long_log)
    _feed_core_plainly(monkeypatch)
    slow = reading.replay(long_log)
    assert msgspec.to_builtins(slow.state) == msgspec.to_builtins(fast.state)
    assert slow.fold is not None
    assert fast.fold is not None
    assert dict(slow.fold.retracted) == dict(fast.fold.retracted) and len(fast.fold.retracted)
    assert sorted(slow.fold.corrected) == sorted(fast.fold.corrected)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.usefixtures("template_registered")
@pytest.mark.parametrize("seed", [1, 2])
def test_weights_is_each_events_weight(game, seed):
    """A game's `weights` (what chance's outcomes share, worked out once) is `weight` per event."""
    header, _, states = simulated(game, seed)
    rs = engine.get(game).bind(header)
    drawn = 0
    for state in (rs.initial(), *states[:-1]):
        events = list(rs.legal(state))
        weights = rs.weights(state, events)
        assert weights == [rs.weight(state, e) for e in events]
        drawn += present(rs.pending(state)).actor == engine.CHANCE
    assert drawn


COW_TABLES = [{}, {"theatres_of_war": True, "joint_deployment": True},
              {"alternative_reinforce": True, "automatic_kill": True, "two_decks": True},
              {"theatres_of_war": True, "alternative_reinforce": True, "joint_deployment": True,
               "automatic_kill": True},
              {"length": "long", "strategic_exhaustion": True, "joint_deployment": True}]


def _deploys_plain(lk, state, player):
    """Every way to deploy a held card (or the top discard) that `check` accepts, in order
    (Cards of War's `_legal_deploys`, plainly)."""
    from itertools import product

    from tabletape.games.cards_of_war import legality
    from tabletape.games.cards_of_war.components import Theatre
    from tabletape.games.cards_of_war.events import CardDeployed
    from tabletape.games.cards_of_war.lookups import other, top_discard
    opts = state.options
    sources = [(name, False) for name in dict.fromkeys(state.hands[player])]
    top = top_discard(state, player)
    if top is not None and opts.alternative_reinforce:
        sources.append((top, True))
    theatres = (None, *Theatre) if opts.theatres_of_war else (None,)
    for name, from_discard in sources:
        c = lk.cards[name]
        joints = (False, True) if opts.joint_deployment and lk.partners.get(name) else (False,)
        for battle in range(1, 4):
            victim = state.battles[battle - 1].piles[other(state, player)][-1:]
            kills: tuple[tuple[bool, str | None], ...] = ((False, None),)
            if c.kill and victim:
                kills += ((True, victim[0]),)
            for theatre, (kill, target), joint in product(theatres, kills, joints):
                ev = CardDeployed(player=player, card=name, battle=battle, kill=kill,
                                  target=target, theatre=theatre, joint=joint,
                                  from_discard=from_discard)
                if legality.check(lk, state, ev) is None:
                    yield ev


@pytest.mark.parametrize("options", COW_TABLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_cards_of_war_deploys_are_the_candidates_check_accepts(options, seed):
    """Cards of War's deployments: what each candidate shares is checked once; the plain
    definition runs the whole `check` on every candidate. Same events, same order."""
    from tabletape.engine import simulate
    from tabletape.games.cards_of_war import legality
    from tests.games.cards_of_war.helpers import RULESET, header
    h = header(**options)
    rs = RULESET.bind(h)
    deploys = 0
    for _, state in simulate.play(RULESET, h, seed):
        for player in state.players:
            fast = list(legality._legal_deploys(rs.lk, state, player))
            assert fast == list(_deploys_plain(rs.lk, state, player))
            deploys += bool(fast)
    assert deploys > 20


def _plays_plain(lk, state):
    """Every card play, Discard, end of turn and scoring pass that `check` accepts, in order
    (Global Domination's `_legal_plays`, plainly)."""
    from tabletape.games.global_domination import events as ev
    from tabletape.games.global_domination import legality as g
    from tabletape.games.global_domination import lookups as q
    from tabletape.games.global_domination.state import Phase
    cands: list[ev.GdEvent] = []
    for p in state.players:
        for c in dict.fromkeys(state.hands[p]):
            cands += [ev.CardPlayed(player=p, card=c, use=u) for u in ev.Use]
    if state.phase is Phase.PLAY and state.current:
        p = state.current
        cands += [ev.CardsDiscarded(player=p, cards=s, taken=k)
                  for s in g.discard_sets(state.hands[p]) for k in state.stacks]
        cands.append(ev.TurnEnded(player=p))
    if state.phase is Phase.SCORING and q.scorer(state):
        cands.append(ev.ScoringPassed(player=q.scorer(state) or ""))
    yield from (e for e in cands if g.check(lk, state, e) is None)


@pytest.mark.parametrize("n,seed", [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_global_domination_plays_are_the_candidates_check_accepts(n, seed):
    """Global Domination's card plays, Discards, Builds and Reductions: what candidates share
    is checked once; the plain definition runs the whole `check` on every candidate. Same
    events, same order."""
    from tabletape.engine import simulate
    from tabletape.games.global_domination import RULESET, legality
    from tabletape.games.global_domination import events as ev
    from tabletape.games.global_domination import lookups as q
    from tests.games.global_domination.helpers import header
    h = header(tuple(f"p{k}" for k in range(n)), two_players=n == 2)
    rs = RULESET.bind(h)
    plays = points = 0
    for _, state in simulate.play(RULESET, h, seed):
        if rs.over(state):  # `legal` yields nothing then, and `check` is not asked
            continue
        fast = list(legality._legal_plays(rs.lk, state))
        assert fast == list(_plays_plain(rs.lk, state))
        plays += any(isinstance(e, ev.CardsDiscarded) for e in fast)
        h = q.head(state)
        if h is not None:
            steps = list(legality._legal_step(rs.lk, state, h))
            assert steps == list(legality._step_plain(rs.lk, state, h))
            points += any(isinstance(e, ev.ForceBuilt | ev.ForceReduced)
                          for e in steps)
    assert plays > 10 and points > 0


def test_battlecards_reach_is_targetable_for_every_pair_of_units():
    """`Lookups.reach` tabulates `targetable` once per game: every unit against every enemy
    unit, in the default cards and in cards whose attacks and defences are changed."""
    from tabletape.games.battlecards_pacific.components import Lookups, default, targetable
    from tests.games.battlecards_pacific.helpers import with_changes
    for comp in (default(), with_changes(sides__0__arsenal__0__attack={"sea": 1, "air": 9}),
                 with_changes(sides__1__arsenal__2__defence={"ground": 9, "air": 0})):
        lk, pairs = Lookups.of(comp), 0
        for s in comp.sides:
            for e in comp.sides:
                if e.id == s.id:
                    continue
                for u in s.arsenal:
                    assert lk.reach[s.id][u.name][e.id] == {
                        t.name for t in e.arsenal if targetable(u, t)}
                    pairs += len(e.arsenal)
        assert pairs > 20


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_battlecards_targets_are_the_units_targetable_says(seed):
    from tabletape.games.battlecards_pacific import fire
    from tabletape.games.battlecards_pacific import lookups as q
    from tabletape.games.battlecards_pacific.components import targetable
    asked = 0
    for lk, state, b, player, name in _engaged(seed):
        enemy, me = q.opponent(b, player), q.unit(lk, state, player, name)
        assert fire.targets(lk, state, b, player, name) == tuple(
            n for n in dict.fromkeys(b.forces[enemy])
            if targetable(me, q.unit(lk, state, enemy, n)))
        asked += 1
    assert asked


def test_the_viewer_reusing_drawings_writes_the_page_it_would_draw(tmp_path, monkeypatch):
    """`view -o` reuses the drawing of a state the fold comes back to (an undo) and looks a
    part up among the last drawing's before hashing it: the same page as drawing every seq
    into a Book (`html(build())`, the plain definition). A session of 600 events has undos
    and notes enough (~1,500 drawings reused); the long log took 6 s here."""
    from tabletape.app import pictures, viewer

    path = session_log(tmp_path / "session.jsonl", 5, 600)
    drawn: list[int] = []
    real = pictures.draw

    def counted(*a, **k):
        drawn.append(1)
        return real(*a, **k)
    monkeypatch.setattr(pictures, "draw", counted)
    fast = tmp_path / "fast.html"
    viewer.write(path, str(fast))
    reused = 6 * 601 - len(drawn)  # 3 views, each on a screen and on a phone
    monkeypatch.setattr(viewer, "STATES_KEPT", 0)
    assert fast.read_text() == viewer.html(viewer.build(path))
    assert reused > 6 * 60  # the shortcut was taken (undos, notes) and it changed nothing


def test_the_viewers_table_of_parts_numbers_as_a_dict_would():
    """`view -o` keeps the digests of the parts it has written in a packed table: it numbers
    them as a dict would (in order first met), across its growth and its probing."""
    import random

    from tabletape.app.viewer import _Seen

    rng = random.Random(5)
    prefixes = [rng.randbytes(8) for _ in range(50)]  # many keys share their first 8 bytes
    keys = [rng.choice(prefixes) + rng.randbytes(8) for _ in range(3000)]
    keys += [rng.randbytes(16) for _ in range(12_000)]
    seen, plain = _Seen(), dict[bytes, int]()
    for key in rng.choices(keys, k=60_000):
        expected = (plain.setdefault(key, len(plain)), len(plain) > seen.count)
        assert seen.number(key) == expected
    assert seen.count == len(plain) > 4096  # it grew


# -- `replay FILE [--to SEQ] [--as PLAYER]` without click (cli/entry.py) ------------------

_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "src")
# Both sides run as `tabletape` (click names the program in its usage errors); the quick
# side also lists the modules it imported, after its own output.
_CLICK = "import sys; sys.argv[0] = 'tabletape'; from tabletape.cli.group import main; main()"
_ENTRY = ("import atexit, sys; sys.argv[0] = 'tabletape'\n"
          "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sys.modules)))\n"
          "from tabletape.cli.entry import run; run()")


def _tabletape(code: str, args: list[str]) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": _SRC}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, env=env,
                          timeout=120)


@pytest.fixture(scope="module")
def logs(tmp_path_factory, long_log) -> dict[str, str]:
    """Logs of every kind `replay` reports on: valid, torn, broken, illegal, a directory."""
    from tabletape.games.cards_of_war.events import CardDrawn
    from tabletape.tape import log
    from tests.conftest import COW, DRAW_ALICE, new_log, opening

    d = tmp_path_factory.mktemp("quick")
    out = {"kill": "replays/cards-of-war/kill-dispute.jsonl", "long": long_log,
           "liberation": "replays/liberation/sim-2-players.jsonl", "missing": str(d / "none.jsonl"),
           "dir": str(d)}
    ls = lines(out["kill"])
    write(d / "torn.jsonl", b"".join(ls)[:-1])  # the last line's newline never written
    broken = list(ls)
    broken[30] = broken[30].replace(b'"seq":30', b'"seq":30 ', 1)  # not canonical at seq 30
    write(d / "broken.jsonl", b"".join(broken))
    illegal = d / "illegal.jsonl"
    tail = opening(illegal, new_log(illegal))  # alice starts: bob may not draw
    log.append(str(illegal), [CardDrawn(player="bob", card="Tank"), DRAW_ALICE], COW.codec,
               expect=tail)
    out.update(torn=str(d / "torn.jsonl"), broken=str(d / "broken.jsonl"), illegal=str(illegal))
    return out


QUICK = [  # taken without click
    ["kill"], ["kill", "--to", "21"], ["kill", "--to", "21", "--as", "bob"],
    ["kill", "--as", "alice", "--to", "40"], ["--to", "5", "kill"], ["kill", "--to", "+7"],
    ["long", "--to", "1500"], ["long", "--as", "bob"], ["liberation", "--to", "30"],
    ["kill", "--to", "9999"], ["kill", "--as", "zed"], ["kill", "--as", "Alice"],
    ["missing"], ["missing", "--to", "3"], ["torn"], ["torn", "--to", "5"], ["broken"],
    ["broken", "--to", "10"], ["broken", "--to", "30"], ["illegal"], ["illegal", "--to", "3"],
    ["illegal", "--to", "2"],
]
CLICK = [  # handed to click as typed
    ["kill", "--to", "-1"], ["kill", "--to", "x"], ["kill", "--to=5"], ["kill", "--json"],
    ["kill", "--to", "5", "--json"], ["kill", "-h"], ["kill", "--help"], ["kill", "--nope"],
    ["kill", "--to", "3", "--to", "4"], ["kill", "kill"], ["kill", "--to"], ["kill", "--as"],
    ["dir"], ["dir", "--to", "3"], [], ["--", "kill"], ["kill", "--as", "-x"],
]


@pytest.mark.parametrize(("args", "quick"), [(a, True) for a in QUICK] +
                         [(a, False) for a in CLICK], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_replay_without_click_prints_what_the_click_command_prints(logs, args, quick):
    """The same stdout, stderr and exit code, byte for byte, whichever path draws it."""
    argv = ["replay", *(logs.get(a, a) for a in args)]
    plain, fast = _tabletape(_CLICK, argv), _tabletape(_ENTRY, argv)
    stderr, _, modules = fast.stderr.rpartition(b"\nMODULES ")
    assert (fast.returncode, fast.stdout, stderr) == (plain.returncode, plain.stdout, plain.stderr)
    assert (b"click" in modules.split()) is not quick
    if quick:
        assert plain.stdout or plain.stderr.startswith(b"error: ")


def test_replay_to_imports_only_what_drawing_needs(logs):
    """`python -m tabletape replay FILE --to SEQ` (the console script's path too) draws the
    table with the engine, the game and rich; not click, the other commands, rich's emoji, or
    the log's writer and repair (the engine reads through tape.reader, not the tape.log facade)."""
    env = {**os.environ, "PYTHONPATH": _SRC}
    argv = [sys.executable, "-X", "importtime", "-m", "tabletape", "replay", logs["long"],
            "--to", "1500"]
    # (the first index written in a fresh cache folder makes its key, with `secrets`: once)
    subprocess.run(argv, capture_output=True, env=env, timeout=120, check=True)
    p = subprocess.run(argv, capture_output=True, env=env, timeout=120)
    assert p.returncode == 0 and b"after seq 1500" in p.stdout
    imported = {line.rpartition("|")[2].strip() for line in p.stderr.decode().splitlines()
                if line.startswith("import time:")}
    assert {"tabletape.cli.entry", "tabletape.cli.replaying", "tabletape.engine.index",
            "rich.table"} <= imported
    assert not imported & {"click", "prompt_toolkit", "tabletape.cli.group", "tabletape.cli.read",
                           "tabletape.cli.params", "rich._emoji_codes", "secrets", "difflib",
                           "tabletape.tape.writer", "tabletape.tape.repair", "tabletape.tape.log"}


def test_the_console_script_is_the_entry_that_knows_the_quick_path():
    """`tabletape` and `python -m tabletape` both start in cli/entry.py; `tabletape.cli.group:main`
    is the click group, and `tabletape.cli` re-exports nothing (no lazy facade)."""
    import tomllib

    import click

    from tabletape.cli.group import main
    with open(os.path.join(os.path.dirname(_SRC), "pyproject.toml"), "rb") as f:
        scripts = tomllib.load(f)["project"]["scripts"]
    assert scripts == {"tabletape": "tabletape.cli.entry:run"}
    with open(os.path.join(_SRC, "tabletape", "__main__.py")) as f:
        assert "from tabletape.cli.entry import run" in f.read()
    assert isinstance(main, click.Group) and "replay" in main.list_commands(click.Context(main))
    import tabletape.cli
    assert not hasattr(tabletape.cli, "__getattr__") and not hasattr(tabletape.cli, "main")


def _plain_feed(self, seq, event, line=None):
    """Fold.feed as first written: `judge`, then `push` and `apply` (the fused game-event
    path in Fold.feed stands for this)."""
    from tabletape.engine import fold as folding
    from tabletape.tape.errors import IllegalEvent
    at = self.at
    at.seq = seq
    if at.blocked and not self.keep_going:
        at.push(seq, event, folding.UNJUDGED)
        self.verdicts.unjudged.add(seq)
        return None
    v = self.judge(event)
    if v is not None:
        err = IllegalEvent(v.reason, rule=v.rule, event=self.ruleset.describe(event),
                           file=self.file, line=line, seq=seq)
        self.verdicts.refuse(seq, err, at.state, event)
        if not self.keep_going:
            at.push(seq, event, folding.ILLEGAL)
            at.blocked += 1
        return err
    at.push(seq, event, folding.APPLIED)
    at.state = self.ruleset.apply(at.state, event)
    return None


def _fold_facts(fold, errs):
    return (msgspec.to_builtins(fold.state), [(e.seq, e.status, msgspec.to_builtins(e.event))
                                              for e in fold.stack],
            fold.evicted, fold.blocked, {s: (e.rule, e.reason, e.event) for s, e in fold.illegal.items()},
            sorted(fold.refused), sorted(fold.unjudged), dict(fold.retracted),
            [None if e is None else (e.rule, e.reason) for e in errs])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.usefixtures("template_registered")
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 3), keep_going=st.booleans(), data=st.data())
def test_the_fused_game_event_path_is_judge_push_apply(game, seed, keep_going, data):
    """Fold.feed judges, pushes and applies a game event in one frame; fed the same events
    (a simulated game with some of its events repeated out of place, mostly illegal, and
    undos of the latest), the plain `judge` / `push` / `apply` fold ends the same."""
    from tabletape.engine import fold as folding
    from tabletape.tape.events import Undone
    header, events, _ = simulated(game, seed)
    events = list(events[:60])
    stream: list = []
    for ev in events:
        stream.append(ev)
        if data.draw(st.integers(0, 9)) == 0:  # an event out of place: mostly illegal
            stream.append(events[data.draw(st.integers(0, len(events) - 1))])
        if data.draw(st.integers(0, 9)) == 0:
            stream.append("undo")

    def run(feed):
        fold = folding.Fold(engine.get(game), header, keep_going=keep_going)
        errs = []
        for seq, ev in enumerate(stream, start=1):
            if ev == "undo":
                ev = Undone(target=fold.latest()) if fold.latest() > 0 else events[0]
            errs.append(feed(fold, seq, ev))
        return _fold_facts(fold, errs)

    fused = run(folding.Fold.feed)
    plain = run(lambda fold, seq, ev: _plain_or_core(fold, seq, ev))
    assert fused == plain


def _plain_or_core(fold, seq, event):
    from tabletape.engine import fold as folding
    if isinstance(event, folding._CORE):
        return folding.Fold.feed(fold, seq, event)
    return _plain_feed(fold, seq, event)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 50))
def test_battlecards_resolve_asks_reshuffle_only_when_a_deck_is_empty(seed):
    """`resolve` skips `decks.reshuffled` while every deck holds cards: it would reshuffle
    nothing."""
    from tabletape.games.battlecards_pacific import decks
    from tests.games.battlecards_pacific.helpers import LK
    _, _, states = simulated("battlecards-pacific", seed)
    for state in states:
        if all(state.arsenal.values()) and all(state.conflict.values()):
            assert decks.reshuffled(LK, state) is None


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 20), data=st.data())
def test_global_domination_can_build_is_build_areas(n, seed, data):
    """`can_build` (the supply counted once, the first Area found) is `bool(build_areas)`,
    on the states of a simulated game and on random boards, supply run out included."""
    from msgspec.structs import replace

    from tabletape.engine import simulate
    from tabletape.games.global_domination import RULESET
    from tabletape.games.global_domination import lookups as q
    from tabletape.games.global_domination.components import Restriction
    from tabletape.games.global_domination.state import Force
    from tests.games.global_domination.helpers import header
    h = header(tuple(f"p{k}" for k in range(n)), two_players=n == 2)
    rs = RULESET.bind(h)
    lk = rs.lk
    states = [s for _, s in simulate.play(RULESET, h, seed)]
    state = states[data.draw(st.integers(0, len(states) - 1))]
    if data.draw(st.booleans()):  # a random board: often every token of someone is out
        owners = st.sampled_from(state.players)
        mine = data.draw(st.integers(lk.tracks.force_tokens - 2, len(lk.areas)))
        areas = data.draw(st.permutations(list(lk.areas)))
        full = data.draw(st.booleans())  # every Force Full: only empty Areas could take one
        board = {a: Force(state.players[0] if i < mine else data.draw(owners),
                          full or data.draw(st.booleans()))
                 for i, a in enumerate(areas) if i < mine or data.draw(st.booleans())}
        state = replace(state, board=board)
    for p in state.players:
        for r in Restriction:
            assert q.can_build(lk, state, p, r) == bool(q.build_areas(lk, state, p, r))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_battlecards_ready_is_can_fire_for_each(seed):
    """`fire.ready` (the battle's flow: which units of a volley have a target) is `can_fire`
    asked of each unit, in order."""
    from tabletape.games.battlecards_pacific import fire
    asked = 0
    for lk, state, b, player, _ in _engaged(seed):
        volley = b.to_fire if player == b.side else ()
        for names in (b.forces[player], volley, tuple(reversed(b.forces[player]))):
            assert fire.ready(lk, state, b, player, names) == tuple(
                n for n in names if fire.can_fire(lk, state, b, player, n))
            asked += 1
    assert asked


@settings(max_examples=8, deadline=None)
@given(seeds=st.lists(st.integers(0, 30), min_size=1, max_size=3), data=st.data())
def test_battlecards_no_battles_test_remembered_is_the_plain_test(seeds, data):
    """`battle_live` (the last answer kept while `won`, the seats and the box are the same
    objects) answers as `some_battle_live` does, whatever order states of several games
    are asked in."""
    from msgspec.structs import replace

    from tabletape.games.battlecards_pacific import victory
    asked = []
    for seed in seeds:
        header, _, states = simulated("battlecards-pacific", seed)
        lk = engine.get("battlecards-pacific").bind(header).lk
        asked += [(lk, s) for s in states]
    order = data.draw(st.permutations(range(len(asked))))
    for i in order[:200]:
        lk, state = asked[i]
        roll = data.draw(st.integers(0, 5))
        if roll == 0:  # the same won cards in a new dict: asked again
            state = replace(state, won=dict(state.won))
        elif roll == 1:  # every BATTLECARD won: none is left to fight
            state = replace(state, won={p: tuple(lk.battles) if p == state.players[0] else ()
                                        for p in state.players})
        assert victory.battle_live(lk, state) == victory.some_battle_live(lk, state)


@settings(max_examples=8, deadline=None)
@given(seeds=st.lists(st.integers(0, 30), min_size=1, max_size=3), data=st.data())
def test_battlecards_stalemate_test_remembered_is_can_hit(seeds, data):
    """`_either_can_hit` (the last answer kept while the battle's units, the Kept Cards, the
    sides and the box are the same objects) answers as `can_hit` of either side does, states
    of several games asked in any order, some with their units or Kept Cards changed."""
    from msgspec.structs import replace

    from tabletape.games.battlecards_pacific import fire, reducer
    asked = []
    for seed in seeds:
        header, _, states = simulated("battlecards-pacific", seed)
        lk = engine.get("battlecards-pacific").bind(header).lk
        asked += [(lk, s) for s in states if s.battle is not None]
    order = data.draw(st.permutations(range(len(asked))))
    for i in order[:200]:
        lk, state = asked[i]
        b = state.battle
        roll = data.draw(st.integers(0, 5))
        if roll == 0:  # the same units in a new dict
            b = replace(b, forces=dict(b.forces))
        elif roll == 1:  # one side's units thinned to its first
            p = data.draw(st.sampled_from((b.aggressor, b.defender)))
            b = replace(b, forces={**b.forces, p: b.forces[p][:1]})
        elif roll == 2:  # the Kept Cards played
            state = replace(state, kept={p: () for p in state.kept})
        elif roll == 3:  # nobody left in it: nobody can hit
            b = replace(b, forces={b.aggressor: (), b.defender: ()})
        state = replace(state, battle=b)
        assert reducer._either_can_hit(lk, state, b) == (
            fire.can_hit(lk, state, b, b.aggressor) or fire.can_hit(lk, state, b, b.defender))



@settings(max_examples=8, deadline=None)
@given(seeds=st.lists(st.integers(0, 30), min_size=1, max_size=3), data=st.data())
def test_battlecards_full_arsenals_remembered_are_the_plain_test(seeds, data):
    """`_all_full` (the Arsenals last found full kept by identity) answers as `all` over the
    Arsenals does, states of several games asked in any order, some with a deck emptied
    in a new dict or the same decks in one."""
    from msgspec.structs import replace

    from tabletape.games.battlecards_pacific import reducer
    states = [s for seed in seeds for s in simulated("battlecards-pacific", seed)[2]]
    order = data.draw(st.permutations(range(len(states))))
    for i in order[:200]:
        state = states[i]
        roll = data.draw(st.integers(0, 3))
        if roll == 0:  # the same decks in a new dict
            state = replace(state, arsenal=dict(state.arsenal))
        elif roll == 1:  # one side's Arsenal run out
            side = data.draw(st.sampled_from(sorted(state.arsenal)))
            state = replace(state, arsenal={**state.arsenal, side: {}})
        full = reducer._all_full(state.arsenal)
        assert full == all(state.arsenal.values())
        assert (state.arsenal is reducer._full_arsenal) or not full


def test_battlecards_stalemate_test_remembered_asks_again_when_the_kept_cards_change(
        monkeypatch):
    """The Kept Cards are part of what the remembered stalemate test is kept with: with a
    `can_hit` that reads only them, a new `kept` is asked again, the same one is not."""
    from msgspec.structs import replace

    from tabletape.games.battlecards_pacific import reducer
    header, _, states = simulated("battlecards-pacific", 1)
    lk = engine.get("battlecards-pacific").bind(header).lk
    state = next(s for s in states if s.battle is not None)
    b = state.battle
    calls = []

    def hits_if_kept(lk, state, battle, player):
        calls.append(player)
        return bool(state.kept[player])
    monkeypatch.setattr(reducer, "can_hit", hits_if_kept)
    holding = replace(state, kept={**state.kept, b.aggressor: ("a card",)})
    bare = replace(state, kept={p: () for p in state.kept})
    assert reducer._either_can_hit(lk, holding, b) is True
    assert reducer._either_can_hit(lk, bare, b) is False
    n = len(calls)
    assert reducer._either_can_hit(lk, bare, b) is False and len(calls) == n  # remembered


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.usefixtures("template_registered")
@pytest.mark.parametrize("seed", [4, 5])
def test_count_is_the_number_of_legal_events(game, seed):
    """`count` (corpus check asks it after every event) is the length of `legal`, whether a
    game counts its own way (`legality.count`) or not."""
    header, _, states = simulated(game, seed)
    rs = engine.get(game).bind(header)
    for state in (rs.initial(), *states):
        if not rs.over(state):
            assert rs.count(state) == len(list(rs.legal(state)))
