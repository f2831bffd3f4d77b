"""Real-browser harness: JupyterLab 4 and Notebook 7 servers driven by Debian's chromium.

Fixtures: `jupyter_server` (parametrized over both front ends, one server per kind per test
session), `page` (a fresh browser context) and `open_notebook` (writes a notebook with known
cell ids, starts its kernel over REST so no kernel dialog blocks, opens it and returns a
`NotebookPage` with helpers to run a cell, read a cell's text or output, and save).

Saved files are read from disk after the page's save finished, never over the contents API
while a save may be in flight: jupyter_server's read of a half-written notebook "recovers" it
(moves the file being written to `<name>.invalid`, puts the previous version back), so the
save fails ("File Save Error ... No such file or directory") or its content is silently lost.
For the same reason the servers do not autosave: the tests' own saves are the only writes.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "out" / "browser"
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run",
]
KINDS = ("lab", "notebook")
AUTOSAVE_PLUGIN = "/lab/api/settings/@jupyterlab/docmanager-extension:plugin"
# Keeps toasts from covering cells (asking about news is all this plugin does); the app is
# exposed as `window.jupyterapp` so a test can drive the page's own session (kernel restart).
PAGE_CONFIG = {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True},
               "exposeAppInBrowser": True}


def missing_requirement() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if shutil.which("chromium") is None:
        return "chromium is not installed (apt-get install chromium, or scripts/setup.sh --browser)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Python playwright is not installed"
    from jupyter_core.paths import jupyter_path

    if not any(Path(p, "paef-jupyter", "package.json").is_file() for p in jupyter_path("labextensions")):
        return "the paef-jupyter labextension is not built/installed (scripts/build_labextension.sh)"
    return None


@dataclass
class JupyterServer:
    """One `jupyter lab` or `jupyter notebook` process on a loopback port, in its own dirs."""

    kind: str
    url: str
    token: str
    root: Path
    process: subprocess.Popen[bytes]
    log: Path
    opener: urllib.request.OpenerDirector
    xsrf: str = ""

    def notebook_url(self, name: str) -> str:
        # `reset`: Lab would restore the last workspace, whose notebook may take the focus.
        route = "lab/tree" if self.kind == "lab" else "notebooks"
        reset = "reset&" if self.kind == "lab" else ""
        return f"{self.url}/{route}/{name}?{reset}token={self.token}"

    def api(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"token {self.token}", "X-XSRFToken": self.xsrf,
                   "Content-Type": "application/json"}
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.url}{path}", data, headers, method=method)
        with self.opener.open(request, timeout=30) as response:
            text = response.read()
        return json.loads(text) if text else None

    def start_kernel_for(self, name: str) -> str:
        """Creates the notebook's session, so the page opens with a kernel and no dialog."""
        session = self.api("POST", "/api/sessions", {
            "path": name, "name": name, "type": "notebook", "kernel": {"name": "python3"}})
        return session["kernel"]["id"]

    def write_notebook(self, name: str, cells: list[tuple[str, str]]) -> Path:
        """A notebook of code cells given as (cell id, source)."""
        import nbformat

        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(source, id=cell_id) for cell_id, source in cells]
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        path = self.root / name
        nbformat.write(nb, path)
        return path


def _start_server(kind: str, base: Path, disabled: tuple[str, ...]) -> JupyterServer:
    dirs = {name: base / name for name in ("config", "data", "runtime", "ipython", "root")}
    for path in dirs.values():
        path.mkdir(parents=True)
    (dirs["config"] / "labconfig").mkdir()
    page_config = {**PAGE_CONFIG,
                   "disabledExtensions": {**PAGE_CONFIG["disabledExtensions"], **dict.fromkeys(disabled, True)}}
    (dirs["config"] / "labconfig" / "page_config.json").write_text(json.dumps(page_config))
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(dirs["config"]), JUPYTER_DATA_DIR=str(dirs["data"]),
               JUPYTER_RUNTIME_DIR=str(dirs["runtime"]), IPYTHONDIR=str(dirs["ipython"]),
               JUPYTER_PLATFORM_DIRS="0", PYTHONUNBUFFERED="1")
    token = uuid.uuid4().hex
    module = "jupyterlab" if kind == "lab" else "notebook"
    log = base / "server.log"
    # Port 0: the server binds a port the system picks and writes it to its runtime file. A
    # port picked here and bound seconds later (the server's start-up) can be taken meanwhile
    # by another process (kernels of other xdist workers bind free ports too).
    process = subprocess.Popen(
        [sys.executable, "-m", module, "--no-browser", "--allow-root", "--ip=127.0.0.1",
         "--port=0", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
         f"--ServerApp.root_dir={dirs['root']}"],
        env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, cwd=dirs["root"])
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    info = dirs["runtime"] / f"jpserver-{process.pid}.json"
    deadline = time.monotonic() + 90
    server: JupyterServer | None = None
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"jupyter {kind} exited early:\n{log.read_text()[-3000:]}")
        try:
            if server is None:
                port = json.loads(info.read_text())["port"]  # absent, or half-written: not yet
                server = JupyterServer(kind, f"http://127.0.0.1:{port}", token, dirs["root"], process, log, opener)
            # The app page sets the _xsrf cookie that POSTs must echo.
            server.opener.open(f"{server.url}/{kind if kind == 'lab' else 'tree'}?token={token}", timeout=5).read()
            break
        except (OSError, ValueError, KeyError):
            if time.monotonic() > deadline:
                process.terminate()
                process.wait(timeout=20)
                raise RuntimeError(f"jupyter {kind} did not answer:\n{log.read_text()[-3000:]}") from None
            time.sleep(0.3)
    server.xsrf = next(c.value for c in jar if c.name == "_xsrf")
    server.api("PUT", AUTOSAVE_PLUGIN, {"raw": json.dumps({"autosave": False})})
    return server


