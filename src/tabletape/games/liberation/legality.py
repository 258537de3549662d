"""Liberation legality: who decides next, `check` with rule ids, `legal` and chance's weights.

Read alongside the rulebook's sections: Set Up, How to Play, How to Win and
Further Explanations. Targets of abilities are separate decisions owed in
`state.steps`, so a play is one card and `legal` stays a short list.
"""

from __future__ import annotations

from collections.abc import Iterator

from tabletape.engine import CHANCE, Decision, Violation
from tabletape.engine.kit.turns import Owing, by_event, head, must, not_in_deck
from tabletape.tape.events import Event

from . import lookups
from .components import ABILITY_PREVENT, TRIGGER_FORBID, Lookups
from .events import (
    CountryTurned,
    ForceCardDealt,
    ForceCardDrawn,
    ForceCardPlayed,
    HandsTraded,
    LiberationEvent,
    PlayedCardTaken,
    PlayedCardTurned,
    TieBreakDrawn,
    TurnOverAccepted,
    TurnOverDeclined,
    TurnOverPrevented,
    TurnPassed,
)
from .state import (
    CHANCE_STEPS,
    PHASE_OVER,
    STEP_DEAL,
    STEP_DRAW,
    STEP_PREVENT,
    STEP_SECOND,
    STEP_SWAP,
    STEP_TAKE,
    STEP_TIE_DRAW,
    STEP_TURN_COUNTRY,
    STEP_TURN_DOWN,
    STEP_TURN_DOWN_OWN,
    STEP_TURN_OVER,
    STEP_TURN_UP,
    Owed,
    State,
    Step,
)

TURNING = (STEP_TURN_OVER, STEP_TURN_DOWN, STEP_TURN_UP, STEP_TURN_DOWN_OWN)


# -- who decides next -------------------------------------------------------------------------

def over(state: State) -> bool:
    """Returns whether the game is over (exactly when `pending` is None)."""
    return state.phase is PHASE_OVER


def pending(lk: Lookups, state: State) -> Decision | None:
    """Returns who must decide next and what, or None once the game is over."""
    if state.phase is PHASE_OVER:
        return None
    h = head(state)
    if h is None:
        return Decision(state.turn or "", "play", f"{state.turn} plays a force card or passes")
    if h.step in CHANCE_STEPS:
        what = {STEP_TURN_COUNTRY: f"the country {h.player} turns up",
                STEP_DEAL: f"the force card dealt to {h.player}",
                STEP_DRAW: f"the card {h.player} draws for {h.card}",
                STEP_TIE_DRAW: f"{h.player}'s tie-break card"}[h.step]
        return Decision(CHANCE, h.step.value, what)
    if h.step is STEP_PREVENT:
        target = state.played[h.owner][h.slot].card
        return Decision(h.player, h.step.value, f"{h.player} may discard a prevent card to keep "
                        f"their {target} face up against {h.by}'s {h.card}, or let it stand")
    why = f" ({h.card})" if h.card else ""
    if h.step is STEP_TURN_OVER and state.options.turn_over == "optional":
        return Decision(h.player, h.step.value, f"{h.player} may {h.step}{why}, or stop")
    return Decision(h.player, h.step.value, f"{h.player} must {h.step}{why}")


# -- check ---------------------------------------------------------------------------------

def check(lk: Lookups, state: State, event: Event) -> Violation | None:
    """Returns why the event is illegal in this state, or None."""
    judge = CHECK.get(type(event))
    if judge is None:
        return Violation("lib.turn.step", f"{type(event).__name__} is not a Liberation event")
    v = judge(lk, state, event)
    if v is not None and v.rule == OWING.step_rule and lk.prevent_asked and state.steps \
            and state.steps[0].step is STEP_PREVENT:
        return _unanswered(v)
    return v


def _unanswered(v: Violation) -> Violation:
    """An event that skips the owner's answer to a turn-down, from rules 1.2: the refusal
    names the changed rule, so a log recorded when only a holder was asked (1.0, 1.1) says
    why it is refused where the owner held no prevent card (lib.ability.prevent.asked)."""
    return Violation("lib.ability.prevent", f"{v.reason} (from rules 1.2 the owner of a card "
                     "turned face down is asked whether or not they hold a prevent card, and "
                     "answers: turn_over_accepted, or turn_over_prevented with one)")


