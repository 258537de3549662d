"""The tabletape command line: parse, call the library, render. Nothing else lives here.

The click group and its own commands are in `group` (`tabletape.cli:main` is that
group: its names are looked up there when first asked for). Importing this package
imports nothing else, so that `entry` can draw `replay`'s table (with `replaying`
and `render`) without importing click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletape.cli.group import (
        LAZY_COMMANDS,
        Failure,
        Tabletape,
        echo,
        emit_json,
        failure,
        main,
        report_appended,
        stdin_is_terminal,
    )

__all__ = ["LAZY_COMMANDS", "Failure", "Tabletape", "echo", "emit_json", "failure", "main",
           "report_appended", "stdin_is_terminal"]


def __getattr__(name: str) -> Any:
    """Returns a name of the click group's module (imported now, with click)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from tabletape.cli import group
    return getattr(group, name)
