"""Warm `%%paef` cells, another checkout's code vs this one's, at the same moment: two kernels
alive side by side (one per tree), their cells interleaved round by round (plain, `%%paef`,
`%%paef --no-profile`; which kernel goes first alternates), so the load of a shared box hits
both alike. Each kernel lets paef's one-time warm-up finish and runs one untimed round first.

Per round and kernel: the client's wait (execute_request -> reply: run + report rendered) and
the kernel process's CPU time (all threads) of each cell, over that kernel's plain run of the
same round; also the overhead figure the report shows, and the kernel's messages per cell.

    python benchmarks/ab_warm_cells.py BEFORE_TREE ROUNDS [CELL...]

Not part of `make bench` (it needs a second checkout); its figures are in
results/perf8_warm_cells.md.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from jupyter_client.manager import start_new_kernel  # noqa: E402

from benchmarks.bench_kernel_cells import SHOWN, Kernel, settle, workloads  # noqa: E402

VARIANTS = ("plain", "%%paef", "%%paef --no-profile")


class TreeKernel(Kernel):
    """A `Kernel` whose paef_jupyter comes from `tree`."""

    def __init__(self, tree: str) -> None:  # noqa: D107 - `Kernel.__init__` puts this tree first
        self.cwd = tempfile.TemporaryDirectory(prefix="paef-ab-kernel-")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([tree, os.path.join(tree, "demo_notebooks")]))
        self.km, self.kc = start_new_kernel(kernel_name="python3", env=env, cwd=self.cwd.name)

    def messages(self, code: str) -> tuple[float, int]:
        """(seconds until the reply, iopub messages the cell sent but `status`)."""
        sent = [0]

        def hook(msg: dict) -> None:
            if msg["msg_type"] != "status":
                sent[0] += 1

        t0 = time.perf_counter()
        reply = self.kc.execute_interactive(code, timeout=300, output_hook=hook)
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"cell failed: {reply['content'].get('ename')}")
        return time.perf_counter() - t0, sent[0]


def measure(trees: dict[str, str], name: str, rounds: int) -> dict:
    setup, body = workloads()[name]
    cells = {"plain": body, "%%paef": "%%paef\n" + body, "%%paef --no-profile": "%%paef --no-profile\n" + body}
    kernels = {who: TreeKernel(tree) for who, tree in trees.items()}
    out: dict = {who: {"wait": {v: [] for v in VARIANTS}, "cpu": {v: [] for v in VARIANTS},
                       "messages": {v: [] for v in VARIANTS}, "shown": []} for who in trees}
    try:
        for kernel in kernels.values():
            kernel.must(setup)
            kernel.must("%load_ext paef_jupyter")
        for kernel in kernels.values():
            settle(kernel)
            for code in cells.values():  # untimed round
                kernel.must(code)
        order = list(kernels)
        for r in range(rounds):
            for who in (order if r % 2 == 0 else order[::-1]):
                kernel = kernels[who]
                for variant, code in cells.items():
                    before = kernel.cpu_s()
                    wait, messages = kernel.messages(code)
                    out[who]["cpu"][variant].append(kernel.cpu_s() - before)
                    out[who]["wait"][variant].append(wait)
                    out[who]["messages"][variant].append(messages)
                    if variant == "%%paef":
                        out[who]["shown"].append(float(kernel.output(SHOWN)))
    finally:
        for kernel in kernels.values():
            kernel.close()
    return out


def summary(got: dict) -> dict:
    def ratios(kind: str, variant: str) -> list[float]:
        return [a / b for a, b in zip(got[kind][variant], got[kind]["plain"])]

    row = {"plain_ms": statistics.median(got["wait"]["plain"]) * 1e3}
    for variant in VARIANTS[1:]:
        r = ratios("wait", variant)
        row[f"{variant} wait"] = (statistics.median(r), min(r), max(r))
        row[f"{variant} extra_ms"] = statistics.median(
            a - b for a, b in zip(got["wait"][variant], got["wait"]["plain"])) * 1e3
        row[f"{variant} cpu"] = statistics.median(ratios("cpu", variant))
        row[f"{variant} extra_cpu_ms"] = statistics.median(
            a - b for a, b in zip(got["cpu"][variant], got["cpu"]["plain"])) * 1e3
        row[f"{variant} messages"] = statistics.median(got["messages"][variant])
    row["plain messages"] = statistics.median(got["messages"]["plain"])
    row["shown"] = statistics.median(got["shown"]) if got["shown"] else None
    return row


def main() -> None:
    trees = {"before": os.path.abspath(sys.argv[1]), "after": ROOT}
    rounds = int(sys.argv[2])
    names = sys.argv[3:] or ["ping_pong", "host_syncs", "redundant_tensor", "adam_mlp_400"]
    results = {}
    for name in names:
        got = measure(trees, name, rounds)
        results[name] = {"raw": got, **{who: summary(got[who]) for who in trees},
                         "load_average": round(os.getloadavg()[0], 2)}
        for who in trees:
            s = results[name][who]
            print(f"{name:17s} {who:6s} plain {s['plain_ms']:6.1f} ms | %%paef {s['%%paef wait'][0]:.2f}x "
                  f"(+{s['%%paef extra_ms']:.1f} ms, CPU {s['%%paef cpu']:.2f}x +{s['%%paef extra_cpu_ms']:.1f} ms, "
                  f"{s['%%paef messages']:g} msgs) | --no-profile {s['%%paef --no-profile wait'][0]:.2f}x "
                  f"(+{s['%%paef --no-profile extra_ms']:.1f} ms, CPU {s['%%paef --no-profile cpu']:.2f}x "
                  f"+{s['%%paef --no-profile extra_cpu_ms']:.1f} ms, {s['%%paef --no-profile messages']:g} msgs) "
                  f"| shown {s['shown']:.2f}x", flush=True)
    if os.environ.get("AB_OUT"):
        with open(os.environ["AB_OUT"], "w") as fh:
            json.dump(results, fh)


if __name__ == "__main__":
    main()
