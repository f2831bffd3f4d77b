"""The floor under a warm `%%paef` cell: what showing outputs like a report's costs a cell at
all, whatever paef does. One kernel, rounds interleaved: the plain cell; the same plus a
placeholder updated four times (as IPython flushes by default); plus one 24 kB HTML output;
plus that output and a two-model widget view (a box and one child sharing a layout, shown as
the raw bundle paef sends); then `%%paef --no-profile` and `%%paef` of the same cell.

    python benchmarks/floor_cells.py [CELL] [ROUNDS]

Not part of `make bench`; its figures are in results/perf8_warm_cells.md.
"""

from __future__ import annotations

import statistics
import sys

from benchmarks.bench_kernel_cells import Kernel, settle, workloads

WIDGET = ("_fv = _fw.VBox([_fw.HTML(' ' * 30000, layout=_fl)], layout=_fl)\n"
          "_fd.display({'text/plain': 'w', 'application/vnd.jupyter.widget-view+json': "
          "{'version_major': 2, 'version_minor': 0, 'model_id': _fv.model_id}}, raw=True)")


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "ping_pong"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    setup, body = workloads()[name]
    cells = {
        "plain": body,
        "+ placeholder, 3 notes, emptied (flushed)": body + "\n_p = _fd.display(_fd.HTML('x'), display_id=True)\n"
                                                          "for _i in range(4): _p.update(_fd.HTML('y'))",
        "+ one 24 kB HTML output": body + "\n_fd.display(_fh)",
        "+ 24 kB HTML and a two-model widget view": body + "\n_fd.display(_fh)\n" + WIDGET,
        "%%paef --no-profile": "%%paef --no-profile\n" + body,
        "%%paef": "%%paef\n" + body,
    }
    kernel = Kernel()
    try:
        kernel.must(setup)
        kernel.must("%load_ext paef_jupyter")
        kernel.must("import IPython.display as _fd, ipywidgets as _fw\n_fh = _fd.HTML(' ' * 24000)\n_fl = _fw.Layout()")
        settle(kernel)
        for code in cells.values():  # untimed round
            kernel.must(code)
        waits: dict[str, list[float]] = {k: [] for k in cells}
        for _ in range(rounds):
            for k, code in cells.items():
                waits[k].append(kernel.run(code)[0])
    finally:
        kernel.close()
    plain = waits["plain"]
    for k, got in waits.items():
        extra = statistics.median(a - b for a, b in zip(got, plain)) * 1e3
        ratio = statistics.median(a / b for a, b in zip(got, plain))
        print(f"{k:42s} {statistics.median(got) * 1e3:7.1f} ms  {ratio:.2f}x  extra {extra:6.1f} ms")


if __name__ == "__main__":
    main()
