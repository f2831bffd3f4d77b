"""One self-contained HTML file per report: opens offline, safe to share.

plotly.js is embedded once; the figure and the frame-to-finding links travel as escaped JSON
in a `<script type="application/json">` element. Every string comes through `html.tag` or
`script_json`, and a nonce-based Content-Security-Policy lets only this file's own two scripts
run (and blocks every network request), so injected markup could not execute even if an
escape were missed. Paths are cut to their last component; the cells' code is left as written.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

from .. import __version__
from ..model import Report
from . import flame as flame_mod
from .html import Markup, script_json, tag
from .pieces import CSS
from .ranks import ranks_section
from .static_view import COLUMNS_CSS, cards_and_sources, errors, summary

_ABS_PATH = re.compile(r"(?<![\w.:/\\])(?:[A-Za-z]:)?[\\/](?:[^\s\\/:\"'<>()\[\],;]+[\\/])+([^\s\\/:\"'<>()\[\],;]*)")
# Keys whose strings are user code (kept as written) rather than tool output.
_CODE_KEYS = frozenset({"text", "suggestion"})


def render_report(report: Report, top: int = 5) -> str:
    """The whole HTML document for `report`."""
    report = shareable(report)
    nonce = secrets.token_urlsafe(16)
    flame = flame_mod.layout(report)
    data: dict[str, Any] = {"figure": None, "bars": [], "frames": []}
    if flame is not None:
        data["figure"] = flame_mod.figure_json(report, flame)
        data["bars"] = [list(b.findings) for b in flame.bars]
        data["frames"] = [{"label": flame_mod.describe(b), "line": b.frame.line} for b in flame.bars]
        data["base"] = flame_mod.colors(flame)
        data["selected"] = flame_mod.SELECTED_COLOR
        data["faded"] = flame_mod.FADED_COLOR
    flame_div = (
        tag("div", tag("div", id="paef-flame"), tag("div", "", id="paef-frame-info", class_="paef-status"),
            class_="paef-flame-box")
        if flame is not None
        else None
    )
    title = report.title or "paef report"
    csp = (
        "default-src 'none'; "
        f"script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:"
    )
    head = Markup(
        '<meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
    )
    body = tag(
        "div",
        summary(report, top),
        ranks_section(report),
        errors(report),
        cards_and_sources(report, flame_div),
        tag("footer", f"paef-jupyter {__version__}", class_="paef-note"),
        class_="paef",
    )
    scripts = [
        tag("script", script_json(data), type="application/json", id="paef-data"),
        tag("script", _plotly_js(), nonce=nonce) if flame is not None else None,
        tag("script", Markup(_LINK_JS), nonce=nonce),
    ]
    document = tag(
        "html",
        tag("head", head, tag("title", f"{title} \u2014 paef"), tag("style", CSS, COLUMNS_CSS, Markup(_PAGE_CSS))),
        tag("body", body, scripts),
        lang="en",
    )
    return "<!DOCTYPE html>\n" + document


def write_report(report: Report, path: str, top: int = 5) -> None:
    """Write `render_report(report)` to `path` (UTF-8), replacing it atomically (see `safe_write`)."""
    from ..safe_write import replace_file

    replace_file(path, render_report(report, top).encode("utf-8"))


def shareable(report: Report) -> Report:
    """The report with every path cut to its file name (cell code itself is untouched)."""
    return Report.from_json(_scrub(report.to_json()))


def _scrub(value: Any, key: str = "") -> Any:
    if isinstance(value, str):
        return value if key in _CODE_KEYS else _ABS_PATH.sub(lambda m: m.group(1), value)
    if isinstance(value, list):
        return [_scrub(v, key) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v, k) for k, v in value.items()}
    return value


# plotly.js's "basic" partial bundle (scatter, bar, pie: the chart is one bar trace) is a
# quarter of the full library. The labextension build puts it beside the extension, pinned
# to the plotly.js version of the installed plotly package; without it, the full library.
BASIC_BUNDLE = Path(__file__).resolve().parent.parent / "labextension" / "plotly-basic.min.js"


def _plotly_js() -> Markup:
    # The bundle holds no "</script" today; keep it that way if a future one does.
    return Markup(plotly_bundle().replace("</script", "<\\/script"))


def plotly_bundle() -> str:
    """The smallest plotly.js that draws the chart, of the version plotly.py writes for."""
    from plotly.offline import get_plotlyjs, get_plotlyjs_version

    try:
        text = BASIC_BUNDLE.read_text(encoding="utf-8")
    except OSError:
        return get_plotlyjs()
    header = re.search(r"plotly\.js \(basic[^)]*\) v(\S+)", text[:300])
    return text if header and header.group(1) == get_plotlyjs_version() else get_plotlyjs()


_PAGE_CSS = """
body{margin:0;padding:16px 22px;background:#fff}
.paef-card{cursor:pointer}
.paef-flame-box{border:1px solid #d0d7de;border-radius:6px;padding:4px;margin:0 0 10px}
footer{margin-top:16px}
"""

# Linking, in the page: a card selects its frames and lines; a frame selects its cards and
# scrolls the first into view; Copy buttons copy the fixed code; the per-line table sorts by
# the clicked column (as the labextension does in a notebook). User-derived text is only
# ever written with textContent.
_LINK_JS = r"""
(function () {
  var data = JSON.parse(document.getElementById('paef-data').textContent);
  var gd = document.getElementById('paef-flame');
  var info = document.getElementById('paef-frame-info');
  var cards = Array.prototype.slice.call(document.querySelectorAll('.paef-card'));
  var lines = Array.prototype.slice.call(document.querySelectorAll('.paef-line'));
  var plotted = false;
  function findingsOf(el) {
    var v = el.getAttribute('data-findings');
    return v ? v.split(' ').map(Number) : [];
  }
  function paint(selected) {
    if (!plotted) return;
    var fill = data.bars.map(function (b, i) {
      if (selected === null) return data.base[0][i];
      return b.indexOf(selected) >= 0 ? data.selected : data.faded;
    });
    window.Plotly.restyle(gd, {'marker.color': [fill]}, [0]);
  }
  function select(index) {
    cards.forEach(function (c) {
      c.classList.toggle('paef-selected', Number(c.getAttribute('data-finding')) === index);
      c.classList.remove('paef-linked', 'paef-dimmed');
    });
    lines.forEach(function (l) { l.classList.toggle('paef-hl', findingsOf(l).indexOf(index) >= 0); });
    if (info) info.textContent = '';
    paint(index);
  }
  function showFrame(k) {
    var linked = data.bars[k] || [];
    cards.forEach(function (c) {
      var i = Number(c.getAttribute('data-finding'));
      c.classList.remove('paef-selected');
      c.classList.toggle('paef-linked', linked.indexOf(i) >= 0);
      c.classList.toggle('paef-dimmed', linked.length > 0 && linked.indexOf(i) < 0);
    });
    lines.forEach(function (l) {
      var f = findingsOf(l);
      l.classList.toggle('paef-hl', linked.some(function (i) { return f.indexOf(i) >= 0; }));
    });
    var first = cards.filter(function (c) { return c.classList.contains('paef-linked'); })[0];
    if (first) first.scrollIntoView({block: 'nearest'});
    if (info) {
      var frame = data.frames[k];
      info.textContent = frame.label + (linked.length ? ' \u2014 ' + linked.length + ' finding(s) behind it'
                                                       : ' \u2014 no finding behind it');
    }
    paint(null);
  }
  cards.forEach(function (c) {
    c.addEventListener('click', function (ev) {
      if (ev.target.closest('.paef-copy')) return;
      select(Number(c.getAttribute('data-finding')));
    });
  });
  document.documentElement.classList.add('paef-js');
  Array.prototype.forEach.call(document.querySelectorAll('.paef-copy'), function (b) {
    b.addEventListener('click', function () {
      var area = document.createElement('textarea');
      area.value = b.getAttribute('data-copy');
      document.body.appendChild(area);
      area.select();
      var done = function () { b.textContent = 'Copied'; area.remove(); };
      if (navigator.clipboard) navigator.clipboard.writeText(area.value).then(done, function () {
        document.execCommand('copy'); done(); });
      else { document.execCommand('copy'); done(); }
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll('.paef-lines th[data-col]'), function (th) {
    th.addEventListener('click', function () {
      var table = th.closest('table'), body = table.tBodies[0], col = Number(th.getAttribute('data-col'));
      var numeric = th.getAttribute('data-type') === 'number';
      var down = th.getAttribute('aria-sort') !== 'descending';
      Array.prototype.forEach.call(table.querySelectorAll('th'), function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
      var key = function (r) { return r.cells[col].getAttribute('data-sort') || ''; };
      var rows = Array.prototype.slice.call(body.rows).sort(function (a, b) {
        var o = numeric ? parseFloat(key(a)) - parseFloat(key(b)) : key(a).localeCompare(key(b));
        return down ? -o : o;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  if (gd && data.figure && window.Plotly) {
    window.Plotly.newPlot(gd, data.figure.data, data.figure.layout,
                          {displaylogo: false, responsive: true}).then(function () {
      plotted = true;
      gd.on('plotly_click', function (ev) {
        if (ev && ev.points && ev.points.length) showFrame(ev.points[0].customdata);
      });
    });
  }
  document.documentElement.setAttribute('data-paef-ready', '1');
})();
"""
