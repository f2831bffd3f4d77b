"""Facts the rules beyond the paper rely on: `Facts.value_of` and the shared rule helpers
(hot loops, grad mode, loader loops, keyword and statement insertion)."""

from __future__ import annotations

import warnings
from pathlib import Path

import libcst as cst
import pytest
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset

from paef_jupyter.fix.apply import apply_edits
from paef_jupyter.static.facts import Facts
from paef_jupyter.static.rules._support import (
    grad_disabled,
    hot_loop,
    insert_after,
    iterated_name,
    torch_alias,
    with_keyword,
)
from rule_fixtures import run_fixture

FIXTURES = Path(__file__).parent / "fixtures" / "rules"


def facts_of(code: str) -> Facts:
    return Facts(cst.parse_module(code))


def names(facts: Facts, name: str) -> list[cst.Name]:
    return [n for n in facts.walk(facts.module) if isinstance(n, cst.Name) and n.value == name]


def calls(facts: Facts, method: str) -> list[cst.Call]:
    return [c for c in facts.calls_in(facts.module) if isinstance(c.func, cst.Attribute) and c.func.attr.value == method]


# --- Facts.value_of ------------------------------------------------------------------------


def test_value_of_is_the_last_assignment_before_the_read() -> None:
    facts = facts_of("x = 1\ny = x\nx = 2\nz = x\n")
    reads = [n for n in names(facts, "x") if not isinstance(facts.parent(n), cst.AssignTarget)]
    assert [facts.code(facts.value_of(n)) for n in reads] == ["1", "2"]  # type: ignore[arg-type]


def test_value_of_is_none_for_parameters_loop_targets_and_unpacking() -> None:
    facts = facts_of("def f(a):\n    return a\nfor i in range(3):\n    print(i)\np, q = f(1), 2\nr, s = pair\n"
                     "t, *u = 1, 2, 3\nprint(p, r, t)\n")
    for name in ("a", "i", "p", "r", "t"):
        read = names(facts, name)[-1]
        assert facts.value_of(read) is None, name


def test_value_of_pairs_a_tuple_of_constants_element_for_element() -> None:
    facts = facts_of("BATCH, LATENT = 24, -6\nprint(BATCH, LATENT)\n")
    assert facts.code(facts.value_of(names(facts, "BATCH")[-1])) == "24"  # type: ignore[arg-type]
    assert facts.code(facts.value_of(names(facts, "LATENT")[-1])) == "-6"  # type: ignore[arg-type]


def test_value_of_keeps_function_scopes_apart() -> None:
    facts = facts_of("loss = 0\ndef step(model):\n    loss = model(1)\n    return loss\nprint(loss)\n")
    inner, outer = names(facts, "loss")[2], names(facts, "loss")[3]
    assert facts.code(facts.value_of(inner)) == "model(1)"  # type: ignore[arg-type]
    assert facts.code(facts.value_of(outer)) == "0"  # type: ignore[arg-type]


# --- hot loops -------------------------------------------------------------------------------

TRAIN = """\
import torch
model = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for x in [torch.randn(2)]:
        loss = model(x).sum()
        loss.backward()
        opt.step()
        a = loss.item()
    b = loss.item()
for v in range(3):
    c = torch.ones(1).item()
d = loss.item()
"""


def test_hot_loop_is_the_innermost_step_loop_only() -> None:
    facts = facts_of(TRAIN)
    a, b, c, d = calls(facts, "item")
    loop = hot_loop(facts, a)
    assert loop is not None and facts.position(loop.node).start.line == 5
    assert hot_loop(facts, b) is None  # once per epoch, after the batch loop
    assert hot_loop(facts, c) is None  # a plain loop, no model
    assert hot_loop(facts, d) is None  # after every loop


def test_iterated_name_sees_through_enumerate_and_tqdm() -> None:
    facts = facts_of("for i, b in enumerate(loader):\n    pass\nfor b in tqdm(loader):\n    pass\nfor b in f(loader):\n    pass\n")
    assert [iterated_name(loop) for loop in facts.loops] == ["loader", "loader", None]


