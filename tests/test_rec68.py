"""Recall 68: four facts the analysis lacked (benchmarks/results/rec68.md).

1. A device route guarded by a flag false on every path is no route (`constant_flags`): public check
   61's p05 hard-wires `GPU_available = False`, carries it through a constructor into `self.gpu` and a
   method's parameter, and was read as a GPU program (2 wrong host-sync findings).
2. The parts of a module call's tuple output are typed where the model is a parameter, `self.<attr>`, or
   a torch recurrent layer (`forward_outputs`).
3. A module call (`forward`) or an object's `__call__` that stores its argument keeps it
   (`_kept_objects.callee_keeps`): hoisting a per-iteration tensor handed to it goes to review.
4. A helper loop whose function's result an importer (another module, a notebook cell) back-propagates
   is a training objective, not an evaluation (eval-without-no-grad is silent there).
"""

from __future__ import annotations

import json
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
from redteam_units import automatic_fixes, rule_findings, source_units

HOST_SYNC = Path(__file__).parent / "fixtures" / "rules" / "host-sync"


def _facts(source: str) -> Facts:
    return Facts(cst.parse_module(textwrap.dedent(source)))


def _tests(facts: Facts) -> dict[str, bool]:
    """The code of each `if` test of the unit -> whether it is proved always false (the last one wins)."""
    return {facts.code(n.test): always_false(facts, n.test) for n in facts.walk(facts.module) if isinstance(n, cst.If)}


# --- 1. flags false on every path -------------------------------------------------------------

def test_a_module_flag_anded_with_itself_is_false_and_so_are_the_constructor_attribute_and_method_parameter() -> None:
    facts = _facts("""
        import torch
        GPU = False
        GPU = GPU and torch.cuda.is_available()

        class Net(torch.nn.Module):
            def __init__(self, gpu):
                super(Net, self).__init__()
                self.gpu = gpu

            def state(self, gpu):
                if gpu:
                    return torch.zeros(1).cuda()
                return torch.zeros(1)

            def forward(self, x):
                if self.gpu:
                    x = x.cuda()
                return x + self.state(self.gpu)

        net = Net(GPU)
        if GPU:
            net.cuda()
    """)
    assert _tests(facts) == {"gpu": True, "self.gpu": True, "GPU": True}
    assert not uses_device(facts)


@pytest.mark.parametrize("change", [
    "GPU = torch.cuda.is_available()",  # a binding that may be true
    "if torch.cuda.is_available():\n    GPU = True",
    "other = Net(True)",  # a second construction passing True
    "net.gpu = True",  # a store outside the class
    "setattr(net, 'gpu', True)",  # a store by name
    "class Net2(Net):\n    pass",  # the class used otherwise (a subclass's constructions are out of sight)
])
def test_near_miss_a_flag_some_path_may_turn_on_is_a_device_route(change: str) -> None:
    facts = _facts(textwrap.dedent("""
        import torch
        GPU = False

        class Net(torch.nn.Module):
            def __init__(self, gpu):
                super().__init__()
                self.gpu = gpu

            def forward(self, x):
                if self.gpu:
                    x = x.cuda()
                return x

        net = Net(GPU)
    """) + "\n" + change + "\n")
    assert _tests(facts)["self.gpu"] is False
    assert uses_device(facts)


def test_config_class_namespace_and_argparse_of_no_arguments() -> None:
    facts = _facts("""
        import argparse
        from types import SimpleNamespace
        import torch

        class Config:
            use_cuda = False

        parser = argparse.ArgumentParser()
        parser.add_argument("--gpu", action="store_true")
        parser.add_argument("--no-cuda", action="store_true")
        args = parser.parse_args([])
        opts = SimpleNamespace(cuda=False)
        cfg = Config()
        if cfg.use_cuda:
            pass
        if opts.cuda:
            pass
        if args.gpu:
            pass
        if not args.no_cuda:
            pass
    """)
    tests = _tests(facts)
    assert tests["cfg.use_cuda"] and tests["opts.cuda"] and tests["args.gpu"]
    assert tests["not args.no_cuda"] is False  # `not False` is true: its body runs


