"""Red team 52 (blind, 10 programs: 3 projects, 2 notebooks, aimed at state kept inside modules and
forward passes) met 7 automatic rewrites on first contact, none harmful. 7 probes written after first
contact (not blind) met 5 automatic rewrites, 4 of them harmful eval-without-no-grad wraps. Three: a model built in
`main.py` from a local module's class (`from models import Net`) runs the forwards of the SUBMODULES it
holds (`self.body(x)`), which the rule's `_forward_needs_grad` / `_cached_by_forward` never read (the
call graph does not follow `self.body(x)` into another module). Under the wrap, a submodule caching its
standardised weight by version hands a graph-free weight to the next training step (the layer never
trains again), and a submodule taking forces with `torch.autograd.grad` raises. The fourth: the same
weight memoised in a module-level dict by a function the forward calls (harmful in one file too).

Fix (review, not refusal): `_local_module_forwards`: any class of a reached local module whose forward
(or a method it calls on `self`) asks for autograd, or which keeps a computed value on `self` and reads
it back, leaves the wrap to review; `_hand_memo`: a function the loop runs that stores a computed value
in a container it does not bind and reads it back. These tests pin them, near misses, and what held.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from redteam_units import REDTEAM

from paef_jupyter.api import analyze
from paef_jupyter.model import CellRef, SourceUnit

RULE = "eval-without-no-grad"


def _findings(path: Path, rule: str = RULE) -> list:
    """One rule's findings on a file or notebook read as `paef fix` reads it (its local modules too)."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text())["cells"]
        units = [SourceUnit(CellRef(str(path), i), "".join(c["source"])) for i, c in enumerate(cells)
                 if c["cell_type"] == "code"]
    else:
        units = [SourceUnit(CellRef(str(path), None), path.read_text())]
    return list(analyze(units, rules=[rule], follow_imports=True).findings)


def _fixable(path: Path, rule: str = RULE) -> dict[tuple[int | None, int], bool]:
    return {(f.ref.cell, f.line): f.fixable for f in _findings(path, rule)}


@pytest.mark.parametrize("project", ["rt52p_proj_ws_dict_cache", "rt52p_proj_ws_attr_cache", "rt52p_proj_ws_global_cache",
                                     "rt52p_proj_nested_forces", "rt52p_proj_nested_grad_mode"])
def test_the_probes_with_state_or_autograd_in_a_local_modules_submodule_are_for_review(project: str) -> None:
    found = _fixable(REDTEAM / project / "main.py")
    assert found and not any(found.values())


# What both programs do after building their model: train a step, then evaluate under autograd
# (the loop a `no_grad` wrap would take).
_TRAIN_THEN_EVALUATE = """opt = torch.optim.SGD({m}.parameters(), lr=0.1)
x = torch.randn(8, 4)
for epoch in range(2):
    loss = {m}(x).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    {m}.eval()
    total = 0.0
    for i in range(0, 8, 4):
        total += {m}(x[i:i + 4]).sum().item()
    {m}.train()
print(total)
"""

_MAIN = """import torch
from models import Net

model = Net()
""" + _TRAIN_THEN_EVALUATE.format(m="model")
_NET = """

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = Inner()
        self.head = nn.Linear(4, 1)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))
"""
_HEAD = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
_INNERS = {
    "version cache in a dict": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)
        self._cache = {}

    def forward(self, x):
        key = self.weight._version
        if key not in self._cache:
            self._cache.clear()
            self._cache[key] = self.weight / self.weight.norm()
        return F.linear(x, self._cache[key], self.bias)
""",
    "version cache on an attribute": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)
        self.w = None
        self.seen = -1

    def forward(self, x):
        if self.w is None or self.seen != self.weight._version:
            self.w = self.weight / self.weight.norm()
            self.seen = self.weight._version
        return F.linear(x, self.w, self.bias)
""",
    "cache through setattr": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)

    def forward(self, x):
        if not hasattr(self, 'w_n'):
            setattr(self, 'w_n', self.weight * 2)
        return F.linear(x, getattr(self, 'w_n'), self.bias)
""",
    "autograd.grad in forward": """class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.energy = nn.Linear(4, 1)

    def forward(self, x):
        x = x.clone().requires_grad_(True)
        return -torch.autograd.grad(self.energy(x).sum(), x, create_graph=True)[0]
""",
    "autograd.grad in a method forward calls": """class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.energy = nn.Linear(4, 1)

    def forces(self, x):
        return -torch.autograd.grad(self.energy(x).sum(), x, create_graph=True)[0]

    def forward(self, x):
        return self.forces(x.clone().requires_grad_(True))
""",
    "a tensor hook registered in forward": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)
        self.norms = []

    def forward(self, x):
        out = super().forward(x)
        out.register_hook(lambda g: g.clamp(-1, 1))
        return out
""",
    "retain_grad in forward": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)

    def forward(self, x):
        out = super().forward(x)
        out.retain_grad()
        return out
""",
    "a branch on grad_fn": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)
        self.calls = 0

    def forward(self, x):
        out = super().forward(x)
        if out.grad_fn is not None:
            self.calls += 1
        return out
""",
}
_NEAR_MISSES = {
    "a plain submodule": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)
