"""Red team 21: evaluation loops whose `no_grad` wrap changes what they compute through code that
acts differently while autograd records. Layers with PyTorch's grad-off fast path (transformer /
attention / LSTM) reached without a call spelled `nn.X(...)` (a subclass, its defining module,
`functools.partial`, a subclass in one local module stacked by a class of another: zeros at padded
positions, other last bits); saved-tensor pack hooks (called only for tensors autograd saves);
a forward hook registered by a model class of a local module. The programs are executed before and
after `paef fix`; the cross-module shapes are scanned as small projects. The single-unit shapes are
fixtures under `tests/fixtures/rules/eval-without-no-grad/` (`refuse_fast_path_layer_*`,
`refuse_saved_tensor_hooks*`, `fast_path_lookalikes_near_misses`,
`saved_tensor_hooks_lookalikes_near_misses`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_cli import fix_keeps_output, fix_project_keeps_output, proved_lines

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
PROGRAMS = ["rt21_fp_subclass.py", "rt21_fp_module_path.py", "rt21_fp_partial.py",
            "rt21b_proj_fast_path_two_modules_deep", "rt21c_saved_tensor_hooks.py", "rt21c_proj_hook_in_model_module",
            "rt21b_proj_grad_mode_query", "rt21d_proj_hook_attached_by_helper", "rt21e_fast_path_by_name.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    """Fails on 0a16905: the loop is wrapped in `no_grad` and the printed sums change."""
    source = REDTEAM / program
    (fix_project_keeps_output if source.is_dir() else fix_keeps_output)(tmp_path, source)


MAIN = """import torch

from net import Net

model = Net()
model.eval()
hits = 0
for x in [torch.randn(3, 4) for _ in range(3)]:
    hits += int((model(x).argmax(1) == 0).sum())
print(hits)
"""
NET = """from torch import nn
{imports}

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = {body}
        self.head = nn.Linear(4, 2)
        self.seen = 0
        {init}

    def _watch(self, module, inputs, output):
        self.seen += 1

    def forward(self, x):
        {forward}
"""


def _net(body: str = "nn.Linear(4, 4)", init: str = "", forward: str = "return self.head(self.body(x))",
         imports: str = "") -> dict[str, str]:
    return {"main.py": MAIN, "net.py": NET.format(body=body, init=init or "pass", forward=forward, imports=imports)}


def test_a_hook_registered_by_a_local_modules_model_is_for_review(tmp_path: Path) -> None:
    """The model class registers a forward hook on its own layer. Fails on 0a16905 (line 8)."""
    files = _net(init="self.body.register_forward_hook(self._watch)")
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == []


def test_saved_tensor_hooks_in_a_local_modules_forward_are_for_review(tmp_path: Path) -> None:
    """`forward` runs under `save_on_cpu()`. Fails on 0a16905 (line 8)."""
    files = _net(imports="import torch", forward="with torch.autograd.graph.save_on_cpu():\n"
                 "            return self.head(self.body(x))")
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == []


def test_a_layer_subclassed_in_a_third_module_is_for_review(tmp_path: Path) -> None:
    """`net.py` builds `blocks.Block`, a subclass of `nn.TransformerEncoderLayer`; main.py names
    neither. Fails on 0a16905 (line 8)."""
    files = _net(imports="from blocks import Block", body="Block(4)")
    files["blocks.py"] = ("from torch import nn\n\n\nclass Block(nn.TransformerEncoderLayer):\n"
                          "    def __init__(self, d):\n        super().__init__(d, 2, 8, dropout=0.0, batch_first=True)\n")
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == []


def test_a_grad_mode_query_in_a_local_modules_forward_is_for_review(tmp_path: Path) -> None:
    """`forward` asks `torch.is_grad_enabled()`. Fails on 0a16905 (line 8)."""
    files = _net(imports="import torch", forward="if torch.is_grad_enabled():\n"
                 "            x = x * 1.5\n        return self.head(self.body(x))")
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == []


def test_a_plain_local_model_keeps_the_rewrite(tmp_path: Path) -> None:
    """Near miss: the same model without hook, saved-tensor hooks or fast-path layer."""
    assert proved_lines(tmp_path, _net(), "eval-without-no-grad") == [8]


def test_a_gru_subclassed_in_a_third_module_keeps_the_rewrite(tmp_path: Path) -> None:
    """Near miss: `blocks.Block` subclasses `nn.GRU` (no grad-off fast path)."""
    files = _net(imports="from blocks import Block", body="Block(4)", forward="return self.head(self.body(x)[0])")
    files["blocks.py"] = ("from torch import nn\n\n\nclass Block(nn.GRU):\n"
                          "    def __init__(self, d):\n        super().__init__(d, d, batch_first=True)\n")
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == [8]


HELPER_MAIN = """import torch
from torch import nn

{imports}

model = {build}
model.eval()
hits = 0
for x in [torch.randn(3, 4) for _ in range(3)]:
    hits += int((model(x).argmax(1) == 0).sum())
print(hits)
"""
MONITOR = """seen = []


def _watch(module, inputs, output):
    seen.append(output.requires_grad)


def attach(model):
    for layer in model:
        layer.register_forward_hook(_watch)
    return model


def identity(model):
    return model
{top}"""


def _helper(imports: str, build: str, top: str = "") -> dict[str, str]:
    return {"main.py": HELPER_MAIN.format(imports=imports, build=build), "monitor.py": MONITOR.format(top=top)}


def test_hooks_attached_by_a_local_modules_helper_are_for_review(tmp_path: Path) -> None:
    """`attach(model)` (a function, no class of the module built) registers the hooks. Fails on
    0a16905 and on this branch's first fix (line 9)."""
    files = _helper("from monitor import attach", "attach(nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2)))")
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == []


def test_a_global_hook_registered_when_a_local_module_is_imported_is_for_review(tmp_path: Path) -> None:
    """`import monitor` runs `register_module_forward_hook(...)` at its top level. Fails on 0a16905
    (line 9)."""
    top = "\nimport torch.nn.modules.module as mm\n\nmm.register_module_forward_hook(_watch)\n"
    files = _helper("import monitor", "nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2))", top)
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == []


def test_a_local_helper_module_without_hooks_keeps_the_rewrite(tmp_path: Path) -> None:
    """Near miss: a local helper module that registers no hook (`identity(model)`)."""
    files = _helper("from tools import identity", "identity(nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 2)))")
    files["tools.py"] = "def identity(model):\n    return model\n"
    assert proved_lines(tmp_path, files, "eval-without-no-grad") == [9]
