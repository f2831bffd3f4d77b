import sys, subprocess, json
from paef_jupyter import api
import paef_jupyter.static.rules.operator_fusion as of
real = of.changed_between
files = subprocess.run("grep -rlE 'exp\\(|sqrt\\(|tanh\\(|erf\\(|\\.var\\(|\\.mean\\(|logsumexp|softmax\\(|sigmoid\\(' benchmarks/corpus benchmarks/redteam demo_notebooks --include=*.py --include=*.ipynb", shell=True, capture_output=True, text=True).stdout.split()
def run(p):
    try:
        r = api.analyze_path(p, rules=["operator-fusion"])
    except Exception as e:
        return ["ERR " + str(e)[:80]]
    return sorted((f.line, f.message[:60], bool(f.fix and f.fix.edits), bool(f.fix and f.fix.needs_review)) for f in r.findings)
diff = 0
for i, p in enumerate(files):
    of.changed_between = lambda *a, **k: ""
    before = run(p)
    of.changed_between = real
    after = run(p)
    if before != after:
        diff += 1
        print("DIFF", p, "\n  before", before, "\n  after ", after, flush=True)
print("files", len(files), "changed", diff)
