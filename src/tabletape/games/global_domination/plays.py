"""Global Domination, Each Game Turn and End of Each Game Turn: whose turn or say it is, card
uses (Build, Reduce or text), the Discards, ending a turn and passing in the scoring step.

Each check answers one event type (`legality.CHECK`); `legality._legal_plays` asks the
parts a group of candidates shares once. Every function takes the game's `Lookups` (`lk`)
first.
"""

from __future__ import annotations

from tabletape.engine import Violation

from . import lookups as q
from .components import EFFECT_NONE, TIMING_ANY, TIMING_SCORING, Lookups
from .events import USE_BUILD, USE_TEXT, CardPlayed, CardsDiscarded, ScoringPassed, TurnEnded
from .state import PHASE_PLAY, PHASE_SCORING, State
from .turn import OWING, not_their_say


def check_done(lk: Lookups, state: State, ev: TurnEnded | ScoringPassed) -> Violation | None:
    scoring = isinstance(ev, ScoringPassed)
    phase = PHASE_SCORING if scoring else PHASE_PLAY
    if state.phase is not phase or state.steps:
        return OWING.not_now(lk, state, "scoring pass" if scoring else "end of turn",
                             ev.player)
    who = q.scorer(state) if scoring else state.current
    if ev.player != who:
        if scoring and lk.ask_every_scorer:  # rules 1.2
            return not_their_say(who, ev.player)
        return Violation("gd.play.order", f"it is {who}'s say, not {ev.player}'s")
    return None


def check_turn_level(lk: Lookups, state: State, player: str, what: str) -> Violation | None:
    """Refuses a card use while something else is owed or before play begins."""
    if state.phase not in (PHASE_PLAY, PHASE_SCORING) or state.steps:
        return OWING.not_now(lk, state, what, player)
    if player not in state.players:
        return Violation("gd.play.order", f"{player} is not at the table")
    return None


def check_play(lk: Lookups, state: State, ev: CardPlayed) -> Violation | None:
    return check_turn_level(lk, state, ev.player, "card play") or check_use(lk, state, ev)


def check_use(lk: Lookups, state: State, ev: CardPlayed) -> Violation | None:
    """Returns why this card cannot be played for this use now, by a player at the table."""
    if ev.card not in lk.cards or ev.card not in state.hands[ev.player]:
        return Violation("gd.play.in-hand", f"{ev.player} holds no {ev.card!r}")
    card = lk.cards[ev.card]
    anytime = card.timing is TIMING_ANY and ev.use is USE_TEXT
    if state.phase is PHASE_SCORING:
        return _check_scoring_play(lk, state, ev, anytime)
    if ev.player != state.current and not anytime:
        return Violation("gd.play.order", f"it is {state.current}'s turn, not {ev.player}'s")
    if ev.use is USE_TEXT:
        if card.effect is EFFECT_NONE:
            return Violation("gd.use.text-none", f"{ev.player}'s {ev.card} has no text to "
                             "play on its own")
        if card.timing is TIMING_SCORING:
            return Violation("gd.card.fog.timing", f"{ev.player} may play {ev.card}'s text only "
                             "in the End of Game Turn scoring step")
        return None
    points = card.build if ev.use is USE_BUILD else card.reduce
    if points == 0:
        return Violation("gd.use.zero", f"{ev.player}'s {ev.card} has no {ev.use.value} points")
    return None


def _check_scoring_play(lk: Lookups, state: State, ev: CardPlayed,
                        anytime: bool) -> Violation | None:
    card = lk.cards[ev.card]
    if anytime:
        return None
    if ev.use is not USE_TEXT or card.timing is not TIMING_SCORING:
        return Violation("gd.score.window", "in the scoring step only scoring cards and "
                         f"any-time cards are played, for their text; not {ev.player}'s "
                         f"{ev.card} for {ev.use}")
    if ev.player != q.scorer(state):
        if lk.ask_every_scorer:  # rules 1.2
            return not_their_say(q.scorer(state), ev.player)
        return Violation("gd.play.order", f"it is {q.scorer(state)}'s say in scoring, not {ev.player}'s")
    return None


def check_discard(lk: Lookups, state: State, ev: CardsDiscarded) -> Violation | None:
    """`_check_discard`, its accepting case asked first in one frame: the player's own turn
    with nothing owed, the cards held (a pair of one kind held twice), listed in an order the
    rules accept, the stack in use and not empty, its cost read as `check_taken` reads it and
    payable (tests/games/global_domination/test_fast_paths.py pins it)."""
    p, cards, taken = ev.player, ev.cards, ev.taken
    if state.phase is PHASE_PLAY and not state.steps and p == state.current:
        hand, n = state.hands[p], len(cards)
        if n == 1:
            held = cards[0] in hand
        elif n == 2:
            a, b = cards
            held = (a != b and a in hand and b in hand or a == b and hand.count(a) > 1) \
                and (lk.discard_any_order or a <= b)
        else:
            held = False
        if held and state.stacks.get(taken, 0) != 0:
            cost = lk.cards[taken].cost
            if not cost or state.logistics[p] - cost >= lk.tracks.logistics.low:
                return None
    return _check_discard(lk, state, ev)


def _check_discard(lk: Lookups, state: State, ev: CardsDiscarded) -> Violation | None:
    return (check_discarder(lk, state, ev.player) or check_held(state, ev.player, ev.cards)
            or check_order(lk, ev.player, ev.cards)
            or check_taken(lk, state, ev.player, ev.taken))


def check_order(lk: Lookups, player: str, cards: tuple[str, ...]) -> Violation | None:
    """gd.use.discard2 under rules 1.0: the two cards in alphabetical order (1.1: either)."""
    if not lk.discard_any_order and list(cards) != sorted(cards):
        return Violation("gd.use.discard2", f"{player} lists the two discarded cards in "
                         "alphabetical order (rules 1.0)")
    return None


def check_discarder(lk: Lookups, state: State, player: str) -> Violation | None:
    """Returns why `player` may not make a Discard now at all, or None."""
    v = check_turn_level(lk, state, player, "discard")
    if v:
        return v
    if state.phase is not PHASE_PLAY or player != state.current:
        return Violation("gd.play.order", f"{player} may discard only on their own turn")
    return None


def check_held(state: State, player: str, cards: tuple[str, ...]) -> Violation | None:
    if not q.holds(state.hands[player], cards):
        return Violation("gd.play.in-hand", f"{player} does not hold {' and '.join(cards)}")
    return None


def check_taken(lk: Lookups, state: State, player: str, taken: str) -> Violation | None:
    """Returns why a Discard cannot take the top card of the `taken` stack, or None."""
    if taken not in state.stacks:
        return Violation("gd.stack.in-use", f"{player} cannot take {taken!r}: it is not one "
                         "of the stacks in use")
    if state.stacks[taken] == 0:
        return Violation("gd.stack.empty", f"{player} cannot take {taken}: the stack is empty")
    cost = lk.cards[taken].cost
    lg = state.logistics[player]
    if cost and lg - cost < lk.tracks.logistics.low:
        return Violation("gd.cost.logistics", f"{taken} costs {cost} Logistical step, and "
                         f"{player}'s marker is at {lg}, the track's left end")
    return None