# the step owed now, by whom: "no play now: ... first" (lib.turn.step), "bob must ..., not
# alice" (lib.turn.order)
def _order(h: Owed, player: str, what: str) -> str:
    """The words of an order refusal, naming who acts: a force card is dealt *to* a player
    (the dealer is chance), so "the force card dealt now goes to bob, not ann"."""
    if h.step is STEP_DEAL:
        return f"the force card dealt now goes to {h.player}, not {player}"
    return must(h, player, what)


OWING: Owing[Lookups, State, Owed] = Owing("lib.turn.step", "lib.turn.order", pending, _order)


# HOW TO PLAY: turning the country, dealing and drawing (lib.country.turn, lib.draw.in-deck)
_DRAW_STEP: dict[type[ForceCardDealt | ForceCardDrawn | TieBreakDrawn], Step] = {
    ForceCardDealt: STEP_DEAL, ForceCardDrawn: STEP_DRAW, TieBreakDrawn: STEP_TIE_DRAW}
DRAWN_AT = {step: kind for kind, step in _DRAW_STEP.items()}  # the event each draw step owes


def _check_country(lk: Lookups, state: State, ev: CountryTurned) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_TURN_COUNTRY,), ev.player, "country card"):
        return v
    if ev.country not in state.countries:
        return Violation("lib.country.turn", f"{ev.player} cannot turn {ev.country!r}: it is "
                         f"not in the country deck ({len(state.countries)} cards left)")
    return None


def _check_draw(lk: Lookups, state: State,
                ev: ForceCardDealt | ForceCardDrawn | TieBreakDrawn) -> Violation | None:
    step = _DRAW_STEP[type(ev)]
    if v := OWING.refuse(lk, state, (step,), ev.player, step):  # a Step's str is its words
        return v
    if ev.card not in state.deck:
        got = (f"the card dealt to {ev.player}, {ev.card!r}," if isinstance(ev, ForceCardDealt)
               else f"{ev.player} cannot draw {ev.card!r}: it")
        return not_in_deck("lib.draw.in-deck", f"{got} is not in the force deck", state.deck)
    return None


# HOW TO PLAY: a turn is a play or a pass (lib.turn.order, lib.play.in-hand, lib.play.pass)

def _check_turn(lk: Lookups, state: State, player: str, what: str) -> Violation | None:
    """A play or a pass belongs to the player whose turn it is (or who may play a second card)."""
    h = head(state)
    if h is not None and h.step is not STEP_SECOND:
        return OWING.not_now(lk, state, what, player)
    actor = h.player if h else state.turn
    if player != actor:
        return Violation("lib.turn.order", f"it is {actor}'s turn, not {player}'s")
    return None


def _check_play(lk: Lookups, state: State, ev: ForceCardPlayed) -> Violation | None:
    v = _check_turn(lk, state, ev.player, "play")
    if v:
        return v
    if ev.card not in state.hands[ev.player]:
        return Violation("lib.play.in-hand", f"{ev.player} holds no {ev.card!r}")
    land, c = lookups.country(lk, state), lk.cards[ev.card]
    if land and land.trigger is TRIGGER_FORBID and c.type == land.card_type:
        return Violation("lib.country.forbid-type", f"{ev.player} may not play {ev.card}: "
                         f"{c.type} cards may not be played while {land.name} is fought over")
    return None


# FURTHER EXPLANATIONS: the targets of abilities and the answers to them

def _check_owner(state: State, player: str, owner: str) -> Violation | None:
    if owner not in state.players:
        return Violation("lib.turn.order", f"{player} names {owner}, who is not playing")
    return None


