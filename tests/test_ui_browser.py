"""The %%paef view in a real JupyterLab 4 and Notebook 7: Apply, Undo and a linked frame click.

Uses the browser harness of `tests/browser/conftest.py` (servers, chromium, notebook pages).
"""

from __future__ import annotations

import pytest
from browser.conftest import _browser, _jupyter_servers, jupyter_server, open_notebook, page  # noqa: F401

CELL = """%%paef
total = 0.0
for step in range(30):
    x = torch.randn(64, 32)
    y = torch.tensor(x.cpu().tolist())
    loss = (y * 2).sum()
    total += loss.item()
print("trained", step)"""


@pytest.mark.browser
def test_apply_undo_and_frame_click_in_the_view(open_notebook, jupyter_server):  # noqa: F811
    nb = open_notebook(f"view_{jupyter_server.kind}.ipynb",
                       [("setup", "%load_ext paef_jupyter\nimport torch\ntorch.set_num_threads(1)"), ("train", CELL)])
    nb.run_cell(0)
    nb.run_cell(1, timeout=180)
    view = nb.cell(1).locator(".paef-box")
    view.locator(".js-plotly-plot .main-svg").first.wait_for(timeout=60_000)
    card = view.locator(".paef-cardbox").filter(has_text="ping-pong").first
    card.scroll_into_view_if_needed()
    nb.screenshot(f"view_{jupyter_server.kind}")

    card.get_by_role("button", name="Apply").click()
    nb.wait_for_text(1, CELL.replace("torch.tensor(x.cpu().tolist())", "x.detach()"), timeout=30)
    card.get_by_text("Applied to the cell").wait_for(timeout=30_000)
    card.get_by_role("button", name="Undo").click()
    nb.wait_for_text(1, CELL, timeout=30)

    # A click on the frame of line 5 reaches the kernel and lights the ping-pong card.
    texts = view.locator(".js-plotly-plot").first.evaluate("el => el.data[0].text")
    bar = view.locator(".js-plotly-plot .bars .point").nth(
        next(i for i, t in enumerate(texts) if t.startswith("y = torch.tensor")))
    bar.scroll_into_view_if_needed()
    box = bar.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    nb.page.mouse.move(x - 3, y)  # plotly reports a click on the point it hovers
    nb.page.mouse.move(x, y)
    nb.page.mouse.click(x, y)
    view.locator(".paef-cardbox.paef-linked").filter(has_text="ping-pong").wait_for(timeout=30_000)
    assert "behind it: ping-pong (line 5)" in view.inner_text()
