"""A ruling cites the rules of the version that judged it (issue 35): judged as 1.0, a log is
refused, corrected and ruled on by rule ids 1.0 has, and `explain` names only those; a
version's catalogue is its own (the rules a later version added left out, the texts a later
version restated as they stood)."""

from __future__ import annotations

import glob
import re
from typing import Any

import pytest

from tabletape import engine
from tabletape.tape.errors import IllegalEvent
from tests.narrow import present

LOGS = sorted(glob.glob("replays/*/*.jsonl") + glob.glob("tests/fixtures/rules-*/*/*.jsonl"))
GAMES = sorted({p.split("/")[-2] for p in LOGS})


def cited(path: str, version: str) -> tuple[set[tuple[int | None, str]], dict]:
    """Returns every (seq, rule id) judging the log under `version` cites: its problems, its
    corrections, its rulings on disputes and the rules governing each event; and the catalogue."""
    seen: set[tuple[int | None, str]] = set()  # (a problem's seq is typed int | None)
    rulesets: list[engine.Ruleset[Any, Any, Any]] = []

    def look(j):
        rs = j.fold.ruleset
        if not rulesets:
            rulesets.append(rs)
        if j.event is not None and type(j.event) in rs.events:
            seen.update((j.seq, r) for r in rs.governing(j.event))

    engine.replay(path, version=version, visit=look)
    result = engine.judge_all(path, version=version)
    fold = result.fold
    assert fold is not None and result.judged_by == version
    seen.update((p.seq, p.rule) for p in result.problems if isinstance(p, IllegalEvent) and p.rule)
    seen.update((s, e.rule) for s, e in fold.corrected.items())
    seen.update((d.dispute_seq, r) for d in fold.disputes for r in present(d.rule).split(", ") if r)
    return seen, fold.ruleset.catalogue()


@pytest.mark.parametrize("game", GAMES)
def test_every_citation_names_a_rule_of_the_judging_version(game):
    for path in (p for p in LOGS if p.split("/")[-2] == game):
        for version in engine.get(game).versions:
            seen, catalogue = cited(path, version)
            missing = sorted((seq, r) for seq, r in seen if r not in catalogue)
            assert not missing, f"{path} judged by {game} rules {version} cites {missing}"


@pytest.mark.parametrize("game", [rs.id for rs in engine.all_games()])
def test_a_versions_catalogue_is_its_own(game):
    rs = engine.get(game)
    problems: list[tuple[str, str, str]] = []
    ids = re.compile(r"\b[a-z]+(?:\.[a-z0-9-]+)+\b")
    for version in rs.versions:
        cat = rs.catalogue(version)
        # a rule a later version added is not in it; every rule of the changelog up to it is
        at = rs.versions.index
        for rule, (since, _) in rs.rules_since.items():
            assert (rule in cat) == (at(version) >= at(since)), (game, version, rule)
        for v in rs.versions[:rs.versions.index(version) + 1]:
            assert set(rs.changelog[v]) <= set(rs.catalogue(v)), (game, v)
        # no text names a rule id its version does not have
        for rule_id, entry in cat.items():
            named = {m for m in ids.findall(entry.text) if m.split(".")[0] in {"bcp", "cow", "gd",
                                                                               "lib", "core"}}
            problems.extend((version, rule_id, r) for r in sorted(named - set(cat)))
    assert not problems, f"{game}: a rule's text names a rule its version lacks: {problems}"
    assert rs.catalogue() == rs.catalogue(rs.versions[-1])


def test_a_restated_rule_reads_as_its_version_stated_it():
    bcp = engine.get("battlecards-pacific")
    assert "in any order" in bcp.catalogue("1.2")["bcp.emergency.all"].text
    assert "in any order" not in bcp.catalogue("1.1")["bcp.emergency.all"].text
    assert "after every shot" in bcp.catalogue("1.1")["bcp.stalemate.test"].text
    assert "after every shot" not in bcp.catalogue("1.0")["bcp.stalemate.test"].text
    assert "bcp.turn.first-side" not in bcp.catalogue("1.0")
