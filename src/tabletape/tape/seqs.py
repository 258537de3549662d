"""Compact sets and maps of seqs, so that replay's memory does not grow by objects per event.

A fold remembers, for every seq, whether it was a core event, not judged, or
undone (and by which seq). As Python sets and dicts that is ~100 bytes per
entry; a bitmap costs one bit per seq and a packed array four bytes.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, MutableSet


class SeqSet(MutableSet[int]):
    """A set of seqs as a bitmap."""

    def __init__(self, seqs: tuple[int, ...] = ()):
        self._bits = bytearray()
        self._len = 0
        for s in seqs:
            self.add(s)

    def __contains__(self, seq: object) -> bool:
        if not isinstance(seq, int) or seq < 0:
            return False
        byte = seq >> 3
        return byte < len(self._bits) and bool(self._bits[byte] >> (seq & 7) & 1)

    def add(self, seq: int) -> None:
        byte = seq >> 3
        if byte >= len(self._bits):
            self._bits.extend(bytes(byte + 1 - len(self._bits) + len(self._bits) // 2))
        mask = 1 << (seq & 7)
        if not self._bits[byte] & mask:
            self._bits[byte] |= mask
            self._len += 1

    def add_all(self, seqs: Iterable[int]) -> None:
        """Adds every seq, as `add` does each (one call for many: `Fold` settles its undos)."""
        bits, n = self._bits, self._len
        for seq in seqs:
            byte = seq >> 3
            if byte >= len(bits):
                bits.extend(bytes(byte + 1 - len(bits) + len(bits) // 2))
            mask = 1 << (seq & 7)
            b = bits[byte]
            if not b & mask:
                bits[byte] = b | mask
                n += 1
        self._len = n

    def discard(self, seq: int) -> None:
        if seq in self:
            self._bits[seq >> 3] &= ~(1 << (seq & 7)) & 0xFF
            self._len -= 1

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[int]:
        for byte, bits in enumerate(self._bits):
            if bits:
                yield from (byte * 8 + i for i in range(8) if bits >> i & 1)

    def __repr__(self) -> str:
        return f"SeqSet({set(self)!r})"


class SeqMap(Mapping[int, int]):
    """A map from seq to seq (0 is never a value: seq 0 is the header) as a packed array.

    The array covers the seqs from the lowest one set, not from 0: a fold resumed from a
    checkpoint deep in a long log does not pay for the seqs before it (2 MB at 500,000).
    """

    def __init__(self) -> None:
        self._values = array("i")
        self._base = 0  # the seq at self._values[0]
        self._len = 0

    def __getitem__(self, seq: int) -> int:
        at = seq - self._base
        value = self._values[at] if 0 <= at < len(self._values) else 0
        if not value:
            raise KeyError(seq)
        return value

    def __setitem__(self, seq: int, value: int) -> None:
        if not self._values:
            self._base = seq
        at = seq - self._base
        if at < 0:  # below the lowest seq so far: room below it too (never below seq 0)
            grow = min(-at + len(self._values) // 2, self._base)
            self._values = array("i", bytes(4 * grow)) + self._values
            self._base -= grow
            at += grow
        elif at >= len(self._values):
            self._values.frombytes(bytes(4 * (at + 1 - len(self._values) + len(self._values) // 2)))
        self._len += not self._values[at]
        self._values[at] = value

    def set_all(self, seqs: Iterable[int], values: Iterable[int]) -> None:
        """Sets each seq to its value, in order, as `self[seq] = value` does each."""
        for seq, value in zip(seqs, values, strict=True):
            at = seq - self._base
            if 0 <= at < len(self._values):  # within the array: no growing
                self._len += not self._values[at]
                self._values[at] = value
            else:
                self[seq] = value

    def __contains__(self, seq: object) -> bool:
        if not isinstance(seq, int):
            return False
        at = seq - self._base
        return 0 <= at < len(self._values) and bool(self._values[at])

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[int]:
        return (self._base + at for at, v in enumerate(self._values) if v)

    def __repr__(self) -> str:
        return f"SeqMap({dict(self)!r})"
