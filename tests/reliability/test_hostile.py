"""Hostile input: generated malformed logs never crash the reader or the rules.

Every input is read the way `validate` reads it (engine.replay: the streaming
reader, then the rules). The figure: 0 exceptions other than TapeError; every
format or chain error names the line, a byte offset inside that line, and a
field whenever the line is JSON the schema refuses; memory (tracemalloc peak)
and work (Python and C calls, counted with sys.setprofile) bounded by the input's
size. No wall-clock assertions.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections import Counter

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletape import engine
from tabletape.tape import log
from tabletape.tape.errors import ChainError, TapeError, TornTail
from tests.reliability import figures, hostile, tapes

EXAMPLES = figures.budget(5_000, 300_000)  # `make test` stays within minutes; `make stress` runs 300,000
OVER_LONG = 40  # hypothesis runs out at 24: 6 lengths x long text or nesting x newline or not
SETTINGS = settings(deadline=None, derandomize=not figures.STRESS, database=None,
                    suppress_health_check=list(HealthCheck))  # each test's parent
SEEN: Counter[str] = Counter()
WORST: Counter[str] = Counter()  # the largest memory and work any input cost
MEMORY_SLACK = 512 * 1024  # peak bytes allowed besides four copies of the longest line
CALLS_BASE, CALLS_PER_LINE = 1_000, 100  # Python and C calls: the work an input may cost


@pytest.fixture(scope="module")
def bases(tmp_path_factory):
    """Two short valid logs (Cards of War, Liberation), each ending with a non-ASCII note."""
    out = []
    for game in ("cards-of-war", "liberation"):
        path = str(tmp_path_factory.mktemp("base") / f"{game}.jsonl")
        tapes.simulated(path, game, seed=1, events=12)
        hostile.with_note(path, engine.get(game).codec)
        with open(path, "rb") as f:
            out.append(hostile.base(f.read().splitlines(keepends=True)))
    return out


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    return str(tmp_path_factory.mktemp("hostile") / "input.jsonl")


class Calls:
    """Counts Python and C function calls while profiling: the work an input costs."""

    def __init__(self):
        self.n = 0

    def __call__(self, frame, event, arg):
        if event in ("call", "c_call"):
            self.n += 1


def measured(path: str) -> tuple[engine.Replay | str, int, int]:
    """Replays a file; returns (the result or a crash description, peak bytes, calls)."""
    calls = Calls()
    tracemalloc.start()
    sys.setprofile(calls)
    try:
        result: engine.Replay | str = engine.replay(path)
    except TapeError as e:  # an unknown game or unreadable file: still a located TapeError
        result = engine.Replay(path, error=e)
    except Exception as e:  # noqa: BLE001  (the very thing this test looks for)
        result = f"{type(e).__name__}: {e}"
    finally:
        sys.setprofile(None)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return result, peak, calls.n


def needs_field(body: bytes, codec: log.Codec) -> bool:
    """Returns True when the schema (not the JSON syntax) refuses a line: a field applies."""
    try:
        msgspec.json.decode(body)  # well-formed JSON and UTF-8, whatever its shape
        codec.decoder.decode(body)
    except msgspec.ValidationError:
        return True
    except Exception:  # noqa: BLE001  (malformed JSON, bad UTF-8, nesting: no field applies)
        return False
    return False


def first_bad_utf8(line: bytes) -> int | None:
    """Returns where a line stops being UTF-8, if it does."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start
    return None


def check(path: str, kind: str, data: bytes, codec: log.Codec) -> None:
    """Asserts one input is handled: no crash, a located error, bounded memory and work."""
    with open(path, "wb") as f:
        f.write(data)
    result, peak, calls = measured(path)
    assert not isinstance(result, str), f"{kind}: traceback {result}"
    lines = data.split(b"\n")
    longest = max(map(len, lines))
    assert peak <= MEMORY_SLACK + 4 * min(longest, log.MAX_LINE + 1), f"{kind}: {peak} bytes"
    assert calls <= CALLS_BASE + CALLS_PER_LINE * len(lines), f"{kind}: {calls} calls"
    SEEN[kind] += 1
    WORST["memory"] = max(WORST["memory"], peak - min(longest, log.MAX_LINE + 1))
    WORST["calls"] = max(WORST["calls"], calls)
    e = result.error
    if e is None:
        return
    SEEN["errors"] += 1
    assert e.line is not None and e.offset is not None, f"{kind}: {e!r} not located"
    start = sum(len(x) + 1 for x in lines[: e.line - 1])
    assert start <= e.offset <= start + len(lines[e.line - 1]), f"{kind}: {e} outside its line"
    if e.reason.startswith("not UTF-8"):
        assert e.offset - start == first_bad_utf8(lines[e.line - 1]), f"{kind}: {e}"
    if isinstance(e, ChainError):
        assert e.field in ("$.seq", "$.prev"), f"{kind}: {e}"
    elif (not isinstance(e, TornTail) and len(lines[e.line - 1]) <= log.MAX_LINE
          and "nested too deeply" not in e.reason and needs_field(lines[e.line - 1], codec)):
        # (msgspec's nesting limit is Python's recursion limit, counted from the caller's
        # stack depth: the oracle, called higher up, may get past a nesting the reader refused)
        assert e.field, f"{kind}: {e} names no field"
        SEEN["errors naming a field"] += 1


def worst() -> dict:
    """Returns the largest memory and work seen so far, beside their bounds."""
    return {"max_peak_memory": f"{WORST['memory'] // 1024} KiB + the longest line (bound "
            f"{MEMORY_SLACK // 1024} KiB + 4 x the longest line, at most 1 MiB)",
            "max_calls": f"{WORST['calls']} (bound {CALLS_BASE} + {CALLS_PER_LINE} per line)"}


def test_generated_malformed_logs_never_crash_and_are_located(bases, scratch):
    codecs = [engine.ruleset_for(b[0][:-1], "base").codec for b in bases]
    for codec in codecs:  # built once per game on first use: not the work of any one input
        assert codec.strict is not None

    @settings(SETTINGS, max_examples=EXAMPLES)
    @given(case=hostile.hostile_log(bases))
    def one(case):
        kind, which, data = case
        check(scratch, kind, data, codecs[which])

    before = SEEN.copy()
    one()
    run = SEEN - before
    total = sum(run[k] for k in hostile.KINDS)
    figures.record("hostile input: generated malformed logs", inputs=total,
                   **{k: run[k] for k in hostile.KINDS}, errors=run["errors"],
                   errors_naming_a_field=run["errors naming a field"], uncaught_exceptions=0,
                   **worst())


def test_over_long_lines_are_refused_in_bounded_memory(bases, scratch):
    codec = engine.get("cards-of-war").codec

    @settings(SETTINGS, max_examples=OVER_LONG)
    @given(extra=st.integers(-2, 3), nested=st.booleans(), newline=st.booleans())
    def one(extra, nested, newline):
        data = hostile.over_long(bases[0], log.MAX_LINE, extra, nested, newline)
        check(scratch, "over-long lines", data, codec)

    before = SEEN["over-long lines"]
    one()
    figures.record("hostile input: lines at and over the 1 MiB limit",
                   inputs=SEEN["over-long lines"] - before, uncaught_exceptions=0, **worst())
