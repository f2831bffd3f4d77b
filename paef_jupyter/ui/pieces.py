"""The render protocol: every view of a `Report` is built from these pieces.

The widget view, the static notebook fallback and the exported HTML file all call the same
functions (summary, card, source listing, diff, errors), so they cannot drift apart. Each
piece is a pure function returning `Markup`; user text only enters through `html.tag`.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from ..model import CellRef, Evidence, Finding, Profile, Report, SourceUnit
from .html import Markup, join, tag

SEVERITY_COLORS = {"high": "#c62828", "medium": "#ef6c00", "low": "#607d8b"}

CSS = Markup(
    """
.paef{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
 font-size:13px;color:#1f2328;line-height:1.45;background:#fff}
.paef code,.paef pre{font-family:SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12px}
.paef h3{font-size:15px;margin:4px 0 8px}
.paef h4{font-size:13px;margin:10px 0 4px}
.paef-summary{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:8px 12px;margin-bottom:8px}
.paef-stats{display:flex;flex-wrap:wrap;gap:6px 18px;margin:4px 0}
.paef-stat b{font-size:15px;display:block}
.paef-stat span{color:#57606a;font-size:11px;text-transform:uppercase;letter-spacing:.03em}
.paef-top{margin:6px 0 0 0;padding-left:22px}
.paef-top li{margin:1px 0}
.paef-note{color:#57606a;font-size:12px}
.paef-card{border:1px solid #d0d7de;border-left:5px solid #607d8b;border-radius:6px;padding:8px 12px;
 margin:0 0 8px;background:#fff}
.paef-card.sev-high{border-left-color:#c62828}.paef-card.sev-medium{border-left-color:#ef6c00}
.paef-card.paef-selected{box-shadow:0 0 0 2px #0969da}
.paef-card.paef-linked{box-shadow:0 0 0 2px #8250df}
.paef-card.paef-dimmed{opacity:.45}
.paef-card-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:8px}
.paef-sev{color:#fff;border-radius:10px;padding:0 8px;font-size:11px;font-weight:600;text-transform:uppercase}
.paef-rule{font-weight:600;font-size:13px}
.paef-loc,.paef-origin{color:#57606a;font-size:12px}
.paef-msg{margin:4px 0;font-weight:500}
.paef-evidence{display:flex;flex-wrap:wrap;gap:2px 14px;margin:4px 0;color:#24292f;font-size:12px}
.paef-evidence span b{font-weight:600}
.paef-why{margin:4px 0;color:#24292f}
.paef-fixdesc{margin:6px 0 2px;font-weight:500}
.paef pre.paef-diff,.paef pre.paef-code{background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;
 padding:6px 8px;margin:4px 0;overflow-x:auto;white-space:pre}
.paef-diff .add{background:#dafbe1;color:#116329;display:block}
.paef-diff .del{background:#ffebe9;color:#82071e;display:block}
.paef-diff .hunk{color:#8250df;display:block}
.paef-diff .ctx{display:block}
.paef-source{border:1px solid #d0d7de;border-radius:4px;margin:4px 0 10px;overflow-x:auto;background:#fff}
.paef-source pre{margin:0;padding:4px 0;white-space:pre}
.paef-line{display:block;padding:0 8px 0 0;border-left:3px solid transparent}
.paef-line.has-finding{border-left-color:#ef6c00;background:#fff8e1}
.paef-line.paef-hl{background:#ddf4ff;border-left-color:#0969da}
.paef-ln{display:inline-block;width:3.2em;text-align:right;color:#8c959f;padding-right:10px;user-select:none}
.paef-errors{color:#82071e}
.paef-status{font-size:12px;color:#57606a}
"""
)


# --- small helpers -----------------------------------------------------------------------


def unit_label(ref: CellRef) -> str:
    """How a user recognises a unit: `train.ipynb, cell 3`, `train.py`, `this cell`."""
    name = ref.path or ""
    if ref.cell is not None:
        return f"{name}, cell {ref.cell}" if name else f"cell {ref.cell}"
    return name or "this cell"


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


def summary(report: Report, top: int = 5) -> Markup:
    """Totals, CPU vs GPU, copies and syncs per iteration, and the top-K bottlenecks."""
    title = report.title or "paef report"
    counts = _severity_counts(report.findings)
    stats: list[tuple[str, str]] = [("findings", str(len(report.findings)))]
    stats += [(f"{sev}", str(n)) for sev, n in counts if n]
    profile = report.profile
    if profile is not None:
        stats += _profile_stats(profile)
    note = None if profile is not None else "Static analysis only (not profiled)."
    ranked = report.top(top)
    return tag(
        "div",
        tag("h3", title),
        tag("div", [tag("div", tag("b", value), tag("span", name), class_="paef-stat") for name, value in stats],
            class_="paef-stats"),
        tag("div", note, class_="paef-note") if note else None,
        tag("div", [tag("div", n, class_="paef-note") for n in profile.notes]) if profile and profile.notes else None,
        [
            tag("h4", f"Top {len(ranked)} bottleneck{'s' if len(ranked) != 1 else ''}"),
            tag("ol", [_top_item(report, f) for f in ranked], class_="paef-top"),
        ]
        if ranked
        else tag("div", "No antipattern found.", class_="paef-note"),
        class_="paef-summary",
    )


def per_iteration(profile: Profile) -> tuple[float, float, str]:
    """(copies, syncs, unit) per profiled iteration, or per run when no loop was seen."""
    copies = sum(s.h2d_copies + s.d2h_copies for s in profile.lines)
    syncs = sum(s.syncs for s in profile.lines)
    if profile.profiled_iterations > 0:
        return copies / profile.profiled_iterations, syncs / profile.profiled_iterations, "per iteration"
    return float(copies), float(syncs), "per run"


def card(report: Report, index: int, diff: str | None = None, selected: bool = False) -> Markup:
    """One antipattern: what, where, how bad, measured evidence, why, and the fix."""
    finding = report.findings[index]
    sev = finding.severity.value
    classes = f"paef-card sev-{sev}" + (" paef-selected" if selected else "")
    return tag(
        "div",
        tag(
            "div",
            tag("span", sev, class_="paef-sev", style=f"background:{SEVERITY_COLORS[sev]}"),
            tag("code", finding.rule, class_="paef-rule"),
            tag("span", f"{unit_label(finding.ref)}, {lines_label(finding.line, finding.end_line)}",
                class_="paef-loc"),
            tag("span", _origin(finding.source), class_="paef-origin"),
            class_="paef-card-head",
        ),
        tag("div", finding.message, class_="paef-msg"),
        evidence(finding.evidence) if finding.evidence else None,
        tag("div", tag("b", "Why it is slow: "), finding.explanation, class_="paef-why")
        if finding.explanation
        else None,
        fix_block(finding, diff),
        class_=classes,
        id=f"paef-card-{index}",
        data_finding=str(index),
        data_lines=" ".join(str(n) for n in range(finding.line, finding.end_line + 1)),
    )


def evidence(ev: Evidence) -> Markup:
    items: list[tuple[str, str]] = []
    if not ev.measurable:
        items.append(("measured", "nothing measurable on these lines"))
    if ev.time_s:
        items.append(("time", fmt_time(ev.time_s)))
    if ev.share:
        items.append(("share of cell", fmt_share(ev.share)))
    if ev.estimated_saving_s:
        items.append(("est. saving", fmt_time(ev.estimated_saving_s)))
    if ev.ops:
        items.append(("ops", str(ev.ops)))
    if ev.h2d_copies:
        items.append(("host\u2192device", f"{ev.h2d_copies} ({fmt_bytes(ev.h2d_bytes)})"))
    if ev.d2h_copies:
        items.append(("device\u2192host", f"{ev.d2h_copies} ({fmt_bytes(ev.d2h_bytes)})"))
    if ev.pageable_copies:
        items.append(("pageable copies", str(ev.pageable_copies)))
    if ev.syncs:
        items.append(("syncs", str(ev.syncs)))
    if ev.gpu_time_s:
        items.append(("GPU time", fmt_time(ev.gpu_time_s)))
    if ev.iterations:
        items.append(("iterations", str(ev.iterations)))
    return join(
        [
            tag("div", [tag("span", tag("b", f"{k}: "), v) for k, v in items], class_="paef-evidence")
            if items
            else None,
            [tag("div", n, class_="paef-note") for n in ev.notes],
        ]
    )


def fix_block(finding: Finding, diff: str | None) -> Markup | None:
    fix = finding.fix
    if fix is None:
        return None
    kind = ("Automatic fix (safe)" if fix.automatic
            else f"Rewrite — needs review: {fix.review}" if fix.needs_review else "Suggested fix (hint)")
    return tag(
        "div",
        tag("div", f"{kind}: ", fix.description, class_="paef-fixdesc"),
        diff_view(diff) if diff else None,
        code_block(fix.suggestion) if fix.suggestion and not diff else None,
        class_="paef-fix",
    )


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
               class_="paef-unit", data_unit=unit_label(unit.ref))


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
    stats = [("total time", fmt_time(p.wall_time_s)), ("CPU time", fmt_time(p.cpu_time_s))]
    if p.device != "cpu" or p.gpu_time_s:
        stats.append(("GPU time", fmt_time(p.gpu_time_s)))
    if p.gpu_idle_share is not None:
        stats.append(("GPU idle", fmt_share(p.gpu_idle_share)))
    copies, syncs, unit = per_iteration(p)
    stats.append((f"copies {unit}", f"{copies:.3g}"))
    stats.append((f"syncs {unit}", f"{syncs:.3g}"))
    if p.iterations:
        label = f"{p.profiled_iterations} of {p.iterations}" if p.profiled_iterations else str(p.iterations)
        stats.append(("iterations profiled", label))
    if p.overhead:
        stats.append(("profiler overhead", f"{p.overhead:.2f}x"))
    stats.append(("device", p.device))
    return stats


def _top_item(report: Report, f: Finding) -> Markup:
    index = report.findings.index(f)
    ev = f.evidence
    cost = ""
    if ev and ev.measurable and (ev.time_s or ev.estimated_saving_s):
        cost = f" \u2014 {fmt_time(ev.time_s)}" + (f" ({fmt_share(ev.share)})" if ev.share else "")
        if ev.estimated_saving_s:
            cost += f", saves ~{fmt_time(ev.estimated_saving_s)}"
    return tag(
        "li",
        tag("a", tag("code", f.rule), href=f"#paef-card-{index}", data_finding=str(index)),
        f" {unit_label(f.ref)}, {lines_label(f.line, f.end_line)}: {f.message}{cost}",
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
