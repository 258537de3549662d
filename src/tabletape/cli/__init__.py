"""The tabletape command line: parse, call the library, render. Nothing else lives here.

The click group and its own commands are in `group` (`tabletape.cli.group:main`); the
console script starts in `entry`. Importing this package imports nothing else, so that
`entry` can draw `replay`'s table (with `replaying` and `render`) without importing click.
"""
