"""What the commands that read a log find: validate, verify, replay, explain, diff.

Each use case returns a frozen msgspec Struct whose fields are the command's `--json`
shape, in its order (`msgspec.to_builtins` of it is the document); the command line
renders its text from the same result. Nothing here prints.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec
from msgspec import UNSET, Struct, UnsetType

from tabletape import engine
from tabletape.app.whatif import Rejudged, Whatif
from tabletape.engine.fold import Ruling
from tabletape.engine.protocol import Decision, Outcome, Rule
from tabletape.engine.provenance import Derivation
from tabletape.tape.errors import ChainError, TapeError, TornTail, UsageError
from tabletape.tape.events import Event

Problem = dict[str, Any]  # a TapeError as plain data (`TapeError.to_dict`)


class RulesVersion(Struct, frozen=True):
    """The rules version a log was recorded under, and the one that judged it."""

    recorded: str | None
    judged_by: str | None


def rules_version(result: engine.Replay) -> RulesVersion:
    """Returns which rules a log was recorded under and which judged it."""
    return RulesVersion(getattr(result.header, "rules_version", None), result.judged_by)


def problems(errors: list[TapeError]) -> list[Problem]:
    return [e.to_dict() for e in errors]


def state_data(state: Any) -> Any:
    """Returns a state as plain data for JSON, without the header's component data."""
    data = msgspec.to_builtins(state)
    if isinstance(data, dict):
        data.pop("components", None)
    return data


def logs_only(files: tuple[str, ...]) -> tuple[str, ...]:
    """Returns the files that are not checkpoint indexes (a glob over a folder may catch them)."""
    from tabletape.engine import index  # (log and explain read every line: no index loaded)
    logs = tuple(f for f in files if not index.is_index(f))
    if not logs:
        raise UsageError(f"{files[0]} is a checkpoint index, not a log; name the log itself",
                         file=files[0])
    return logs


# -- validate ------------------------------------------------------------------------------

class Corrected(Struct, frozen=True):
    """An illegal event that a later `undone` retracted."""

    seq: int
    rule: str
    undone_at: int


class SeatFinding(Struct, frozen=True):
    """What the seats find in a log (engine.seats), which changes no verdict: an event written
    by a player who does not own it, a secret line of a format-2 log without its salt."""

    seq: int
    rule: str
    reason: str


def seat_findings(result: engine.Replay) -> list[SeatFinding]:
    """Returns the seats' findings of a replayed log, in seq order."""
    fold = result.fold
    if fold is None:
        return []
    return [SeatFinding(seq, v.rule, v.reason) for seq, v in sorted(fold.seat_findings.items())]


class Validation(Struct, frozen=True, kw_only=True):
    """`validate --json`: one log's verdict (fields after `problems` only when it folded)."""

    file: str
    game: str | None
    events: int
    head: str | None
    valid: bool
    rules_version: RulesVersion
    problems: list[Problem]
    outcome: Outcome | None | UnsetType = UNSET
    corrected: list[Corrected] | UnsetType = UNSET
    not_judged: int | UnsetType = UNSET
    disputes: list[Ruling] | UnsetType = UNSET
    seats: list[SeatFinding] | UnsetType = UNSET  # only when there are some
    signatures: int = 0
    signatures_checked: bool = False
    components: Rejudged | UnsetType = UNSET  # judged with other component data


def judged(path: str, *, keep_going: bool, single: bool, rules: str | None = None,
           components: Whatif | None = None) -> engine.Replay:
    """Returns a log judged to its end (past illegal events with `keep_going`) by the rules
    version `rules` (None: the recorded one), with the component data of `components`
    instead of the header's when given; a log that cannot be opened is a finding when it
    is one of several, an error when it is alone."""
    try:
        return (engine.judge_all(path, rules, components) if keep_going
                else engine.replay(path, version=rules, components=components))
    except UsageError as e:
        if single:
            raise
        return engine.Replay(path, error=e)


def signatures(result: engine.Replay) -> int:
    """Returns the `signed` events a replay read (not checked: that is `verify --keys`)."""
    return len(result.fold.signed) if result.fold is not None else 0


