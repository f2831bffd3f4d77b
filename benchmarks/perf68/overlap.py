"""(c): can the post-run Python work (trace read, profile build: ~4 ms) overlap the cell's unprofiled rest of the loop?
Main thread: host_syncs' loop, 34 iterations (what runs after the window). Other thread: 4 ms of pure-Python work."""
import threading, time, statistics, os, sys
import torch, torch.nn.functional as F
torch.set_num_threads(1); torch.manual_seed(0)
inputs = torch.randn(34, 64, 64); labels = torch.randint(0, 512, (34, 64))
model = torch.nn.Linear(64, 512); opt = torch.optim.SGD(model.parameters(), lr=0.1)
def loop():
    rl, c = 0.0, 0
    for xb, yb in zip(inputs, labels):
        logits = model(xb); loss = F.cross_entropy(logits, yb); opt.zero_grad(); loss.backward(); opt.step()
        rl += loss.item(); c += (logits.argmax(1) == yb).sum().item()
def work(n=[0]):
    # pure Python, ~ the profile build's kind of work (dicts, tuples, attribute reads)
    d = {}
    for i in range(n[0]):
        d[i % 997] = (i, str(i), d.get(i % 991))
# calibrate work to ~4 ms
work.__defaults__[0][0] = 1000
t = time.perf_counter(); work(); per = (time.perf_counter() - t) / 1000
work.__defaults__[0][0] = int(0.004 / per)
for _ in range(5): loop(); work()
res = {"seq": [], "ovl": [], "loop_alone": [], "loop_ovl": [], "cpu_seq": [], "cpu_ovl": []}
for r in range(int(sys.argv[1]) if len(sys.argv) > 1 else 40):
    for mode in (("seq", "ovl") if r % 2 == 0 else ("ovl", "seq")):
        c0 = time.process_time(); t0 = time.perf_counter()
        if mode == "seq":
            loop(); t1 = time.perf_counter(); work()
            res["loop_alone"].append(t1 - t0)
        else:
            th = threading.Thread(target=work); th.start(); loop(); t1 = time.perf_counter(); th.join()
            res["loop_ovl"].append(t1 - t0)
        res[mode].append(time.perf_counter() - t0); res["cpu_" + mode].append(time.process_time() - c0)
m = lambda k: statistics.median(res[k]) * 1e3
print(f"work alone ~4 ms; loop alone {m('loop_alone'):.1f} ms, loop with the work in a thread {m('loop_ovl'):.1f} ms")
print(f"loop then work: wall {m('seq'):.1f} cpu {m('cpu_seq'):.1f}; overlapped: wall {m('ovl'):.1f} cpu {m('cpu_ovl'):.1f}; "
      f"paired wall ovl-seq {statistics.median(a-b for a,b in zip(res['ovl'],res['seq']))*1e3:+.2f} ms; load {os.getloadavg()[0]:.2f}")
