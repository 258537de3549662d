"""Small English for every layer: a count with its noun, an article, a list of names.

The games (whose sentences name cards and players) and the commands share these, so "a Air
unit", "alice and bob and carol" and "0 event(s)" are fixed once.
"""

from __future__ import annotations

from collections.abc import Iterable

VOWELS = frozenset("AEIOUaeiou")


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """Returns `1 event`, `2 events`, `0 events`: a count with its noun in the right number."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


def a(noun: str) -> str:
    """Returns the noun with its indefinite article: `a Sea unit`, `an Air unit`.

    By the first letter (enough for the names the games print; a rare `an hour` or `a unit`
    reads as `a hour`/`an unit` and is left to whoever writes one)."""
    return f"an {noun}" if noun[:1] in VOWELS else f"a {noun}"


def listed(items: Iterable[str], last: str = "and") -> str:
    """Returns names as a sentence lists them: `alice`, `alice and bob`,
    `alice, bob and carol` (`last` may be `or`)."""
    names = list(items)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


def agree(n: int, one: str, many: str) -> str:
    """Returns the word that agrees with a count: `agree(n, "was", "were")`."""
    return one if n == 1 else many


def the_first(n: int, noun: str, one: str, many: str, which: str = "first") -> str:
    """Returns `the first 5 events read correctly`, `the first event reads correctly`,
    `no event reads correctly`: the verb phrase `one` (singular) or `many` agrees."""
    if n == 0:
        return f"no {noun} {one}"
    if n == 1:
        return f"the {which} {noun} {one}"
    return f"the {which} {n} {noun}s {many}"
