"""Records never rot (issue 24): every released rules version stays judgeable.

The bundled replays as they were under rules 1.0 (commit a1c9666) live byte-exact in
tests/fixtures/rules-1.0/, with the verdicts that commit's code gave them in
verdicts.json. Each must be judged so today under its recorded version, and under the
latest version differ only where the changelog says a rule changed.
"""

from __future__ import annotations

import glob
import json
import os

import msgspec
import pytest

from tabletape import engine
from tabletape.engine.versions import changed_between, resolve
from tabletape.tape.errors import IllegalEvent, UsageError

FIXTURES = "tests/fixtures/rules-1.0"
EXPECTED = json.load(open(os.path.join(FIXTURES, "verdicts.json")))["logs"]
LOGS = sorted(os.path.relpath(p, FIXTURES) for p in glob.glob(f"{FIXTURES}/*/*.jsonl"))


def verdict(result: engine.Replay) -> dict:
    """Returns what verdicts.json pins for one log (validate --json's fields)."""
    fold, rs = result.fold, result.ruleset
    assert fold is not None and rs is not None
    o = rs.outcome(fold.state)
    return {
        "valid": result.ok, "events": result.events,
        "outcome": None if o is None else {"winners": list(o.winners), "scores": o.scores,
                                           "summary": o.summary},
        "problems": [e.to_dict() for e in result.problems],
        "corrected": [{"seq": s, "rule": e.rule, "undone_at": fold.retracted[s]}
                      for s, e in fold.corrected.items()],
        "disputes": [{k: v for k, v in msgspec.structs.asdict(r).items()
                      if k in ("dispute_seq", "about", "verdict", "rule", "reason")}
                     for r in fold.disputes],
    }


def rule_ids(v: dict) -> set[str]:
    return ({p["rule"] for p in v["problems"] if p.get("rule")}
            | {c["rule"] for c in v["corrected"]}
            | {d["rule"] for d in v["disputes"] if d["verdict"] == "illegal"})


def test_the_fixtures_are_the_bundled_replays_of_rules_1_0():
    assert len(LOGS) == 30 and set(LOGS) == set(EXPECTED)
    for log in LOGS:
        with open(os.path.join(FIXTURES, log), "rb") as f:
            assert json.loads(f.readline())["rules_version"] == "1.0"


@pytest.mark.parametrize("log", LOGS)
def test_a_log_is_judged_by_its_recorded_version_as_that_release_judged_it(log):
    result = engine.replay(os.path.join(FIXTURES, log))
    assert result.judged_by == "1.0" and result.rules_versions is None
    got, want = verdict(result), dict(EXPECTED[log])
    assert want.pop("exit") == (0 if got["valid"] else 1)
    # a legal ruling lists the rules that govern the event: the words, not the verdict;
    # so is an outcome's summary ("a draw after 1 round", "alice, bob and carol share ...")
    for d in (*got["disputes"], *want["disputes"]):
        if d["verdict"] == "legal":
            d.pop("rule")
    for v in (got, want):
        if v["outcome"] is not None:
            v["outcome"].pop("summary")
    assert got == want


@pytest.mark.parametrize("log", LOGS)
def test_under_the_latest_version_a_verdict_differs_only_by_rules_the_changelog_names(log):
    path = os.path.join(FIXTURES, log)
    old, new = engine.replay(path), engine.replay(path, version="latest")
    rs = new.ruleset
    assert rs is not None and new.judged_by == rs.version
    assert new.rules_versions == ("1.0", rs.version)
    changed = {rule for entries in changed_between(rs.changelog, "1.0", rs.version).values()
               for rule in entries}
    # a deck rebuilt at another time holds other cards: the draw a log recorded may be refused
    changed |= {r.replace(".deck.reshuffle", ".draw.in-deck") for r in changed
                if r.endswith(".deck.reshuffle")}
    before, after = verdict(old), verdict(new)
    if before["valid"] == after["valid"] and rule_ids(before) == rule_ids(after):
        return
    assert rule_ids(after) - rule_ids(before) <= changed, (
        f"{log}: judged differently under {rs.version} by rules no changelog entry names: "
        f"{sorted(rule_ids(after) - rule_ids(before) - changed)}")
    assert not after["valid"] and after["problems"][0]["rule"] in changed


