"""Red team 31b: facts the automatic rewrites of pageable-transfer and list-to-tensor lacked.

- pageable-transfer added `pin_memory=` to a loader whose `**LOADER_KW` is a module-level dict that
  another function completes (`LOADER_KW["pin_memory"] = ...`, `.update(collate_fn=...)`): only the
  loader's own scope was read for the dict's keys (a repeated keyword, or batches taken for tensors).
- it added `non_blocking=True` to `batch.to(device)` after the loop rebound `batch` to a record of
  the program (`batch = Batch(*batch)`) whose `to(device)` takes no such keyword.
- with a pinned loader it made the copy asynchronous while the host batch was changed in place
  after it through another name (`frames = batch[0]; frames.mul_(255)`) or by a helper
  (`winsorize_(xb)`): a race on a GPU (a CPU run cannot show it; found by reading).
- an edit spelled `torch.` in a function where `torch` is not bound: the script imports it only
  inside `main()` (`module_alias`, shared: host-sync's rewrite there raised NameError).
- `dtype_of` took the tables' float32 for `F.linear` / `@` / `bmm` results under autocast, where they
  are bfloat16 (CPU) or float16: list-to-tensor then left out the `.float()` of the stacked values.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import torch

from dtype_cases import found_dtype
from paef_cli import fix_keeps_output

from paef_jupyter.api import analyze_path
from paef_jupyter.static.rules._tensor_facts import family

REDTEAM = Path(__file__).resolve().parent.parent / "benchmarks" / "redteam"
# Harmful at first contact on d455ee7 (the scorer's count, CPU): wave 1 three, wave 2 three.
PROGRAMS = ["rt31b_pt_local_torch_import.py", "rt31b_pt_global_loader_kwargs.py", "rt31b2_ltt_autocast_exact_linear.py",
            "rt31b2_pt_masked_inputs_wrapper.py"]


@pytest.mark.parametrize("program", PROGRAMS)
def test_fix_keeps_the_output(tmp_path: Path, program: str) -> None:
    fix_keeps_output(tmp_path, REDTEAM / program)


def _pageable_edits(program: str) -> list[tuple[str, str]]:
    """(the edited line's text, the edit's text) of pageable-transfer's automatic fixes."""
    report = analyze_path(str(REDTEAM / program))
    lines = (REDTEAM / program).read_text().splitlines()
    return [(lines[e.line - 1].strip(), e.text) for f in report.findings
            if f.rule == "pageable-transfer" and f.fixable and f.fix is not None for e in f.fix.edits]


@pytest.mark.parametrize(("program", "record_move"), [("rt31b_pt_batch_record_to.py", "batch = batch.to(device)"),
                                                      ("rt31b2_pt_masked_inputs_wrapper.py", "inputs = inputs.to(device)"),
                                                      ("rt31b2_pt_global_collate_kwargs.py", "batch = batch.to(device)")])
def test_records_are_not_given_non_blocking(program: str, record_move: str) -> None:
    """The loader is pinned (an exact edit on a CPU run) but the record's own `to` is left as it is."""
    edits = _pageable_edits(program)
    assert any("pin_memory" in text for _, text in edits)
    assert not any(line == record_move for line, _ in edits)


@pytest.mark.parametrize("program", ["rt31b_pt_pinned_batch_quantized_log.py", "rt31b2_pt_pinned_helper_inplace.py",
                                     "rt31bp_pt_pinned_batch_numpy_view.py"])
def test_pinned_batch_changed_after_the_copy_stays_blocking(program: str) -> None:
    """GPU-only race: the CPU run of `fix_keeps_output` would pass with or without the fix."""
    assert not any("non_blocking" in text for _, text in _pageable_edits(program))


@pytest.mark.parametrize("program", ["rt31b_pt_global_loader_kwargs.py", "rt31bp_pt_global_dict_rebound.py"])
def test_module_level_loader_dict_completed_elsewhere_is_not_edited(program: str) -> None:
    assert _pageable_edits(program) == []


SETUP = "import torch.nn.functional as F\nx = torch.randn(4, 8)\nW = torch.randn(3, 8)\nhandle = torch.autocast\n"


@pytest.mark.parametrize("code", ["F.linear(x, W)", "x @ W.T", "torch.matmul(x, W.T)", "F.linear(x, W).max()",
                                  "torch.bmm(x[None], W.T[None])", "(x @ W.T).abs().amax()"])
def test_dtype_under_autocast_is_only_some_float(code: str) -> None:
    namespace: dict = {"torch": torch}
    exec(SETUP, namespace)
    with warnings.catch_warnings(), torch.autocast("cpu", dtype=torch.bfloat16):
        warnings.simplefilter("ignore")
        actual = str(eval(code, namespace).dtype).removeprefix("torch.")
    found = found_dtype(SETUP, code)
    assert actual == "bfloat16" and (found is None or found == family(actual))


def test_dtype_without_autocast_stays_exact() -> None:
    assert found_dtype("x = torch.randn(4, 8)\nW = torch.randn(3, 8)\n", "x @ W.T") == "float32"
