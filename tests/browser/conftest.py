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

A cell is run only once the page is on the notebook's kernel, connected and idle
(`NotebookPage.wait_for_kernel`), as a user waits for the kernel indicator: the page shows the
cells before its session is known (the document context does not wait for it), and a cell run
then makes the page start a second kernel of its own (benchmarks/results/flake66.md). A cell
that does not finish fails with what the page and the server knew (`NotebookPage.diagnose`), and
a failing test's report ends with the tail of its server's log.
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
    if report.failed:  # CI shows pytest's output only: the servers' side goes with the failure
        for server in item.__dict__.get("paef_servers", ()):
            tail = server.log.read_text(errors="replace").splitlines()[-30:]
            report.sections.append((f"jupyter {server.kind} server log, last 30 lines", "\n".join(tail)))


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


# The page's view of the notebook at `path`: its session context, kernel and connection.
KERNEL_STATE_JS = """path => {
  const app = window.jupyterapp;
  if (!app) return {app: false};
  const w = app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path) return {current: w ? (w.context ? w.context.path : w.id) : null};
  const sc = w.sessionContext, k = sc.session ? sc.session.kernel : null;
  return {ready: sc.isReady, no_kernel: sc.hasNoKernel, session: sc.session ? sc.session.id.slice(0, 8) : null,
          kernel: k ? k.id : null, connection: k ? k.connectionStatus : null, status: k ? k.status : null,
          queued: k && k._pendingMessages ? k._pendingMessages.length : null};
}"""


def _kernel_message(payload: str | bytes) -> tuple[str, dict, dict, dict] | None:
    """(channel, header, parent header, content) of a kernel websocket frame: JSON text, or the
    binary v1.kernel.websocket.jupyter.org form (offsets, then channel, header, parent, metadata,
    content, buffers)."""
    try:
        if isinstance(payload, str):
            msg = json.loads(payload)
            return msg.get("channel", ""), msg["header"], msg.get("parent_header") or {}, msg.get("content") or {}
        count = int.from_bytes(payload[:8], "little")
        offsets = [int.from_bytes(payload[8 * i:8 * i + 8], "little") for i in range(1, count + 1)] + [len(payload)]
        parts = [payload[offsets[i]:offsets[i + 1]] for i in range(min(count, 5))]
        return (parts[0].decode(), json.loads(parts[1]), json.loads(parts[2] or b"{}") or {},
                json.loads(parts[4] or b"{}") or {})
    except (ValueError, KeyError, IndexError, TypeError, UnicodeDecodeError):
        return None