def test_a_1_0_kill_is_a_legal_1_1_kill_the_target_read_from_the_table():
    # the six Cards of War logs refused at 1.1 with [cow.kill.target] before upcasting
    for log in ("abilities-normal", "joint-adjacent", "sim-long-exhaustion", "sim-normal",
                "tactical-two-decks"):
        result = engine.replay(f"{FIXTURES}/cards-of-war/{log}.jsonl", version="1.1")
        assert result.ok, (log, result.problems)


def test_theatres_of_war_as_1_0_played_them_is_refused_by_1_1_by_its_rule_id():
    path = f"{FIXTURES}/cards-of-war/alt-reinforce-theatres-joint.jsonl"
    assert engine.replay(path).ok
    [first, *_] = engine.replay(path, version="1.1").problems
    assert isinstance(first, IllegalEvent)  # (only a refused event names a rule)
    assert (first.seq, first.rule) == (21, "cow.opt.theatres.off-theatre")


def test_an_unknown_version_is_a_usage_error_naming_the_versions():
    path = f"{FIXTURES}/cards-of-war/sim-normal.jsonl"
    with pytest.raises(UsageError, match=r"no rules version '0\.9'; its versions: 1\.0, 1\.1, 1\.2"):
        engine.replay(path, version="0.9")


def test_a_log_naming_a_version_this_code_lacks_is_judged_by_the_latest():
    e = resolve("g", {"1.0": {}, "1.1": {"g.x": "y"}}, "2.0")
    assert (e.judging, e.recorded, e.differs) == ("1.1", "2.0", True)
    assert not e.upcasts("1.1")  # nothing is known of 2.0's vocabulary


def test_the_current_replays_are_judged_by_their_own_version():
    for path in sorted(glob.glob("replays/*/*.jsonl")):
        result = engine.replay(path)
        assert result.rules_versions is None and result.judged_by == result.header.rules_version


# Each switch, shown on a bundled 1.1 replay that plays the change: judged under 1.0, the
# first refusal is where 1.0's rule differs (the changelog's rule id, or what follows it).
@pytest.mark.parametrize("log,first", [
    ("cards-of-war/sim-normal", (40, "cow.kill.top-only")),  # 1.0 names no KILL target
    ("global-domination/simulated-3-players", (36, "gd.use.discard2")),  # alphabetical
    ("liberation/iraq-abilities", (26, "lib.ability.turn-over")),  # never turned back up
    ("liberation/four-players-won-at-nine", (22, "lib.turn.step")),  # a turn-over turns one
    ("battlecards-pacific/stalemate-after-casualty", (26, "bcp.emergency.turn")),  # no
    # stalemate after a shot under 1.0: the battle goes on, so the next draw is out of turn
])
def test_a_1_1_replay_under_rules_1_0_is_refused_where_1_0_differs(log, first):
    path = f"replays/{log}.jsonl"
    assert engine.replay(path).ok
    old = engine.replay(path, version="1.0")
    assert old.judged_by == "1.0" and old.rules_versions == ("1.1", "1.0")
    assert isinstance(old.problems[0], IllegalEvent)
    assert (old.problems[0].seq, old.problems[0].rule) == first


ROUND_END = "tests/fixtures/rules-1.1/cards-of-war/recon-ends-the-round.jsonl"


def test_a_1_1_log_whose_recon_card_ended_the_round_is_judged_as_1_1_judged_it():
    # bob's Spy ends round 1 at seq 65 (tests/games/cards_of_war/make_replays.py): 1.1 owed
    # no report, so the log goes straight on to the refills and is valid under 1.1
    result = engine.replay(ROUND_END)
    assert result.ok and result.judged_by == "1.1" and result.rules_versions is None
    # 1.2 (cow.ability.round-end) owes alice's report first: the refill is out of turn
    new = engine.replay(ROUND_END, version="latest")
    assert new.rules_versions == ("1.1", "1.2")
    first = new.problems[0]
    assert isinstance(first, IllegalEvent)  # (only a refused event names a rule)
    assert (first.seq, first.rule) == (66, "cow.turn.step")
    assert "alice reports their hand's theatres first" in first.reason
    assert new.ruleset is not None
    assert set(new.ruleset.changelog["1.2"]) == {"cow.ability.round-end",
                                                 "cow.reinforce.round-end"}


