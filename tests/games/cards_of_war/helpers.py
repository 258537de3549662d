"""Builders for the Cards of War rule stories: a started game, a fed event, a laid-out table.

Every story plays the bundled deck, so one ruleset bound to it (`RS`) judges them all;
the options in force live in each state.
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.games.cards_of_war import RULESET, CardsOfWar
from tabletape.games.cards_of_war.events import (
    CardDeployed,
    CardDiscarded,
    CardDrawn,
    HandReported,
    OpeningCardDrawn,
    Options,
)
from tabletape.games.cards_of_war.lookups import theatre_counts
from tabletape.games.cards_of_war.state import COMMON, Battle, Owed, Phase, State, Step
from tests import story
from tests.narrow import only

A, B = "alice", "bob"
PLAYERS = (A, B)

__all__ = [
    "A", "B", "COMMON", "PLAYERS", "RS", "RULESET", "Battle", "CardDeployed", "CardDiscarded",
    "CardDrawn", "HandReported", "OpeningCardDrawn", "Options", "Owed", "Phase", "State", "Step",
    "battle", "bound", "deploy", "draw", "feed", "header", "refused", "report", "start", "table",
]


def header(**options):
    """Returns a game header for alice and bob with the default deck."""
    return RULESET.start(PLAYERS, Options(**options), RULESET.default_components())


def bound(**options) -> CardsOfWar:
    """Returns the ruleset bound to a game of alice and bob with the default deck."""
    return RULESET.bind(header(**options))


RS = bound()  # the rules of the bundled deck, whatever the options


def start(**options) -> State:
    """Returns the table before the opening draw."""
    return bound(**options).initial()


def feed(state: State, *events) -> State:
    """Checks each event (it must be legal) and applies it; returns the final state."""
    return story.play(RS, state, *events)


def refused(state: State, ev) -> str | None:
    """Returns the rule id `check` refuses the event with (None: legal)."""
    v = story.violation(RS, state, ev)
    return v.rule if v else None


def deploy(player: str, card: str, battle: int, **kw) -> CardDeployed:
    return CardDeployed(player=player, card=card, battle=battle, **kw)


def deploys(state: State) -> list[CardDeployed]:
    """Returns the events `legal` offers, each a deployment (the test fails otherwise)."""
    return only(CardDeployed, RS.legal(state))


def draw(player: str, card: str) -> CardDrawn:
    return CardDrawn(player=player, card=card)


def report(state: State, player: str) -> HandReported:
    """Returns the truthful recon answer for `player`'s hand."""
    counts = theatre_counts(RS.lk, state.hands[player])
    return HandReported(player=player, air=counts["air"], sea=counts["sea"], ground=counts["ground"],
                        intel=counts["intel"])


def battle(alice=(), bob=(), theatre=None) -> Battle:
    """Returns an open battle with the given piles (bottom first)."""
    return Battle(piles={A: tuple(alice), B: tuple(bob)}, theatre=theatre)


def _take_all(deck: dict[str, int], cards) -> dict[str, int]:
    out = dict(deck)
    for name in cards:
        out[name] -= 1
        if not out[name]:
            del out[name]
    return out


def table(*, hands=None, battles=None, turn=A, first=None, steps=(), deck=None,
          discards=(), state=None, **options) -> State:
    """Returns a game in play laid out directly: hands, battles, draw pile and discards.

    `deck` (card -> count) and `discards` (bottom first) set every owner's piles alike;
    without `deck`, the full deck less the cards in hand and on the table. Pass per-owner
    dicts via msgspec's `replace` afterwards for a 2 Deck story.
    """
    if state is None:
        state = start(**options)
    hands = {A: (), B: (), **{p: tuple(sorted(h)) for p, h in (hands or {}).items()}}
    battles = tuple(battles) if battles else tuple(battle() for _ in range(3))
    if deck is None:
        decks = dict(state.decks)
        for p in PLAYERS:
            own = p if state.options.two_decks else COMMON
            on_table = [c for b in battles for c in b.piles[p]]
            decks[own] = _take_all(decks[own], (*hands[p], *on_table))
    else:
        decks = {o: dict(deck) for o in state.decks}
    return replace(state, phase=Phase.PLAY, hands=hands, battles=battles, turn=turn,
                   first=first or turn, steps=tuple(steps), decks=decks,
                   discards={o: tuple(discards) for o in state.decks})
