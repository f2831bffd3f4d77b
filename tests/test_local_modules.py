"""Helpers a training loop calls in another module or an earlier cell are per-iteration code.

Small projects of 2-3 modules written in the style of public training code, scanned through
the CLI's own `main` as users run it: a finding inside a helper is reported in the helper's file, at its
line; nothing outside the scanned file's folder and nothing never reached from a loop counts.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from paef_jupyter.api import analyze, analyze_path
from paef_jupyter.model import CellRef, SourceUnit
from paef_cli import paef


def scan(path: Path, *rules: str) -> list[dict]:
    args = [a for r in rules for a in ("--rule", r)]
    proc = paef("scan", str(path), "--format", "json", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


TRAIN = '''\
import argparse
import torch
from torch import nn
{imports}

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args([])
    model = nn.Linear(8, 2)
    optimizer = torch.optim.Adam(model.parameters())
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(32, 8), torch.randint(0, 2, (32,))), batch_size=8, num_workers=2)
    for epoch in range(args.epochs):
        for inputs, labels in loader:
{body}
            loss = nn.functional.cross_entropy(model(inputs), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    main()
'''

UTILS = '''\
import torch


def to_device(batch, device="cuda"):
    return torch.tensor(batch.cpu().tolist()).to(device)


def unused(batch):
    return torch.tensor(batch.cpu().tolist())
'''


def test_helper_in_imported_module_is_reported_in_its_file(tmp_path: Path) -> None:
    write(tmp_path, {
        "train.py": TRAIN.format(imports="from utils import to_device", body="            inputs = to_device(inputs)"),
        "utils.py": UTILS,
    })
    found = [(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "train.py", "ping-pong")]
    assert found == [("utils.py", 5)]  # `unused` is never called from a loop: silent


def test_module_attribute_and_package_relative_imports(tmp_path: Path) -> None:
    write(tmp_path, {
        "train.py": TRAIN.format(imports="import helpers.io as hio", body="            inputs = hio.prepare(inputs)"),
        "helpers/__init__.py": "",
        "helpers/io.py": "from .convert import to_device\n\n\ndef prepare(x):\n    return to_device(x.float())\n",
        "helpers/convert.py": UTILS,
    })
    findings = scan(tmp_path / "train.py", "ping-pong")
    assert [(Path(f["path"]).as_posix().split("/")[-2:], f["line"]) for f in findings] == [(["helpers", "convert.py"], 5)]
    assert findings[0]["cell"] is None


def test_paths_keep_the_users_spelling(tmp_path: Path) -> None:
    write(tmp_path, {
        "train.py": TRAIN.format(imports="from utils import to_device", body="            inputs = to_device(inputs)"),
        "utils.py": UTILS,
    })
    report = analyze_path(str(tmp_path / "train.py"), rules=["ping-pong"])
    assert [f.ref.path for f in report.findings] == [str(tmp_path / "utils.py")]
    assert {u.ref.path for u in report.sources} == {str(tmp_path / "train.py"), str(tmp_path / "utils.py")}


def test_nothing_outside_the_project_or_never_called_per_iteration(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write(tmp_path, {"outside.py": UTILS})
    write(project, {
        # `outside` is not under the scanned file's folder; `utils.to_device` is called once, before training
        "train.py": TRAIN.format(imports="import sys\nsys.path.append('..')\nfrom outside import to_device\nfrom utils import unused",
                                 body="            pass").replace("    for epoch", "    unused(torch.zeros(2))\n    for epoch"),
        "utils.py": UTILS,
    })
    assert scan(project / "train.py", "ping-pong") == []


def test_a_script_in_a_repository_subfolder_imports_from_the_repository_top(tmp_path: Path) -> None:
    """`python -m tools.train` from the top of a repository: `from scheduler.linear import ...`
    resolves there. Without a repository marker above the script the folder stays the project."""
    files = {
        "tools/train.py": TRAIN.format(imports="from helpers.convert import to_device", body="            inputs = to_device(inputs)"),
        "helpers/__init__.py": "",
        "helpers/convert.py": UTILS,
    }
    write(tmp_path / "repo", {**files, "pyproject.toml": "[project]\nname = 'x'\n"})
    found = scan(tmp_path / "repo" / "tools" / "train.py", "ping-pong")
    assert [(Path(f["path"]).as_posix().split("/")[-2:], f["line"]) for f in found] == [(["helpers", "convert.py"], 5)]
    assert Path(found[0]["path"]).resolve() == (tmp_path / "repo" / "helpers" / "convert.py").resolve()
    write(tmp_path / "loose", files)
    assert scan(tmp_path / "loose" / "tools" / "train.py", "ping-pong") == []


def test_an_import_cycle_terminates(tmp_path: Path) -> None:
    write(tmp_path, {
        "train.py": TRAIN.format(imports="from a import step_a", body="            inputs = step_a(inputs)"),
        "a.py": "from b import step_b\n\n\ndef step_a(x):\n    return step_b(x)\n",
        "b.py": "import torch\nfrom a import step_a\n\n\ndef step_b(x):\n    return torch.tensor(x.cpu().tolist())\n\n\ndef again(x):\n    return step_a(x)\n",
    })
    assert [(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "train.py", "ping-pong")] == [("b.py", 6)]


def test_helpers_are_followed_three_imports_deep_and_no_further(tmp_path: Path) -> None:
    """A script inside a large package reaches hundreds of modules through its imports: past
    three hops the helper is code the analysis cannot see (silent, never a rewrite's proof)."""
    def chain(depth: int) -> dict[str, str]:
        files = {"train.py": TRAIN.format(imports="from m1 import hop", body="            inputs = hop(inputs)")}
        for i in range(1, depth):
            files[f"m{i}.py"] = f"from m{i + 1} import hop as inner\n\n\ndef hop(x):\n    return inner(x)\n"
        files[f"m{depth}.py"] = UTILS.replace("def to_device(batch", "def hop(batch")
        return files

    write(tmp_path / "three", chain(3))
    assert [Path(f["path"]).name for f in scan(tmp_path / "three" / "train.py", "ping-pong")] == ["m3.py"]
    write(tmp_path / "four", chain(4))
    assert scan(tmp_path / "four" / "train.py", "ping-pong") == []


def test_following_imports_stops_after_ten_thousand_lines(tmp_path: Path) -> None:
    filler = "".join(f"\n\ndef unused_{i}(x):\n    return x + {i}\n" for i in range(300))  # 1,200 lines
    calls = "\n".join(f"            inputs = helper_{i}.to_device(inputs)" for i in range(20))
    files = {"train.py": TRAIN.format(imports="\n".join(f"import helper_{i}" for i in range(20)), body=calls)}
    files.update({f"helper_{i}.py": UTILS + filler for i in range(20)})
    write(tmp_path, files)
    report = analyze_path(str(tmp_path / "train.py"), rules=["ping-pong"])
    followed = {Path(f.ref.path).name for f in report.findings}
    lines = sum(len(files[name].splitlines()) for name in followed)
    assert 0 < len(followed) < 20 and lines <= 10_000


def test_dataset_and_model_classes_from_local_modules_run_per_batch(tmp_path: Path) -> None:
    write(tmp_path, {
        "train.py": TRAIN.format(imports="from data import Ratings\nfrom model import Scorer", body="            pass")
        .replace("model = nn.Linear(8, 2)", "model = Scorer()\n    ratings = Ratings({'user': [1, 2], 'item': [3, 4]})"),
        "data.py": '''\
import torch
from torch.utils.data import Dataset


class Ratings(Dataset):
    def __init__(self, columns):
        self.columns = columns

    def __len__(self):
        return len(self.columns["user"])

    def __getitem__(self, index):
        return torch.tensor(self.columns["user"][index : index + 1])
''',
        "model.py": '''\
import torch
from torch import nn


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 2)

    def forward(self, x):
        mask = torch.ones(8, 8).tril()
        return self.linear(x @ mask)
''',
    })
    found = {(Path(f["path"]).name, f["rule"], f["line"]) for f in scan(tmp_path / "train.py", "dict-as-list", "redundant-tensor")}
    assert ("data.py", "dict-as-list", 13) in found
    assert ("model.py", "redundant-tensor", 11) in found


def test_helper_defined_in_an_earlier_cell_is_reported_in_that_cell(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import torch\n\ndef to_device(x):\n    return torch.tensor(x.cpu().tolist())\n"),
        nbformat.v4.new_markdown_cell("## Training"),
        nbformat.v4.new_code_cell(
            "model = torch.nn.Linear(4, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
            "for step in range(3):\n    x = to_device(torch.randn(2, 4))\n    loss = model(x).sum()\n    loss.backward()\n    opt.step()\n"
        ),
    ]
    path = tmp_path / "train.ipynb"
    nbformat.write(nb, path)
    assert [(f["cell"], f["line"]) for f in scan(path, "ping-pong")] == [(0, 4)]


def test_a_later_cell_does_not_leak_into_an_earlier_one() -> None:
    units = [
        SourceUnit(CellRef("nb.ipynb", 0), "import torch\nfor i in range(3):\n    y = torch.tensor(x.cpu().tolist())\n"),
        SourceUnit(CellRef("nb.ipynb", 1), "x = torch.randn(3)\n"),  # runs after: cell 0 cannot know `x`
    ]
    assert analyze(units, rules=["ping-pong"]).findings == ()


def test_a_training_loop_written_in_another_module_is_the_programs_loop(tmp_path: Path) -> None:
    write(tmp_path, {
        "main.py": "from engine import Trainer\n\n\ndef main():\n    Trainer(epochs=2).fit()\n\n\nmain()\n",
        "engine.py": '''\
import torch
from torch import nn


class Trainer:
    def __init__(self, epochs):
        self.epochs = epochs
        self.model = nn.Linear(4, 2)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def fit(self):
        for epoch in range(self.epochs):
            x = torch.randn(8, 4)
            self.step(x)

    def step(self, x):
        loss = self.model(x).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return torch.tensor(loss.cpu().tolist())


def unused_loop():
    for i in range(3):
        y = torch.tensor(torch.ones(2).cpu().tolist())
''',
    })
    assert [(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "main.py", "ping-pong")] == [("engine.py", 21)]


DATA = '''\
import torch


def load(n):
    data = {"items": [], "targets": []}
    for i in range(n):
        data["items"].append([i % 7, (i + 1) % 7])
        data["targets"].append(i % 3)
    return data


def make_batch(data, index, device):
    items = torch.tensor([data["items"][i] for i in index], device=device)
    targets = torch.tensor([data["targets"][i] for i in index], device=device)
    return items, targets


def grow_batch(data, index, device):
    data["targets"].append(0)  # changes the dict it is given: the columns are not loop-invariant
    return torch.tensor([data["targets"][i] for i in index], device=device)
'''

MAIN = '''\
import torch
from data import load, make_batch, grow_batch

device = "cpu"
train, test, extra = load(40), load(10), load(10)
for epoch in range(2):
    for b in range(0, 40, 8):
        items, targets = make_batch(train, range(b, b + 8), device)
        more = grow_batch(extra, range(b // 8, b // 8 + 2), device)
    with torch.no_grad():
        items, targets = make_batch(test, range(10), device)  # wholly invariant here: the helper is still per-batch code
{tail}'''


def test_dict_of_lists_read_by_a_helper_of_another_module(tmp_path: Path) -> None:
    write(tmp_path, {"data.py": DATA, "main.py": MAIN.format(tail="")})
    found = {(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "main.py", "dict-as-list")}
    assert found == {("data.py", 13), ("data.py", 14)}


def test_a_dict_the_loop_changes_is_not_read_as_a_dataset(tmp_path: Path) -> None:
    # the loop itself appends to the dataset each epoch: its columns vary
    tail = "    train[\"items\"].append([1, 2])\n    train[\"targets\"].append(1)\n    test = load(10 + epoch)\n"
    write(tmp_path, {"data.py": DATA, "main.py": MAIN.format(tail=tail)})
    assert scan(tmp_path / "main.py", "dict-as-list") == []


def test_a_modules_own_loop_makes_another_modules_helper_per_iteration(tmp_path: Path) -> None:
    """main.py calls `engine.fit()` once; fit's loop calls `utils.make_noise` every step: the
    helper is per-iteration code of the scanned program although no loop of main.py calls it."""
    write(tmp_path, {
        "utils.py": "import torch\n\nUSE_CUDA = torch.cuda.is_available()\n\n\ndef to_cuda(x):\n"
                    "    return x.cuda() if USE_CUDA else x\n\n\ndef make_noise(n):\n    return to_cuda(torch.randn(n, 4))\n",
        "engine.py": "import torch\nfrom utils import make_noise\n\n\ndef fit(gen, steps=3):\n"
                     "    opt = torch.optim.SGD(gen.parameters(), lr=0.1)\n    for step in range(steps):\n"
                     "        loss = gen(make_noise(8)).pow(2).mean()\n        opt.zero_grad()\n        loss.backward()\n"
                     "        opt.step()\n",
        "main.py": "import torch\nfrom engine import fit\nfrom utils import make_noise\n\n"
                   "gen = torch.nn.Linear(4, 2)\nfit(gen)\nprint(gen(make_noise(2)).shape)\n",
    })
    assert [(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "main.py", "cpu-then-move")] == [("utils.py", 11)]


def test_a_block_built_inside_a_local_model_class_is_reached(tmp_path: Path) -> None:
    """`Critic.__init__` builds `LeakyAct()` of the same module: the block's `forward` runs in
    the model; a class of that module nobody builds stays out."""
    write(tmp_path, {
        "train.py": TRAIN.format(imports="from model import Critic", body="            pass")
        .replace("model = nn.Linear(8, 2)", "model = Critic()"),
        "model.py": '''\
import torch
from torch import nn


class LeakyAct(nn.Module):
    def forward(self, x):
        return torch.where(x > 0, x, x * 0.2)


class Unused(nn.Module):
    def forward(self, x):
        return torch.where(x > 0, x, x * 0.1)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 2), LeakyAct())

    def forward(self, x):
        return self.net(x)
''',
    })
    found = {(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "train.py", "operator-fusion")}
    assert found == {("model.py", 7)}


LOADER_MAIN = '''\
import torch
from torch.utils.data import DataLoader
{imports}

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 1).to(device)
loader = DataLoader({dataset}, batch_size=8, num_workers=2)
for epoch in range(2):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = ((model(xb) - yb) ** 2).mean()
        loss.backward()
'''

DATASETS = '''\
import numpy as np
import torch
from torch.utils.data import Dataset

from .moves import to_device


class OnDevice(Dataset):
    """Preloads its tensors on the device through a helper of another module."""

    def __init__(self, n):
        self.x = to_device(torch.randn(n, 4))
        self.y = to_device(torch.randn(n, 1))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class OnHost(Dataset):
    def __init__(self, n):
        self.x = np.random.rand(n, 4).astype("float32")
        self.y = np.random.rand(n, 1).astype("float32")

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), torch.from_numpy(self.y[i])
'''


def _pin_findings(tmp_path: Path, imports: str, dataset: str) -> list:
    write(tmp_path, {
        "main.py": LOADER_MAIN.format(imports=imports, dataset=dataset),
        "data/__init__.py": "",
        "data/sets.py": DATASETS,
        "data/moves.py": "def to_device(t):\n    return t.to('cuda')\n",
    })
    return list(analyze_path(str(tmp_path / "main.py"), rules=["pageable-transfer"]).findings)


def test_a_dataset_class_of_another_module_is_followed_before_pinning(tmp_path: Path) -> None:
    """The pin is proved or refused by reading the class where the project defines it: one that
    puts its tensors on the device (through a helper of a third module) gets no pin; one that
    keeps them on the host gets the automatic rewrite."""
    assert _pin_findings(tmp_path, "from data.sets import OnDevice", "OnDevice(32)") == []
    found = _pin_findings(tmp_path, "from data import sets", "sets.OnHost(32)")
    assert [f.line for f in found] == [7] and found[0].fix.automatic


def test_a_dataset_class_the_project_does_not_hold_is_for_review(tmp_path: Path) -> None:
    """Imported from outside the project (an installed package): its class is unseen, so the pin
    is offered for review only."""
    found = _pin_findings(tmp_path, "from shared_datasets import OnHost", "OnHost(32)")
    assert [f.line for f in found] == [7]
    assert found[0].fix.needs_review and "shared_datasets.OnHost" in found[0].fix.review


LOADER_CELL = (
    "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
    "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
    "train_dl = DataLoader(TensorDataset(torch.randn(32, 4), torch.randn(32, 1)), batch_size=8, num_workers=2)\n"
)
FIT_CELL = "def fit(model, dl):\n    for xb, yb in dl:\n        xb, yb = xb.to(device), yb.to(device)\n        model(xb).sum().backward()\n"


def _cells(*sources: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("nb.ipynb", i), s) for i, s in enumerate(sources)]


