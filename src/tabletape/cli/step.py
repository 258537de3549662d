"""The terminal of `tabletape replay FILE --step`: show a `Stepper`'s seq, read keys.

Keys come from prompt_toolkit on a terminal (arrows too) and from plain lines
otherwise (pipes, scripts, tests); both are imported only when the stepper runs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from tabletape.app.stepper import MOVES, Stepper
from tabletape.tape.events import visible

KEYS = "→/n next · ←/p back · g SEQ jump · d next dispute · i next illegal · q quit"


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
        message = stepper.key(name, arg) if name in MOVES else f"unknown key {name!r}; {KEYS}"
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
    if stepper.components is not None:  # every frame: the table is not the header's box
        console.print(Text(stepper.components.note(), style="yellow"))
    who = f" · by {visible(f.event.by)}" if f.event.by else ""
    seen = f" · as {stepper.as_player} sees it" if stepper.as_player else ""
    console.print(Rule(Text(f"seq {f.seq} of {stepper.last}{who}{seen}"), align="left"))
    console.print(drawing(stepper.ruleset, stepper.state()))
    console.print(Text(f"seq {f.seq}: {f.sentence}", style="bold"))
    for m in stepper.marks():
        console.print(Text(f"  {m.text}", style="red" if m.illegal else "yellow"))
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
        app: Application[str] = Application(
            layout=Layout(Window(FormattedTextControl("step> "), height=1)),
            key_bindings=bindings, full_screen=False, erase_when_done=True)
        name = app.run()
        if name == "goto":
            return name, prompt("go to seq: ")
        return name, ""
    return read
