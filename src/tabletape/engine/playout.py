"""Whole games played by agents, in memory: no JSON written, no chain hashed.

One loop (`play`) asks each decision of the seat whose it is (an `Agent`), and chance's of
a draw by weight with the game's seeded generator, as `simulate` does. What a game's
figures need is counted as it goes (`Played`): its length in events, turns and rounds,
who won, when the final winner took the lead for good (where the state carries a score),
and what each seat played (the rules exercised, the cards named).
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect
from collections.abc import Callable, Mapping
from functools import partial
from itertools import accumulate, islice
from typing import Any, Protocol
from weakref import WeakKeyDictionary

import msgspec

from tabletape.engine.kit.contract import Extras
from tabletape.engine.kit.packaged import Packaged
from tabletape.engine.protocol import CHANCE, Ruleset
from tabletape.tape.events import Event

MAX_EVENTS = 20_000  # a game that runs longer is cut off: it counts as not completed


class Agent(Protocol):
    """A player's policy: chooses one of its seat's legal events."""

    name: str

    def choose(self, rs: Ruleset[Any, Any, Any], seat: str, game: Game, options: list[Event],
               rng: random.Random) -> Event: ...


class Game:
    """A game in progress as the loop holds it: the bound ruleset, the state and the events.

    Agents are handed this object with their legal events; the ones that respect hidden
    information read it only through `knowledge` (engine.agents), never `state` directly.
    """

    __slots__ = ("rs", "state", "events", "initial")

    def __init__(self, rs: Ruleset[Any, Any, Any]) -> None:
        self.rs = rs
        self.initial = rs.initial()
        self.state = self.initial
        self.events: list[Event] = []


class Played(msgspec.Struct, frozen=True, array_like=True):
    """One game's result and the counts its figures need (seats by index)."""

    seed: int
    winners: tuple[int, ...]  # empty: a draw (or no winner), or cut off
    completed: bool  # False: cut off at the event cap
    events: int
    turns: int  # runs of decisions by one player, chance's between them not counted
    rounds: int  # turns begun by the first seat
    lead_from: float | None  # the fraction of the game after which the winner led for good
    used: tuple[tuple[str, ...], ...]  # per seat: the rules and cards its own events exercised