EVERYONE_ASKED = "tests/fixtures/rules-1.2/global-domination/everyone-asked.jsonl"
GD_SIM = "replays/global-domination/simulated-3-players.jsonl"  # recorded under 1.1


def test_a_global_domination_1_2_log_asks_every_player_in_the_scoring_step():
    # tests/games/global_domination/make_replays.py: alice, holding no scoring card, passes
    # at seq 38, then bob plays Fog of War and passes, then carol passes
    result = engine.replay(EVERYONE_ASKED)
    assert result.ok and result.judged_by == "1.2" and result.rules_versions is None
    # 1.1 skipped alice (gd.score.window as 1.1 had it): her pass is out of turn
    old = engine.replay(EVERYONE_ASKED, version="1.1")
    first = old.problems[0]
    assert isinstance(first, IllegalEvent)  # (only a refused event names a rule)
    assert (first.seq, first.rule) == (38, "gd.play.order")
    assert first.reason == "it is bob's say, not alice's"


def test_a_global_domination_1_1_log_that_skipped_a_say_is_refused_by_1_2_where_it_goes_on():
    # the bundled 1.1 replays are judged as 1.1 judged them; under 1.2 the first scoring
    # step's skipped say is owed: the next Game Turn's first draw breaks gd.score.window
    assert engine.replay(GD_SIM).ok
    new = engine.replay(GD_SIM, version="latest")
    assert new.rules_versions == ("1.1", "1.2")
    first = new.problems[0]
    assert isinstance(first, IllegalEvent)  # (only a refused event names a rule)
    assert (first.seq, first.rule) == (42, "gd.score.window")
    assert first.reason == ("no draw by alice now: alice may play a scoring card or pass first "
                            "(the scoring step asks every player in turn, whatever they hold)")
    assert new.ruleset is not None
    assert set(new.ruleset.changelog["1.2"]) == {"gd.score.window"}


def test_the_1_2_fixture_is_regenerated_byte_for_byte(tmp_path):
    from tests.games.global_domination.make_replays import everyone_asked
    made = open(everyone_asked(str(tmp_path)), "rb").read()
    assert made == open(EVERYONE_ASKED, "rb").read()


def test_global_domination_1_0_had_no_token_supply():
    from tabletape.games.global_domination import RULESET as GD
    from tabletape.games.global_domination.lookups import UNLIMITED, supply
    header = GD.start(("a", "b", "c"), GD.Options(), GD.default_components())
    old, new = GD.bind(header, "1.0"), GD.bind(header)
    state = new.initial()
    assert supply(old.lk, state, "a") == UNLIMITED
    assert supply(new.lk, state, "a") == new.lk.tracks.force_tokens


def test_a_switch_or_upcaster_naming_no_changelog_entry_fails_when_the_class_is_made():
    from tabletape.engine.kit.contract import ContractError
    from tabletape.games.cards_of_war import CardsOfWar
    with pytest.raises(ContractError, match="changelog does not list"):
        type("Bad", (CardsOfWar,), {"__module__": CardsOfWar.__module__,
                                    "changelog": CardsOfWar.changelog,
                                    "switches": {"kill_target": ("1.1", "cow.kill.nope")}})
    with pytest.raises(ContractError, match="option 'x' is new in '1.1' by 'cow.nope'"):
        type("Bad", (CardsOfWar,), {"__module__": CardsOfWar.__module__,
                                    "changelog": CardsOfWar.changelog,
                                    "options_since": {"x": ("1.1", "cow.nope")}})


# -- the commands: --rules VERSION|latest, and which rules judged ------------------------

SIM = f"{FIXTURES}/cards-of-war/sim-normal.jsonl"
THEATRES = f"{FIXTURES}/cards-of-war/alt-reinforce-theatres-joint.jsonl"


def test_validate_says_which_rules_judged_by_default_the_recorded(run):
    r = run("validate", SIM)
    assert r.exit_code == 0 and "cards-of-war rules 1.0, 143 events" in r.stdout
    assert "note:" not in r.stdout
    d = json.loads(run("validate", "--json", SIM).stdout)
    assert d["rules_version"] == {"recorded": "1.0", "judged_by": "1.0"}


