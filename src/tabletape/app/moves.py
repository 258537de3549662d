"""A seat's moves as a tree of steps (issue 34): one question per tap, never a flat list of
combinations.

The events offered to a seat (app.play.Table: already cut to what the seat may know) are
arranged by the steps the game gives each of them (engine.kit.moves: "Which card of your
hand?" then "To which battle?"); the events that share their first answers share the
first steps. A step every offered event answers the same way is skipped; a step of more
than MOST answers is asked in two (the game's sections, else ranges of names); a ticked
step offers each item of a set once. Each leaf is an offered event and the sentence the
log will record, which the page confirms.

The builder only arranges the offered events: it asks the game for words, never for
more events, and it reads the seat's own view for them.

Set-up (engine.kit.moves.setup): while the game waits on chance for a kind of event that
sets the table up in the open, one seat (the first player, or the umpire) is offered the
whole set-up as one move, drawn at random by the server (`draw_setup`), or chosen step by
step; the other seats wait.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from tabletape import engine
from tabletape.engine import CHANCE, seats
from tabletape.engine.kit import moves as kit
from tabletape.engine.kit.moves import MOST, Pick
from tabletape.tape.events import Event

MAX_SETUP = 500  # the most events one set-up draws (a game's set-up is a few dozen)
RANDOM = "Set up at random"
SECTIONED = 12  # a step of more answers than this is asked by the game's sections, if any


class Leaf(msgspec.Struct, frozen=True):
    """An offered event: the sentence the log will record, and the event as the page posts it."""

    sentence: str
    event: dict[str, Any]


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """One answer of a step: the next step it leads to, or the event it completes.

    In a ticked step a choice is one set (`ticks`); `setup` is the set-up drawn at random."""

    label: str
    ticks: list[str] | None = None
    next: Step | None = None
    move: Leaf | None = None
    setup: bool = False


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One question of the builder and its answers (at most MOST buttons shown)."""

    ask: str
    tick: bool = False
    choices: list[Choice]


class _Item(msgspec.Struct):
    picks: tuple[Pick, ...]
    leaf: Leaf


def tree(rs: engine.Ruleset[Any, Any, Any], view: Any, offered: list[Event], setup: bool = False
         ) -> Step | None:
    """Returns the builder's first step for the `offered` events (None when there are none),
    the words read from `view` (the seat's own); with `setup`, the set-up drawn at random
    is offered first."""
    items = [_Item(kit.steps(rs, view, e) or (Pick("What do you do?", engine.describe(rs, e)),),
                   Leaf(engine.describe(rs, e), msgspec.to_builtins(e))) for e in offered]
    if not items:
        return None
    first = _step(items, 0)
    if not setup:
        return first
    drawn = Choice(label=RANDOM, setup=True)
    choose = Choice(label="Choose it yourself", next=first)
    return Step(ask="Set up the table", choices=[drawn, choose])


def _step(items: list[_Item], depth: int) -> Step:
    """Returns the step asking the `depth`-th question of `items` (skipping a question they
    all answer alike, unless it completes them)."""
    asks = [i.picks[depth].ask for i in items if len(i.picks) > depth]
    ask = max(set(asks), key=asks.count) if asks else "Which?"
    tick = bool(asks) and all(i.picks[depth].ticks is not None for i in items
                              if len(i.picks) > depth)
    groups: dict[Any, list[_Item]] = {}
    ended: list[_Item] = []
    for i in items:
        if len(i.picks) <= depth:
            ended.append(i)
            continue
        p = i.picks[depth]
        key = tuple(sorted(p.ticks)) if tick and p.ticks is not None else p.label
        groups.setdefault(key, []).append(i)
    choices: list[Choice] = []
    sections: list[str] = []
    for e in ended:  # an event completed before the others: its own sentence is its answer
        choices.append(Choice(label=e.leaf.sentence, move=e.leaf))
        sections.append("")
    for key, group in groups.items():
        p = group[0].picks[depth]
        ticks = list(key) if tick else None
        done = [i for i in group if len(i.picks) == depth + 1]
        if len(done) == len(group) and tick:  # the same set in another order: one move
            choices.append(Choice(label=p.label, ticks=ticks, move=group[0].leaf))
            sections.append(p.section)
        elif len(done) == len(group):
            for n, i in enumerate(group):  # events alike in every answer: told apart by number
                label = p.label if n == 0 else f"{p.label} ({n + 1})"
                choices.append(Choice(label=label, ticks=ticks, move=i.leaf))
                sections.append(p.section)
        else:
            after = _step(group, depth + 1)
            only = after.choices[0] if len(after.choices) == 1 else None
            if only is not None and only.move is not None:  # one way on: this answer ends it
                choices.append(Choice(label=p.label, ticks=ticks, move=only.move))
            else:
                choices.append(Choice(label=p.label, ticks=ticks, next=after))
            sections.append(p.section)
    if len(choices) == 1 and choices[0].next is not None:  # nothing to ask here
        return choices[0].next
    if tick:
        return Step(ask=ask, tick=True, choices=choices)
    return _capped(ask, choices, sections)


