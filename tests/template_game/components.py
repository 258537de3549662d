"""The component data (what a box holds), its checks, and the tables built once per game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import msgspec

from .lookups import scores
from .state import State

Count = Annotated[int, msgspec.Meta(ge=1, le=100)]


class Components(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    most: Count = 3  # the most counters one turn may take; the cards are numbered 1 to it
    copies: Count = 2  # copies of each card in the deck


def default() -> Components:
    return Components()


class Lookups(msgspec.Struct, frozen=True):
    """The tables the rules read, built once per game (`bind`)."""

    most: int
    box: dict[int, int]  # card -> copies: the deck before the deal
    # The versions' fields (catalogue.py): a switch, and a pin holding the function in force
    pile_bound: bool = True  # 1.1 take.take.pile: a take larger than the pile is refused
    score: Callable[[State], dict[str, int]] = scores  # 1.1 take.end.last (1.0: scores_1_0)

    @classmethod
    def of(cls, comp: Components) -> Lookups:
        return cls(most=comp.most, box={n: comp.copies for n in range(1, comp.most + 1)})
