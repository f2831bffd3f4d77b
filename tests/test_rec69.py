"""Recall 69: facts the analysis lacked (benchmarks/results/rec69.md).

1. A batch unpacked from a loop's batch (`b, _ = data` of `for i, data in enumerate(loader)`) and a
   loader handed in (a parameter every seen call fills, `self.<attr>`, a tuple a helper returns, an
   earlier cell, a local module) is a host DataLoader's batch (`device_use.host_loader`; public
   check 62's p01 `torch.zeros_like(b).cuda()`).
2. Nested tuple targets are typed (`out, (h, c) = self.lstm(x)`, `logits, (a, b) = model(x)`).
3. Flags false through a dict literal's entry and a helper's returns; code after a guard that always
   leaves is dead; dead code gets no finding.
4. A call's keyword (`input_lengths=`) is no read of a variable of that name (`reads_of`).
5. A data-parallel wrapper's call is a call site of the wrapped module's `forward`; `self.forward(...)`
   is its own class's (or a subclass's) call.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst
import pytest

from paef_jupyter.api import analyze_path, analyze_source, analyze_units
from paef_jupyter.model import CellRef, SourceUnit
from paef_jupyter.static.constant_flags import always_false, in_dead_branch
from paef_jupyter.static.device_use import uses_device
from paef_jupyter.static.facts import Facts
from paef_jupyter.static.types import Kind

FIXTURES = Path(__file__).parent / "fixtures"


def _facts(source: str) -> Facts:
    return Facts(cst.parse_module(textwrap.dedent(source)))


def _lines(source: str, rule: str, name: str = "train.py") -> list[int]:
    report = analyze_source(textwrap.dedent(source), CellRef(name), rules=[rule])
    assert not report.errors
    return sorted(f.line for f in report.findings)


# --- 1. batches of a loader handed in -----------------------------------------------------------

SIMCLR = """\
import torch
import torch.utils.data as data


def augment(x):
    return x.flip(-1)


def dataloader(bs):
    ds = data.TensorDataset(torch.randn(16, 3), torch.zeros(16))
    trainloader = torch.utils.data.DataLoader(ds, batch_size=bs, shuffle=True)
    testloader = torch.utils.data.DataLoader(ds, batch_size=bs)
    return trainloader, testloader


def simclr(net, optimizer, trainloader):
    for i, data in enumerate(trainloader, 0):
        b, _ = data
        optimizer.zero_grad()
        x_1 = torch.zeros_like(b).cuda()
        for idx, x in enumerate(b):
            x_1[idx] = augment(x)
        loss = net(x_1).sum()
        loss.backward()
        optimizer.step()


net = torch.nn.Linear(3, 1).cuda()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
trainloader, testloader = dataloader(4)
for epoch in range(2):
    simclr(net, opt, trainloader)
"""


def test_zeros_like_of_a_batch_unpacked_from_a_passed_loader_is_reported() -> None:
    """Public check 62's p01 shape: the loader is a parameter, filled by a tuple a helper returns."""
    report = analyze_source(SIMCLR, CellRef("train.py"), rules=["cpu-then-move"])
    assert [(f.line, f.fixable) for f in report.findings] == [(20, True)]
    assert "zeros_like" in report.findings[0].message


@pytest.mark.parametrize("change", [
    ("simclr(net, opt, trainloader)", "simclr(net, opt, trainloader)\n    simclr(net, opt, [(torch.randn(4, 3, device='cuda'), 0)])"),
    ("simclr(net, opt, trainloader)", "simclr(net, opt, *[trainloader])"),  # handed through `*args`
    ("    return trainloader, testloader", "    return trainloader, testloader\n    return [], []"),
    ("batch_size=bs, shuffle=True)", "batch_size=bs, shuffle=True, collate_fn=lambda s: s)"),  # a collate not seen
    ("        b, _ = data\n", "        b, _ = data\n        b = b.cuda()\n"),  # moved before `zeros_like`
])
def test_a_loader_that_may_not_be_a_host_dataloader_keeps_it_silent(change: tuple[str, str]) -> None:
    old, new = change
    assert old in SIMCLR
    assert _lines(SIMCLR.replace(old, new, 1), "cpu-then-move") == []


def test_a_function_with_no_seen_call_is_not_given_a_loader() -> None:
    assert _lines(SIMCLR.replace("    simclr(net, opt, trainloader)\n", "    pass\n"), "cpu-then-move") == []


def test_loader_of_an_earlier_cell_handed_to_a_function() -> None:
    setup = ("import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
             "loader = DataLoader(TensorDataset(torch.randn(8, 3), torch.zeros(8)), batch_size=2)\n")
    train = ("def run(net, loader):\n    for batch in loader:\n        xb, yb = batch\n"
             "        pad = torch.zeros_like(yb).cuda()\n        net(xb.cuda()).sum().backward()\n\n\n"
             "net = torch.nn.Linear(3, 1).cuda()\nfor epoch in range(2):\n    run(net, loader)\n")
    report = analyze_units([SourceUnit(CellRef("nb.ipynb", 0), setup), SourceUnit(CellRef("nb.ipynb", 1), train)],
                           rules=["cpu-then-move"])
    assert [(f.ref.cell, f.line) for f in report.findings] == [(1, 4)]


