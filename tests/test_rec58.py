"""Recall 58 (issue 8): corpus misses fixed by the fact the analysis lacked, each new finding a
hint (`benchmarks/results/recall58.md`).

A table a function run every step builds on the host from its inputs' sizes alone (the batch size
included) and copies to the device (`rules/_sized_tables.py`): SimCLR's
`torch.eye(2 * n, dtype=torch.bool).to(z.device)`, SASRec's positions from `np.tile` of the input's
shape. `cpu-then-move` fixes the copy; the rebuild is the fact `redundant-tensor` lacked.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_path, analyze_source
from paef_jupyter.model import CellRef

CORPUS = Path(__file__).resolve().parent.parent / "benchmarks" / "corpus"
RT = "redundant-tensor"


def _lines(source: str, rule: str = RT) -> dict[int, bool]:
    report = analyze_source(source, CellRef("t.py"), rules=[rule])
    assert not report.errors
    return {f.line: f.fixable for f in report.findings if f.rule == rule}


def _program(helper: str, call: str = "table(out)") -> str:
    """`helper` defines `table(out)`; a training loop calls it on every step."""
    return (
        "import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        f"{helper}\n"
        "model = nn.Linear(4, 4).to(device)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "for step in range(3):\n"
        "    out = model(torch.randn(3, 4, device=device))\n"
        f"    loss = out.sum() + {call}.float().sum() * 0\n"
        "    opt.zero_grad()\n"
        "    loss.backward()\n"
        "    opt.step()\n"
    )


def _helper_line(helper: str, marker: str) -> int:
    return 5 + next(i for i, line in enumerate(helper.splitlines(), 1) if marker in line)


@pytest.mark.parametrize(("program", "line"), [("blind2_simclr.py", 36), ("blind2_simclr.py", 38),
                                              ("blind4_sasrec.py", 55)])
def test_corpus_tables_of_sizes_are_hints(program: str, line: int) -> None:
    found = [f for f in analyze_path(str(CORPUS / program), rules=[RT]).findings if f.line == line]
    assert len(found) == 1 and not found[0].fixable and found[0].fix is not None and not found[0].fix.edits


def test_cpu_then_move_keeps_its_fix_on_the_same_line() -> None:
    """The new hint is a second finding on `cpu-then-move`'s site: that rule's automatic fix stays."""
    found = {f.line: f.fixable for f in analyze_path(str(CORPUS / "blind2_simclr.py"), rules=["cpu-then-move"]).findings}
    assert found.get(36) is True and found.get(38) is True


# A firing helper and its near miss differ in the one fact the rule reads.
TWINS = [
    ("batch size, eye", "def table(out):\n    n = out.size(0)\n    return torch.eye(2 * n).to(out.device)  # T",
     "def table(out, n=3):\n    return torch.eye(2 * n).to(out.device) + out.sum() * 0  # T"),
    ("len of an input", "def table(out):\n    return torch.arange(len(out)).cuda()  # T",
     "def table(out):\n    return torch.ones(len(out)).cuda()  # T"),
    ("one binding", "def table(out):\n    n = out.size(0)\n    return torch.arange(n).to(out.device)  # T",
     "def table(out):\n    n = out.size(0)\n    if out.dim() > 1:\n        n = n + 1\n    return torch.arange(n).to(out.device)  # T"),
    ("not changed in place", "def table(out):\n    m = torch.eye(out.shape[0]).to(out.device)  # T\n    return m",
     "def table(out):\n    m = torch.eye(out.shape[0]).to(out.device)  # T\n    m[0, 0] = 2.0\n    return m"),
    ("a size, not a value", "def table(out):\n    return torch.arange(out.size(0)).to(out.device)  # T",
     "def table(out):\n    return torch.arange(int(out.abs().max()) + 1).to(out.device)  # T"),
    ("NumPy of sizes", "def table(out):\n    b, d = out.shape\n    return torch.from_numpy(np.tile(np.arange(d), (b, 1))).to(out.device)  # T",
     "def table(out):\n    b, d = out.shape\n    return torch.from_numpy(np.tile(np.random.rand(d), (b, 1))).to(out.device)  # T"),
    ("a copy, not a cast", "def table(out):\n    return torch.arange(out.size(0)).to(device)  # T",
     "def table(out):\n    return torch.arange(out.size(0)).to(torch.float32)  # T"),
]


@pytest.mark.parametrize(("name", "firing", "silent"), TWINS, ids=[t[0] for t in TWINS])
def test_twins(name: str, firing: str, silent: str) -> None:
    assert _lines(_program(firing)) == {_helper_line(firing, "# T"): False}
    assert _lines(_program(silent)) == {}


def test_in_the_loop_body_is_left_to_cpu_then_move() -> None:
    """The same table built in the loop's own body (CLIP's `torch.arange(len(images)).to(device)`,
    labelled cpu-then-move only in the corpus): not this fact's site."""
    source = _program("def table(out):\n    return out", call="table(out)").replace(
        "    loss = out.sum()", "    idx = torch.arange(out.size(0)).to(device)\n    loss = out.sum() + idx.sum() * 0 +")
    source = source.replace("+ table(out)", "table(out)")
    assert _lines(source) == {}
    line = 1 + next(i for i, text in enumerate(source.splitlines()) if "idx = torch.arange" in text)
    assert line in _lines(source, "cpu-then-move")


