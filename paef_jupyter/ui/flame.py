"""The flame chart: profile call trees laid out as bars on a time axis, linked to findings.

`layout` is pure (Report -> bars, each knowing the findings behind it); `figure` draws the
bars with plotly, one `Bar` trace so a click's point index is the bar's index. CPU frames
stack downwards from the root; a GPU lane (kernels, copies) sits below on the same time axis.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import AbstractSet, Any, Sequence

from ..model import Finding, Frame, Report
from .pieces import fmt_time

KIND_COLORS = {
    "root": "#9e9e9e",
    "python": "#6e8fc9",
    "op": "#4fa3a5",
    "kernel": "#5aa469",
    "memcpy": "#e69545",
    "sync": "#d65f5f",
}
LINKED_OUTLINE = "#8250df"
SELECTED_COLOR = "#c62828"
FADED_COLOR = "#dde1e6"
MAX_BARS = 3000


@dataclass(frozen=True)
class Bar:
    frame: Frame
    lane: str  # "cpu" or "gpu"
    row: int
    start_s: float
    duration_s: float
    findings: tuple[int, ...]


@dataclass(frozen=True)
class FlameLayout:
    bars: tuple[Bar, ...]
    cpu_rows: int
    gpu_rows: int
    hidden: int


def layout(report: Report, max_bars: int = MAX_BARS) -> FlameLayout | None:
    """Bars for the report's profile trees, or None when there is nothing to draw.

    The last one is remembered: a report is laid out for its live view, its static copy and
    each of the copy's re-renderings, and taking its final overhead figure makes a new report
    with the same trees and findings."""
    global _last_layout
    profile = report.profile
    if profile is None or (profile.cpu_tree is None and profile.gpu_tree is None):
        return None
    key = (profile.cpu_tree, profile.gpu_tree, report.findings)
    if _last_layout is not None and _last_layout[1] == max_bars and all(a is b for a, b in zip(_last_layout[0], key)):
        return _last_layout[2]
    drawn = _layout(report, max_bars)
    _last_layout = (key, max_bars, drawn)
    return drawn


_last_layout: tuple[tuple[Any, ...], int, FlameLayout | None] | None = None


def _layout(report: Report, max_bars: int) -> FlameLayout | None:
    profile = report.profile
    assert profile is not None
    placed: list[tuple[Frame, str, int, float, tuple[int, ...]]] = []
    cpu_rows = _place(profile.cpu_tree, "cpu", 0, report.findings, placed) if profile.cpu_tree else 0
    gpu_rows = _place(profile.gpu_tree, "gpu", cpu_rows + 1, report.findings, placed) if profile.gpu_tree else 0
    if not placed:
        return None
    kept = placed
    if len(placed) > max_bars:
        threshold = sorted((p[0].duration_s for p in placed), reverse=True)[max_bars - 1]
        kept = [p for p in placed if p[0].duration_s >= threshold][:max_bars]
    bars = tuple(Bar(f, lane, row, start, f.duration_s, links) for f, lane, row, start, links in kept)
    return FlameLayout(bars, cpu_rows, gpu_rows, len(placed) - len(kept))


def frame_findings(frame: Frame, findings: Sequence[Finding]) -> tuple[int, ...]:
    """Findings whose lines hold the frame's calling line."""
    if frame.ref is None or frame.line is None or frame.kind == "root":
        return ()
    return tuple(
        i for i, f in enumerate(findings) if f.ref.key == frame.ref.key and f.line <= frame.line <= f.end_line
    )


def colors(flame: FlameLayout, selected: int | None = None,
           dismissed: AbstractSet[int] = frozenset()) -> tuple[list[str], list[str]]:
    """(fill, outline) per bar: the selected finding's frames lit, the rest faded; a frame
    behind dismissed findings only loses its link outline."""
    fill, outline = [], []
    for bar in flame.bars:
        if selected is None:
            fill.append(KIND_COLORS.get(bar.frame.kind, KIND_COLORS["python"]))
            linked = any(i not in dismissed for i in bar.findings)
            outline.append(LINKED_OUTLINE if linked else "rgba(255,255,255,0.6)")
        elif selected in bar.findings:
            fill.append(SELECTED_COLOR)
            outline.append("#7f0000")
        else:
            fill.append(FADED_COLOR)
            outline.append("rgba(255,255,255,0.6)")
    return fill, outline