def _check_turned(lk: Lookups, state: State, ev: PlayedCardTurned) -> Violation | None:
    if v := OWING.refuse(lk, state, TURNING, ev.player, "turning of a card"):
        return v
    h = state.steps[0]
    if v := _check_owner(state, ev.player, ev.owner):
        return v
    row = state.played[ev.owner]
    if not 0 <= ev.slot < len(row):
        return Violation("lib.ability.turn-over", f"{ev.player} cannot turn {ev.owner}'s card at "
                         f"slot {ev.slot}: there is none")
    name = row[ev.slot].card
    if (ev.owner, ev.slot) in h.spent:
        return Violation("lib.ability.turn-over.count", f"{ev.player}'s {h.card} has already "
                         f"turned {ev.owner}'s {name} at slot {ev.slot}")
    if h.step is STEP_TURN_OVER and ev.face_up and not lk.turn_back_up:  # rules 1.0
        return Violation("lib.ability.turn-over", f"{ev.player}'s {h.card} turns a card face "
                         "down; under rules 1.0 a turn-over never turns one back up")
    if h.step in (STEP_TURN_OVER, STEP_TURN_UP) and ev.face_up:  # lib.ability.turn-up
        if row[ev.slot].up:
            return Violation("lib.ability.turn-up", f"{ev.player} cannot turn up {ev.owner}'s "
                             f"{name} at slot {ev.slot}: it is already face up")
        return None
    if h.step is STEP_TURN_UP:
        return Violation("lib.ability.turn-up.cards", f"{ev.player}'s {h.card} only turns a "
                         "card back up")
    if ev.face_up:
        rule = "lib.country.turn-over-type" if h.step is STEP_TURN_DOWN else "lib.ability.all-turn-down"
        return Violation(rule, f"{h.card} makes {ev.player} turn a card face down, not up")
    if h.step in (STEP_TURN_OVER, STEP_TURN_DOWN) and ev.owner == ev.player:
        return Violation("lib.ability.turn-over", f"{ev.player} turns down one of their own "
                         "cards, and a turn-over never turns its player's own cards")
    if h.step is STEP_TURN_DOWN_OWN and ev.owner != ev.player:
        return Violation("lib.ability.all-turn-down", f"{ev.player} turns down one of their own "
                         f"cards, not {ev.owner}'s")
    if not row[ev.slot].up:
        return Violation("lib.ability.turn-over", f"{ev.player} cannot turn down {ev.owner}'s "
                         f"{name} at slot {ev.slot}: it is already face down")
    if lk.cards[name].protected:
        return Violation("lib.ability.protected", f"{ev.player} may not turn over {ev.owner}'s "
                         f"{name}: it is protected")
    return None


def _check_declined(lk: Lookups, state: State, ev: TurnOverDeclined) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_TURN_OVER,), ev.player, "stop to a turn-over"):
        return v
    h = state.steps[0]
    if state.options.turn_over != "optional":
        return Violation("lib.ability.turn-over.compulsory", f"{ev.player} must turn a card with "
                         f"{h.card} while one can be turned (option turn_over="
                         "optional lets a player stop)")
    return None


def _check_prevent(lk: Lookups, state: State, ev: TurnOverPrevented) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_PREVENT, STEP_TURN_DOWN_OWN), ev.player, "prevent card"):
        return v
    if ev.card not in state.hands[ev.player]:
        return Violation("lib.ability.prevent", f"{ev.player} holds no {ev.card!r}")
    if lk.cards[ev.card].ability is not ABILITY_PREVENT:
        return Violation("lib.ability.prevent", f"{ev.player}'s {ev.card} cannot prevent a "
                         "turn-over")
    return None


def _check_taken(lk: Lookups, state: State, ev: PlayedCardTaken) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_TAKE,), ev.player, "trade"):
        return v
    if v := _check_owner(state, ev.player, ev.owner):
        return v
    if ev.owner == ev.player:
        return Violation("lib.ability.trade-card", f"{ev.player}'s trade takes another "
                         "player's card, not their own")
    row = state.played[ev.owner]
    if not 0 <= ev.slot < len(row) or not row[ev.slot].up:
        return Violation("lib.ability.trade-card", f"{ev.player} cannot take {ev.owner}'s card "
                         f"at slot {ev.slot}: there is no face-up card there")
    return None