def validation(result: engine.Replay, components: Whatif | None = None) -> Validation:
    """Returns a judged log's findings (`validate --json`); `components`: judged with them."""
    fold, rs = result.fold, result.ruleset
    more: dict[str, Any] = {}
    if fold is not None and rs is not None:
        more = {"outcome": rs.outcome(fold.state),
                "corrected": [Corrected(s, e.rule, fold.retracted[s])
                              for s, e in fold.corrected.items()],
                "not_judged": len(fold.unjudged), "disputes": list(fold.disputes)}
        if fold.seat_findings:
            more["seats"] = seat_findings(result)
    return Validation(file=result.file, game=rs.id if rs else None, events=result.events,
                      head=result.tail.head if result.tail else None, valid=result.ok,
                      rules_version=rules_version(result), problems=problems(result.problems),
                      signatures=signatures(result),
                      components=components.report() if components else UNSET, **more)


# -- verify --------------------------------------------------------------------------------

class Parent(Struct, frozen=True):
    """`verify --parent`: the log a branch was made from, and how far they share lines."""

    file: str
    shared_to: int | None
    head: str | None


class Seal(Struct, frozen=True):
    seq: int
    player: str
    head: str
    covers: tuple[int, int]
    status: str


class Gap(Struct, frozen=True):
    """Seqs `from`..`to` (`events` of them) that a player has not signed."""

    first: int = msgspec.field(name="from")
    to: int
    events: int


class Signer(Struct, frozen=True):
    player: str
    signed_through: int | None
    unsigned: Gap | None


class Verification(Struct, frozen=True, kw_only=True):
    """`verify --json`: the chain, with `parent` (--parent) and the signatures (--keys)."""

    file: str
    events: int
    head: str | None
    parent: Parent | UnsetType = UNSET
    ok: bool
    torn: bool
    error: Problem | None
    signatures: list[Seal] | UnsetType = UNSET
    players: list[Signer] | UnsetType = UNSET
    keys: list[str] | UnsetType = UNSET
    signatures_ok: bool | UnsetType = UNSET


class Verified(NamedTuple):
    """What `verify` found: the report, and what its text says beyond it."""

    report: Verification
    error: TapeError | None  # the log's own, or why --parent was not confirmed
    own_error: TapeError | None  # the log's own
    tail_seq: int | None
    signed: Any  # signing.Report with --keys, else None
    header: Any


def signers(report: Any, header: Any) -> list[Signer]:
    """Returns the header's players, then anyone else who signed, with what they signed."""
    seats = list(header.players) if header is not None else []
    rows = []
    for p in seats + [p for p in report.signers() if p not in seats]:
        gap = report.unsigned(p)
        rows.append(Signer(p, report.signed_through(p),
                           None if gap is None else Gap(gap[0], gap[1], gap[1] - gap[0] + 1)))
    return rows


def verify(file: str, *, expect_head: str | None = None, keys_dir: str | None = None,
           parent: str | None = None) -> Verified:
    """Checks a log's format and hash chain (no rules), its head against the agreed one,
    its signatures against the keys in `keys_dir`, and that it is a branch of `parent`."""
    logs_only((file,))
    signed = None
    if keys_dir is not None:
        from tabletape.tape import signing
        signed = signing.Report(signing.load_keys(keys_dir))
    result = engine.read_chain(file, visit=(lambda j: signed.feed(j.seq, j.event))
                               if signed is not None else None)
    tail = result.tail
    head = tail.head if tail else None
    if expect_head and result.error is None and head and not head.startswith(expect_head):
        result.error = ChainError(f"the head is {head}, not the agreed {expect_head}: the log "
                                  "was changed or extended since", file=file,
                                  line=result.events, seq=result.events - 1)
    own_error = result.error  # the log's own; the rest is what --parent found
    more: dict[str, Any] = {}
    if parent is not None:
        from tabletape.app.branch import shared
        logs_only((parent,))
        broken = engine.read_chain(parent).error  # a broken parent certifies nothing
        common = shared(parent, file) if broken is None else None
        if broken is not None and result.error is None:
            result.error = ChainError(f"not confirmed as a branch of {parent}, which is broken: "
                                      f"{broken}", file=file)
        elif common is None and result.error is None:
            result.error = ChainError(f"not a branch of {parent}: the two logs differ from "
                                      "their first line", file=file, line=1, seq=0)
        more["parent"] = Parent(parent, common.seq if common else None,
                                common.head if common else None)
    if signed is not None:
        more |= {"signatures": [Seal(s.seq, s.player, s.head, (0, s.seq - 1), s.status)
                                for s in signed.seals],
                 "players": signers(signed, result.header), "keys": sorted(signed.keys),
                 "signatures_ok": signed.ok}
    report = Verification(file=file, events=result.events, head=head,
                          ok=result.error is None and (signed is None or signed.ok),
                          torn=isinstance(result.error, TornTail),
                          error=result.error.to_dict() if result.error else None, **more)
    return Verified(report, result.error, own_error, tail.seq if tail else None, signed,
                    result.header)


