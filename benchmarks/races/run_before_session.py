"""A cell run as soon as a notebook's cells show (the browser tests' old `run_cell` after opening).

The harness starts the notebook's kernel over REST, opens the page, waits for the last cell's
editor and presses Shift+Enter. The page shows the cells before its session context has asked
the server for the notebook's session (the document context does not wait for it). Each trial
opens a new notebook in a real server and chromium (the harness's), presses Shift+Enter on its
one cell and waits up to 60 s for the cell's count. It records what the page knew at the key
press, whether the cell finished, the kernel the page was on when it finished, whether the
notebook's kernel (started over REST) still runs, the sessions the server then had, and any
dialog on the page.

Modes:
  natural  press when the last editor shows, as the old harness did;
  hold     the same, but the page's listings of the sessions (GET /api/sessions) after the first
           (which the app waits for before it shows anything) are held until just after the key
           press: the order a slow server or a loaded machine can give;
  late     as `hold`, the listing released 20 s after the key press (after the page made its own session);
  wait     the new harness: press only once the page is on the notebook's kernel, connected and
           idle (`NotebookPage.wait_for_kernel`); with `hold`'s held listing released after 2 s.

    PYTHONPATH=. .venv/bin/python -m benchmarks.races.run_before_session notebook hold 5
    PYTHONPATH=. .venv/bin/python -m benchmarks.races.run_before_session notebook natural 10
    PYTHONPATH=. .venv/bin/python -m benchmarks.races.run_before_session notebook wait 5
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
from browser.conftest import CHROMIUM_ARGS, NotebookPage, _start_server, _stop_servers  # noqa: E402

CELL = "import os\nprint(os.getpid())"


def trial(browser, server, i: int, mode: str) -> dict:
    name = f"race_{mode}_{i}.ipynb"
    log_from = server.log.stat().st_size
    server.write_notebook(name, [("a", CELL)])
    kernel_id = server.start_kernel_for(name)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    held, holding, listings = [], [mode in ("hold", "late", "wait")], []

    def route(r):
        # The first listing makes the app's service manager ready (the page shows nothing before
        # it); the next one is the session context's own `refreshRunning()`, the one held.
        if r.request.method == "GET":
            listings.append(1)
        if holding[0] and r.request.method == "GET" and len(listings) > 1:
            held.append(r)
        else:
            r.continue_()

    page.route("**/api/sessions*", route)
    nb = NotebookPage(page, server, name, kernel_id)
    try:
        page.goto(server.notebook_url(name))
        nb.cell(0).locator(".cm-content").wait_for(timeout=60_000)
        if mode == "wait":
            threading.Timer(2.0, lambda: holding.__setitem__(0, False)).start()
            deadline = time.monotonic() + 2.5
            while time.monotonic() < deadline:  # let playwright dispatch; then release what was held
                page.wait_for_timeout(100)
            for r in held:
                r.continue_()
            nb.wait_for_kernel()
        at_press = nb.kernel_state()
        prompt = nb.cell(0).locator(".jp-InputPrompt")
        prompt.click()
        page.keyboard.press("Shift+Enter")
        if mode == "late":  # released once the page's own session has been made
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                page.wait_for_timeout(100)
        holding[0] = False
        for r in held:
            if mode != "wait":
                r.continue_()
        try:
            page.wait_for_function("el => /^\\[\\d+\\]:$/.test(el.textContent.trim())",
                                   arg=prompt.element_handle(), timeout=60_000)
            finished = True
        except Exception:
            finished = False
        sessions = [s for s in server.api("GET", "/api/sessions")]
        after = nb.kernel_state().get("kernel") or ""
        ran_on = "?" if not finished else "the notebook's kernel" if after == kernel_id else f"another kernel ({after[:8]})"
        alive = any(k["id"] == kernel_id for k in server.api("GET", "/api/kernels"))
        result = {"trial": i, "mode": mode, "held": len(held), "at_press": at_press, "finished": finished,
                  "prompt": prompt.inner_text(), "ran_on": ran_on,
                  "notebook_kernel_alive": alive,
                  "kernels_on_server": len(server.api("GET", "/api/kernels")),
                  "sessions": [(s["path"], s["kernel"]["id"][:8]) for s in sessions],
                  "dialog": " | ".join(page.locator(".jp-Dialog").all_inner_texts())[:200]}
        if not finished or "-v" in sys.argv:
            with server.log.open("rb") as log:
                log.seek(log_from)
                kernels = [line for line in log.read().decode(errors="replace").splitlines()
                           if "ernel" in line or "ession" in line]
            result["diagnose"] = nb.diagnose(0) + "\n  server log (kernels, sessions):\n    " + "\n    ".join(kernels[-20:])
        return result
    finally:
        context.close()
        for s in server.api("GET", "/api/sessions"):
            server.api("DELETE", f"/api/sessions/{s['id']}")
        for k in server.api("GET", "/api/kernels"):
            server.api("DELETE", f"/api/kernels/{k['id']}")


def main(kind: str, mode: str, trials: int) -> None:
    from playwright.sync_api import sync_playwright

    base = Path(tempfile.mkdtemp(prefix="paef-race-"))
    server = _start_server(kind, base / kind, ())
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
            results = []
            for i in range(trials):
                result = trial(browser, server, i, mode)
                results.append(result)
                print({k: v for k, v in result.items() if k != "diagnose"}, flush=True)
                if "diagnose" in result:
                    print(result["diagnose"], flush=True)
            browser.close()
        failed = sum(not r["finished"] for r in results)
        elsewhere = sum(r["ran_on"].startswith("another") for r in results)
        killed = sum(not r["notebook_kernel_alive"] for r in results)
        early = sum(not r["at_press"].get("kernel") for r in results)
        print(f"{kind} {mode}: {trials} trials, key pressed before the page knew its kernel: {early}, "
              f"cell not finished in 60 s: {failed}, cell ran on another kernel than the notebook's: {elsewhere}, "
              f"the notebook's kernel shut down by the page: {killed}")
    finally:
        _stop_servers([server])
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