def test_a_loader_consumed_in_a_later_cell_is_pinned_where_it_is_built() -> None:
    """`paef scan` of a notebook: the loader cell sees the later loop (directly, or through a
    function of another cell it is passed to) and takes the pin; the later cell stays silent."""
    loop = "for epoch in range(2):\n    for xb, yb in train_dl:\n        xb = xb.to(device)\n"
    for later in (_cells(LOADER_CELL, loop), _cells(LOADER_CELL, FIT_CELL, "fit(torch.nn.Linear(4, 1), train_dl)\n")):
        found = analyze(later, rules=["pageable-transfer"]).findings
        assert [(f.ref.cell, f.line) for f in found] == [(0, 4)] and found[0].fix.automatic


def test_a_later_cell_that_rebinds_the_loader_is_not_linked() -> None:
    rebound = "train_dl = [(torch.zeros(2, 4), torch.zeros(2, 1))]\n"
    found = analyze(_cells(LOADER_CELL, rebound, "for xb, yb in train_dl:\n    xb = xb.to(device)\n"),
                    rules=["pageable-transfer"]).findings
    assert found == ()



def test_a_loop_of_another_module_is_asked_of_its_own_analysis() -> None:
    """`blind3_project_unet_seg`: `SmoothedValue.update` (utils.py) accumulates in `engine.py`'s
    loop, reached from `main.py`'s epoch loop. Asking one module's facts about another's loop
    body (graph-retention's loss terms) raised, and every finding of the project was lost."""
    main = Path(__file__).parents[1] / "benchmarks" / "corpus" / "blind3_project_unet_seg" / "main.py"
    found = {(Path(f["path"]).name, f["rule"], f["line"]) for f in scan(main)}
    assert {("engine.py", "host-sync", 16), ("engine.py", "eval-without-no-grad", 22)} <= found