def test_called_once_before_the_loop_is_silent() -> None:
    helper = "def table(out):\n    return torch.arange(out.size(0)).to(out.device)"
    source = _program(helper).replace("for step in range(3):", "start = table(torch.zeros(3, 4))\nfor step in range(3):") \
        .replace("+ table(out).float().sum() * 0", "+ start.float().sum() * 0")
    assert _lines(source) == {}


def test_one_finding_when_a_factory_it_reads_is_reported() -> None:
    """`idx = torch.arange(T)` is reported as a length's table already: the moved table made from
    it is not reported a second time."""
    helper = ("def table(out):\n    T = out.size(1)\n    idx = torch.arange(T)  # T\n"
              "    return (idx[None, :] - idx[:, None]).to(out.device)")
    assert _lines(_program(helper)) == {_helper_line(helper, "# T"): False}


# --- names a loop rebuilds from loop-invariant data (`rules/_rebuilt_chains.py`) -------------------

GAT = (CORPUS / "blind6_gat_dense.py").read_text()


def test_corpus_adjacency_rebuilt_each_epoch() -> None:
    """pyGAT's dense adjacency rebuilt in the epoch loop: the buffer's start (cpu-function, line 72)
    and the tensor made from it (redundant-tensor, line 75), both hints; `np.eye`'s automatic fix
    (line 74) stays as it was."""
    assert _lines(GAT, "cpu-function") == {72: False, 74: True}
    assert _lines(GAT) == {75: False}


def _loop(body: str) -> str:
    return ("import numpy as np\nimport torch\nN = 6\nedges = np.array([[0, 1], [2, 3]])\nout = []\n"
            "for step in range(3):\n" + "".join(f"    {line}\n" for line in body.splitlines()) +
            "    out.append(float(adj.sum()))\n")


CHAIN = "adj = np.zeros((N, N))\nadj[edges[:, 0], edges[:, 1]] = 1.0\nadj = adj + adj.T\nadj = torch.tensor(adj)"
CHAIN_TWINS = [
    ("the step's own index", "adj[edges[:, 0], edges[:, 1]] = 1.0", "adj[edges[:, 0], step % 2] = 1.0"),
    ("a number of the step", "adj = adj + adj.T", "adj = adj + adj.T * step"),
    ("changed later", "adj = torch.tensor(adj)", "adj = torch.tensor(adj)\nadj.add_(step)"),
    ("read before", "adj = np.zeros((N, N))", "last = adj if step else None\nadj = np.zeros((N, N))"),
    ("under a condition", "adj[edges[:, 0], edges[:, 1]] = 1.0",
     "if step:\n    adj[edges[:, 0], edges[:, 1]] = 1.0"),
]


@pytest.mark.parametrize(("name", "old", "new"), CHAIN_TWINS, ids=[t[0] for t in CHAIN_TWINS])
def test_chain_twins(name: str, old: str, new: str) -> None:
    firing = _loop(CHAIN)
    assert _lines(firing, "cpu-function") == {7: False} and _lines(firing) == {10: False}
    silent = _loop(CHAIN.replace(old, new))
    assert _lines(silent, "cpu-function") == {} and _lines(silent) == {}
