"""The console script: `replay FILE [--to SEQ] [--as PLAYER]` drawn without click, all else
handed to the click group (`tabletape.cli.group:main`) as it was typed.

Drawing a long log's table at a seq is asked for often and should take less than 0.1 s,
whole process; click alone costs a fifth of that to import. This path recognises only
that exact form (each option once, spelled out, its value in the next word) and prints
what the click command prints, byte for byte (tests/games/test_fast_paths.py runs both); any
other form, a name click would refuse (a directory, an unreadable file) or a value it
would (a --to that is not a number), and shell completion, go to click.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import NamedTuple


class ReplayArgs(NamedTuple):
    file: str
    to: int | None
    as_player: str | None


def replay_args(args: list[str]) -> ReplayArgs | None:
    """Returns the arguments of `replay FILE [--to SEQ] [--as PLAYER]` (options in any order
    after `replay`), or None for anything else, which is click's to parse."""
    if not args or args[0] != "replay":
        return None
    words = iter(args[1:])
    file: str | None = None
    options: dict[str, str] = {}
    for word in words:
        if word in ("--to", "--as"):
            value = next(words, None)
            if value is None or word in options or value.startswith("-"):
                return None
            options[word] = value
        elif word.startswith("-") or file is not None or not word:
            return None
        else:
            file = word
    if file is None or not _click_accepts_file(file):
        return None
    to = None
    if "--to" in options:
        try:
            to = int(options["--to"])  # what click's INT type does with it
        except ValueError:
            return None
    return ReplayArgs(file, to, options.get("--as"))


def _click_accepts_file(file: str) -> bool:
    """Returns True unless click.Path(dir_okay=False) would refuse the name (a directory,
    or a file it cannot read); a missing file is the command's to report."""
    try:
        st = os.stat(file)
    except (OSError, ValueError):
        return True
    return not stat.S_ISDIR(st.st_mode) and os.access(file, os.R_OK)


def _completing() -> bool:
    """Returns True when a shell asks click to complete a word (`_TABLETAPE_COMPLETE=...`)."""
    return any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)


def run() -> None:
    """Runs the command line (the `tabletape` console script and `python -m tabletape`)."""
    quick = None if _completing() else replay_args(sys.argv[1:])
    if quick is None:
        from tabletape.cli.group import main
        main()
        return
    from tabletape.cli import replaying
    from tabletape.tape.errors import TapeError
    try:
        code = replaying.show(*quick)
    except (TapeError, OSError) as e:  # as the click group reports them
        from tabletape.cli.render import show_error, tape_error
        error = tape_error(e)
        show_error(error)
        code = error.exit_code
    except KeyboardInterrupt:  # as click does
        sys.stderr.write("\nAborted!\n")
        code = 1
    sys.exit(code)
