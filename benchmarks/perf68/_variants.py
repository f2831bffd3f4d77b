"""The interleaved rounds both variant A/Bs run (win_ab, view_ab): plain and each variant per round, the
order reversed every other round; kernel CPU (all threads) and the step timers of each cell."""
import json

from benchmarks.bench_cell_breakdown import READ, RESET


def interleaved(k, body: str, variants: dict[str, str], rounds: int) -> dict:
    out = {v: {"cpu": [], "steps": []} for v in ["plain", *variants]}
    for r in range(rounds):
        order = ["plain", *variants]
        if r % 2:
            order = order[::-1]
        for v in order:
            if v != "plain":
                k.must(variants[v])
            k.must(RESET)
            c = k.cpu_s()
            k.must(body if v == "plain" else "%%paef\n" + body)
            out[v]["cpu"].append(k.cpu_s() - c)
            out[v]["steps"].append(json.loads(k.output(READ)))
    return out
