"""`tabletape replay FILE --step`: walk a log one event at a time, forwards and back.

`Stepper` folds the log once and keeps, for every seq, the event, its ruling and
the state after it (states are frozen and share their unchanged parts, so this is
cheap; past STATES_KEPT events the state is recomputed on demand instead). The
key loop at the bottom uses prompt_toolkit on a terminal and plain lines otherwise.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NamedTuple

from tabletape import engine
from tabletape.tape.errors import IllegalEvent, TapeError, UsageError
from tabletape.tape.events import Event, Note

STATES_KEPT = 20_000  # states held in memory; longer logs recompute the state of a seq

KEYS = "→/n next · ←/p back · g SEQ jump · d next dispute · i next illegal · q quit"


class Frame(NamedTuple):
    """One line of the log as the stepper shows it."""

    seq: int
    event: Event
    sentence: str
    problem: IllegalEvent | None  # the refusal when it was folded in


class Stepper:
    """A folded log, positioned at one seq; moves return a message when they cannot move."""

    def __init__(self, path: str, *, as_player: str | None = None, at: int = 0):
        self.path = path
        self.frames: list[Frame] = []
        self.states: list[Any] = []
        self.error: TapeError | None = None
        self.fold: engine.Fold | None = None
        self._fold(path)
        if as_player is not None and as_player not in self.fold.header.players:
            raise UsageError(f"--as {as_player}: not a player "
                             f"({', '.join(self.fold.header.players)})")
        self.as_player = as_player
        self.pos = max(0, min(at, len(self.frames) - 1))

    def _fold(self, path: str) -> None:
        def frame(j: engine.Judged) -> None:
            self.frames.append(Frame(j.seq, j.event, engine.describe(j.fold.ruleset, j.event),
                                     j.problem))
            if j.seq < STATES_KEPT:
                self.states.append(j.fold.state)

        result = engine.replay(path, visit=frame)
        if result.fold is None:
            raise result.error or UsageError("unreadable log", file=path)
        self.fold, self.ruleset = result.fold, result.fold.ruleset
        self.error = result.error  # step through what could be read; say where reading stopped

    # -- where we are ----------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.frames[self.pos]

    @property
    def last(self) -> int:
        return len(self.frames) - 1

    def state(self) -> Any:
        """Returns the state after the current seq (as the --as player sees it)."""
        if self.pos < len(self.states):
            state = self.states[self.pos]
        else:
            state = engine.replay(self.path, to=self.pos).state
        return state if self.as_player is None else self.ruleset.view(state, self.as_player)

    def marks(self) -> list[str]:
        """Returns what the log says about the current event: ruling, undo, disputes."""
        fold, f = self.fold, self.frame
        out = []
        if f.problem is not None:
            out.append(f"illegal [{f.problem.rule}] {f.problem.reason}"
                       + ("" if f.seq in fold.core_seqs else "; the state shown is the one before it"))
        elif f.seq in fold.unjudged:
            out.append("not judged: an earlier illegal event is still in effect")
        if f.seq in fold.retracted:
            out.append(f"undone at seq {fold.retracted[f.seq]}")
        for r in fold.disputes:
            if r.about == f.seq:
                out.append(f"disputed at seq {r.dispute_seq}: {r.verdict}"
                           + (f" [{r.rule}]" if r.rule else "") + f" — {r.reason}")
            if r.dispute_seq == f.seq:
                out.append(f"ruling on seq {r.about}: {r.verdict}"
                           + (f" [{r.rule}]" if r.rule else "") + f" — {r.reason}")
        return out

    # -- moves -----------------------------------------------------------------------
    def go(self, seq: int) -> str | None:
        if not 0 <= seq <= self.last:
            return f"no seq {seq}: the log runs from 0 to {self.last}"
        self.pos = seq
        return None

    def step(self, by: int) -> str | None:
        if not 0 <= self.pos + by <= self.last:
            return "this is the last event" if by > 0 else "this is the header (seq 0)"
        self.pos += by
        return None

    def next_dispute(self) -> str | None:
        seqs = [f.seq for f in self.frames[self.pos + 1:]
                if isinstance(f.event, Note) and f.event.dispute]
        return self.go(seqs[0]) if seqs else "no dispute after this seq"

    def next_illegal(self) -> str | None:
        seqs = [f.seq for f in self.frames[self.pos + 1:] if f.problem is not None]
        return self.go(seqs[0]) if seqs else "no illegal event after this seq"

    def key(self, name: str, arg: str = "") -> str | None:
        """Applies one key (next, prev, goto, dispute, illegal, first, end); returns a message."""
        match name:
            case "next":
                return self.step(1)
            case "prev":
                return self.step(-1)
            case "first":
                return self.go(0)
            case "end":
                return self.go(self.last)
            case "dispute":
                return self.next_dispute()
            case "illegal":
                return self.next_illegal()
            case "goto":
                return self.go(int(arg)) if arg.strip().isdigit() else f"not a seq: {arg!r}"
        return f"unknown key {name!r}; {KEYS}"


# -- the terminal ----------------------------------------------------------------------

def run(stepper: Stepper) -> None:
    """Shows the current event and reads keys until q, Ctrl-C, Ctrl-D or end of input."""
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    read = _key_reader() if interactive else _line_reader()
    show(stepper)
    while True:
        try:
            name, arg = read()
        except (EOFError, KeyboardInterrupt, OSError):
            return
        if name == "quit":
            return
        message = stepper.key(name, arg)
        if message:
            _say(message)
        else:
            show(stepper)


def _say(text: str) -> None:
    from rich.text import Text

    from tabletape.cli.render import console
    console.print(Text(text, style="yellow"))


def show(stepper: Stepper) -> None:
    """Prints the state after the current seq, the event's sentence and its marks."""
    from rich.rule import Rule
    from rich.text import Text

    from tabletape.cli.render import console, drawing
    f = stepper.frame
    who = f" · by {f.event.by}" if f.event.by else ""
    seen = f" · as {stepper.as_player} sees it" if stepper.as_player else ""
    console.print(Rule(Text(f"seq {f.seq} of {stepper.last}{who}{seen}"), align="left"))
    console.print(drawing(stepper.ruleset, stepper.state()))
    console.print(Text(f"seq {f.seq}: {f.sentence}", style="bold"))
    for m in stepper.marks():
        console.print(Text(f"  {m}", style="red" if m.startswith("illegal") else "yellow"))
    if stepper.error is not None and stepper.pos == stepper.last:
        console.print(Text(f"  reading stopped after this line: {stepper.error}", style="red"))
    console.print(Text(KEYS, style="dim"))