def test_a_metric_helper_of_another_module_runs_per_batch_of_the_loop_calling_it(tmp_path: Path) -> None:
    """`blind4_project_partseg`: `compute_iou` (utils.py) is called in `evaluate`'s batch loop,
    and `evaluate` once per epoch. The helper runs once per batch, under the innermost loop
    around its call, not under the epoch loop that reached `evaluate` (which hid its syncs)."""
    write(tmp_path, {
        "main.py": '''\
import torch
from torch import nn

from metrics import compute_iou, summary

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def evaluate(net, batches):
    scores = []
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        scores.append(compute_iou(net(x).argmax(1), y))
    return sum(scores) / len(scores)


net = nn.Linear(4, 3).to(device)
net.load_state_dict(torch.load("net.pt"))
data = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(3)]
for epoch in range(2):
    with torch.no_grad():
        loss = nn.functional.cross_entropy(net(data[0][0].to(device)), data[0][1].to(device))
    print(evaluate(net, data), summary(loss))
''',
        "metrics.py": '''\
def compute_iou(pred, target):
    ious = []
    for c in range(3):
        inter = ((pred == c) & (target == c)).sum().item()
        union = ((pred == c) | (target == c)).sum().item()
        ious.append(inter / max(union, 1))
    return sum(ious) / 3


def summary(loss):
    return loss.item()
''',
    })
    found = {(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "main.py", "host-sync")}
    assert ("metrics.py", 4) in found and ("metrics.py", 5) in found
    assert ("metrics.py", 11) not in found  # once per epoch
    # the same program on the host only: the helper's `.item()` copies nothing from a device
    main = (tmp_path / "main.py").read_text()
    cpu_only = main.replace('device = "cuda" if torch.cuda.is_available() else "cpu"', 'device = "cpu"')
    cpu_only = cpu_only.replace(".to(device)", "").replace("x, y = x, y\n", "")
    (tmp_path / "main.py").write_text(cpu_only)
    assert "device" not in cpu_only.replace('device = "cpu"', "")
    assert scan(tmp_path / "main.py", "host-sync") == []


EVAL_MAIN = '''\
import torch
from model import Ranker

model = Ranker()
model.eval()
ranks = []
for x in [torch.randn(1, 6, 8) for _ in range(3)]:
    ranks.append(model(x).argsort())
print(ranks)
'''


def test_attention_in_a_local_model_class_leaves_the_no_grad_wrap_to_review(tmp_path: Path) -> None:
    """Under no_grad in eval mode attention takes a fused fast path (outputs differ in the last
    bits): built in another module, it still blocks the automatic wrap; a plain MLP there does not."""
    attention = "self.attn = nn.MultiheadAttention(8, 2, batch_first=True)"
    for layer, automatic in ((attention, False), ("self.attn = nn.Linear(8, 8)", True)):
        write(tmp_path, {
            "train.py": EVAL_MAIN,
            "model.py": f"from torch import nn\n\n\nclass Ranker(nn.Module):\n    def __init__(self):\n"
                        f"        super().__init__()\n        {layer}\n\n    def forward(self, x):\n"
                        f"        return x.sum(-1)\n",
        })
        [finding] = scan(tmp_path / "train.py", "eval-without-no-grad")
        assert finding["fixable"] is automatic, layer


EVAL_SETUP = ("import torch\nnet = torch.nn.Linear(4, 2)\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
              "data = [torch.randn(3, 4) for _ in range(2)]\n")
EVAL_CELL = "net.eval()\npreds = []\nfor x in data:\n    preds.append(net(x))\n"


def test_an_evaluation_loop_whose_outputs_a_later_cell_back_propagates_is_not_wrapped() -> None:
    """Test-time adaptation in a later cell (`torch.stack(preds)...backward()`): no_grad around
    the loop that collects `preds` would make that cell raise."""
    adapt = "net.train()\nloss = torch.stack(preds).softmax(-1).sum()\nopt.zero_grad()\nloss.backward()\nopt.step()\n"
    found = analyze(_cells(EVAL_SETUP, EVAL_CELL, adapt), rules=["eval-without-no-grad"]).findings
    assert found == ()


def test_an_evaluation_loop_before_a_later_training_cell_is_still_wrapped() -> None:
    """Near-misses: a later cell that trains on its own batches, or reads the predictions without
    back-propagating, leaves the evaluation loop's rewrite as it is."""
    retrain = "for x in data:\n    loss = net(x).pow(2).mean()\n    opt.zero_grad()\n    loss.backward()\n    opt.step()\n"
    report = "print(len(preds), preds[0].shape)\n"
    for later in (retrain, report):
        found = analyze(_cells(EVAL_SETUP, EVAL_CELL, later), rules=["eval-without-no-grad"]).findings
        assert [(f.ref.cell, f.line) for f in found] == [(1, 3)] and found[0].fix.automatic


def test_a_hoisted_name_is_new_to_the_earlier_and_later_cells() -> None:
    """The name a hoist binds at a cell's top level must not overwrite an earlier cell's
    variable (`tensor_const = 10`) nor one a later cell reads."""
    loop = "out = []\nfor step in range(3):\n    out.append((torch.tensor([1.0, 2.0]) * step).sum().item())\n"
    for cells in (_cells("import torch\ntensor_const = 10\n", loop),
                  _cells("import torch\n", loop, "print(tensor_const)\n")):
        found = [f for f in analyze(cells, rules=["redundant-tensor"]).findings if f.fix and f.fix.automatic]
        assert len(found) == 1
        assert "tensor_const =" not in found[0].fix.suggestion and "tensor_const_2 =" in found[0].fix.suggestion


def test_a_list_a_later_cell_reads_keeps_its_python_numbers() -> None:
    """`losses.append(loss.item())` then `torch.tensor(losses)`: stacking the tensors instead
    leaves tensors in the list, which a later cell may read as numbers (`round(v, 4)`,
    `json.dumps`): left to host-sync's finding then, as for a list read as numbers in its own
    cell; a later cell that reads only the joined tensor (near-miss) leaves it automatic."""
    loop = ("import torch\nlosses = []\nfor step in range(3):\n"
            "    loss = torch.randn(4, requires_grad=True).pow(2).mean()\n"
            "    loss.backward()\n    losses.append(loss.item())\ncurve = torch.tensor(losses)\n")
    for later, automatic in (("print([round(v, 4) for v in losses])\n", False),
                             ("import json\nprint(json.dumps({'loss': losses}))\n", False),
                             ("print(curve.mean())\n", True)):
        found = [f for f in analyze(_cells(loop, later), rules=["list-to-tensor"]).findings if f.ref.cell == 0]
        assert [bool(f.fix and f.fix.automatic) for f in found] == ([True] if automatic else []), later


def test_a_star_import_of_a_local_module_reaches_its_helpers(tmp_path: Path) -> None:
    # SR-GNN style: main.py does `from model import *` and calls `train_test` of model.py per epoch
    write(tmp_path, {
        "train.py": TRAIN.format(imports="from utils import *", body="            inputs = to_device(inputs)"),
        "utils.py": UTILS,
    })
    assert [(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "train.py", "ping-pong")] == [("utils.py", 5)]


def test_a_star_import_binds_only_what_the_module_exports(tmp_path: Path) -> None:
    cases = {
        # `__all__` leaves the helper out: the star import does not bind it
        "all": ("from utils import *", "__all__ = ['unused']\n" + UTILS, "            inputs = to_device(inputs)"),
        # a private name is never bound by `*`
        "private": ("from utils import *", UTILS.replace("def to_device", "def _to_device"),
                    "            inputs = _to_device(inputs)"),
        # the script's own function of the same name wins over the star import
        "own": ("from utils import *\n\n\ndef to_device(batch):\n    return batch\n", UTILS,
                "            inputs = to_device(inputs)"),
        # an explicit import of the name from another module wins too
        "explicit": ("from utils import *\nfrom clean import to_device", UTILS, "            inputs = to_device(inputs)"),
        # a star import of an installed package reads nothing
        "installed": ("from torch import *", UTILS, "            inputs = inputs.float()"),
    }
    for name, (imports, utils, body) in cases.items():
        root = tmp_path / name
        write(root, {"train.py": TRAIN.format(imports=imports, body=body), "utils.py": utils,
                     "clean.py": "def to_device(batch):\n    return batch\n"})
        assert scan(root / "train.py", "ping-pong") == [], name


AGENT = '''\
import torch


class Agent:
    def __init__(self, cuda):
        self.device = torch.device("cuda" if cuda else "cpu")
        self.critic = torch.nn.Linear(4, 1).to(self.device)
        self.opt = torch.optim.Adam(self.critic.parameters())

    def update_parameters(self, batch):
        x = torch.as_tensor(batch, dtype=torch.float32, device=self.device)
        loss = self.critic(x).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def report(self, batch):
        return self.critic(torch.as_tensor(batch, dtype=torch.float32, device=self.device)).sum().item()
'''


def test_a_method_of_a_local_modules_class_runs_per_iteration(tmp_path: Path) -> None:
    # SAC style: main.py builds `agent = SAC(...)` from sac.py and calls `agent.update_parameters` per step
    write(tmp_path, {
        "main.py": "import numpy as np\nfrom agent import Agent\n\nagent = Agent(True)\n"
                   "for step in range(10):\n    loss = agent.update_parameters(np.random.randn(8, 4))\n",
        "agent.py": AGENT,
    })
    assert [(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "main.py", "host-sync")] == [("agent.py", 16)]


RUNNER = '''\
import numpy as np


class Runner:
    def __init__(self, agent=None, steps=10):
        self.agent = agent
        self.steps = steps

    def run(self):
        total = 0.0
        for step in range(self.steps):
            total += self.agent.update_parameters(np.random.randn(8, 4))
        return total
{extra}'''


