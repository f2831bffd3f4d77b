"""A change switched off and on round by round in ONE kernel (paired), where two kernels on a
loaded shared box differ by more than the change: the client's wait and the kernel's CPU (all
threads) of the cell over the plain run just before it, in-kernel wall/CPU of wrapped steps, and
the CPU of ipykernel's I/O thread for the cell.

    .venv/bin/python -m benchmarks.ab_toggle_cells CELL ROUNDS transform [" --no-profile"]

transform: `magic._transformed` (off: IPython's `transform_cell` every run); a new switch is one more
entry in `_tg_orig` / `_tg_off`. Raw rounds go to /tmp."""
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchmarks.bench_kernel_cells import workloads, settle, Kernel

SETUP = r"""
import time as _tg_t, functools as _tg_ft, json as _tg_json
import paef_jupyter.ui as _tg_ui, paef_jupyter.magic as _tg_magic
_tg = {}
_tg_orig = {"transform": (_tg_magic, "_transformed", _tg_magic._transformed)}
_tg_off = {"transform": lambda shell, body: shell.transform_cell(body)}
def _tg_set(name, on):
    owner, attr, orig = _tg_orig[name]
    setattr(owner, attr, orig if on else _tg_off[name])
def _tg_wrap(owner, attr, name):
    inner = getattr(owner, attr)
    @_tg_ft.wraps(inner)
    def timed(*a, **k):
        w, c = _tg_t.perf_counter(), _tg_t.thread_time()
        try:
            return inner(*a, **k)
        finally:
            _tg[name + " wall"] = _tg.get(name + " wall", 0.0) + _tg_t.perf_counter() - w
            _tg[name + " cpu"] = _tg.get(name + " cpu", 0.0) + _tg_t.thread_time() - c
    setattr(owner, attr, timed)
_tg_wrap(_tg_ui, "show_report", "show_report")
def _tg_io():
    # CPU seconds of the I/O thread so far (Linux schedstat)
    tid = get_ipython().kernel.iopub_thread.thread.native_id
    with open(f"/proc/self/task/{tid}/schedstat") as fh:
        return int(fh.read().split()[0]) / 1e9
_tg_wrap(_tg_magic.CellCode, "build", "compile")
"""

def timed(k, code):
    cpu = k.cpu_s(); t0 = time.perf_counter()
    r = k.kc.execute_interactive(code, timeout=300, output_hook=lambda m: None)
    w = time.perf_counter() - t0; c = k.cpu_s() - cpu
    assert r["content"]["status"] == "ok", r["content"]
    return w, c

def main(name, rounds, toggle, flags):
    setup, body = workloads()[name]
    k = Kernel()
    try:
        k.must(setup); k.must("%load_ext paef_jupyter"); settle(k); k.must(SETUP)
        cell = f"%%paef{flags}\n" + body
        for _ in range(2): k.must(body); k.must(cell)
        res = {"off": [], "on": []}
        for i in range(rounds):
            for state in (("off", "on") if i % 2 == 0 else ("on", "off")):
                k.must(f"_tg_set({toggle!r}, {state == 'on'}); _tg.clear()")
                pw, pc = timed(k, body)
                k.must("_tg_io0 = _tg_io()")
                w, c = timed(k, cell)
                steps = json.loads(k.output("_tg['I/O thread cpu (cell + this read)'] = _tg_io() - _tg_io0; "
                                            "print(_tg_json.dumps(_tg))"))
                res[state].append({"wait": w - pw, "cpu": c - pc, "ratio_wait": w / pw, "ratio_cpu": c / pc, **steps})
        k.must(f"_tg_set({toggle!r}, True)")
        return res
    finally:
        k.close()

if __name__ == "__main__":
    name, rounds, toggle = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    flags = sys.argv[4] if len(sys.argv) > 4 else ""
    l0 = os.getloadavg()[0]
    res = main(name, rounds, toggle, flags)
    l1 = os.getloadavg()[0]
    keys = list(res["on"][0])
    print(f"{name} %%paef{flags} toggle={toggle} rounds={rounds} load {l0:.1f}->{l1:.1f}  (medians; extra = %%paef cell minus the plain run before it, ms)")
    for key in keys:
        off = statistics.median(r[key] for r in res["off"]); on = statistics.median(r[key] for r in res["on"])
        scale = 1 if key.startswith("ratio") else 1e3
        diffs = statistics.median(a[key] - b[key] for a, b in zip(res["on"], res["off"])) * scale
        print(f"  {key:22} off {off*scale:8.3f}  on {on*scale:8.3f}   paired on-off {diffs:+.3f}")
    json.dump(res, open(f"/tmp/ab_toggle_{name}_{toggle}{flags.strip()}_{int(time.time())}.json", "w"))