# --- grad mode -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "off"),
    [
        ("import torch\nwith torch.no_grad():\n    y = m(x)\n", True),
        ("import torch\nwith torch.inference_mode():\n    y = m(x)\n", True),
        ("import torch\nwith torch.inference_mode(False):\n    y = m(x)\n", False),
        ("import torch\n@torch.no_grad()\ndef f():\n    y = m(x)\n", True),
        ("import torch\n@torch.inference_mode\ndef f():\n    y = m(x)\n", True),
        ("import torch\ntorch.set_grad_enabled(False)\ny = m(x)\n", True),
        ("import torch\ny = m(x)\ntorch.set_grad_enabled(False)\n", False),
        ("import torch\nwith torch.set_grad_enabled(True):\n    y = m(x)\n", False),
        ("import torch as T\nwith T.no_grad():\n    y = m(x)\n", True),
    ],
)
def test_grad_disabled(code: str, off: bool) -> None:
    facts = facts_of(code)
    call = next(c for c in facts.calls_in(facts.module) if isinstance(c.func, cst.Name) and c.func.value == "m")
    assert grad_disabled(facts, call) is off


def test_torch_alias() -> None:
    assert torch_alias(facts_of("import torch as T\n")) == "T"
    assert torch_alias(facts_of("import numpy\n")) is None


# --- edits -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("for i in range(2):\n    x = i\ny = 1\n", "for i in range(2):\n    x = i\nz = 0\ny = 1\n"),
        ("for i in range(2):\n    x = i\n", "for i in range(2):\n    x = i\nz = 0\n"),
        ("for i in range(2):\n    x = i", "for i in range(2):\n    x = i\nz = 0"),
        (
            "def f():\n    for i in range(2):\n        x = i\n    return x\n",
            "def f():\n    for i in range(2):\n        x = i\n    z = 0\n    return x\n",
        ),
    ],
)
def test_insert_after_a_loop_at_its_indent(code: str, expected: str) -> None:
    facts = facts_of(code)
    assert apply_edits(code, [insert_after(facts, facts.loops[0].node, "z = 0")]) == expected


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("f(a)", "f(a, k=True)"),
        ("f()", "f(k=True)"),
        ("f(a, k=False)", "f(a, k=True)"),
        ("f(\n    a,\n    b=1,\n)", "f(\n    a,\n    b=1, k=True,\n)"),
    ],
)
def test_with_keyword(call: str, expected: str) -> None:
    node = cst.parse_expression(call)
    assert isinstance(node, cst.Call)
    assert cst.Module(body=()).code_for_node(with_keyword(node, "k", cst.Name("True"))) == expected


# --- rewrites that must stay quiet on a CPU-only machine -----------------------------------------


def test_pinned_loader_rewrite_does_not_warn_without_a_gpu() -> None:
    """`pin_memory=True` warns on every epoch without an accelerator; the rewrite's
    `pin_memory=torch.cuda.is_available()` must not."""
    code = (FIXTURES / "pageable-transfer" / "train.out.py").read_text()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_fixture(code, "train.out.py")


# --- the six rules' rewrites compose ---------------------------------------------------------

SCRIPT = '''\
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(48, 8), torch.randint(0, 2, (48,))), batch_size=16, num_workers=2)
epoch_losses = []
for epoch in range(2):
    total = 0.0
    kept = []
    for x, y in loader:
        x = x.to(device)
        loss = F.cross_entropy(model(x), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        kept.append(loss)
    epoch_losses.append(total / len(loader))
correct = 0
for x, y in loader:
    correct += (model(x.to(device)).argmax(1) == y.to(device)).sum().item()
w = torch.randn(16)
scaled = torch.zeros_like(w)
for i in range(len(w)):
    scaled[i] = w[i] * 0.5 + 1
result = [epoch_losses, correct, torch.stack(kept).detach(), scaled]
'''


