"""Small pure queries on a Cards of War state: owners of piles, pile sizes, scores, recon
counts, and the state as one player sees it.

The owed steps and hidden hands come from engine.kit.turns; card facts from `Lookups`.
"""

from __future__ import annotations

from msgspec.structs import replace

from tabletape.engine.kit import turns

from .components import Lookups
from .state import COMMON, Battle, State, Step


def other(state: State, player: str) -> str:
    """Returns the opponent of `player`: turns.left_of for two seats, without its search."""
    a, b = state.players
    return b if player == a else a


def owner(state: State, player: str) -> str:
    """Returns whose deck and discard pile `player` uses (2 Deck Version: their own)."""
    return player if state.options.two_decks else COMMON


def deck_size(state: State, player: str) -> int:
    """Returns how many cards are left in the pile `player` draws from."""
    return sum(state.decks[owner(state, player)].values())


def top_discard(state: State, player: str) -> str | None:
    """Returns the top card of the discard pile `player` uses, or None when it is empty."""
    pile = state.discards[owner(state, player)]
    return pile[-1] if pile else None


def total(lk: Lookups, state: State, battle: Battle, player: str) -> int:
    """Returns a pile's score; under Theatres of War only cards of the battle's theatre count."""
    cards = lk.cards
    pile = battle.piles[player]
    theatre = battle.theatre if state.options.theatres_of_war else None
    if theatre is None:  # the common case, without a test per card
        return sum(cards[n].value for n in pile)
    return sum(cards[n].value for n in pile if cards[n].theatre == theatre)


def fits(lk: Lookups, state: State, player: str, card: str) -> bool:
    """Returns whether `card` may go into some open battle: always, except under Theatres of
    War, where a card of another theatre goes only where its KILL has a target (1.1)."""
    if not state.options.theatres_of_war or not lk.no_fit:
        return True
    c = lk.cards[card]
    opp = other(state, player)
    for b in state.battles:
        if b.closed:
            continue
        if b.theatre is None or b.theatre == c.theatre:
            return True
        pile = b.piles[opp]
        if pile and set(c.kill) & set(lk.cards[pile[-1]].types):
            return True
    return False


def can_deploy(lk: Lookups, state: State, player: str) -> bool:
    """Returns whether `player` holds a card they may deploy now (cow.opt.theatres.no-fit)."""
    hand = state.hands[player]
    if not state.options.theatres_of_war or not lk.no_fit:
        return bool(hand)
    return any(fits(lk, state, player, card) for card in dict.fromkeys(hand))


def theatre_counts(lk: Lookups, hand: tuple[str, ...]) -> dict[str, int]:
    """Returns how many cards of each theatre a hand holds (the RECON answer)."""
    counts = {"air": 0, "sea": 0, "ground": 0, "intel": 0}
    theatre_of = lk.theatre_of  # each card's theatre, lower case (Lookups.of)
    for name in hand:
        counts[theatre_of[name]] += 1
    return counts


def view(state: State, player: str) -> State:
    """Returns the state as `player` sees it: the opponent's hand and the decks hidden, and
    the card a reinforcement drew shown only to its drawer while its deployment is owed."""
    # The rules read that card only then (Alternative Reinforce). Whose turn it is does not
    # say who drew it: a reinforcement drawn as a round ends (cow.reinforce.round-end), or
    # one whose deployment is skipped, leaves it set while the other player refills or plays
    h = turns.head(state)
    mine = h is not None and h.step is Step.REINFORCE_DEPLOY and h.player == player
    secret = state.reinforce_card if mine else None
    return replace(state, hands=turns.hide_hands(state.hands, player),
                   decks={o: turns.hide_deck(d) for o, d in state.decks.items()},
                   reinforce_card=secret)


def score(state: State) -> dict[str, int]:
    """Returns the running score: rounds won per player (the game's `Extras.score`)."""
    return state.rounds_won


def progress(state: State) -> str:
    """Returns where the game stands in a player's words, "round N" ("" before the first):
    the game's `Extras.progress`."""
    return f"round {state.round}" if state.round > 0 else ""
