"""One fingerprint of the code that judges a game's logs, for every derived file that
remembers a judgement (the checkpoint index, the corpus cache): a content hash, so that
an edit anywhere that can change a verdict, even one of the same size with its mtime
put back, is a different fingerprint and the derived file is not trusted.

It hashes the bytes of tabletape's own package files (`__init__`), the tape and the
engine (with its kit, at any depth), `games/__init__`, the game's own package with its
data, and the versions of msgspec and Python; a caller adds the layers only it depends
on (`layers=("app",)`: the corpus cache). The front ends judge nothing and are left out.
Computed once per process (a process runs the code it loaded): about 40 files, 330 KB,
under a millisecond or two.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import sys

import msgspec

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # src/tabletape
SOURCE_SUFFIXES = (".py", ".json", ".pyi")
JUDGING = ("tape", "engine")  # the layers below the games: every game's logs depend on them
FRONT_ENDS = ("__main__.py", "pytest_plugin.py")  # beside `cli`: they judge nothing


def game_package(module: str) -> str:
    """Returns the folder of the package that holds a ruleset's module (its code and data):
    `tabletape.games.NAME` for a game of tabletape's, the top package for another's."""
    parts = module.split(".")
    top = ".".join(parts[:3] if module.startswith("tabletape.games.") else parts[:1])
    return os.path.dirname(os.path.abspath(importlib.import_module(top).__file__ or ""))


@functools.lru_cache(maxsize=64)
def code_fingerprint(module: str, layers: tuple[str, ...] = ()) -> str:
    """Returns a content hash of what judges the logs of the game whose ruleset is defined
    in `module`: the files `JUDGING` and `layers` (folders of tabletape's package), its
    top-level modules, `games/__init__`, the game's package, msgspec's and Python's versions."""
    h = hashlib.sha256(f"msgspec {msgspec.__version__} python {sys.version} "
                       f"{sys.implementation.name}".encode())
    for name in ("", *JUDGING, *layers, "games"):  # "" and "games": their own files only
        folder = os.path.join(PACKAGE, name) if name else PACKAGE
        h.update(f"\n{name or '.'} ".encode())
        h.update(tree_fingerprint(folder, skip=FRONT_ENDS if not name else (),
                                  deep=name not in ("", "games")).encode())
    h.update(b"\ngame ")
    h.update(tree_fingerprint(game_package(module)).encode())
    return h.hexdigest()


def tree_fingerprint(root: str, skip: tuple[str, ...] = (), deep: bool = True) -> str:
    """Returns a hash of the names and bytes of every source and data file under `root`
    (recursively unless not `deep`; caches and hidden files left out). `skip`: names
    relative to `root`, or absolute paths, of files and folders left out."""
    h = hashlib.sha256()
    skipped = {os.path.join(root, s) for s in skip}
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if deep and not x.startswith((".", "__pycache__"))
                         and os.path.join(d, x) not in skipped)
        for name in sorted(names):
            path = os.path.join(d, name)
            if name.startswith(".") or not name.endswith(SOURCE_SUFFIXES) or path in skipped:
                continue
            with open(path, "rb") as f:
                data = f.read()
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            h.update(b"%s %d\n" % (rel.encode(), len(data)))
            h.update(data)
    return h.hexdigest()
