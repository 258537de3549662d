"""The engine: the game protocol, the registry, the fold and replay; it knows no particular game.

A game is a `Ruleset` subclass in a package under `tabletape.games`; the engine drives
it through `initial`, `pending`, `check`, `apply`, `legal` and `outcome`, and knows
nothing else about it. Undo, notes and disputes are handled in the fold, once.
"""

from typing import TYPE_CHECKING, Any

from tabletape.engine.fold import APPLIED, ILLEGAL, UNJUDGED, Fold, Ruling, describe
from tabletape.engine.protocol import (
    CHANCE,
    CORE_RULES,
    MAX_UNDO_DEPTH,
    Decision,
    Outcome,
    Rule,
    Ruleset,
    Violation,
)
from tabletape.engine.provenance import (
    Derivation,
    Reliance,
    Term,
    phrase,
    rests_on,
    ruling_basis,
    ruling_lines,
)
from tabletape.engine.reading import (
    Chain,
    Each,
    JudgeAll,
    Judged,
    Replay,
    Visitor,
    Watch,
    capture,
    iter_records,
    judge_all,
    read_chain,
    replay,
)
from tabletape.engine.registry import GAMES, all_games, codec_for, get, ruleset_for

if TYPE_CHECKING:
    from tabletape.engine.index import check_later, state_at


def __getattr__(name: str) -> Any:
    """Imports the checkpoint index when a caller first asks for it (`state_at`,
    `check_later`): commands that read every line (validate, log, explain) never load it."""
    if name in ("state_at", "check_later"):
        from tabletape.engine import index
        return getattr(index, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["APPLIED", "CHANCE", "CORE_RULES", "GAMES", "ILLEGAL", "MAX_UNDO_DEPTH", "UNJUDGED",
           "Chain", "Decision", "Each", "Fold", "JudgeAll", "Judged", "Visitor", "Watch", "Outcome", "Reliance", "Replay", "Rule", "Ruleset", "Ruling",
           "Violation", "all_games", "capture", "check_later", "codec_for", "describe", "get",
           "iter_records", "judge_all", "phrase", "ruling_lines", "Derivation", "Term", "read_chain", "replay", "rests_on",
           "ruleset_for", "ruling_basis", "state_at"]
