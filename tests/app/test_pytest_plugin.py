"""The pytest plugin, run by pytest's own `pytester`: a project whose archive is its tests."""

from __future__ import annotations

import glob
import importlib.metadata
import os
import shutil
import tomllib

import pytest

import tabletape.pytest_plugin  # (imported before pytester snapshots sys.modules)
from tabletape.app import corpus

# The projects these tests make use no hypothesis: its plugin, loaded by every pytest process
# (and each xdist worker), costs about a second to import; blocked in their ini.
INI = "[pytest]\naddopts = -p no:hypothesispytest\ntabletape_corpus = logs\n"

pytest_plugins = ["pytester"]

DECK = os.path.abspath("replays/decks/cards-of-war-tank-9.json")
PYPROJECT = os.path.abspath("pyproject.toml")
COW = sorted(map(os.path.abspath, glob.glob("replays/cards-of-war/*.jsonl")))
LIB = sorted(map(os.path.abspath, glob.glob("replays/liberation/*.jsonl")))


def _installed() -> bool:
    """Returns True when the package is installed with its entry point (pip install -e)."""
    return any(ep.name == "tabletape" for ep in importlib.metadata.entry_points(group="pytest11"))


# Installed, pytest loads the plugin by its entry point; from a source tree (PYTHONPATH=src)
# there is no entry point, and the tests name the module.
PLUGIN = () if _installed() else ("-p", "tabletape.pytest_plugin",
                                  "-W", "ignore::pytest.PytestAssertRewriteWarning")


def test_the_entry_point_names_the_plugin_module():
    with open(PYPROJECT, "rb") as f:
        project = tomllib.load(f)["project"]
    assert project["entry-points"]["pytest11"] == {"tabletape": "tabletape.pytest_plugin"}
    if _installed():
        (ep,) = [e for e in importlib.metadata.entry_points(group="pytest11")
                 if e.name == "tabletape"]
        assert ep.value == "tabletape.pytest_plugin"
        assert ep.load().__name__ == "tabletape.pytest_plugin"


@pytest.fixture
def project(pytester, monkeypatch):
    """A project with an archive of Cards of War and Liberation logs in logs/."""
    monkeypatch.setenv("TABLETAPE_CACHE", str(pytester.path / "cache"))
    for p in [*COW, *LIB]:
        dest = pytester.path / "logs" / os.path.basename(os.path.dirname(p))
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy(p, dest)
    pytester.makeini(INI)
    pytester.makepyfile(test_other="def test_other():\n    pass\n")
    return pytester


def test_one_test_per_log_against_the_baseline(project):
    first = project.runpytest(*PLUGIN)
    first.assert_outcomes(passed=1, failed=len(COW) + len(LIB))
    first.stdout.fnmatch_lines(["*there is no baseline logs/baseline.json yet "
                                "(--tabletape-update writes it)*"])
    update = project.runpytest(*PLUGIN, "--tabletape-update")
    update.assert_outcomes(passed=1 + len(COW) + len(LIB))
    update.stdout.fnmatch_lines(["tabletape: wrote the baseline *baseline.json*"])
    base = (project.path / "logs" / "baseline.json").read_text()
    assert '"cards-of-war/kill-dispute.jsonl": {' in base
    project.runpytest(*PLUGIN).assert_outcomes(passed=1 + len(COW) + len(LIB))
    # The same file as `tabletape corpus check --baseline logs/baseline.json`.
    run = corpus.check([str(project.path / "logs")], root=str(project.path / "logs"))
    assert corpus.compare(corpus.read_baseline(str(project.path / "logs/baseline.json")),
                          run.entries) == []


def test_a_rules_change_fails_the_games_it_changes_and_update_accepts_it(project):
    project.runpytest(*PLUGIN, "--tabletape-update")
    changed = project.runpytest(*PLUGIN, "-v", f"--tabletape-components=cards-of-war={DECK}")
    outcomes = changed.parseoutcomes()
    assert outcomes["failed"] >= 1 and outcomes["passed"] == 1 + len(COW) + len(LIB) - \
        outcomes["failed"]
    changed.stdout.fnmatch_lines([
        "*cards-of-war/*.jsonl differs from the baseline logs/baseline.json: "
        "the judgement first differs at seq *",
        "*verdict: valid -> invalid",
        "*first illegal: none -> seq * [[]cow.*[]]",
        "*look closer: tabletape explain logs/cards-of-war/*.jsonl *",
        "(--tabletape-update accepts it)"])
    changed.stdout.no_fnmatch_line("*FAILED*liberation/*")
    project.runpytest(*PLUGIN, "--tabletape-update", f"--tabletape-components=cards-of-war={DECK}")
    project.runpytest(*PLUGIN, f"--tabletape-components=cards-of-war={DECK}").assert_outcomes(
        passed=1 + len(COW) + len(LIB))
    # The ini file can name the components too.
    project.makeini(INI + f"tabletape_components =\n"
                    f"    cards-of-war={DECK}\n")
    project.runpytest(*PLUGIN).assert_outcomes(passed=1 + len(COW) + len(LIB))


