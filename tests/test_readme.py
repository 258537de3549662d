"""The README's tour is executable: each `$ tabletape …` line is run in order and its
first line of output, as printed in the README, must appear in what it prints now."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

README = open("README.md", encoding="utf-8").read()


def steps() -> list[tuple[str, str | None]]:
    out = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ tabletape "):
                nxt = lines[i + 1] if i + 1 < len(lines) else ""
                expect = None if nxt.startswith(("$", "  (")) or not nxt.strip() else nxt
                out.append((line[2:], expect))
    return out


def test_the_readme_tour_runs(tmp_path):
    os.symlink(os.path.abspath("replays"), tmp_path / "replays")
    env = {**os.environ, "TABLETAPE_CLOCK": "off", "COLUMNS": "100",
           "TABLETAPE_CACHE": str(tmp_path / "cache")}  # corpus check's cache: this run's own
    assert len(steps()) >= 12
    for command, expect in steps():
        argv = [sys.executable, "-m", "tabletape", *shlex.split(command)[1:]]
        done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True)
        printed = done.stdout + done.stderr
        assert "Traceback" not in printed, command
        if expect is not None:
            assert expect.strip() in printed, f"{command}\nexpected: {expect}\ngot:\n{printed}"
