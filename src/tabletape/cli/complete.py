"""Shell completion (click's, for bash, zsh and fish): game ids, options, players, seqs.

Each function is a parameter's `shell_complete`: it gets what was typed so far and
returns the candidates. They never raise: a log that cannot be read completes nothing.

bash splits the words it completes at COMP_WORDBREAKS (`=`, `@` and `:` among them), so
`--option length=<Tab>` and `FILE@<Tab>` reach click's own script as several words, and
what it offers would replace only the last of them: `Bash` reads the line itself and
offers only what follows the last break character.
"""

from __future__ import annotations

import os

import click
from click.shell_completion import BashComplete, CompletionItem, split_arg_string

from tabletape.app import completion


def games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(g) for g in completion.games(incomplete)]


def options(ctx: click.Context, param: click.Parameter | None,
            incomplete: str) -> list[CompletionItem]:
    """`KEY=` for each option of the command's game; after `KEY=`, the values it accepts."""
    game = ctx.params.get("game") or completion.game_in(ctx.args)
    return [CompletionItem(o) for o in completion.options(game, incomplete)]


def _log_of(ctx: click.Context) -> str | None:
    """The command's log: its FILE parameter, or (when an option still lacks its value, and
    click left the words unparsed) the first word naming a file."""
    for name in ("file", "point", "a"):
        value = ctx.params.get(name)
        path = getattr(value, "path", value)
        if isinstance(path, str) and os.path.isfile(path):
            return path
    return next((a for a in ctx.args if os.path.isfile(a)), None)


def players(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The players named in the header of the command's log."""
    path = _log_of(ctx)
    return [] if path is None else [CompletionItem(p) for p in completion.players(path, incomplete)]


def seqs(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The seqs of the command's log (events: 1 and on), those that start as typed."""
    path = _log_of(ctx)
    return [] if path is None else [CompletionItem(s) for s in completion.seqs(path, incomplete)]


def log_points(ctx: click.Context, param: click.Parameter | None,
               incomplete: str) -> list[CompletionItem]:
    """A file, or after `FILE@`, the seqs of that log."""
    points = completion.log_points(incomplete)
    if points is None:
        return [CompletionItem(incomplete, type="file")]
    return [CompletionItem(p) for p in points]


# click's bash script, passing the line as typed and bash's break characters as well
_SOURCE_BASH = """\
%(complete_func)s() {
    local IFS=$'\\n'
    local response

    response=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD=$COMP_CWORD \\
COMP_LINE="$COMP_LINE" COMP_POINT=$COMP_POINT COMP_WORDBREAKS="$COMP_WORDBREAKS" \\
%(complete_var)s=bash_complete $1)

    for completion in $response; do
        IFS=',' read type value <<< "$completion"

        if [[ $type == 'dir' ]]; then
            COMPREPLY=()
            compopt -o dirnames
        elif [[ $type == 'file' ]]; then
            COMPREPLY=()
            compopt -o default
        elif [[ $type == 'plain' ]]; then
            COMPREPLY+=($value)
            [[ $value == *= ]] && compopt -o nospace  # `length=`: its value follows
        fi
    done

    return 0
}

%(complete_func)s_setup() {
    complete -o nosort -F %(complete_func)s %(prog_name)s
}

%(complete_func)s_setup;
"""


SPECIAL = "@$"  # bash's readline "special prefixes": break characters kept in the word


class Bash(BashComplete):
    """click's bash completion, for words bash splits at its break characters.

    The words are read from COMP_LINE up to the cursor, split as the shell will pass them
    to tabletape (`length=s` is one word), and each candidate loses what bash keeps of the
    word: the text up to its last break character (`length=`; `FILE` before `@4`, since
    readline replaces `@4` with the candidate `@41`). A script sourced
    before this (no COMP_LINE) is answered as click answers it.
    """

    source_template = _SOURCE_BASH
    kept = ""  # the part of the word being completed that bash does not replace

    def get_completion_args(self) -> tuple[list[str], str]:
        line = os.environ.get("COMP_LINE")
        if line is None:
            return super().get_completion_args()
        try:
            line = line[:int(os.environ.get("COMP_POINT", len(line)))]
        except ValueError:
            pass
        words = split_arg_string(line)
        more = split_arg_string(line + "x")  # a new word starts at the cursor
        if len(more) > len(words) and more[-1] == "x":
            args, incomplete = words[1:], ""
        else:
            args, incomplete = words[1:-1], (words[-1] if words else "")
        breaks = set(os.environ.get("COMP_WORDBREAKS", "")) - set(" \t\n\"'")
        # readline replaces the text after the last break character; `@` (one of its
        # special prefixes, for host names) is replaced with that text, so it is offered
        cut = max((i + (c not in SPECIAL) for i, c in enumerate(incomplete) if c in breaks),
                  default=0)
        self.kept = incomplete[:cut]
        return args, incomplete

    def format_completion(self, item: CompletionItem) -> str:
        value = item.value
        if self.kept and item.type == "plain" and isinstance(value, str) and \
                value.startswith(self.kept):
            value = value[len(self.kept):]
        return f"{item.type},{value}"


def register() -> None:
    """Makes `Bash` answer `_TABLETAPE_COMPLETE=bash_source` and `bash_complete`."""
    from click.shell_completion import add_completion_class
    add_completion_class(Bash, "bash")
