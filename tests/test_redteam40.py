"""Red team 40 (blind) met 7 automatic rewrites on first contact, 4 harmful, all in code captured as a
graph: operator-fusion (`torch.where` leaky ReLU -> `F.leaky_relu`) and cpu-then-move
(`torch.arange(n).to(d)` -> `torch.arange(n, device=d)`) inside a module traced with
`torch.fx.symbolic_trace` whose graph an FX pass fake-quantizes by node target
(`rt40_of_fx_fake_quant_pass`: one more node quantized, other outputs and losses), and inside a module
exported with `torch.export.export` (`rt40_nb_compile_export_function`: the exported op list changes).

The category: each rule proves Python's semantics; a graph captured from the code (fx, export, onnx,
`torch._dynamo.export`, `torch.compile` with a backend of the program's own) is a product of the
program that those semantics say nothing about. An automatic edit inside captured code goes to review,
as red team 38 did for torch.jit. `torch.compile` with a named backend stays automatic.
"""

from __future__ import annotations

import pytest
from redteam_units import REDTEAM, automatic_fixes, program_units, rule_findings, source_units

from paef_jupyter.model import CellRef, SourceUnit


@pytest.mark.parametrize(("rule", "lines", "rewritten"), [("operator-fusion", [28, 30], 28), ("cpu-then-move", [26], 26)])
def test_blind_fx_traced_block_is_left_to_review(rule: str, lines: list[int], rewritten: int) -> None:
    found = rule_findings(program_units(REDTEAM / "rt40_of_fx_fake_quant_pass.py"), rule)
    assert [f.line for f in found] == lines and not automatic_fixes(found)
    review = next(f.fix.review for f in found if f.line == rewritten)  # automatic on first contact
    assert "captured as a graph" in review and "symbolic_trace" in review


def test_blind_exported_module_is_left_to_review_and_named_backend_compile_is_not() -> None:
    units = program_units(REDTEAM / "rt40_nb_compile_export_function.ipynb")
    moves = rule_findings(units, "cpu-then-move")
    assert [(f.ref.cell, f.line, f.fixable) for f in moves] == [(1, 22, False), (2, 3, True)]
    assert "torch.export.export" in moves[0].fix.review
    fusions = rule_findings(units, "operator-fusion")
    assert not automatic_fixes(fusions) and any(f.ref.cell == 1 and f.fix is not None and "captured" in f.fix.review
                                           for f in fusions)


@pytest.mark.parametrize(("name", "rule", "automatic"), [
    ("rt40_nb_ev_set_grad_flag.ipynb", "host-sync", 1),  # inside `set_grad_enabled(train)`: harmless
    ("rt40_pt_custom_batch_to.py", "pageable-transfer", 1),  # pin only; the own `.to` gets no non_blocking
    ("rt40_ev_callback_saliency.py", "eval-without-no-grad", 0),  # a callback differentiates inside
    ("rt40_l2t_default_mutable_history.py", "list-to-tensor", 0),
    ("rt40_nb_l2t_redefined_summary.ipynb", "list-to-tensor", 0),
    ("rt40_hs_trainer_callbacks.py", "host-sync", 0),  # the total is an attribute callbacks read
    ("rt40_rt_property_factory.py", "redundant-tensor", 0),
])
def test_blind_programs_that_held(name: str, rule: str, automatic: int) -> None:
    assert len(automatic_fixes(rule_findings(program_units(REDTEAM / name), rule))) == automatic


PROGRAM = """{imports}
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.lin(x)
        return torch.where(h > 0, h, 0.1 * h)


def act(x: torch.Tensor) -> torch.Tensor:
    return torch.where(x > 0, x, 0.2 * x)


def backend(gm, example_inputs):
    return gm.forward


block = Block()
x = torch.randn(3, 4)
{after}
result = (block(x), act(x))
"""

BLOCK, ACT = "0.1 * h", "0.2 * x"  # the leaky ReLU of `Block.forward`, of `act`

