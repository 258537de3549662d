"""The table as SVG (`tabletape svg`, `view`, `serve`), drawn with engine.kit.svg."""

from __future__ import annotations

from tabletape.engine.kit.svg import Drawing, group, rect, seat_colour, text

from . import TakeAway
from .state import State

W = 420


def draw(game: TakeAway, state: State, pending: str, width: int = W) -> Drawing:
    """Returns the table, `width` wide: the pile, the players and their hands, whose turn."""
    title = "Take-away" + (" — game over" if state.pile == 0 else "")
    parts = [group(text(16, 26, title, size=17, weight="bold"), label="title"),
             group(rect(16, 40, width - 32, 40), text(28, 65, f"pile: {state.pile}", size=14),
                   label="pile")]
    y = 100
    for p in state.players:
        mark = " ◀" if p == state.turn and state.pile else ""
        hand = " ".join(str(c or "?") for c in state.hands.get(p, ()))  # 0: face down
        parts.append(group(text(16, y, f"{p} {hand}{mark}", fill=seat_colour(state.players, p)),
                           label=f"player {p}"))
        y += 20
    parts.append(group(text(16, y + 10, pending, size=11), label="next"))
    return Drawing(width, y + 30, f"{title}; {pending}", parts)