def test_validate_rules_latest_names_both_versions_and_the_rules_changed(run):
    r = run("validate", "--rules", "latest", THEATRES)
    assert r.exit_code == 1
    assert "cards-of-war rules 1.2, 186 events" in r.stdout
    assert ("note: recorded under cards-of-war rules 1.0, judged by rules 1.2; rules changed "
            "between them: cow.ability.round-end, cow.battle.stalemate") in r.stdout
    assert "[cow.opt.theatres.off-theatre]" in r.stdout
    d = json.loads(run("validate", "--json", "--rules", "1.1", THEATRES).stdout)
    assert d["rules_version"] == {"recorded": "1.0", "judged_by": "1.1"}
    assert d["problems"][0]["rule"] == "cow.opt.theatres.off-theatre"


def test_an_unknown_rules_version_is_a_usage_error_listing_the_versions(run):
    for args in (("validate", SIM), ("replay", SIM), ("explain", SIM, "40"), ("log", SIM)):
        r = run(*args[:1], "--rules", "2.7", *args[1:])
        assert r.exit_code == 2, args
        assert "cards-of-war has no rules version '2.7'; its versions: 1.0, 1.1, 1.2" in r.stderr


def test_explain_replay_log_diff_take_rules(run, tmp_path):
    r = run("explain", "--json", "--rules", "latest", THEATRES, "21")
    d = json.loads(r.stdout)
    assert d["rules_version"] == {"recorded": "1.0", "judged_by": "1.2"}
    assert json.loads(run("explain", "--json", THEATRES, "21").stdout)["rules_version"] == {
        "recorded": "1.0", "judged_by": "1.0"}
    r = run("replay", "--json", "--rules", "1.1", THEATRES)
    assert r.exit_code == 1 and json.loads(r.stdout)["rules_version"]["judged_by"] == "1.1"
    assert run("replay", "--json", THEATRES).exit_code == 0
    r = run("log", "--rules", "1.1", THEATRES)
    assert "illegal [cow.opt.theatres.off-theatre]" in r.stdout and "judged by rules 1.1" in r.stderr
    assert run("diff", "--rules", "1.1", THEATRES, SIM).exit_code == 1
    r = run("svg", "--json", "--rules", "1.1", THEATRES, "-o", tmp_path / "t.svg")
    assert json.loads(r.stdout)["rules_version"] == {"recorded": "1.0", "judged_by": "1.1"}
    r = run("view", "--json", "--rules", "1.1", THEATRES, "-o", tmp_path / "t.html")
    d = json.loads(r.stdout)
    assert r.exit_code == 1 and d["rules_version"] == {"recorded": "1.0", "judged_by": "1.1"}
    assert d["verdict"].startswith("invalid at seq 21 [cow.opt.theatres.off-theatre]")


def test_corpus_check_takes_rules(run, tmp_path):
    r = run("corpus", "check", "--no-cache", "--json", f"{FIXTURES}/cards-of-war")
    assert r.exit_code == 0
    r = run("corpus", "check", "--no-cache", "--json", "--rules", "latest",
            f"{FIXTURES}/cards-of-war")
    assert r.exit_code == 1


def test_append_judges_by_the_recorded_version_and_its_vocabulary(run, tmp_path):
    # a 1.0 game in progress, up to the KILL at seq 40 (1.0 names no target)
    lines = open(SIM, "rb").read().splitlines(keepends=True)
    path = tmp_path / "old.jsonl"
    path.write_bytes(b"".join(lines[:40]))
    kill = json.loads(lines[40])
    assert kill["kill"] is True and "target" not in kill
    game = {k: v for k, v in kill.items() if k not in ("type", "seq", "prev", "at", "by")}
    r = run("append", path, json.dumps({"type": kill["type"], **game}))
    assert r.exit_code == 0, r.stderr
    assert open(path, "rb").read() == b"".join(lines[:41])


# -- a rules change cannot ship without a version (item 8) ----------------------------------

JUDGEMENTS = "tests/fixtures/judgements.json"
BUNDLED = (sorted(glob.glob("replays/*/*.jsonl")) + sorted(glob.glob(f"{FIXTURES}/*/*.jsonl"))
           + sorted(glob.glob("tests/fixtures/rules-1.1/*/*.jsonl"))
           + sorted(glob.glob("tests/fixtures/rules-1.2/*/*.jsonl")))


