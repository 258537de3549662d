"""The balance report as one self-contained page: inline SVG plots drawn here, no script,
no network. Each plot is drawn 360 units wide (a phone's width, its smallest text 10 units)
and scales with the page up to twice that."""

from __future__ import annotations

import html

from tabletape.app import balance_report as rep
from tabletape.app import balance_stats as st
from tabletape.engine.kit.svg import FAINT, FONT, INK, SEATS, esc, line, num, rect, text

W = 360  # every plot's width in user units
LEFT = 118  # room for the labels on the left
COLOURS = {"A": "#2e6fb7", "B": "#c0392b"}

CSS = (f"body{{font-family:{FONT};color:{INK};background:#fbfaf6;margin:0 auto;max-width:760px;"
       "padding:12px;line-height:1.4}h1{font-size:1.35em}h2{font-size:1.1em;margin-top:1.6em}"
       "svg{width:100%;max-width:720px;height:auto;display:block}"
       ".scroll{overflow-x:auto}table{border-collapse:collapse;font-size:.9em}"
       "td,th{border-bottom:1px solid #ddd;padding:3px 6px;text-align:left;white-space:nowrap}"
       ".verdict{font-weight:bold;padding:8px;background:#f0ede2;border-left:4px solid #777}"
       ".key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 10px;"
       "vertical-align:-1px}")


def _sides(report: rep.Report) -> list[tuple[str, rep.Side]]:
    return [("A", report.a)] + ([("B", report.b)] if report.b else [])


def _svg(height: float, body: str, label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {num(height)}" '
            f'role="img" aria-label="{esc(label)}" font-family="{FONT}">{body}</svg>')


def _axis(y: float, lo: float, hi: float, ticks: list[float], fmt: str = "{:.0%}") -> str:
    """Returns an x axis from lo to hi under the plot at y, with tick labels."""
    out = [line(LEFT, y, W - 18, y, stroke=FAINT)]
    for t in ticks:
        x = _x(t, lo, hi)
        out.append(line(x, y, x, y + 4, stroke=FAINT))
        out.append(text(x, y + 15, fmt.format(t), size=10, anchor="middle", fill=FAINT))
    return "".join(out)


def _x(v: float, lo: float, hi: float) -> float:
    return LEFT + (W - 18 - LEFT) * ((v - lo) / (hi - lo) if hi > lo else 0.5)


def seats_plot(report: rep.Report) -> str:
    """Returns the win share of each seat, A and B, with 95% intervals; a line at 1/n."""
    sides = _sides(report)
    n = len(report.a.players)
    row = 16 * len(sides) + 22
    h = 8 + n * row + 24
    out = []
    fair = _x(1 / n, 0, 1)
    out.append(line(fair, 8, fair, h - 24, stroke="#999", dash="3 3"))
    for i, name in enumerate(report.a.players):
        y0 = 8 + i * row
        out.append(text(4, y0 + 10, f"seat {i + 1} ({name})", size=11,
                        fill=SEATS[i % len(SEATS)]))
        y0 += 16
        for k, (tag, side) in enumerate(sides):
            r = side.summary.seats[i]
            y = y0 + k * 16
            c = COLOURS[tag]
            out.append(rect(LEFT, y, _x(r.value, 0, 1) - LEFT, 11, fill=c, stroke="none", rx=0,
                            opacity=0.35))
            out.append(line(_x(r.low, 0, 1), y + 5.5, _x(r.high, 0, 1), y + 5.5, stroke=c,
                            width=2))
            out.append(line(_x(r.value, 0, 1), y, _x(r.value, 0, 1), y + 11, stroke=c,
                            width=2))
            out.append(text(LEFT - 4, y + 9, f"{tag} {100 * r.value:.1f}%", size=10,
                            anchor="end", fill=c))
    out.append(_axis(h - 22, 0, 1, [0, 0.25, 0.5, 0.75, 1]))
    return _svg(h, "".join(out), "win share by seat with 95% intervals")


def hist_plot(report: rep.Report, field: str, label: str, fmt: str = "{:.0f}") -> str:
    """Returns the distribution of a length (`events`, `turns`, `rounds`), A and B overlaid."""
    sides = _sides(report)
    spreads: list[tuple[str, st.Spread]] = [(t, getattr(s.summary, field)) for t, s in sides]
    lo = min(sp.edges[0] for _, sp in spreads if sp.edges)
    hi = max(sp.edges[-1] for _, sp in spreads if sp.edges)
    top = max(max(sp.counts or [1]) / max(1, sum(sp.counts)) for _, sp in spreads)
    h, base = 150, 120
    out = [text(4, 20, label, size=11), text(4, 34, "share of games", size=10, fill=FAINT)]
    for tag, sp in spreads:
        c = COLOURS[tag]
        total = max(1, sum(sp.counts))
        for j, k in enumerate(sp.counts):
            x0, x1 = _x(sp.edges[j], lo, hi), _x(sp.edges[j + 1], lo, hi)
            y = base - (base - 12) * (k / total) / top
            out.append(rect(x0, y, max(0.5, x1 - x0 - 0.5), base - y, fill=c, stroke="none", rx=0,
                            opacity=0.35))
        m = _x(sp.median, lo, hi)
        out.append(line(m, 10, m, base, stroke=c, width=1.5, dash="4 2"))
        out.append(text(4, 52 + 14 * ("AB".index(tag)), f"{tag}: median "
                        f"{fmt.format(sp.median)}",
                        size=10, fill=c))
    step = (hi - lo) / 4
    out.append(_axis(base + 2, lo, hi, [lo + i * step for i in range(5)], fmt))
    return _svg(h, "".join(out), f"distribution of {label}")


