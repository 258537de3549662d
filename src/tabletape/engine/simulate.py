"""Random legal play: the same `legal` that `check` agrees with, and chance's weights."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, TypeVar

from tabletape.engine import CHANCE, Ruleset
from tabletape.tape.events import Event, Header

H = TypeVar("H", bound=Header)  # the game's header
S = TypeVar("S")  # the game's state
E = TypeVar("E", bound=Event)  # the game's events


def play(ruleset: Ruleset[Any, S, E], header: Header, seed: int, *, max_events: int = 20_000
         ) -> Iterator[tuple[E, S]]:
    """Yields (event, state after it) for a game of random legal moves, until it ends.

    Players choose uniformly among legal events; chance draws in proportion to
    `weight` (how many such cards are left). Deterministic for a given seed.
    """
    rng = random.Random(seed)
    ruleset = ruleset.bind(header)
    state = ruleset.initial()
    for _ in range(max_events):
        decision = ruleset.pending(state)
        if decision is None:
            return
        options = list(ruleset.legal(state))
        if not options:
            raise RuntimeError(f"no legal event for {decision} — a rules bug")
        if decision.actor == CHANCE:
            weights = ruleset.weights(state, options)
            event = rng.choices(options, weights)[0]
        else:
            event = rng.choice(options)
        state = ruleset.apply(state, event)
        yield event, state


def header_for(ruleset: Ruleset[H, Any, Any], players: tuple[str, ...], options: Any = None,
               components: Any = None) -> H:
    """Returns a header for a simulated game with default options and components."""
    header: H = ruleset.start(players, options if options is not None else ruleset.Options(),
                              components if components is not None
                              else ruleset.default_components())
    return header