def judgements() -> dict[str, dict[str, dict]]:
    """Returns each bundled log's judgement (corpus check's entry: verdict, illegal events,
    outcome and the seq that decided it, final state and legal moves at every seq) under every
    version of its game."""
    from tabletape.app import corpus
    out: dict[str, dict[str, dict]] = {}
    for path in BUNDLED:
        game = engine.get(json.loads(open(path, "rb").readline())["game"])
        out[path] = {v: json.loads(msgspec.json.encode(
            msgspec.structs.replace(corpus.judge(path, rules=v), options={})))
            for v in game.versions}  # (the options: what its header says, not a judgement)
    return out


def test_every_bundled_log_is_judged_under_every_version_as_the_snapshot_says():
    now = judgements()
    if os.environ.get("TABLETAPE_UPDATE_JUDGEMENTS"):
        with open(JUDGEMENTS, "w") as f:
            json.dump(now, f, indent=0, sort_keys=True)
            f.write("\n")
    with open(JUDGEMENTS) as f:
        pinned = json.load(f)
    assert set(now) == set(pinned), "a bundled log was added or removed: update the snapshot " \
        "(TABLETAPE_UPDATE_JUDGEMENTS=1 pytest tests/engine/test_versions.py)"
    for path, by_version in now.items():
        for version, entry in by_version.items():
            if version in pinned[path]:
                assert entry == pinned[path][version], (
                    f"{path} is judged differently under {entry['game']} rules {version} than "
                    f"the snapshot says: a released version's behaviour never changes. A "
                    f"change of the rules needs a new version: add its entry by rule id to "
                    f"the game's CHANGELOG (catalogue.py), put the change behind a switch "
                    f"(docs/adding-a-game.md, Rules versions), and update the snapshot "
                    f"(TABLETAPE_UPDATE_JUDGEMENTS=1)")
            else:
                assert os.environ.get("TABLETAPE_UPDATE_JUDGEMENTS"), (
                    f"{path}: no snapshot under rules {version}: a new version's judgements "
                    "are pinned with TABLETAPE_UPDATE_JUDGEMENTS=1")


def test_every_changelog_entry_names_a_rule_of_the_catalogue():
    for rs in engine.all_games():
        for version, entries in rs.changelog.items():
            assert set(entries) <= set(rs.catalogue()), (rs.id, version)


# -- upcasting (item 3): one function per change, beside the event types -----------------

def test_the_kill_target_upcaster_fills_the_top_card_and_leaves_1_1_events_alone():
    from tabletape.games.cards_of_war.upcast import UPCASTERS, kill_target
    assert [(u.version, u.rule) for u in UPCASTERS] == [("1.1", "cow.kill.target")]
    seen = []

    def look(j):
        if j.seq == 40:
            seen.append((j.before, j.event, j.fold.ruleset))
    engine.replay(SIM, visit=look)
    [(state, ev, rs)] = seen
    assert ev.kill and ev.target is None  # as 1.0 recorded it
    filled = kill_target(rs.lk, state, ev)
    top = state.battles[ev.battle - 1].piles["alice"][-1]
    assert filled.target == top and msgspec.structs.replace(filled, target=None) == ev
    assert kill_target(rs.lk, state, filled) is filled  # a 1.1 event: nothing to fill
    assert rs.upcast(state, ev) is ev  # judged by its own 1.0: read as written
    latest = engine.get("cards-of-war").bind(engine.replay(SIM).header, "latest")
    assert latest.upcast(state, ev) == filled  # under 1.1: read as 1.1 records it
    assert latest.check(state, ev) is None and latest.check(state, filled) is None
    assert rs.check(state, filled).rule == "cow.kill.top-only"  # 1.0 names no target


# -- migrate (item 5) ----------------------------------------------------------------------

