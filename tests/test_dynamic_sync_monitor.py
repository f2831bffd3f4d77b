"""The sync monitor puts torch's sync warnings on the user's cell line, not library code.

The GPU side (set_sync_debug_mode) is tested on a GPU; here the capture and the mapping are
driven by warnings with torch's exact text, issued from cell code and from a library frame
(`cuda=True` on a CPU build: the capture is installed, torch's debug mode cannot be set).
A profiled cell prints the warnings the plain cell prints: none shown again.
"""

from __future__ import annotations

import sys
import types
import warnings

import pytest
from dynamic_helpers import Cells

from paef_jupyter.dynamic import warning_memory
from paef_jupyter.dynamic.sync_monitor import SYNC_WARNING, SyncMonitor
from paef_jupyter.model import CellRef

CELL = CellRef("nb.ipynb", 1, "c1")


def library_call():
    warnings.warn(SYNC_WARNING, UserWarning)  # like torch: from the innermost (library) frame


def _from_file(filename: str):
    """A function whose frame lives in `filename` (torch's tensor protocol, or an optimizer)."""
    namespace: dict = {"warnings": warnings, "SYNC_WARNING": SYNC_WARNING}
    exec(compile("def read():\n    warnings.warn(SYNC_WARNING, UserWarning)\n", filename, "exec"), namespace)
    return namespace["read"]


def test_sync_warnings_are_counted_on_the_innermost_cell_line():
    cells = Cells()
    code = cells.add("for i in range(3):\n    sync()\n", CELL)
    cells.namespace["sync"] = _from_file("/venv/lib/python3.11/site-packages/torch/_tensor.py")
    files = cells.files()
    monitor = SyncMonitor(files, cuda=True)
    monitor.start()
    try:
        exec(code, cells.namespace)
    finally:
        monitor.stop()
    idx = files.index(next(iter(cells.by_name)))
    assert monitor.counts == {(idx, 2): 3}  # "always": repeated warnings are all seen


def test_syncs_inside_library_functions_are_not_the_users():
    # Adam's step counter, clip_grad_norm_, GradScaler.step: the library syncs, not the line.
    cells = Cells()
    code = cells.add("for i in range(2):\n    step()\n    warnings.warn(MSG, UserWarning)\n", CELL)
    cells.namespace["step"] = _from_file("/venv/lib/python3.11/site-packages/torch/optim/adam.py")
    cells.namespace.update(warnings=warnings, MSG=SYNC_WARNING)  # the cell's own read
    files = cells.files()
    monitor = SyncMonitor(files, cuda=True)
    monitor.start()
    try:
        exec(code, cells.namespace)
    finally:
        monitor.stop()
    idx = files.index(next(iter(cells.by_name)))
    assert monitor.library == {(idx, 2): 2}
    assert monitor.counts == {(idx, 3): 2}


def test_other_warnings_pass_through_and_filters_are_restored():
    cells = Cells()
    monitor = SyncMonitor(cells.files(), cuda=True)
    before = list(warnings.filters)
    monitor.start()
    try:
        with pytest.warns(DeprecationWarning, match="unrelated"):
            warnings.warn("unrelated", DeprecationWarning)
        library_call()  # from no cell: counted apart
    finally:
        monitor.stop()
    assert monitor.unattributed == 1 and not monitor.counts
    assert warnings.filters == before


def test_filters_the_cell_sets_meanwhile_are_kept():
    cells = Cells()
    monitor = SyncMonitor(cells.files(), cuda=True)
    before = list(warnings.filters)
    monitor.start()
    try:
        warnings.filterwarnings("ignore", message="from the cell")  # the user's own filter
    finally:
        monitor.stop()
    try:
        assert warnings.filters[0][1].pattern == "from the cell"
        assert warnings.filters[1:] == before
        assert warnings.showwarning is not monitor._show
    finally:
        warnings.filters.pop(0)


@pytest.fixture
def library_warning():
    """A library module whose function warns once per location ("default"), and the warnings shown."""
    module = types.ModuleType("paef_test_library")
    exec(compile("import warnings\ndef call():\n    warnings.warn('pin_memory is set but no accelerator', UserWarning)\n",
                 "/venv/lib/python3.11/site-packages/paef_test_library.py", "exec"), vars(module))
    shown: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = lambda message, *rest, **kw: shown.append(str(message))
        sys.modules[module.__name__] = module
        try:
            yield module.call, shown
        finally:
            del sys.modules[module.__name__]


@pytest.mark.parametrize("cuda", [False, True])
def test_a_warning_shown_before_the_window_is_not_shown_again(library_warning, cuda: bool):
    call, shown = library_warning
    call()
    monitor = SyncMonitor(Cells().files(), cuda=cuda)
    monitor.start()
    try:
        call()  # a DataLoader made again inside the profiled window
    finally:
        monitor.stop()
    call()
    assert shown == ["pin_memory is set but no accelerator"]


def test_a_cpu_run_leaves_the_filters_alone():
    before, version = list(warnings.filters), warning_memory.filters_version()
    monitor = SyncMonitor(Cells().files(), cuda=False)
    monitor.start()
    monitor.stop()
    assert warnings.filters == before and warning_memory.filters_version() == version


def test_a_library_catch_warnings_inside_kept_forgets_nothing(library_warning):
    call, shown = library_warning
    call()
    with warning_memory.kept():
        with warnings.catch_warnings():  # what torch's imports and many libraries do
            pass
    call()
    with warnings.catch_warnings():  # the program's own change is not undone
        pass
    call()
    assert shown == ["pin_memory is set but no accelerator"] * 2