def _capped(ask: str, choices: list[Choice], sections: list[str]) -> Step:
    """Returns a step of at most MOST answers: one of more than SECTIONED asked in two by
    the game's sections (when it gives a few), one still longer by ranges of answers in
    order."""
    named = list(dict.fromkeys(sections))
    if len(choices) > SECTIONED and 1 < len(named) <= MOST and "" not in named:
        parts = [[c for c, s in zip(choices, sections, strict=True) if s == name]
                 for name in named]
        return Step(ask=ask, choices=[
            Choice(label=name, next=_capped(ask, part, [""] * len(part)))
            for name, part in zip(named, parts, strict=True)])
    if len(choices) <= MOST:
        return Step(ask=ask, choices=choices)
    ranges = min(MOST, -(-len(choices) // MOST))  # as few as hold them, MOST at most
    size = -(-len(choices) // ranges)
    chunks = [choices[k:k + size] for k in range(0, len(choices), size)]
    return Step(ask=ask, choices=[
        Choice(label=f"{c[0].label} … {c[-1].label}" if len(c) > 1 else c[0].label,
               next=_capped(ask, c, [""] * len(c)))
        for c in chunks])


def buttons(step: Step | None) -> int:
    """Returns the most buttons any step of the tree shows at once (ticked: its items)."""
    if step is None:
        return 0
    here = (len({t for c in step.choices for t in (c.ticks or ())}) if step.tick
            else len(step.choices))
    deeper = [buttons(c.next) for c in step.choices if c.next is not None]
    return max([here, *deeper])


def leaves(step: Step | None) -> list[Leaf]:
    """Returns every event the tree leads to, in order: each offered event once (of two that
    name the same ticked set in another order, the first)."""
    if step is None:
        return []
    out: list[Leaf] = []
    for c in step.choices:
        if c.move is not None:
            out.append(c.move)
        out += leaves(c.next)
    return out


# -- set-up --------------------------------------------------------------------------------

def setting_up(rs: engine.Ruleset[Any, Any, Any], state: Any, offered: list[Event]) -> bool:
    """Returns whether the game waits on chance for its set-up (every offered event is of
    a set-up kind, engine.kit.moves.setup)."""
    decision = rs.pending(state)
    if decision is None or decision.actor != CHANCE or not offered:
        return False
    kinds = kit.setup(rs)
    return all(type(e) in kinds for e in offered)


def setter(rs: engine.Ruleset[Any, Any, Any], offered: list[Event], players: tuple[str, ...]) -> str:
    """Returns the player whose page offers the set-up now: the owner of the outcomes when
    they are a player's own (a card each turns up), else the first in seat order (any
    player may enter them: one page offers them, not every phone). The umpire's page
    offers it too."""
    owners = {seats.owner(rs, e) for e in offered}
    mine = next((o for o in owners if o is not None), None)
    return mine if mine is not None else players[0]


def draw_setup(rs: engine.Ruleset[Any, Any, Any], state: Any, rand: random.Random, player: str | None
               ) -> list[Event]:
    """Returns the set-up events drawn at random from `state` on (chance's legal outcomes,
    each by its weight), until the game no longer waits on chance for a set-up kind that
    `player` may enter (None: the umpire, any)."""
    kinds = kit.setup(rs)
    out: list[Event] = []
    while len(out) < MAX_SETUP:
        decision = rs.pending(state)
        if decision is None or decision.actor != CHANCE:
            break
        legal = list(rs.legal(state))
        if not legal or any(type(e) not in kinds for e in legal):
            break
        if player is not None and not all(seats.may_enter(rs, e, player) for e in legal):
            break  # another player's own outcome: theirs to draw
        event = rand.choices(legal, rs.weights(state, legal))[0]
        out.append(event)
        state = rs.apply(state, event)
    return out
