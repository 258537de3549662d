"""A ruling redone with the real box's values: `--components FILE` on `explain` and
`validate` judges a log with the given component data instead of its header's, and says
which values differ. The log is only read."""

from __future__ import annotations

from typing import Any

import msgspec

from tabletape import engine
from tabletape.tape.codec import MAX_LINE
from tabletape.tape.errors import UsageError
from tabletape.tape.events import Header, visible
from tabletape.tape.words import agree, counted


class Rejudged(msgspec.Struct, frozen=True):
    """`--json`'s `components`: the file judged with, and each value that differs."""

    file: str
    differs: list[str]


class Whatif:
    """Component data read from `file` to judge a log with, and how it differs from the
    header's: one "Radar Advantage's bonus: 1 → 2" per value.

    It is read when the walk reaches the log's header (the walk calls it with the header:
    `engine.reading.with_components`), so that the log is opened once; `note` and `report`
    say what it found, after the walk."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.data: Any = None
        self.differs: tuple[str, ...] = ()
        self.read = False

    def __call__(self, header: Header) -> Any:
        """Returns the component data to judge the log of `header` with, checked against its
        game's schema (read and compared with the header's once); UsageError when the file
        cannot be read or the data does not fit."""
        if not self.read:
            _, self.data = read_components(header.game, self.file)
            old = msgspec.to_builtins(getattr(header, "components", None))
            self.differs = tuple(differences(old, msgspec.to_builtins(self.data)))
            self.read = True
        return self.data

    def note(self) -> str:
        """Returns the sentence printed above a ruling judged with these values."""
        n = len(self.differs)
        said = (f"{counted(n, 'value')} {agree(n, 'differs', 'differ')} from the header's: "
                + "; ".join(self.differs)) if n else "no value differs from the header's"
        return visible(f"judged with the components in {self.file}, not the log's header "
                       f"({said}); the log is unchanged")

    def report(self) -> Rejudged:
        """Returns what `--json` says of it (`components`)."""
        return Rejudged(self.file, list(self.differs))


def read_components(game: str, file: str) -> tuple[bytes, Any]:
    """Returns the bytes of a components file and their data, checked against `game`'s
    schema; UsageError (naming the file) for an unknown game, a file that cannot be read or
    data that does not fit."""
    rs = engine.get(game)
    try:
        with open(file, "rb") as f:
            raw = f.read(MAX_LINE + 1)
    except OSError as e:
        raise UsageError(f"cannot read components file: {e.strerror}", file=file) from None
    try:
        return raw, msgspec.json.decode(raw, type=rs.Components)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise UsageError(f"components do not fit the {game} schema: {e}", file=file) from None


def differences(old: Any, new: Any, where: str = "") -> list[str]:
    """Returns each value that differs between two component data (plain data), named by the
    entry it belongs to: "Radar Advantage's bonus: 1 → 2"; labels (provenance) aside."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in dict.fromkeys([*old, *new]):
            if k == "provenance":
                continue
            at = f"{where}'s {k}" if where else str(k)
            out += differences(old.get(k), new.get(k), at)
        return out
    if isinstance(old, list | tuple) and isinstance(new, list | tuple) and _named(old) \
            and _named(new):
        mine = {e["name"]: e for e in old}
        theirs = {e["name"]: e for e in new}
        out = []
        for name in dict.fromkeys([*mine, *theirs]):
            if name not in mine or name not in theirs:
                out.append(f"{name}: {'added' if name not in mine else 'left out'}")
            else:
                out += differences(mine[name], theirs[name], name)
        return out
    return [] if old == new else [f"{where}: {_shown(old)} → {_shown(new)}"]


def _named(entries: list[Any] | tuple[Any, ...]) -> bool:
    return all(isinstance(e, dict) and "name" in e for e in entries)


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return "/".join(str(v) for v in value) or "none"
    return "none" if value is None else str(value)
