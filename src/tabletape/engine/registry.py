"""The registry: which games there are, and which one a log's header names."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil

import msgspec

from tabletape.engine.protocol import Ruleset
from tabletape.tape.codec import Codec
from tabletape.tape.errors import LogFormatError, UnknownGame
from tabletape.tape.events import FORMAT, Header

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


def get(game: str) -> Ruleset:
    """Returns the ruleset registered under `game`, or raises UnknownGame."""
    try:
        module = GAMES[game]
    except KeyError:
        import difflib
        known = ", ".join(sorted(GAMES))
        close = difflib.get_close_matches(game, sorted(GAMES), n=2, cutoff=0.6)
        hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
        raise UnknownGame(f"unknown game {game!r}{hint}; known games: {known}") from None
    return importlib.import_module(module).RULESET


def check_header(rs: Ruleset, header: Header, file: str) -> None:
    """Raises LogFormatError at line 1 when no `new` would have written this header."""
    problem = rs.header_problem(header)
    if problem:
        raise LogFormatError(f"bad header: {problem}", file=file, line=1, offset=0)


def all_games() -> list[Ruleset]:
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


def ruleset_for(body: bytes, file: str) -> Ruleset:
    """Returns the ruleset a header line names, or raises LogFormatError / UnknownGame."""
    try:
        probe = msgspec.json.decode(body, type=_HeaderProbe)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        _header_codec().decode(body, file, 1, 0)  # raises the precise LogFormatError
        raise LogFormatError("unreadable header", file=file, line=1, offset=0) from None
    if probe.type != "game_started":
        raise LogFormatError(f"line 1 must be the game_started header, found {probe.type!r}",
                             file=file, line=1, offset=0, field="$.type")
    if probe.format != FORMAT:
        raise LogFormatError(f"log format {probe.format} is not supported (this tabletape "
                             f"reads format {FORMAT})", file=file, line=1, offset=0,
                             field="$.format")
    try:
        return get(probe.game)
    except UnknownGame as e:
        e.file, e.line, e.offset, e.field = file, 1, 0, "$.game"
        raise