@pytest.mark.parametrize("parse, option", [
    ("parser.parse_args()", 'parser.add_argument("--gpu", action="store_true")'),  # the command line may set it
    ("parser.parse_args([])", 'parser.add_argument("--gpu", action="store_false")'),  # defaults to True
    ("parser.parse_args([])", 'parser.add_argument("--gpu", default=True)'),
    ("parser.parse_args([])", 'parser.add_argument("--gpu", action="store_true")\nparser.set_defaults(gpu=True)'),
])
def test_near_miss_argparse_options_that_may_be_true(parse: str, option: str) -> None:
    facts = _facts(f"import argparse\nparser = argparse.ArgumentParser()\n{option}\nargs = {parse}\nif args.gpu:\n    pass\n")
    assert _tests(facts)["args.gpu"] is False


def test_a_later_cell_that_turns_the_flag_on_keeps_the_route() -> None:
    setup = ("import torch\nimport torch.nn as nn\nUSE = False\nmodel = nn.Linear(3, 1)\nif USE:\n    model.cuda()\n"
             "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n")
    loop = ("for i in range(3):\n    x = torch.randn(4, 3)\n    x = x.cuda() if USE else x\n    loss = model(x).pow(2).mean()\n"
            "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n    print(loss.item())\n")
    quiet = analyze_units([SourceUnit(CellRef("nb.ipynb", 0), setup), SourceUnit(CellRef("nb.ipynb", 1), loop)],
                          rules=["host-sync"])
    loud = analyze_units([SourceUnit(CellRef("nb.ipynb", 0), setup), SourceUnit(CellRef("nb.ipynb", 1), "USE = True\n" + loop)],
                         rules=["host-sync"])
    assert [f.line for f in quiet.findings] == []
    assert [f.line for f in loud.findings] == [9]


def test_dead_branches_of_conditional_expressions_and_and() -> None:
    facts = _facts("""
        import torch
        ON = False
        a = torch.ones(1).cuda() if ON else torch.ones(1)
        b = ON and torch.ones(1).cuda()
        c = torch.ones(1) if not ON else torch.ones(1).cuda()
    """)
    cudas = [n for n in facts.walk(facts.module) if isinstance(n, cst.Call) and facts.code(n.func).endswith(".cuda")]
    assert len(cudas) == 3 and all(in_dead_branch(facts, c) for c in cudas)
    assert not uses_device(facts)


def test_public_check_61_p05_shape_fixtures() -> None:
    for name in ("neg_gpu_flag_false_through_constructor.py", "neg_gpu_flag_false_in_a_config.py",
                 "neg_gpu_flag_false_method_argument.py"):
        path = HOST_SYNC / name
        assert analyze_source(path.read_text(), CellRef(str(path)), rules=["host-sync"]).findings == ()


# --- 2. tuple outputs of a module call -------------------------------------------------------

_MODELS = """
import torch
import torch.nn as nn


class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 3)
        self.dec = nn.Linear(3, 6)

    def forward(self, x):
        z = self.enc(x)
        return z, self.dec(z), int(x.shape[0])


class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(6, 4)
        self.lstm = nn.LSTM(6, 4)
        self.ae = AE()

    def forward(self, x):
        out, h = self.gru(x)
        o2, state = self.lstm(x)
        z, rec, n = self.ae(x)
        return out, h


def train(model, x):
    z, rec, n = model(x)
    return z, rec, n


def other(model, x):
    a, b = model(x)
    return a, b


ALIAS = AE
train(AE(), torch.randn(2, 6))
train(ALIAS().to("cpu"), torch.randn(2, 6))
other(Seq(), torch.randn(2, 6))
other(AE(), torch.randn(2, 6))
"""


def _kinds(source: str, names: set[str]) -> dict[tuple[str, str], Kind]:
    facts = _facts(source)
    out = {}
    for node in facts.walk(facts.module):
        if isinstance(node, cst.Name) and node.value in names and isinstance(facts.parent(node), cst.Element):
            func = facts.enclosing_function(node)
            out[(func.name.value if func else "", node.value)] = facts.kind(node)
    return out


