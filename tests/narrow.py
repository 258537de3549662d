"""Narrowing for the type checker: a test states that a value it reads is there."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    """Returns `value`, failing the test where it is None (the game over, no refusal, ...)."""
    assert value is not None
    return value
