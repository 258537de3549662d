"""Rich output shared by every game: problems, rulings, event tables, state diffs."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from tabletape.app.vocab import counted
from tabletape.engine import Replay, Ruleset, Ruling
from tabletape.tape.errors import TapeError, UsageError
from tabletape.tape.events import UNSAFE, visible
from tabletape.tape.words import next_line

# The one door for every printed string. Every string that came from a log, a components
# file or a file name is escaped through `safe` (`tape.events.visible`) where it enters the
# output; SafeConsole is the net under that: whatever a game's drawing or a message holds, no
# control character reaches the terminal as one, and no string is read as rich markup (a
# player named `[link=...]alice[/link]` or `x[/]` prints as written: markup=False is the
# consoles' default, so a str passed to print, a table's cell or title, a panel, is text).
safe = visible
_UNSAFE_BUT_NEWLINE = re.compile(f"(?!\n)[{UNSAFE}]")


class SafeConsole(Console):
    """A Console whose text segments carry no control character but the newlines it lays out,
    and which reads no string as markup.

    Styling is not in a segment's text (rich writes it after rendering), and cursor
    movement is in control segments, which are left alone: what is escaped here can only
    have come from the strings printed.
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(**{"markup": False, "highlight": False, "emoji": False, **kw})
        # rich fixes the width (and height) to $COLUMNS ($LINES) as it is when the console
        # is made: here, when this module is first imported. Unless a width is given, both
        # are read again at each print, as the terminal says them then (rich's `size`).
        if kw.get("width") is None:
            self._width = None
        if kw.get("height") is None:
            self._height = None

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None
               ) -> Iterable[Segment]:
        for seg in super().render(renderable, options):
            if not seg.control and _UNSAFE_BUT_NEWLINE.search(seg.text):
                seg = Segment(_UNSAFE_BUT_NEWLINE.sub(_escape, seg.text), seg.style)
            yield seg


def _escape(m: re.Match[str]) -> str:
    return visible(m.group())


# emoji=False: nothing of ours writes emoji codes, and a name from a log that looks like one
# (":skull:") is shown as written; rich's table of codes is then never loaded (a few ms).
console = SafeConsole(soft_wrap=True)
err_console = SafeConsole(stderr=True, soft_wrap=True)


def drawing(rs: Ruleset[Any, Any, Any], state: Any) -> Any:
    """Returns the game's own drawing of a state (its `render` part), with what comes next.

    `rs` is bound to the game (`Replay.ruleset`, `Fold.ruleset`): the drawing reads its
    components.
    """
    d, o = rs.pending(state), rs.outcome(state)  # as app.pictures.next_text says it
    return rs.render.render(rs, state, next_line(d.detail if d else None,
                                                 o.summary if o else None))


