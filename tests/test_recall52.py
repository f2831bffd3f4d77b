"""Recall 52: host syncs the analysis missed, by the fact it lacked.

- a device test in the `elif` of a rarely true test (`if step == 3: ... elif loss > 100.0:`,
  public check 37) and in a conditional expression (`0.5 if loss > 1 else 1.0`);
- `.to(cpu_device)` with `cpu_device = torch.device("cpu")` (and `.to("cpu")`) is a copy to the
  host: reported where it happens, the read of the copy after it silent, and ping-pong's
  rewrite drops it like `.cpu()` (public check 35 p01's spelling);
- one read per element of a device tensor in a Python loop over its elements, outside any step
  (corpus blind5_gnn_link_prediction.py:70, blind7_dual_encoder_retrieval.py:50);
- a meta-test's loop over tasks whose helper takes gradient steps by hand (corpus
  blind4_maml_sinusoid.py:77).
Each case has silent near misses beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from paef_jupyter.api import analyze_path, analyze_source

pytestmark = pytest.mark.usefixtures("one_torch_thread")

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus"

_STEP = """
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
cpu_device = torch.device("cpu")
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
debug = False
kept = []
for step in range(4):
    x = torch.randn(8, 4, device=device)
    out = model(x)
    loss = out.pow(2).mean()
{body}
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def _host_sync_lines(body: str) -> set[int]:
    text = _STEP.format(body="\n".join("    " + line for line in body.strip("\n").splitlines()))
    first = text.splitlines().index("    loss = out.pow(2).mean()") + 2  # 1-based line of the body's first line
    return {f.line - first + 1 for f in analyze_source(text).findings if f.rule == "host-sync"}


@pytest.mark.parametrize(("body", "lines"), [
    ("if step == 3:\n    pass\nelif loss > 100.0:\n    print('big')", {3}),
    ("if step % 100 == 0:\n    pass\nelif torch.isnan(loss):\n    print('nan')", {3}),
    ("if step < 1:\n    pass\nelif loss.isinf():\n    print('inf')", {3}),
    ("scale = 0.5 if loss > 1.0 else 1.0", {1}),
    # near misses: an `elif` after a test that may hold every step, of a host value, a host draw
    ("if not debug:\n    pass\nelif loss > 100.0:\n    print('big')", set()),
    ("if step % 100 != 0:\n    pass\nelif loss > 100.0:\n    print('big')", set()),
    ("if step == 3:\n    pass\nelif torch.rand(1) < 0.5:\n    print('draw')", set()),
    ("scale = 0.5 if torch.rand(1) < 0.5 else 1.0", set()),
    ("if step % 10 == 0:\n    shown = 'big' if loss > 1.0 else 'small'", set()),
])
def test_device_tests_in_elif_and_conditional_expressions(body: str, lines: set[int]):
    assert _host_sync_lines(body) == lines


@pytest.mark.parametrize(("body", "lines"), [
    ("held = loss.detach().to(cpu_device)\nkept.append(float(held))", {1}),  # the copy, not the read after it
    ("kept.append(out.argmax(1).to('cpu'))", {1}),
    ("kept.append(out.detach().to(device='cpu'))", {1}),
    ("kept.append(out.detach().to(torch.device('cpu')))", {1}),
    # near misses: a non-blocking copy, a dtype conversion, a host tensor "moved" to the CPU
    ("kept.append(out.detach().to('cpu', non_blocking=True))", set()),
    ("kept.append(out.detach().to(torch.float64).sum())", set()),
    ("kept.append(torch.randn(3).to(cpu_device))", set()),
])
def test_copy_to_a_cpu_device_is_reported_where_it_happens(body: str, lines: set[int]):
    assert _host_sync_lines(body) == lines


def test_ping_pong_drops_a_copy_to_a_named_cpu_device():
    text = _STEP.format(body="    back = torch.tensor(out.detach().to(cpu_device).numpy()).to(device)\n    loss = loss + back.sum()")
    findings = [f for f in analyze_source(text).findings if f.rule == "ping-pong"]
    assert len(findings) == 1 and findings[0].fix is not None and findings[0].fix.safe
    new = "".join(e.text for e in findings[0].fix.edits)
    assert "cpu_device" not in new and "numpy" not in new


_ELEMENTS = """
import torch
import torch.nn as nn

device = torch.device("{device}")
encoder = nn.Linear(8, 4).to(device)
with torch.no_grad():
    z = encoder(torch.randn(32, 8).to(device))
    scores = (z * z).sum(-1)
host_scores = scores.cpu()
total = 0
{loop}
"""


@pytest.mark.parametrize(("device", "loop", "reported"), [
    ("cuda", "for i in range(len(scores)):\n    total += scores[i].item()", True),
    ("cuda", "for i in range(scores.shape[0]):\n    if scores[i] > 1.0:\n        total += 1", True),
    ("cuda", "for s in scores:\n    total += float(s)", True),
    ("cuda", "for i in range(len(host_scores)):\n    total += host_scores[i].item()", False),  # copied once
    ("cuda", "for i in range(len(scores)):\n    if i % 10 == 0:\n        total += scores[i].item()", False),
    ("cuda", "for i in range(len(scores)):\n    total += i", False),
    ("cpu", "for i in range(len(scores)):\n    total += scores[i].item()", False),  # no device at all
])
def test_read_per_element_of_a_device_tensor(device: str, loop: str, reported: bool):
    findings = [f for f in analyze_source(_ELEMENTS.format(device=device, loop=loop)).findings if f.rule == "host-sync"]
    assert bool(findings) is reported
    # the message and the suggested copy name the tensor walked, never the loop's element (`s`)
    assert all("element of `scores`" in f.message and "scores_host" in f.fix.suggestion for f in findings)


@pytest.mark.parametrize(("program", "line"), [
    ("blind4_maml_sinusoid.py", 77),  # a meta-test's task loop adapting by hand
    ("blind5_gnn_link_prediction.py", 70),  # one `(neg > pos[i]).sum() < 20` test per element
    ("blind7_dual_encoder_retrieval.py", 50),  # one `ranks[i].item()` per element
])
def test_corpus_misses_found_as_hints(program: str, line: int):
    found = [f for f in analyze_path(str(CORPUS / program)).findings if f.rule == "host-sync" and f.line == line]
    assert found and not any(f.fix is not None and f.fix.safe for f in found)
