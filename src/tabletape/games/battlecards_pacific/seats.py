"""The seats: who enters each event, and what each seat may know (engine.seats).

Each play is entered by the player who makes it: the drawing player draws their own Conflict
and Arsenal cards (Playing the Game), and the firing player turns the Conflict card for their
own shot (Firing a Unit). What the table does not see: the Arsenal cards drawn into a Reserve
Hand and the units deployed from it face down (To Set Up the Game), a Conflict card kept face
down (Playing the Game), and what a card has one player show another (bcp.conflict.reveal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from msgspec.structs import replace

from tabletape.engine.kit.multiset import swapped
from tabletape.engine.kit.turns import HIDDEN, head
from tabletape.engine.seats import Held, Secret
from tabletape.tape.events import Event

from . import lookups as q
from .components import Lookups
from .events import (
    ArsenalDrawn,
    BattleDecided,
    BcpEvent,
    CardsRevealed,
    ConflictDrawn,
    ConflictTurned,
    DeploymentFinished,
    EmergencyDeclined,
    EmergencyDeployed,
    UnitDeployed,
    UnitFired,
    UnitWithdrawn,
    WithdrawalFinished,
)
from .legality import DRAWS
from .state import State, Step

# The field naming the seat that enters each event. Every draw names its drawer; the card
# turned for a shot is turned by the player who fired (Firing a Unit), who enters it: that
# also has it offered as `candidates`, since the deck it comes from holds what others keep.
OWNERS: dict[type, str | None] = {
    ArsenalDrawn: "player",  # the drawer (bcp.setup.deal, bcp.conflict.draw)
    UnitDeployed: "player",
    DeploymentFinished: "player",
    EmergencyDeployed: "player",
    EmergencyDeclined: "player",
    ConflictDrawn: "player",  # the drawing player (Playing the Game)
    CardsRevealed: "player",  # the player who shows (bcp.conflict.reveal)
    BattleDecided: "player",  # the aggressor (bcp.battle.aggressor-decides)
    UnitFired: "player",
    ConflictTurned: "player",  # the firing player turns it (Firing a Unit)
    UnitWithdrawn: "player",
    WithdrawalFinished: "player",
}


def _kept_face_down(lk: Lookups, state: State, event: ConflictDrawn) -> bool:
    """A Conflict card that says to keep it goes face down beside its drawer's stacks
    (bcp.conflict.keep); any other is followed in the open and discarded face up."""
    card = lk.cards.get(event.card)
    return card is None or card.keep  # a card the box lacks is refused; hidden meanwhile


SECRETS: dict[type, Secret] = {
    # To Set Up the Game: a player looks at their own Reserve Hand in secret
    ArsenalDrawn: Secret(fields=("unit",), seen_by=("player",)),
    # To Set Up the Game: deployed face down; which stack it joins is seen (its type)
    UnitDeployed: Secret(fields=("unit",), seen_by=("player",)),
    # Emergency Deployment: the whole Reserve Hand goes face down (how many is seen)
    EmergencyDeployed: Secret(fields=("units",), seen_by=("player",)),
    # Playing the Game: a Kept Card is face down; other Conflict cards are read out
    ConflictDrawn: Secret(fields=("card",), seen_by=("player",), when=_kept_face_down),
    # bcp.conflict.reveal: shown to the drawing player alone
    CardsRevealed: Secret(fields=("cards",), seen_by=("player", "to")),
}


# -- the draws, as their drawer can tell them apart -----------------------------------------

def candidates(lk: Lookups, state: State, player: str) -> Iterable[BcpEvent]:
    """Returns the outcomes of `player`'s own draw, sorted by name: each card of the box that
    they cannot rule out from their own view (so every card another player may hold face
    down stays in); none when chance draws nothing for them now.

    The Conflict deck is never offered as it stands: it lacks the cards others keep face
    down (bcp.conflict.keep). The Arsenal deck is the player's side's alone, so what they
    cannot rule out is that deck itself, read from what they see."""
    return list(_candidates(lk, state, player))


def _candidates(lk: Lookups, state: State, player: str) -> Iterator[BcpEvent]:
    view = q.view(state, player)  # everything below is read from what the player sees
    if view.result is not None:
        return
    b = view.battle
    if b is not None:
        s = b.shot
        if s is None or s.player != player:
            return
        for c in _unseen_conflict(lk, view):  # Firing a Unit: turned for the shot
            a = lk.cards[c].action
            yield ConflictTurned(player=player, unit=s.unit, target=s.target, card=c, action=a,
                                 above=s.above, upto=s.upto, hit=s.above < a <= s.upto)
        return
    h = head(view)
    if h is None or h.player != player:
        return
    if h.step in DRAWS:
        for u in _unseen_arsenal(lk, view, player):
            yield ArsenalDrawn(player=player, unit=u)
    elif h.step is Step.DRAW_CONFLICT:
        for c in _unseen_conflict(lk, view):
            yield ConflictDrawn(player=player, card=c)


def _unseen_conflict(lk: Lookups, view: State) -> list[str]:
    """Returns the Conflict cards a view cannot rule out: the box's, less the discard pile,
    the Kept Cards it shows face up (its own), the BATTLECARDS won and the one in play."""
    th = lk.theatre
    seen = Counter(view.conflict_discard[th])
    for p in view.players:
        seen.update(c for c in view.kept[p] if c != HIDDEN)
        seen.update(view.won[p])
    if view.drawn is not None:
        seen[view.drawn] += 1
    return sorted(c for c, n in lk.conflict.items() if n > seen[c])


def _unseen_arsenal(lk: Lookups, view: State, player: str) -> list[str]:
    """Returns the Arsenal cards of `player`'s side a view cannot rule out: the box's, less
    the side's casualties and every card of the side it shows in Reserve Hands and stacks
    (no Arsenal card is drawn during a battle): in the two-player game, their Arsenal deck."""
    side = view.sides[player]
    seen = Counter(view.arsenal_discard[side])
    for p in view.players:
        if view.sides[p] == side:
            seen.update(u for u in (*view.reserve[p], *q.deployed(view, p)) if u != HIDDEN)
    return sorted(u for u, n in lk.arsenal[side].items() if n > seen[u])


# -- the hand panel -------------------------------------------------------------------------

def held(lk: Lookups, view: State, player: str) -> tuple[Held, ...]:
    """Returns a player's own hidden cards from their own view: the Reserve Hand (To Set Up
    the Game) and the Kept Cards (bcp.conflict.keep), each whole, even when empty."""
    return (Held("Reserve Hand", view.reserve[player]), Held("Kept Cards", view.kept[player]))


def drawable(lk: Lookups, state: State, event: Event) -> State:
    """Returns the state with the card or unit a draw names put in its deck in place of
    another (`engine.seats.drawable`): the table plays on while the umpire rules."""
    if isinstance(event, (ConflictDrawn, ConflictTurned)):
        return replace(state, conflict=swapped(state.conflict, lk.theatre, event.card))
    if isinstance(event, ArsenalDrawn):
        side = state.sides[event.player]
        return replace(state, arsenal=swapped(state.arsenal, side, event.unit))
    return state
