"""The per-rank summary of a data-parallel run: one row a rank, the slowest rank, the spread.

Rendered as text (the CLI) and as an HTML section (the widget and the exported file), both
from the report's `Distributed`; every string goes through `html.tag`.
"""

from __future__ import annotations

from ..model import Distributed, RankProfile, Report
from .html import Markup, tag
from .pieces import fmt_bytes, fmt_share, fmt_time, unit_label

RANKS_CSS = Markup(
    """
.paef-ranks table{border-collapse:collapse;font-size:12px;margin:4px 0}
.paef-ranks th,.paef-ranks td{border:1px solid var(--paef-border);padding:2px 8px;text-align:right}
.paef-ranks th:first-child,.paef-ranks td:first-child{text-align:left}
.paef-ranks tr.paef-rank-failed td{color:var(--jp-error-color1,#b71c1c)}
.paef-ranks pre{white-space:pre-wrap;font-size:11px;max-height:12em;overflow:auto;margin:2px 0}
"""
)

_PARTS = ("compute", "exposed comm.", "data loading", "host")


def _parts(r: RankProfile) -> tuple[float, float, float, float]:
    return (r.compute_s, r.exposed_communication_s, r.data_s, r.host_s)


def headline(dist: Distributed) -> str:
    ok = sum(1 for r in dist.ranks if r.status == "ok")
    text = f"{len(dist.ranks)} rank(s), {ok} finished"
    if dist.world_size > len(dist.ranks):  # the other nodes' ranks are in their own reports
        text += f" (of a world of {dist.world_size}: this node's ranks)"
    backends = sorted({r.backend for r in dist.ranks if r.backend})
    if backends:
        text += f" ({', '.join(backends)})"
    if dist.slowest_rank is not None:
        text += (f"; slowest rank {dist.slowest_rank} (the most time per iteration not waiting on "
                 f"collectives; the others wait for it), spread {fmt_share(dist.spread)}")
    return text


def _status(r: RankProfile) -> str:
    return r.status if not r.reason else f"{r.status}: {r.reason}"


def rank_rows(dist: Distributed) -> list[str]:
    rows = [headline(dist)]
    shown = shown_ranks(dist)
    if len(shown) < len(dist.ranks):
        rows.append(f"{len(shown)} of {len(dist.ranks)} ranks shown (rank 0, slowest, fastest, median, unfinished)")
    for r in shown:
        if r.window_s:
            parts = ", ".join(f"{name} {fmt_share(v / r.window_s)}" for name, v in zip(_PARTS, _parts(r)))
            comm = (f"; communication {fmt_time(r.communication_s)} ({fmt_time(r.overlapped_communication_s)} "
                    f"overlapped with compute), {r.collectives} collective(s)")
            rows.append(f"rank {r.rank}: window {fmt_time(r.window_s)} over {r.iterations} iteration(s): {parts}{comm}"
                        + _gpu_text(r) + ("" if r.status == "ok" else f" [{_status(r)}]"))
        else:
            rows.append(f"rank {r.rank}: {_status(r)}")
    return rows


def _gpu_text(r: RankProfile) -> str:
    if not r.gpu_span_s:
        return ""
    return (f"; GPU: NCCL {fmt_time(r.gpu_communication_s)} ({fmt_time(r.gpu_exposed_communication_s)} exposed), "
            f"idle {fmt_share(r.gpu_idle_s / r.gpu_span_s)} of its {fmt_time(r.gpu_span_s)} span")


def ranks_section(report: Report) -> Markup | None:
    dist = report.profile.distributed if report.profile else None
    if dist is None:
        return None
    gpu = any(r.gpu_span_s for r in dist.ranks)
    head = tag("tr", [tag("th", h) for h in ("rank", "status", "window", "iter.", *_PARTS,
                                            "comm. (overlapped)", "collectives", "trace", *(("GPU",) if gpu else ()))])
    rows = [head]
    tails = []
    shown = shown_ranks(dist)
    for r in shown:
        window = r.window_s or 0.0
        cells = [f"{r.rank}" + (" (slowest)" if r.rank == dist.slowest_rank else ""), r.status,
                 fmt_time(window) if window else "\u2013", str(r.iterations)]
        cells += [fmt_share(v / window) if window else "\u2013" for v in _parts(r)]
        cells += [f"{fmt_time(r.communication_s)} ({fmt_time(r.overlapped_communication_s)})" if window else "\u2013",
                  str(r.collectives), fmt_bytes(r.trace_bytes) if r.trace_bytes else "\u2013"]
        if gpu:
            cells.append(_gpu_text(r).removeprefix("; GPU: ") or "\u2013")
        rows.append(tag("tr", [tag("td", c) for c in cells],
                        class_="paef-rank-failed" if r.status in ("failed", "missing") else None))
        if r.status != "ok":
            tails.append(tag("div", tag("b", f"rank {r.rank}: "), _status(r),
                             tag("pre", r.stderr_tail) if r.stderr_tail else None))
    lines = [
        tag("li", f"{unit_label(line.ref)}, line {line.line}: {fmt_time(line.total_s)} over {line.ranks} rank(s), "
                  f"from {fmt_time(line.min_s)} (rank {line.min_rank}) to {fmt_time(line.max_s)} (rank {line.max_rank})")
        for line in dist.lines[:5]
    ]
    return tag(
        "div",
        tag("style", RANKS_CSS),
        tag("h4", "Ranks"),
        tag("div", headline(dist), class_="paef-note"),
        tag("table", rows),
        tag("div", f"{len(shown)} of {len(dist.ranks)} ranks shown: rank 0, the slowest and fastest, the median "
                   "and every rank that did not finish", class_="paef-note") if len(shown) < len(dist.ranks) else None,
        tags_or_none(tails),
        tag("div", tag("b", "Dearest lines across ranks"), tag("ul", lines, class_="paef-top")) if lines else None,
        tag("div", "Each rank's window is split without overlap: exposed communication is a collective running "
                   "while no computation does (the rank waits, often for a slower rank); communication that runs "
                   "beside computation counts as compute and is shown as overlapped.", class_="paef-note"),
        class_="paef-ranks",
    )


MAX_ROWS = 16


def shown_ranks(dist: Distributed) -> list[RankProfile]:
    """Every rank up to MAX_ROWS; beyond, rank 0, the 3 slowest and 3 fastest, the median and
    every rank that did not finish, in rank order (1,024 rows say nothing a summary does not)."""
    if len(dist.ranks) <= MAX_ROWS:
        return list(dist.ranks)
    measured = sorted((r for r in dist.ranks if r.window_s), key=lambda r: r.busy_per_iteration_s)
    keep = {dist.ranks[0].rank}
    keep |= {r.rank for r in measured[:3] + measured[-3:]}
    if measured:
        keep.add(measured[len(measured) // 2].rank)
    keep |= {r.rank for r in dist.ranks if r.status != "ok"}
    return [r for r in dist.ranks if r.rank in keep]


def tags_or_none(parts: list[Markup]) -> Markup | None:
    return tag("div", parts) if parts else None
