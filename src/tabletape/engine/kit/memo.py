"""Caching a game's lookup tables by the identity of its component data."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

A = TypeVar("A")
R = TypeVar("R")


def by_identity(fn: Callable[[A], R]) -> Callable[[A], R]:
    """Returns `fn` cached: the last argument recognised by identity, others by an lru_cache.

    A replay asks for the tables of the same component object at every event;
    hashing a whole frozen deck for an lru_cache cost more than the rules that asked.
    """
    cached = functools.lru_cache(maxsize=16)(fn)
    last_arg: object = object()
    last: R

    @functools.wraps(fn)
    def lookup(arg: A) -> R:
        nonlocal last_arg, last
        if arg is not last_arg:
            last_arg, last = arg, cached(arg)
        return last
    return lookup