def test_a_method_of_an_object_the_program_stores_on_an_attribute_runs_per_iteration(tmp_path: Path) -> None:
    # check 22's DQN: `env_manager.agent = dqn_agent` in cartpole.py, `self.agent.get_action(...)` in
    # env_manager.py's loop, `get_action` in dqn_agent.py: the class is known only from what the program stores
    mains = {
        "constructor": "from agent import Agent\nfrom runner import Runner\n\nprint(Runner(Agent(True)).run())\n",
        "keyword": "from agent import Agent\nfrom runner import Runner\n\nprint(Runner(agent=Agent(True), steps=4).run())\n",
        "stored": "from agent import Agent\nfrom runner import Runner\n\nrunner = Runner()\nrunner.agent = Agent(True)\n"
                  "print(runner.run())\n",
    }
    for name, text in mains.items():
        root = tmp_path / name
        write(root, {"main.py": text, "agent.py": AGENT, "runner.py": RUNNER.format(extra="")})
        found = [(Path(f["path"]).name, f["line"]) for f in scan(root / "main.py", "host-sync")]
        assert found == [("agent.py", 16)], name


def test_an_attribute_the_program_may_fill_with_other_objects_types_no_call(tmp_path: Path) -> None:
    other = "\n\nclass Other:\n    def update_parameters(self, batch):\n        return 0.0\n"
    cases = {
        # two classes stored: which `update_parameters` runs is not one
        "two_classes": ("from agent import Agent, Other\nfrom runner import Runner\n\nrunner = Runner(Agent(True))\n"
                        "runner.agent = Other()\nprint(runner.run())\n", ""),
        # a factory's result: not a construction the analysis reads
        "factory": ("from agent import Agent\nfrom runner import Runner\n\ndef make():\n    return Agent(True)\n\n"
                    "runner = Runner()\nrunner.agent = make()\nprint(runner.run())\n", ""),
        # the class binds the attribute again in another method
        "rebound_in_class": ("from agent import Agent\nfrom runner import Runner\n\nprint(Runner(Agent(True)).run())\n",
                             "\n    def swap(self, agent):\n        self.agent = agent\n"),
        # stored on an object not known to be a Runner
        "unknown_holder": ("from agent import Agent\nfrom runner import Runner\nimport registry\n\nrunner = registry.get()\n"
                           "runner.agent = Agent(True)\nprint(runner.run())\n", ""),
        # arguments behind a star: which value the parameter takes is not read
        "starred": ("from agent import Agent\nfrom runner import Runner\n\nargs = [Agent(True)]\nprint(Runner(*args).run())\n", ""),
        # nothing stored but None
        "none": ("from agent import Agent\nfrom runner import Runner\n\nagent = Agent(True)\nprint(Runner().run())\n", ""),
    }
    for name, (text, extra) in cases.items():
        root = tmp_path / name
        write(root, {"main.py": text, "agent.py": AGENT + other, "runner.py": RUNNER.format(extra=extra)})
        assert scan(root / "main.py", "host-sync") == [], name


KD_TRAINER = """\
import torch
import torch.nn.functional as F


def train_kd(student, teacher, optimizer, loader):
    student.train()
    teacher.eval()
    for x, y in loader:
        s_out = student(x)
        t_out = teacher(x)
        loss = F.mse_loss(s_out, t_out) + F.cross_entropy(s_out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()
"""

KD_MAIN = """\
import torch
from torch import nn
from trainer import train_kd

student = nn.Linear(8, 3)
teacher = nn.Linear(8, 3)
optimizer = torch.optim.SGD({params}, lr=0.1)
loader = [(torch.randn(4, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
for epoch in range(2):
    {call}
"""


def test_a_teacher_given_by_the_script_to_a_distillation_function_of_another_module(tmp_path: Path) -> None:
    cases = {
        # the teacher and an optimizer of the student alone, passed by name: the teacher's graph is waste
        "student_only": ("student.parameters()", "train_kd(student, teacher, optimizer, loader)", [10]),
        # the optimizer steps the teacher too: its graph is needed
        "both_trained": ("list(student.parameters()) + list(teacher.parameters())",
                         "train_kd(student, teacher, optimizer, loader)", []),
        # an optimizer the script does not bind by name
        "unnamed_optimizer": ("student.parameters()", "train_kd(student, teacher, torch.optim.SGD(teacher.parameters()), loader)", []),
        # the function handed on as a value: other callers may pass anything
        "handed_on": ("student.parameters()", "run = train_kd; run(student, teacher, optimizer, loader)", []),
    }
    for name, (params, call, lines) in cases.items():
        root = tmp_path / name
        write(root, {"main.py": KD_MAIN.format(params=params, call=call), "trainer.py": KD_TRAINER})
        found = [(Path(f["path"]).name, f["line"]) for f in scan(root / "main.py", "eval-without-no-grad")]
        assert found == [("trainer.py", line) for line in lines], name


def test_a_local_class_method_called_once_or_on_another_object_is_not_per_iteration(tmp_path: Path) -> None:
    mains = {
        # called once, after the loop
        "once": "import numpy as np\nfrom agent import Agent\n\nagent = Agent(True)\nfor step in range(3):\n"
                "    pass\nagent.report(np.zeros((2, 4)))\n",
        # the receiver is rebound to something else before the loop
        "rebound": "import numpy as np\nfrom agent import Agent\n\nagent = Agent(True)\nagent = object()\n"
                   "for step in range(3):\n    agent.report(np.zeros((2, 4)))\n",
        # an installed package's class of the same name
        "installed": "import numpy as np\nfrom gym import Agent\n\nagent = Agent(True)\nfor step in range(3):\n"
                     "    agent.report(np.zeros((2, 4)))\n",
    }
    for name, text in mains.items():
        root = tmp_path / name
        write(root, {"main.py": text, "agent.py": AGENT})
        assert scan(root / "main.py", "host-sync") == [], name


def test_a_helper_module_named_on_the_command_line_is_reported_once(tmp_path: Path) -> None:
    write(tmp_path, {
        "main.py": "import torch\nfrom model import train_test\n\nnet = torch.nn.Linear(4, 1).cuda()\n"
                   "for epoch in range(3):\n    train_test(net)\n",
        "model.py": "import torch\n\n\ndef train_test(net):\n    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
                    "    for step in range(10):\n        loss = net(torch.randn(8, 4, device='cuda')).pow(2).mean()\n"
                    "        opt.zero_grad()\n        loss.backward()\n        opt.step()\n        print(loss.item())\n",
    })
    args = [str(tmp_path / "main.py"), str(tmp_path / "model.py"), "--format", "json", "--rule", "host-sync"]
    proc = paef("scan", *args)
    found = [(Path(f["path"]).name, f["line"]) for f in json.loads(proc.stdout)["findings"]]
    assert found == [("model.py", 11)]


HELPER_EVAL_MAIN = '''\
import numpy as np
import torch
from torch import nn

from utils import {names}


def evaluate(model, batches):
    model.eval()
    predict_all = np.array([], dtype=int)
    with torch.no_grad():
        for texts, labels in batches:
            texts = {move}
            outputs = model(texts)
            predic = torch.max(outputs.data, 1)[1].cpu().numpy()
            predict_all = np.append(predict_all, predic)
    return predict_all


model = {model}
print(evaluate(model, [(torch.randn(4, 8), torch.zeros(4))]))
'''

DEVICE_UTILS = '''\
import torch


def get_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def prepare_model(model):
    return model.to(get_device())


def move(t):
    return t.cuda() if torch.cuda.is_available() else t


def to_cpu(model):
    return model.to("cpu")


def half(model):
    return model.to(torch.float16)


def unused_gpu(model):
    return model.cuda()
'''


def test_a_model_moved_by_a_helper_of_another_module_makes_eval_copies_syncs(tmp_path: Path) -> None:
    """The script never names a device: `prepare_model` (or `move`) of `utils` does."""
    for model, move in (("prepare_model(nn.Linear(8, 2))", "texts"), ("nn.Linear(8, 2)", "move(texts)")):
        write(tmp_path, {"utils.py": DEVICE_UTILS,
                         "main.py": HELPER_EVAL_MAIN.format(names="move, prepare_model", model=model, move=move)})
        found = [(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "main.py", "host-sync")]
        assert found == [("main.py", 15)], (model, move, found)


def test_helpers_that_name_no_accelerator_leave_the_script_on_the_host(tmp_path: Path) -> None:
    """A helper that moves to the CPU or casts, or a GPU helper the script never calls."""
    for model in ("to_cpu(nn.Linear(8, 2))", "half(nn.Linear(8, 2)).float()", "nn.Linear(8, 2)"):
        write(tmp_path, {"utils.py": DEVICE_UTILS,
                         "main.py": HELPER_EVAL_MAIN.format(names="half, to_cpu, unused_gpu", model=model, move="texts")})
        assert scan(tmp_path / "main.py", "host-sync") == [], model


def test_a_module_whose_caller_moves_the_model_runs_on_the_device(tmp_path: Path) -> None:
    """`run.py` moves the model (`.to(config.device)`) and calls `train_eval.train(...)`: the
    per-step `.cpu().numpy()` of train_eval's `train` is a sync, though that module never names
    a device. Scanned alone, or called by a CPU-only script, it stays silent."""
    train_eval = '''\
import numpy as np
import torch
import torch.nn.functional as F


def evaluate(config, model, data_iter):
    model.eval()
    predict_all = np.array([], dtype=int)
    with torch.no_grad():
        for texts, labels in data_iter:
            outputs = model(texts)
            predic = torch.max(outputs.data, 1)[1].cpu().numpy()
            predict_all = np.append(predict_all, predic)
    return predict_all


def train(config, model, train_iter, dev_iter):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for trains, labels in train_iter:
            loss = F.cross_entropy(model(trains), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(loss.detach().cpu().numpy())
        print(evaluate(config, model, dev_iter))
'''
    run = '''\
import torch
from torch import nn

from train_eval import train


class Config:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


config = Config()
model = nn.Linear(8, 2){move}
batches = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(3)]
train(config, model, batches, batches)
'''
    write(tmp_path, {"train_eval.py": train_eval, "run.py": run.format(move=".to(config.device)")})
    found = [(Path(f["path"]).name, f["line"]) for f in scan(tmp_path / "run.py", "host-sync")]
    assert found == [("train_eval.py", 25)]  # the training step's copy; `evaluate`'s (12) is an evaluation pass (label49)
    assert scan(tmp_path / "train_eval.py", "host-sync") == []
    write(tmp_path, {"run.py": run.format(move="").replace('torch.device("cuda" if torch.cuda.is_available() else "cpu")', '"cpu"')})
    assert scan(tmp_path / "run.py", "host-sync") == []


