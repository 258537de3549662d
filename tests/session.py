"""A long recording session of legal play, with corrections, notes and the odd dispute.

No single game of the bundled rules lasts more than a few thousand events, yet the
benchmark and the index tests need logs of any length that still validate. A
session here is what a table exploring a game would record: random legal play
(as `simulate`), and whenever the game would end (or now and then at random) the
table takes back a few moves with `undone` and plays on differently. Every event
is legal, so the log validates; `undone` reaches back at most MAX_UNDO_DEPTH.
Only the tests and bench/run.py use it: it lives with the tests, out of the package.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from tabletape.engine import CHANCE, MAX_UNDO_DEPTH, Ruleset
from tabletape.tape.events import Event, Header, Note, Undone


def session(ruleset: Ruleset, header: Header, seed: int, events: int, *,
            rewind: float = 0.02, notes: float = 0.01, disputes: float = 0.0001
            ) -> Iterator[Event]:
    """Yields `events` legal events (seq 1 onwards) of a game that is rewound instead of ending.

    `rewind`, `notes` and `disputes` are the chances, per event, of taking back a
    few moves, of a note about a recent event, and of a dispute about one.
    """
    rng = random.Random(seed)
    ruleset = ruleset.bind(header)
    state = ruleset.initial()
    stack: list[tuple[int, object]] = []  # (seq, state before) of the effective game events
    seq = 0
    owed = 0  # undos still to come in the current rewind
    while seq < events:
        seq += 1
        roll = rng.random()
        if stack and not owed and (roll < rewind or ruleset.pending(state) is None):
            owed = rng.randint(1, min(len(stack), 60))  # take back up to 60 moves at once
        if owed and stack:
            owed -= 1
            target, state = stack.pop()
            yield Undone(target=target)
            continue
        if roll < rewind + notes + disputes and seq > 1:
            dispute = roll >= rewind + notes
            about = rng.randrange(max(1, seq - 50), seq)
            yield Note(text=f"a note about seq {about}", about=about, dispute=dispute)
            continue
        event = _random_legal(ruleset, state, rng)
        stack.append((seq, state))
        del stack[:-MAX_UNDO_DEPTH]  # the fold forgets as far back as this too
        state = ruleset.apply(state, event)
        yield event


def _random_legal(ruleset: Ruleset, state: object, rng: random.Random) -> Event:
    """Returns a legal next event: uniform for players, by weight for chance (as simulate)."""
    decision = ruleset.pending(state)
    options = list(ruleset.legal(state))
    if decision is not None and decision.actor == CHANCE:
        return rng.choices(options, ruleset.weights(state, options))[0]
    return rng.choice(options)
