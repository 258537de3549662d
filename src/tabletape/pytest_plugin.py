"""The pytest plugin (entry point `tabletape` in the `pytest11` group): an archive as tests.

A project that sets `tabletape_corpus = logs` in its pytest configuration gets one test
per log under those paths, each comparing what judging the log finds now with the
baseline manifest (`tabletape_baseline`, by default `baseline.json` in the first path:
the same file `tabletape corpus check --baseline` reads and writes). A failure says what
changed and from which seq. `--tabletape-update` writes the baseline instead, like
syrupy's `--snapshot-update`; `--tabletape-components GAME=FILE` judges a game's logs
with other component data (a proposed change of card values).

The corpus tests are added when pytest runs without naming test paths, or with
`--tabletape` (or `--tabletape-update`); `-p no:tabletape` turns the plugin off.

It sits beside the command line, above `tabletape.app` (the layers in pyproject.toml):
a second front end over the same checks. Nothing is imported until a corpus is set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tabletape.app.corpus import Entry

_STATE = pytest.StashKey["_Corpus"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tabletape", "tabletape: recorded games checked against a baseline")
    group.addoption("--tabletape", action="store_true",
                    help="Add the corpus tests even when test paths are named.")
    group.addoption("--tabletape-update", action="store_true",
                    help="Write the corpus baseline from what the logs give now.")
    group.addoption("--tabletape-components", action="append", default=[], metavar="GAME=FILE",
                    help="Judge GAME's logs with this component data (repeatable).")
    parser.addini("tabletape_corpus", type="paths", default=[],
                  help="Folders or files of tabletape logs: one test per log.")
    parser.addini("tabletape_baseline", type="string", default="",
                  help="The baseline manifest (default: baseline.json in the first corpus path).")
    parser.addini("tabletape_components", type="linelist", default=[],
                  help="GAME=FILE lines: component data to judge GAME's logs with.")


class _Corpus:
    """The session's corpus: where the baseline is, what it holds, what was judged."""

    def __init__(self, config: pytest.Config, paths: list[Path]) -> None:
        from tabletape.app import corpus
        self.config = config
        self.paths = paths
        ini = config.getini("tabletape_baseline")
        base = Path(ini) if ini else paths[0] / "baseline.json" if paths[0].is_dir() \
            else paths[0].parent / "baseline.json"
        if not base.is_absolute():
            base = (config.inipath.parent if config.inipath else config.rootpath) / base
        self.baseline = base
        self.root = str(base.parent)
        self.update = bool(config.getoption("tabletape_update"))
        specs = [*config.getini("tabletape_components"),
                 *config.getoption("tabletape_components")]
        pairs = []
        for spec in specs:
            game, sep, file = spec.partition("=")
            if not sep:
                raise pytest.UsageError(_printable(f"tabletape components take GAME=FILE, got {spec!r}"))
            pairs.append((game.strip(), file.strip()))
        self.components = corpus.parse_components(pairs)
        self.expected: dict[str, Entry] | None = \
            corpus.read_baseline(str(base)) if base.exists() else None
        self.judged: dict[str, Entry] = {}
        self.gone: set[str] = set()  # logs in the baseline, not in the archive, seen to be gone
        self.logs = corpus.find_logs([str(p) for p in paths])


def pytest_configure(config: pytest.Config) -> None:
    paths = config.getini("tabletape_corpus")
    if not paths:
        return
    from tabletape.tape.errors import TapeError
    try:
        config.stash[_STATE] = _Corpus(config, paths)
    except TapeError as e:
        raise pytest.UsageError(_printable(f"tabletape: {e}")) from None


def _wanted(config: pytest.Config) -> bool:
    return (config.args_source != pytest.Config.ArgsSource.ARGS
            or config.getoption("tabletape") or config.getoption("tabletape_update"))


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    state = config.stash.get(_STATE, None)
    if state is None or not _wanted(config):
        return
    node = CorpusFile.from_parent(session, path=state.baseline)
    items.extend(node.collect())


class CorpusFile(pytest.File):
    """The baseline manifest, as a collector: one item per log (and per log gone)."""

    def collect(self) -> list[pytest.Item]:
        from tabletape.app.corpus import names_of
        from tabletape.tape.errors import TapeError
        state = self.config.stash[_STATE]
        try:
            names = names_of(state.logs, state.root)
        except TapeError as e:
            raise pytest.UsageError(_printable(f"tabletape: {e}")) from None
        # A test's name is a log's name (what pytest prints): printable, as in a baseline;
        # a baseline written by hand may hold any key, printed escaped.
        out: list[pytest.Item] = [LogItem.from_parent(self, name=n, key=n, log=p)
                                  for n, p in names.items()]
        for gone in sorted(set(state.expected or {}) - set(names)):
            out.append(LogItem.from_parent(self, name=_printable(gone), key=gone, log=None))
        return out