def test_an_evaluation_loop_whose_graph_a_later_cell_reads_is_not_wrapped() -> None:
    """A later cell that asks whether the loop's output recorded a graph
    (`logits.requires_grad`, `.grad_fn`) reads another answer under no_grad: the loop is left
    alone; a later cell reading only the output's values (near-miss) keeps the rewrite."""
    loop = ("import torch\nmodel = torch.nn.Linear(4, 3)\nbatches = [torch.randn(2, 4) for _ in range(3)]\n"
            "model.eval()\ncorrect = 0\nfor xb in batches:\n    logits = model(xb)\n"
            "    correct += int(logits.argmax(1).sum())\n")
    for later, automatic in (("print(logits.requires_grad)\n", False),
                             ("print(logits.grad_fn is not None)\n", False),
                             ("print(logits.argmax(1))\n", True)):
        found = [f for f in analyze(_cells(loop, later), rules=["eval-without-no-grad"]).findings if f.ref.cell == 0]
        assert [bool(f.fix and f.fix.automatic) for f in found] == ([True] if automatic else []), later


def test_a_round_trip_whose_source_a_later_cell_changes_is_copied() -> None:
    """`targets = torch.tensor(pseudo.cpu().numpy())` made a copy; `pseudo.detach()` shares
    `pseudo`'s memory, which a later cell changes in place (`pseudo.add_(1)`, through an alias):
    the rewrite keeps a `.clone()`; a later cell that only reads `pseudo` (near-miss) needs none."""
    cell = ("import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
            "pseudo = torch.randint(0, 3, (5,), device=device)\nfor step in range(2):\n"
            "    targets = torch.tensor(pseudo.cpu().numpy()).to(device)\n    print((targets + 1).sum())\n")
    for later, clone in (("pseudo.add_(1)\nprint(targets)\n", True),
                         ("p = pseudo\np[0] = 7\nprint(targets)\n", True),
                         ("print(pseudo.sum(), targets)\n", False)):
        found = [f for f in analyze(_cells(cell, later), rules=["ping-pong"]).findings
                 if f.ref.cell == 0 and f.fix and f.fix.automatic]
        assert len(found) == 1, later
        assert (".clone()" in found[0].fix.suggestion) is clone, (later, found[0].fix.suggestion)


def test_a_round_trip_whose_source_a_later_cell_hands_to_a_changing_function_is_copied() -> None:
    """A later cell hands the round trip's source to a function that changes it in place
    (defined in an earlier cell, or a method-less helper of the later cell itself), or to a
    callable the analysis cannot see: the rewrite keeps a `.clone()`; a function that only
    reads its argument, and a builtin (near-misses), need none."""
    helpers = ("import torch\n\n\ndef sharpen(p):\n    p.pow_(2)\n\n\ndef peek(p):\n    return float(p.sum())\n")
    cell = ("device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
            "pseudo = torch.rand(5, device=device)\nfor step in range(2):\n"
            "    targets = torch.tensor(pseudo.cpu().numpy()).to(device)\n    print((targets + 1).sum())\n")
    for later, clone in (("sharpen(pseudo)\nprint(targets)\n", True),
                         ("def halve(t):\n    t /= 2\n\n\nhalve(pseudo)\n", True),
                         ("for p in [pseudo]:\n    sharpen(p)\n", True),
                         ("import mystery\nmystery.normalize(pseudo)\n", True),
                         ("print(peek(pseudo), len(pseudo))\n", False)):
        found = [f for f in analyze(_cells(helpers, cell, later), rules=["ping-pong"]).findings
                 if f.ref.cell == 1 and f.fix and f.fix.automatic]
        assert len(found) == 1, later
        assert (".clone()" in found[0].fix.suggestion) is clone, (later, found[0].fix.suggestion)


def test_an_evaluation_loop_over_code_of_other_cells_that_needs_grad_is_not_wrapped() -> None:
    """What the evaluation loop runs or hands on lives in other cells: a model class of an
    earlier cell that calls `retain_grad()` in forward (silent), a forward hook an earlier cell
    registered (review), a later cell handing the outputs to an earlier cell's helper that
    back-propagates (silent). Near-misses: a plain model class, and a helper that only reads."""
    setup = ("import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
             "        super().__init__()\n        self.fc = nn.Linear(3, 2)\n\n    def forward(self, x):\n"
             "        h = self.fc(x)\n{extra}        return h\n\n\ndef adapt(outputs):\n"
             "    torch.stack(outputs).mean().backward()\n\n\ndef mean_of(outputs):\n"
             "    return float(torch.stack(outputs).mean())\n\n\nnet = Net()\n{hook}"
             "batches = [torch.randn(4, 3) for _ in range(2)]\n")
    loop = ("net.eval()\nouts = []\ncorrect = 0\nfor xb in batches:\n    o = net(xb)\n    outs.append(o.sum())\n"
            "    correct += int(o.argmax(-1).sum())\n")
    hook = "feats = []\nhandle = net.fc.register_forward_hook(lambda m, i, o: feats.append(o))\n"
    for extra, registered, later, expected in (
            ("        h.retain_grad()\n", "", "print(correct)\n", []),
            ("", hook, "print(correct)\n", ["review"]),
            ("", "", "adapt(outs)\n", []),
            ("", "", "print(mean_of(outs))\n", ["automatic"])):
        cells = _cells(setup.format(extra=extra, hook=registered), loop, later)
        found = [f for f in analyze(cells, rules=["eval-without-no-grad"]).findings if f.ref.cell == 1]
        kinds = ["automatic" if f.fix.automatic else "review" if f.fix.needs_review else "hint" for f in found]
        assert kinds == expected, (extra, registered, later, kinds)


KGE = '''\
import torch
from torch import nn


class KGE(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.emb = nn.Embedding(n, dim)

    def forward(self, idx):
        return self.emb(idx).sum(-1)

    @staticmethod
    def train_step(model, optimizer, batches, args):
        optimizer.zero_grad()
        idx = next(batches)
        if args.cuda:
            idx = idx.cuda()
        loss = model(idx).pow(2).mean()
        loss.backward()
        optimizer.step()
        return {"loss": loss.item()}

    @staticmethod
    def test_step(model, batches, args):
        with torch.no_grad():
            scores = [model(idx.cuda() if args.cuda else idx) for idx in batches]
            for idx in batches:
                scores.append(model(idx.cuda() if args.cuda else idx))
        return torch.stack(scores).mean()
'''

KGE_MAIN = '''\
import torch
from kge import KGE


def main(args, batches, held_out):
{build}
    optimizer = torch.optim.Adam(model.parameters())
    logs = []
    for step in range(100):
        log = {call}(model, optimizer, batches, args)
        logs.append(log)
        if step % 10 == 0:
            print(model.test_step(model, held_out, args).item(), sum(l["loss"] for l in logs))
            logs = []
'''


def test_a_static_step_method_of_a_local_modules_class_is_the_training_step(tmp_path: Path) -> None:
    # KnowledgeGraphEmbedding style: `kge_model.train_step(kge_model, optimizer, iterator, args)`, a
    # static method of model.py's class called through the instance (moved in a branch) beside a
    # periodic test step with a loop of its own: the loop is a training loop, one step per round
    builds = {
        "moved_in_a_branch": "    model = KGE(10, 4)\n    if args.cuda:\n        model = model.cuda()",
        "moved_where_built": "    model = KGE(10, 4).cuda()",
        "moved_twice": "    model = KGE(10, 4)\n    model = model.to('cuda')\n    model = model.train()",
    }
    for name, build in builds.items():
        for call in ("model.train_step", "KGE.train_step"):
            root = tmp_path / f"{name}_{call.split('.')[0]}"
            write(root, {"main.py": KGE_MAIN.format(build=build, call=call), "kge.py": KGE})
            found = [(Path(f["path"]).name, f["line"]) for f in scan(root / "main.py", "host-sync")]
            assert found == [("kge.py", 22)], (name, call)


def test_a_step_method_of_an_object_that_is_not_the_class_instance_stays_unknown(tmp_path: Path) -> None:
    # the receiver rebound to what a method returns (not the instance moved) or to another object:
    # `model.train_step` is not known to be KGE's, so the loop is not known to train
    builds = {
        "method_result": "    model = KGE(10, 4)\n    model = model.compile_for(args)",
        "other_object": "    model = KGE(10, 4)\n    if args.cuda:\n        model = torch.jit.script(model)",
    }
    for name, build in builds.items():
        root = tmp_path / name
        write(root, {"main.py": KGE_MAIN.format(build=build, call="model.train_step"), "kge.py": KGE})
        assert scan(root / "main.py", "host-sync") == [], name


SCORER = '''\
import torch
from torch import nn


class Scorer(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.emb = nn.Embedding(n, dim)
        self.gamma = nn.Parameter(torch.Tensor([12.0]), requires_grad=False)

    def forward(self, idx):
        return self.score(self.emb(idx))

    def score(self, x):
        return self.gamma.item() - x.sum(-1)

    @staticmethod
    def test_step(model, batches):
        with torch.no_grad():
            for idx in batches:
                print(model(idx.cuda()).mean())
'''

