"""What may happen next: who decides, whether an event is legal, every legal event."""

from __future__ import annotations

from collections.abc import Iterator

from tabletape.engine import CHANCE, Decision, Violation
from tabletape.tape.events import Event

from .components import Lookups
from .events import Rolled, Taken
from .state import State


def over(state: State) -> bool:
    """Returns whether the game is over (exactly when `pending` is None)."""
    return state.pile == 0


def pending(lk: Lookups, state: State) -> Decision | None:
    """Returns who must decide next and what, or None once the game is over."""
    if not state.rolled:  # chance decides too: the engine treats it as a player
        return Decision(CHANCE, "roll", "chance rolls the die for the pile")
    return Decision(state.turn, "take", f"{state.turn} takes") if state.pile else None


def check(lk: Lookups, state: State, event: Event) -> Violation | None:
    """Returns why the event is illegal in this state, or None."""
    if not state.rolled:
        if not isinstance(event, Rolled):
            return Violation("take.setup.roll", "the die for the pile is rolled first")
        return None
    if not isinstance(event, Taken):
        return Violation("take.setup.roll", "the die is rolled once")
    if event.player != state.turn:
        return Violation("take.turn.order", f"it is {state.turn}'s turn")
    if event.count > lk.most:
        return Violation("take.take.count", f"a turn takes at most {lk.most}")
    if event.count > state.pile:
        return Violation("take.take.pile", f"the pile has {state.pile} left")
    return None


def legal(lk: Lookups, state: State) -> Iterator[Event]:
    """Yields every legal next event (chance's outcomes once each)."""
    if not state.rolled:
        yield from (Rolled(count=n) for n in range(1, 7))
        return
    for n in range(1, min(lk.most, state.pile) + 1):
        yield Taken(player=state.turn, count=n)


def weight(lk: Lookups, state: State, event: Event) -> int:
    """Returns how many ways chance can produce this outcome (a die: one way per face)."""
    return 1


def weights(lk: Lookups, state: State, events: list[Event]) -> list[int]:
    """Returns each event's `weight` (a game works out once what they share)."""
    return [weight(lk, state, e) for e in events]
