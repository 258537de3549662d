"""The one story helper: a rule's story plays legal events, then asks why one is refused.

Every game's `tests/games/<game>/helpers.py` names these for its own ruleset (`act`,
`feed`, `run`, `ok`, `refused`); what a story asserts is written once, here.
"""

from __future__ import annotations

from typing import Any

from tabletape.engine import Ruleset, Violation


def play(rs: Ruleset, state: Any, *events: Any, offered: bool = False) -> Any:
    """Checks and applies each event in turn, failing the story on a refusal.

    With `offered`, each event must also be among those `legal` offers (the invariant
    that `legal` and `check` agree, asserted where the story is told).
    """
    for ev in events:
        v = rs.check(state, ev)
        assert v is None, f"{rs.describe(ev)} refused: {v}"
        if offered:
            assert ev in list(rs.legal(state)), f"{rs.describe(ev)} passes check but is not legal"
        state = rs.apply(state, ev)
    return state


def violation(rs: Ruleset, state: Any, event: Any) -> Violation | None:
    """Returns the refusal of an event (None: legal); a refusal names a catalogued rule, and
    its sentence names the player who acted (words that say what happened, issue 25)."""
    v = rs.check(state, event)
    if v is not None:
        assert v.rule in rs.catalogue(), f"{v.rule} is not in the rule catalogue"
        assert names_the_actor(event, v), f"[{v.rule}] {v.reason!r} does not name {event.player}"
    return v


def names_the_actor(event: Any, v: Violation) -> bool:
    """Whether a refusal's sentence names the player whose event it refuses (an event with no
    player, such as chance's set-up, and the engine's own refusals name none)."""
    player = getattr(event, "player", None)
    return not player or v.rule.startswith("core.") or player in v.reason


def refusal(rs: Ruleset, state: Any, event: Any, *, offered: bool = False) -> Violation:
    """Returns the refusal of an event that must be illegal (with `offered`, nor offered)."""
    v = violation(rs, state, event)
    assert v is not None, f"{rs.describe(event)} was accepted"
    if offered:
        assert event not in list(rs.legal(state)), f"{rs.describe(event)} is refused but legal"
    return v
