"""The bundled replays are history: recorded as format 1 (before salts), made again so."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

RECORDED_FORMAT = 1  # the format every bundled replay was recorded in (docs/format.md)


def as_recorded(header: Any) -> Any:
    """Returns a new game's header as the bundled replays were written: format 1."""
    return replace(header, format=RECORDED_FORMAT)
