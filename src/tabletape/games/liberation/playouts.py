"""Liberation: a random playout's fast paths (engine.playout, declared in the game's
`extras`), beside legality: they answer what `legal`, `weights` and `pending` answer,
without making every event.

A random playout draws one event without making every one: chance's odds in `legal`'s order,
the i-th event `legal` yields (a card drawn; a play, as `_playable` counts them, or the pass;
an answer to an ability, as `count` counts them), chance's country or card drawn whole
(`chance`), and who decides (`actor`, pending's actor without its sentence); None elsewhere:
the playout counts through `legal`. tests/app/test_balance_speed.py pins each to `legal`,
`weights` and `pending` on simulated games.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice

from tabletape.engine import CHANCE
from tabletape.engine.kit.multiset import chosen

from . import lookups
from .components import ABILITY_PREVENT, TRIGGER_FORBID, Lookups
from .events import (
    CountryTurned,
    ForceCardPlayed,
    HandsTraded,
    LiberationEvent,
    PlayedCardTaken,
    PlayedCardTurned,
    TurnOverAccepted,
    TurnOverDeclined,
    TurnOverPrevented,
    TurnPassed,
)
from .legality import DRAWN_AT, TURNING, turn_targets
from .state import (
    CHANCE_STEPS,
    PHASE_OVER,
    STEP_PREVENT,
    STEP_SECOND,
    STEP_SWAP,
    STEP_TAKE,
    STEP_TURN_COUNTRY,
    STEP_TURN_DOWN_OWN,
    STEP_TURN_OVER,
    Owed,
    State,
)


def odds(lk: Lookups, state: State) -> list[int] | None:
    """Returns `weights(legal(state))` without making the events where chance draws a card,
    else None."""
    steps = state.steps
    if not steps or state.phase is PHASE_OVER:
        return None
    step = steps[0].step
    if step is STEP_TURN_COUNTRY:  # (each country alike)
        return [1] * len(state.countries)
    return list(state.deck.values()) if step in CHANCE_STEPS else None


def chance(lk: Lookups, state: State, random: Callable[[], float]) -> LiberationEvent:
    """Returns what chance draws where it decides: the event `random.choices` picks from
    `legal` by `weights` (`odds`'s), `random()` asked once: a country, each alike, or a kind
    of force card by how many are left."""
    h = state.steps[0]
    if h.step is STEP_TURN_COUNTRY:  # random.choices's bisect over weights of 1 each
        countries = state.countries
        n = len(countries)
        return CountryTurned(player=h.player, country=countries[min(int(random() * (n + 0.0)), n - 1)])
    return DRAWN_AT[h.step](player=h.player, card=chosen(state.deck, random))


def nth(lk: Lookups, state: State, i: int) -> LiberationEvent | None:
    """Returns the i-th event `legal` yields where that is cheap (see above), else None."""
    if state.phase is PHASE_OVER:
        return None
    steps = state.steps
    if steps:
        h = steps[0]
        step = h.step
        if step is STEP_TURN_COUNTRY:
            return CountryTurned(player=h.player, country=next(islice(state.countries, i, None)))
        if step in CHANCE_STEPS:
            return DRAWN_AT[step](player=h.player, card=next(islice(state.deck, i, None)))
        if step is not STEP_SECOND:
            return _nth_choice(lk, state, h, i)
        player: str | None = h.player
    else:
        player = state.turn
    if player is None:
        return None
    land = lk.countries[state.country] if state.country else None
    banned = land.card_type if land is not None and land.trigger is TRIGGER_FORBID else None
    cards = lk.cards
    for name in dict.fromkeys(state.hands[player]):
        if banned is None or cards[name].type != banned:
            if not i:
                return ForceCardPlayed(player=player, card=name)
            i -= 1
    return TurnPassed(player=player) if not i else None


def _nth_choice(lk: Lookups, state: State, h: Owed, i: int) -> LiberationEvent | None:
    """The i-th answer to an ability's step that `_legal_choices` yields (`_choices`)."""
    options = _choices(lk, state, h)
    return options[i] if i < len(options) else None


def _choices(lk: Lookups, state: State, h: Owed) -> list[LiberationEvent]:
    """Returns the answers to an ability's step `_legal_choices` yields, in its order, without
    asking `check` of each: the cards a turning step may turn (`turn_targets`), the prevent
    cards held, letting a turn-down stand or stopping a turn-over (where optional), another's
    face-up card to take, another player to trade hands with (as `count` counts them)."""
    step, me = h.step, h.player
    out: list[LiberationEvent] = []
    if step in TURNING:
        out += [PlayedCardTurned(player=me, owner=q, slot=slot, face_up=up)
                for q, slot, up in turn_targets(lk, state, h)]
    if step is STEP_PREVENT or step is STEP_TURN_DOWN_OWN:
        out += [TurnOverPrevented(player=me, card=c)
                for c in lookups.holds(lk, state, me, ABILITY_PREVENT)]
    if step is STEP_PREVENT:
        out.append(TurnOverAccepted(player=me))
    elif step is STEP_TURN_OVER:
        if state.options.turn_over == "optional":
            out.append(TurnOverDeclined(player=me))
    elif step is STEP_TAKE:
        out += [PlayedCardTaken(player=me, owner=q, slot=slot) for q in state.players if q != me
                for slot, p in enumerate(state.played[q]) if p.up]
    elif step is STEP_SWAP:
        out += [HandsTraded(player=me, other=q) for q in state.players if q != me]
    return out


def pick(lk: Lookups, state: State, below: Callable[[int], int]) -> LiberationEvent | None:
    """Returns the event a uniform random draw picks for a player: `legal`'s event at
    `below(count)`, its events listed once for both (None, `below` not asked, for chance)."""
    if state.phase is PHASE_OVER:
        return None
    steps = state.steps
    if steps:
        h = steps[0]
        if h.step is not STEP_SECOND:
            if h.step in CHANCE_STEPS:
                return None
            options = _choices(lk, state, h)
            return options[below(len(options))] if options else None
        player: str | None = h.player
    else:
        player = state.turn
    if player is None:
        return None
    land = lk.countries[state.country] if state.country else None
    kinds = list(dict.fromkeys(state.hands[player]))
    if land is not None and land.trigger is TRIGGER_FORBID:  # lib.country.forbid-type
        banned, cards = land.card_type, lk.cards
        kinds = [n for n in kinds if cards[n].type != banned]
    i = below(len(kinds) + 1)  # a play of each kind of card, or a pass
    return ForceCardPlayed(player=player, card=kinds[i]) if i < len(kinds) else \
        TurnPassed(player=player)


def actor(lk: Lookups, state: State) -> str | None:
    """Returns `pending(lk, state).actor` without the sentence (None once over)."""
    if state.phase is PHASE_OVER:
        return None
    steps = state.steps
    if not steps:
        return state.turn or ""
    step = steps[0].step
    return CHANCE if step in CHANCE_STEPS else steps[0].player
