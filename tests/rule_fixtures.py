"""Discovery and execution of rule fixtures (TorchFix-style `.in.py`/`.out.py` pairs).

Layout, per rule: `tests/fixtures/rules/<rule-id>/`
- `pos_*.py`: every line marked `# <-- <rule-id>` must get a finding of that rule starting on
  it, and no other line may; a positive may also mark lines for other rules (one program for
  rules that read the same fact, kept in the folder of the first): each rule it marks is checked;
- `neg_*.py`: no finding of that rule;
- `refuse_*.py`: a rewrite the rule must refuse: every line marked `# <-- <rule-id>` gets a
  finding of that rule (a hint, or a rewrite marked for review) and none of the rule's
  findings in the file carries an automatic (proved-safe) fix;
- `<name>.in.py` + `<name>.out.py`: applying the rule's automatic fixes to `.in.py` gives
  exactly `.out.py`; both are executed on the same seed and their `result` compared (a
  fixture that calls `init_process_group` runs on 2 gloo ranks: `ddp_runner`);
- `review_<name>.in.py` + `.out.py`: the same for a rewrite offered for review (`--unsafe`):
  it changes what the program computes by design (what it changes is checked by its own test,
  `test_ddp_rules.py` for the `ddp-*` rules), so only the text is compared here.
"""

from __future__ import annotations

import re
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
MARK = re.compile(r"#\s*<--\s*([a-z-]+)")


def rule_dirs() -> list[Path]:
    return sorted(p for p in FIXTURES.iterdir() if p.is_dir())


def positives() -> list[Path]:
    return sorted(FIXTURES.glob("*/pos_*.py"))


def negatives() -> list[Path]:
    return sorted(FIXTURES.glob("*/neg_*.py"))


def refusals() -> list[Path]:
    return sorted(FIXTURES.glob("*/refuse_*.py"))


def pairs() -> list[tuple[Path, Path]]:
    return [(p, _out(p)) for p in sorted(FIXTURES.glob("*/*.in.py")) if not p.name.startswith("review_")]


def review_pairs() -> list[tuple[Path, Path]]:
    return [(p, _out(p)) for p in sorted(FIXTURES.glob("*/review_*.in.py"))]


def _out(path: Path) -> Path:
    return path.with_name(path.name.replace(".in.py", ".out.py"))


def marked_rules(text: str, rule: str) -> list[str]:
    """The folder's rule first, then every other rule the fixture marks lines for."""
    return [rule, *sorted(set(MARK.findall(text)) - {rule})]


def marked_lines(text: str, rule: str) -> set[int]:
    return {i for i, line in enumerate(text.splitlines(), 1) if any(m == rule for m in MARK.findall(line))}


def run_fixture(code: str, filename: str) -> object:
    """Execute fixture code on a fixed seed; its `result` is what the rewrite must keep. A
    data-parallel fixture runs on 2 gloo ranks: every rank's `result` and the files they wrote."""
    import linecache
    import random

    from ddp_runner import is_ddp_program, run_ranks

    if is_ddp_program(code):
        return run_ranks(code, filename)

    import numpy as np
    import torch

    torch.manual_seed(0)
    np.random.seed(0)
    random.seed(0)
    namespace: dict[str, object] = {"__name__": "__fixture__"}
    # Code that reads its own source (`torch.jit.script`, `inspect`) finds the text it runs, as it
    # would in a file: a rewrite's text has no file of its own.
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    exec(compile(code, filename, "exec"), namespace)
    assert "result" in namespace, f"{filename} must define `result`"
    return namespace["result"]


def assert_same(a: object, b: object, where: str = "result") -> None:
    import numpy as np
    import torch

    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        a_t, b_t = torch.as_tensor(a), torch.as_tensor(b)
        assert a_t.shape == b_t.shape, f"{where}: shape {tuple(a_t.shape)} != {tuple(b_t.shape)}"
        assert torch.allclose(a_t.double(), b_t.double(), rtol=1e-4, atol=1e-5), f"{where}: values differ"
    elif isinstance(a, np.ndarray):
        assert np.allclose(a, b, rtol=1e-4, atol=1e-5), f"{where}: values differ"
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), f"{where}: keys differ"  # type: ignore[union-attr]
        for k in a:
            assert_same(a[k], b[k], f"{where}[{k!r}]")  # type: ignore[index]
    elif isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), f"{where}: lengths differ"
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, float):
        assert abs(a - float(b)) <= 1e-5 + 1e-4 * abs(a), f"{where}: {a} != {b}"  # type: ignore[arg-type]
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"