def test_rewrites_of_all_six_rules_compose_and_keep_results() -> None:
    from paef_jupyter.api import analyze_source
    from paef_jupyter.fix import apply_findings
    from rule_fixtures import assert_same

    mine = ["host-sync", "graph-retention", "eval-without-no-grad", "pageable-transfer", "elementwise-loop", "sync-dataloader"]
    report = analyze_source(SCRIPT, rules=mine)
    assert {f.rule for f in report.findings if f.fixable} == set(mine) - {"sync-dataloader"}
    fixed, applied, skipped = apply_findings(SCRIPT, report.findings)
    assert skipped == [] and len(applied) == sum(f.fixable for f in report.findings)
    assert "with torch.no_grad():\n    for x, y in loader:" in fixed
    assert_same(run_fixture(SCRIPT, "before.py"), run_fixture(fixed, "after.py"))
    again = analyze_source(fixed, rules=mine)
    assert not any(f.fixable for f in again.findings)


# --- loaders built in an earlier cell (the live namespace) ------------------------------------

LOOP_CELL = """\
for x, y in loader:
    x = x.to(device)
    loss = (model(x) - y.to(device)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


class _PythonDataset(Dataset):
    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> tuple[torch.Tensor, torch.Tensor]:
        return torch.full((2,), float(i)), torch.zeros(1)


def _namespace(**loader_args: object) -> dict[str, object]:
    dataset = loader_args.pop("dataset", TensorDataset(torch.randn(8, 2), torch.randn(8, 1)))
    model = torch.nn.Linear(2, 1)
    return {
        "torch": torch, "device": "cuda", "model": model,
        "optimizer": torch.optim.SGD(model.parameters(), lr=0.1),
        "loader": DataLoader(dataset, batch_size=4, **loader_args),  # type: ignore[arg-type]
    }


def _findings(rule: str, namespace: dict[str, object]) -> list[tuple[int, bool]]:
    from paef_jupyter.api import analyze_source

    return [(f.line, f.fixable) for f in analyze_source(LOOP_CELL, namespace=namespace, rules=[rule]).findings]


def test_live_loader_without_pinning_gets_a_hint_at_the_copy() -> None:
    assert _findings("pageable-transfer", _namespace(num_workers=2)) == [(2, False)]
    assert _findings("pageable-transfer", _namespace()) == []  # a single-process loader (label49)


def test_live_pinned_loader_gets_non_blocking_rewrites() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pin_memory=True without a GPU warns when iterated, not here
        namespace = _namespace(pin_memory=True)
    assert _findings("pageable-transfer", namespace) == [(2, True), (3, True)]


def test_live_loader_on_cpu_device_is_quiet() -> None:
    namespace = _namespace()
    namespace["device"] = "cpu"
    assert _findings("pageable-transfer", namespace) == []


def test_live_loader_with_python_getitem_and_no_workers() -> None:
    assert _findings("sync-dataloader", _namespace(dataset=_PythonDataset())) == [(1, False)]
    assert _findings("sync-dataloader", _namespace()) == []  # TensorDataset: indexing only
    assert _findings("sync-dataloader", _namespace(dataset=_PythonDataset(), num_workers=1)) == []


def _cells_findings(loader_cell: str) -> list[tuple[int | None, int, bool]]:
    """`paef scan` of a notebook: no kernel, the loader built in the cell before the loop."""
    from paef_jupyter.model import CellRef, SourceUnit
    from paef_jupyter.static.analyzer import analyze_units

    setup = "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\ndevice = 'cuda'\n" \
        "model = torch.nn.Linear(2, 1).to(device)\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate((setup, loader_cell, LOOP_CELL))]
    report = analyze_units(units, rules=["pageable-transfer"])
    return [(f.ref.cell, f.line, f.fixable) for f in report.findings]


def test_loader_from_an_earlier_cell_without_a_kernel_is_pinned_in_its_own_cell() -> None:
    """The loader's cell sees the later loop (`paef scan` of the notebook): the pin is applied
    there, automatically; the loop's cell reports nothing more."""
    cell = "loader = DataLoader(TensorDataset(torch.randn(8, 2), torch.randn(8, 1)), batch_size=4, num_workers=2)\n"
    assert _cells_findings(cell) == [(1, 1, True)]