SCORER_MAIN = '''\
import torch
from scorer import Scorer

model = Scorer(10, 4).cuda()
optimizer = torch.optim.Adam(model.parameters())
batches = [torch.randint(0, 10, (8,)) for _ in range(4)]
for step in range(100):
{body}
'''


def test_a_forward_the_training_loop_of_another_module_runs_says_training(tmp_path: Path) -> None:
    # the module's own test loop claims `forward` first; `run.py`'s training loop runs it on every
    # step too, and a read in `forward`'s helper costs a training step (high). Called only from
    # evaluation (no training loop runs the model), it stays an evaluation step (medium).
    bodies = {
        "training": "    loss = model(batches[step % 4].cuda()).pow(2).mean()\n    optimizer.zero_grad()\n"
                    "    loss.backward()\n    optimizer.step()\n    if step % 10 == 0:\n"
                    "        model.test_step(model, batches)",
        "evaluation": "    model.test_step(model, batches)",
    }
    for word, body in bodies.items():
        root = tmp_path / word
        write(root, {"main.py": SCORER_MAIN.format(body=body), "scorer.py": SCORER})
        found = [(Path(f["path"]).name, f["line"], f["severity"], f"every {word} step" in f["message"])
                 for f in scan(root / "main.py", "host-sync") if f["line"] == 15]
        assert found == [("scorer.py", 15, "high" if word == "training" else "medium", True)], word


def test_a_running_sum_read_out_of_sight_by_an_earlier_cell_is_not_rewritten() -> None:
    """An earlier cell defines what reads the running sum while the loop runs, without the loop
    showing it: a helper reading `globals()["total"]`, a scheduler's lambda reading `total`, a
    function reading the global `total`. The device-side sum then needs review (or is left
    alone); an earlier cell with a helper that reads nothing of it (near-miss) keeps it automatic."""
    head = ("import torch\nfrom torch import nn\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
            "model = nn.Linear(4, 1).to(device)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
            "data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]\n")
    loop = ("total = 0.0\nfor x, y in data:\n    loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))\n"
            "    opt.zero_grad()\n    loss.backward()\n    opt.step()\n    total += loss.item()\n    hook()\n")
    for helper, automatic in (("def hook():\n    print(globals()['total'])\n", False),
                              ("sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 1.0 / (1.0 + total))\n\n\n"
                               "def hook():\n    sched.step()\n", False),
                              ("def hook():\n    print(total)\n", False),
                              ("def hook():\n    print('step')\n", True)):
        found = [f for f in analyze(_cells(head + helper, loop), rules=["host-sync"]).findings
                 if f.ref.cell == 1 and f.fix and f.fix.edits]
        assert [f.fix.automatic for f in found] == ([True] if automatic else [False] * len(found)), helper


PINN_MAIN = '''\
import torch
from physics import Solver
device = "cuda" if torch.cuda.is_available() else "cpu"
model = Solver().to(device)
grid = [torch.linspace(0, 1, 5).view(-1, 1) + i for i in range(3)]
residuals = []
for t in grid:
    r = model(t.to(device))
    residuals.append(r.abs().mean())
'''
PINN_MODULE = '''\
import torch
from torch import nn


class Solver(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(1, 1)

    def forward(self, t):
{body}
'''


def test_paef_fix_reads_the_local_module_of_a_model_whose_forward_needs_grad(tmp_path: Path) -> None:
    """`paef fix` proves its rewrites with the local modules the script imports, as `paef scan`
    does: a model whose forward, in another module, differentiates its input (a physics-informed
    residual) or keeps a hidden gradient is not wrapped in no_grad; a plain forward there is."""
    bodies = {
        "        t = t.requires_grad_(True)\n        u = self.net(t)\n"
        "        return torch.autograd.grad(u.sum(), t, create_graph=True)[0] - u": False,
        "        h = self.net(t)\n        h.retain_grad()\n        return h": False,
        "        return self.net(t).tanh()": True,
    }
    for body, wrapped in bodies.items():
        write(tmp_path, {"main.py": PINN_MAIN, "physics.py": PINN_MODULE.format(body=body)})
        proc = paef("fix", str(tmp_path / "main.py"), "-o", str(tmp_path / "fixed.py"))
        assert proc.returncode == 0, proc.stderr
        assert ("torch.no_grad()" in (tmp_path / "fixed.py").read_text()) is wrapped, body


LOGGED_MAIN = '''\
import torch
from torch import nn
from {module} import Logger
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
log = Logger()
running_loss = 0.0
for i, (x, y) in enumerate(data):
    loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    running_loss += loss.item()
    log.step(i)
'''


def test_a_running_sum_a_local_module_reads_off_main_is_not_rewritten(tmp_path: Path) -> None:
    """A logger in a local module (or one it imports) reads the script's running loss through
    `import __main__`, a caller's frame or `sys.modules['__main__']`: the device-side sum needs
    review. A logger reading nothing of the script (near-miss) keeps the rewrite automatic."""
    readers = {
        "import __main__\n\n\nclass Logger:\n    def step(self, i):\n        print(i, __main__.running_loss)\n": False,
        "import sys\n\n\nclass Logger:\n    def step(self, i):\n        print(i, sys._getframe(1).f_globals['running_loss'])\n": False,
        "import sys\n\n\nclass Logger:\n    def step(self, i):\n        print(i, sys.modules['__main__'].running_loss)\n": False,
        "from deep import Logger\n": False,
        "class Logger:\n    def step(self, i):\n        print('step', i)\n": True,
    }
    for reader, automatic in readers.items():
        write(tmp_path, {"main.py": LOGGED_MAIN.format(module="logger"), "logger.py": reader,
                         "deep.py": "import __main__\n\n\nclass Logger:\n    def step(self, i):\n"
                                    "        print(i, __main__.running_loss)\n"})
        found = [f for f in analyze_path(str(tmp_path / "main.py"), rules=["host-sync"]).findings
                 if f.fix is not None and f.fix.edits]
        assert found and [f.fix.automatic for f in found] == [automatic] * len(found), reader


HIST_CELL = ("import torch\nxs = torch.randn(4, 3)\n\n\ndef record(x):\n    return None\n\n\n"
             "def run_hist():\n    global hist\n    out = []\n    for epoch in range(2):\n"
             "        hist = torch.zeros(3)\n        for x in xs:\n            record(x)\n"
             "        out.append(hist.sum().item())\n    return out\n")


def test_a_helper_a_later_cell_redefines_may_change_the_hoisted_global() -> None:
    """A loop inside a function runs when a later cell calls it: by then a later cell may have
    redefined `record` to change the global `hist` in place (refused); a later cell defining
    another function (near miss) leaves the hoist automatic."""
    redefine = "def record(x):\n    hist.mul_(0.9).add_(x)\n"
    other = "def report(x):\n    hist.mul_(0.9).add_(x)\n"
    for later, automatic in ((redefine, 0), (other, 1)):
        found = analyze(_cells(HIST_CELL, later, "print(run_hist())\n"), rules=["redundant-tensor"]).findings
        assert sum(bool(f.fix and f.fix.automatic) for f in found) == automatic, later


MAIN_LOOP = ("import torch\nimport tracking\n\nxs = torch.randn(4, 3)\nout = []\nfor epoch in range(2):\n"
             "    hist = torch.zeros(3)\n    for x in xs:\n        tracking.record(x)\n"
             "    out.append(hist.sum().item())\n")


def test_a_local_module_reaching_the_script_through_main_refuses_hoisting_its_globals(tmp_path: Path) -> None:
    """`tracking.py` changes the script's `hist` through `import __main__` (or
    `sys.modules["__main__"]`): not hoisted. A module that only tests `__name__ == "__main__"`
    (near miss) reaches nothing: hoisted."""
    modules = {
        "main": "import __main__\n\n\ndef record(x):\n    __main__.hist.mul_(0.9).add_(x)\n",
        "sys": "import sys\n\n\ndef record(x):\n    sys.modules['__main__'].hist.add_(x)\n",
        "guard": "def record(x):\n    return x\n\n\nif __name__ == '__main__':\n    record(1)\n",
    }
    assert _automatic_hoists(tmp_path, modules) == {name: int(name == "guard") for name in modules}


def _automatic_hoists(tmp_path: Path, modules: dict[str, str]) -> dict[str, int]:
    """MAIN_LOOP beside each `tracking.py`: how many automatic redundant-tensor fixes it gets."""
    counts = {}
    for name, tracking in modules.items():
        root = tmp_path / name
        write(root, {"main.py": MAIN_LOOP, "tracking.py": tracking})
        found = analyze_path(str(root / "main.py"), rules=["redundant-tensor"]).findings
        counts[name] = sum(bool(f.fix and f.fix.automatic) for f in found)
    return counts


METER_CELL = ("import torch\nxs = torch.randn(4, 3)\n\n\nclass Meter:\n    def update(self, x):\n        return None\n\n\n"
              "meter = Meter()\n\n\ndef run_meter():\n    global peak\n    out = []\n    for epoch in range(2):\n"
              "        peak = torch.zeros(3)\n        for x in xs:\n            meter.update(x)\n"
              "        out.append(peak.sum().item())\n    return out\n")