def _stop_servers(servers: list[JupyterServer]) -> None:
    """SIGTERM to all first (each shuts its kernels down), then wait: the waits overlap."""
    for server in servers:
        server.process.terminate()
    for server in servers:
        try:
            server.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


@pytest.fixture(scope="session")
def _jupyter_servers() -> Iterator[Callable[..., JupyterServer]]:
    reason = missing_requirement()
    if reason:
        pytest.skip(reason)
    base = Path(tempfile.mkdtemp(prefix="paef-browser-"))
    servers: dict[tuple[str, tuple[str, ...]], JupyterServer] = {}

    def get(kind: str, disabled: tuple[str, ...] = ()) -> JupyterServer:
        """The server of this kind with these labextensions disabled, started on first use."""
        if (kind, disabled) not in servers:
            servers[kind, disabled] = _start_server(kind, base / f"{kind}-{len(servers)}", disabled)
        return servers[kind, disabled]

    try:
        yield get
    finally:
        _stop_servers(list(servers.values()))
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(params=KINDS)
def jupyter_server(request: pytest.FixtureRequest, _jupyter_servers) -> JupyterServer:
    """A running JupyterLab 4 (`lab`) or Notebook 7 (`notebook`) server; tests run for both."""
    return _jupyter_servers(request.param)


@pytest.fixture
def lab_without_extension(_jupyter_servers) -> JupyterServer:
    """JupyterLab with paef-jupyter disabled: what a user without the extension runs."""
    return _jupyter_servers("lab", ("paef-jupyter",))


@pytest.fixture(scope="module")
def _browser():
    reason = missing_requirement()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture
def page(_browser, request: pytest.FixtureRequest):
    """A fresh browser page; a failing test leaves its screenshot in out/browser/."""
    context = _browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        yield page
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"FAILED-{_slug(request.node.name)}.png"))
        context.close()


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")