def game_seed(run_seed: int, index: int) -> int:
    """Returns the seed of game `index` of a run: the same whatever process plays it."""
    digest = hashlib.sha256(f"tabletape-balance {run_seed} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


NONE: Extras[Any, Any, Any] = Extras()


def extras(rs: Ruleset[Any, Any, Any]) -> Extras[Any, Any, Any]:
    """Returns the game's optional parts (a game made with the kit declares them; any other
    ruleset has none)."""
    return rs.extras if isinstance(rs, Packaged) else NONE


def scorer(rs: Ruleset[Any, Any, Any]) -> Callable[[Any], Mapping[str, int]] | None:
    """Returns `score(state)`: the running score the game's states carry (victory points,
    rounds won: its `Extras.score`), or None for a game that keeps none."""
    return extras(rs).score


def mover(rs: Ruleset[Any, Any, Any]) -> Callable[[Any], str | None]:
    """Returns `actor(state)`: who decides next (CHANCE for chance), None once the game is
    over: the game's `Extras.actor` where it has one (pending's actor without
    the sentence, pinned to it in tests/app/test_balance_speed.py), else `pending`'s."""
    fast = extras(rs).actor
    if fast is not None:
        return partial(fast, rs.lk)
    pending = rs.pending

    def actor(state: Any) -> str | None:
        decision = pending(state)
        return None if decision is None else decision.actor
    return actor


def samplers(rs: Ruleset[Any, Any, Any]) -> tuple[Callable[[Any, Callable[[], float]], Event],
                                   Callable[[Any, Callable[[int], int]], Event]]:
    """Returns `by_chance(state, random)` and `by_player(state, below)`: the event random play
    draws for chance (by weight) and for a player (uniformly), as `simulate` draws it from
    the same generator (`random.choices` and `random.choice`, whose `random` and `_randbelow`
    these are handed), without making every legal event where the game has the fast paths:
    its `Extras.odds` (chance's weights in `legal`'s order) and `nth` (the i-th
    event `legal` yields), each None where it has no cheap answer, and `pick(lk, state,
    below)` (a player's draw whole: `below(count)`'s event, counted and found at once; None,
    `below` not asked, where it has none) and `chance(lk, state, random)` (chance's draw
    whole); otherwise the game's `count` and `legal` up to the one drawn."""
    legal, weights, count = rs.legal, rs.weights, rs.count
    fast, lk = extras(rs), rs.lk
    odds: Callable[[Any], list[int] | None] = partial(fast.odds, lk) if fast.odds else _none
    nth: Callable[[Any, int], Event | None] = partial(fast.nth, lk) if fast.nth else _none
    pick: Callable[[Any, Callable[[int], int]], Event | None] = (
        partial(fast.pick, lk) if fast.pick else _none)

    def by_chance(state: Any, rand: Callable[[], float]) -> Event:
        w = odds(state)
        options: list[Event] | None = None
        if w is None:
            options = list(legal(state))
            w = weights(state, options)
        # random.choices(options, w)[0]: the same number drawn, the same index picked
        cum = list(accumulate(w))
        i = bisect(cum, rand() * (cum[-1] + 0.0), 0, len(cum) - 1)
        if options is not None:
            return options[i]
        event = nth(state, i)
        return event if event is not None else next(islice(legal(state), i, None))

    def by_player(state: Any, below: Callable[[int], int]) -> Event:
        event = pick(state, below)
        if event is not None:
            return event
        n = count(state)
        if n <= 0:  # (random.choice would raise, `below(0)` never return)
            raise RuntimeError(f"no legal event in {state!r} — a rules bug")
        i = below(n)  # random.choice's draw over `count` events
        event = nth(state, i)
        return event if event is not None else next(islice(legal(state), i, None))
    if fast.chance is not None:  # the game's own draw for chance, whole
        return partial(fast.chance, lk), by_player
    return by_chance, by_player


Move = Callable[[Any, Callable[[], float], Callable[[int], int]], tuple[str, Event] | None]


def drawer(rs: Ruleset[Any, Any, Any]) -> Move | None:
    """Returns `draw(state, random, below)`: random play's next move whole, who decides and
    the event drawn (None once over), where the game declares it (`Extras.draw`), else None."""
    fast = extras(rs).draw
    return partial(fast, rs.lk) if fast is not None else None


def randomly(rs: Ruleset[Any, Any, Any]) -> Move:
    """Returns `draw(state, random, below)`: the game's (`drawer`), or `mover`'s actor and
    `samplers`' event for it."""
    fast = drawer(rs)
    if fast is not None:
        return fast
    who = mover(rs)
    by_chance, by_player = samplers(rs)

    def draw(state: Any, rand: Callable[[], float], below: Callable[[int], int]
             ) -> tuple[str, Event] | None:
        actor = who(state)
        if actor is None:
            return None
        return actor, by_chance(state, rand) if actor == CHANCE else by_player(state, below)
    return draw


def below_of(rng: random.Random) -> Callable[[int], int]:
    """Returns the generator's draw of an index below n: the one `random.choice` makes (and
    `randrange(n)` after its checks), so the same seed picks the same option."""
    below: Callable[[int], int] = rng._randbelow  # type: ignore[attr-defined]  # (not in typeshed)
    return below


def _none(*args: Any) -> None:
    return None


# what each distinct event of a bound ruleset exercised, kept across its games (a few
# thousand at most: a game's events are drawn from its cards, seats and places)
_FEATURES: WeakKeyDictionary[Ruleset[Any, Any, Any], dict[Event, tuple[str, ...]]] = WeakKeyDictionary()


def features(rs: Ruleset[Any, Any, Any], event: Event) -> tuple[str, ...]:
    """Returns what a player's event exercised: its rules (`rule:ID`) and its card (`card:X`)."""
    out = tuple(f"rule:{r}" for r in rs.governing(event))
    card = getattr(event, "card", None)
    if isinstance(card, str):
        out += (f"card:{card}",)
    return out


def _used(rs: Ruleset[Any, Any, Any], events: set[Event]) -> tuple[str, ...]:
    """Returns the features of a seat's events, sorted (each event's worked out once per
    bound ruleset)."""
    known = _FEATURES.get(rs)
    if known is None:
        known = _FEATURES[rs] = {}
    elif len(known) > 100_000:
        known.clear()
    try:  # (each event looked up once: a game's are many)
        found = list(map(known.__getitem__, events))
    except KeyError:  # some events are new to this ruleset (after its first games, rarely)
        for e in events.difference(known):
            known[e] = features(rs, e)
        found = list(map(known.__getitem__, events))
    return tuple(sorted(set().union(*found)))


def play(rs: Ruleset[Any, Any, Any], agents: Mapping[str, Agent], seed: int, *,
         max_events: int = MAX_EVENTS,
         visit: Callable[[Event, Any], None] | None = None) -> Played:
    """Plays one game on a bound ruleset with one agent per seat; `visit(event, state)`
    is told every event (writing a log, counting independently). Deterministic for a seed.
    """
    rng = random.Random(seed)
    rand, below = rng.random, below_of(rng)
    game = Game(rs)
    players = tuple(rs.header.players)
    seat_of = {p: i for i, p in enumerate(players)}
    # each seat's own events, listed (one set made of each at the end, not grown event by event)
    mine: dict[str, list[Event]] = {p: [] for p in players}
    add_mine = {p: s.append for p, s in mine.items()}  # (bound once: one call per event)
    uniform = {p: getattr(a, "uniform", False) for p, a in agents.items()}
    turns = rounds = 0
    actor: str | None
    last_actor = None
    leader_since: int | None = 0
    leader: str | None = None
    state = game.state
    score_ref = scorer(rs)
    last_score: Any = None
    pending, legal = rs.pending, rs.legal
    apply, lk = _direct(rs.apply)
    by_chance, by_player = samplers(rs)
    who = mover(rs)
    # every seat uniform: the game's move whole, where it has one (one call, not three)
    move_of = drawer(rs) if all(uniform.values()) else None
    draw, lk_draw = _direct(move_of) if move_of is not None else (None, None)
    # the events so far, which agents read (Game.events); with every seat uniform none does:
    # then they are counted, not kept (a game's hundreds of events not held in memory)
    keep = game.events.append if draw is None else None
    first = players[0]
    n = 0
    for n in range(1, max_events + 1):  # n: the events played once this one is
        if draw is not None:
            move = draw(lk_draw, state, rand, below)
            if move is None:
                n -= 1
                break
            actor, event = move
        else:
            actor = who(state)
            if actor is None:
                n -= 1
                break
            if actor == CHANCE:
                event = by_chance(state, rand)
            elif uniform[actor]:
                event = by_player(state, below)  # (uniform play needs only the chosen event)
            else:
                game.state = state
                event = agents[actor].choose(rs, actor, game, list(legal(state)), rng)
        if actor != CHANCE:
            if actor != last_actor:
                turns += 1
                rounds += actor == first
                last_actor = actor
            add_mine[actor](event)
        state = apply(lk, state, event)
        if keep is not None:
            keep(event)
        if visit is not None:
            visit(event, state)
        if score_ref is not None:
            score = score_ref(state)
            if score is not last_score:  # (a state made by `replace` shares what is unchanged)
                last_score = score
                leader, leader_since = _lead(score, leader, leader_since, n)
    game.state = state
    scored = score_ref is not None
    outcome = rs.outcome(state) if pending(state) is None else None
    winners = tuple(seat_of[w] for w in outcome.winners) if outcome else ()
    lead = None
    if scored and outcome and len(outcome.winners) == 1 and leader == outcome.winners[0] \
            and leader_since is not None and n:
        lead = round(leader_since / n, 4)
    return Played(seed=seed, winners=winners, completed=outcome is not None, events=n,
                  turns=turns, rounds=rounds, lead_from=lead,
                  used=tuple(_used(rs, set(mine[p])) for p in players))


def _direct(rule: Callable[..., Any]) -> tuple[Callable[..., Any], Any]:
    """Returns a rule as its function and the first argument it is bound to (a kit game's
    rules are partials over its lookups): the loop calls the game's own function, which
    the interpreter does without a frame of C for the partial (about 1% of a
    BATTLECARDS playout's instructions); any other rule is called as it is."""
    if isinstance(rule, partial) and len(rule.args) == 1 and not rule.keywords:
        return rule.func, rule.args[0]
    return (lambda _, *args: rule(*args)), None


def _lead(score: Mapping[str, int] | None, leader: str | None, since: int | None, n: int
          ) -> tuple[str | None, int | None]:
    """Returns who leads alone and since which event (None: nobody leads alone)."""
    if not score:
        return None, None
    best = max(score.values())
    top = [p for p, v in score.items() if v == best]
    now = top[0] if len(top) == 1 else None
    if now is None:
        return None, None
    return (leader, since) if now == leader else (now, n)
