"""Liberation force-card abilities and country instructions, as steps owed after a play.

A play lays the card down and queues what it sets in motion (lib.ability.order): its
own ability, the first-card draw, the country's instruction, then the end of the turn
(or, in a double-play country, the chance of a second card).
"""

from __future__ import annotations

from msgspec.structs import replace

from . import table as t
from .components import Ability, Trigger
from .events import ForceCardPlayed, PlayedCardTaken, PlayedCardTurned
from .state import Owed, Played, State, Step


def play_card(state: State, ev: ForceCardPlayed) -> State:
    """A card goes face up; its ability and the country's instruction are owed in order."""
    me, c = ev.player, t.card(state, ev.card)
    first = state.plays[me] == 0
    state = replace(state, hands={**state.hands, me: t.without(state.hands[me], ev.card)},
                    plays={**state.plays, me: state.plays[me] + 1}, turn_plays=state.turn_plays + 1)
    owed: list[Owed] = []
    if c.ability is Ability.TRADE_CARD:  # placed once the card it is traded for is chosen
        owed.append(Owed(Step.TAKE, me, card=ev.card))
    else:
        state = replace(state, played={**state.played, me: state.played[me] + (Played(ev.card),)})
    match c.ability:
        case Ability.TURN_OVER:
            owed.append(Owed(Step.TURN_OVER, me, card=ev.card))
        case Ability.TURN_UP:
            owed.append(Owed(Step.TURN_UP, me, card=ev.card))
        case Ability.ALL_TURN_DOWN:
            owed += [Owed(Step.TURN_DOWN_OWN, q, card=ev.card)
                     for q in t.clockwise(state, me) if q != me]
        case Ability.TRADE_HANDS:
            owed.append(Owed(Step.SWAP, me, card=ev.card))
        case Ability.FIRST_DRAW if first:
            owed.append(Owed(Step.DRAW, me, card=ev.card))
    land = t.country(state)
    if land and land.card_type == c.type:
        if land.trigger is Trigger.TURN_OVER:
            owed.append(Owed(Step.TURN_OVER, me, card=land.name))
        elif land.trigger is Trigger.DRAW:
            owed.append(Owed(Step.DRAW, me, card=land.name))
    again = (land is not None and land.trigger is Trigger.DOUBLE_PLAY and state.turn_plays == 1
             and c.ability is not Ability.TRADE_HANDS)  # lib.country.double-play.second
    owed.append(Owed(Step.SECOND if again else Step.END_TURN, me))
    return replace(state, steps=tuple(owed) + state.steps)


def turned(state: State, ev: PlayedCardTurned) -> State:
    """A card is turned; a targeted holder of a prevent card first gets to answer."""
    h, rest = state.steps[0], state.steps[1:]
    if h.step is Step.TURN_OVER and t.holds(state, ev.owner, Ability.PREVENT):
        window = Owed(Step.PREVENT, ev.owner, card=h.card, owner=ev.owner, slot=ev.slot, by=ev.player)
        return replace(state, steps=(window,) + rest)
    return flip(replace(state, steps=rest), ev.owner, ev.slot, ev.face_up)


def flip(state: State, owner: str, slot: int, up: bool) -> State:
    """Returns the state with one played card turned face up or down."""
    row = state.played[owner]
    row = row[:slot] + (replace(row[slot], up=up),) + row[slot + 1:]
    return replace(state, played={**state.played, owner: row})


def taken(state: State, ev: PlayedCardTaken) -> State:
    """The trade card takes the chosen card's place in its owner's row."""
    h, rest = state.steps[0], state.steps[1:]
    row = state.played[ev.owner]
    got = row[ev.slot].card
    row = row[:ev.slot] + (Played(h.card),) + row[ev.slot + 1:]
    return replace(state, steps=rest, played={**state.played, ev.owner: row},
                   hands={**state.hands, ev.player: t.with_cards(state.hands[ev.player], got)})