def test_parts_of_a_handed_models_attribute_models_and_recurrent_layers_outputs() -> None:
    kinds = _kinds(_MODELS, {"z", "rec", "n", "out", "h", "o2", "state", "a", "b"})
    assert kinds[("train", "z")] is Kind.TENSOR and kinds[("train", "rec")] is Kind.TENSOR
    assert kinds[("train", "n")] is not Kind.TENSOR  # `int(x.shape[0])`
    assert kinds[("forward", "out")] is Kind.TENSOR and kinds[("forward", "h")] is Kind.TENSOR  # GRU
    assert kinds[("forward", "o2")] is Kind.TENSOR
    assert kinds[("forward", "state")] is not Kind.TENSOR  # LSTM: the (h, c) pair
    assert kinds[("forward", "z")] is Kind.TENSOR  # `self.ae(x)` with `self.ae = AE()`
    # `other` is handed a Seq and an AE (whose forward returns a triple): unknown, not guessed
    assert kinds[("other", "a")] is Kind.UNKNOWN and kinds[("other", "b")] is Kind.UNKNOWN


def test_tuple_output_fixtures() -> None:
    pos = HOST_SYNC / "pos_tuple_output_of_a_handed_model.py"
    text = pos.read_text()
    found = analyze_units([SourceUnit(CellRef(str(pos)), text)], rules=["host-sync", "graph-retention"]).findings
    assert {(f.rule, f.line) for f in found} == {("host-sync", 47), ("graph-retention", 59), ("host-sync", 60)}
    neg = HOST_SYNC / "neg_tuple_output_of_a_handed_model_near_misses.py"
    assert analyze_units([SourceUnit(CellRef(str(neg)), neg.read_text())]).findings == ()


# --- 3. a module call that keeps its argument ------------------------------------------------

_DECODER = """import torch
import torch.nn as nn

device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(7, 6)
        self.lin = nn.Linear(6, 7)
        self.prev = None

    def forward(self, start, steps):
        KEEP
        out = []
        for t in range(steps):
            logits = self.lin(self.emb(self.prev).view(-1))
            self.prev.copy_(logits.argmax().view(1, 1))
            out.append(int(logits.argmax()))
        return out


class Runner:
    def __init__(self):
        self.dec = Decoder().to(device)

    def __call__(self, start):
        return self.dec(start, 3)


torch.manual_seed(0)
dec = Decoder().to(device)
run = Runner()
res = []
with torch.no_grad():
    for p in range(4):
        start = torch.tensor([[0]], device=device)
        res += CALL
print(res)
"""


@pytest.mark.parametrize("call", ["dec(start, 3)", "dec.forward(start, 3)"])
def test_a_tensor_a_forward_keeps_is_not_hoisted(call: str) -> None:
    """Hoisted, the second prompt would start from the first prompt's last token (measured at the start
    commit: [2, 0, 2, 2, 0, 2, ...] became [2, 0, 2, 0, 2, 0, ...])."""
    text = _DECODER.replace("KEEP", "self.prev = start").replace("CALL", call)
    found = rule_findings(source_units(text), "redundant-tensor")
    assert found and not automatic_fixes(found)


@pytest.mark.parametrize("keep", ["self.prev = start.clone()", "self.prev = self.emb.weight.new_zeros(1, 1).long() + start"])
def test_near_miss_a_forward_that_copies_its_argument_keeps_the_hoist(keep: str) -> None:
    text = _DECODER.replace("KEEP", keep).replace("CALL", "dec(start, 3)")
    found = rule_findings(source_units(text), "redundant-tensor")
    assert len(automatic_fixes(found)) == 1


# --- 4. a helper whose result an importer back-propagates ----------------------------------