@pytest.mark.parametrize("cell", [
    "loader = DataLoader(TensorDataset(torch.randn(8, 2), torch.randn(8, 1)), batch_size=4, pin_memory=True)\n",
    "opts = loader_options()\nloader = DataLoader(TensorDataset(torch.randn(8, 2), torch.randn(8, 1)), **opts)\n",
    "loader = DataLoader(TensorDataset(torch.randn(8, 2, device=device), torch.randn(8, 1, device=device)), batch_size=4)\n",
    "loader = [(torch.randn(4, 2), torch.randn(4, 1))]\n",
])
def test_loader_from_an_earlier_cell_pinned_opaque_on_device_or_not_a_loader_is_quiet(cell: str) -> None:
    assert _cells_findings(cell) == []



DATASET_CELL = (
    "import torch\nfrom torch.utils.data import DataLoader, Dataset\ndevice = 'cuda'\nMEAN = [0.5, 0.4]\n\n"
    "class Images(Dataset):\n    def __init__(self, n):\n        self.x = torch.rand(n, 2, 3)\n\n"
    "    def __len__(self):\n        return len(self.x)\n\n"
    "    def __getitem__(self, i):\n        mean = torch.tensor(MEAN).view(2, 1)\n        return self.x[i] - mean\n"
)


@pytest.mark.parametrize("loader_cell", [
    "train_dl = DataLoader(Images(8), batch_size=4)\n",
    "train_ds = Images(8)\ntrain_dl = DataLoader(dataset=train_ds, batch_size=4)\n",
])
def test_a_loop_over_an_earlier_cells_loader_runs_its_datasets_getitem(loader_cell: str) -> None:
    """The dataset class in one cell, the loader in the next, the training loop in a third: the
    loop runs `Images.__getitem__` per sample, as it does when all three are in one script."""
    from paef_jupyter.model import CellRef, SourceUnit
    from paef_jupyter.static.analyzer import analyze_units

    loop = "model = torch.nn.Linear(3, 1).to(device)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n" \
        "for x in train_dl:\n    loss = model(x.to(device)).mean()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
    cells = [DATASET_CELL, loader_cell, loop]
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    found = [(f.ref.cell, f.line) for f in analyze_units(units, rules=["redundant-tensor"]).findings]
    assert found == [(0, 14)]
    script = SourceUnit(CellRef("train.py"), "\n".join(cells))
    assert [f.line for f in analyze_units([script], rules=["redundant-tensor"]).findings] == [14]


# --- guards on automatic rewrites that the fixture harness cannot express -----------------------


def _fixable(rule: str, path: str) -> list[tuple[int, bool]]:
    from paef_jupyter.api import analyze_source

    text = (FIXTURES / rule / path).read_text()
    return [(f.line, f.fixable) for f in analyze_source(text, rules=[rule]).findings]


def test_elementwise_rewrite_needs_out_made_like_the_same_tensor() -> None:
    # `t` is rebound between `zeros_like(t)` and the loop: `out[:] = t * 2` would not broadcast
    assert _fixable("elementwise-loop", "pos_rebound_between.py") == [(6, False)]


def test_host_sync_rewrite_is_a_hint_when_a_helper_reads_the_total() -> None:
    assert _fixable("host-sync", "helper_reads_total.in.py") == [(19, False), (26, True)]


def test_eval_rewrite_is_a_hint_in_a_generator() -> None:
    assert _fixable("eval-without-no-grad", "pos_generator_hint.py") == [(7, False)]


def test_torch_alias_from_an_earlier_cell() -> None:
    from paef_jupyter.api import analyze
    from paef_jupyter.model import CellRef, SourceUnit

    cells = [
        "import torch as T\nmodel = T.nn.Linear(2, 2).to('cuda' if T.cuda.is_available() else 'cpu')\nopt = T.optim.SGD(model.parameters(), lr=0.1)\n",
        "total = 0.0\nfor i in range(3):\n    loss = model(T.randn(2)).sum()\n    loss.backward()\n"
        "    opt.step()\n    total += loss.item()\n",
    ]
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(cells)]
    (finding,) = analyze(units, rules=["host-sync"]).findings
    assert finding.fixable and "T.as_tensor(total).item()" in finding.fix.edits[-1].text  # type: ignore[union-attr]


