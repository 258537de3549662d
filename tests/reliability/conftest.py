"""Prints the reliability figures at the end of the pytest run."""

from __future__ import annotations

from tests.reliability import figures


def pytest_terminal_summary(terminalreporter):
    if not figures.RECORDED:
        return
    terminalreporter.section("reliability figures")
    for line in figures.lines(figures.RECORDED):
        terminalreporter.write_line(line)
