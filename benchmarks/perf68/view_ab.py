"""In one kernel: %%paef cells with view-contract variants (monkeypatched, for measuring only) interleaved."""
import json, statistics, sys, os
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from benchmarks.bench_kernel_cells import Kernel, settle, workloads
from benchmarks.perf68._variants import interleaved
from benchmarks.bench_cell_breakdown import TIMERS
PATCH = r'''
import paef_jupyter.ui.widget as _vw, ipywidgets as _vw_w
_vw_init, _vw_display = _vw.ReportView.__init__, _vw.ReportView.display
_vw_VBox = _vw.w.VBox
class _vw_NoBox:
    def VBox(children, **k): return children[0]
    def __getattr__(self, n): return getattr(_vw_w, n)
def _vw_set(nobox, nohead):
    _vw.w = _vw_NoBox if nobox else _vw_w
    if nohead:
        def display(self, in_place_of=None, restamp=None):
            body = self.body
            class _B:
                def __setattr__(s, n, v):
                    if n != "head": setattr(body, n, v)
            self.body = _B()
            try: return _vw_display(self, in_place_of, restamp)
            finally: self.body = body
        _vw.ReportView.display = display
    else:
        _vw.ReportView.display = _vw_display
'''
VARIANTS = {"default": "_vw_set(False, False)", "no VBox": "_vw_set(True, False)",
            "no 2nd head": "_vw_set(False, True)", "neither": "_vw_set(True, True)"}
name, rounds = sys.argv[1], int(sys.argv[2])
setup, body = workloads()[name]
k = Kernel()
try:
    k.must(setup); k.must("%load_ext paef_jupyter"); k.must(TIMERS.replace("{clock}", "thread_time"))
    k.must(PATCH)
    settle(k)
    k.must(body); k.must("%%paef\n" + body)
    out = interleaved(k, body, VARIANTS, rounds)
finally:
    k.close()
med = lambda xs: statistics.median(xs) * 1e3
plain = out["plain"]["cpu"]
for v in VARIANTS:
    d = out[v]
    extra = [a - b for a, b in zip(d["cpu"], plain)]
    vs = [a - b for a, b in zip(d["cpu"], out["default"]["cpu"])]
    st = lambda key: med([s.get(key, 0) for s in d["steps"]])
    print(f"{name} {v:12s} cpu {med(d['cpu']):6.1f} extra {med(extra):5.1f} vs default {med(vs):+5.2f} (lower {sum(x<0 for x in vs)}/{len(vs)}) | draw {st('draw: all'):4.2f} build {st('draw: build the view'):4.2f} display {st('draw: display the view'):4.2f} send {st('messages: Session.send, every message of the cell (any thread)'):4.2f}")
print(f"{name} plain cpu {med(plain):.1f} load {os.getloadavg()[0]:.2f}")
json.dump(out, open(f"/tmp/perf68/view_{name}.json", "w"))
