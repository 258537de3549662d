"""Hypothesis strategies for malformed logs: mutations of small valid logs, by kind.

`hostile_log` returns (kind, which base, the bytes of a whole file). The bases are short
simulated games whose lines are taken apart into (key, canonical value) items,
so that a mutation changes exactly one thing about one line.
"""

from __future__ import annotations

import msgspec
from hypothesis import strategies as st

from tabletape.tape import log
from tabletape.tape.events import Note

BAD_UTF8 = [b"\xff", b"\xfe", b"\xc3", b"\xc3\x28", b"\xe2\x82", b"\xe2\x28\xa1", b"\xed\xa0\x80",
            b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf8\x88\x80\x80\x80", b"\xf4\x90\x80\x80", b"\x80",
            b"\xf0\x9f\x98"]
NUMBERS = [b"NaN", b"-NaN", b"Infinity", b"-Infinity", b"nan", b"inf", b"1e400", b"-1e400",
           b"1" + b"0" * 400, b"-" + b"9" * 30, b"18446744073709551616", b"-9223372036854775809",
           b"-0", b"0.0", b"1.5", b"1e2", b"1E+2", b"0x10", b"01", b"+1", b"1.", b".5", b"-1",
           b"10000001", b"1e-400", b"true", b"null"]
BOM = b"\xef\xbb\xbf"
KINDS = ["byte mutations", "duplicate keys", "reordered keys", "NaN and huge numbers",
         "deep nesting", "bad UTF-8", "BOM", "unknown event types", "unknown fields",
         "structure"]

Item = tuple[bytes, bytes]


def items(body: bytes) -> list[Item]:
    """Returns a canonical line as (encoded key, encoded value) pairs in order."""
    return [(msgspec.json.encode(k), msgspec.json.encode(v))
            for k, v in msgspec.json.decode(body).items()]


def joined(its: list[Item]) -> bytes:
    """Returns the line the items make (no newline)."""
    return b"{" + b",".join(k + b":" + v for k, v in its) + b"}"


def base(lines: list[bytes]) -> list[bytes]:
    """Checks that every line of a base log round-trips through `items`; returns the lines."""
    for line in lines:
        assert joined(items(line[:-1])) == line[:-1], line[:80]
    return lines


def with_note(path: str, codec: log.Codec) -> None:
    """Appends a note with non-ASCII text and numbers, so that bases have both."""
    with open(path, "rb") as f:
        tail = log.read_tail(f.fileno())
    log.append(path, [Note(text="an umpire's ruling: héllo ✓", about=3, dispute=True, by="bob")],
               codec, expect=tail, durable=False)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=10).map(msgspec.json.encode)


@st.composite
def hostile_log(draw, bases: list[list[bytes]]) -> tuple[str, int, bytes]:
    """Returns (kind, base index, file bytes): one base log with one hostile change."""
    which = draw(st.integers(0, len(bases) - 1))
    kind, data = draw(changed(bases[which]))
    return kind, which, data


@st.composite
def changed(draw, lines: list[bytes]) -> tuple[str, bytes]:
    """Returns (kind, file bytes): the base log with one hostile change of a drawn kind."""
    lines = list(lines)
    kind = draw(st.sampled_from(KINDS))
    if kind == "byte mutations":
        return kind, draw(byte_mutations(b"".join(lines)))
    k = draw(st.integers(0, len(lines) - 1))
    body = lines[k][:-1]
    its = items(body)
    i = draw(st.integers(0, len(its) - 1))
    if kind == "duplicate keys":
        value = draw(st.sampled_from([its[i][1]]) | json_values)
        its.insert(draw(st.integers(0, len(its))), (its[i][0], value))
        body = joined(its)
    elif kind == "reordered keys":
        order = draw(st.permutations(range(len(its))))
        if order == sorted(order):
            order[0], order[-1] = order[-1], order[0]
        body = joined([its[j] for j in order])
    elif kind == "NaN and huge numbers":
        its[i] = (its[i][0], draw(st.sampled_from(NUMBERS) | st.integers().map(
            lambda n: str(n).encode()) | st.floats().map(lambda x: repr(x).encode())))
        body = joined(its)
    elif kind == "deep nesting":
        d = draw(st.integers(1, 20_000))
        nest = draw(st.sampled_from([b"[" * d + b"]" * d, b'{"a":' * d + b"1" + b"}" * d,
                                     b"[" * d, b"[{" * d]))
        its[i] = (its[i][0], nest)
        body = joined(its)
    elif kind == "bad UTF-8":
        at = draw(st.integers(0, len(body)))
        body = body[:at] + draw(st.sampled_from(BAD_UTF8)) + body[at:]
    elif kind == "BOM":
        at = draw(st.sampled_from([0, 0, draw(st.integers(0, len(body)))]))
        body = body[:at] + BOM + body[at:]
    elif kind == "unknown event types":
        its[0] = (b'"type"', msgspec.json.encode(draw(st.text(max_size=30))))
        body = joined(its)
    elif kind == "unknown fields":
        name = msgspec.json.encode(draw(st.text(max_size=20)))
        its.insert(draw(st.integers(0, len(its))), (name, draw(json_values)))
        body = joined(its)
    else:
        return kind, draw(structure(lines, k))
    lines[k] = body + b"\n"
    return kind, b"".join(lines)


@st.composite
def byte_mutations(draw, data: bytes) -> bytes:
    """Returns the file with 1-4 bytes replaced, inserted or deleted."""
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data) - 1))
        b = bytes([draw(st.integers(0, 255))])
        op = draw(st.sampled_from(["replace", "insert", "delete"]))
        data = (data[:at] + b + data[at + 1:] if op == "replace" else
                data[:at] + b + data[at:] if op == "insert" else data[:at] + data[at + 1:])
    return data


@st.composite
def structure(draw, lines: list[bytes], k: int) -> bytes:
    """Returns the file with line k replaced by junk, a non-object, or re-terminated."""
    what = draw(st.sampled_from(["junk", "json", "crlf", "no newline", "empty", "nul", "repeat"]))
    body = lines[k][:-1]
    if what == "junk":
        lines[k] = draw(st.binary(max_size=300)) + b"\n"
    elif what == "json":
        lines[k] = draw(json_values) + b"\n"
    elif what == "crlf":
        lines[k] = body + b"\r\n"
    elif what == "no newline":
        lines[k] = body + b" "
    elif what == "empty":
        lines[k] = b"\n"
    elif what == "nul":
        at = draw(st.integers(0, len(body)))
        lines[k] = body[:at] + b"\0" + body[at:] + b"\n"
    else:
        lines.insert(k, lines[k])
    return b"".join(lines)


def over_long(lines: list[bytes], max_line: int, extra: int, nested: bool, newline: bool) -> bytes:
    """Returns the file with a line `extra` bytes off the limit: a long note, or nesting."""
    if nested:
        d = (max_line + extra) // 2
        line = b'{"type":"note","seq":1,"text":' + b"[" * d + b"]" * d
    else:
        head = b'{"type":"note","seq":%d,"text":"' % len(lines)
        line = head + b"x" * (max_line + extra - len(head) - 2) + b'"}'
    return b"".join(lines) + line + (b"\n" if newline else b"")
