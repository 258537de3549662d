"""Take-away, the toy game: the engine's tests play it; README "Adding a game" walks through it.

Two to four players take turns taking counters from one pile; whoever takes the last
counter wins. Everything a game provides is here, in one file; a real game splits the
same parts into the files every game package has (events.py, state.py, reducer.py, ...).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

import msgspec
from msgspec.structs import replace

from tabletape.engine import Decision, Outcome, Rule, Ruleset, Violation
from tabletape.engine.kit import turns
from tabletape.engine.seats import Held
from tabletape.tape.events import Event, Header, Name

Count = Annotated[int, msgspec.Meta(ge=1, le=100)]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pile: Count = 15  # counters at the start


class Components(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    most: Count = 3  # the most counters one turn may take


class Started(Header, tag="game_started", kw_only=True, frozen=True):
    options: Options = Options()
    components: Components = Components()


class Taken(Event, tag="taken", kw_only=True, frozen=True):
    player: Name
    count: Count


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    turn: str
    pile: int
    last: str | None = None  # who took the last counters


RULES = {
    "toy.turn.order": Rule("Take-away, 1", "Players take their turns in seat order."),
    "toy.take.count": Rule("Take-away, 2", "A turn takes one counter or more, up to the limit "
                                           "the components set."),
    "toy.take.pile": Rule("Take-away, 2", "A turn cannot take more counters than the pile has."),
    "toy.end.last": Rule("Take-away, 3", "Whoever takes the last counter wins at once."),
}


ToyComponents = Components  # the name a method annotation reads (the class names its own `Components`)


class TakeAway(Ruleset[Started, State, Taken]):
    id, version, title, players = "take-away", "1.0", "Take-away", (2, 4)
    Header, Options, Components, events, RULES = Started, Options, Components, (Taken,), RULES
    OWNERS = {Taken: "player"}  # each take is its player's; nothing is secret

    def default_components(self) -> ToyComponents:
        return Components()

    def initial(self) -> State:
        return State(self.header.players, self.header.players[0], self.header.options.pile)

    def pending(self, state: State) -> Decision | None:
        return Decision(state.turn, "take", f"{state.turn} takes") if state.pile else None

    def check(self, state: State, event: Taken) -> Violation | None:
        most = self.header.components.most
        if event.player != state.turn:
            return Violation("toy.turn.order", f"it is {state.turn}'s turn")
        if event.count > most:
            return Violation("toy.take.count", f"a turn takes at most {most}")
        if event.count > state.pile:
            return Violation("toy.take.pile", f"the pile has {state.pile} left")
        return None

    def apply(self, state: State, event: Taken) -> State:
        return replace(state, pile=state.pile - event.count, last=event.player,
                       turn=turns.left_of(state.players, state.turn))

    def legal(self, state: State) -> Iterator[Taken]:
        for n in range(1, min(self.header.components.most, state.pile) + 1):
            yield Taken(player=state.turn, count=n)

    def outcome(self, state: State) -> Outcome | None:
        if state.pile or state.last is None:
            return None  # toy.end.last
        return Outcome((state.last,), {p: int(p == state.last) for p in state.players},
                       f"{state.last} took the last counter")

    def view(self, state: State, player: str) -> State:
        return state  # nothing is hidden

    def candidates(self, state: State, player: str) -> list[Taken]:
        return []  # chance draws nothing

    def held(self, view: State, player: str) -> tuple[Held, ...]:
        return ()  # no one holds a hidden card

    def drawable(self, state: State, event: Taken) -> State:
        return state  # no deck

    def describe(self, event: Taken) -> str:
        return f"{event.player} takes {event.count}"

    def governing(self, event: Taken) -> tuple[str, ...]:
        return ("toy.turn.order", "toy.take.count", "toy.take.pile")


RULESET = TakeAway()
