"""The README and the manual's pages (docs/*.md) are checked output for output.

Convention: a ```console block is a transcript. Each `$ tabletape …` line is run, in
order, every block of a page sharing one temporary directory (with `replays/` linked in;
each page its own directory), and what it prints — stdout and stderr, as a terminal
would interleave them — must be the lines under it, whole, up to the next `$` line. Only
what varies from run to run is normalised: trailing spaces, and the temporary directory's
path. Examples that are abbreviated, or whose output cannot repeat (fresh random keys),
are ```text blocks; the session in docs/recording.md is checked by tests/cli/test_record.py.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import subprocess
import sys

import pytest

# The README, then every page of the manual (mkdocs.yml: docs_dir docs)
PAGES = ["README.md", *sorted(glob.glob("docs/**/*.md", recursive=True))]
README = open("README.md", encoding="utf-8").read()
# The transcripts' commands on the pages of docs/: the 31 of the manual moved out of the
# README (issue 23); the README's short tour repeats 8 of them. None is dropped silently.
DOCS_COMMANDS_AT_LEAST = 31
README_MAX_BYTES = 40_000  # the README is the front door; the manual is docs/
ENV = {"TABLETAPE_CLOCK": "off", "TABLETAPE_SALTS": "seed:docs", "COLUMNS": "100", "PYTHONUNBUFFERED": "1",
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


def read(page: str) -> str:
    with open(page, encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("page", [p for p in PAGES if "```console" in read(p)])
def test_every_transcript_prints_what_the_page_shows(page, tmp_path):
    for command, want, got in transcript(tmp_path, read(page)):
        assert not any("Traceback" in line for line in got), command
        assert got == want, f"$ {command}\n--- {page}\n" + "\n".join(want) + \
            "\n--- printed\n" + "\n".join(got)


def test_no_transcript_was_dropped():
    counts = {page: len(steps(read(page))) for page in PAGES}
    assert counts["README.md"] >= 5, counts
    docs = sum(n for page, n in counts.items() if page != "README.md")
    assert docs >= DOCS_COMMANDS_AT_LEAST, counts


def test_a_console_block_is_never_mistyped():
    # a transcript fenced as ```Console or ``` console would be skipped, not checked
    for page in PAGES:
        fences = re.findall(r"^```\s*(\S*)", read(page), flags=re.M)
        assert not [f for f in fences if f.lower() == "console" and f != "console"], page


def test_the_readme_says_to_follow_the_tour_in_a_scratch_directory():
    assert "cd \"$(mktemp -d)\"" in README
    assert "cd \"$(mktemp -d)\"" in read("docs/tour.md")


def test_the_readme_is_the_front_door_under_40_kb():
    size = os.path.getsize("README.md")
    assert size <= README_MAX_BYTES, f"README.md is {size:,} bytes; move a section to docs/"
    for command in ("make demo", "make test"):
        assert command in README, command


def test_the_readme_links_only_to_pages_that_exist():
    linked = re.findall(r"\]\((docs/[^)#]+)", README)
    assert linked and all(os.path.exists(p) for p in linked), linked
