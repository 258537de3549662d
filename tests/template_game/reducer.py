"""What events do: the state before the first event, after each one, and who won."""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine import Outcome
from tabletape.engine.kit import turns
from tabletape.engine.kit.multiset import take
from tabletape.tape.events import Event

from .components import Lookups
from .events import Dealt, Rolled, Started, Taken
from .state import State


def initial(lk: Lookups, header: Started) -> State:
    """Returns the table before the first turn."""
    return State(header.players, header.players[0], header.options.pile, dict(lk.box), {})


def apply(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state after a legal event."""
    if isinstance(event, Rolled):
        return replace(state, pile=state.pile + event.count, rolled=True)
    if isinstance(event, Dealt):
        return replace(state, deck=take(state.deck, event.card),  # the kit's shared steps
                       hands={**state.hands, event.player: (event.card,)})
    assert isinstance(event, Taken)
    return replace(state, pile=max(0, state.pile - event.count), last=event.player,
                   turn=turns.left_of(state.players, state.turn))


def outcome(lk: Lookups, state: State) -> Outcome | None:
    """Returns the winners once the game is over (take.end.last: the pinned `lk.score`)."""
    if state.pile or state.last is None:
        return None
    scores = lk.score(state)
    best = max(scores.values())
    winners = tuple(p for p in state.players if scores[p] == best)
    return Outcome(winners, scores, f"{' and '.join(winners)} won with {best}; "
                                    f"{state.last} took the last counter")