class NotebookPage:
    """A notebook open in the browser; cells addressed by index, text read from the editor."""

    def __init__(self, page: Any, server: JupyterServer, name: str, kernel_id: str) -> None:
        self.page, self.server, self.name, self.kernel_id = page, server, name, kernel_id
        self.frames: list[str] = []  # the page's kernel messages, both ways (`_record_frames`)
        self._t0 = time.monotonic()
        page.on("websocket", self._record_frames)

    def _record_frames(self, ws: Any) -> None:
        if "/api/kernels/" not in ws.url or "/channels" not in ws.url:
            return
        kernel = ws.url.split("/api/kernels/")[1].split("/")[0][:8]
        ws.on("framesent", lambda payload: self._note_frame(">", kernel, payload))
        ws.on("framereceived", lambda payload: self._note_frame("<", kernel, payload))
        ws.on("close", lambda _ws: self.frames.append(f"{time.monotonic() - self._t0:7.1f} {kernel} websocket closed"))

    def _note_frame(self, way: str, kernel: str, payload: str | bytes) -> None:
        msg = _kernel_message(payload)
        if msg is None:
            return
        channel, header, parent, content = msg
        parent_type = parent.get("msg_type", "")
        if "debug_" in header.get("msg_type", "") + parent_type:  # the debugger's polling: noise here
            return
        detail = content.get("execution_state") or content.get("execution_count") or content.get("status") or ""
        self.frames.append(f"{time.monotonic() - self._t0:7.1f} {kernel} {way} {channel} {header.get('msg_type')}"
                           f" {detail}{' <- ' + parent_type if parent_type else ''}")
        del self.frames[:-400]

    def kernel_state(self) -> dict:
        """What the page knows of the notebook's session and kernel."""
        return self.page.evaluate(KERNEL_STATE_JS, self.name)

    def wait_for_kernel(self, timeout: float = 120.0) -> None:
        """Waits until the page is on the notebook's kernel (the one `open_notebook` started),
        connected and idle: what a user waits for (the kernel indicator) before running a cell.

        The page shows the cells before its session is known: the document context does not
        wait for it. A cell run before then finds "no kernel" and has the page start a kernel
        and session of its own, beside the notebook's (benchmarks/results/flake66.md)."""
        ready = ("s => s.ready && s.connection === 'connected' && s.status === 'idle'"
                 f" && s.kernel === {json.dumps(self.kernel_id)}")
        try:
            self.page.wait_for_function(f"path => ({ready})(({KERNEL_STATE_JS})(path))", arg=self.name,
                                        timeout=timeout * 1000)
        except Exception as exc:
            raise AssertionError(f"the page was not on kernel {self.kernel_id[:8]}, connected and idle, within "
                                 f"{timeout:.0f} s\n{self.diagnose()}") from exc

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
        self.wait_for_kernel()
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
        self.frames.append(f"{time.monotonic() - self._t0:7.1f} Shift+Enter on cell {index}")
        self.page.keyboard.press("Shift+Enter")
        try:
            self.page.wait_for_function(
                "el => el.paefBusySeen && /^\\[\\d+\\]:$/.test(el.textContent.trim())",
                arg=prompt.element_handle(), timeout=timeout * 1000)
        except Exception as exc:
            raise AssertionError(f"cell {index} did not finish within {timeout:.0f} s\n"
                                 f"{self.diagnose(index)}") from exc
        return self.output_text(index)

    def diagnose(self, index: int | None = None) -> str:
        """What the page and the server knew, for a failure's message (CI prints nothing else)."""
        lines = []

        def add(label: str, get: Callable[[], Any]) -> None:
            try:
                lines.append(f"  {label}: {get()}")
            except Exception as exc:  # a closed page or a dead server must not hide the failure
                lines.append(f"  {label}: ({type(exc).__name__}: {str(exc)[:160]})")

        if index is not None:
            prompt = self.cell(index).locator(".jp-InputPrompt")
            add("prompt", lambda: f"{prompt.inner_text()!r}, busy seen: {prompt.evaluate('el => el.paefBusySeen')}")
            add("outputs", lambda: self.output_text(index)[-300:] or "(none)")
        add("page", self.kernel_state)
        add("server kernel", lambda: {k: v for k, v in self.server.api("GET", f"/api/kernels/{self.kernel_id}").items()
                                      if k in ("execution_state", "last_activity", "connections", "reason")})
        add("server sessions", lambda: [(s["path"], s["kernel"]["id"][:8], s["kernel"]["execution_state"])
                                        for s in self.server.api("GET", "/api/sessions")])
        add("dialog", lambda: " | ".join(self.page.locator(".jp-Dialog").all_inner_texts()) or "(none)")
        lines.append(f"  kernel messages of the page (s since open, kernel, > sent / < received; "
                     f"{len(self.frames)} in all, last 25):")
        lines += [f"    {frame}" for frame in self.frames[-25:]]
        return "\n".join(lines)

    def goto(self) -> None:
        """Opens (or reopens) the notebook's page; returns once its cells show and the page is
        on the notebook's kernel, connected and idle (`wait_for_kernel`)."""
        self.page.goto(self.server.notebook_url(self.name))
        self._loaded()

    def reload(self) -> None:
        """Reloads the page, as `goto`."""
        self.page.reload()
        self._loaded()

    def _loaded(self) -> None:
        self.frames.append(f"{time.monotonic() - self._t0:7.1f} page opened")
        self.page.locator(".jp-Notebook .jp-Cell .cm-content").last.wait_for(timeout=60_000)
        self.wait_for_kernel()

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
        notebook = NotebookPage(page, server, name, kernel_id)
        used = request.node.__dict__.setdefault("paef_servers", [])
        if server not in used:
            used.append(server)
        notebook.goto()
        return notebook

    yield open_
    # The server moves a notebook it read half-written aside (module docstring): a save was undone.
    undone = [p.name for path in opened for p in path.parent.glob(f"{path.name}.invalid")]
    assert not undone, f"the server found a half-written notebook and put an older version back: {undone}"