# -- replay --------------------------------------------------------------------------------

class State(Struct, frozen=True, kw_only=True):
    """`replay --json`: the state after a seq (as a player sees it), what comes next."""

    file: str
    seq: int
    state: Any
    pending: Decision | None
    outcome: Outcome | None
    rules_version: RulesVersion
    problems: list[Problem]
    components: Rejudged | UnsetType = UNSET  # judged with other component data


def state_report(result: engine.Replay, state: Any, components: Whatif | None = None
                 ) -> State:
    """Returns a replay's state (`state` as the player asked for sees it) as `replay --json`;
    `components`: judged with that component data."""
    rs = result.ruleset
    assert rs is not None
    return State(file=result.file, seq=result.events - 1, state=state_data(state),
                 pending=rs.pending(result.state), outcome=rs.outcome(result.state),
                 rules_version=rules_version(result), problems=problems(result.problems),
                 components=components.report() if components else UNSET)


# -- explain -------------------------------------------------------------------------------

class Explanation(Struct, frozen=True, kw_only=True):
    """`explain --json`: one event, the state before it, its ruling and the disputes."""

    seq: int
    event: Event
    text: str
    verdict: str
    rule: str | None
    reason: str | None
    rules: dict[str, Rule]
    state_before: Any
    pending_before: Decision | None
    rests_on: list[Any]
    derivation: Derivation | None  # the arithmetic the ruling computed, term by term
    undone_at: int | None  # the seq of the `undone` that retracted it, if one did
    disputes: list[Ruling]
    rules_version: RulesVersion
    components: Rejudged | UnsetType = UNSET  # judged with other component data
    seat: SeatFinding | UnsetType = UNSET  # what the seats find of it (engine.seats), if any
    problems: list[Problem]


class Explained(NamedTuple):
    """What `explain` found: the report, and what its text draws beyond it."""

    report: Explanation
    result: engine.Replay
    ruleset: engine.Ruleset[Any, Any, Any]
    before: Any  # the state before the event
    raw: bytes  # the event's line as recorded
    cited: list[str]  # the rule ids the ruling cites
    components: Whatif | None = None  # the component data judged with, when not the header's


def explain(file: str, seq: int, rules: str | None = None, components: Whatif | None = None
            ) -> Explained:
    """Rules on the event at `seq`: the state before it, its verdict and rule, the disputes.

    The whole log is read; a break anywhere is in `problems`, and the event is still
    explained as it stands. `rules` judges by another rules version than the recorded one.
    """
    from tabletape.app.stepper import verdict
    if seq < 0:
        raise UsageError(f"seq {seq}: a seq is 0 (the header) or more; explain an event, "
                         "seq 1 or later", file=file)
    result = engine.capture(file, seq, rules, components)
    rs, fold = result.ruleset, result.fold
    if rs is None or fold is None:
        raise result.error or UsageError("unreadable log", file=file)
    if result.captured is None:
        if seq == 0:
            raise UsageError("seq 0 is the header; explain a later event", file=file)
        if result.error is not None:
            raise result.error
        raise UsageError(f"the log has no seq {seq} (it ends at seq {result.events - 1})", file=file)
    rec, before, err = result.captured
    ruled, rule = verdict(fold, seq, err)
    cat = rs.catalogue()
    cited = [rule] if rule else list(rs.governing(rec.event))
    judge = ruled in ("legal", "illegal") and seq not in fold.core_seqs
    rested = engine.rests_on(rs, before, rec.event) if judge else []
    derived = rs.derive(before, rec.event) if judge else None
    report = Explanation(
        seq=seq, event=rec.event, text=engine.describe(rs, rec.event), verdict=ruled,
        rule=rule, reason=err.reason if err else None,
        rules={r: cat[r] for r in cited if r in cat}, state_before=state_data(before),
        pending_before=rs.pending(before), rests_on=rested, derivation=derived,
        undone_at=fold.retracted.get(seq),
        disputes=[r for r in fold.disputes if r.about == seq],
        rules_version=rules_version(result),
        components=components.report() if components else UNSET,
        seat=next((f for f in seat_findings(result) if f.seq == seq), UNSET),
        problems=[result.error.to_dict()] if result.error else [])
    return Explained(report, result, rs, before, rec.raw, cited, components)


