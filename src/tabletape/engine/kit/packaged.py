"""A game in the one package shape (README "Layout"): its rules are its modules' functions.

Every bundled game keeps its rules in the same modules: `reducer` (initial, apply,
outcome), `legality` (pending, over, check, legal, weight), `lookups` (view and small
queries), `text` (describe, governing, consulted) and `components` (the data, `default()`, and
`Lookups`: the tables built once per game). `Packaged` binds them: a game subclass
names its modules and types, and writes only what is its own (`check_header`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from types import ModuleType
from typing import Any, Self

from tabletape.engine.protocol import Decision, E, H, Outcome, Ruleset, S, Violation


class Packaged(Ruleset[H, S, E]):
    """A ruleset whose rules are the functions of its package's modules, over its `Lookups`."""

    reducer: ModuleType
    legality: ModuleType
    lookups: ModuleType
    text: ModuleType
    components: ModuleType

    lk: Any  # the tables of this game's components (`components.Lookups`), on a bound ruleset

    def default_components(self) -> Any:
        return self.components.default()

    def bind(self, header: H) -> Self:
        bound = super().bind(header)
        lk = bound.lk = self.components.Lookups.of(header.components)  # type: ignore[attr-defined]
        # The engine calls over, check and apply once per event: on the bound ruleset they
        # are the rule functions themselves (partials over `lk`), so no frame of ours runs.
        # `simulate` asks pending, legal and weights once per event as well.
        bound.over = self.legality.over  # type: ignore[method-assign]
        bound.check = partial(self.legality.check, lk)  # type: ignore[method-assign]
        bound.apply = partial(self.reducer.apply, lk)  # type: ignore[method-assign]
        bound.pending = partial(self.legality.pending, lk)  # type: ignore[method-assign]
        bound.legal = partial(self.legality.legal, lk)  # type: ignore[method-assign]
        bound.weight = partial(self.legality.weight, lk)  # type: ignore[method-assign]
        if hasattr(self.legality, "weights"):
            bound.weights = partial(self.legality.weights, lk)  # type: ignore[method-assign]
        return bound

    # -- the rules (the same functions as bound above, for the unbound type's sake) --------
    def initial(self) -> S:
        return self.reducer.initial(self.lk, self.header)

    def pending(self, state: S) -> Decision | None:
        return self.legality.pending(self.lk, state)

    def over(self, state: S) -> bool:
        return self.legality.over(state)

    def check(self, state: S, event: E) -> Violation | None:
        return self.legality.check(self.lk, state, event)

    def apply(self, state: S, event: E) -> S:
        return self.reducer.apply(self.lk, state, event)

    def legal(self, state: S) -> Iterable[E]:
        return self.legality.legal(self.lk, state)

    def weight(self, state: S, event: E) -> int:
        return self.legality.weight(self.lk, state, event)

    def weights(self, state: S, events: list[E]) -> list[int]:
        if hasattr(self.legality, "weights"):  # a game's own: what the events share, once
            return self.legality.weights(self.lk, state, events)
        return super().weights(state, events)

    def outcome(self, state: S) -> Outcome | None:
        return self.reducer.outcome(self.lk, state)

    def view(self, state: S, player: str) -> S:
        return self.lookups.view(state, player)

    # -- the words --------------------------------------------------------------------------
    def describe(self, event: E) -> str:
        return self.text.describe(event)

    def governing(self, event: E) -> tuple[str, ...]:
        return self.text.governing(event)

    def consulted(self, state: S, event: E) -> Iterable[tuple[str, Any, tuple[str, ...]]]:
        return self.text.consulted(self.lk, state, event)
