"""Ed25519 keys and signed heads: what is signed, key files, and checking a log's signatures.

The only module that imports `cryptography`, and only when a key is made, read or
checked, so that commands which never sign (append above all) start without it.

What a `signed` event at seq S signs is `message(prev)`: the ASCII bytes
``tabletape-head-v1:`` followed by the 64 lowercase hex digits of its own `prev`,
the SHA-256 of line S-1. That head commits to every line from 0 to S-1.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from dataclasses import dataclass, field
from typing import Any

from tabletape.tape import files
from tabletape.tape.errors import UsageError
from tabletape.tape.events import Event, Signed

DOMAIN = b"tabletape-head-v1:"  # so a tabletape signature can never pass for any other message
KEY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")  # a player name that is a file name
PRIVATE, PUBLIC = ".key", ".pub"
MAX_KEY_FILE = 1 << 16  # bytes read from a key file; real ones are a few hundred

VALID, INVALID, UNKNOWN = "valid", "invalid", "unknown key"


def message(head: str) -> bytes:
    """Returns the bytes a signature over `head` (a line's SHA-256, hex) signs."""
    return DOMAIN + head.encode("ascii")


def check_name(name: str) -> str:
    """Returns `name` if it can name a key file, or raises UsageError."""
    if not KEY_NAME.match(name):
        raise UsageError(f"{name!r} cannot name a key: use 1-64 letters, digits, '_', '.', '@' "
                         "or '-', starting with a letter or digit")
    return name


# -- key files -----------------------------------------------------------------------------
def keygen(name: str, directory: str) -> tuple[str, str, str]:
    """Writes NAME.key (PKCS#8 PEM, mode 0600) and NAME.pub (OpenSSH); returns paths, fingerprint.

    Refuses, writing nothing, when either file exists.
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    check_name(name)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot make the key directory {directory}: {e.strerror}",
                         file=directory) from None
    key_path = os.path.normpath(os.path.join(directory, name + PRIVATE))
    pub_path = os.path.normpath(os.path.join(directory, name + PUBLIC))
    for path in (key_path, pub_path):
        if os.path.lexists(path):
            raise UsageError(f"{path} already exists; tabletape never overwrites a key",
                             file=path)
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    public = key.public_key().public_bytes(serialization.Encoding.OpenSSH,
                                           serialization.PublicFormat.OpenSSH)
    _create(key_path, private, 0o600)
    try:
        _create(pub_path, public + f" {name}\n".encode(), 0o644)
    except UsageError:
        os.unlink(key_path)  # ours, made a moment ago: leave no half pair behind
        raise
    return key_path, pub_path, fingerprint(key.public_key())


def _create(path: str, data: bytes, mode: int) -> None:
    """Writes a new file with exactly `mode` (the umask does not apply); never overwrites."""
    files.write(path, data, mode=mode, exists="tabletape never overwrites a key")


def _read_key_file(path: str, what: str) -> bytes:
    """Returns a key file's bytes, or raises UsageError naming the file."""
    try:
        with open(path, "rb") as f:
            return f.read(MAX_KEY_FILE)
    except FileNotFoundError:
        raise UsageError(f"no such {what} file: {path}", file=path) from None
    except IsADirectoryError:
        raise UsageError(f"{path} is a directory, not a {what} file", file=path) from None
    except OSError as e:
        raise UsageError(f"cannot read {what} file {path}: {e.strerror}", file=path) from None


def load_private(path: str) -> Any:
    """Returns the Ed25519 private key in a PEM (PKCS#8) or OpenSSH file; UsageError if not."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    data = _read_key_file(path, "key")
    key: Any
    try:
        if b"OPENSSH PRIVATE KEY" in data:
            key = serialization.load_ssh_private_key(data, password=None)
        else:
            key = serialization.load_pem_private_key(data, password=None)
    except TypeError:  # cryptography's way of saying a password is needed
        raise UsageError(f"{path} is encrypted; tabletape reads unencrypted keys only",
                         file=path) from None
    except (ValueError, UnicodeDecodeError):
        raise UsageError(f"{path} is not a private key (expected an Ed25519 key in PEM "
                         "PKCS#8 or OpenSSH form, as `tabletape keygen` writes)",
                         file=path) from None
    except UnsupportedAlgorithm as e:
        raise UsageError(f"{path} holds a key tabletape cannot use: {e}", file=path) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise UsageError(f"{path} holds a {type(key).__name__.removeprefix('_')} key; "
                         "tabletape signs with Ed25519 only", file=path)
    return key


def load_public(path: str) -> Any:
    """Returns the Ed25519 public key in an OpenSSH line or PEM file; UsageError if not."""
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    data = _read_key_file(path, "public key")
    try:
        if data.lstrip().startswith(b"-----"):
            key = serialization.load_pem_public_key(data)
        else:
            key = serialization.load_ssh_public_key(data.strip())
    except (ValueError, UnicodeDecodeError):
        raise UsageError(f"{path} is not a public key (expected an Ed25519 key as one "
                         "OpenSSH line or PEM, as `tabletape keygen` writes)", file=path) from None
    except UnsupportedAlgorithm as e:
        raise UsageError(f"{path} holds a public key tabletape cannot use: {e}",
                         file=path) from None
    if not isinstance(key, Ed25519PublicKey):
        raise UsageError(f"{path} is not an Ed25519 public key", file=path)
    return key


def load_keys(directory: str) -> dict[str, Any]:
    """Returns the public keys in a directory by player name (NAME.pub holds NAME's key)."""
    try:
        names = sorted(os.listdir(directory))
    except FileNotFoundError:
        raise UsageError(f"no such keys directory: {directory}", file=directory) from None
    except NotADirectoryError:
        raise UsageError(f"--keys takes a directory of NAME.pub files: {directory}",
                         file=directory) from None
    except OSError as e:
        raise UsageError(f"cannot read {directory}: {e.strerror}", file=directory) from None
    return {n[: -len(PUBLIC)]: load_public(os.path.join(directory, n))
            for n in names if n.endswith(PUBLIC)}


def fingerprint(public_key: Any) -> str:
    """Returns the key's OpenSSH fingerprint (SHA256:…), for players to compare aloud."""
    from cryptography.hazmat.primitives import serialization

    line = public_key.public_bytes(serialization.Encoding.OpenSSH,
                                   serialization.PublicFormat.OpenSSH)
    blob = base64.b64decode(line.split()[1])
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


# -- signing and checking ------------------------------------------------------------------
def sign(key: Any, head: str, player: str, at: str | None = None) -> Signed:
    """Returns the `signed` event by `player` over `head` (the SHA-256 of the log's last line)."""
    return Signed(player=player, signature=key.sign(message(head)).hex(), at=at)


def is_valid(public_key: Any, event: Signed) -> bool:
    """Returns True when the event's signature is `public_key`'s over the event's own prev."""
    from cryptography.exceptions import InvalidSignature

    if event.prev is None:
        return False
    try:
        public_key.verify(bytes.fromhex(event.signature), message(event.prev))
    except InvalidSignature:
        return False
    return True


@dataclass
class Seal:
    """One signature found in a log: who, where, over which head, and whether it holds."""

    seq: int
    player: str
    head: str
    status: str  # valid | invalid | unknown key


@dataclass
class Report:
    """Every signature in a log, checked against `keys`, and what each player has not signed."""

    keys: dict[str, Any]
    seals: list[Seal] = field(default_factory=list)
    last_seq: int = -1

    def feed(self, seq: int, event: Event) -> None:
        """Takes the next event of the log; checks it if it is a `signed` event."""
        self.last_seq = seq
        if not isinstance(event, Signed):
            return
        key = self.keys.get(event.player)
        status = UNKNOWN if key is None else VALID if is_valid(key, event) else INVALID
        self.seals.append(Seal(seq, event.player, event.prev or "", status))

    @property
    def ok(self) -> bool:
        return all(s.status == VALID for s in self.seals)

    def signers(self) -> list[str]:
        """Returns everyone who signed, in order of their first signature."""
        return list(dict.fromkeys(s.player for s in self.seals))

    def signed_through(self, player: str) -> int | None:
        """Returns the last seq `player`'s valid signatures cover, or None."""
        covered = [s.seq - 1 for s in self.seals if s.player == player and s.status == VALID]
        return max(covered, default=None)

    def unsigned(self, player: str) -> tuple[int, int] | None:
        """Returns the first and last seq after `player`'s last valid signature, or None."""
        through = self.signed_through(player)
        first = 0 if through is None else through + 2  # the `signed` line is the player's own
        return (first, self.last_seq) if first <= self.last_seq else None