def test_a_name_a_later_cell_rebinds_to_other_code_refuses_the_hoist() -> None:
    """A later cell rebinds what the function's loop calls to code not followed: a lambda
    (`record = lambda x: hist.add_(x)`), a method replaced on the class (`Meter.update = _update`),
    an import under the called name. Near misses: a later cell binding another name to a lambda,
    or setting another attribute of the class: the hoist stays automatic."""
    cases = [
        (HIST_CELL, "record = lambda x: hist.add_(x)\n", 0),
        (HIST_CELL, "from helpers import record\n", 0),
        (METER_CELL, "def _update(self, x):\n    peak.add_(x)\n\n\nMeter.update = _update\n", 0),
        (HIST_CELL, "report = lambda x: hist.add_(x)\n", 1),
        (METER_CELL, "def _update(self, x):\n    peak.add_(x)\n\n\nMeter.reset = _update\n", 1),
    ]
    for first, later, automatic in cases:
        found = analyze(_cells(first, later, "print('done')\n"), rules=["redundant-tensor"]).findings
        assert sum(bool(f.fix and f.fix.automatic) for f in found) == automatic, later


def test_a_local_module_reaching_the_script_by_other_spellings_refuses_hoisting_its_globals(tmp_path: Path) -> None:
    """Red team 12: `importlib.import_module("__main__")`, `sys.modules.get("__main__")`, a
    caller's frame (`inspect.currentframe().f_back.f_globals`, `sys._getframe(1)`,
    `inspect.stack()`), each the module's only way in: not hoisted. Near misses: a module
    importing another module by name, one that reads its own `__name__`: hoisted."""
    modules = {
        "importlib": "import importlib\n\n\ndef record(x):\n    importlib.import_module('__main__').hist.add_(x)\n",
        "get": "import sys\n\n\ndef record(x):\n    sys.modules.get('__main__').hist.add_(x)\n",
        "frame": "import inspect\n\n\ndef record(x):\n    inspect.currentframe().f_back.f_globals['hist'].add_(x)\n",
        "getframe": "import sys\n\n\ndef record(x):\n    sys._getframe(1).f_globals['hist'].add_(x)\n",
        "stack": "import inspect\n\n\ndef record(x):\n    inspect.stack()[1].frame.f_globals['hist'].add_(x)\n",
        "other": "import importlib\n\n\ndef record(x):\n    return importlib.import_module('json').dumps(x.tolist())\n",
        "name": "def record(x):\n    return __name__ == '__main__'\n",
    }
    assert _automatic_hoists(tmp_path, modules) == {name: int(name in ("other", "name")) for name in modules}


def test_a_call_a_later_cell_rebinds_by_a_call_or_by_string_refuses_the_hoist() -> None:
    """Red team 12: a later cell rebinds the called name to a factory's result (`record =
    make_recorder()`), writes it through `globals()`, or redefines the class whose method the
    loop calls (`class Meter:` again, its `update` changing the global): not followed, or
    followed into the new method. Near misses: the factory's result bound to another name, a
    redefined class whose method changes nothing of the loop's: hoisted."""
    factory = "def make_recorder():\n    def rec(x):\n        hist.add_(x)\n    return rec\n\n\n"
    cases = [
        (HIST_CELL, factory + "record = make_recorder()\n", 0),
        (HIST_CELL, "globals()['record'] = lambda x: hist.add_(x)\n", 0),
        (METER_CELL, "class Meter:\n    def update(self, x):\n        peak.add_(x)\n", 0),
        (HIST_CELL, factory + "recorder = make_recorder()\n", 1),
        (METER_CELL, "class Meter:\n    def update(self, x):\n        return x.sum()\n", 1),
    ]
    for first, later, automatic in cases:
        found = analyze(_cells(first, later, "print('done')\n"), rules=["redundant-tensor"]).findings
        assert sum(bool(f.fix and f.fix.automatic) for f in found) == automatic, later


def test_a_call_a_later_cell_binds_by_a_loop_target_or_on_the_instance_refuses_the_hoist() -> None:
    """Red team 12, second wave: a later cell binds the called name as a `for` target (`for
    record in [_rec]`) or replaces the method on the instance (`meter.update =
    types.MethodType(_update, meter)`): refused. Near misses: the loop target is another name, the
    instance gets a number under the method's name of another method: hoisted."""
    rec = "def _rec(x):\n    hist.add_(x)\n\n\n"
    upd = "import types\n\n\ndef _update(self, x):\n    peak.add_(x)\n\n\n"
    cases = [
        (HIST_CELL, rec + "for record in [_rec]:\n    pass\n", 0),
        (METER_CELL, upd + "meter.update = types.MethodType(_update, meter)\n", 0),
        (HIST_CELL, rec + "for other in [_rec]:\n    pass\n", 1),
        (METER_CELL, upd + "meter.reset = types.MethodType(_update, meter)\nmeter.update_count = 0\n", 1),
    ]
    for first, later, automatic in cases:
        found = analyze(_cells(first, later, "print('done')\n"), rules=["redundant-tensor"]).findings
        assert sum(bool(f.fix and f.fix.automatic) for f in found) == automatic, later


BPR_DATA = '''\
import numpy as np
import torch


class Sampler:
    def __init__(self, n_user=6, m_item=9):
        self.n_user, self.m_item = n_user, m_item

    def evaluate(self, model, device):
        auc = []
        for user_id in range(self.n_user):
            users = torch.full((4,), user_id).to(device)
            items = torch.arange(4).to(device)
            scores = model(users, items).numpy()
            auc.append(float((scores[0] > scores[1:]).mean()))
        return np.mean(auc)
'''

BPR_MAIN = '''\
import torch
from torch import nn
from data import Sampler


class MF(nn.Module):
    def __init__(self):
        super().__init__()
        self.u, self.i = nn.Embedding(6, 4), nn.Embedding(9, 4)

    def forward(self, users, items):
        return (self.u(users) * self.i(items)).sum(-1)


device = "cpu"
dl, model = Sampler(), MF()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
{first}
for epoch in range(2):
    model.train()
    loss = -model(torch.arange(6), torch.arange(6)).sigmoid().log().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
{per_epoch}
'''

UNDER = "with torch.no_grad():\n{pad}    model.eval()\n{pad}    auc = dl.evaluate(model, device)\n{pad}print(auc)"
BARE = "model.eval()\n{pad}auc = dl.evaluate(model, device)\n{pad}print(auc)"


def test_an_evaluation_loop_of_another_module_its_callers_run_under_no_grad_is_not_reported(tmp_path: Path) -> None:
    """BPR-MF's `dl.evaluate(model, device)` (a local module's loop) called before training and
    once per epoch, each call under `with torch.no_grad():`: no graph is recorded, nothing to wrap
    (it was reported, and offered as automatic, in the module's file)."""
    write(tmp_path, {"data.py": BPR_DATA, "main.py": BPR_MAIN.format(
        first=UNDER.format(pad=""), per_epoch="    " + UNDER.format(pad="    "))})
    assert scan(tmp_path / "main.py", "eval-without-no-grad") == []


def test_an_evaluation_loop_of_another_module_one_caller_runs_with_grad_is_reported(tmp_path: Path) -> None:
    """Near misses: the per-epoch call, or only the call before training, made without no_grad:
    that call records a graph, so the module's loop is still reported."""
    for first, per_epoch in ((UNDER.format(pad=""), "    " + BARE.format(pad="    ")),
                             (BARE.format(pad=""), "    " + UNDER.format(pad="    "))):
        write(tmp_path, {"data.py": BPR_DATA, "main.py": BPR_MAIN.format(first=first, per_epoch=per_epoch)})
        found = scan(tmp_path / "main.py", "eval-without-no-grad")
        assert [(Path(f["path"]).name, f["line"]) for f in found] == [("data.py", 11)], (first, per_epoch)


EVALUATE_CELL = ("def evaluate(net, data):\n    net.eval()\n    out = []\n    for x in data:\n"
                 "        out.append(net(x).sum().item())\n    return out\n")


def test_an_evaluation_loop_of_an_earlier_cell_called_under_no_grad_is_not_reported() -> None:
    """The same in a notebook: `evaluate` defined in one cell, called per epoch in a later cell
    under `with torch.no_grad():` (it was offered an automatic wrap in its own cell); a call
    without no_grad in the later cell is still reported there."""
    setup = "import torch\nnet = torch.nn.Linear(4, 2)\ndata = [torch.randn(3, 4) for _ in range(2)]\n"
    under = "for epoch in range(2):\n    with torch.no_grad():\n        print(evaluate(net, data))\n"
    bare = "for epoch in range(2):\n    print(evaluate(net, data))\n"
    assert analyze(_cells(setup, EVALUATE_CELL, under), rules=["eval-without-no-grad"]).findings == ()
    found = analyze(_cells(setup, EVALUATE_CELL, under, bare), rules=["eval-without-no-grad"]).findings
    assert [(f.ref.cell, f.line) for f in found] == [(1, 4)]


def test_a_later_cell_changing_an_object_or_a_callers_parameter_rebinds_no_helper() -> None:
    """Red team 13's read check follows red team 12's later-cell rule: a later cell that only
    changes an object in place (`target.load_state_dict(...)`), or binds a global named like a
    helper's parameter (`model` of `run(model)`), does not rebind what the helper calls: the
    helper's constant is still hoisted. Binding the called global itself (`scale = ...`) refuses."""
    setup = "import torch\nnet = torch.nn.Linear(2, 2)\ntarget = torch.nn.Linear(2, 2)\n"
    helper = ("def run(model):\n    out = []\n    for step in range(3):\n        w = torch.tensor([1.0, 2.0])\n"
              "        model(torch.ones(2))\n        target(torch.ones(2))\n        out.append((w * scale()).tolist())\n"
              "    return out\n"
              "def scale():\n    return 2.0\n")
    for later, hoisted in (("target.load_state_dict(net.state_dict())\nmodel = net\nrun(net)\n", True),
                           ("scale = lambda: 3.0\nrun(net)\n", False)):
        found = [f for f in analyze(_cells(setup, helper, later), rules=["redundant-tensor"]).findings
                 if f.fix and f.fix.automatic]
        assert (len(found) == 1) is hoisted, later


