"""The logs of an archive: which files under some paths are logs, the name each goes by
(its path from a root), and what one check of them found (`Run`, entries by those names).

Both the check (app.corpus) and its report (app.report) need these; neither imports the
other for them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from tabletape.app.judge import Entry
from tabletape.tape.errors import UsageError
from tabletape.tape.events import visible

# -- finding and naming logs ----------------------------------------------------------------

def find_logs(paths: Iterable[str]) -> list[str]:
    """Returns every log under the paths (files named *.jsonl, hidden ones left out), sorted."""
    # (start-up: `tabletape --help` loads this module; the checkpoint index, with its seal,
    # only once logs are looked for)
    from tabletape.engine.index import is_index
    found: set[str] = set()
    for p in paths:
        if os.path.isdir(p):
            for d, dirs, files in os.walk(p):
                dirs[:] = [x for x in dirs if not x.startswith(".")]
                found.update(os.path.join(d, f) for f in files
                             if f.endswith(".jsonl") and not f.startswith("."))
        elif os.path.exists(p):
            if not is_index(p):
                found.add(p)
        else:
            raise UsageError(f"no such file or folder: {p}", file=p)
    return sorted(found)


def key_of(path: str, root: str) -> str:
    """Returns a log's name in a report or a baseline: its path from `root`, with `/`,
    printable (a file name holding a control character, or bytes that are not UTF-8, is
    named with them escaped by `visible`: a baseline is JSON a terminal can show)."""
    return visible(os.path.relpath(os.path.abspath(path), os.path.abspath(root))
                   .replace(os.sep, "/"))


def names_of(logs: Iterable[str], root: str) -> dict[str, str]:
    """Returns {name: path} (`key_of`); two logs whose names read alike are refused."""
    out: dict[str, str] = {}
    for p in logs:
        k = key_of(p, root)
        if k in out:
            raise UsageError(f"two logs read alike as {k} (one file name holds a control "
                             "character or bytes that are not UTF-8, shown escaped): rename it")
        out[k] = p
    return out


# -- what a check found ---------------------------------------------------------------------

@dataclass
class Run:
    """What one check of an archive found: every log's entry by name, and how."""

    root: str  # names are relative to it
    entries: dict[str, Entry] = field(default_factory=dict)
    cached: int = 0  # entries taken from the cache
