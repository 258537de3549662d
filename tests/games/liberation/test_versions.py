"""Liberation's rules versions: 1.2 asks the owner of a card turned face down whatever they
hold (lib.ability.prevent, lib.ability.prevent.asked); a log recorded under 1.1 is judged
as 1.1 judged it, and under 1.2 is refused where a window was skipped, saying why.
"""

from __future__ import annotations

import json

from tabletape import engine
from tabletape.games.liberation import RULESET
from tabletape.games.liberation.events import CountryTurned
from tabletape.tape.errors import IllegalEvent
from tests.games.liberation.make_replays import (
    FIXTURES,
    Scribe,
    deal,
    play,
    turn_over_unasked,
)

UNASKED = f"{FIXTURES}/turn-over-unasked.jsonl"
IRAQ = "replays/liberation/iraq-abilities.jsonl"


def test_1_2_changes_the_prevent_window_behind_a_switch():
    assert RULESET.version == "1.2" and list(RULESET.changelog)[-1] == "1.2"
    assert set(RULESET.changelog["1.2"]) == {"lib.ability.prevent", "lib.ability.prevent.asked"}
    assert RULESET.switches["prevent_asked"] == ("1.2", "lib.ability.prevent")
    header = RULESET.start(("ann", "bob"), RULESET.Options(), RULESET.default_components())
    assert RULESET.bind(header).lk.prevent_asked
    assert not RULESET.bind(header, "1.1").lk.prevent_asked


def test_the_1_1_fixture_is_regenerated_byte_for_byte(tmp_path):
    turn_over_unasked(str(tmp_path))
    assert (tmp_path / "turn-over-unasked.jsonl").read_bytes() == open(UNASKED, "rb").read()


def test_a_1_1_log_that_skipped_the_window_is_judged_as_1_1_judged_it():
    # bob held no prevent card at seq 12, so 1.1 asked him nothing and went on
    result = engine.replay(UNASKED)
    assert result.ok and result.judged_by == "1.1" and result.rules_versions is None
    # 1.2 asks him: ann's next turn at seq 13 comes before his answer
    new = engine.replay(UNASKED, version="latest")
    assert new.rules_versions == ("1.1", "1.2")
    first = new.problems[0]
    assert isinstance(first, IllegalEvent)  # (only a refused event names a rule)
    assert (first.seq, first.rule) == (13, "lib.ability.prevent")
    assert "bob may discard a prevent card to keep their Submarine face up" in first.reason
    assert "from rules 1.2 the owner of a card turned face down is asked whether or not " \
        "they hold a prevent card" in first.reason


def test_migrate_refuses_a_bundled_log_where_a_window_was_skipped(run, tmp_path):
    # no upcaster invents bob's answer: the log is refused where it is missing
    out = tmp_path / "new.jsonl"
    r = run("migrate", IRAQ, "-o", out)
    assert r.exit_code == 1 and not out.exists()
    assert ("breaks liberation rules 1.2 at seq 25 [lib.ability.prevent]; nothing written"
            in r.stderr)
    assert "bob may discard a prevent card to keep their Submarine face up" in r.stderr
    d = json.loads(run("migrate", IRAQ, "-o", out, "--json").stdout)
    assert d["out"] is None and (d["refused"]["seq"], d["refused"]["rule"]) == (
        25, "lib.ability.prevent")


def test_migrate_writes_a_1_1_log_with_no_skipped_window_under_1_2(run, tmp_path):
    # a 1.1 game in progress: a country, its deal and a round of plain plays
    s = Scribe(str(tmp_path), "old.jsonl", ("ann", "bob"), seed=0, rules="1.1")
    s.write(CountryTurned(player="ann", country="Somalia"), *deal(("bob", "ann"), {
        "ann": ("Infantry Division", "Submarine"), "bob": ("Armored Division", "Navy SEALs")}))
    s.write(play("ann", "Submarine"), play("bob", "Armored Division"))
    out = tmp_path / "new.jsonl"
    r = run("migrate", s.path, "-o", out, "--json")
    assert r.exit_code == 0, r.stderr
    d = json.loads(r.stdout)
    assert (d["recorded"], d["rules_version"], d["events"]) == ("1.1", "1.2", 8)
    new = engine.replay(str(out))
    assert new.ok and new.judged_by == "1.2" and new.header.migrated_from == d["source_head"]
