"""The render protocol: every view of a `Report` is built from these pieces.

The widget view, the static notebook fallback and the exported HTML file all call the same
functions (summary, card, source listing, diff, errors), so they cannot drift apart. Each
piece is a pure function returning `Markup`; user text only enters through `html.tag`.
"""

from __future__ import annotations

from typing import AbstractSet, Iterable, Sequence

from ..model import CellRef, Evidence, Finding, Profile, Report, SourceUnit
from .html import Markup, join, tag

# White text on these is >= 4.5:1, so the severity badge reads in any theme.
SEVERITY_COLORS = {"high": "#b71c1c", "medium": "#a44200", "low": "#4f6470"}

# Every colour comes from a JupyterLab theme variable (`--jp-*`), with the light value as the
# fallback where no theme defines them (the exported file, nbviewer, GitHub). Tints are
# translucent so they read on light and dark backgrounds alike. Flex and grid children get
# `min-width:0` and long words wrap; code scrolls inside its own box, never the page.
CSS = Markup(
    """
.paef{--paef-fg:var(--jp-content-font-color1,#1f2328);--paef-fg2:var(--jp-content-font-color2,#57606a);
 --paef-fg3:var(--jp-content-font-color3,#6e7781);--paef-bg:var(--jp-layout-color0,#fff);
 --paef-bg2:var(--jp-layout-color1,#f6f8fa);--paef-code-bg:var(--jp-cell-editor-background,#f6f8fa);
 --paef-border:var(--jp-border-color1,#d0d7de);--paef-accent:var(--jp-brand-color1,#0969da);
 --paef-link:var(--jp-content-link-color,#0969da);
 font-family:var(--jp-ui-font-family,-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif);
 font-size:13px;color:var(--paef-fg);line-height:1.45;background:var(--paef-bg);max-width:100%;min-width:0;
 box-sizing:border-box;overflow-wrap:anywhere}
.paef *{box-sizing:border-box;min-width:0}
.paef code,.paef pre{font-family:var(--jp-code-font-family,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace);
 font-size:12px;color:var(--paef-fg)}
.paef :not(pre)>code{background:var(--paef-code-bg);border-radius:3px;padding:0 3px}
.paef a{color:var(--paef-link)}
.paef h3{font-size:15px;margin:4px 0 8px;color:var(--paef-fg)}
.paef h4{font-size:13px;margin:10px 0 4px;color:var(--paef-fg)}
.paef-summary{background:var(--paef-bg2);border:1px solid var(--paef-border);border-radius:6px;padding:8px 12px;
 margin-bottom:8px}
.paef-stats{display:flex;flex-wrap:wrap;gap:6px 18px;margin:4px 0}
.paef-stat b{font-size:15px;display:block;color:var(--paef-fg)}
.paef-stat span{color:var(--paef-fg2);font-size:11px;text-transform:uppercase;letter-spacing:.03em}
.paef-top{margin:6px 0 0 0;padding-left:22px}
.paef-top li{margin:1px 0}
.paef-note{color:var(--paef-fg2);font-size:12px}
.paef-card{border:1px solid var(--paef-border);border-left:5px solid #4f6470;border-radius:6px;padding:8px 12px;
 margin:0 0 8px;background:var(--paef-bg);color:var(--paef-fg)}
.paef-card.sev-high{border-left-color:#c62828}.paef-card.sev-medium{border-left-color:#ef6c00}
.paef-card.paef-selected{box-shadow:0 0 0 2px var(--paef-accent)}
.paef-card.paef-linked{box-shadow:0 0 0 2px #8250df}
.paef-card.paef-dimmed{opacity:.6}
.paef-card-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:8px}
.paef-sev{color:#fff;border-radius:10px;padding:0 8px;font-size:11px;font-weight:600;text-transform:uppercase}
.paef .paef-rule{font-weight:600;font-size:13px;background:none;padding:0}
.paef-loc,.paef-origin{color:var(--paef-fg2);font-size:12px}
.paef-msg{margin:4px 0;font-weight:500}
.paef-evidence{display:flex;flex-wrap:wrap;gap:2px 14px;margin:4px 0;font-size:12px}
.paef-evidence span b{font-weight:600}
.paef-why{margin:4px 0}
.paef-fixdesc{margin:6px 0 2px;font-weight:500}
.paef pre.paef-diff,.paef pre.paef-code{background:var(--paef-code-bg);border:1px solid var(--paef-border);
 border-radius:4px;padding:6px 8px;margin:4px 0;overflow:auto;max-height:32em;max-width:100%;white-space:pre;
 overflow-wrap:normal}
.paef-diff span{display:block;min-width:max-content}
.paef-diff .add{background:rgba(46,160,67,.22)}
.paef-diff .del{background:rgba(248,81,73,.22)}
.paef-diff .hunk{color:var(--paef-fg2)}
.paef-source{border:1px solid var(--paef-border);border-radius:4px;margin:4px 0 10px;overflow:auto;max-height:40em;
 max-width:100%;background:var(--paef-bg)}
.paef-source pre{margin:0;padding:4px 0;white-space:pre;overflow-wrap:normal;background:none}
.paef-line{display:block;min-width:max-content;padding:0 8px 0 0;border-left:3px solid transparent}
.paef-line.has-finding{border-left-color:#ef6c00;background:rgba(239,108,0,.14)}
.paef-line.paef-hl{background:rgba(9,105,218,.2);border-left-color:var(--paef-accent)}
.paef-ln{display:inline-block;width:3.2em;text-align:right;color:var(--paef-fg3);padding-right:10px;user-select:none}
.paef-errors{color:var(--jp-error-color1,#b71c1c)}
.paef-status{font-size:12px;color:var(--paef-fg2)}
.paef-warning{color:var(--jp-warn-color0,#8a4b00)}
.paef-status.paef-warning{background:rgba(191,135,0,.13);border:1px solid var(--jp-warn-color1,#bf8700);
 border-left-width:4px;border-radius:4px;padding:3px 8px;margin:4px 0}
.paef-unit[data-cell-id] .paef-ln,.paef-loc[data-cell-id]{cursor:pointer}
.paef-unit[data-cell-id] .paef-ln:hover,.paef-loc[data-cell-id]:hover{text-decoration:underline;color:var(--paef-link)}
.paef-copy{display:none;float:right;font:inherit;font-size:11px;padding:0 8px;margin-left:8px;cursor:pointer;
 color:var(--paef-fg);background:var(--paef-bg2);border:1px solid var(--paef-border);border-radius:4px}
.paef-js .paef-copy{display:inline-block}
.paef-lines-box{margin:4px 0 10px}
.paef-lines-box>summary{cursor:pointer;color:var(--paef-fg2);font-size:12px}
.paef-lines-scroll{overflow:auto;max-height:24em;max-width:100%;contain:inline-size}
.paef-lines{border-collapse:collapse;font-size:12px;margin:4px 0}
.paef-lines th,.paef-lines td{padding:1px 10px 1px 4px;border-bottom:1px solid var(--paef-border);text-align:right;
 white-space:nowrap}
.paef-lines th{color:var(--paef-fg2);font-weight:600;user-select:none}
.paef-js .paef-lines th{cursor:pointer}
.paef-lines th[aria-sort=ascending]::after{content:" \25B2"}
.paef-lines th[aria-sort=descending]::after{content:" \25BC"}
.paef-lines td.paef-text{text-align:left;white-space:pre-wrap;overflow-wrap:anywhere;min-width:16em;width:100%}
.paef-lines td.paef-text code{background:none;padding:0}
.paef .js-plotly-plot .main-svg{background:transparent!important}
.paef .js-plotly-plot .infolayer text,.paef .js-plotly-plot .xtick text,.paef .js-plotly-plot .ytick text{
 fill:var(--paef-fg)!important}
"""
)


