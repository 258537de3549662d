"""A per-user secret that seals tabletape's derived files, so that no one else can forge them.

A derived file (a log's checkpoint index, its custody record) vouches for bytes of the
log that a reader then skips. A checksum inside the file proves nothing: whoever edits
the file can recompute it. So each is sealed with a keyed hash (BLAKE2b with a key, a
MAC) under a key that only this user's tabletape holds: 32 random bytes in
`derived.key` in the cache folder ($TABLETAPE_CACHE, else $XDG_CACHE_HOME/tabletape,
else ~/.cache/tabletape), made on first use, readable by its owner only. A file sealed
under another key (another user's, another machine's, a key since deleted), or edited
by anything but tabletape, does not verify and is not used: the log is read from line
1, as if the file were missing. When no key can be kept (no writable cache folder, or a
key file others could read or write), nothing is sealed and nothing is trusted: derived
files then cost speed, never truth.
"""

from __future__ import annotations

import hashlib
import os
import stat

KEY_NAME = "derived.key"
KEY_SIZE = 32
TAG_SIZE = 32

_keys: dict[str, bytes | None] = {}  # per key file: read once per process


def key_path() -> str:
    """Returns where this user's key lives: in tabletape's cache folder."""
    folder = os.environ.get("TABLETAPE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "tabletape")
    return os.path.join(folder, KEY_NAME)


def key() -> bytes | None:
    """Returns this user's key, made on first use; None when none can be kept safely."""
    path = key_path()
    if path not in _keys:
        _keys[path] = _read(path) or _make(path)
    return _keys[path]


def _read(path: str) -> bytes | None:
    """Returns the key in `path` when it is this user's, and no one else may read or write it."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o077:
            return None
        data = os.read(fd, KEY_SIZE + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == KEY_SIZE else None


def _make(path: str) -> bytes | None:
    """Writes a fresh key through the one door (whole or not at all, never over a file);
    returns it, or the one another process wrote there first; None when it cannot."""
    if os.path.lexists(path):
        return None  # a key file that does not read as ours: never replaced, never trusted
    import secrets

    from tabletape.tape import files
    from tabletape.tape.errors import TapeError
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        files.write(path, secrets.token_bytes(KEY_SIZE), mode=0o600)
    except (OSError, TapeError):
        pass  # another process made it first (then use theirs), or it cannot be made
    return _read(path)


def tag(*parts: bytes) -> bytes | None:
    """Returns the seal of `parts` (each length-prefixed: no two lists of parts share one),
    or None when there is no key."""
    k = key()
    if k is None:
        return None
    h = hashlib.blake2b(key=k, digest_size=TAG_SIZE, person=b"tabletape-seal")
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.digest()


def holds(seal: bytes, *parts: bytes) -> bool:
    """Returns True when `seal` is this user's seal of `parts`.

    A plain comparison: hmac.compare_digest would cost its import (3 ms) on every
    `replay --to`, against a timing attack on a local process no one else can time.
    """
    mine = tag(*parts)
    return mine is not None and mine == seal
