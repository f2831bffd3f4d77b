"""Red team 44 (blind, 10 programs: 3 projects, 3 notebooks) aimed at framework-shaped code, where the
loop that calls the user's code is out of the analysis' sight: hand-written Lightning / ignite / HF
trainers, hooks and callbacks, EMA / SWA, accumulation through `functools.partial`, `torch.func`.
First contact: 1 automatic rewrite (list-to-tensor of fresh losses), harmful 0; four probes after
first contact (optimizer step hooks that read the running total or the logged list, or anneal what
a loop factory reads; a forward hook that adapts in eval mode): 0 rewrites.

The blind programs needed no fix; these tests pin the facts their refusals rest on: program code
registered as an optimizer hook runs inside `opt.step()`, and a name it reads or writes is not the
loop's alone. Each refused shape has a near miss without the hook that is still rewritten
automatically, so a test fails both if the hook stops counting and if the rule stops rewriting.

A probe after first contact (rt44p_proj_plugin_grad_monitor, not blind) was harmful: a monitoring
plugin named in a config list and imported with `importlib.import_module(name)` installs a global
module forward hook that registers a gradient hook on every output; eval-without-no-grad wrapped the
evaluation loop in no_grad (RuntimeError: cannot register a hook on a tensor that doesn't require
gradient). The analysis followed `import` statements only. Fixed by category: code imported or run
by a name known only at run time (`import_module` / `__import__` of a variable, `runpy.run_path`, a
loader's `exec_module`) may register a module hook; a literal name of a local module is searched
like an `import` of it; a library's literal name is trusted as a static import of it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from paef_cli import proved_lines
from redteam_units import REDTEAM, program_units, rule_findings

_HEAD = """import json

import torch
import torch.nn as nn
import torch.nn.functional as F

device = 'cuda' if torch.cuda.is_available() else 'cpu'
X = torch.randn(48, 4)
Y = torch.randint(0, 3, (48,))
loader = [(X[i:i + 8].to(device), Y[i:i + 8].to(device)) for i in range(0, 48, 8)]
model = nn.Linear(4, 3).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
losses, lines, history = [], [], []
"""

_TOTAL_LOOP = """for epoch in range(2):
    running = 0.0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    print(epoch, running)
"""

_LIST_LOOP = """for x, y in loader:
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(torch.tensor(losses).mean().item())
"""

_TOTAL_HOOK = "def log_running(o, args, kwargs):\n    history.append(round(running, 10))\n\n\n"
_LIST_HOOK = "def log_recent(o, args, kwargs):\n    lines.append(json.dumps(losses[-2:]))\n\n\n"

# (rule, hook text, loop text): the hook reads what the loop accumulates.
HOOKED = {
    "step_post_hook_reads_running_total": ("host-sync", _TOTAL_HOOK + "opt.register_step_post_hook(log_running)\n", _TOTAL_LOOP),
    "step_pre_hook_reads_running_total": ("host-sync", _TOTAL_HOOK + "opt.register_step_pre_hook(log_running)\n", _TOTAL_LOOP),
    "lambda_post_hook_reads_list": ("list-to-tensor",
                                    "opt.register_step_post_hook(lambda o, a, k: lines.append(json.dumps(losses[-2:])))\n",
                                    _LIST_LOOP),
    "named_post_hook_reads_list": ("list-to-tensor", _LIST_HOOK + "opt.register_step_post_hook(log_recent)\n", _LIST_LOOP),
}


def _line(text: str, marker: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


def _marker(rule: str) -> str:
    return "running += loss.item()" if rule == "host-sync" else "losses.append(loss.item())"


@pytest.mark.parametrize("name", sorted(HOOKED))
def test_hook_reader_refuses_the_rewrite(tmp_path: Path, name: str) -> None:
    rule, hook, loop = HOOKED[name]
    text = _HEAD + hook + loop
    assert _line(text, _marker(rule)) not in proved_lines(tmp_path, {"main.py": text}, rule)


@pytest.mark.parametrize("name", sorted(HOOKED))
def test_near_miss_without_the_hook_is_still_rewritten(tmp_path: Path, name: str) -> None:
    rule, _hook, loop = HOOKED[name]
    text = _HEAD + loop
    assert _line(text, _marker(rule)) in proved_lines(tmp_path, {"main.py": text}, rule)


def test_hook_in_another_module_refuses(tmp_path: Path) -> None:
    """logutil.attach registers the reader: the list escapes into a module's call."""
    logutil = ("import json\n\n\ndef attach(optimizer, losses, lines):\n"
               "    optimizer.register_step_post_hook(lambda o, a, k: lines.append(json.dumps(losses[-2:])))\n")
    text = _HEAD.replace("import json\n", "import json\n\nimport logutil\n") + "logutil.attach(opt, losses, lines)\n" + _LIST_LOOP
    files = {"main.py": text, "logutil.py": logutil}
    assert _line(text, _marker("list-to-tensor")) not in proved_lines(tmp_path, files, "list-to-tensor")