CLIPS = '''\
import torch
import torchaudio


class Clips(torch.utils.data.Dataset):
    def __init__(self, paths, labels):
        self.paths = paths
        self.labels = labels
        self.mfcc = torchaudio.transforms.MFCC(8000)

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, idx):
        if torch.is_tensor(idx):
            idx = idx.tolist()
        waveform, rate = torchaudio.load(self.paths[idx])
        return self.mfcc(waveform), self.labels[idx]


class Preloaded(torch.utils.data.Dataset):
    def __init__(self, features, labels):
        self.features = features
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.features[idx].float(), self.labels[idx]
'''

LOADING = '''\
import torch
from torch.utils.data import DataLoader
from audio.clips import Clips, Preloaded

device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(40, 1).to(device)
opt = torch.optim.Adam(model.parameters())
loader = DataLoader({dataset}, batch_size=32, shuffle=True{workers})
for epoch in range(3):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = torch.nn.functional.mse_loss(model(x).squeeze(-1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
'''


def test_a_dataset_class_of_a_local_module_that_decodes_per_sample_loads_in_the_training_process(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "", "audio/__init__.py": "", "audio/clips.py": CLIPS,
                     "scripts/train.py": LOADING.format(dataset="Clips(['a.wav'], [1.0])", workers="")})
    found = scan(tmp_path / "scripts" / "train.py", "sync-dataloader")
    assert [(Path(f["path"]).name, f["line"]) for f in found] == [("train.py", 8)]
    assert "`Clips.__getitem__` calls `torchaudio.load`" in found[0]["message"]


def test_a_local_modules_dataset_of_preloaded_tensors_or_a_loader_with_workers_is_left_alone(tmp_path: Path) -> None:
    """Near misses: the class only indexes what `__init__` stored; the loader has workers."""
    for dataset, workers in (("Preloaded(torch.randn(64, 40), torch.randn(64))", ""),
                             ("Clips(['a.wav'], [1.0])", ", num_workers=4")):
        write(tmp_path, {"pyproject.toml": "", "audio/__init__.py": "", "audio/clips.py": CLIPS,
                         "scripts/train.py": LOADING.format(dataset=dataset, workers=workers)})
        assert scan(tmp_path / "scripts" / "train.py", "sync-dataloader") == [], dataset


IMPORTED_EVAL_MODULE = """import torch


def evaluate(model, batches):
    model.eval()
    hits = 0
    for x, y in batches:
        hits += (model(x).argmax(1) == y).sum().item()
    return hits
"""
IMPORTED_EVAL_MAIN = """import torch
from torch import nn
from evaluate import evaluate

model = nn.Linear(4, 3)
batches = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(3)]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for x, y in batches:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(evaluate(model, batches))
"""


def test_a_rewrite_in_an_imported_module_is_never_shown_fixable_through_its_importer(tmp_path: Path) -> None:
    """`paef fix main.py` rewrites main.py only: a finding in evaluate.py reached from it is
    offered for review (the module alone is judged on its own), never `[fixable]` through main.py,
    and fixing main.py leaves evaluate.py as it was. Fails on aed3c4f (fixable through main.py)."""
    write(tmp_path, {"main.py": IMPORTED_EVAL_MAIN, "evaluate.py": IMPORTED_EVAL_MODULE})
    through_main = [f for f in analyze_path(str(tmp_path / "main.py"), rules=["eval-without-no-grad"]).findings]
    assert [(Path(f.ref.path).name, f.line) for f in through_main] == [("evaluate.py", 7)]
    assert not through_main[0].fixable and through_main[0].fix is not None and through_main[0].fix.needs_review
    alone = analyze_path(str(tmp_path / "evaluate.py"), rules=["eval-without-no-grad"]).findings
    assert [(f.line, f.fixable) for f in alone] == [(7, True)]  # near miss: its own file proves it
    assert paef("fix", str(tmp_path / "main.py")).returncode == 0
    assert (tmp_path / "evaluate.py").read_text() == IMPORTED_EVAL_MODULE
    assert "[fix needs review]" in paef("scan", str(tmp_path / "main.py"), "--rule", "eval-without-no-grad").stdout


KD_TRAINER_CLASS = """\
import torch


class Trainer:
    def __init__(self, model{extra_param}):
        self.model = model
        self.opt = torch.optim.SGD({params}, lr=0.1)
{extra}
"""


def test_an_optimizer_a_trainer_object_keeps_is_judged_by_what_it_was_built_from(tmp_path: Path) -> None:
    """`train_kd(trainer.model, teacher, trainer.opt, loader)`: the optimizer is the trainer's,
    built in `__init__` from the model it was given; the teacher, a new object handed to nothing
    else, is frozen. Fails on aed3c4f (an attribute argument was not followed)."""
    base = ("from trainer import Trainer\n", "trainer = Trainer(student)\n",
            "train_kd(trainer.model, teacher, trainer.opt, loader)")
    cases = {
        "kept_by_trainer": (base, "self.model.parameters()", "", "", [10]),
        # near misses: the teacher handed to the trainer, whose optimizer may step it
        "teacher_given_to_trainer": (("from trainer import Trainer\n", "trainer = Trainer(student, teacher)\n", base[2]),
                                     "list(self.model.parameters()) + list(self.extra.parameters())", ", extra",
                                     "        self.extra = extra", []),
        # the teacher is the trainer's model (not a new object)
        "teacher_is_the_trainers": (("from trainer import Trainer\n", "trainer = Trainer(student)\nteacher = trainer.model\n",
                                     base[2]), "self.model.parameters()", "", "", []),
        # `.opt` rebound by the script, or by another method of the class
        "rebound_by_script": ((base[0], base[1] + "trainer.opt = torch.optim.SGD(teacher.parameters(), lr=0.1)\n", base[2]),
                              "self.model.parameters()", "", "", []),
        "rebound_by_method": (base, "self.model.parameters()", "",
                              "    def reset(self, params):\n        self.opt = torch.optim.SGD(params, lr=0.1)", []),
        # not an optimizer of torch.optim
        "own_optimizer": (base, "self.model.parameters()", "", "", []),
    }
    for name, ((imports, setup, call), params, extra_param, extra, lines) in cases.items():
        root = tmp_path / name
        trainer = KD_TRAINER_CLASS.format(params=params, extra_param=extra_param, extra=extra)
        if name == "own_optimizer":
            trainer = trainer.replace("torch.optim.SGD(", "make_optimizer(") + "\n\ndef make_optimizer(p, lr):\n    return torch.optim.SGD(p, lr=lr)\n"
        main = KD_MAIN.format(params="student.parameters()", call=call).replace(
            "from trainer import train_kd\n", "from kd import train_kd\n" + imports).replace(
            "optimizer = torch.optim.SGD(student.parameters(), lr=0.1)\n", setup)
        write(root, {"main.py": main, "kd.py": KD_TRAINER, "trainer.py": trainer})
        found = [(Path(f["path"]).name, f["line"]) for f in scan(root / "main.py", "eval-without-no-grad")]
        assert found == [("kd.py", line) for line in lines], name


KEPT_LOADER_TRAINER = """\
import torch
from torch.utils.data import DataLoader, TensorDataset

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Trainer:
    def __init__(self, model):
        self.model = model.to(DEVICE)
        self.trainloader, self.testloader = self.build_loaders()
{extra}
    def build_loaders(self):
        data = TensorDataset(torch.randn(32, 4), torch.randint(0, 3, (32,)))
        return DataLoader(data, batch_size=8, num_workers=2{pin}), DataLoader(data, batch_size=8)
"""
KEPT_LOADER_STEPS = """\
import torch
import torch.nn.functional as F

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train(model, opt, loader):
    for x, y in loader:
        x, y = x.to(DEVICE), y.to(DEVICE)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
"""
KEPT_LOADER_MAIN = """\
import torch
from torch import nn
from steps import train
from trainer import Trainer

{make}
opt = torch.optim.SGD(trainer.model.parameters(), lr=0.1)
{rebind}for epoch in range(2):
    train(trainer.model, opt, trainer.trainloader)
"""


def test_a_loader_a_trainer_object_keeps_is_followed_to_the_function_the_script_hands_it(tmp_path: Path) -> None:
    """`train(model, opt, trainer.trainloader)` in main.py, `train` in steps.py copying each batch:
    the loader `Trainer.build_loaders` returns into `self.trainloader` is pinned where it is built,
    named as the trainer keeps it. Fails on aed3c4f (the attribute read outside the class was not
    followed)."""
    make = "trainer = Trainer(nn.Linear(4, 3))"
    cases = {
        "kept_and_handed": (make, "", "", "", [14]),
        # near misses: the script rebinds the attribute, the object is not known to be a Trainer,
        # the class rebinds it in another method, the loader is pinned already
        "rebound_by_script": (make, "trainer.trainloader = []\n", "", "", []),
        "made_elsewhere": ("trainer = [Trainer(nn.Linear(4, 3))][0]", "", "", "", []),
        "rebound_by_method": (make, "", "\n    def reset(self):\n        self.trainloader = []\n", "", []),
        "pinned": (make, "", "", ", pin_memory=True", []),
    }
    for name, (made, rebind, extra, pin, lines) in cases.items():
        root = tmp_path / name
        write(root, {"main.py": KEPT_LOADER_MAIN.format(make=made, rebind=rebind), "steps.py": KEPT_LOADER_STEPS,
                     "trainer.py": KEPT_LOADER_TRAINER.format(extra=extra, pin=pin)})
        found = [(Path(f["path"]).name, f["line"], f["message"].split(" yields")[0]) for f in scan(root / "main.py", "pageable-transfer")]
        assert found == [("trainer.py", line, "`self.trainloader`") for line in lines], name
