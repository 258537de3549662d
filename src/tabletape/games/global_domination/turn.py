"""Global Domination, who decides next: the First Player and the stacks (Start of the Game),
the steps owed (Game Terms, The Cards), whose turn or say it is (Each Game Turn, End of Each
Game Turn), and `OWING`, the refusal of an event that answers nothing owed now.

`legality` answers with these as its own (`over`, `pending`); the checks of its sections
(`points`, `plays`) refuse through `OWING`.
"""

from __future__ import annotations

from tabletape.engine import CHANCE, Decision, Violation
from tabletape.engine.kit.turns import Owing
from tabletape.tape.words import counted

from . import lookups as q
from .components import Lookups
from .state import (
    PHASE_FIRST,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SCORING,
    PHASE_STACKS,
    STEP_DRAW,
    Owed,
    State,
    Step,
)


def over(state: State) -> bool:
    """Returns whether the game is over (exactly when `pending` is None)."""
    return state.phase is PHASE_OVER


def pending(lk: Lookups, state: State) -> Decision | None:
    """Returns who must decide next and what, or None once the game is over."""
    if state.phase is PHASE_OVER:
        return None
    if state.phase is PHASE_FIRST:
        return Decision(CHANCE, "first player", "chance names the First Player")
    if state.phase is PHASE_STACKS:
        n = len(state.stacks) + 1
        return Decision(CHANCE, "action stack", f"chance picks Action stack {n}")
    h = q.head(state)
    if h is not None:
        if h.step is STEP_DRAW:
            return Decision(CHANCE, "draw", f"the card {h.player} draws ({h.points} to draw)")
        return Decision(h.player, h.step.value, owed_text(h))
    if state.phase is PHASE_PLAY:
        return Decision(state.current or "", "turn", f"{state.current} plays a card or ends the turn")
    who = q.scorer(state) or ""
    return Decision(who, "scoring", f"{who} may play a scoring card or pass")


def owed_text(h: Owed) -> str:
    """Returns what a step owes, in words ("alice: 4 Builds left from Fog of War")."""
    src = f" from {h.card}" if h.card else ""
    match h.step:
        case Step.BUILD:
            return f"{h.player}: {counted(h.points, 'Build')} left{src}"
        case Step.REDUCE:
            on = f" on {h.target}" if h.target else ""
            return f"{h.player}: {counted(h.points, 'Reduction')}{on} left{src}"
        case Step.LAND_MIX:
            return f"{h.player}: {counted(h.points, 'Land Build')} or Reductions left{src}"
        case Step.TARGET:
            return f"{h.player} chooses the player {h.card} is aimed at"
        case Step.REMOVE:
            return f"{h.player} removes a Force in {h.region}{src}"
        case Step.SEIZE:
            return f"{h.player}: {counted(h.points, 'Insurgent seizure')} left{src}"
        case Step.CHAIN:
            return f"{h.player} joins {h.card} ({counted(h.points, 'Reduction')}) or declines"
    return f"{h.player} draws {h.points}"


# -- the step owed now, by whom ----------------------------------------------------------------

def _in_setup(state: State, what: str) -> Violation | None:
    """Start of the Game: nothing is owed before the First Player and the stacks are chosen."""
    if state.phase is PHASE_FIRST:
        return Violation("gd.setup.first", f"no {what} before the First Player is chosen")
    if state.phase is PHASE_STACKS:
        return Violation("gd.setup.stacks", f"no {what} before the Action stacks are chosen")
    return None


SCORE_WINDOW = "gd.score.window"


class _Owing(Owing[Lookups, State, Owed]):
    """The kit's `Owing`, with rules 1.2's scoring step (gd.score.window): while it is still
    asking the players in turn, an event that answers nothing owed breaks that rule (a 1.1
    log that skipped a player's say is refused where it goes on without it)."""

    __slots__ = ()

    def not_now(self, lk: Lookups, state: State, what: str,
                player: str | None = None) -> Violation:
        v = super().not_now(lk, state, what, player)
        if lk.ask_every_scorer and state.phase is PHASE_SCORING and not state.steps \
                and v.rule == self.step_rule:
            return Violation(SCORE_WINDOW, f"{v.reason} (the scoring step asks every player "
                             "in turn, whatever they hold)")
        return v


# the step owed now, by whom: "no draw now: ... first" (gd.play.step; gd.score.window in the
# scoring step under rules 1.2), "bob decides now, not alice (...)" (gd.play.order)
OWING: Owing[Lookups, State, Owed] = _Owing(
    "gd.play.step", "gd.play.order", pending,
    lambda h, player, what: f"{h.player} decides now, not {player} ({owed_text(h)})", _in_setup)


def not_their_say(who: str | None, player: str) -> Violation:
    """Returns the refusal of a pass or a scoring card by `player` on `who`'s say in the
    scoring step, under rules 1.2: gd.score.window asks each player in turn (until 1.1 the
    order was gd.play.order's, and players with no card for the step were skipped)."""
    return Violation(SCORE_WINDOW, f"it is {who}'s say in the scoring step, not {player}'s: "
                     "every player is asked in turn")