REFUSED = [  # (imports, capture, the leaky ReLU left to review)
    ("", "gm = torch.fx.symbolic_trace(block)", BLOCK),
    ("import torch.fx as fx", "gm = fx.symbolic_trace(Block())", BLOCK),
    ("from torch.fx import symbolic_trace", "gm = symbolic_trace(act)", ACT),
    ("", "ep = torch.export.export(block, (x,))", BLOCK),
    ("from torch.export import export", "ep = export(block.eval(), (x,))", BLOCK),
    ("", "torch.onnx.export(block, (x,), 'b.onnx')", BLOCK),
    ("", "explain = torch._dynamo.export(act)(x)", ACT),
    ("", "fast = torch.compile(act, backend=backend)", ACT),
    ("", "fast = torch.compile(block, backend=backend, fullgraph=True)", BLOCK),
    ("", "fast = torch._dynamo.optimize(backend)(act)", ACT),
    ("import torch.fx as fx", "gm = fx.GraphModule(block, fx.Tracer().trace(block))", BLOCK),
    ("from torch.ao.quantization.quantize_fx import prepare_fx", "prepared = prepare_fx(block, {}, (x,))", BLOCK),
]

AUTOMATIC = [
    ("", ""),
    ("", "fast = torch.compile(act, backend='eager')"),
    ("", "fast = torch.compile(block)"),
    ("", "fast = torch.compile(block, backend='inductor', fullgraph=True)"),
    ("import torch.fx as fx", "gm = fx.symbolic_trace(backend)"),  # a function named: only it is captured
    ("", "loaded = torch.export.load if False else None"),
    ("", "fast = torch._dynamo.optimize('eager')(act)"),
    ("import torch.fx as fx", "graph = fx.Graph()"),
]


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(("imports", "after", "captured"), REFUSED)
def test_graph_captured_code_is_left_to_review(imports: str, after: str, captured: str) -> None:
    text = PROGRAM.format(imports=imports, after=after)
    found = rule_findings(source_units(text), "operator-fusion")
    review = [f for f in found if f.fix is not None and not f.fix.automatic]
    assert [f.line for f in review] == [_line(text, captured)]
    assert "captured as a graph" in review[0].fix.review
    assert [f.line for f in automatic_fixes(found)] == [_line(text, BLOCK if captured == ACT else ACT)]


@pytest.mark.parametrize(("imports", "after"), AUTOMATIC)
def test_code_python_runs_stays_automatic(imports: str, after: str) -> None:
    found = rule_findings(source_units(PROGRAM.format(imports=imports, after=after)), "operator-fusion")
    assert len(automatic_fixes(found)) == 2


def _cells(*texts: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(texts)]


CELL_DEF = PROGRAM.format(imports="", after="")


@pytest.mark.parametrize(("later", "automatic"), [
    ("gm = torch.fx.symbolic_trace(block)", 1),  # a later cell traces the earlier cell's module
    ("ep = torch.export.export(Block(), (x,))", 1),
    ("fast = torch.compile(act, backend=backend)", 1),
    ("fast = torch.compile(act, backend='eager')", 2),
    ("print(block(x).shape)", 2),
])
def test_a_later_cell_that_captures_an_earlier_cells_code(later: str, automatic: int) -> None:
    found = rule_findings(_cells(CELL_DEF, later), "operator-fusion")
    assert len(automatic_fixes([f for f in found if f.ref.cell == 0])) == automatic


def test_probe_fx_quantization_is_left_to_review() -> None:
    """rt40p_of_prepare_fx (not blind): on bc2d13cf operator-fusion rewrote the leaky ReLU of a block
    `prepare_fx` quantizes; the quantized graph's ops changed (5 -> 3), its values did not."""
    found = rule_findings(program_units(REDTEAM / "rt40p_of_prepare_fx.py"), "operator-fusion")
    assert [f.line for f in found] == [28] and not automatic_fixes(found)
    assert "prepare_fx" in found[0].fix.review