def test_loader_of_a_local_module(tmp_path: Path) -> None:
    (tmp_path / "data.py").write_text(
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n\n\n"
        "def loaders(bs):\n    ds = TensorDataset(torch.randn(8, 3), torch.zeros(8))\n"
        "    return DataLoader(ds, batch_size=bs), DataLoader(ds, batch_size=bs)\n")
    script = tmp_path / "train.py"
    script.write_text(
        "import torch\nfrom data import loaders\n\n\n"
        "def fit(net, loader):\n    for i, batch in enumerate(loader):\n        xb, yb = batch\n"
        "        w = torch.ones_like(yb).cuda()\n        net(xb.cuda()).sum().backward()\n\n\n"
        "net = torch.nn.Linear(3, 1).cuda()\ntrain, test = loaders(2)\nfor epoch in range(2):\n    fit(net, train)\n")
    found = [(Path(f.ref.path).name, f.line) for f in analyze_path(str(script)).findings if f.rule == "cpu-then-move"]
    assert found == [("train.py", 8)]


# --- 2. nested tuple targets --------------------------------------------------------------------

NESTED = """\
import torch
import torch.nn as nn

class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(3, 4, batch_first=True)
        self.gru = nn.GRU(3, 4)
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.head(out[:, -1]), (h, c)

    def relay(self, x):
        out, hidden = self.lstm(x)
        return out, hidden

def helper(x):
    return x, (["a"], 3)

def train(model, x):
    logits, (a, b) = model(x)
    o, (r1, r2) = model.relay(x)
    y, (names, n) = helper(x)
    g, (p, q) = nn.GRU(3, 4)(x)
    w, (same, same) = model(x)
    return a, b, r1, r2, names, n, p, same

model = Enc()
for step in range(3):
    train(model, torch.randn(2, 5, 3))
"""


def test_nested_tuple_targets_are_typed_where_every_return_says_so() -> None:
    facts = _facts(NESTED)
    returned = next(n for n in facts.walk(facts.module) if isinstance(n, cst.Return)
                    and isinstance(n.value, cst.Tuple) and len(n.value.elements) == 8)
    kinds = {facts.code(el.value): facts.kind(el.value) for el in returned.value.elements}  # type: ignore[union-attr]
    assert kinds == {"a": Kind.TENSOR, "b": Kind.TENSOR, "r1": Kind.TENSOR, "r2": Kind.TENSOR,
                     "names": Kind.LIST, "n": Kind.NUMBER, "p": Kind.UNKNOWN, "same": Kind.UNKNOWN}


def test_lstm_state_read_by_the_forward_itself() -> None:
    facts = _facts(NESTED)
    h = [n for n in facts.walk(facts.module) if isinstance(n, cst.Name) and n.value in ("h", "c")]
    assert h and all(facts.kind(n) is Kind.TENSOR for n in h)


def test_a_gru_state_unpacked_as_a_pair_is_not_typed() -> None:
    """A GRU's second part is one tensor: unpacking it into two names says nothing of a pair."""
    facts = _facts(NESTED)
    p = next(n for n in facts.walk(facts.module) if isinstance(n, cst.Name) and n.value == "p")
    assert facts.kind(p) is not Kind.TENSOR


def test_nested_state_fixture_reports_both_branches() -> None:
    pos = FIXTURES / "rules" / "host-sync" / "pos_nested_state_of_a_recurrent_model.py"
    report = analyze_source(pos.read_text(), CellRef(str(pos)), rules=["host-sync"])
    assert sorted(f.line for f in report.findings) == [18, 30]


# --- 3. flags false through containers, calls and guards ----------------------------------------

FLAGS = """\
import torch
cfg = {"cuda": False, "lr": 0.1}
opts = {"lr": 0.1}

def get_flag():
    return False

def use_gpu():
    if cfg["cuda"]:
        return True
    return None

def place(t):
    if not cfg["cuda"]:
        return t
    return t.cuda()

if cfg["cuda"]:
    pass
if get_flag():
    pass
if use_gpu():
    pass
if opts.get("cuda"):
    pass
if cfg.get("cuda", True):
    pass
"""


def _tests(facts: Facts) -> dict[str, bool]:
    return {facts.code(n.test): always_false(facts, n.test) for n in facts.walk(facts.module) if isinstance(n, cst.If)}


def test_dict_entries_and_helper_returns_false_on_every_path() -> None:
    facts = _facts(FLAGS)
    assert _tests(facts) == {'cfg["cuda"]': True, 'not cfg["cuda"]': False, "get_flag()": True, "use_gpu()": True,
                             'opts.get("cuda")': True, 'cfg.get("cuda", True)': True}
    move = next(n for n in facts.walk(facts.module) if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)
                and n.func.attr.value == "cuda")
    assert in_dead_branch(facts, move)  # after `if not cfg["cuda"]: return t`
    assert not uses_device(facts)


