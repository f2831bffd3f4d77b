"""The self-contained HTML report: structure, every card, escaping, no paths, and a real browser."""

from __future__ import annotations

import json
import os
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from ui_samples import HOSTILE, hostile_report, sample_report

from paef_jupyter.ui.html_report import BASIC_BUNDLE, render_report, shareable, write_report

OUT = Path(__file__).resolve().parent.parent / "out"


class Page(HTMLParser):
    """Scripts (attributes + raw text), every attribute, and the visible text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.scripts: list[tuple[dict, str]] = []
        self.attrs: list[tuple[str, str, str | None]] = []
        self.text: list[str] = []
        self._in_script: dict | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.attrs += [(tag, k, v) for k, v in attrs]
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append((self._in_script, ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None

    def handle_data(self, data):
        if self._in_script is not None:
            attrs, body = self.scripts[-1]
            self.scripts[-1] = (attrs, body + data)
        else:
            self.text.append(data)


def test_one_document_with_plotly_once_and_every_card():
    report = sample_report(gpu=True)
    text = render_report(report)
    assert text.startswith("<!DOCTYPE html>")
    page = Page(text)
    assert len(page.scripts) == 3
    (data_attrs, data), (plotly_attrs, plotly_js), (link_attrs, _) = page.scripts
    assert data_attrs == {"type": "application/json", "id": "paef-data"}
    assert len(plotly_js) > 1_000_000 and len(text) < 1.2 * len(plotly_js)  # the library, embedded once
    assert plotly_attrs["nonce"] == link_attrs["nonce"] != ""
    payload = json.loads(data)
    assert len(payload["bars"]) == len(payload["figure"]["data"][0]["base"])
    cards = [v for tag, k, v in page.attrs if tag == "div" and k == "data-finding"]
    assert cards == ["0", "1", "2"]
    visible = "".join(page.text)
    for f in report.findings:
        assert f.message in visible and f.rule in visible
    assert "-    y = torch.tensor(x.cpu().tolist())" in visible  # the diff, as text
    assert "GPU idle" in visible and "97.0%" in visible


def test_a_static_report_has_no_chart_and_no_library():
    text = render_report(sample_report(profiled=False))
    page = Page(text)
    assert len(page.scripts) == 2 and len(text) < 100_000
    assert "Static analysis only" in "".join(page.text)


def test_injection_renders_as_text_and_executes_nothing():
    text = render_report(hostile_report())
    page = Page(text)
    # Only our three scripts: nothing the report embeds became a script element or a handler.
    assert [a.get("type") or a.get("nonce") and "js" for a, _ in page.scripts] == ["application/json", "js", "js"]
    assert not [(t, k) for t, k, _ in page.attrs if k.startswith("on")]
    assert not [t for t, _, _ in page.attrs if t == "img"]
    data = page.scripts[0][1]
    assert "</" not in data and "<script" not in data and "\u2028" not in data
    assert json.loads(data)["frames"][1]["label"].startswith(HOSTILE.split(" &")[0])
    visible = "".join(page.text)
    assert visible.count("</script><script>alert(1)</script>") >= 6  # shown, as text, everywhere
    csp = [v for t, k, v in page.attrs if t == "meta" and k == "content" and "script-src" in (v or "")]
    assert csp and "'nonce-" in csp[0] and "'unsafe-inline'" not in csp[0].split("script-src")[1].split(";")[0]


def test_paths_are_cut_to_the_file_name_but_code_is_kept():
    report = hostile_report()
    text = render_report(report)
    assert "/home/alice" not in text and "secret" not in text
    clean = shareable(report)
    assert clean.sources[0].text == report.sources[0].text
    assert clean.findings[0].ref.path == f"{HOSTILE}.ipynb"


def test_write_report_writes_the_file(tmp_path):
    path = tmp_path / "r.html"
    write_report(sample_report(), str(path))
    assert path.read_text(encoding="utf-8") .startswith("<!DOCTYPE html>")
    assert os.listdir(tmp_path) == ["r.html"]


BROWSER_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("chromium is not installed")
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
        yield b
        b.close()


def _open(browser, path: Path):
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, offline=True)
    page = context.new_page()
    events: list[str] = []
    page.on("dialog", lambda d: (events.append("dialog: " + d.message), d.dismiss()))
    page.on("pageerror", lambda e: events.append(f"error: {e}"))
    page.on("request", lambda r: events.append("request: " + r.url) if not r.url.startswith("file:") else None)
    page.goto(path.as_uri())
    page.wait_for_selector("html[data-paef-ready]")
    return page, events


@pytest.mark.browser
def test_report_opens_offline_with_cards_chart_and_links(browser, tmp_path):
    path = tmp_path / "report.html"
    write_report(sample_report(gpu=True), str(path))
    page, events = _open(browser, path)
    page.wait_for_selector("#paef-flame .main-svg")
    assert page.locator(".paef-card").count() == 3
    assert all(page.locator(".paef-card").nth(i).is_visible() for i in range(3))
    page.locator('.paef-card[data-finding="0"]').click()
    assert "paef-selected" in page.locator('.paef-card[data-finding="0"]').get_attribute("class")
    assert page.locator(".paef-line.paef-hl").all_inner_texts() == ["5    y = torch.tensor(x.cpu().tolist())"]
    colors = page.evaluate("document.getElementById('paef-flame').data[0].marker.color")
    assert colors.count("#c62828") == 3  # line 5, its copy op, and the DtoH copy on the GPU lane
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "html_report.png"), full_page=True)
    assert events == []


@pytest.mark.browser
def test_clicking_a_frame_lights_the_cards_behind_it(browser, tmp_path):
    path = tmp_path / "report.html"
    write_report(sample_report(), str(path))
    page, events = _open(browser, path)
    page.wait_for_selector("#paef-flame .main-svg")
    box = page.locator("#paef-flame .bars .point").nth(_bar_index(page, "aten::item")).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # a real click on the bar
    page.wait_for_selector(".paef-card.paef-linked")
    assert page.locator(".paef-card.paef-linked").get_attribute("data-finding") == "1"
    assert page.locator(".paef-card.paef-dimmed").count() == 2
    assert "aten::item" in page.locator("#paef-frame-info").inner_text()
    assert events == []


@pytest.mark.browser
def test_injected_report_runs_no_script_in_the_browser(browser, tmp_path):
    path = tmp_path / "hostile.html"
    write_report(hostile_report(), str(path))
    page, events = _open(browser, path)
    assert page.locator(".paef-card").count() == 1
    assert "</script><script>alert(1)</script>" in page.locator(".paef-card").inner_text()
    assert page.evaluate("document.querySelectorAll('script').length") == 3
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert events == []


def _bar_index(page, name: str) -> int:
    texts = page.evaluate("document.getElementById('paef-flame').data[0].text")
    return texts.index(name)


@pytest.mark.skipif(not BASIC_BUNDLE.is_file(), reason="the labextension is not built (scripts/build_labextension.sh)")
def test_export_embeds_plotlys_basic_bundle_and_stays_under_2_mb():
    text = render_report(sample_report(gpu=True))
    assert "plotly.js (basic - minified) v" in text[:2_000_000]
    assert len(text.encode("utf-8")) < 2_000_000


@pytest.mark.browser
def test_copy_buttons_and_the_sortable_line_table_work_offline(browser, tmp_path):
    path = tmp_path / "report.html"
    write_report(sample_report(), str(path))
    page, events = _open(browser, path)
    copy = page.locator('.paef-card[data-finding="0"] .paef-copy')
    text = copy.get_attribute("data-copy")  # the fixed code, not the diff
    assert copy.is_visible() and "    y = x.detach().clone()" in text.split("\n") and "tolist" not in text
    copy.click()
    copy.filter(has_text="Copied").wait_for(timeout=5000)  # the label changes once the clipboard write resolves
    assert copy.inner_text() == "Copied"
    page.locator(".paef-lines-box > summary").click()
    rows = "() => Array.from(document.querySelectorAll('.paef-lines tbody tr')).map(r => r.cells[{}].dataset.sort)"
    times = [float(v) for v in page.evaluate(rows.format(1))]
    assert len(times) >= 2 and times == sorted(times, reverse=True)
    page.locator(".paef-lines th[data-col='0']").click()
    page.locator(".paef-lines th[data-col='0']").click()
    lines = page.evaluate(rows.format(0))
    assert lines == sorted(lines) and page.locator(".paef-lines th[data-col='0']").get_attribute("aria-sort") == "ascending"
    assert events == []
