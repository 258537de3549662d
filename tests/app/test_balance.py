"""The balance lab: figures checked against the games' own logs, reproducibility across
processes and Dask, the cache, the stopping rule, agents that cannot peek, bad arguments."""

from __future__ import annotations

import json
import random
import re

import msgspec
import pytest

from tabletape import engine
from tabletape.app import balance as lab
from tabletape.app import balance_report as rep
from tabletape.app import balance_stats as st
from tabletape.engine import CHANCE, agents, playout, simulate
from tabletape.engine.simulate import header_for
from tests.narrow import present

LIB = lab.Config(game="liberation", rules=engine.get("liberation").version, players=2)


@pytest.fixture
def toy(monkeypatch):
    """Take-away (tests/toy_game.py) in the registry: its `pile` option decides who wins."""
    monkeypatch.setitem(engine.GAMES, "take-away", "tests.toy_game")
    lab._bound.cache_clear()
    yield lab.Config(game="take-away", rules=engine.get("take-away").version, players=2)
    lab._bound.cache_clear()


def _encoded(report: rep.Report) -> bytes:
    return msgspec.json.encode(report)


# -- the figures, against the logs -----------------------------------------------------------

def test_the_figures_agree_with_a_count_over_the_games_logs(tmp_path):
    report = rep.measure(LIB, None, seed=5, games=12)
    rs = engine.get("liberation")
    wins = [0.0, 0.0]
    for g in report.a.games:
        path = str(tmp_path / f"g{g.index}.jsonl")
        lab.write_game(LIB, 5, g.index, path)
        r = engine.replay(path)
        assert r.fold is not None
        assert r.error is None and not r.fold.illegal
        bound = rs.bind(r.header)
        outcome = bound.outcome(r.fold.state)
        names = list(r.header.players)
        # the log's own count: events after the header, its winners, its turns
        assert g.events == r.events - 1
        assert g.winners == (list(outcome.winners) if outcome else [])
        assert g.completed == (outcome is not None)
        state, turns, last = bound.initial(), 0, None
        for line in open(path, "rb").read().splitlines()[1:]:
            event = msgspec.json.decode(line, type=rs.union())
            actor = present(bound.pending(state)).actor
            if actor != CHANCE and actor != last and len(list(bound.legal(state))) >= 1:
                turns, last = turns + (actor != last), actor
            state = bound.apply(state, event)
        assert g.turns == turns
        for w in g.winners:
            wins[names.index(w)] += 1 / len(g.winners)
    for seat in range(2):
        assert report.a.summary.seats[seat].value == round(wins[seat] / 12, 6)
    assert report.a.summary.events.mean == round(sum(g.events for g in report.a.games) / 12, 4)


def test_a_written_game_replays_in_view(tmp_path, run):
    path = tmp_path / "g3.jsonl"
    r = run("balance", "liberation", "--seed", "9", "--write-game", f"3:{path}")
    assert r.exit_code == 0, r.output
    assert run("validate", path).exit_code == 0
    assert run("view", path, "-o", tmp_path / "g3.html").exit_code == 0
    played = lab.play_one(LIB, 9, 3)
    assert played.events == engine.replay(str(path)).events - 1


# -- reproducible: processes, Dask, the cache --------------------------------------------------

def test_the_same_seeds_give_the_same_report_in_1_and_2_processes_and_on_dask():
    b = msgspec.structs.replace(LIB, options=(("turn_over", "optional"),))
    one = rep.measure(LIB, b, seed=2, games=60, jobs=1)
    two = rep.measure(LIB, b, seed=2, games=60, jobs=2)
    assert _encoded(one) == _encoded(two)
    pytest.importorskip("dask.distributed")
    from dask.distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        dask = rep.measure(LIB, b, seed=2, games=60, scheduler=cluster.scheduler_address)
    assert _encoded(one) == _encoded(dask)


def test_a_longer_run_extends_a_shorter_one_from_the_cache(tmp_path, monkeypatch):
    cache = str(tmp_path / "cache")
    short = rep.measure(LIB, None, seed=4, games=100, cache_dir=cache)
    played: list[int] = []
    real = lab.play_chunk

    def counted(c, s, start, n):
        played.append(start)
        return real(c, s, start, n)
    monkeypatch.setattr(lab, "play_chunk", counted)
    longer = rep.measure(LIB, None, seed=4, games=130, cache_dir=cache)
    assert played == [100]  # games 0-99 came from the cache
    assert longer.a.games[:100] == short.a.games
    assert _encoded(longer) == _encoded(rep.measure(LIB, None, seed=4, games=130))


# -- the stopping rule ---------------------------------------------------------------------------

def test_the_sprt_finds_an_edge_handed_to_seat_1_and_none_between_equals(toy):
    # A pile of 1 counter: seat 1 takes it and wins every game; of 15, random play is even-ish.
    edge = msgspec.structs.replace(toy, options=(("pile", 1),))
    ask = rep.SprtAsk(delta=0.1, alpha=0.05, beta=0.05)
    moved = rep.measure(toy, edge, seed=1, games=2000, sprt=ask)
    assert moved.sprt is not None
    assert moved.sprt.verdict == "moved" and moved.games < 2000
    assert moved.sprt.llr >= moved.sprt.upper
    same = rep.measure(toy, toy, seed=1, games=2000, sprt=ask)
    assert same.sprt is not None
    assert same.sprt.verdict == "not moved" and same.games < 2000
    assert same.sprt.llr <= same.sprt.lower
    assert "moves seat 1's win rate by at least 10.0%" in rep.verdict(moved)


