"""Baselines of an archive check: a check's entries as deterministic JSON, and how a new
check differs from one (`compare`: each changed log's aspects, as fields: what changed,
at which seq, which rules are involved there, which rules changed since the version the
log was recorded under, and a command to look closer).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from tabletape import engine
from tabletape.app.judge import NOT_A_LOG, Entry, decode_counts
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


def baseline_to_update(path: str) -> dict[str, Entry]:
    """Returns the entries of the baseline `--update` will rewrite ({} when there is none
    yet, or it is empty); raises UsageError when the file is not a baseline."""
    if not _baseline_there(path) or os.path.getsize(path) == 0:
        return {}
    return read_baseline(path)


class Aspect(msgspec.Struct, frozen=True, omit_defaults=True):
    """One way a log's judgement changed: where (`seq`), what it was and is, which rules."""

    aspect: str  # broken | verdict | illegal | outcome | legal | state | events | latest
    #              | recorded
    seq: int | None = None  # where it first differs (None: not located, e.g. the final state)
    before: Any = None
    after: Any = None
    rules: list[str] = []  # the rule ids involved there


class Change(msgspec.Struct, frozen=True, omit_defaults=True):
    """How one log's result differs from its baseline (fields, not sentences: `what` words
    them for a person)."""

    log: str
    kind: str  # changed | added | removed
    aspects: list[Aspect] = []  # the break (if any) first, a change of length, then the rest
    first_seq: int | None = None  # the first seq judged differently (None: not located)
    rules_changed: list[str] = []  # the rule ids changed since the log's rules version
    look: str | None = None  # a command line to look closer (explain at first_seq)

    @property
    def what(self) -> list[str]:
        """Returns one sentence per aspect (what the text report and the plugin print)."""
        if self.kind == "added":
            return ["not in the baseline"]
        if self.kind == "removed":
            return ["in the baseline, not in the archive"]
        return [_sentence(a) for a in self.aspects]

    @property
    def broken_at(self) -> Aspect | None:
        """Returns the break (format or chain) where reading now stops, if that changed."""
        a = self.aspects[0] if self.aspects else None
        return a if a is not None and a.aspect == "broken" and a.after is not None else None


def _sentence(a: Aspect) -> str:
    k = a.aspect
    if k == "broken":
        return (f"reading stopped: {a.before or 'no'} -> {a.after or 'no'}"
                + (f" (seq {a.seq})" if a.seq is not None else ""))
    if k == "verdict":
        return f"verdict: {a.before} -> {a.after}"
    if k == "illegal":
        return (f"first illegal: {_illegal_text(a.before)} -> {_illegal_text(a.after)}")
    if k == "outcome":
        return (f"outcome: {_outcome_words(a.before)} -> {_outcome_words(a.after)}"
                + (f" (decided at seq {a.seq})" if a.seq is not None else ""))
    if k == "legal":
        return f"the events legal as seq {a.seq} first differ ({a.before} -> {a.after} of them)"
    if k == "state":
        return "final state differs"
    if k == "events":
        if isinstance(a.before, int) and isinstance(a.after, int) and a.before != a.after:
            how = "shorter" if a.after < a.before else "longer"
            return (f"the log is {how} than its baseline: {a.before} \u2192 {a.after} events "
                    f"(it ends at seq {a.after - 1})")
        return f"events: {a.before} -> {a.after}"
    if k == "latest":
        return f"under the latest rules: {_latest_words(a.before)} -> {_latest_words(a.after)}"
    if k == "recorded":
        return f"recorded as: {a.before} -> {a.after}"
    return f"{k}: {a.before} -> {a.after}"


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


def _version_key(v: str) -> tuple[int | str, ...]:
    return tuple(int(p) if p.isdigit() else p for p in v.split("."))


def _illegal_text(i: Sequence[Any] | None) -> str:
    return "none" if not i else f"seq {i[0]} [{i[1]}]"


def _outcome(e: Entry) -> dict[str, Any] | None:
    return None if e.winners is None else {"winners": e.winners, "scores": e.scores or {}}


def _outcome_words(o: dict[str, Any] | None) -> str:
    if o is None:
        return "not over"
    scores = ", ".join(f"{p} {s}" for p, s in (o.get("scores") or {}).items())
    return f"won by {', '.join(o['winners']) or 'nobody'}" + (f" ({scores})" if scores else "")


def _latest_words(u: dict[str, Any] | None) -> str:
    if u is None:
        return "as under its own version"
    first = u.get("first_illegal")
    return f"{u['verdict']} ({u['version']})" + (f", {_illegal_text(first)}" if first else "")


def _first_count_change(old: str, new: str) -> tuple[int, int | None, int | None] | None:
    """Returns (seq, before, after) of the first seq whose legal-move count differs."""
    a, b = decode_counts(old), decode_counts(new)
    for seq, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return seq, x, y
    return None  # (counts past the shorter log's end: its length differs, `events` says so)