def figure_json(report: Report, flame: FlameLayout, selected: int | None = None) -> dict:
    """The plotly figure as plain JSON (what plotly.js takes): built without plotly.py, whose
    validation of a few thousand bars costs more than the rest of the view."""
    fill, outline = colors(flame, selected)
    bars = flame.bars
    trace = {
        "type": "bar",
        "orientation": "h",
        "base": [b.start_s * 1e3 for b in bars],
        "x": [max(b.duration_s * 1e3, 1e-6) for b in bars],
        "y": [b.row for b in bars],
        "width": 0.92,
        "text": [escape(_short(b.frame.name), quote=False) for b in bars],
        "textposition": "inside",
        "insidetextanchor": "start",
        "textfont": {"size": 10, "color": "#111"},
        "hovertext": list(hovers(flame, report.findings)),
        "hovertemplate": "%{hovertext}<extra></extra>",
        "customdata": list(range(len(bars))),
        "marker": {"color": fill, "line": {"color": outline, "width": 1}},
        "showlegend": False,
    }
    rows = flame.cpu_rows + (flame.gpu_rows + 1 if flame.gpu_rows else 0)
    tickvals, ticktext = [0], ["CPU"]
    if flame.gpu_rows:
        tickvals.append(flame.cpu_rows + 1)
        ticktext.append("GPU")
    title = "Flame chart (click a frame for the findings behind it)"
    if flame.hidden:
        title += f" \u2014 {flame.hidden} frames too short to draw are hidden"
    layout = {
        "title": {"text": title, "font": {"size": 13}, "x": 0.01},
        "height": min(120 + 24 * max(rows, 1), 700),
        "margin": {"l": 50, "r": 10, "t": 36, "b": 36},
        "xaxis": {"title": {"text": "time (ms)"}, "zeroline": False},
        "yaxis": {"autorange": "reversed", "tickvals": tickvals, "ticktext": ticktext, "showgrid": False,
                  "zeroline": False},
        "uniformtext": {"mode": "hide", "minsize": 8},
        "bargap": 0,
        # Transparent: the view's CSS gives axes and title the theme's text colour.
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "autosize": True,
        "clickmode": "event",
        "hoverlabel": {"align": "left"},
    }
    return {"data": [trace], "layout": layout}


def figure(report: Report, flame: FlameLayout, selected: int | None = None):
    """`figure_json` as a plotly.py `Figure`: for front ends without the live view."""
    import plotly.graph_objects as go

    return go.Figure(figure_json(report, flame, selected))


SVG_MAX_BARS = 600


def svg(flame: FlameLayout, findings: Sequence[Finding], max_bars: int = SVG_MAX_BARS,
        dismissed: AbstractSet[int] = frozenset()) -> str:
    """The chart as inline SVG, no script: what a saved notebook, nbconvert and GitHub show
    when the live chart is gone. Scales to its container's width; each bar's tooltip is the
    hover text of the live chart. Only the longest bars are drawn."""
    bars = sorted(flame.bars, key=lambda b: -b.duration_s)[:max_bars]
    if not bars:
        return ""
    t0 = min(b.start_s for b in bars)
    span = max(b.start_s + b.duration_s for b in bars) - t0 or 1e-9
    rows = flame.cpu_rows + (flame.gpu_rows + 1 if flame.gpu_rows else 0)
    width, row_h, left = 1000.0, 18, 40
    height = row_h * max(rows, 1) + 22
    scale = (width - left - 4) / span
    fill, _ = colors(flame)
    index = {id(b): i for i, b in enumerate(flame.bars)}
    hover = hovers(flame, findings, dismissed)
    parts = [
        f'<svg class="paef-flame-svg" viewBox="0 0 {width:.0f} {height}" width="100%" '
        f'role="img" aria-label="flame chart" xmlns="http://www.w3.org/2000/svg" '
        f'style="display:block;max-width:100%;height:auto;font:10px sans-serif">',
        '<text x="2" y="13" fill="currentColor">CPU</text>',
    ]
    if flame.gpu_rows:
        parts.append(f'<text x="2" y="{(flame.cpu_rows + 1) * row_h + 13}" fill="currentColor">GPU</text>')
    for bar in bars:
        x = left + (bar.start_s - t0) * scale
        w = max(bar.duration_s * scale, 0.5)
        y = bar.row * row_h
        label = _short(bar.frame.name)
        title = hover[index[id(bar)]].replace("<br>", "\n")
        text = (f'<text x="{x + 2:.1f}" y="{y + 12}" fill="#111">{escape(label[: int(w / 6)])}</text>'
                if w > 30 else "")
        parts.append(
            f'<g data-bar="{index[id(bar)]}"><title>{title}</title>'
            f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row_h - 1}" fill="{fill[index[id(bar)]]}"/>{text}</g>'
        )
    parts.append(f'<text x="{left}" y="{height - 4}" fill="currentColor">0</text>')
    parts.append(f'<text x="{width - 4}" y="{height - 4}" text-anchor="end" fill="currentColor">'
                 f'{escape(fmt_time(span))}</text>')
    parts.append("</svg>")
    return "".join(parts)


