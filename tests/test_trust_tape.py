"""Trust: the index never vouches for bytes it has not read; editor damage is named and
restored only where the chain proves it; the recorded rules version is reported."""

from __future__ import annotations

import msgspec

from tabletape import engine
from tabletape.games.cards_of_war.events import Options
from tabletape.tape import log
from tests.conftest import COW


# -- C. rules versions -------------------------------------------------------------------

def test_a_log_recorded_under_other_rules_is_valid_and_says_so(tmp_path):
    path = tmp_path / "old.jsonl"
    header = COW.start(("alice", "bob"), Options(length="short"), COW.default_components())
    header = msgspec.structs.replace(header, rules_version="0.0-old")
    log.create(str(path), header, COW.codec)
    r = engine.replay(str(path))
    assert r.ok and r.rules_versions == ("0.0-old", COW.version)
    assert engine.replay(str(path), history=False).rules_versions == ("0.0-old", COW.version)


def test_a_log_recorded_under_these_rules_has_no_rules_versions(game):
    assert engine.replay(str(game)).rules_versions is None
