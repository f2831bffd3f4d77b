"""Public check 46: a legacy constructor sized by an int read off a tensor (`B = imgs.shape[0]`;
`torch.FloatTensor(B, 2).uniform_(-1, 1).to(device)` in InfoGAN's loop) allocates by size, not data."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
P01 = ROOT / "benchmarks" / "public46" / "p01_infogan_mnist.py"


def _lines(path: Path, rule: str) -> set[int]:
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "paef_jupyter.cli", "scan", "--format", "json", "--rule", rule, str(path)],
                         capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    return {f["line"] for f in json.loads(out.stdout)["findings"]}


def test_infogan_uniform_codes_found() -> None:
    lines = _lines(P01, "cpu-then-move")
    assert {273, 305} <= lines  # `torch.FloatTensor(B, 2).uniform_(-1, 1).to(args.device)`, B = imgs.shape[0]
    assert {265, 266, 271, 303} <= lines  # first contact's findings stay


def test_infogan_no_automatic_rewrite_of_draws() -> None:
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "paef_jupyter.cli", "scan", "--format", "json", str(P01)],
                         capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    fixable = {f["line"] for f in json.loads(out.stdout)["findings"] if f["fixable"]}
    assert not fixable & {271, 273, 303, 305}  # the device's generator draws other numbers: hints only