def _line_reader() -> Callable[[], tuple[str, str]]:
    """Returns a reader of plain lines: n, p, g SEQ, d, i, q (for pipes and scripts)."""
    names = {"n": "next", "p": "prev", "g": "goto", "d": "dispute", "i": "illegal", "q": "quit",
             "": "next", "0": "first", "$": "end"}

    def read() -> tuple[str, str]:
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        word, _, arg = line.strip().partition(" ")
        return names.get(word, word), arg
    return read


def _key_reader() -> Callable[[], tuple[str, str]]:
    """Returns a reader of single keys on a terminal (arrows too); `g` asks for the seq."""
    from prompt_toolkit import prompt
    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import FormattedTextControl, Layout, Window

    bindings = KeyBindings()
    for keys, name in ((("right",), "next"), (("n",), "next"), (("space",), "next"),
                       (("enter",), "next"), (("left",), "prev"), (("p",), "prev"),
                       (("home",), "first"), (("end",), "end"), (("g",), "goto"),
                       (("d",), "dispute"), (("i",), "illegal"), (("q",), "quit"),
                       (("c-c",), "quit"), (("c-d",), "quit")):
        bindings.add(*keys)(lambda event, name=name: event.app.exit(result=name))

    def read() -> tuple[str, str]:
        app: Application = Application(
            layout=Layout(Window(FormattedTextControl("step> "), height=1)),
            key_bindings=bindings, full_screen=False, erase_when_done=True)
        name = app.run()
        if name == "goto":
            return name, prompt("go to seq: ")
        return name, ""
    return read
