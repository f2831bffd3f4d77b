"""Public check 46: a legacy constructor sized by an int read off a tensor (`B = imgs.shape[0]`;
`torch.FloatTensor(B, 2).uniform_(-1, 1).to(device)` in InfoGAN's loop) allocates by size, not data.
The input is an own-written shape of the public program (tests/fixtures/public_shapes/check46/)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# own-written shape of public check 46 p01 (the copy is kept out of the repository)
P01 = ROOT / "tests" / "fixtures" / "public_shapes" / "check46" / "infogan_codes.py"


def _lines(path: Path, rule: str) -> set[int]:
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "paef_jupyter.cli", "scan", "--format", "json", "--rule", rule, str(path)],
                         capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    return {f["line"] for f in json.loads(out.stdout)["findings"]}


def test_infogan_uniform_codes_found() -> None:
    lines = _lines(P01, "cpu-then-move")
    assert {59, 73} <= lines  # `torch.FloatTensor(n, 2).uniform_(-1, 1).to(opts.device)`, n = real.shape[0]
    assert {53, 54, 57, 71} <= lines  # first contact's findings stay


def test_infogan_no_automatic_rewrite_of_draws() -> None:
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "paef_jupyter.cli", "scan", "--format", "json", str(P01)],
                         capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    fixable = {f["line"] for f in json.loads(out.stdout)["findings"] if f["fixable"]}
    assert not fixable & {57, 59, 71, 73}  # the device's generator draws other numbers: hints only
