"""Red team 47 (blind, 10 programs: 3 projects, 2 notebooks, aimed at data pipelines and Python object
protocols between the loader and the step) met 5 automatic rewrites on first contact, none harmful.
Probes after first contact (not blind) found eval-without-no-grad harmful where an evaluation helper
iterates what it is HANDED (`for x, y in batches:` with `batches` a parameter): a caller handed it a
generator crafting FGSM inputs with `torch.autograd.grad` (or adapting the model with `backward()` and
a step), whose body runs at each `next()`, inside the loop and so under the wrap's no_grad: the program
raised. Fixed by category: such a loop goes to review when iteration code in sight (a generator
function, a class's `__iter__` / `__next__` / `__getitem__`, a `collate_fn`; of this unit, its cells,
the local modules it reaches, and for a module fixed on its own the files of its project) needs
autograd.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from redteam_units import REDTEAM, program_units, rule_findings, source_units

from paef_jupyter.model import CellRef, SourceUnit

_RULE = "eval-without-no-grad"
_HEAD = '''import torch
import torch.nn as nn
import torch.nn.functional as F

net = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
data = [(torch.randn(5, 4), torch.randint(0, 2, (5,))) for _ in range(3)]


def evaluate(model, batches):
    model.eval()
    hits = 0
    for x, y in batches:
        hits += int((model(x).argmax(1) == y).sum())
    model.train()
    return hits

'''


def _fixable(body: str) -> list[bool]:
    return [f.fixable for f in rule_findings(source_units(_HEAD + body), _RULE)]


# Iteration code in sight needs autograd, and the loop iterates what it is handed: review.
FIRING = {
    "fgsm_generator": ("def attacked(model, batches, eps):\n    for x, y in batches:\n"
                       "        x = x.clone().requires_grad_(True)\n"
                       "        (g,) = torch.autograd.grad(F.cross_entropy(model(x), y), x)\n"
                       "        yield (x + eps * g.sign()).detach(), y\n\n\n"
                       "result = evaluate(net, attacked(net, data, 0.1))\n"),
    "adapting_generator_steps": ("def adapted(model, batches):\n    for x, y in batches:\n"
                                 "        F.softmax(model(x), 1).pow(2).sum().backward()\n        opt.step()\n"
                                 "        yield x, y\n\n\nresult = evaluate(net, adapted(net, data))\n"),
    "iterator_class_backward": ("class Perturbed:\n    def __init__(self, batches):\n        self.batches = batches\n\n"
                                "    def __iter__(self):\n        for x, y in self.batches:\n"
                                "            x = x.clone().requires_grad_(True)\n"
                                "            F.cross_entropy(net(x), y).backward()\n"
                                "            yield x + 0.1 * x.grad.sign(), y\n\n\nresult = evaluate(net, Perturbed(data))\n"),
    "handed_generator_defined_in_a_later_function": (
        "def run():\n    return evaluate(net, noisy(data))\n\n\n"
        "def noisy(batches):\n    for x, y in batches:\n        x = x.requires_grad_()\n        yield x, y\n\n\nresult = run()\n"),
}

# Never rewritten, before this red team or after: the loader's collate_fn is read as per-iteration code.
NO_AUTOMATIC = {
    "collate_differentiates": ("from torch.utils.data import DataLoader, TensorDataset\n\n\n"
                               "def collate(rows):\n    x = torch.stack([r[0] for r in rows]).requires_grad_(True)\n"
                               "    y = torch.stack([r[1] for r in rows])\n"
                               "    (g,) = torch.autograd.grad(F.cross_entropy(net(x), y), x)\n    return x.detach() + g, y\n\n\n"
                               "loader = DataLoader(TensorDataset(torch.randn(10, 4), torch.randint(0, 2, (10,))), batch_size=5, "
                               "collate_fn=collate)\nresult = evaluate(net, loader)\n"),
}

# Nothing in sight needs autograd while batches are made, or the loop does not iterate what it is
# handed: still automatic.
SILENT = {
    "plain_list": "result = evaluate(net, data)\n",
    "data_only_generator": ("def shuffled(batches):\n    for x, y in reversed(batches):\n        yield x * 2.0, y\n\n\n"
                            "result = evaluate(net, shuffled(data))\n"),
    "dataset_getitem_indexes": ("from torch.utils.data import DataLoader, Dataset\n\n\nclass Rows(Dataset):\n"
                                "    def __init__(self):\n        self.x = torch.randn(10, 4)\n"
                                "        self.y = torch.randint(0, 2, (10,))\n\n    def __len__(self):\n        return 10\n\n"
                                "    def __getitem__(self, i):\n        return self.x[i], self.y[i]\n\n\n"
                                "result = evaluate(net, DataLoader(Rows(), batch_size=5))\n"),
    "generator_asks_for_no_grad": ("def frozen(batches):\n    for x, y in batches:\n"
                                   "        yield torch.zeros(5, 4, requires_grad=False) + x, y\n\n\n"
                                   "result = evaluate(net, frozen(data))\n"),
    "collate_stacks_only": ("from torch.utils.data import DataLoader, TensorDataset\n\n\n"
                            "def collate(rows):\n    return torch.stack([r[0] for r in rows]), torch.stack([r[1] for r in rows])\n\n\n"
                            "loader = DataLoader(TensorDataset(torch.randn(10, 4), torch.randint(0, 2, (10,))), batch_size=5, "
                            "collate_fn=collate)\nresult = evaluate(net, loader)\n"),
    "training_step_is_not_iteration_code": ("def train_step(x, y):\n    opt.zero_grad()\n"
                                            "    F.cross_entropy(net(x), y).backward()\n    opt.step()\n\n\n"
                                            "for x, y in data:\n    train_step(x, y)\nresult = evaluate(net, data)\n"),
}


@pytest.mark.parametrize("name", sorted(FIRING))
def test_a_handed_iterable_that_may_need_autograd_is_for_review(name: str) -> None:
    fixable = _fixable(FIRING[name])
    assert fixable and not any(fixable)


@pytest.mark.parametrize("name", sorted(NO_AUTOMATIC))
def test_a_handed_loader_with_a_differentiating_collate_gets_no_automatic_wrap(name: str) -> None:
    assert not any(_fixable(NO_AUTOMATIC[name]))


@pytest.mark.parametrize("name", sorted(SILENT))
def test_a_handed_iterable_whose_iteration_code_needs_no_autograd_is_rewritten(name: str) -> None:
    fixable = _fixable(SILENT[name])
    assert fixable and all(fixable)


def test_the_single_file_probe_is_no_longer_rewritten() -> None:
    findings = rule_findings(program_units(REDTEAM / "rt47p_ev_generator_argument.py"), _RULE)
    assert findings and not any(f.fixable for f in findings)


def _module(path: Path) -> list[SourceUnit]:
    return [SourceUnit(CellRef(str(path), None), path.read_text())]


def test_a_module_fixed_on_its_own_reads_its_projects_iteration_code() -> None:
    """The project probe: train.py alone does not show attacks.py's FGSM generator, which main.py
    hands to its `evaluate`; the project's files are read for it."""
    findings = rule_findings(_module(REDTEAM / "rt47p_proj_adversarial_eval" / "train.py"), _RULE)
    assert findings and not any(f.fixable for f in findings)


