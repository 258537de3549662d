"""`make bench` is not a test, but its script must keep working: a smoke run at tiny sizes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys


def test_the_bench_script_runs_and_prints_every_row(tmp_path):
    env = {**os.environ, "BENCH_QUICK": "1", "BENCH_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "bench/run.py", "--rounds", "1", "--markdown"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    names = " ".join(rows)
    for row in ("floor: msgspec decode", "decode + SHA-256", "tabletape verify",
                "tabletape validate", "replay --to", "tabletape diff", "append one event",
                "from stdin", "--jobs 2", "cached run", "after a one-line rules edit",
                "--dask tcp:// (scheduler + 2 workers)"):
        assert row in names, row
    assert os.path.exists(tmp_path / "long-5000.jsonl")


def test_the_games_rows_run_beside_another_trees_simulate(tmp_path):
    """`make bench-balance` hands the tree of the issue's day as --before: its `simulate` row
    runs beside today's, the lab's rows (which that tree lacks) only with this one's, and the
    ratios say both, and the ratio of the two played in turn in one process. The tree handed
    here lacks the lab as that one does (no `engine.agents`, no `engine.playout`)."""
    before = tmp_path / "before"
    shutil.copytree("src", before, ignore=shutil.ignore_patterns("__pycache__"))
    for lab in ("agents.py", "playout.py"):
        (before / "tabletape" / "engine" / lab).unlink()
    env = {**os.environ, "BENCH_QUICK": "1", "BENCH_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "bench/run.py", "--playouts", "--rounds", "1",
                           "--markdown", "--only", "cards-of-war", "--before", str(before)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line.split(" | ")[0] for line in done.stdout.splitlines() if line.startswith("| ")]
    assert "| simulate cards-of-war: games per second [before] (in process)" in rows
    assert "| simulate cards-of-war: games per second (in process)" in rows
    assert not [r for r in rows if "balance" in r and "[before]" in r]
    ratios = [line for line in done.stdout.splitlines() if line.startswith("- balance")]
    assert [r.split(":")[0] for r in ratios] == ["- balance cards-of-war"] * 3
    assert "in this run" in ratios[0] and "the before tree's simulate" in ratios[1]
    assert "game by game in turn in one process" in ratios[2] and "the median of 2 rounds" \
        in ratios[2]
