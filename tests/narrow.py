"""Narrowing for the type checker: a test states that a value it reads is there, or is of
the kind whose fields it reads."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar, runtime_checkable

T = TypeVar("T")


def present(value: T | None) -> T:
    """Returns `value`, failing the test where it is None (the game over, no refusal, ...)."""
    assert value is not None
    return value


def instance(kind: type[T], value: object) -> T:
    """Returns `value`, failing the test where it is not a `kind` (an event of one type)."""
    assert isinstance(value, kind), f"{value!r} is not a {kind.__name__}"
    return value


def only(kind: type[T], values: Iterable[object]) -> list[T]:
    """Returns `values` in a list, failing the test where one is not a `kind` (every event
    `legal` offers a player whose turn it is, read by its fields)."""
    out: list[T] = []
    for value in values:
        out.append(instance(kind, value))
    return out


@runtime_checkable
class GameHeader(Protocol):
    """A game's header, read where the game is not known (`tape.events.Header` subclassed
    with the game's own `options` and `components`): `assert isinstance(h, GameHeader)`."""

    options: Any
    components: Any


def game_header(value: object) -> GameHeader:
    """Returns `value`, failing the test where it is not a game's header."""
    assert isinstance(value, GameHeader), f"{value!r} is not a game's header"
    return value