# --- kinds through unpacking and augmented assignment; calls a site reaches ------------------


def test_unpacked_names_take_the_kind_of_their_element_not_a_value() -> None:
    from paef_jupyter.static.types import Kind

    facts = facts_of("import torch\nimport numpy as np\nout = torch.randn(4, 3)\nimages, ids = out.to('cpu'), [1, 2]\n"
                     "_, top = torch.max(out, 1)\nvals, idx = out.topk(2)\na, b = b, a\nprint(images, ids, top, idx, a)\n")
    kinds = {n: facts.kind(names(facts, n)[-1]) for n in ("images", "ids", "top", "idx", "a")}
    assert kinds["images"] is Kind.TENSOR and kinds["ids"] is Kind.LIST
    assert kinds["top"] is Kind.TENSOR and kinds["idx"] is Kind.TENSOR
    assert kinds["a"] is Kind.UNKNOWN  # a swap: no recursion, nothing known
    assert facts.value_of(names(facts, "images")[-1]) is None  # a kind, never a value to hoist or copy


def test_a_number_that_a_tensor_is_added_to_is_a_tensor_from_there_on() -> None:
    from paef_jupyter.static.types import Kind

    facts = facts_of("import torch\nloss = 0\nn = 0\nfor t in range(3):\n    loss += torch.randn(())\n    n += 1\n"
                     "print(loss, n)\n")
    assert facts.kind(names(facts, "loss")[-1]) is Kind.TENSOR
    assert facts.kind(names(facts, "n")[-1]) is not Kind.TENSOR


@pytest.mark.parametrize(("call", "steps"), [
    ("loss_batch(model, xb, yb)", False),
    ("loss_batch(model, xb, yb, opt)", True),
    ("loss_batch(model, xb, yb, opt=opt)", True),
    ("loss_batch(model, *batch)", True),  # what a star fills is not known
    ("loss_rebound(model, xb, yb)", True),  # `opt = opt or default`: set after all
    ("Runner().run(model, xb, yb)", False),  # a method: `self` is bound by the attribute
])
def test_a_branch_on_an_optional_argument_left_unset_is_not_reached(call: str, steps: bool) -> None:
    from paef_jupyter.static.facts import calls_reached

    code = (
        "def loss_batch(model, xb, yb, opt=None):\n    loss = model(xb)\n    if opt is not None:\n"
        "        loss.backward()\n        opt.step()\n    return loss\n\n"
        "def loss_rebound(model, xb, yb, opt=None):\n    opt = opt or default\n    loss = model(xb)\n"
        "    if opt:\n        loss.backward()\n    return loss\n\n"
        "class Runner:\n    def run(self, model, xb, yb, opt=None):\n        loss = model(xb)\n"
        "        if opt is not None:\n            loss.backward()\n        return loss\n\n"
        f"out = {call}\n"
    )
    facts = facts_of(code)
    site = facts.calls_in(facts.module.body[-1])[0]
    [func] = facts._callees(site)
    reached = {c.func.attr.value for c in calls_reached(facts, func, site) if isinstance(c.func, cst.Attribute)}
    assert ("backward" in reached) is steps


def test_a_methods_parameters_take_kinds_from_calls_on_an_instance() -> None:
    from paef_jupyter.static.types import Kind

    facts = facts_of("import torch.nn as nn\nclass Net(nn.Module):\n    pass\n\nclass Trainer:\n"
                     "    def predict(self, module, loader):\n        return [module(x) for x in loader]\n\n"
                     "trainer = Trainer()\nother = object()\nlit = Net()\ntrainer.predict(lit, [])\nother.predict(3, [])\n")
    module = next(n for n in names(facts, "module") if isinstance(facts.parent(n), cst.Call))
    assert facts.kind(module) is Kind.MODULE