def test_added_and_removed_logs(project):
    project.runpytest(*PLUGIN, "--tabletape-update")
    logs = project.path / "logs"
    shutil.copy(logs / "liberation/sim-2-players.jsonl", logs / "liberation/new.jsonl")
    os.unlink(logs / "cards-of-war/sim-normal.jsonl")
    r = project.runpytest(*PLUGIN)  # (and test_other passes)
    r.assert_outcomes(passed=len(COW) + len(LIB), failed=2)
    r.stdout.fnmatch_lines_random([
        "*liberation/new.jsonl is not in the baseline logs/baseline.json (--tabletape-update adds it)",
        "*cards-of-war/sim-normal.jsonl is in the baseline logs/baseline.json but not in the "
        "archive (--tabletape-update removes it)"])
    # Updating only some (-k) keeps the others' entries.
    project.runpytest(*PLUGIN, "--tabletape-update", "-k", "liberation")
    r = project.runpytest(*PLUGIN)
    r.assert_outcomes(passed=1 + len(COW) + len(LIB), failed=1)  # sim-normal, still
    project.runpytest(*PLUGIN, "--tabletape-update")
    project.runpytest(*PLUGIN).assert_outcomes(passed=1 + len(COW) + len(LIB))


def test_named_test_paths_leave_the_corpus_out_unless_asked(project):
    project.runpytest(*PLUGIN, "--tabletape-update")
    project.runpytest(*PLUGIN, "test_other.py").assert_outcomes(passed=1)
    project.runpytest(*PLUGIN, "test_other.py", "--tabletape").assert_outcomes(
        passed=1 + len(COW) + len(LIB))


def test_without_a_corpus_the_plugin_does_nothing(pytester):
    pytester.makepyfile(test_x="def test_x():\n    pass\n")
    pytester.runpytest(*PLUGIN).assert_outcomes(passed=1)


def test_a_bad_components_setting_is_a_usage_error(project):
    r = project.runpytest(*PLUGIN, "--tabletape-components=cards-of-war")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*tabletape components take GAME=FILE*"])


@pytest.mark.skipif(not _installed(), reason="the entry point is registered by pip install -e")
def test_the_installed_plugin_is_turned_off_by_its_entry_point_name(project):
    project.runpytest("-p", "no:tabletape").assert_outcomes(passed=1)


def test_pytest_loads_the_plugin_by_its_entry_point(project, monkeypatch, tmp_path_factory):
    """The entry point as pip installs it (a dist-info naming it), in a fresh pytest process:
    no -p, and `-p no:tabletape` turns it off."""
    site = tmp_path_factory.mktemp("site")
    info = site / "tabletape_entry_point_test-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tabletape-entry-point-test\n"
                                   "Version: 0\n")
    with open(PYPROJECT, "rb") as f:
        value = tomllib.load(f)["project"]["entry-points"]["pytest11"]["tabletape"]
    (info / "entry_points.txt").write_text(f"[pytest11]\ntabletape = {value}\n")
    src = os.path.dirname(os.path.dirname(tabletape.pytest_plugin.__file__))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), src]))
    project.runpytest_subprocess().assert_outcomes(passed=1, failed=len(COW) + len(LIB))
    project.runpytest_subprocess("-p", "no:tabletape").assert_outcomes(passed=1)


def test_xdist_workers_give_the_whole_baseline_once(project):
    """`pytest -n 2 --tabletape-update`: each worker judges part of the archive; the
    controller writes the whole baseline once (not the last worker's half)."""
    pytest.importorskip("xdist")
    r = project.runpytest(*PLUGIN, "-n", "2", "--tabletape-update")
    r.assert_outcomes(passed=1 + len(COW) + len(LIB))
    r.stdout.fnmatch_lines([f"tabletape: wrote the baseline *baseline.json* "
                            f"({len(COW) + len(LIB)} logs judged)"])
    base = corpus.read_baseline(str(project.path / "logs/baseline.json"))
    assert len(base) == len(COW) + len(LIB)
    project.runpytest(*PLUGIN, "-n", "2").assert_outcomes(passed=1 + len(COW) + len(LIB))
    # A partial update (-k) on the workers: the logs they ran rewritten, every other kept.
    project.runpytest(*PLUGIN, "-n", "2", "--tabletape-update", "-k", "cards",
                      f"--tabletape-components=cards-of-war={DECK}")
    after = corpus.read_baseline(str(project.path / "logs/baseline.json"))
    assert set(after) == set(base)
    changed = {k for k in after if after[k] != base[k]}
    assert changed and all(k.startswith("cards-of-war/") for k in changed)
    # A log gone, seen by one worker: removed from the whole baseline.
    os.unlink(project.path / "logs/cards-of-war/sim-normal.jsonl")
    project.runpytest(*PLUGIN, "-n", "2", "--tabletape-update")
    assert len(corpus.read_baseline(str(project.path / "logs/baseline.json"))) == \
        len(COW) + len(LIB) - 1
    project.runpytest(*PLUGIN).assert_outcomes(passed=len(COW) + len(LIB))


def test_a_log_cut_short_says_so_and_hints_at_a_command_that_runs(pytester, monkeypatch):
    monkeypatch.setenv("TABLETAPE_CACHE", str(pytester.path / "cache"))
    (pytester.path / "logs").mkdir()
    src = next(p for p in COW if p.endswith("/joint-adjacent.jsonl"))  # 86 events
    log = pytester.path / "logs" / "game.jsonl"
    whole = open(src, "rb").read().splitlines(keepends=True)
    log.write_bytes(b"".join(whole))
    pytester.makeini(INI)
    pytester.runpytest(*PLUGIN, "--tabletape-update")
    log.write_bytes(b"".join(whole[:60]))  # seq 0-59
    r = pytester.runpytest(*PLUGIN)
    r.assert_outcomes(failed=1)
    out = r.stdout.str()
    assert ("game.jsonl differs from the baseline logs/baseline.json\n"
            "  the log is shorter than its baseline: 86 \u2192 60 events (it ends at seq 59)") in out
    assert "first differs" not in out and "rules changed" not in out
    assert "  look closer: tabletape replay logs/game.jsonl" in out