def difference(log: str, old: Entry, new: Entry) -> Change | None:
    """Returns how `new` differs from `old` (the baseline), or None when it does not.

    Every aspect names the first seq where it differs, when it has one; a break of the
    log (format or chain) is always the first aspect: tampering is reported before any
    illegal event found on the way to it.
    """
    if old == new:
        return None
    aspects: list[Aspect] = []
    if (old.error, old.error_seq) != (new.error, new.error_seq):
        seqs = [x for x in (old.error_seq, new.error_seq) if x is not None]
        aspects.append(Aspect("broken", min(seqs) if seqs else None, old.error, new.error))
    broke = new.error is not None and new.error != old.error  # (its events: those before it)
    if old.events != new.events and not broke:  # cut short or grown: said before what follows
        aspects.append(Aspect("events", None, old.events, new.events))
    if old.verdict != new.verdict:
        aspects.append(Aspect("verdict", None, old.verdict, new.verdict))
    if old.illegal != new.illegal:
        was, now = dict(old.illegal), dict(new.illegal)
        seq = min(set(old.illegal) ^ set(new.illegal))[0]
        # Every seq before it was judged alike (the fold is the same).
        aspects.append(Aspect("illegal", seq, old.first_illegal, new.first_illegal,
                              sorted({r for r in (was.get(seq), now.get(seq)) if r})))
    if (old.winners, old.scores) != (new.winners, new.scores):
        ends = [x for x in (old.over_at, new.over_at) if x is not None]
        aspects.append(Aspect("outcome", min(ends) if ends else None, _outcome(old),
                              _outcome(new)))
    if old.moves != new.moves and old.moves and new.moves:  # (none: an older baseline)
        first = _first_count_change(old.moves, new.moves)
        if first is not None:
            seq, before, after = first  # the counts after `seq`: the events that may be seq + 1
            aspects.append(Aspect("legal", seq + 1, before, after))
    if old.state != new.state:
        aspects.append(Aspect("state", None, old.state, new.state))
    if old.latest != new.latest:
        aspects.append(_latest_aspect(old, new))
    if (old.game, old.rules_version) != (new.game, new.rules_version):
        aspects.append(Aspect("recorded", None, f"{old.game} {old.rules_version}",
                              f"{new.game} {new.rules_version}"))
    if (old.verdict == NOT_A_LOG) != (new.verdict == NOT_A_LOG) and not aspects:
        aspects.append(Aspect("verdict", None, old.verdict, new.verdict))
    if not aspects:
        return None  # (only what an older baseline did not measure)
    # a seq past the log's end is where the baseline's log went on, not a judgement of this one
    seqs = [a.seq for a in aspects
            if a.seq is not None and (a.seq < new.events or a.aspect == "broken")]
    # the rules changed since its version are involved only where another version judged
    involved = (any(a.aspect == "latest" for a in aspects)
                or old.judged_by != new.judged_by or new.judged_by not in (None, new.rules_version))
    return Change(log, "changed", aspects, min(seqs) if seqs else None,
                  rules_changed_since(new.game, new.rules_version) if involved else [])


def _under_latest(e: Entry) -> dict[str, Any] | None:
    if e.latest is None:
        return None  # (the same as under its recorded version, or it is the latest)
    out: dict[str, Any] = {"version": e.latest.version, "verdict": e.latest.verdict}
    if e.latest.illegal:
        out["first_illegal"] = list(e.latest.illegal[0])
    return out


def _latest_aspect(old: Entry, new: Entry) -> Aspect:
    """The verdict under the latest rules changed (the log's own version judged alike)."""
    was = dict(old.latest.illegal if old.latest else old.illegal)
    now = dict(new.latest.illegal if new.latest else new.illegal)
    differ = set(was.items()) ^ set(now.items())
    seq = min(differ)[0] if differ else None
    return Aspect("latest", seq, _under_latest(old), _under_latest(new),
                  sorted(new.latest.rules_changed if new.latest else
                         old.latest.rules_changed if old.latest else []))


def look_closer(change: Change, path: str, rules: str | None = None) -> str | None:
    """Returns a command line that works on the log as it is now: `explain` at its first
    differing seq; `validate` where it breaks (explain stops there); `replay` (its final
    state and outcome) when no seq of the log is located (e.g. a log cut short, or only
    its final state differs); None for a log added or removed."""
    import shlex
    if change.kind != "changed":
        return None
    rest = ["--rules", shlex.quote(rules)] if rules else []
    if change.broken_at is not None:
        return " ".join(["tabletape", "validate", *rest, shlex.quote(path)])
    if change.first_seq is None:
        return " ".join(["tabletape", "replay", *rest, shlex.quote(path)])
    return " ".join(["tabletape", "explain", shlex.quote(path), str(change.first_seq), *rest])


def compare(baseline: dict[str, Entry], entries: dict[str, Entry], root: str | None = None,
            rules: str | None = None) -> list[Change]:
    """Returns every log whose result differs from the baseline, and those added or removed.

    With `root` (where the names start), each change carries a command to look closer.
    """
    out: list[Change] = []
    for log in sorted({*baseline, *entries}):
        if log not in baseline:
            out.append(Change(log, "added"))
        elif log not in entries:
            out.append(Change(log, "removed"))
        else:
            c = difference(log, baseline[log], entries[log])
            if c is not None and root is not None:
                path = os.path.relpath(os.path.join(root, log))
                c = msgspec.structs.replace(c, look=look_closer(c, path, rules))
            if c is not None:
                out.append(c)
    return out

