"""A game in the one package shape (README "Adding a game"): its rules are its modules' functions.

Every bundled game keeps its rules in the same modules: `reducer` (initial, apply,
outcome), `legality` (pending, over, check, legal, weight, weights), `lookups` (view and
small queries), `text` (describe, governing, consulted), `components` (the data,
`default()`, and `Lookups`: the tables built once per game) and its drawings `render` and
`svg`. A game subclass declares each of them, typed by the Protocols of
`engine.kit.contract` (mypy checks every function's signature), with its `changelog`; a part
left out fails when the class is made, naming the game and the part. `Packaged` binds them;
the game writes only what is its own (`check_header`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any, Generic, Self, TypeVar

from tabletape.engine.kit.contract import (
    MEMBERS,
    ComponentsModule,
    ContractError,
    LegalityModule,
    LookupsModule,
    ReducerModule,
    TextModule,
    drawn,
    missing,
)
from tabletape.engine.protocol import Decision, E, H, Outcome, Ruleset, S, Violation

LK = TypeVar("LK")  # the game's lookup tables (`components.Lookups`)


class Packaged(Ruleset[H, S, E], Generic[H, S, E, LK]):
    """A ruleset whose rules are the functions of its package's modules, over its `Lookups`."""

    reducer: ReducerModule[LK, H, S, E]
    legality: LegalityModule[LK, S, E]
    lookups: LookupsModule[S]
    text: TextModule[LK, S, E]
    components: ComponentsModule[LK]
    # render, svg: declared in Ruleset (RenderModule, SvgModule); a game writes `drawn(...)`

    lk: LK  # the tables of this game's components, on a bound ruleset

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for part in MEMBERS:
            declared = next((k.__dict__[part] for k in cls.__mro__ if part in k.__dict__), None)
            if declared is None:
                raise ContractError(f"game {cls.__name__} ({cls.__module__}) declares no "
                                    f"{part!r} part (README \"Adding a game\")")
            if isinstance(declared, drawn):
                declared.resolve(cls)  # a name: checked now, imported on first use
            else:
                missing(cls, part, declared)
        if cls.version not in cls.__dict__.get("changelog", {}):
            raise ContractError(f"game {cls.__name__} ({cls.__module__}) declares no "
                                f"'changelog' part with its version {cls.version!r}")

    def default_components(self) -> Any:
        return self.components.default()

    def bind(self, header: H) -> Self:
        bound = super().bind(header)
        comp: Any = header  # the game's header types `components`
        lk = bound.lk = self.components.Lookups.of(comp.components)
        rules, reducer = self.legality, self.reducer
        # The engine calls over, check and apply once per event: on the bound ruleset they
        # are the rule functions themselves (partials over `lk`), so no frame of ours runs.
        # `simulate` asks pending, legal and weights once per event as well.
        vars(bound).update(over=rules.over, check=partial(rules.check, lk),
                           apply=partial(reducer.apply, lk), pending=partial(rules.pending, lk),
                           legal=partial(rules.legal, lk), weight=partial(rules.weight, lk),
                           weights=partial(rules.weights, lk))
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
        return self.legality.weights(self.lk, state, events)

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
