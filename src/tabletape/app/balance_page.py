"""The balance report as one self-contained page: inline SVG plots, no script, no network."""

from __future__ import annotations

import html

from tabletape.app import balance_report as rep


def page(report: rep.Report) -> str:
    """Returns the page (a placeholder until the plots are drawn)."""
    return f"<!doctype html><meta charset=utf-8><pre>{html.escape(rep.markdown(report))}</pre>"