_FACTORY_LOOP = """for step in range(6):
    x, y = loader[step]
    weights = torch.full((3, 512, 512), sched.floor, device=device)
    loss = F.cross_entropy(model(x), y) * weights.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""
_SCHED = "class Sched:\n    floor = 1.0\n\n\nsched = Sched()\n\n\n"
_ANNEAL = "def anneal(o, args, kwargs):\n    sched.floor = sched.floor * 0.7\n\n\n"


def test_factory_near_miss_without_the_hook_is_hoisted(tmp_path: Path) -> None:
    text = _HEAD + _SCHED + _FACTORY_LOOP
    assert _line(text, "weights = torch.full") in proved_lines(tmp_path, {"main.py": text}, "redundant-tensor")


def test_step_hook_annealing_a_factory_argument_is_not_hoisted(tmp_path: Path) -> None:
    text = _HEAD + _SCHED + _ANNEAL + "opt.register_step_pre_hook(anneal)\n" + _FACTORY_LOOP
    line = _line(text, "weights = torch.full")
    assert line not in proved_lines(tmp_path, {"main.py": text}, "redundant-tensor")


def test_first_contact_programs_keep_their_refusals() -> None:
    """The blind programs whose readers are hooks or callbacks: no automatic rewrite of these rules."""
    cases = {
        "rt44_nb_keras_callbacks.ipynb": "host-sync",
        "rt44_ema_swa_hooks.py": "list-to-tensor",
        "rt44_nb_hf_compute_loss.ipynb": "eval-without-no-grad",
        "rt44p_step_hook_reads_total.py": "host-sync",
        "rt44p_step_hook_reads_list.py": "list-to-tensor",
    }
    for program, rule in cases.items():
        findings = rule_findings(program_units(REDTEAM / program), rule)
        automatic = [f.line for f in findings if f.fix is not None and f.fixable]
        if program == "rt44_ema_swa_hooks.py":
            # Only the list of fresh losses; the traces of EMA parameters (aliases updated by lerp_) stay.
            text = (REDTEAM / program).read_text().splitlines()
            assert [text[n - 1].strip() for n in automatic] == ["losses.append(loss.item())"]
        else:
            assert automatic == [], program


_EVAL = """import importlib

import torch
from torch import nn

{imports}
net = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 2))
batches = [torch.randn(5, 4) for _ in range(3)]
net.eval()
agree = 0
for xb in batches:
    agree += int((net(xb).argmax(-1) == 0).sum())