class NotebookPage:
    """A notebook open in the browser; cells addressed by index, text read from the editor."""

    def __init__(self, page: Any, server: JupyterServer, name: str, kernel_id: str) -> None:
        self.page, self.server, self.name, self.kernel_id = page, server, name, kernel_id

    def cell(self, index: int) -> Any:
        return self.page.locator(".jp-Notebook .jp-Cell").nth(index)

    def cell_text(self, index: int) -> str:
        """The text the editor shows, line by line."""
        return self.cell(index).locator(".cm-content").evaluate(
            "el => Array.from(el.querySelectorAll('.cm-line')).map(l => l.textContent).join('\\n')")

    def wait_for_text(self, index: int, expected: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while (text := self.cell_text(index)) != expected:
            if time.monotonic() > deadline:
                raise AssertionError(f"cell {index} reads {text!r}, expected {expected!r}")
            time.sleep(0.05)

    def output_text(self, index: int) -> str:
        outputs = self.cell(index).locator(".jp-OutputArea-output")
        return "\n".join(outputs.all_inner_texts()).strip()

    def run_cell(self, index: int, timeout: float = 60.0) -> str:
        """Runs a cell as a user does (select, Shift+Enter); returns its output text.

        Done means the prompt went busy (`[*]`) and then shows a count again: the count alone
        can repeat, e.g. `[1]` after a kernel restart.
        """
        prompt = self.cell(index).locator(".jp-InputPrompt")
        prompt.evaluate("""el => {
            el.paefBusySeen = false;
            if (el.paefObserver) el.paefObserver.disconnect();
            el.paefObserver = new MutationObserver(() => {
                if (el.textContent.includes('*')) el.paefBusySeen = true;
            });
            el.paefObserver.observe(el, {subtree: true, childList: true, characterData: true});
        }""")
        prompt.click()
        self.page.keyboard.press("Shift+Enter")
        self.page.wait_for_function(
            "el => el.paefBusySeen && /^\\[\\d+\\]:$/.test(el.textContent.trim())",
            arg=prompt.element_handle(), timeout=timeout * 1000)
        return self.output_text(index)

    def restart_kernel(self) -> None:
        """Restarts the notebook's kernel as its page does (Kernel > Restart), and returns once
        the page is connected to the new kernel.

        Not over REST behind the page's back: the page's websocket then stays on its old
        channels, and a cell run at once can lose its iopub messages (the kernel's `idle`,
        published before the server's iopub subscription reached the new kernel), so the
        cell stays `[*]` for ever. The page's own restart reconnects, and the server waits
        until iopub delivers before it accepts the connection."""
        self.page.evaluate("""async path => {
            const panel = window.jupyterapp.shell.currentWidget;
            if (!panel || panel.context.path !== path) throw new Error('the notebook is not the current widget');
            await panel.sessionContext.restartKernel();
        }""", self.name)

    def focus_editor_end(self, index: int) -> None:
        """Puts the cursor at the end of the cell's text, in edit mode."""
        self.cell(index).locator(".cm-content").click()
        self.page.keyboard.press("Control+End")

    def save(self) -> dict:
        """Saves the notebook from its page (the document's own save); returns the file as saved."""
        self._watch_saves()
        # Not awaited here: a failed save is reported by `_saved`, with the page's error dialog.
        self.page.evaluate("() => { window.jupyterapp.shell.currentWidget.context.save().catch(() => {}); }")
        return self._saved("the page's save")

    def save_with_keyboard(self, index: int) -> dict:
        """Saves as users do (Ctrl+S in command mode, cell `index` selected); returns the file as saved."""
        self._watch_saves()
        self.cell(index).locator(".jp-InputPrompt").click()
        self.page.keyboard.press("Escape")
        self.page.keyboard.press("Control+s")
        return self._saved("Ctrl+S")

    def _watch_saves(self) -> None:
        """Records the states of this document's saves from now on (`context.saveState`)."""
        self.page.evaluate("""path => {
            const panel = window.jupyterapp.shell.currentWidget;
            if (!panel || panel.context.path !== path) throw new Error('the notebook is not the current widget');
            const old = window.paefSaves;
            if (old) old.context.saveState.disconnect(old.slot);
            const states = [], slot = (_, state) => states.push(state);
            panel.context.saveState.connect(slot);
            window.paefSaves = {context: panel.context, slot, states};
        }""", self.name)

    def _saved(self, what: str) -> dict:
        """Waits until the page's save finished, then reads the file from disk (module docstring:
        a read over the contents API while a save is in flight can undo it)."""
        done = "() => window.paefSaves.states.some(s => s === 'completed' || s === 'failed')"
        try:
            self.page.wait_for_function(done, timeout=60_000)
        except Exception as exc:
            states = self.page.evaluate("() => window.paefSaves.states")
            raise AssertionError(f"{what}: no save finished within 60 s (save states {states})") from exc
        states = self.page.evaluate("() => window.paefSaves.states")
        if "failed" in states:
            dialog = self.page.locator(".jp-Dialog-content")
            message = dialog.inner_text() if dialog.count() else ""
            raise AssertionError(f"{what}: the save failed (save states {states}): {message}")
        return json.loads((self.server.root / self.name).read_text())

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{_slug(name)}.png"
        self.page.screenshot(path=str(path))
        return path


@pytest.fixture
def open_notebook(page, request: pytest.FixtureRequest) -> Iterator[Callable[..., NotebookPage]]:
    """Writes `name` with the given (cell id, source) code cells, starts its kernel, opens it.

    The server is the test's `jupyter_server` unless one is passed.
    """

    opened: list[Path] = []

    def open_(name: str, cells: list[tuple[str, str]], server: JupyterServer | None = None) -> NotebookPage:
        server = server or request.getfixturevalue("jupyter_server")
        opened.append(server.write_notebook(name, cells))
        kernel_id = server.start_kernel_for(name)
        page.goto(server.notebook_url(name))
        notebook = NotebookPage(page, server, name, kernel_id)
        notebook.cell(len(cells) - 1).locator(".cm-content").wait_for(timeout=60_000)
        return notebook

    yield open_
    # The server moves a notebook it read half-written aside (module docstring): a save was undone.
    undone = [p.name for path in opened for p in path.parent.glob(f"{path.name}.invalid")]
    assert not undone, f"the server found a half-written notebook and put an older version back: {undone}"