def test_migrate_writes_the_same_plays_under_the_latest_rules(run, tmp_path):
    out = tmp_path / "new.jsonl"
    before = open(SIM, "rb").read()
    r = run("migrate", SIM, "-o", out, "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert (d["recorded"], d["rules_version"], d["events"]) == ("1.0", "1.2", 143)
    assert open(SIM, "rb").read() == before  # the source is never touched
    header = json.loads(open(out, "rb").readline())
    assert header["rules_version"] == "1.2"
    assert header["migrated_from"] == d["source_head"] == engine.replay(SIM).head
    new = engine.replay(str(out))
    assert new.ok and new.rules_versions is None and new.head == d["head"]
    old = engine.replay(SIM)
    assert new.ruleset is not None
    assert old.ruleset is not None
    assert new.ruleset.outcome(new.state) == old.ruleset.outcome(old.state)
    kill = json.loads(open(out, "rb").read().splitlines()[40])
    assert kill["kill"] and kill["target"]  # upcast: 1.1 names the card a KILL takes


def test_migrate_refuses_where_a_play_breaks_the_new_rules_and_writes_nothing(run, tmp_path):
    out = tmp_path / "new.jsonl"
    r = run("migrate", THEATRES, "-o", out, "--rules", "1.1")
    assert r.exit_code == 1 and not out.exists()
    assert "at seq 21 [cow.opt.theatres.off-theatre]; nothing written" in r.stderr
    d = json.loads(run("migrate", THEATRES, "-o", out, "--json").stdout)
    assert d["out"] is None and d["refused"]["seq"] == 21
    assert d["refused"]["rule"] == "cow.opt.theatres.off-theatre"


def test_migrate_refuses_a_global_domination_1_1_log_that_skipped_a_say(run, tmp_path):
    # 1.2 asks every player in the scoring step; a 1.1 log has no pass for the players 1.1
    # skipped, and migrate invents no event: it names the first play 1.2 refuses
    out = tmp_path / "new.jsonl"
    r = run("migrate", GD_SIM, "-o", out)
    assert r.exit_code == 1 and not out.exists()
    assert ("(seq 42): alice draws Domination: [gd.score.window] no draw by alice now: alice "
            "may play a scoring card or pass first") in r.stderr
    assert ("  gd.score.window changed in rules 1.2: every player is asked in the scoring "
            "step") in r.stderr
    assert (f"not migrated: {GD_SIM} breaks global-domination rules 1.2 at seq 42 "
            "[gd.score.window]; nothing written (migrate adds no play)") in r.stderr
    d = json.loads(run("migrate", GD_SIM, "-o", out, "--json").stdout)
    assert d["out"] is None and d["refused"]["rule"] == "gd.score.window"
    assert list(d["rule_changed"]) == ["1.2"]
    # 1.1 is the version it was recorded under: the same plays, re-chained
    assert run("migrate", GD_SIM, "-o", out, "--rules", "1.1").exit_code == 0


def test_migrate_never_writes_over_a_file_or_its_source(run, tmp_path):
    out = tmp_path / "new.jsonl"
    out.write_bytes(b"mine")
    r = run("migrate", SIM, "-o", out)
    assert r.exit_code == 2 and out.read_bytes() == b"mine"
    assert run("migrate", SIM, "-o", SIM).exit_code == 2
    assert run("migrate", SIM, "-o", tmp_path / "x.jsonl", "--rules", "0.1").exit_code == 2
    assert not (tmp_path / "x.jsonl").exists()


def test_the_1_1_fixture_is_regenerated_byte_for_byte(tmp_path):
    from tests.games.cards_of_war.make_replays import recon_ends_the_round
    recon_ends_the_round(str(tmp_path))
    made = (tmp_path / "recon-ends-the-round.jsonl").read_bytes()
    assert made == open(ROUND_END, "rb").read()


# -- options a later version added (item 2's gap) -------------------------------------------

AUTO = "replays/cards-of-war/sim-automatic-kill-no-reshuffle.jsonl"  # automatic_kill (1.1)


@pytest.mark.parametrize("game,option", [(rs.id, o) for rs in engine.all_games()
                                         for o in rs.options_since])
def test_an_option_a_later_version_added_is_not_in_the_versions_before(game, option):
    from tabletape.engine.versions import option_problem
    rs = engine.get(game)
    version, rule = rs.options_since[option]
    name, _, value = option.partition("=")
    field = {f.name: f for f in msgspec.structs.fields(rs.Options)}[name]
    options = rs.Options(**{name: value or (not field.default)})
    before = rs.versions[rs.versions.index(version) - 1]
    for v in rs.versions:
        problem = option_problem(options, rs.options_since, resolve(game, rs.changelog, v, v))
        if rs.versions.index(v) >= rs.versions.index(version):
            assert problem is None, (v, problem)
        elif v == before:
            assert problem == (f"option {option} is not in {game} rules {v}: rules {version} "
                               f"added it ({rule})")
    assert option_problem(rs.Options(), rs.options_since,
                          resolve(game, rs.changelog, rs.versions[0], None)) is None


def test_a_log_setting_an_option_its_judging_version_lacks_is_refused_naming_both(run, tmp_path):
    assert engine.replay(AUTO).ok
    r = run("validate", "--rules", "1.0", AUTO)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert (f"{AUTO}:1 (seq 0, byte 0): cannot be judged by rules 1.0: option automatic_kill "
            "is not in cards-of-war rules 1.0: rules 1.1 added it (cow.kill.automatic)") in r.stdout
    d = json.loads(run("validate", "--json", "--rules", "1.0", AUTO).stdout)
    assert d["rules_version"] == {"recorded": "1.1", "judged_by": "1.0"}
    assert "option automatic_kill" in d["problems"][0]["reason"]
    for args in (("explain", AUTO, "5"), ("replay", AUTO), ("log", AUTO)):
        r = run(args[0], "--rules", "1.0", *args[1:])
        assert "Traceback" not in r.output and "option automatic_kill" in r.output, args
    out = tmp_path / "old.jsonl"
    r = run("migrate", AUTO, "-o", out, "--rules", "1.0")
    assert r.exit_code == 1 and not out.exists()
    assert "breaks cards-of-war rules 1.0 at seq 0; nothing written" in r.stderr


def test_a_log_recorded_under_a_version_without_its_option_has_a_bad_header(run, tmp_path):
    from tests.tape.test_signing import rechain
    path = tmp_path / "forged.jsonl"
    data = open(AUTO, "rb").read().replace(b'"rules_version":"1.1"', b'"rules_version":"1.0"', 1)
    path.write_bytes(data)
    rechain(path)
    r = run("validate", path)
    assert r.exit_code == 1
    assert ("bad header: option automatic_kill is not in cards-of-war rules 1.0: rules 1.1 "
            "added it (cow.kill.automatic)") in r.stdout
    assert run("validate", "--rules", "1.1", path).exit_code == 0  # a 1.1 game, recorded as 1.0


# -- BATTLECARDS' first side (bcp.turn.first-side, 1.1) -------------------------------------

def test_battlecards_1_0_followed_the_card_files_order_1_1_starts_the_named_side():
    from tabletape.games.battlecards_pacific import RULESET as BCP
    comp = BCP.default_components()
    us_first = msgspec.structs.replace(comp, sides=tuple(reversed(comp.sides)))
    assert [s.id for s in us_first.sides] == ["US", "Japan"]
    header = BCP.start(("alice", "bob"), BCP.Options(), us_first)  # alice: Japan
    new, old = BCP.bind(header), BCP.bind(msgspec.structs.replace(header, rules_version="1.0"))
    assert old.edition.judging == "1.0" and not old.lk.first_side_named
    assert new.initial().order == ("alice", "bob")  # Japan starts, whatever the file says
    assert old.initial().order == ("bob", "alice")  # 1.0: the file's first side (US) starts
    # with the bundled file (Japan listed first) the two agree: the 1.0 fixtures keep their
    # verdicts (test_a_log_is_judged_by_its_recorded_version_as_that_release_judged_it)
    plain = BCP.start(("alice", "bob"), BCP.Options(), comp)
    assert BCP.bind(plain, "1.0").initial() == BCP.bind(plain).initial()


def test_log_json_carries_the_judging_version_on_every_line(run):
    rows = [json.loads(line) for line in run("log", "--json", SIM).stdout.splitlines()]
    assert len(rows) == 143 and {r["judged_by"] for r in rows} == {"1.0"}
    assert rows[0]["text"].startswith("cards-of-war 1.0 starts")  # the version recorded
    r = run("log", "--json", "--rules", "latest", "--from", "40", "--to", "41", SIM)
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(x["seq"], x["judged_by"]) for x in rows] == [(40, "1.2"), (41, "1.2")]
    assert "judged by rules 1.2" in r.stderr