""",
    "a detached value kept and read": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)
        self.last = None

    def forward(self, x):
        out = super().forward(x)
        self.last = out.detach()
        return out + 0 * self.last.mean()
""",
    "a call counter": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return super().forward(x)
""",
    "freezing in __init__, a fit method out of forward's reach": """class Inner(nn.Linear):
    def __init__(self):
        super().__init__(4, 4)
        self.bias.requires_grad_(False)

    def fit(self, x, opt):
        loss = self(x).pow(2).mean()
        loss.backward()
        opt.step()
""",
}


def _project(tmp_path: Path, inner: str, extra: dict[str, str] | None = None) -> dict[tuple[int | None, int], bool]:
    (tmp_path / "models.py").write_text(_HEAD + inner + _NET)
    for name, text in (extra or {}).items():
        (tmp_path / name).write_text(text)
    (tmp_path / "main.py").write_text(_MAIN)
    return _fixable(tmp_path / "main.py")


@pytest.mark.parametrize("inner", list(_INNERS.values()), ids=list(_INNERS))
def test_a_local_modules_submodule_with_state_or_autograd_leaves_the_wrap_for_review(
        tmp_path: Path, inner: str) -> None:
    assert _project(tmp_path, inner) == {(None, 14): False}


@pytest.mark.parametrize("inner", list(_NEAR_MISSES.values()), ids=list(_NEAR_MISSES))
def test_a_local_modules_plain_submodule_keeps_the_wrap_automatic(tmp_path: Path, inner: str) -> None:
    assert _project(tmp_path, inner) == {(None, 14): True}


_MEMO_MAIN = """import torch
import torch.nn as nn

{store}


def scaled(w):
{body}


class Net(nn.Linear):
    def forward(self, x):
        return x @ scaled(self.weight)


net = Net(4, 4)
""" + _TRAIN_THEN_EVALUATE.format(m="net")
_MEMOS = {
    "a dict memo by version": ("_MEMO = {}", """    key = w._version
    if key not in _MEMO:
        _MEMO[key] = w / w.norm()
    return _MEMO[key]"""),
    "a setdefault memo": ("_MEMO = {}", "    return _MEMO.setdefault(w._version, w / w.norm())"),
    "a memo read with get": ("_MEMO = {}", """    hit = _MEMO.get(w._version)
    if hit is None:
        hit = _MEMO[w._version] = w / w.norm()
    return hit"""),
}
_LOGS = {
    "a log only appended to": ("LOG = []", """    LOG.append(w.norm())
    return w / w.norm()"""),
    "a memo of a detached value": ("_MEMO = {}", """    if w._version not in _MEMO:
        _MEMO[w._version] = w.norm().item()
    return w / _MEMO[w._version]"""),
    "a local dict": ("", """    memo = {}
    memo[0] = w / w.norm()
    return memo[0]"""),
}


def _memo_fixable(store: str, body: str) -> list[bool]:
    text = _MEMO_MAIN.format(store=store, body=body)
    units = [SourceUnit(CellRef("p.py", None), text)]
    line = text.splitlines().index("    for i in range(0, 8, 4):") + 1
    return [f.fixable for f in analyze(units, rules=[RULE]).findings if f.line == line]


@pytest.mark.parametrize("store, body", list(_MEMOS.values()), ids=list(_MEMOS))
def test_a_hand_written_memo_the_loop_reads_back_leaves_the_wrap_for_review(store: str, body: str) -> None:
    assert _memo_fixable(store, body) == [False]


@pytest.mark.parametrize("store, body", list(_LOGS.values()), ids=list(_LOGS))
def test_a_log_or_a_detached_memo_keeps_the_wrap_automatic(store: str, body: str) -> None:
    assert _memo_fixable(store, body) == [True]


def test_a_caching_class_in_a_module_nobody_imports_keeps_the_wrap_automatic(tmp_path: Path) -> None:
    assert _project(tmp_path, _NEAR_MISSES["a plain submodule"],
                    {"unused.py": _HEAD + _INNERS["version cache in a dict"]}) == {(None, 14): True}


def test_the_same_classes_in_one_file_were_already_left_alone() -> None:
    """The single-file shapes the fix mirrors: the blind force field (autograd in forward, grad mode
    read) is not wrapped at all."""
    assert not any(_fixable(REDTEAM / "rt52_ev_force_fields.py").values())


def test_what_held_on_first_contact() -> None:
    # the hooks registering tensor hooks (hooks.py) keep the phases' evaluation for review
    assert not any(_fixable(REDTEAM / "rt52_proj_dp_phases" / "main.py").values())
    # the handed key encoder's kNN loop: review (already at first contact)
    assert _fixable(REDTEAM / "rt52_proj_moco" / "train.py") == {(None, 34): False}
    # the critic's evaluation after training (spectral norm's vectors do not move in eval): still wrapped
    assert _fixable(REDTEAM / "rt52_nb_replay_critic.ipynb").get((3, 15)) is True
    # the lazily built mask and position table (layers.py) keep values on the module: review since the fix
    assert _fixable(REDTEAM / "rt52_proj_lazy_tables" / "main.py") == {(None, 40): False}
