"""Figures the reliability tests measure: budgets, recording, and the table `make stress` prints.

Each test calls `record(name, **figures)` once. The figures are kept for the
pytest terminal summary and, when `TABLETAPE_FIGURES` names a file, appended
to it as one JSON object per line (so that several runs can be compared).
"""

from __future__ import annotations

import json
import os
import sys

STRESS = os.environ.get("TABLETAPE_STRESS", "") not in ("", "0")
RECORDED: list[dict] = []


def budget(test: int, stress: int) -> int:
    """Returns the size of a run: `test` under `make test`, `stress` under `make stress`."""
    return stress if STRESS else test


def record(name: str, **figures) -> None:
    """Keeps one test's figures for the summary and appends them to $TABLETAPE_FIGURES."""
    entry = {"test": name, "budget": "stress" if STRESS else "test", **figures}
    RECORDED.append(entry)
    path = os.environ.get("TABLETAPE_FIGURES")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")


def lines(entries: list[dict]) -> list[str]:
    """Returns the figures as one readable line per test."""
    out = []
    for e in entries:
        rest = ", ".join(f"{k} {v}" for k, v in e.items() if k not in ("test", "budget"))
        out.append(f"{e['test']} [{e['budget']}]: {rest}")
    return out


def main(path: str) -> None:
    """Prints the figures recorded in a TABLETAPE_FIGURES file."""
    with open(path, encoding="utf-8") as f:
        entries = [json.loads(line) for line in f if line.strip()]
    print("\n".join(lines(entries)))


if __name__ == "__main__":
    main(sys.argv[1])
