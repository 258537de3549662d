"""The README is checked output for output.

Convention: a ```console block is a transcript. Each `$ tabletape …` line is run, in
order, every block sharing one temporary directory (with `replays/` linked in), and
what it prints — stdout and stderr, as a terminal would interleave them — must be the
lines under it, whole, up to the next `$` line. Only what varies from run to run is
normalised: trailing spaces, and the temporary directory's path. Examples that are
abbreviated, or whose output cannot repeat (fresh random keys), are ```text blocks;
the session under "Recording at the table" is checked by tests/test_record.py.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

README = open("README.md", encoding="utf-8").read()
ENV = {"TABLETAPE_CLOCK": "off", "COLUMNS": "100", "PYTHONUNBUFFERED": "1",
       "TERM": "dumb", "NO_COLOR": "1"}


def steps(readme: str = README) -> list[tuple[str, list[str]]]:
    """Returns each console block's commands with the lines the README says they print."""
    out: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", readme, flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                assert line.startswith("$ tabletape "), f"a console block runs tabletape: {line}"
                out.append((line[2:], []))
            else:
                assert out, f"a console block starts with a command: {line}"
                out[-1][1].append(line)
    return out


def normal(text: str, where: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace(where, ".").splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def transcript(tmp_path, readme: str = README):
    """Runs every console command of the README in `tmp_path`; yields (command, want, got)."""
    if not os.path.exists(tmp_path / "replays"):
        os.symlink(os.path.abspath("replays"), tmp_path / "replays")
    env = {**os.environ, **ENV, "TABLETAPE_CACHE": str(tmp_path / "cache"),
           "PYTHONPATH": os.path.abspath("src")}
    for command, want in steps(readme):
        argv = [sys.executable, "-m", "tabletape", *shlex.split(command)[1:]]
        done = subprocess.run(argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        yield command, normal("\n".join(want), str(tmp_path)), \
            normal(done.stdout, str(tmp_path))


def test_the_readme_tour_prints_what_the_readme_shows(tmp_path):
    assert len(steps()) >= 20
    for command, want, got in transcript(tmp_path):
        assert not any("Traceback" in line for line in got), command
        assert got == want, f"$ {command}\n--- README\n" + "\n".join(want) + \
            "\n--- printed\n" + "\n".join(got)


def test_the_readme_says_to_follow_the_tour_in_a_scratch_directory():
    assert "cd \"$(mktemp -d)\"" in README
