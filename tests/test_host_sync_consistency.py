"""host-sync gives the same verdict on the same line whatever shape the program around it has
(a script with an argparse main, helpers taking the model as a parameter, notebook cells), and
names the step it runs on (evaluation inside a training epoch is evaluation)."""

from __future__ import annotations

from pathlib import Path

from paef_jupyter.api import analyze
from paef_jupyter.model import CellRef, Finding, SourceUnit

LINE = "correct += (pred == y).sum().item()"

NET = '''
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 3)

    def forward(self, x):
        return self.fc(x)
'''

SCRIPT = f'''import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
{NET}

def evaluate(model, loader, device):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            pred = model(x).argmax(dim=1)
            {LINE}
    return correct / len(loader.dataset)


def build_model(args):
    return Net()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build_model(args).to(device)
    data = TensorDataset(torch.randn(64, 10), torch.randint(0, 3, (64,)))
    print(evaluate(model, DataLoader(data, batch_size=args.batch_size), device))


if __name__ == "__main__":
    main()
'''

CELLS = [
    f"import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader, TensorDataset\n{NET}",
    'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\nmodel = Net().to(device)\n'
    "loader = DataLoader(TensorDataset(torch.randn(64, 10), torch.randint(0, 3, (64,))), batch_size=32)\n",
    "model.eval()\ncorrect = 0\nwith torch.no_grad():\n    for x, y in loader:\n"
    f"        x, y = x.to(device), y.to(device)\n        pred = model(x).argmax(dim=1)\n        {LINE}\n",
]


def _on_line(findings: tuple[Finding, ...], texts: dict[object, str]) -> list[tuple[str, str, str]]:
    out = []
    for f in findings:
        if texts[f.ref].splitlines()[f.line - 1].strip() == LINE:
            out.append((f.rule, f.severity.value, f.message))
    return out


def test_same_line_same_finding_in_a_script_and_in_notebook_cells() -> None:
    script = [SourceUnit(CellRef("train.py"), SCRIPT)]
    cells = [SourceUnit(CellRef("eval.ipynb", i), text) for i, text in enumerate(CELLS)]
    found = []
    for units in (script, cells):
        report = analyze(units, rules=["host-sync"])
        found.append(_on_line(report.findings, {u.ref: u.text for u in units}))
    assert found[0] and found[0] == found[1]
    assert "evaluation step" in found[0][0][2]


def test_same_loop_silent_in_both_when_nothing_goes_to_a_device() -> None:
    script = SCRIPT.replace(".to(device)", "").replace("x, y = x, y", "pass")
    cells = [c.replace(".to(device)", "") for c in CELLS]
    for units in ([SourceUnit(CellRef("train.py"), script)],
                  [SourceUnit(CellRef("eval.ipynb", i), t) for i, t in enumerate(cells)]):
        assert not analyze(units, rules=["host-sync"]).findings


def test_evaluation_inside_a_training_epoch_says_evaluation() -> None:
    """Evaluation inside a training epoch is evaluation: in a program that trains it is an
    evaluation pass, silent (label49); the helper variant that only evaluates says so."""
    folder = Path(__file__).parent / "fixtures" / "rules" / "host-sync"
    path = folder / "neg_eval_inside_training_epoch.py"
    assert not analyze([SourceUnit(CellRef(str(path)), path.read_text())], rules=["host-sync"]).findings
    path = folder / "pos_helper_of_eval_loops_only_evaluation_only.py"
    (finding,) = analyze([SourceUnit(CellRef(str(path)), path.read_text())], rules=["host-sync"]).findings
    assert "every evaluation step" in finding.message


def test_no_grad_block_inside_a_training_step_says_training() -> None:
    path = Path(__file__).parent / "fixtures" / "rules" / "host-sync" / "pos_no_grad_block_in_training_step.py"
    (finding,) = analyze([SourceUnit(CellRef(str(path)), path.read_text())], rules=["host-sync"]).findings
    assert "every training step" in finding.message and finding.severity.value == "high"


def test_values_the_host_needs_are_low_hints() -> None:
    """Indexing a Python list, scikit-learn metrics, a slice bound: the host needs the value (an environment step is no finding)."""
    for name in ("pos_host_needed_low.py", "pos_sklearn_in_eval.py", "pos_host_needed_slice_bound.py"):
        path = Path(__file__).parent / "fixtures" / "rules" / "host-sync" / name
        findings = analyze([SourceUnit(CellRef(str(path)), path.read_text())], rules=["host-sync"]).findings
        assert findings and all(f.severity.value == "low" and not f.fixable for f in findings), name


TRAIN_STEP = "        loss = criterion(model(x), y)\n        loss.backward()\n        opt.step()\n        opt.zero_grad()\n" \
             "        seen = float(loss)\n"