def _check_swap(lk: Lookups, state: State, ev: HandsTraded) -> Violation | None:
    if v := OWING.refuse(lk, state, (STEP_SWAP,), ev.player, "hand trade"):
        return v
    if v := _check_owner(state, ev.player, ev.other):
        return v
    if ev.other == ev.player:
        return Violation("lib.ability.trade-hands", f"{ev.player} trades hands with another "
                         "player, not with themselves")
    return None


def _check_pass(lk: Lookups, state: State, ev: TurnPassed) -> Violation | None:
    return _check_turn(lk, state, ev.player, "pass")


def _check_accept(lk: Lookups, state: State, ev: TurnOverAccepted) -> Violation | None:
    return OWING.refuse(lk, state, (STEP_PREVENT,), ev.player, "acceptance of a turn-over")


CHECK = by_event(_check_country, _check_draw, _check_play, _check_pass, _check_turned,
                 _check_prevent, _check_accept, _check_declined, _check_taken, _check_swap)


# -- legal ---------------------------------------------------------------------------------

def legal(lk: Lookups, state: State) -> Iterator[LiberationEvent]:
    """Yields every legal next event; chance outcomes once per kind of card left."""
    d = pending(lk, state)
    if d is None:
        return
    h = head(state)
    if h is None or h.step is STEP_SECOND:
        yield from _legal_plays(lk, state, d.actor)
    elif h.step is STEP_TURN_COUNTRY:
        for name in state.countries:
            yield CountryTurned(player=h.player, country=name)
    elif h.step in CHANCE_STEPS:
        kind = DRAWN_AT[h.step]
        for name in state.deck:
            yield kind(player=h.player, card=name)
    else:
        yield from _legal_choices(lk, state, h)


def _legal_plays(lk: Lookups, state: State, player: str) -> Iterator[LiberationEvent]:
    for name in dict.fromkeys(state.hands[player]):
        ev = ForceCardPlayed(player=player, card=name)
        if check(lk, state, ev) is None:
            yield ev
    yield TurnPassed(player=player)


def _legal_choices(lk: Lookups, state: State, h: Owed) -> Iterator[LiberationEvent]:
    me = h.player
    slots = [(q, i) for q in state.players for i in range(len(state.played[q]))]
    candidates: list[LiberationEvent] = []
    if h.step in TURNING:
        candidates += [PlayedCardTurned(player=me, owner=q, slot=i, face_up=up)
                       for q, i in slots for up in (False, True)]
    if h.step in (STEP_PREVENT, STEP_TURN_DOWN_OWN):
        candidates += [TurnOverPrevented(player=me, card=c) for c in lookups.holds(lk, state, me, ABILITY_PREVENT)]
    if h.step is STEP_PREVENT:
        candidates.append(TurnOverAccepted(player=me))
    if h.step is STEP_TURN_OVER:
        candidates.append(TurnOverDeclined(player=me))
    if h.step is STEP_TAKE:
        candidates += [PlayedCardTaken(player=me, owner=q, slot=i) for q, i in slots]
    if h.step is STEP_SWAP:
        candidates += [HandsTraded(player=me, other=q) for q in state.players]
    yield from (ev for ev in candidates if check(lk, state, ev) is None)


def has_choice(lk: Lookups, state: State, h: Owed) -> bool:
    """Returns whether a player's owed step has a card to act on (else it lapses).

    A forced turn-down lapses when the player has no card it could turn, even if they
    hold a prevent card: there is nothing to prevent (lib.ability.no-target); so does
    an optional turn-over with nothing to turn (stopping is then all that is left).

    Stands for: any event of `_legal_choices(lk, state, h)` other than a prevent or a
    stop (tests/games/liberation/test_fast_paths.py), without building the candidates.
    """
    step = h.step
    if step in TURNING:
        return next(turn_targets(lk, state, h), None) is not None
    if step is STEP_TAKE:
        return any(p.up for q in state.players if q != h.player for p in state.played[q])
    if step is STEP_SWAP:
        return any(q != h.player for q in state.players)
    return step is STEP_PREVENT  # letting the turn-over stand


