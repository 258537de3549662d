"""Baselines of an archive check: a check's entries as deterministic JSON, and how a new
check differs from one (`compare`: what changed in each log, from which seq, and which
rules changed since the version the log was recorded under).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from tabletape import engine
from tabletape.app.judge import BLOCK, Entry
from tabletape.tape import files
from tabletape.tape.errors import TapeError, UsageError

BASELINE_FORMAT = 1


def write_baseline(path: str, entries: dict[str, Entry], reading: Iterable[str] = ()) -> None:
    """Writes a baseline manifest: deterministic JSON, keys sorted, one log per line (over
    the old one, never over a log in `reading`)."""
    enc = msgspec.json.Encoder(order="sorted")
    lines = [f"  {enc.encode(k).decode()}: {enc.encode(entries[k]).decode()}"
             for k in sorted(entries)]
    text = (f'{{\n "format": {BASELINE_FORMAT},\n "logs": {{\n' + ",\n".join(lines)
            + ("\n" if lines else "") + " }\n}\n")
    old = _baseline_there(path)
    files.write(path, text.encode(), force=old, reading=reading,
                exists="it appeared while the baseline was written; nothing was replaced")


_BASELINE_START = b'{\n "format": '  # how write_baseline begins every baseline


def _baseline_there(path: str) -> bool:
    """Returns True when `path` holds a baseline or nothing (to replace), False when there is
    no file; raises UsageError for any other file: --update replaces a baseline, never a log."""
    try:
        with open(path, "rb") as f:
            start = f.read(len(_BASELINE_START))
    except FileNotFoundError:
        return False
    except OSError as e:
        raise UsageError(f"cannot read the baseline: {e.strerror}", file=path) from None
    if start not in (b"", _BASELINE_START):  # (an empty file holds nothing to lose)
        raise UsageError(f"{path} is not a baseline manifest; --update replaces only a "
                         "baseline; nothing was written", file=path)
    return True


class _Baseline(msgspec.Struct):
    format: int
    logs: dict[str, Entry]


def read_baseline(path: str) -> dict[str, Entry]:
    """Returns a baseline's entries by log name; raises UsageError when it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = msgspec.json.decode(f.read(), type=_Baseline)
    except OSError as e:
        raise UsageError(f"cannot read the baseline: {e.strerror}", file=path) from None
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise UsageError(f"not a baseline manifest: {e}", file=path) from None
    if data.format != BASELINE_FORMAT:
        raise UsageError(f"baseline format {data.format} is not supported", file=path)
    return data.logs


class Change(msgspec.Struct, frozen=True):
    """How one log's result differs from its baseline."""

    log: str
    kind: str  # changed | added | removed
    what: list[str]  # one sentence per aspect that changed
    first_seq: int | None = None  # the first seq judged differently (legal or not; None: none)
    rules_changed: list[str] = []  # the rule ids changed since the log's rules version


def rules_changed_since(game: str | None, version: str | None) -> list[str]:
    """Returns the ids of the rules a game's changelog lists after `version` (sorted)."""
    if game is None or version is None:
        return []
    try:
        rs = engine.get(game)
    except TapeError:
        return []
    ids: set[str] = set()
    for v, rules in rs.changelog.items():
        if _version_key(v) > _version_key(version):
            ids.update(rules)
    return sorted(ids)


def _version_key(v: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in v.split("."))


def _illegal_text(i: tuple[int, str] | None) -> str:
    return "none" if i is None else f"seq {i[0]} [{i[1]}]"


def _outcome_text(e: Entry) -> str:
    if e.winners is None:
        return "not over"
    scores = ", ".join(f"{p} {s}" for p, s in (e.scores or {}).items())
    return f"won by {', '.join(e.winners) or 'nobody'}" + (f" ({scores})" if scores else "")


def difference(log: str, old: Entry, new: Entry) -> Change | None:
    """Returns how `new` differs from `old` (the baseline), or None when it does not."""
    if old == new:
        return None
    what: list[str] = []
    firsts: list[int] = []
    if old.verdict != new.verdict:
        what.append(f"verdict: {old.verdict} -> {new.verdict}")
    if old.illegal != new.illegal:
        what.append(f"first illegal: {_illegal_text(old.first_illegal)} -> "
                    f"{_illegal_text(new.first_illegal)}")
        # Every seq before the first that differs was judged alike (the fold is the same).
        firsts.append(min(set(old.illegal) ^ set(new.illegal))[0])
    if (old.error, old.error_seq) != (new.error, new.error_seq):
        what.append(f"reading stopped: {old.error or 'no'} -> {new.error or 'no'}")
        firsts += [s for s in (old.error_seq, new.error_seq) if s is not None]
    if (old.winners, old.scores) != (new.winners, new.scores):
        what.append(f"outcome: {_outcome_text(old)} -> {_outcome_text(new)}")
    if old.legal != new.legal:
        block = next((i for i, (a, b) in enumerate(zip(old.legal, new.legal, strict=False)) if a != b),
                     min(len(old.legal), len(new.legal)))
        what.append(f"legal next events first differ in seqs {block * BLOCK}-"
                    f"{(block + 1) * BLOCK - 1}")
    if old.state != new.state:
        what.append("final state differs")
    if old.events != new.events:
        what.append(f"events: {old.events} -> {new.events}")
    if (old.game, old.rules_version) != (new.game, new.rules_version):
        what.append(f"recorded as: {old.game} {old.rules_version} -> "
                    f"{new.game} {new.rules_version}")
    return Change(log, "changed", what, min(firsts) if firsts else None,
                  rules_changed_since(new.game, new.rules_version))


def compare(baseline: dict[str, Entry], entries: dict[str, Entry]) -> list[Change]:
    """Returns every log whose result differs from the baseline, and those added or removed."""
    out: list[Change] = []
    for log in sorted({*baseline, *entries}):
        if log not in baseline:
            out.append(Change(log, "added", ["not in the baseline"]))
        elif log not in entries:
            out.append(Change(log, "removed", ["in the baseline, not in the archive"]))
        else:
            c = difference(log, baseline[log], entries[log])
            if c is not None:
                out.append(c)
    return out
