"""What may happen next: who decides, whether an event is legal, every legal event."""

from __future__ import annotations

from collections.abc import Iterator

from tabletape.engine import CHANCE, Decision, Violation
from tabletape.tape.events import Event

from .components import Lookups
from .events import Dealt, Rolled, Taken
from .state import State


def over(state: State) -> bool:
    """Returns whether the game is over (exactly when `pending` is None)."""
    return state.pile == 0


def undealt(state: State) -> str | None:
    """Returns the next player to be dealt a card, or None once all have one."""
    return next((p for p in state.players if p not in state.hands), None)


def pending(lk: Lookups, state: State) -> Decision | None:
    """Returns who must decide next and what, or None once the game is over."""
    if not state.rolled:  # chance decides too: the engine treats it as a player
        return Decision(CHANCE, "roll", "chance rolls the die for the pile")
    if (p := undealt(state)) is not None:
        return Decision(CHANCE, "deal", f"the card {p} is dealt")
    return Decision(state.turn, "take", f"{state.turn} takes") if state.pile else None


def check(lk: Lookups, state: State, event: Event) -> Violation | None:
    """Returns why the event is illegal in this state, or None; a refusal names who acted."""
    if isinstance(event, Rolled):
        return Violation("take.setup.roll", "the die is rolled once") if state.rolled else None
    assert isinstance(event, Dealt | Taken)
    if not state.rolled:
        return Violation("take.setup.roll", f"{event.player} waits: the die is rolled first")
    p = undealt(state)
    if isinstance(event, Dealt):
        if event.player != p:
            return Violation("take.setup.deal", f"{event.player} is not dealt a card now")
        if not state.deck.get(event.card):
            return Violation("take.setup.deal", f"{p} cannot be dealt a {event.card}: none left")
        return None
    if p is not None:
        return Violation("take.setup.deal", f"{event.player} waits: {p} is dealt a card first")
    if event.player != state.turn:
        return Violation("take.turn.order", f"{event.player} waits: it is {state.turn}'s turn")
    if event.count > lk.most:
        return Violation("take.take.count", f"{event.player} takes at most {lk.most}")
    if lk.pile_bound and event.count > state.pile:  # a switch: rules 1.1
        return Violation("take.take.pile", f"{event.player} takes {event.count}: the pile "
                                           f"has {state.pile}")
    return None


def legal(lk: Lookups, state: State) -> Iterator[Event]:
    """Yields every legal next event (chance's outcomes once each)."""
    if not state.rolled:
        yield from (Rolled(count=n) for n in range(1, 7))
    elif (p := undealt(state)) is not None:
        yield from (Dealt(player=p, card=c) for c, n in sorted(state.deck.items()) if n)
    else:
        most = min(lk.most, state.pile) if lk.pile_bound else lk.most
        yield from (Taken(player=state.turn, count=n) for n in range(1, most + 1))


def weight(lk: Lookups, state: State, event: Event) -> int:
    """Returns how many ways chance can produce this outcome (a card: its copies left)."""
    return state.deck.get(event.card, 0) if isinstance(event, Dealt) else 1


def weights(lk: Lookups, state: State, events: list[Event]) -> list[int]:
    """Returns each event's `weight` (a game works out once what they share)."""
    return [weight(lk, state, e) for e in events]