def turn_targets(lk: Lookups, state: State, h: Owed) -> Iterator[tuple[str, int, bool]]:
    """Yields (owner, slot, face up) of every card the owed turning step `h` may turn: the
    `PlayedCardTurned` events `_check_turned` accepts, in the order `_legal_choices` tries them.

    A turn-down (turn-over, a country's turn-down, everyone turning one of their own) takes a
    face-up card that is not protected, another player's or, for the last, the player's own; a
    turn-up (and, from rules 1.1, a turn-over) turns any face-down card back up; no card twice
    with one turn-over card (lib.ability.turn-over, .count, turn-up, all-turn-down, protected).
    """
    step, me, spent = h.step, h.player, h.spent
    turns_down = step is not STEP_TURN_UP
    own = step is STEP_TURN_DOWN_OWN
    back_up = step is STEP_TURN_UP or (step is STEP_TURN_OVER and lk.turn_back_up)
    cards = lk.cards
    for q in state.players:
        down_here = turns_down and (q == me) == own
        if not (down_here or back_up):  # (no card of this row can be turned)
            continue
        for i, p in enumerate(state.played[q]):
            if spent and (q, i) in spent:
                continue
            if p.up:
                if down_here and not cards[p.card].protected:
                    yield q, i, False
            elif back_up:
                yield q, i, True


def count(lk: Lookups, state: State) -> int:
    """Returns how many events `legal` yields, without building them (pinned to
    `len(list(legal(lk, state)))` in tests/games/liberation/test_fast_paths.py)."""
    if state.phase is PHASE_OVER:
        return 0
    if not state.steps:
        return _playable(lk, state, state.turn) + 1  # a play of each kind of card, or a pass
    h = state.steps[0]
    step = h.step
    if step is STEP_SECOND:
        return _playable(lk, state, h.player) + 1
    if step is STEP_TURN_COUNTRY:
        return len(state.countries)
    if step in CHANCE_STEPS:
        return len(state.deck)  # one outcome per kind of card left (none is kept at 0)
    me = h.player
    n = 0
    if step in TURNING:
        n = sum(1 for _ in turn_targets(lk, state, h))
    if step is STEP_PREVENT or step is STEP_TURN_DOWN_OWN:
        n += len(lookups.holds(lk, state, me, ABILITY_PREVENT))
    if step is STEP_PREVENT:
        n += 1  # let it stand
    elif step is STEP_TURN_OVER and state.options.turn_over == "optional":
        n += 1  # stop
    elif step is STEP_TAKE:
        n += sum(p.up for q in state.players if q != me for p in state.played[q])
    elif step is STEP_SWAP:
        n += sum(q != me for q in state.players)
    return n


def _playable(lk: Lookups, state: State, player: str | None) -> int:
    """Returns how many kinds of card in a player's hand `_check_play` lets them play now: all
    but the type a country forbids (lib.country.forbid-type); none if it is nobody's turn."""
    if player is None:
        return 0
    hand = state.hands[player]
    land = lk.countries[state.country] if state.country else None
    if land is None or land.trigger is not TRIGGER_FORBID:
        return len(set(hand))
    cards, banned = lk.cards, land.card_type
    return len({n for n in hand if cards[n].type != banned})


def can_play(lk: Lookups, state: State, player: str) -> bool:
    """Returns whether the player could play a card now (stands for: `legal` yields a
    `ForceCardPlayed`; pinned in tests/games/liberation/test_fast_paths.py)."""
    return _playable(lk, state, player) > 0


def weight(lk: Lookups, state: State, event: Event) -> int:
    """Returns how many copies of the drawn card the force deck holds (chance's odds)."""
    if isinstance(event, (ForceCardDealt, ForceCardDrawn, TieBreakDrawn)):
        return state.deck.get(event.card, 0)
    return 1


def weights(lk: Lookups, state: State, events: list[LiberationEvent]) -> list[int]:
    """Returns each event's `weight`, in one pass."""
    deck = state.deck
    return [deck.get(e.card, 0) if isinstance(e, (ForceCardDealt, ForceCardDrawn, TieBreakDrawn))
            else 1 for e in events]
