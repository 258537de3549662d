"""The JSONL log, by the names its callers use: one import for the app, the CLI and tests.

The log lives in five modules of the tape layer, each named for what it holds:
codec (one line: decode, canonical encode, hash), reader (streaming read, canonical
check, hash chain, the tail), writer (create, append under the lock), repair (what an
interrupted write or an editor did) and custody (what tabletape knows of bytes it has
not read). This module only re-exports them. The engine, on `replay`'s fast path,
imports codec, reader and custody directly, so reading never loads the writer or repair.

Nothing here knows a game: the caller passes `codec_for`, which turns the raw header
line into the `Codec` (decoder and encoder) for that game's events.
"""

from __future__ import annotations

from tabletape.tape.codec import BOM, MAX_LINE, Codec, depth, digest
from tabletape.tape.custody import (
    CUSTODY_SUFFIX,
    Custody,
    Stamp,
    Watch,
    custody_path,
    read_custody,
    unchanged,
    vouch,
    watch,
)
from tabletape.tape.events import MAX_EVENTS
from tabletape.tape.reader import Record, Resume, Tail, open_log, read_records, read_tail
from tabletape.tape.repair import Repaired, repair
from tabletape.tape.writer import NEVER_OVERWRITES, append, check_writable, create

__all__ = [
    "BOM", "CUSTODY_SUFFIX", "MAX_EVENTS", "MAX_LINE", "NEVER_OVERWRITES",
    "Codec", "Custody", "Record", "Repaired", "Resume", "Stamp", "Tail", "Watch",
    "append", "check_writable", "create", "custody_path", "depth", "digest", "open_log",
    "read_custody", "read_records", "read_tail", "repair", "unchanged",
    "vouch", "watch",
]
