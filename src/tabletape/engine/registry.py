"""The registry: which games there are, and which one a log's header names."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
import sys
import threading
from collections import OrderedDict
from typing import Any

import msgspec

from tabletape.engine.protocol import Ruleset
from tabletape.tape.codec import Codec
from tabletape.tape.errors import LogFormatError, UnknownGame
from tabletape.tape.events import FORMATS, Header

# A game is one package in the `tabletape.games` namespace, its id the package name with
# dashes (cards_of_war -> cards-of-war). The engine names the namespace, never a game, and
# finds the packages without importing them (start-up stays quick); a fifth game needs
# no edit here. `register` adds a game from anywhere else (a test's toy game, a plugin).
GAMES_PACKAGE = "tabletape.games"


def _discover() -> dict[str, str]:
    spec = importlib.util.find_spec(GAMES_PACKAGE)
    where = spec.submodule_search_locations if spec else None
    return {m.name.replace("_", "-"): f"{GAMES_PACKAGE}.{m.name}"
            for m in pkgutil.iter_modules(where or []) if m.ispkg}


GAMES: dict[str, str] = _discover()


def register(game: str, module: str) -> None:
    """Makes the game whose module (holding `RULESET`) is `module` known as `game`."""
    GAMES[game] = module


def get(game: str) -> Ruleset[Any, Any, Any]:
    """Returns the ruleset registered under `game`, or raises UnknownGame."""
    try:
        module = GAMES[game]
    except KeyError:
        import difflib
        known = ", ".join(sorted(GAMES))
        close = difflib.get_close_matches(game, sorted(GAMES), n=2, cutoff=0.6)
        hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
        raise UnknownGame(f"unknown game {game!r}{hint}; known games: {known}") from None
    # imported already (its RULESET made: a module another thread is importing has none
    # yet, and import_module waits for it)
    ruleset = getattr(sys.modules.get(module), "RULESET", None)
    made: Ruleset[Any, Any, Any] = (ruleset if ruleset is not None
                                     else importlib.import_module(module).RULESET)
    return made


def check_header(rs: Ruleset[Any, Any, Any], header: Header, file: str) -> None:
    """Raises LogFormatError at line 1 when no `new` would have written this header."""
    problem = header_problem(rs, header)
    if problem:
        raise LogFormatError(f"bad header: {problem}", file=file, line=1, offset=0)


# `header_problem` of the headers read lately: most logs of an archive play one box with
# the same players and options, and the codec hands them the very same decoded components
# (`Codec.decode_header`), so a header's problem is worked out once per ruleset, header
# fields (all but the components) and components object (kept with the answer: its id
# stays its own). tests/engine/test_bind_cache.py pins it to `rs.header_problem`.
PROBLEMS_KEPT = 64  # 0: every header checked afresh
_problems: OrderedDict[tuple[Any, ...], tuple[Any, str | None]] = OrderedDict()
_problems_lock = threading.Lock()


def header_problem(rs: Ruleset[Any, Any, Any], header: Header) -> str | None:
    """Returns `rs.header_problem(header)`, kept for the next header with the same fields
    and the very same components object."""
    comp = getattr(header, "components", None)
    try:
        key = (rs, type(header), id(comp), *(getattr(header, f) for f in header.__struct_fields__
                                             if f != "components"))
        hash(key)
    except TypeError:  # a field that cannot be a key (a list): checked each time
        return rs.header_problem(header)
    if PROBLEMS_KEPT <= 0:
        return rs.header_problem(header)
    with _problems_lock:
        hit = _problems.get(key)
        if hit is not None and hit[0] is comp:
            _problems.move_to_end(key)
            return hit[1]
    problem = rs.header_problem(header)
    with _problems_lock:
        _problems[key] = (comp, problem)
        while len(_problems) > PROBLEMS_KEPT:
            _problems.popitem(last=False)
    return problem


def all_games() -> list[Ruleset[Any, Any, Any]]:
    return [get(g) for g in sorted(GAMES)]


class _HeaderProbe(msgspec.Struct):
    type: str = ""
    game: str = ""
    format: int = 0


def codec_for(body: bytes, file: str) -> Codec:
    """Returns the codec of the game named in a header line (line 1 of every log)."""
    return ruleset_for(body, file).codec


@functools.cache
def _header_codec() -> Codec:
    """Returns the codec of a bare header, which names the precise error in an unreadable one."""
    return Codec(Header)


def ruleset_for(body: bytes, file: str) -> Ruleset[Any, Any, Any]:
    """Returns the ruleset a header line names, or raises LogFormatError / UnknownGame."""
    try:
        probe = msgspec.json.decode(body, type=_HeaderProbe)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        _header_codec().decode(body, file, 1, 0)  # raises the precise LogFormatError
        raise LogFormatError("unreadable header", file=file, line=1, offset=0) from None
    if probe.type != "game_started":
        raise LogFormatError(f"line 1 must be the game_started header, found {probe.type!r}",
                             file=file, line=1, offset=0, field="$.type")
    if probe.format not in FORMATS:
        raise LogFormatError(f"log format {probe.format} is not supported (this tabletape "
                             f"reads formats {FORMATS[0]} to {FORMATS[-1]})", file=file, line=1, offset=0,
                             field="$.format")
    try:
        return get(probe.game)
    except UnknownGame as e:
        e.file, e.line, e.offset, e.field = file, 1, 0, "$.game"
        raise


