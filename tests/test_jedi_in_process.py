"""jedi in a kernel's process (`%load_ext` sets `JediOracle.in_process`) runs from the warm-up
thread beside the user's cell: it must touch neither `sys.path` nor the set of imported
modules, which the cell sees."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_inference_beside_the_cell_leaves_its_sys_path_alone() -> None:
    """A `sys.path.insert` made while jedi looked a module up was lost (jedi swapped the list)."""
    out = _run("""
        import sys, threading
        from paef_jupyter.static.types import JediOracle
        JediOracle.in_process = True
        path = sys.path
        done = threading.Event()
        def infer():
            for n in range(6):
                source = "import json, csv, email, logging, argparse, decimal\\nx = json.dumps({})\\nx"
                JediOracle(source + "\\n" * n).type_name(3 + n, 0)
            done.set()
        threading.Thread(target=infer).start()
        swapped = 0
        while not done.is_set():
            swapped += sys.path is not path
        print(swapped, sys.path is path)
    """)
    assert out == "0 True"


def test_only_modules_the_process_imported_are_inspected() -> None:
    out = _run("""
        import sys
        from paef_jupyter.static.types import JediOracle
        JediOracle.in_process = True
        JediOracle("import mmap\\nc = mmap.mmap(-1, 8)\\nc").type_name(3, 0)
        print('mmap' in sys.modules)
        import mmap
        print(JediOracle("import mmap\\nc = mmap.mmap(-1, 8)\\nc").type_name(3, 0))
    """)
    assert out.splitlines() == ["False", "mmap.mmap"]
