"""`migrate`: the same plays as a new log under other rules (upcast, re-chained, checked).

The source is read under the target version: each game event as that version reads it
(its upcasters fill what the newer rules need), every event judged by it. Where a play
breaks the target rules, nothing is written and the refusal names the first seq and
rule. Otherwise the new log holds the same events (undos, notes and disputes included)
re-chained from a header that names the target version and the source's head, written
through the one door (`tape.files`): never over an existing file, never over the source.
"""

from __future__ import annotations

from typing import Any

import msgspec

from tabletape import engine
from tabletape.engine.versions import changed_between
from tabletape.tape import files
from tabletape.tape import log as tapelog
from tabletape.tape.errors import IllegalEvent, TapeError
from tabletape.tape.events import CORE_EVENTS, Header

CORE = tuple(CORE_EVENTS)  # undone, note, signed: copied as they are


class Migrated(msgspec.Struct):
    """What `migrate` wrote, or why it wrote nothing."""

    source: str
    out: str
    game: str
    recorded: str  # the source's rules version
    target: str  # the version the new log is recorded under
    events: int
    head: str | None  # the new log's head (None: refused)
    source_head: str | None
    refused: IllegalEvent | TapeError | None = None  # the first play the target rules refuse
    # what the changelog says changed in the refusing rule between the two versions
    # ({version: what changed}; empty when the rule did not change)
    rule_changed: dict[str, str] = {}

    def report(self) -> Migration:
        """Returns what was done as `migrate --json` prints it."""
        return Migration(file=self.source, out=self.out if self.head else None, game=self.game,
                         recorded=self.recorded, rules_version=self.target, events=self.events,
                         head=self.head, source_head=self.source_head,
                         refused=self.refused.to_dict() if self.refused is not None else None,
                         rule_changed=self.rule_changed)


class Migration(msgspec.Struct, frozen=True, kw_only=True):
    """`migrate --json`: the source, the new log (None: refused), the versions, the heads,
    and the first play the target rules refuse."""

    file: str
    out: str | None
    game: str
    recorded: str
    rules_version: str
    events: int
    head: str | None
    source_head: str | None
    refused: dict[str, Any] | None
    rule_changed: dict[str, str]  # the refusing rule's changelog entries between the versions


def migrate(source: str, out: str, rules: str | None = None) -> Migrated:
    """Writes `source`'s plays to `out` under `rules` (default: latest); returns what it did.
    Raises UsageError for a target it may not write or a version the game never had."""
    files.check_target(out, reading=(source,), exists=tapelog.NEVER_OVERWRITES)  # before the work
    kept: list[Any] = []

    def keep(j: engine.Judged) -> None:
        ev = j.event
        if j.seq and j.fold is not None and j.before is not None and not isinstance(ev, CORE):
            ev = j.fold.ruleset.upcast(j.before, ev)  # as the target version records it
        kept.append(ev)

    result = engine.replay(source, visit=keep, version=rules or "latest")
    rs, header = result.ruleset, result.header
    assert rs is not None and isinstance(header, Header)  # the reader raises for no header
    target = result.judged_by or rs.version
    done = Migrated(source=source, out=out, game=rs.id, recorded=header.rules_version,
                    target=target, events=result.events, head=None, source_head=result.head)
    problems = result.problems
    if problems:
        done.refused = problems[0]
        done.rule_changed = _changed(rs.changelog, header.rules_version, target,
                                     getattr(problems[0], "rule", None))  # (a bad header: none)
        return done
    new_header = msgspec.structs.replace(header, rules_version=target,
                                         migrated_from=result.head)
    lines, prev = [], None
    for seq, ev in enumerate([new_header, *kept[1:]]):
        body = rs.codec.encode(msgspec.structs.replace(ev, seq=seq, prev=prev))
        lines.append(body + b"\n")
        prev = tapelog.digest(body)
    files.write(out, lines, reading=(source,), exists=tapelog.NEVER_OVERWRITES)
    done.head = prev
    check = engine.replay(out)  # the new log, read back and judged by the version it names
    if not check.ok:
        done.refused = check.problems[0]
    return done


def _changed(changelog: dict[str, dict[str, str]], recorded: str, target: str,
             rule: str | None) -> dict[str, str]:
    """Returns {version: what changed} of `rule` between the recorded and target versions:
    why a play its own version accepted is refused now."""
    between = changed_between(changelog, recorded, target)
    return {v: entries[rule] for v, entries in between.items() if rule in entries}