class ChangedLog(AssertionError):
    """A log whose result differs from the baseline: the lines that say how (escaped)."""

    def __init__(self, *lines: str) -> None:
        super().__init__("\n".join(map(_printable, lines)))


def _printable(text: str) -> str:
    """Returns text as it may reach the terminal: what a log (or its name) holds, escaped
    at the one door for printed strings (`tabletape.tape.events.visible`)."""
    from tabletape.tape.events import visible
    return visible(text)


class LogItem(pytest.Item):
    """One log compared with its baseline entry."""

    def __init__(self, *, log: str | None, key: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.log = log
        self.key = key  # the log's key in the baseline (`name` is it escaped)

    def runtest(self) -> None:
        from tabletape.app import corpus
        state: _Corpus = self.config.stash[_STATE]
        where = os.path.relpath(state.baseline)
        if self.log is None:
            state.gone.add(self.key)
            if not state.update:
                raise ChangedLog(f"{self.key} is in the baseline {where} but not in the "
                                 "archive (--tabletape-update removes it)")
            return
        from tabletape.tape.errors import TapeError
        try:
            entry = corpus.judge(self.log, state.components)
        except TapeError as e:  # gone or unreadable meanwhile: not judged, nothing recorded
            raise ChangedLog(f"{self.key}: {e}") from None
        state.judged[self.key] = entry
        if state.update:
            return
        if state.expected is None:
            raise ChangedLog(f"there is no baseline {where} yet (--tabletape-update writes it)")
        old = state.expected.get(self.key)
        if old is None:
            raise ChangedLog(f"{self.key} is not in the baseline {where} "
                             "(--tabletape-update adds it)")
        change = corpus.difference(self.key, old, entry)
        if change is not None:
            broken = change.broken_at  # tampering first
            head = [f"broken at seq {broken.seq}"] if broken and broken.seq is not None else []
            if change.first_seq is not None:
                head.append(f"the judgement first differs at seq {change.first_seq}")
            lines = [f"{self.key} differs from the baseline {where}"
                     + (f": {'; '.join(head)}" if head else "")]
            lines += [f"  {w}" for w in change.what]
            if change.rules_changed:
                lines.append(f"  rules changed since its version: {', '.join(change.rules_changed)}")
            look = corpus.look_closer(change, os.path.relpath(self.log))
            if look:
                lines.append(f"  look closer: {look}")
            lines.append("(--tabletape-update accepts it)")
            raise ChangedLog(*lines)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, ChangedLog):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo, style))

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"tabletape log {self.name}"


def _worker_output(config: pytest.Config) -> dict[str, Any] | None:
    """Returns what an xdist worker sends its controller (None: not an xdist worker)."""
    return getattr(config, "workeroutput", None)


@pytest.hookimpl(optionalhook=True)  # (pytest-xdist's hook: called only when it runs)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """On the xdist controller: takes in what a worker judged, for the one write at the end."""
    state = node.config.stash.get(_STATE, None)
    sent = getattr(node, "workeroutput", {}).get("tabletape")
    if state is None or not sent:
        return
    import msgspec

    from tabletape.app.corpus import Entry
    state.judged.update({k: msgspec.convert(v, Entry) for k, v in sent["judged"].items()})
    state.gone.update(sent["gone"])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(_STATE, None)
    if state is None or not state.update:
        return
    out = _worker_output(session.config)
    if out is not None:  # an xdist worker: the controller writes the whole baseline, once
        import msgspec
        out["tabletape"] = {"judged": {k: msgspec.to_builtins(v) for k, v in state.judged.items()},
                            "gone": sorted(state.gone)}
        return
    if not (state.judged or state.gone):
        return
    from tabletape.app import corpus
    # Logs not judged this session (deselected) keep their entries.
    entries = {k: v for k, v in (state.expected or {}).items() if k not in state.gone}
    entries.update(state.judged)
    corpus.write_baseline(str(state.baseline), entries)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None and state.update and (state.judged or state.gone):
        terminalreporter.write_line(_printable(f"tabletape: wrote the baseline {state.baseline} "
                                               f"({len(state.judged)} logs judged)"))
