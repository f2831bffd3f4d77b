"""The kernel rewrites a cell through the labextension, in a real JupyterLab 4 and Notebook 7."""

from __future__ import annotations

import pytest

TARGET_ID = "paef-target"
BEFORE = "total = 1  # before paef"
AFTER = "total = 1  # after paef"
CELLS = [
    (TARGET_ID, BEFORE),
    ("setup", "from paef_jupyter.ui.bridge import CellEditBridge\nbridge = CellEditBridge()\nresults = []"),
    ("apply", f"rid = bridge.replace_cell({TARGET_ID!r}, {BEFORE!r}, {AFTER!r}, results.append)"),
    ("show", "print(bridge.available, results)"),
    ("stale", f"rid = bridge.replace_cell({TARGET_ID!r}, {BEFORE!r}, 'total = 2', results.append)\n"
              "rid = bridge.replace_cell('no-such-cell', '', 'x = 0', results.append)"),
]


@pytest.mark.browser
def test_kernel_replaces_cell_undo_restores_and_user_edit_wins(open_notebook, jupyter_server):
    nb = open_notebook(f"cell_edit_{jupyter_server.kind}.ipynb", CELLS)
    nb.run_cell(1)
    assert nb.run_cell(3) == "True []"  # the handshake completed after the setup cell

    nb.run_cell(2)
    nb.wait_for_text(0, AFTER)
    assert nb.run_cell(3) == "True ['applied']"

    nb.focus_editor_end(0)
    nb.page.keyboard.press("Control+z")
    nb.wait_for_text(0, BEFORE)

    nb.focus_editor_end(0)
    nb.page.keyboard.type(" + 1")
    nb.wait_for_text(0, BEFORE + " + 1")
    nb.run_cell(4)
    assert nb.run_cell(3) == "True ['applied', 'conflict', 'not_found']"
    assert nb.cell_text(0) == BEFORE + " + 1"
    nb.screenshot(f"cell_edit_{jupyter_server.kind}")


@pytest.mark.browser
def test_without_the_extension_the_kernel_learns_it_at_once(open_notebook, lab_without_extension):
    nb = open_notebook("no_extension.ipynb", CELLS, server=lab_without_extension)
    nb.run_cell(1)
    nb.run_cell(2)
    assert nb.run_cell(3) == "False ['no_extension']"
    assert nb.cell_text(0) == BEFORE