def test_per_iteration_functions_survive_a_loop_over_an_attribute() -> None:
    """A loop over `self.ts` asks for a parameter's kind while the loops are classified: what a
    training loop runs unnamed (`__call__`, `__getitem__`, `forward`) still counts after."""
    facts = facts_of(
        "import torch\n"
        "class Compose:\n"
        "    def __init__(self, ts):\n        self.ts = ts\n"
        "    def __call__(self, x):\n        for t in self.ts:\n            x = t(x)\n        return x\n"
        "class Scale:\n    def __call__(self, x):\n        return x * torch.tensor(2.0)\n"
        "model = torch.nn.Linear(2, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "aug = Compose([Scale()])\n"
        "for x in [torch.ones(2)]:\n    loss = model(aug(x)).sum()\n    loss.backward()\n    opt.step()\n"
    )
    reached = {f.name.value for f in facts.per_iteration_functions}
    assert reached >= {"__call__"}
    assert sum(f.name.value == "__call__" for f in facts.per_iteration_functions) == 2


@pytest.mark.parametrize(("code", "kind"), [
    ("class D(torch.nn.Module):\n    def forward(self, x):\n        return torch.log_softmax(x, -1), len(x)\n"
     "d = D().to('cpu')\nlogp, n = d(torch.ones(2))\n", {"logp": "tensor", "n": "number"}),
    ("def pair(x):\n    return x.sum(), x.mean()\na, b = pair(torch.ones(2))\n", {"a": "tensor", "b": "tensor"}),
    # A torch GRU's call returns (output, h_n), both tensors (rec68: `forward_outputs`); the names
    # swapped, `dec` is the Linear, whose output unpacked by rows is not typed; an LSTM's second part is (h, c).
    ("enc, dec = torch.nn.Linear(2, 2), torch.nn.GRU(2, 2)\nout, h = dec(torch.ones(1, 2))\n", {"out": "tensor", "h": "tensor"}),
    ("enc, dec = torch.nn.GRU(2, 2), torch.nn.Linear(2, 2)\nout, h = dec(torch.ones(2, 2))\n", {"out": "unknown"}),
    ("dec = torch.nn.LSTM(2, 2)\nout, hc = dec(torch.ones(1, 2))\n", {"out": "tensor", "hc": "unknown"}),
])
def test_kinds_of_names_unpacked_from_calls(code: str, kind: dict[str, str]) -> None:
    """Each name of `a, b = f(...)` takes the kind of its place in every tuple `f` returns."""
    facts = facts_of("import torch\n" + code)
    for name, expected in kind.items():
        assert facts.kind(names(facts, name)[-1]).value == expected, name


HELPER_CELL = (
    "import torch\nSCALE = 1.0\n\n"
    "def causal_mask(n):\n    return torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)\n\n"
    "def scaled_mask(n):\n    return torch.triu(torch.ones(n, n)) * SCALE\n\n"
    "def noisy_mask(n):\n    return torch.rand(n, n) > 0.5\n"
)


@pytest.mark.parametrize(("call", "reported"), [
    ("causal_mask(4)", True),
    ("scaled_mask(4)", False),  # reads `SCALE`, which the loop changes
    ("noisy_mask(4)", False),  # a new draw per call
    ("causal_mask(step + 1)", False),  # the argument varies
])
def test_an_earlier_cells_helper_called_per_step_with_the_same_arguments(call: str, reported: bool) -> None:
    """A pure helper of an earlier cell that computes tensors, called in the loop's cell with
    loop-invariant arguments, rebuilds the same tensors every step: a hint at the call."""
    from paef_jupyter.model import CellRef, SourceUnit
    from paef_jupyter.static.analyzer import analyze_units

    loop = ("model = torch.nn.Linear(4, 4)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
            "for step in range(3):\n    SCALE = float(step)\n"
            f"    out = model(torch.randn(4, 4)).masked_fill({call}[:4, :4].bool(), 0.0)\n"
            "    out.sum().backward()\n    opt.step()\n")
    units = [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate((HELPER_CELL, loop))]
    report = analyze_units(units, rules=["redundant-tensor"])
    assert [(f.ref.cell, f.line) for f in report.findings if f.ref.cell == 1] == ([(1, 5)] if reported else [])