def plain(value: Any) -> str:
    """Returns a value as compact JSON for a table cell."""
    if isinstance(value, str):
        return safe(value)
    import json

    return safe(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def spaced(value: Any) -> str:
    """Returns a value as JSON with a space after each comma and colon, so that a narrow
    cell wraps between a list's items and never inside a card's name (`diff`)."""
    if isinstance(value, str):
        return safe(value)
    import json

    return safe(json.dumps(value, ensure_ascii=False))


def tape_error(e: TapeError | OSError) -> TapeError:
    """Returns an error of ours as it is, and one of the system as a UsageError (exit 2)."""
    if isinstance(e, OSError):
        return UsageError(f"{e.strerror or e}", file=getattr(e, "filename", None))
    return e


def show_error(e: TapeError) -> None:
    """Prints why a command failed: one line, `error: ...`, on stderr."""
    err_console.print(Text.assemble(("error: ", "red"), safe(str(e))))


def problem_line(e: TapeError) -> Text:
    return Text(safe(str(e)), style="red")


def ruling_table(rulings: list[Ruling], ruleset: Ruleset[Any, Any, Any] | None) -> Group:
    """Returns the disputes as a table (who raised which, the verdict, its rule and reason),
    then, under it, each ruling's arithmetic and what it rests on, each line printed whole
    (in the table's last column they ran a word a line)."""
    table = Table(title="disputes", title_justify="left")
    for col in ("dispute", "about", "raised by", "ruling"):
        table.add_column(col, no_wrap=True)
    table.add_column("rule", overflow="fold", min_width=24)
    table.add_column("why", ratio=1)
    for r in rulings:
        style = {"legal": "green", "illegal": "red"}.get(r.verdict, "yellow")
        rule = (r.rule or "").replace(", ", "\n")
        if r.rule and ruleset is not None and r.verdict == "illegal":
            entry = ruleset.catalogue().get(r.rule)
            if entry:
                rule = f"{r.rule}\n({entry.section})"
        table.add_row(f"seq {r.dispute_seq}", f"seq {r.about}", safe(r.by or "—"),
                      Text(r.verdict, style=style), Text(rule), Text(safe(r.reason)))
    below: list[RenderableType] = []
    for r in rulings:
        lines = r.lines()  # escaped already: they name component data
        if lines:
            below.append(Text(f"seq {r.dispute_seq}, the ruling on seq {r.about}:"))
            below.extend(Text(f"  {line}", style="yellow") for line in lines)
    return Group(table, *below)


def _blocks(title: str, columns: list[str], rows: list[list[str]], keys: int) -> None:
    """Prints each row as its ids on a line, then `column  value` lines whose values wrap
    between words (a cell's lines joined by ", "): nothing is cut short or split. Where a
    value's longest word would not fit beside the column's name, values go under it."""
    import textwrap

    cells = [c.replace("\n", ", ") for r in rows for c in r[keys:]]
    longest = max((len(w) for c in cells for w in c.split()), default=0)
    label = max(len(c) for c in columns[keys:]) + 4
    beside = label + longest <= console.width
    indent = label if beside else 4
    width = max(console.width - indent, longest)
    out: list[str] = [title]
    for r in rows:
        out.append("  ".join(r[:keys]))
        for col, cell in zip(columns[keys:], r[keys:], strict=True):
            lines = textwrap.wrap(cell.replace("\n", ", "), width, break_long_words=False,
                                  break_on_hyphens=False) or [""]
            if beside:
                out.append(f"  {col:<{label - 2}}{lines.pop(0)}")
            else:
                out.append(f"  {col}")
            out += [" " * indent + line for line in lines]
    for line in out:  # escaped already; a word longer than the screen is left to it
        console.print(Text(line), soft_wrap=True)


def summary(result: Replay) -> str:
    """Returns one sentence on a replayed log: events, problems, outcome."""
    if result.ruleset is None:
        return f"{safe(result.file)}: unreadable"
    judged = f" rules {result.judged_by}" if result.judged_by else ""
    parts = [f"{safe(result.file)}: {result.ruleset.id}{judged}, {counted(result.events, 'event')}"]
    if result.fold is not None:
        o = result.ruleset.outcome(result.state)
        if o is not None:
            parts.append(safe(o.summary))
        else:
            d = result.ruleset.pending(result.state)
            parts.append(f"in progress, next: {safe(d.detail)}" if d else "in progress")
        if result.fold.corrected:
            parts.append(f"{counted(len(result.fold.corrected), 'illegal event')} corrected by undo")
        if result.fold.unjudged:
            parts.append(f"{counted(len(result.fold.unjudged), 'event')} not judged after an illegal one")
    return "; ".join(parts)


def version_note(result: Replay) -> Text | None:
    """Returns a warning when the log was recorded under other rules than the ones judging it."""
    differ = result.rules_versions
    if differ is None or result.ruleset is None:
        return None
    recorded, judging = differ
    rs = result.ruleset
    if recorded not in rs.versions:
        why = f"which this tabletape does not have (its versions: {', '.join(rs.versions)})"
    else:
        from tabletape.engine.versions import changed_between
        changed = sorted({r for entries in changed_between(rs.changelog, recorded, judging).values()
                          for r in entries})
        why = (f"rules changed between them: {', '.join(changed)}" if changed
               else "no rule changed between them")
    return Text(safe(f"note: recorded under {rs.id} rules {recorded}, judged by rules "
                     f"{judging}; {why}"), style="yellow")


def listing(title: str, columns: list[str], rows: list[list[str]], keys: int = 1,
            whole: tuple[int, ...] = ()) -> None:
    """Prints rows whose first `keys` columns are ids a person types: never cut short.

    At a terminal, a table whose id columns never wrap (the others fold first), and whose
    `whole` columns (values such as `key=value`) wrap between words only: when the table
    cannot be that wide, each row is a block of `column  value` lines instead. Elsewhere (a
    pipe, a file), plain text, one row a line, columns aligned by spaces. A cell's lines are
    stacked in a table and joined by ", " in plain text.
    """
    if console.is_terminal:
        rows = [["\n".join(safe(line) for line in c.split("\n")) for c in r] for r in rows]
        widest = [max(len(w) for r in [columns, *rows] for w in r[i].split()) if i >= keys
                  else max(len(col), *(len(r[i]) for r in rows)) for i, col in enumerate(columns)]
        if whole and sum(widest) + 3 * len(columns) + 1 > console.width:
            _blocks(title, columns, rows, keys)
            return
        table = Table(title=title)
        for i, col in enumerate(columns):
            if i < keys:
                table.add_column(col, no_wrap=True, min_width=widest[i])
            else:
                table.add_column(col, overflow="fold",
                                 min_width=widest[i] if i in whole else None)
        for r in rows:
            table.add_row(*(Text(c) for c in r))
        console.print(table)
        return
    rows = [[c.replace("\n", ", ") for c in r] for r in rows]
    widths = [max(len(col), *(len(r[i]) for r in rows)) for i, col in enumerate(columns)]
    for r in [columns, *rows]:
        cells = [safe(c).ljust(w) for c, w in zip(r[:-1], widths, strict=False)]
        console.file.write("  ".join([*cells, safe(r[-1])]).rstrip() + "\n")