def test_the_sprt_statistic_by_hand():
    s = st.sprt([1.0, 0.0, 1.0, 0.0], delta=0.2, alpha=0.05, beta=0.05)
    # var = 0.25; LLR(+d) = (0.2*2 - 4*0.04/2)/0.25 = 1.28; LLR(-d) = (-0.4 - 0.08)/0.25
    import math
    assert s.llr == round(math.log(0.5 * math.exp(1.28) + 0.5 * math.exp(-1.92)), 4)
    assert (s.lower, s.upper) == (round(math.log(0.05 / 0.95), 4), round(math.log(19), 4))


def test_wilson_interval():
    r = st.wilson(5, 10)
    assert (r.value, round(r.low, 3), round(r.high, 3)) == (0.5, 0.237, 0.763)


def test_a_difference_of_two_rates_is_newcombes_hybrid_score_interval():
    """Newcombe (1998), method 10, his examples: 56/70 - 48/80 and 9/10 - 3/10."""
    for (a, n, b, m), want in (((56, 70, 48, 80), (0.2, 0.0524, 0.3339)),
                               ((9, 10, 3, 10), (0.6, 0.1705, 0.8090))):
        d, low, high = st.newcombe(st.wilson(a, n), st.wilson(b, m))
        assert (round(d, 4), round(low, 4), round(high, 4)) == want


def test_a_difference_of_paired_rates_is_newcombes_interval_for_paired_data():
    """The worked paired table of Fagerland, Lydersen and Laake (Statistical Analysis of
    Contingency Tables, ch. 8; Cavo et al. 2012): 59 pairs (1, 1), 6 (1, 0), 16 (0, 1) and
    80 (0, 0); the rows' rate less the columns' is -0.0621 [-0.1186, -0.0046]."""
    rows = [1.0] * 65 + [0.0] * 96
    cols = [1.0] * 59 + [0.0] * 6 + [1.0] * 16 + [0.0] * 80
    d = st.paired_rates(cols, rows)  # B less A: the rows (B) less the columns (A)
    assert (round(d.diff, 4), round(d.low, 4), round(d.high, 4)) == (-0.0621, -0.1186, -0.0046)
    assert d.moved


@pytest.mark.parametrize("xs,ys", [([1.0], [0.0]), ([0.0], [1.0]), ([1.0] * 3, [1.0] * 3),
                                   ([1.0, 1.0, 0.0], [1.0, 1.0, 0.0]), ([0.5, 0.0], [0.5, 1.0])])
def test_a_rates_difference_at_a_few_games_keeps_a_width_within_100_points(xs, ys):
    """One game, or pairs all alike: no interval of width 0, none beyond +-1 (a normal
    interval gives both)."""
    d = st.paired_rates(xs, ys)
    assert -1.0 <= d.low < d.diff < d.high <= 1.0 or (
        -1.0 <= d.low < d.high <= 1.0 and d.diff in (-1.0, 1.0))
    f = st.newcombe(st.wilson(sum(ys), len(ys)), st.wilson(sum(xs), len(xs)))
    assert -1.0 <= f[1] < f[2] <= 1.0


def test_a_report_of_one_game_prints_no_impossible_interval(run):
    """A rate's difference within +-100 points with a width; a mean's, from one pair, says it
    has no interval (not [-inf, +inf])."""
    r = run("balance", "cards-of-war", "-n", "1", "--no-cache", "--against", "1.1")
    assert r.exit_code == 0, r.output
    rates = [line for line in r.output.splitlines()
             if line.startswith(("| seat", "| completed", "| draws", "| card:", "| rule:"))]
    assert rates
    for line in rates:
        last = line.split(" | ")[-1]  # the difference and its interval, in points
        assert "inf" not in last, line
        points = [float(x) for x in re.findall(r"[+-]\d+\.\d", last)]
        assert len(points) == 3 and points[1] < points[2], line
        assert all(-100.0 <= p <= 100.0 for p in points), line
    means = [line for line in r.output.splitlines()
             if line.startswith(("| events", "| turns", "| rounds"))]
    assert len(means) == 3
    assert all(line.endswith("(one pair: no interval) |") for line in means), means


# -- agents see only their own seat ----------------------------------------------------------

def _twin_games():
    """Returns two Cards of War games at alice's decision that differ only in a card bob drew
    (hidden from alice), and alice's legal events."""
    rs = engine.get("cards-of-war")
    bound = rs.bind(header_for(rs, ("alice", "bob")))
    for seed in range(20):
        rng = random.Random(seed)
        game = playout.Game(bound)
        while (d := bound.pending(game.state)) is not None:
            options = list(bound.legal(game.state))
            if d.actor == "alice" and len(options) > 1 and len(game.events) > 20:
                twin = _twin(bound, game)
                if twin is not None:
                    return bound, game, twin, options
            e = rng.choices(options, bound.weights(game.state, options))[0] \
                if d.actor == CHANCE else rng.choice(options)
            game.state = bound.apply(game.state, e)
            game.events.append(e)
    raise AssertionError("no twin found")