def test_a_loss_is_a_tensor_whether_the_criterion_is_known_or_a_parameter() -> None:
    head = ('import torch\nimport torch.nn as nn\ndevice = "cuda" if torch.cuda.is_available() else "cpu"\n'
            "data = [(torch.randn(4, 3, device=device), torch.randint(0, 2, (4,), device=device))] * 3\n")
    known = head + "model = nn.Linear(3, 2).to(device)\ncriterion = nn.CrossEntropyLoss()\n" \
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nif True:\n    for x, y in data:\n" + TRAIN_STEP
    helper = head + "\n\ndef fit(model, criterion, opt):\n    for x, y in data:\n" + TRAIN_STEP
    found = []
    for text in (known, helper):
        report = analyze([SourceUnit(CellRef("t.py"), text)], rules=["host-sync"])
        found.append([(f.severity.value, f.message) for f in report.findings
                      if text.splitlines()[f.line - 1].strip() == "seen = float(loss)"])
    assert found[0] and found[0] == found[1]


def test_a_kernel_on_a_cpu_machine_gives_the_verdict_of_the_code() -> None:
    """The live `device` is "cpu" on this machine; the code that chose it would pick a GPU."""
    import torch

    cell = CELLS[2]
    namespace = {"torch": torch, "device": "cpu", "model": torch.nn.Linear(10, 3),
                 "loader": torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(4, 10), torch.zeros(4)))}
    live = analyze([SourceUnit(CellRef("nb.ipynb", 2), cell)], namespace=namespace, rules=["host-sync"]).findings
    scanned = analyze([SourceUnit(CellRef("nb.ipynb", i), t) for i, t in enumerate(CELLS)], rules=["host-sync"]).findings
    assert live and [(f.line, f.severity) for f in live] == [(f.line, f.severity) for f in scanned if f.ref.cell == 2]


def test_epoch_level_reads_in_helpers_are_silent_in_cells_too() -> None:
    """The helpers run the batch loops and read once after them; the epoch loop calling them sits
    in a later cell: still once per epoch, as in the script (`neg_epoch_loop_calls_train_helper`)."""
    path = Path(__file__).parent / "fixtures" / "rules" / "host-sync" / "neg_epoch_loop_calls_train_helper.py"
    text = path.read_text()
    setup, rest = text.split("\n\ndef train_one_epoch", 1)
    helpers, driver = ("def train_one_epoch" + rest).split("\n\ndef fit", 1)
    cells = [setup, helpers, "def fit" + driver]
    assert not analyze([SourceUnit(CellRef(str(path)), text)], rules=["host-sync"]).findings
    units = [SourceUnit(CellRef("nb.ipynb", i), t) for i, t in enumerate(cells)]
    assert not analyze(units, rules=["host-sync"]).findings
    # A helper without a loop of its own, called from a step loop in a later cell, still reports.
    step = "def step(x, y):\n    loss = F.mse_loss(model(x), y)\n    opt.zero_grad()\n    loss.backward()\n" \
        "    opt.step()\n    return loss.item()\n"
    per_step = [setup, step, "for x, y in batches:\n    print(step(x, y))\n"]
    (finding,) = analyze([SourceUnit(CellRef("nb.ipynb", i), t) for i, t in enumerate(per_step)], rules=["host-sync"]).findings
    assert (finding.ref.cell, finding.line) == (1, 6) and "every training step" in finding.message


def test_a_decoder_unrolled_before_backward_is_a_training_step() -> None:
    """seq2seq `train()`: a per-token loop with no backward inside, its summed loss back-propagated
    after it; the same loop scoring without a backward stays an evaluation step."""
    folder = Path(__file__).parent / "fixtures" / "rules" / "host-sync"
    for name, word, severity in (("pos_decoder_unroll_in_training_step.py", "training", "high"),
                                 ("pos_decoder_unroll_scored_without_backward.py", "evaluation", "medium")):
        path = folder / name
        (finding,) = analyze([SourceUnit(CellRef(str(path)), path.read_text())], rules=["host-sync"]).findings
        assert f"every {word} step" in finding.message and finding.severity.value == severity, name


def test_a_helper_the_training_step_also_calls_says_training() -> None:
    """`count_correct` is called per training step and per validation step: the training step
    (a sync every step of training, high) is what it costs; called only from evaluation, it
    stays an evaluation step (medium; reported where the program only evaluates, label49)."""
    verdicts = {}
    for name in ("pos_helper_shared_by_train_and_eval", "pos_helper_of_eval_loops_only_evaluation_only"):
        path = Path(__file__).parent / "fixtures" / "rules" / "host-sync" / f"{name}.py"
        (finding,) = analyze([SourceUnit(CellRef(str(path)), path.read_text())], rules=["host-sync"]).findings
        verdicts[name] = (finding.severity.value, "training step" in finding.message)
    assert verdicts == {"pos_helper_shared_by_train_and_eval": ("high", True),
                        "pos_helper_of_eval_loops_only_evaluation_only": ("medium", False)}