def features_plot(report: rep.Report) -> str:
    """Returns what wins: per rule or card, winners' use less losers', with 95% intervals."""
    feats = report.a.summary.features
    if not feats:
        return ""
    lo = min(-0.1, min(f.low for f in feats))
    hi = max(0.1, max(f.high for f in feats))
    row = 15
    h = 10 + row * len(feats) + 24
    zero = _x(0, lo, hi)
    out = [line(zero, 6, zero, h - 24, stroke="#999", dash="3 3")]
    for i, f in enumerate(feats):
        y = 12 + i * row
        name = f.name.split(":", 1)[1]
        out.append(text(LEFT - 4, y + 4, name[:20], size=10, anchor="end"))
        c = "#2e8b57" if f.low > 0 else "#b03a2e" if f.high < 0 else FAINT
        out.append(line(_x(f.low, lo, hi), y, _x(f.high, lo, hi), y, stroke=c, width=2))
        out.append(f'<circle cx="{num(_x(f.diff, lo, hi))}" cy="{num(y)}" r="3" fill="{c}"/>')
    ticks = [t / 10 for t in range(int(lo * 10) - 1, int(hi * 10) + 2) if lo <= t / 10 <= hi]
    out.append(_axis(h - 22, lo, hi, ticks[::max(1, len(ticks) // 5)], "{:+.0%}"))
    return _svg(h, "".join(out), "what wins: winners' use less losers' with 95% intervals")


def sprt_plot(s: st.Sprt) -> str:
    """Returns the SPRT's log-likelihood ratio between its two bounds."""
    lo, hi = min(s.lower * 1.5, s.llr), max(s.upper * 1.5, s.llr)
    out = [rect(_x(lo, lo, hi), 14, _x(s.lower, lo, hi) - _x(lo, lo, hi), 14, fill="#2e8b57",
                stroke="none", rx=0, opacity=0.25),
           rect(_x(s.upper, lo, hi), 14, _x(hi, lo, hi) - _x(s.upper, lo, hi), 14,
                fill="#b03a2e", stroke="none", rx=0, opacity=0.25),
           text(4, 25, "LLR", size=11), text(_x(lo, lo, hi) + 2, 10, "not moved", size=10),
           text(_x(hi, lo, hi), 10, "moved", size=10, anchor="end"),
           f'<circle cx="{num(_x(s.llr, lo, hi))}" cy="21" r="5" fill="{INK}"/>',
           _axis(34, lo, hi, [s.lower, 0.0, s.upper], "{:+.2f}")]
    return _svg(56, "".join(out), "the SPRT's log-likelihood ratio and its bounds")


def _table(md: str) -> str:
    """Returns the Markdown report's tables and lines as HTML (its own simple subset)."""
    out: list[str] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if rows:
            head, body = rows[0], rows[2:]
            out.append('<div class="scroll"><table><tr>' + "".join(
                f"<th>{html.escape(c)}</th>" for c in head) + "</tr>" + "".join(
                "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                for r in body) + "</table></div>")
            rows.clear()

    for ln in md.splitlines():
        if ln.startswith("|"):
            rows.append([c.strip() for c in ln.strip("|").split("|")])
            continue
        flush()
        if ln.startswith("## "):
            continue
        if ln.startswith("**") and ln.endswith("**"):
            out.append(f'<p class="verdict">{html.escape(ln.strip("*"))}</p>')
        elif ln.startswith("- **"):
            tag, _, rest = ln[4:].partition("**: ")
            out.append(f'<p class="key"><span style="background:{COLOURS.get(tag, INK)}">'
                       f"</span><b>{html.escape(tag)}</b>: {html.escape(rest)}</p>")
        elif ln:
            out.append(f"<p>{html.escape(ln)}</p>")
    flush()
    return "\n".join(out)


def page(report: rep.Report) -> str:
    """Returns the report as a page: the verdict, the plots, the tables."""
    md = rep.markdown(report)
    parts = [f"<!doctype html><html lang=en><meta charset=utf-8>"
             f'<meta name=viewport content="width=device-width,initial-scale=1">'
             f"<title>Balance: {html.escape(report.game)}</title><style>{CSS}</style>"
             f"<body><h1>Balance: {html.escape(report.game)}</h1>", _table(md)]
    tables = parts.pop()
    head, sep, rest = tables.partition('<div class="scroll">')
    parts.append(head)
    if report.sprt is not None:
        parts += ["<h2>Stopping rule</h2>", sprt_plot(report.sprt)]
    parts += ["<h2>Win share by seat (95% intervals; dashed: an even share)</h2>",
              seats_plot(report), "<h2>Length</h2>",
              hist_plot(report, "events", "events per game"),
              hist_plot(report, "rounds", "rounds per game")]
    if report.a.summary.lead_from is not None:
        parts += ["<h2>Decisiveness: when the winner took the lead for good</h2>",
                  hist_plot(report, "lead_from", "share of the game", "{:.0%}")]
    if report.a.summary.features:
        parts += ["<h2>What wins (A): winners' use less losers'</h2>", features_plot(report)]
    parts += ["<h2>Figures</h2>", sep + rest]
    return "\n".join(parts) + "\n</body></html>\n"