print(agree)
"""
_GRADMON = ("import torch\n\n\ndef _watch(module, inputs, output):\n    output.register_hook(lambda g: None)\n\n\n"
            "torch.nn.modules.module.register_module_forward_hook(_watch)\n")
_QUIET = "import torch\n\nCOUNT = 0\n"

# (imports of main.py, local modules): code a dynamic import brings in may register a module hook.
DYNAMIC_FIRING = {
    "literal_local_module_with_a_global_hook": ('importlib.import_module("gradmon")', {"gradmon.py": _GRADMON}),
    "dunder_import_of_a_local_module": ('gradmon = __import__("gradmon")', {"gradmon.py": _GRADMON}),
    "literal_local_module_importing_a_hooked_one": ('importlib.import_module("plugins")',
                                                    {"plugins.py": "import gradmon\n", "gradmon.py": _GRADMON}),
    "name_from_a_config_list": ('for name in ["quiet"]:\n    importlib.import_module(name)', {"quiet.py": _QUIET}),
    "runpy_of_a_variable": ('import runpy\n\nMODULE = "quiet"\nrunpy.run_module(MODULE)', {"quiet.py": _QUIET}),
    "runpy_of_a_file": ('import runpy\n\nrunpy.run_path("quiet.py")', {"quiet.py": _QUIET}),
}
DYNAMIC_SILENT = {
    "literal_local_module_without_hooks": ('importlib.import_module("quiet")', {"quiet.py": _QUIET}),
    "literal_library": ('importlib.import_module("json")', {}),
    "main_module": ('importlib.import_module("__main__")', {}),
    "dotted_library_name": ('importlib.import_module("torch.nn.functional")', {}),
    "dunder_import_of_a_library": ('codec = __import__("json")', {}),
    "literal_local_module_importing_a_quiet_one": ('importlib.import_module("plugins")',
                                                   {"plugins.py": "import quiet\n", "quiet.py": _QUIET}),
    "reload_of_a_library": ('import json\nimportlib.reload(json)', {}),
    "run_module_of_a_literal_library": ('import runpy\nif False:\n    runpy.run_module("json")', {}),
    "local_module_with_a_hook_never_imported": ('print("no plugins")', {"gradmon.py": _GRADMON}),
}


def _eval_proved(root: Path, imports: str, modules: dict[str, str]) -> bool:
    text = _EVAL.format(imports=imports)
    return _line(text, "for xb in batches:") in proved_lines(root, {"main.py": text, **modules}, "eval-without-no-grad")


@pytest.mark.parametrize("name", sorted(DYNAMIC_FIRING))
def test_dynamic_import_that_may_register_a_hook_refuses_the_wrap(tmp_path: Path, name: str) -> None:
    imports, modules = DYNAMIC_FIRING[name]
    assert not _eval_proved(tmp_path, imports, modules)


@pytest.mark.parametrize("name", sorted(DYNAMIC_SILENT))
def test_dynamic_import_of_known_code_keeps_the_wrap(tmp_path: Path, name: str) -> None:
    imports, modules = DYNAMIC_SILENT[name]
    assert _eval_proved(tmp_path, imports, modules)


def test_plugin_probe_program_is_review() -> None:
    """The probe itself: the loop after the plugin import gets a finding, never an automatic fix."""
    from paef_jupyter.api import analyze_path

    report = analyze_path(str(REDTEAM / "rt44p_proj_plugin_grad_monitor" / "main.py"), rules=["eval-without-no-grad"])
    assert report.findings and not any(f.fixable for f in report.findings)


def _notebook(root: Path, magic: str, modules: dict[str, str]) -> bool:
    """Whether the evaluation loop of a notebook whose second cell is `magic` is wrapped automatically."""
    import json

    cells = ["import torch\nfrom torch import nn", magic, _EVAL.split("{imports}\n", 1)[1]]
    nb = {"cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "outputs": [], "execution_count": None,
                     "source": c} for i, c in enumerate(cells)], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    for name, text in modules.items():
        (root / name).write_text(text)
    (root / "nb.ipynb").write_text(json.dumps(nb))
    from paef_jupyter.api import analyze_path

    report = analyze_path(str(root / "nb.ipynb"), rules=["eval-without-no-grad"])
    return any(f.fixable for f in report.findings)


# An IPython line that runs code: `%run FILE` (read when a local module, else never), `%run -m NAME`,
# `%load_ext NAME` (a local module is read, a library trusted as an import of it is).
MAGIC_FIRING = {
    "run_local_file_with_a_global_hook": ("%run gradmon.py", {"gradmon.py": _GRADMON}),
    "automagic_run": ("run gradmon.py", {"gradmon.py": _GRADMON}),
    "run_module_flag": ("%run -m gradmon", {"gradmon.py": _GRADMON}),
    "load_ext_local_module": ("%load_ext gradmon", {"gradmon.py": _GRADMON}),
    "run_another_notebook": ("%run setup.ipynb", {}),
    "run_a_file_elsewhere": ("%run ../tools/monitor.py", {}),
}
MAGIC_SILENT = {
    "run_local_file_without_hooks": ("%run quiet.py", {"quiet.py": _QUIET}),
    "load_ext_library": ("%load_ext paef_jupyter", {}),
    "plotting_magic": ("%matplotlib inline", {}),
    "autoreload_extension": ("%load_ext autoreload\n%autoreload 2", {}),
    "time_magic": ("%time x = 1", {}),
    "shell_escape": ("!echo ready", {}),
    "environment_magic": ("%env PAEF_X=1", {}),
    "load_ext_local_module_without_hooks": ("%load_ext quiet", {"quiet.py": _QUIET}),
    "hooked_module_next_to_the_notebook_not_run": ("%matplotlib inline", {"gradmon.py": _GRADMON}),
}


@pytest.mark.parametrize("name", sorted(MAGIC_FIRING))
def test_magic_that_may_register_a_hook_refuses_the_wrap(tmp_path: Path, name: str) -> None:
    magic, modules = MAGIC_FIRING[name]
    assert not _notebook(tmp_path, magic, modules)


@pytest.mark.parametrize("name", sorted(MAGIC_SILENT))
def test_magic_of_known_code_keeps_the_wrap(tmp_path: Path, name: str) -> None:
    magic, modules = MAGIC_SILENT[name]
    assert _notebook(tmp_path, magic, modules)