def describe(bar: Bar) -> str:
    where = f" (line {bar.frame.line})" if bar.frame.line else ""
    return f"{bar.frame.name}{where}, {fmt_time(bar.duration_s)}"


# --- internals ---------------------------------------------------------------------------


def _place(root: Frame, lane: str, row0: int, findings: Sequence[Finding], out: list) -> int:
    """Append (frame, lane, row, start, findings) for a tree; return the rows it uses."""
    timed = any(f.start_s > 0 for f in root.walk())
    depth = 0
    stack: list[tuple[Frame, int, float, tuple[int, ...]]] = [(root, 0, root.start_s if timed else 0.0, ())]
    while stack:
        frame, level, start, inherited = stack.pop()
        links = tuple(sorted(set(inherited) | set(frame_findings(frame, findings))))
        out.append((frame, lane, row0 + level, start, links))
        depth = max(depth, level + 1)
        cursor = start
        for child in _shown_children(frame):
            child_start = child.start_s if timed else cursor
            stack.append((child, level + 1, child_start, links))
            cursor += child.duration_s
    return depth


def _shown_children(frame: Frame) -> list[Frame]:
    """Children, with IPython's own call into the magic (`get_ipython().run_cell_magic(...)`,
    the line a `%%paef` cell becomes) replaced by what it called: not the user's code."""
    out: list[Frame] = []
    for child in frame.children:
        if child.name.startswith("get_ipython().run_cell_magic("):
            out.extend(_shown_children(child))
        else:
            out.append(child)
    return out


def _short(name: str, limit: int = 40) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "\u2026"


def hovers(flame: FlameLayout, findings: Sequence[Finding], dismissed: AbstractSet[int] = frozenset()) -> list[str]:
    """Each bar's hover text (`_hover`), in the layout's order. The last answer is remembered:
    a report's live chart and its static copy's SVG (each bar's tooltip) ask for the same texts
    of the same bars, a few hundred of them, each a name escaped and two times formatted."""
    global _last_hovers
    key = (flame, findings, frozenset(dismissed))
    if _last_hovers is not None and _last_hovers[0][0] is flame and _last_hovers[0][1] is findings \
            and _last_hovers[0][2] == key[2]:
        return _last_hovers[1]
    texts = [_hover(b, findings, key[2]) for b in flame.bars]
    _last_hovers = (key, texts)
    return texts


_last_hovers: tuple[tuple[FlameLayout, Sequence[Finding], frozenset[int]], list[str]] | None = None


def _hover(bar: Bar, findings: Sequence[Finding], dismissed: AbstractSet[int] = frozenset()) -> str:
    """Plotly reads hover text as a small HTML subset: frame names are escaped. Dismissed
    findings are not named."""
    f = bar.frame
    parts = [escape(f.name, quote=False), f"{f.kind}, {fmt_time(f.duration_s)} (self {fmt_time(f.self_s)})"]
    if f.line is not None:
        parts.append(f"line {f.line}")
    named = [i for i in bar.findings if i not in dismissed]
    if named:
        parts.append("findings: " + ", ".join(escape(findings[i].rule, quote=False) for i in named))
    return "<br>".join(parts)