@pytest.mark.parametrize("change", [
    'cfg["cuda"] = torch.cuda.is_available()',  # a store of the entry
    "cfg.update(cuda=True)",  # a method that may change it
    "setup(cfg)",  # handed to code that may change it
    "cfg = dict(cuda=True)",  # another binding, not a literal
    'cfg = {"cuda": torch.cuda.is_available()}',
    "def get_flag():\n    return torch.cuda.is_available()",  # redefined
    "flag_fn = get_flag",  # the function read as a value (may be called anywhere)
])
def test_a_flag_some_path_may_turn_on_is_open(change: str) -> None:
    facts = _facts(FLAGS + "\n" + change + "\n")
    tests = _tests(facts)
    if "get_flag" in change:
        assert tests["get_flag()"] is False
    else:
        assert tests['cfg["cuda"]'] is False


@pytest.mark.parametrize("guard", ["if not cfg['cuda']:\n        print('cpu')\n",  # the body does not leave
                                   "if not torch.cuda.is_available():\n        return t\n",  # may be false
                                   "if cfg['lr']:\n        return t\n"])
def test_a_guard_that_may_not_leave_keeps_the_move(guard: str) -> None:
    source = FLAGS.replace("    if not cfg[\"cuda\"]:\n        return t\n", "    " + guard)
    facts = _facts(source)
    move = next(n for n in facts.walk(facts.module) if isinstance(n, cst.Call) and isinstance(n.func, cst.Attribute)
                and n.func.attr.value == "cuda")
    assert not in_dead_branch(facts, move)


def test_dead_code_gets_no_finding_of_any_rule() -> None:
    """Public check 61's p05: `init_hidden(gpu)` with `gpu` false on every path; the randn under
    `if gpu:` was reported by cpu-then-move (a rule that does not ask `uses_device`)."""
    source = """\
        import torch
        import torch.nn as nn
        GPU = False

        class Tagger(nn.Module):
            def __init__(self, gpu):
                super().__init__()
                self.gpu = gpu
                self.lin = nn.Linear(3, 2)

            def init_hidden(self, gpu):
                if gpu:
                    return torch.randn(2, 1, 4).cuda()
                return torch.randn(2, 1, 4)

            def forward(self, x):
                return self.lin(x) + self.init_hidden(self.gpu).sum()

        model = Tagger(GPU)
        for step in range(3):
            model(torch.randn(4, 3)).sum().backward()
    """
    report = analyze_source(textwrap.dedent(source), CellRef("t.py"))
    assert [f for f in report.findings if f.line == 13] == []
    loud = analyze_source(textwrap.dedent(source).replace("GPU = False", "GPU = torch.cuda.is_available()"),
                          CellRef("t.py"), rules=["cpu-then-move"])
    assert [f.line for f in loud.findings] == [13]


# --- 4. keywords are no reads -------------------------------------------------------------------

def test_length_tensors_named_like_ctc_keywords_are_still_round_trips() -> None:
    """Public check 62: `input_lengths=` of a later call looked like a read of `input_lengths`."""
    ctc = FIXTURES / "public_shapes" / "check62" / "ctc_step_lengths.py"
    text = ctc.read_text().replace("in_lens", "input_lengths").replace("tgt_lens", "target_lengths")
    report = analyze_source(text, CellRef(str(ctc)), rules=["ping-pong"])
    assert sorted(f.line for f in report.findings) == [24, 25, 28]


# --- 5. data-parallel wrappers and `self.forward` -----------------------------------------------

def test_rebound_wrapper_and_own_self_forward() -> None:
    pos = FIXTURES / "rules" / "elementwise-loop" / "pos_rows_in_forward_of_a_wrapped_model.py"
    report = analyze_source(pos.read_text(), CellRef(str(pos)), rules=["elementwise-loop"])
    assert sorted(f.line for f in report.findings) == [18, 31]


def test_tuple_outputs_of_a_wrapped_model_are_typed() -> None:
    facts = _facts("""
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 2)

            def forward(self, x):
                y = self.lin(x)
                return y, y.sum()

        model = nn.DataParallel(Net())
        for step in range(2):
            out, total = model(torch.randn(3, 4))
            print(total)
    """)
    total = [n for n in facts.walk(facts.module) if isinstance(n, cst.Name) and n.value == "total"]
    assert all(facts.kind(n) is Kind.TENSOR for n in total)


def test_a_literal_argument_is_no_switch_for_dropping_findings() -> None:
    """`arms(2, False)`: the only call passes a literal, so `if mix:` never runs as the program is
    written, but it is an ordinary argument of a function whose other arm its author wrote to run:
    findings there stay (prec64's fixture). A named switch (`MIX = False`; `arms(2, MIX)`) drops them."""
    path = FIXTURES / "rules" / "host-sync" / "pos_later_read_after_a_read_in_every_arm.py"
    text = path.read_text()
    assert "print(arms(2, False), in_with(2))" in text
    assert 24 in _lines(text, "host-sync")
    switched = text.replace("print(arms(2, False), in_with(2))", "MIX = False\nprint(arms(2, MIX), in_with(2))")
    assert 24 not in _lines(switched, "host-sync") and 27 in _lines(switched, "host-sync")
