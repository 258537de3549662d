"""Drawing a table as SVG, shared by the games' `svg` modules: pure Python, no browser.

A game's `svg.draw(game, state, pending)` returns a `Drawing`: its size and its parts,
each a self-contained SVG fragment (a `<g>`), in painting order. `Drawing.svg()` is the
whole document, byte for byte the same for the same state. The parts are kept apart
because a replay viewer draws thousands of tables that differ in a part or two: it
ships each distinct part once (tabletape.app.viewer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from tabletape.tape.events import visible

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK, FAINT, PAPER, CARD, BACK = "#222", "#777", "#f6f3ea", "#fffdf7", "#5b6b8c"
# one colour per seat, in seat order (chance and nobody are grey)
SEATS = ("#c0392b", "#2e6fb7", "#2e8b57", "#b8860b", "#8e44ad", "#d35400")
WIN, LOSS, GOLD = "#2e8b57", "#b03a2e", "#d4a017"
# a phone's width: a table drawn `narrow` is this wide and shown at its own size on a
# 390 px screen, its smallest text 10 px
NARROW = 360


def esc(text: object) -> str:
    """Returns text safe inside an SVG element or attribute: markup-escaped, and what XML
    refuses or a reader cannot see shown as an escape (`visible`, the one door)."""
    return _esc(text if type(text) is str else str(text))


@lru_cache(maxsize=1 << 14)
def _esc(s: str) -> str:
    return (visible(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def num(v: float) -> str:
    """Returns a coordinate without a needless fraction (deterministic)."""
    if type(v) is int:  # most coordinates (a page draws millions): `str` as below would give
        return str(v)
    return str(int(v)) if v == int(v) else f"{v:.1f}"


def text(x: float, y: float, s: object, *, size: int = 12, anchor: str = "start",
         weight: str = "normal", fill: str = INK, cls: str = "") -> str:
    """Returns one line of text at (x, y) on its baseline."""
    return _text(x, y, s if type(s) is str else str(s), size, anchor, weight, fill, cls)


@lru_cache(maxsize=1 << 15, typed=True)
def _text(x: float, y: float, s: str, size: int, anchor: str, weight: str, fill: str,
          cls: str) -> str:
    attrs = f'x="{num(x)}" y="{num(y)}" font-size="{size}"'
    if anchor != "start":
        attrs += f' text-anchor="{anchor}"'
    if weight != "normal":
        attrs += f' font-weight="{weight}"'
    if fill != INK:
        attrs += f' fill="{fill}"'
    if cls:
        attrs += f' class="{cls}"'
    return f"<text {attrs}>{esc(s)}</text>"


@lru_cache(maxsize=1 << 14, typed=True)
def rect(x: float, y: float, w: float, h: float, *, fill: str = CARD, stroke: str = FAINT,
         rx: float = 4, width: float = 1, dash: str = "", opacity: float = 1) -> str:
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    if opacity != 1:
        extra += f' fill-opacity="{num(opacity)}"'
    return (f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="{num(rx)}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{num(width)}"{extra}/>')


def line(x1: float, y1: float, x2: float, y2: float, *, stroke: str = FAINT,
         width: float = 1, dash: str = "") -> str:
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
            f'stroke="{stroke}" stroke-width="{num(width)}"{extra}/>')


def polyline(points: list[tuple[float, float]], *, stroke: str = FAINT, width: float = 1) -> str:
    """Returns an open line through the points (a route, `engine.kit.route`)."""
    pts = " ".join([f"{num(x)},{num(y)}" for x, y in points])
    return (f'<polyline points="{pts}" fill="none" stroke="{stroke}" '
            f'stroke-width="{num(width)}" class="route"/>')


def circle(x: float, y: float, r: float, *, fill: str = CARD, stroke: str = FAINT) -> str:
    return f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="{fill}" stroke="{stroke}"/>'


def clip(s: str, chars: int) -> str:
    """Returns `s` cut to `chars` characters, with an ellipsis when it was longer."""
    return s if len(s) <= chars else s[:max(1, chars - 1)] + "…"


def wrap(s: str, chars: int) -> list[str]:
    """Returns `s` in lines of at most `chars` characters, broken between words (a word
    longer than a line is broken inside it): every character kept, never cut."""
    return list(_wrap(s, chars))


@lru_cache(maxsize=1 << 12)
def _wrap(s: str, chars: int) -> tuple[str, ...]:
    chars = max(1, chars)
    out: list[str] = []
    line_ = ""
    for word in s.split():
        while len(word) > chars:  # a word longer than a line: broken, nothing lost
            if line_:
                out.append(line_)
                line_ = ""
            out.append(word[:chars])
            word = word[chars:]
        if not line_:
            line_ = word
        elif len(line_) + 1 + len(word) <= chars:
            line_ += " " + word
        else:
            out.append(line_)
            line_ = word
    if line_ or not out:
        out.append(line_)
    return tuple(out)


@lru_cache(maxsize=1 << 12, typed=True)
def lines(x: float, y: float, s: str, chars: int, *, size: int = 12, leading: float = 0,
          **kw: str) -> tuple[str, int]:
    """Returns `s` wrapped (`wrap`) as one `<text>` per line from baseline `y`, and how
    many lines it took; `leading` is the distance between baselines (default 1.2 x size)."""
    step = leading or round(size * 1.2)
    rows = _wrap(s, chars)
    return "".join(text(x, y + i * step, r, size=size, **kw)
                   for i, r in enumerate(rows)), len(rows)


def group(*items: str, label: str = "") -> str:
    """Returns one part: a `<g>` of items (labelled for tests and screen readers)."""
    attr = f' data-part="{esc(label)}"' if label else ""
    return f"<g{attr}>{''.join(items)}</g>"


@lru_cache(maxsize=1 << 13, typed=True)
def card(x: float, y: float, w: float, h: float, name: str, sub: str = "", *,
         hidden: bool = False, top: bool = False, colour: str = FAINT, faded: bool = False,
         small: int = 9) -> str:
    """Returns a card face (name and a second line) or, hidden, its back; `small` is the
    size of its smallest text (10 on a narrow table)."""
    if hidden:
        return rect(x, y, w, h, fill=BACK, stroke=INK) + text(x + w / 2, y + h / 2 + 4, "?",
                                                               size=11, anchor="middle",
                                                               fill="#fff")
    out = rect(x, y, w, h, fill="#eee" if faded else CARD, stroke=INK if top else colour,
               width=2 if top else 1)
    chars = max(3, int(w / 6.2) if small < 10 else int((w - 4) / 6))
    names = wrap(name, chars)  # the whole name, on as many lines as it takes
    room = max(1, int((h - (11 if sub else 0) - 15) // 11) + 1)  # lines 11 apart from 12
    fits = len(names) <= room and all(len(word) <= chars for word in name.split())
    size = 10 if fits or small >= 10 else small
    if not fits and small < 10:  # smaller, rather than cut or broken inside a word
        names = wrap(name, int(w / 5.4))
    for i, row in enumerate(names):
        out += text(x + 4, y + 12 + i * (size + 1), row, size=size,
                    weight="bold" if top else "normal", fill=FAINT if faded else INK)
    if sub:
        out += text(x + 4, y + h - 4, clip(sub, int(w / (5.8 * small / 9))), size=small,
                    fill=FAINT)
    return out


def seat_colour(players: tuple[str, ...], player: str | None) -> str:
    """Returns the colour of a player's seat (grey for nobody)."""
    if player is None or player not in players:
        return FAINT
    return SEATS[players.index(player) % len(SEATS)]


@dataclass
class Drawing:
    """A table drawn: its size and its parts (SVG fragments in painting order)."""

    width: int
    height: int
    title: str
    parts: list[str] = field(default_factory=list)

    def open_tag(self) -> str:
        """Returns the document's opening: the `<svg>` element, its title and background."""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
                f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" '
                f'font-family="{FONT}" role="img"><title>{esc(self.title)}</title>'
                + rect(0, 0, self.width, self.height, fill=PAPER, stroke=PAPER, rx=0))

    def svg(self) -> str:
        """Returns the whole SVG document."""
        return self.open_tag() + "".join(self.parts) + "</svg>\n"