def _twin(rs, game):
    """Returns the game with bob's latest hidden draw changed, every later event still legal."""
    k = agents.knowledge(rs, game, "alice")
    masked = [i for i, s in enumerate(k.seen) if isinstance(s, agents.Masked)]
    if not masked:
        return None
    i = masked[-1]
    state = rs.initial()
    for e in game.events[:i]:
        state = rs.apply(state, e)
    for other in rs.legal(state):
        if type(other) is not type(game.events[i]) or other == game.events[i]:
            continue
        s, ok = rs.apply(state, other), True
        for e in game.events[i + 1:]:
            if rs.check(s, e) is not None:
                ok = False
                break
            s = rs.apply(s, e)
        if ok and s != game.state and rs.view(s, "alice") == rs.view(game.state, "alice"):
            twin = playout.Game(rs)
            twin.events, twin.state = [*game.events[:i], other, *game.events[i + 1:]], s
            return twin
    return None


def test_an_agent_chooses_the_same_move_whatever_the_hidden_cards():
    rs, game, twin, options = _twin_games()
    assert game.state != twin.state  # bob holds another card
    ka, kb = agents.knowledge(rs, game, "alice"), agents.knowledge(rs, twin, "alice")
    assert ka.public() == kb.public()  # what alice may know is the same
    for spec in ("random", "mc:6"):
        a = agents.agent(spec).choose(rs, "alice", game, options, random.Random(11))
        b = agents.agent(spec).choose(rs, "alice", twin, options, random.Random(11))
        assert a == b, spec


def test_the_mc_agent_beats_random_at_take_away(toy):
    a = msgspec.structs.replace(toy, agents=("mc:16", "random"), rotate=True)
    report = rep.measure(a, None, seed=3, games=40)
    mc = report.a.summary.agents["mc:16"]
    assert mc.low > 0.5, mc  # its 95% interval lies above an even share


# -- bad arguments --------------------------------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    (("--rules", "9.9"), "cards-of-war has no rules version '9.9'"),
    (("--against", "0.1"), "no rules version '0.1'"),
    (("--option", "nosuch=1"), "cards-of-war has no such option"),
    (("--agents", "genius"), "unknown agent 'genius'"),
    (("--agents", "mc:0"), "at least 1: got 0"),
    (("--agents", "mc:x"), "whole number"),
    (("--sprt", "0.05"), "--sprt compares two configurations"),
    (("--games", "0"), "--games must be at least 1"),
    (("--write-game", "x"), "INDEX:FILE"),
])
def test_a_bad_argument_is_a_clear_error(run, args, words):
    r = run("balance", "cards-of-war", "-n", "1", "--no-cache", *args)
    assert r.exit_code == 2, r.output
    assert words in r.output
    assert "Traceback" not in r.output


def test_json_lists_every_game(run, tmp_path):
    r = run("balance", "liberation", "-n", "5", "--seed", "1", "--no-cache", "--json",
            "--markdown", tmp_path / "r.md")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert [g["index"] for g in data["a"]["games"]] == [0, 1, 2, 3, 4]
    assert {"seed", "agents", "winners", "events", "turns", "rounds"} <= set(data["a"]["games"][0])
    assert data["a"]["games"][0]["seed"] == playout.game_seed(1, 0)
    assert (tmp_path / "r.md").read_text().startswith("## Balance: liberation")


def test_random_agents_play_the_games_simulate_plays():
    for game in ("cards-of-war", "liberation"):
        rs = engine.get(game)
        header = header_for(rs, ("alice", "bob"))
        bound = rs.bind(header)
        seats = {p: agents.RandomAgent() for p in header.players}
        events: list = []
        playout.play(bound, seats, 7, visit=lambda e, s, out=events: out.append(e))  # type: ignore[misc]
        assert events == [e for e, _ in simulate.play(rs, header, 7)]


def test_a_game_that_keeps_no_running_score_has_no_scorer_and_no_lead():
    # the running score is a typed optional part (`Extras.score`): Liberation keeps none, so
    # its games have no "led for good from"; the games that keep one say when the winner led
    assert playout.scorer(engine.get("liberation")) is None
    rs = engine.get("liberation").bind(header_for(engine.get("liberation"), ("a", "b")))
    agents_ = {p: agents.RandomAgent() for p in rs.header.players}
    assert playout.play(rs, agents_, 1).lead_from is None
    for game, field in (("global-domination", "vp"), ("battlecards-pacific", "vp"),
                        ("cards-of-war", "rounds_won")):
        g = engine.get(game)
        bound = g.bind(header_for(g, ("a", "b", "c") if game == "global-domination"
                                  else ("a", "b")))
        state = bound.initial()
        score = playout.scorer(bound)
        assert score is not None and score(state) is getattr(state, field)
