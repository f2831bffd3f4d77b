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
    ("again", f"rid = bridge.replace_cell({TARGET_ID!r}, {BEFORE + ' + 1'!r}, {AFTER!r}, results.append)"),
    ("button", "import ipywidgets\nundo = ipywidgets.Button(description='Undo paef')\n"
               f"undo.on_click(lambda _: bridge.replace_cell({TARGET_ID!r}, {AFTER!r}, {BEFORE!r}, results.append))\n"
               "undo"),
]


@pytest.mark.browser
def test_kernel_replaces_cell_undo_restores_user_edit_wins_restart_keeps_working(open_notebook, jupyter_server):
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

    nb.restart_kernel()  # the comm target must survive a restart
    nb.run_cell(1)
    nb.run_cell(5)
    nb.wait_for_text(0, AFTER)
    assert nb.run_cell(3) == "True ['applied']"

    # From a widget callback, i.e. inside the kernel's handler of a shell message, as Apply does.
    nb.run_cell(6)
    nb.page.get_by_role("button", name="Undo paef").click()
    nb.wait_for_text(0, BEFORE)
    assert nb.run_cell(3) == "True ['applied', 'applied']"


@pytest.mark.browser
def test_without_the_extension_the_kernel_learns_it_at_once(open_notebook, lab_without_extension):
    nb = open_notebook("no_extension.ipynb", CELLS, server=lab_without_extension)
    nb.run_cell(1)
    nb.run_cell(2)
    assert nb.run_cell(3) == "False ['no_extension']"
    assert nb.cell_text(0) == BEFORE