def test_the_blind_programs_first_contact_holds() -> None:
    """What held on first contact: the streaming project's evaluation helper, handed a chain of two
    loaders over an IterableDataset whose generators only build data, is still wrapped."""
    findings = rule_findings(_module(REDTEAM / "rt47_proj_iterable_shards" / "train.py"), _RULE)
    assert findings and all(f.fixable for f in findings)


# pageable-transfer: a probe (rt47p_pt_attrdict_batch_workers, not blind) pinned a loader whose collate
# returns `class AttrDict(dict): __getattr__ = dict.__getitem__`; pinning's `hasattr(batch, "pin_memory")`
# raises KeyError there (GPU only: a loader pins only where there is one). The closed world over the
# program's classes now counts attribute-lookup hooks, by `def` or by assignment.
_LOADER_HEAD = '''import torch
from torch.utils.data import DataLoader, TensorDataset

device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 2).to(device)
'''
_LOADER_TAIL = '''

def collate(rows):
    return make(torch.stack([r[0] for r in rows]))


loader = DataLoader(TensorDataset(torch.randn(24, 4)), batch_size=6, collate_fn=collate, num_workers=2)
outs = []
with torch.no_grad():
    for batch in loader:
        outs.append(model(batch["x"].to(device)))
'''

PIN_FIRING = {
    "getattr_assigned_dict_getitem": "class B(dict):\n    __getattr__ = dict.__getitem__\n\n\nmake = lambda x: B(x=x)\n",
    "getattr_def_answers_every_name": ("class B:\n    def __init__(self, x):\n        self.f = {'x': x}\n\n"
                                       "    def __getitem__(self, k):\n        return self.f[k]\n\n"
                                       "    def __getattr__(self, k):\n        return None\n\n\nmake = B\n"),
    "getattribute_def": ("class B(dict):\n    def __getattribute__(self, k):\n        return dict.__getitem__(self, k) "
                         "if k in self else object.__getattribute__(self, k)\n\n\nmake = lambda x: B(x=x)\n"),
    "pin_memory_assigned": "class B(dict):\n    pin_memory = dict.copy\n\n\nmake = lambda x: B(x=x)\n",
}
PIN_SILENT = {
    "plain_dict": "make = lambda x: {'x': x}\n",
    "record_with_getitem_only": ("class B:\n    scale = 2.0\n\n    def __init__(self, x):\n        self.x = x\n\n"
                                 "    def __getitem__(self, k):\n        return getattr(self, k)\n\n\nmake = B\n"),
    "dict_subclass_with_a_property": ("class B(dict):\n    @property\n    def size(self):\n        return len(self)\n\n\n"
                                      "make = lambda x: B(x=x)\n"),
    "setattr_assigned_only": "class B(dict):\n    __setattr__ = dict.__setitem__\n\n\nmake = lambda x: B(x=x)\n",
    "class_constant_assigned": "class B(dict):\n    kind = 'batch'\n\n\nmake = lambda x: B(x=x)\n",
}


def _pin_fixable(body: str) -> list[bool]:
    return [f.fixable for f in rule_findings(source_units(_LOADER_HEAD + body + _LOADER_TAIL), "pageable-transfer")]


@pytest.mark.parametrize("name", sorted(PIN_FIRING))
def test_a_batch_class_with_its_own_attribute_lookup_is_pinned_only_for_review(name: str) -> None:
    fixable = _pin_fixable(PIN_FIRING[name])
    assert fixable and not any(fixable)


@pytest.mark.parametrize("name", sorted(PIN_SILENT))
def test_a_batch_class_with_pythons_own_lookup_is_still_pinned(name: str) -> None:
    fixable = _pin_fixable(PIN_SILENT[name])
    assert fixable and all(fixable)


def test_the_attribute_dict_probe_is_no_longer_pinned() -> None:
    findings = rule_findings(program_units(REDTEAM / "rt47p_pt_attrdict_batch_workers.py"), "pageable-transfer")
    assert findings and not any(f.fixable for f in findings)