# Every way public code writes "copy this batch's values to the host".
_CHAINS = (".cpu()", ".detach().cpu()", ".cpu().detach()", ".cpu().numpy()", ".detach().cpu().numpy()",
           ".cpu().detach().numpy()", ".cpu().data.numpy()", ".cpu().tolist()", ".cpu().numpy().tolist()",
           ".cpu().detach().numpy().tolist()", ".detach().cpu().numpy().tolist()")
_GATHER_HEAD = ('import numpy as np\nimport torch\nimport torch.nn as nn\n'
                'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n'
                "model = nn.Linear(3, 2).to(device)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                "data = [(torch.randn(4, 3), torch.randint(0, 2, (4,)))] * 3\n")


def _gather_program(store: str, step: str) -> str:
    """One copy per batch of `out.argmax(1)`; `step` "eval" (under no_grad) or "train" (a backward)."""
    body = "        out = model(x.to(device))\n"
    if step == "train":
        body += "        loss = nn.functional.cross_entropy(out, y.to(device))\n        opt.zero_grad()\n" \
                "        loss.backward()\n        opt.step()\n"
    body += f"        {store}\n"
    loop = "preds = []\ntotal = 0.0\n" + ("with torch.no_grad():\n" if step == "eval" else "if True:\n") + \
        "    for x, y in data:\n" + body
    return _GATHER_HEAD + loop + "print(len(preds), total)\n"


def _copies(text: str) -> list[str]:
    return [f.message for f in analyze([SourceUnit(CellRef("g.py"), text)], rules=["host-sync"]).findings]


def test_predictions_gathered_in_evaluation_are_silent_whatever_the_copy_chain() -> None:
    """Policy (see `HostSync`): an evaluation step that stores each batch's predictions in a list
    of its own for a host metric after the loop is the program's need, however the copy is spelled
    (`.cpu().detach().numpy().tolist()` was reported while `.detach().cpu()` was silent)."""
    for chain in _CHAINS:
        for store in (f"preds.append(out.argmax(1){chain})", f"preds.extend(out.argmax(1){chain})",
                      f"preds += out.argmax(1){chain}"):
            assert not _copies(_gather_program(store, "eval")), store


def test_the_same_copies_are_reported_in_a_training_step_and_as_per_step_logging() -> None:
    """Near-misses of the policy, one finding each whatever the chain: the same gather in a training
    step; in evaluation, a running total added up on the host, a `print` per batch, a gather into a
    list the loop does not own (a helper's parameter is another function's list)."""
    for chain in _CHAINS:
        value = f"out.argmax(1){chain}"
        train = _copies(_gather_program(f"preds.append({value})", "train"))
        assert len(train) == 1 and "every training step" in train[0], chain
        printed = _copies(_gather_program(f"print({value})", "eval"))
        assert len(printed) == 1 and "every evaluation step" in printed[0], chain
    for chain in (".cpu().detach().numpy()", ".detach().cpu().numpy()", ".cpu().numpy()"):
        total = _copies(_gather_program(f"total += out.float().mean(){chain}", "eval"))
        assert len(total) == 1 and "every evaluation step" in total[0], chain
    helper = _GATHER_HEAD + ("\n\ndef collect(model, preds):\n    with torch.no_grad():\n        for x, y in data:\n"
                             "            preds.extend(model(x.to(device)).argmax(1).cpu().detach().numpy().tolist())\n"
                             "\n\ncollect(model, [])\n")
    assert len(_copies(helper)) == 1


def test_a_loop_that_steps_weights_by_hand_says_training() -> None:
    """MAML's task loop takes `torch.autograd.grad` of the loss with respect to the weights and
    builds the adapted weights from it: a training step (high), its `no_grad` read of the query
    accuracy included. Gradients with respect to inputs (a PINN residual, a saliency map) train
    nothing: those loops stay evaluation steps (medium)."""
    folder = Path(__file__).parent / "fixtures" / "rules" / "host-sync"
    for name, word, severity in (("pos_task_loop_adapting_by_hand.py", "training", "high"),
                                 ("pos_input_gradients_in_evaluation.py", "evaluation", "medium")):
        path = folder / name
        findings = analyze([SourceUnit(CellRef(str(path)), path.read_text())], rules=["host-sync"]).findings
        assert len(findings) == (2 if "task_loop" in name else 3), name
        for finding in findings:
            # prec64: the task loop's second read (line 33) follows the `with torch.no_grad():` body's
            # read (line 26) on every path: a second sync of the step, low, still worded as training
            second = "task_loop" in name and finding.line == 33
            assert f"every {word} step" in finding.message, (name, finding.line)
            assert finding.severity.value == ("low" if second else severity), (name, finding.line)
            assert ("a second device sync" in finding.message and "at line 26" in finding.message) == second