# -- diff ----------------------------------------------------------------------------------

class Divergence(Struct, frozen=True):
    """The first seq at which two logs record different events (None: that log ended)."""

    seq: int
    a: Event | None
    b: Event | None


class Change(Struct, frozen=True):
    """One leaf of the state that differs: its path, its value in A and in B."""

    path: str
    a: Any
    b: Any


class Comparison(Struct, frozen=True, kw_only=True):
    """`diff --json`: same or not, each side's problems, where they part, the state diff."""

    same: bool
    problems: dict[str, list[Problem]]
    first_divergence: Divergence | None
    changes: list[Change]


class Compared(NamedTuple):
    """What `diff` found: the report, and what its text says beyond it."""

    report: Comparison
    found: list[tuple[str, str, list[TapeError]]]  # (side, spec, its problems)
    rulesets: tuple[engine.Ruleset[Any, Any, Any], engine.Ruleset[Any, Any, Any]]


def ruleset_of(result: engine.Replay) -> engine.Ruleset[Any, Any, Any]:
    """Returns the ruleset of a replayed log, or raises why the log could not be read."""
    if result.ruleset is None:
        raise result.error or UsageError("unreadable log", file=result.file)
    return result.ruleset


def diff(a: Any, b: Any, rules: str | None = None) -> Compared:
    """Compares two log points (`params.LogPoint`: spec, path, seq): the first divergent
    event and the state diff; each side's problems, a broken side compared up to its break."""
    from tabletape.engine import diff as tdiff
    from tabletape.engine import index  # (log and explain read every line: no index loaded)
    (_, pa, ta), (_, pb, tb) = a, b
    ra = index.state_at(pa, to=ta, check_after=True, version=rules)  # (writes their indexes)
    rb = index.state_at(pb, to=tb, check_after=True, version=rules)
    rsa, rsb = ruleset_of(ra), ruleset_of(rb)
    for point, r in ((a, ra), (b, rb)):  # a point past the end is no point of that log
        if point.seq is not None and point.seq >= r.events and r.error is None:
            raise UsageError(f"{point.spec}: past the end of {point.path}, which ends at seq "
                             f"{r.events - 1}",
                             file=point.path)
    if rsa.id != rsb.id:
        raise UsageError(f"{a.spec} records {rsa.id} and {b.spec} records {rsb.id}: logs of "
                         "different games cannot be compared")
    # each side as judged: its own problems, and a break after a FILE@SEQ point too
    found = [("A", a.spec, ra.problems), ("B", b.spec, rb.problems)]
    # a broken side is compared up to its break: the lines read before it
    cut_a = ra.events - 1 if ra.error is not None else ta
    cut_b = rb.events - 1 if rb.error is not None else tb
    div = tdiff.first_divergence(pa, pb, cut_a, cut_b,
                                 start=index.common_start(pa, pb, cut_a, cut_b))
    changes = tdiff.state_diff(state_data(ra.state), state_data(rb.state))
    same = div is None and not changes
    bad = any(found_ for _, _, found_ in found)
    report = Comparison(
        same=same and not bad, problems={side: problems(p) for side, _, p in found},
        first_divergence=None if div is None else Divergence(div.seq, div.a, div.b),
        changes=[Change(c.path, c.old, c.new) for c in changes])
    return Compared(report, found, (rsa, rsb))