# --- small helpers -----------------------------------------------------------------------


def unit_label(ref: CellRef) -> str:
    """How a user recognises a unit: `train.ipynb, code cell 3 [7]`, `train.py`, `In[4]`."""
    name = ref.path or ""
    if ref.cell is not None:
        cell = ref.label or f"cell {ref.cell}"
        return f"{name}, {cell}" if name else cell
    return name or "this cell"


def prose(text: str) -> Markup:
    """Finding text with its `inline code` set as code (the rules write Markdown-style
    backticks); everything else escaped as usual."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: leave the text as written
        return join([text])
    return join([tag("code", p) if i % 2 else p for i, p in enumerate(parts)])


def lines_label(line: int, end_line: int) -> str:
    return f"line {line}" if end_line <= line else f"lines {line}\u2013{end_line}"


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} \u00b5s"


def fmt_bytes(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GiB"


def fmt_share(share: float) -> str:
    return f"{share * 100:.1f}%"


# --- pieces ------------------------------------------------------------------------------


def summary(report: Report, top: int = 5, scope: str = "", dismissed: AbstractSet[int] = frozenset()) -> Markup:
    """Totals, CPU vs GPU, copies and syncs per iteration, and the top-K bottlenecks.

    `scope` makes the card ids it links to unique to one rendering: a notebook shows many
    reports (and each twice, live and static) in one page. `dismissed` findings are left out
    of the counts and the top list (the user said they are not worth fixing)."""
    title = report.title or "paef report"
    active = [f for i, f in enumerate(report.findings) if i not in dismissed]
    counts = _severity_counts(active)
    stats: list[tuple[str, str]] = [("findings", str(len(active)))]
    if dismissed:
        stats.append(("dismissed", str(len(dismissed))))
    stats += [(f"{sev}", str(n)) for sev, n in counts if n]
    profile = report.profile
    if profile is not None:
        stats += _profile_stats(profile)
    note = None if profile is not None else "Static analysis only (not profiled)."
    ranked = [f for f in report.top(len(report.findings)) if report.findings.index(f) not in dismissed][:top]
    return tag(
        "div",
        tag("h3", title),
        tag("div", [tag("div", tag("b", value), tag("span", name),
                        class_="paef-stat paef-overhead" if name == OVERHEAD_LABEL else "paef-stat")
                    for name, value in stats],
            class_="paef-stats"),
        tag("div", note, class_="paef-note") if note else None,
        tag("div", [tag("div", prose(n), class_="paef-note") for n in profile.notes]) if profile and profile.notes else None,
        [
            tag("h4", f"Top {len(ranked)} bottleneck{'s' if len(ranked) != 1 else ''}"),
            tag("ol", [_top_item(report, f, scope) for f in ranked], class_="paef-top"),
        ]
        if ranked
        else tag("div", "No antipattern found.", class_="paef-note"),
        class_="paef-summary",
    )


# The summary's overhead figure: its stat is marked (`paef-overhead`) so that the live view can
# show the figure taken once the view is out without the whole head sent again (`widget`).
OVERHEAD_LABEL = "overhead vs plain run"


def overhead_text(profile: Profile | None) -> str:
    """The overhead figure as the summary writes it ("" where there is none)."""
    return f"{profile.overhead:.2f}x" if profile is not None and profile.overhead else ""


def per_iteration(profile: Profile) -> tuple[float, float, str]:
    """(copies, syncs, unit) per profiled iteration, or per run when no loop was seen."""
    copies = sum(s.h2d_copies + s.d2h_copies for s in profile.lines)
    syncs = sum(s.syncs for s in profile.lines)
    if profile.profiled_iterations > 0:
        return copies / profile.profiled_iterations, syncs / profile.profiled_iterations, "per iteration"
    return float(copies), float(syncs), "per run"


def card(report: Report, index: int, diff: str | None = None, selected: bool = False, scope: str = "",
         inner: Markup | None = None) -> Markup:
    """One antipattern: what, where, how bad, measured evidence, why, and the fix. `inner`: its
    contents (`card_inner` of the same finding and diff), made already for another rendering."""
    finding = report.findings[index]
    sev = finding.severity.value
    classes = f"paef-card sev-{sev}" + (" paef-selected" if selected else "")
    return tag(
        "div",
        card_inner(report, index, diff) if inner is None else inner,
        class_=classes,
        id=card_id(index, scope),
        data_finding=str(index),
        data_lines=" ".join(str(n) for n in range(finding.line, finding.end_line + 1)),
    )


def card_inner(report: Report, index: int, diff: str | None = None) -> Markup:
    """A card's contents, which do not depend on the rendering (its box holds the scoped id):
    the live view and its static copy show the same ones."""
    finding = report.findings[index]
    sev = finding.severity.value
    return join([
        tag(
            "div",
            tag("span", sev, class_="paef-sev", style=f"background:{SEVERITY_COLORS[sev]}"),
            tag("code", finding.rule, class_="paef-rule"),
            tag("span", f"{unit_label(finding.ref)}, {lines_label(finding.line, finding.end_line)}",
                class_="paef-loc", data_cell_id=_cell_id(report, finding.ref), data_line=str(finding.line),
                title="move the cell's cursor to this line" if _cell_id(report, finding.ref) else None),
            tag("span", _origin(finding.source), class_="paef-origin"),
            class_="paef-card-head",
        ),
        tag("div", prose(finding.message), class_="paef-msg"),
        evidence(finding.evidence, report.profile) if finding.evidence else None,
        tag("div", tag("b", "Why it is slow: "), prose(finding.explanation), class_="paef-why")
        if finding.explanation
        else None,
        fix_block(finding, diff),
    ])


def evidence(ev: Evidence, profile: Profile | None = None) -> Markup:
    """Each figure names its basis: per profiled iteration (the median iteration's when the
    line ran in each of 3 or more, else the mean), or the whole run."""
    items: list[tuple[str, str]] = []
    if not ev.measurable:
        items.append(("measured", "no measured cost on this run"))
    if ev.time_s:
        items.append(line_time(ev.time_s, profile))
    if ev.share:
        items.append(("share of the run", fmt_share(ev.share)))
    if ev.estimated_saving_s:
        items.append(("est. saving per run", fmt_time(ev.estimated_saving_s)))
    if ev.ops:
        items.append(("ops", str(ev.ops)))
    if ev.h2d_copies:
        items.append(("host\u2192device", f"{ev.h2d_copies} ({fmt_bytes(ev.h2d_bytes)})"))
    if ev.d2h_copies:
        items.append(("device\u2192host", f"{ev.d2h_copies} ({fmt_bytes(ev.d2h_bytes)})"))
    if ev.pageable_copies:
        items.append(("pageable copies", str(ev.pageable_copies)))
    if ev.syncs:
        items.append(("device syncs", str(ev.syncs)))
    if ev.gpu_time_s:
        items.append(("GPU time", fmt_time(ev.gpu_time_s)))
    if ev.iterations:
        items.append(("iterations", str(ev.iterations)))
    return join(
        [
            tag("div", [tag("span", tag("b", f"{k}: "), v) for k, v in items], class_="paef-evidence")
            if items
            else None,
            [tag("div", prose(n), class_="paef-note") for n in ev.notes],
        ]
    )


def line_time(time_s: float, profile: Profile | None) -> tuple[str, str]:
    """(label, value) of a time measured over the profiled window, per iteration when the
    window was some iterations of a loop (the median iteration's, see `dynamic.attribution`)."""
    k = profile.profiled_iterations if profile is not None else 0
    if k > 0:
        return (f"time per iteration (over {k} profiled)", fmt_time(time_s / k))
    return ("time, profiled run", fmt_time(time_s))


def fix_block(finding: Finding, diff: str | None) -> Markup | None:
    fix = finding.fix
    if fix is None:
        return None
    kind = ("Automatic fix (safe)" if fix.automatic
            else f"Rewrite — needs review: {fix.review}" if fix.needs_review else "Suggested fix (hint)")
    copy = new_side(diff) if diff else fix.suggestion
    return tag(
        "div",
        tag("div", copy_button(copy) if copy else None, prose(kind), ": ", prose(fix.description), class_="paef-fixdesc"),
        diff_view(diff) if diff else None,
        code_block(fix.suggestion) if fix.suggestion and not diff else None,
        class_="paef-fix",
    )


def copy_button(text: str) -> Markup:
    """A Copy button for the fixed code. Only a front end with the paef script (the
    labextension, the exported file) shows it (`.paef-js`): elsewhere it could do nothing."""
    return tag("button", "Copy", type="button", class_="paef-copy", data_copy=text, title="copy the fixed code")


def new_side(diff: str) -> str:
    """The code a unified diff leaves: its context and added lines, hunks apart by a blank line."""
    hunks: list[list[str]] = []
    for line in diff.splitlines():
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            hunks.append([])
        elif hunks and not line.startswith("-"):
            hunks[-1].append(line[1:])
    return "\n\n".join("\n".join(h) for h in hunks if h)


def diff_view(diff: str) -> Markup:
    return tag("pre", [tag("span", line, class_=_diff_class(line)) for line in diff.splitlines()],
               class_="paef-diff")


def code_block(code: str) -> Markup:
    return tag("pre", code, class_="paef-code")


def source(unit: SourceUnit, findings: Sequence[tuple[int, Finding]], highlight: Iterable[int] = ()) -> Markup:
    """The unit's text with line numbers; finding lines marked, `highlight` lines lit."""
    lit = set(highlight)
    by_line: dict[int, list[int]] = {}
    for index, f in findings:
        for n in range(f.line, f.end_line + 1):
            by_line.setdefault(n, []).append(index)
    rows = []
    for n, text in enumerate(unit.text.split("\n"), start=1):
        classes = "paef-line" + (" has-finding" if n in by_line else "") + (" paef-hl" if n in lit else "")
        rows.append(
            tag("span", tag("span", str(n), class_="paef-ln"), text, class_=classes, data_line=str(n),
                data_findings=" ".join(map(str, by_line.get(n, ()))) or None)
        )
    return tag("div", tag("h4", unit_label(unit.ref)), tag("div", tag("pre", rows), class_="paef-source"),
               class_="paef-unit", data_unit=unit_label(unit.ref), data_cell_id=unit.ref.cell_id,
               title="click a line number to put the cell's cursor there" if unit.ref.cell_id else None)


def line_table(report: Report, dismissed: AbstractSet[int] = frozenset()) -> Markup | None:
    """The classic per-line profile: every measured line with its time per iteration, share
    of the profiled time, syncs, copies and the findings on it. Sorted by time; a front end
    with the paef script sorts it by any column (`data-sort` holds each cell's key)."""
    profile = report.profile
    if profile is None:
        return None
    rows = [s for s in profile.lines if s.cpu_time_s > 0 or s.syncs or s.h2d_copies or s.d2h_copies or s.copies]
    if not rows:
        return None
    k = profile.profiled_iterations
    per = max(k, 1)
    total = profile.cpu_time_s or sum(s.cpu_time_s for s in rows) or 1.0
    basis = f"per iteration (mean of {k})" if k else "profiled run"
    head = ["line", f"time, {basis}", "share of profiled time", "syncs" + (" / iter." if k else ""),
            "copies" + (" / iter." if k else ""), "finding", "code"]
    body = []
    for s in sorted(rows, key=lambda s: -s.cpu_time_s):
        unit = report.source_of(s.ref)
        texts = unit.text.split("\n") if unit is not None else []
        code = texts[s.line - 1].strip() if 0 < s.line <= len(texts) else ""
        rules = sorted({f.rule for i, f in enumerate(report.findings)
                        if i not in dismissed and f.ref.key == s.ref.key and f.line <= s.line <= f.end_line})
        copies = (s.h2d_copies + s.d2h_copies) or s.copies
        where = f"{unit_label(s.ref)}: {s.line}" if len(report.sources) > 1 else str(s.line)
        cells = [(where, f"{s.line:08d}" if len(report.sources) <= 1 else f"{unit_label(s.ref)}:{s.line:08d}"),
                 (fmt_time(s.cpu_time_s / per), f"{s.cpu_time_s / per:.9e}"),
                 (fmt_share(s.cpu_time_s / total), f"{s.cpu_time_s / total:.6f}"),
                 (f"{s.syncs / per:.3g}", f"{s.syncs / per:.6e}"),
                 (f"{copies / per:.3g}", f"{copies / per:.6e}"),
                 (", ".join(rules), ", ".join(rules))]
        tds = [tag("td", text, data_sort=key) for text, key in cells]
        tds.append(tag("td", tag("code", code), class_="paef-text", data_sort=code))
        body.append(tag("tr", tds, data_line=str(s.line)))
    numeric = {1, 2, 3, 4}
    ths = [tag("th", name, data_col=str(i), data_type="number" if i in numeric else "text",
               aria_sort="descending" if i == 1 else None, scope="col") for i, name in enumerate(head)]
    return tag("details",
               tag("summary", f"Per-line profile: {len(rows)} line{'s' if len(rows) != 1 else ''}"
                              " (click a column to sort)"),
               tag("div", tag("table", tag("thead", tag("tr", ths)), tag("tbody", body), class_="paef-lines"),
                   class_="paef-lines-scroll"),
               class_="paef-lines-box")


def errors(report: Report) -> Markup | None:
    if not report.errors:
        return None
    return tag(
        "div",
        tag("h4", "Not analysed"),
        tag("ul", [tag("li", f"{unit_label(e.ref)}" + (f", line {e.line}" if e.line else "") + f": {e.message}")
                   for e in report.errors]),
        class_="paef-errors",
    )


def findings_of(report: Report, unit: SourceUnit) -> list[tuple[int, Finding]]:
    return [(i, f) for i, f in enumerate(report.findings) if f.ref.key == unit.ref.key]


def units_with_findings(report: Report) -> list[SourceUnit]:
    """Units worth showing: those with findings, or the only one there is."""
    keys = {f.ref.key for f in report.findings}
    shown = [u for u in report.sources if u.ref.key in keys]
    return shown or list(report.sources[:1])


# --- internals ---------------------------------------------------------------------------


def _severity_counts(findings: Sequence[Finding]) -> list[tuple[str, int]]:
    return [(sev, sum(1 for f in findings if f.severity.value == sev)) for sev in ("high", "medium", "low")]


def _profile_stats(p: Profile) -> list[tuple[str, str]]:
    stats = [("cell time, whole run", fmt_time(p.wall_time_s))]
    if p.profiled_iterations:
        stats.append((f"profiled, per iteration (over {p.profiled_iterations} profiled)",
                      fmt_time((p.window_time_s or p.cpu_time_s) / p.profiled_iterations)))  # the window's cell's
    else:
        stats.append(("profiled span", fmt_time(p.cpu_time_s)))
    if p.device != "cpu" or p.gpu_time_s:
        stats.append(("GPU time", fmt_time(p.gpu_time_s)))
    if p.gpu_idle_share is not None:
        stats.append(("GPU idle", fmt_share(p.gpu_idle_share)))
    copies, syncs, unit = per_iteration(p)
    if p.device != "cpu":  # on a CPU nothing is copied to or waited on from a device
        stats.append((f"host\u2194device copies {unit}", f"{copies:.3g}"))
        stats.append((f"device syncs {unit}", f"{syncs:.3g}"))
    if p.iterations:
        label = f"{p.profiled_iterations} of {p.iterations}" if p.profiled_iterations else str(p.iterations)
        stats.append(("iterations profiled", label))
    if p.overhead:
        stats.append((OVERHEAD_LABEL, overhead_text(p)))
    stats.append(("device", p.device))
    return stats


def _cell_id(report: Report, ref: CellRef) -> str | None:
    unit = report.source_of(ref)
    return ref.cell_id or (unit.ref.cell_id if unit is not None else None)


def card_id(index: int, scope: str = "") -> str:
    return f"paef-{scope}-card-{index}" if scope else f"paef-card-{index}"


def _top_item(report: Report, f: Finding, scope: str = "") -> Markup:
    index = report.findings.index(f)
    ev = f.evidence
    cost = ""
    if ev and ev.measurable and (ev.time_s or ev.estimated_saving_s):
        label, value = line_time(ev.time_s, report.profile)
        cost = f" \u2014 {value} {label.split(' (')[0].replace('time ', '')}" if ev.time_s else ""
        cost += f" ({fmt_share(ev.share)} of the run)" if ev.share else ""
        if ev.estimated_saving_s:
            cost += f", saves ~{fmt_time(ev.estimated_saving_s)} per run"
    return tag(
        "li",
        tag("a", tag("code", f.rule), href=f"#{card_id(index, scope)}", data_finding=str(index)),
        f" {unit_label(f.ref)}, {lines_label(f.line, f.end_line)}: ", prose(f.message), cost,
    )


def _origin(source: str) -> str:
    return {"static": "static analysis", "dynamic": "profiler", "both": "static analysis + profiler"}.get(
        source, source
    )


def _diff_class(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "hunk"
    if line.startswith("@@"):
        return "hunk"
    if line.startswith("+"):
        return "add"
    if line.startswith("-"):
        return "del"
    return "ctx"
