"""Turn machinery every game shares: owed steps, who owes them, the settle loop, seats, hands.

A game's state keeps a queue of owed steps (`steps`, a tuple resolved from the
front: the head is what is owed now) and its players in seat order (`players`).
After each event the game settles: it resolves whatever needs no decision, one
step at a time, until a decision is pending. Each game says how one step resolves
(`resolve`); the loop, the queue and the seats are written here once.

An event that answers an owed step is checked by the game's `Owing` (its rule ids
and its words): the step owed now must be one the event answers (else "no draw now:
... first", the game's step rule) and owed by the event's player (else the game's
order rule). `by_event` builds a game's check and apply tables from its functions.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from types import FunctionType
from typing import Any, Generic, Protocol, Self, TypeVar, get_args

from tabletape.engine.protocol import Decision, Violation
from tabletape.engine.seats import HIDDEN as HIDDEN  # what another player's card looks like
from tabletape.tape.words import counted


class OwedStep(Protocol):
    """A step owed: what (`step`, one of the game's steps) and by whom (`player`)."""

    @property
    def step(self) -> Any: ...  # the game's own enum of steps
    @property
    def player(self) -> str: ...


T = TypeVar("T", covariant=True)  # what a queue holds: a game's owed steps
Due = TypeVar("Due", bound=OwedStep)  # a game's owed step
L = TypeVar("L")  # a game's lookups (`lk`)
S = TypeVar("S")  # a game's state
R = TypeVar("R")  # what a game's event functions return (a verdict, or the next state)


class Queued(Protocol[T]):
    """A state with a queue of owed steps, `steps`, resolved from the front (a frozen Struct)."""

    @property
    def steps(self) -> tuple[T, ...]: ...

    def __replace__(self, **changes: Any) -> Self: ...


Q = TypeVar("Q", bound=Queued[Any])  # a game's state (with its queue)


def head(state: Queued[T]) -> T | None:
    """Returns the step owed now (the front of the queue), or None when nothing is owed."""
    return state.steps[0] if state.steps else None


def done(state: Q) -> Q:
    """Returns the state with the step owed now resolved (taken off the front)."""
    return state.__replace__(steps=state.steps[1:])


def owe_first(state: Q, *owed: object) -> Q:
    """Returns the state with `owed` due before everything already owed."""
    return state.__replace__(steps=(*owed, *state.steps))


# -- the step owed now, by whom: one refusal for every game --------------------------------

def out_of_step(rule: str, what: str, now: Decision | None) -> Violation:
    """Returns the refusal of an event that answers no decision pending now (the game's `rule`):
    "no draw now: alice must play a card first"."""
    if now is None:  # the engine refuses every event once the game is over; `check` answers too
        return Violation("core.game.over", f"no {what}: the game is over")
    return Violation(rule, f"no {what} now: {now.detail} first")


def not_in_deck(rule: str, says: str, deck: Mapping[str, int]) -> Violation:
    """Returns the refusal (the game's `rule`) of a draw of a card its deck does not hold: the
    game's words (`says`) and how many cards the deck has left, "bob cannot draw 'Jet': it is
    not in the draw pile (3 cards left)". A game asks `card not in deck` first: this builds
    the words only for a refusal."""
    return Violation(rule, f"{says} ({counted(sum(deck.values()), 'card')} left)")


def must(h: OwedStep, player: str, what: str) -> str:
    """The words of an order refusal: "bob must draw a card now, not alice"."""
    return f"{h.player} must {h.step} now, not {player}"


def _in_step(state: object, what: str) -> Violation | None:
    return None


class Owing(Generic[L, Q, Due]):
    """A game's word on its owed steps: its rule ids, its `pending` and how it names the one
    who owes; `refuse` checks an event against the step owed now, `not_now` refuses one."""

    __slots__ = ("step_rule", "order_rule", "pending", "order", "before")

    def __init__(self, step_rule: str, order_rule: str,
                 pending: Callable[[L, Q], Decision | None],
                 order: Callable[[Due, str, str], str] = must,
                 before: Callable[[Q, str], Violation | None] = _in_step) -> None:
        self.step_rule = step_rule  # the rule an event breaks when it answers nothing owed now
        self.order_rule = order_rule  # the rule it breaks when another player owes the step
        self.pending = pending  # the game's `pending` (lk, state)
        self.order = order  # (step owed, player, what) -> the order refusal's words
        self.before = before  # the game's refusal before any step is owed (set-up), or None

    def not_now(self, lk: L, state: Q, what: str, player: str | None = None) -> Violation:
        """Returns the refusal of a `what` (an event's name: "draw") by `player` that answers
        nothing now: "no draw by alice now: bob must play a card first"."""
        if player is not None:
            what = f"{what} by {player}"
        return self.before(state, what) or out_of_step(self.step_rule, what,
                                                       self.pending(lk, state))

    def refuse(self, lk: L, state: Q, steps: Container[object], player: str, what: str
               ) -> Violation | None:
        """Returns why a `what` by `player` answers no step owed now (the step owed now is not
        one of `steps`: `not_now`; another player owes it: the order rule), or None."""
        queue: tuple[Due, ...] = state.steps
        if queue and (h := queue[0]).step in steps:
            if player != h.player:
                return Violation(self.order_rule, self.order(h, player, what))
            return None  # (a Violation is true, None false: `if v := OWING.refuse(...)`)
        return self.not_now(lk, state, what, player)


# -- the event tables ------------------------------------------------------------------------

def by_event(*handlers: Callable[[L, S, Any], R]) -> dict[type, Callable[[L, S, Any], R]]:
    """Returns {event type: handler} for a game's `check` or `apply` functions, each under the
    type its event parameter (the third) is annotated with; a union names several types.

    A game looks its handler up once per event (`CHECK.get(type(event))`): one dict
    lookup, where a `match` would try the class patterns one by one."""
    table: dict[type, Callable[[L, S, Any], R]] = {}
    for f in handlers:
        for kind in _event_types(f):
            if kind in table:
                raise ValueError(f"{kind.__name__} has two handlers: {table[kind]} and {f}")
            table[kind] = f
    return table


def _event_types(f: Callable[..., object]) -> tuple[type, ...]:
    """Returns the types `f`'s event parameter (its third) is annotated with."""
    assert isinstance(f, FunctionType), f
    hint = f.__annotations__[f.__code__.co_varnames[2]]
    if isinstance(hint, str):  # postponed: "Drawn" or "Drawn | Dealt", names in f's module
        return tuple(f.__globals__[name.strip()] for name in hint.split("|"))
    return get_args(hint) or (hint,)


# -- the settle loop, seats and hidden hands -------------------------------------------------

def settle(state: S, resolve: Callable[[S], S | None]) -> S:
    """Resolves what needs no decision: `resolve` returns the next state, or None to stop.

    `resolve` stops (None) when a decision is pending or the game is over.
    """
    while (after := resolve(state)) is not None:
        state = after
    return state


def left_of(players: tuple[str, ...], player: str) -> str:
    """Returns the player in the next seat (on `player`'s left, seats in turn order)."""
    return players[(players.index(player) + 1) % len(players)]


def seats_from(players: tuple[str, ...], first: str | None) -> tuple[str, ...]:
    """Returns the players in seat order starting with `first` (the first seat when None)."""
    i = players.index(first) if first is not None else 0
    return players[i:] + players[:i]


def next_in(order: tuple[str, ...], current: str | None, out: Iterable[str] = ()) -> str | None:
    """Returns the next player after `current` in `order` who is not `out` (None: nobody).

    With `current` None (or not seated), the first player of `order` still in is next.
    """
    gone = set(out)
    if current is None or current not in order:
        return next((p for p in order if p not in gone), None)
    i = order.index(current)
    return next((p for p in order[i + 1:] + order[:i + 1] if p not in gone), None)


def hide_hands(hands: dict[str, tuple[str, ...]], player: str) -> dict[str, tuple[str, ...]]:
    """Returns the hands as `player` sees them: every other hand face down, its size known."""
    return {p: h if p == player else (HIDDEN,) * len(h) for p, h in hands.items()}


def hide_deck(deck: dict[str, int]) -> dict[str, int]:
    """Returns a shuffled deck as anyone sees it: how many cards, not which."""
    return {HIDDEN: sum(deck.values())}