_HELPERS = '''import torch.nn.functional as F


def objective(model, batches):
    total = 0.0
    for xb, yb in batches:
        total += F.cross_entropy(model(xb), yb)
    return total


def accuracy(model, batches):
    model.eval()
    correct = 0
    for xb, yb in batches:
        correct += (model(xb).argmax(1) == yb).sum().item()
    model.train()
    return correct
'''

_SETUP = ("import torch\nimport torch.nn as nn\nfrom helpers import objective, accuracy\ntorch.manual_seed(0)\n"
          "X = torch.randn(40, 5)\nY = (X[:, 0] > 0).long()\nbatches = [(X[i:i + 8], Y[i:i + 8]) for i in range(0, 40, 8)]\n"
          "model = nn.Linear(5, 2)\nsgd = torch.optim.SGD(model.parameters(), lr=0.1)\n")
_TRAIN = "for it in range(4):\n    sgd.zero_grad()\n    o = objective(model, batches)\n    o.backward()\n    sgd.step()\nprint(accuracy(model, batches))\n"
_ONLY_READ = "print(objective(model, batches).item(), accuracy(model, batches))\n"


def _helper_findings(report) -> dict[int, object]:
    return {f.line: f for f in report.findings if f.ref.path.endswith("helpers.py")}


@pytest.mark.parametrize("importer", ["main.py", "train.ipynb"])
def test_a_helper_an_importer_back_propagates_is_not_an_evaluation(tmp_path: Path, importer: str) -> None:
    (tmp_path / "helpers.py").write_text(_HELPERS)
    path = tmp_path / importer
    if importer.endswith(".py"):
        path.write_text(_SETUP + _TRAIN)
    else:
        path.write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "source": s, "outputs": [],
                                                "execution_count": None, "id": f"c{i}"} for i, s in enumerate((_SETUP, _TRAIN))],
                                    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    found = _helper_findings(analyze_path(str(path), rules=["eval-without-no-grad"]))
    assert 6 not in found  # the objective's loop: a backward takes what it returns
    assert "evaluation loop" in found[14].message  # the accuracy helper (`.eval()`): unchanged


@pytest.mark.parametrize("importer", ["main.py", "train.ipynb"])
def test_near_miss_an_importer_that_only_reads_the_number_keeps_the_hedged_review(tmp_path: Path, importer: str) -> None:
    (tmp_path / "helpers.py").write_text(_HELPERS)
    path = tmp_path / importer
    if importer.endswith(".py"):
        path.write_text(_SETUP + _ONLY_READ)
    else:
        path.write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "source": s, "outputs": [],
                                                "execution_count": None, "id": f"c{i}"} for i, s in enumerate((_SETUP, _ONLY_READ))],
                                    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    found = _helper_findings(analyze_path(str(path), rules=["eval-without-no-grad"]))
    assert not found[6].fixable
    assert "code outside it may take one" in found[6].message


_EXTRACT = '''import torch


def extract(encoder, X):
    encoder.eval()
    parts = []
    for b in range(0, len(X), 8):
        parts.append(encoder(X[b:b + 8]).detach())
    return torch.cat(parts).numpy()
'''
_HEAD = ("import torch\nimport torch.nn as nn\nfrom helpers import extract\nenc = nn.Linear(5, 3)\nX = torch.randn(32, 5)\n"
         "feats = extract(enc, X)\ninputs = torch.tensor(feats * 2.0)\nhead = nn.Linear(3, 2)\n"
         "loss = head(inputs).pow(2).mean()\nloss.backward()\n")


def test_near_miss_a_helper_that_detaches_what_it_returns_stays_an_evaluation(tmp_path: Path) -> None:
    """Red team 54's shape: the importer trains a head on features the helper extracted with the encoder in
    eval mode and detached: the data reaches a backward, the loop's graph never does."""
    (tmp_path / "helpers.py").write_text(_EXTRACT)
    (tmp_path / "main.py").write_text(_HEAD)
    found = _helper_findings(analyze_path(str(tmp_path / "main.py"), rules=["eval-without-no-grad"]))
    assert 7 in found and "evaluation loop" in found[7].message
