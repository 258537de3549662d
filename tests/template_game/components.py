"""The component data (what a box holds), its checks, and the tables built once per game."""

from __future__ import annotations

from typing import Annotated

import msgspec

Count = Annotated[int, msgspec.Meta(ge=1, le=100)]


class Components(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    most: Count = 3  # the most counters one turn may take


def default() -> Components:
    return Components()


def problems(comp: Components) -> str | None:
    """Returns why these components cannot be played with, or None."""
    return None


class Lookups(msgspec.Struct, frozen=True):
    """The tables the rules read, built once per game (`bind`)."""

    most: int

    @classmethod
    def of(cls, comp: Components) -> Lookups:
        return cls(most=comp.most)
