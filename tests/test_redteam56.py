"""Red team 56 (blind, 10 programs: 3 projects, 2 notebooks, aimed at autoregressive generation: KV caches
grown with torch.cat or written at position t, masks and positions built from the current length, sampling
on a CPU generator, EOS stops read on the host, beam search over Python heaps, scheduled sampling and
self-critical / RL training around generate helpers) met 3 automatic rewrites on first contact, none harmful.

A probe (not blind) found one harmful on a GPU: ping-pong's "moved to the device and only ever copied back"
dropped `.to(device)` from `prev = torch.multinomial(p.cpu(), 1, generator=g).to(device)`, whose value the
NEXT iteration reads at the top of the loop (`table.gather(0, prev)`): a host index for a device tensor, a
device-mismatch error on CUDA, silent on the CPU. The fact the analysis lacked: the reads of the moved name
written BEFORE the move in an enclosing loop see its value on the next iteration. `_read_next_iteration`
keeps the move when any such read is not itself a host copy.

The other tests pin what held where the programs aimed: length-dependent masks and positions, penalty and
count tensors written in place, helpers in eval mode whose graphs the caller differentiates.
"""

from __future__ import annotations

import pytest
from paef_jupyter.model import CellRef, SourceUnit
from redteam_units import REDTEAM, automatic_fixes, program_units, rule_findings, source_units

_HEAD = """import torch
import torch.nn as nn

device = 'cuda' if torch.cuda.is_available() else 'cpu'
g = torch.Generator().manual_seed(0)
emb = nn.Embedding(5, 4).to(device)
table = torch.rand(5, 5, device=device)
out = []
"""

# The moved token is read on the device before the move, by the next iteration: the move stays.
_CARRIED = {
    "embedded_at_the_top": "tok = torch.tensor([0], device=device)\nfor _ in range(4):\n    h = emb(tok)\n"
                           "    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                           "    out.append(tok.item())\n",
    "gathered_at_the_top": "prev = torch.tensor([0], device=device)\nfor _ in range(4):\n    s = table[0].gather(0, prev)\n"
                           "    prev = torch.multinomial(table[1].cpu(), 1, generator=g).to(device)\n"
                           "    out.append(prev.item())\n",
    "concatenated_at_the_top": "seq = torch.zeros(1, dtype=torch.long, device=device)\nnxt = seq\nfor _ in range(4):\n"
                               "    seq = torch.cat([seq, nxt])\n"
                               "    nxt = torch.multinomial(table[2].cpu(), 1, generator=g).to(device)\n"
                               "    out.append(nxt.item())\n",
    "added_at_the_top": "acc = torch.zeros(1, device=device)\nv = torch.zeros(1, device=device)\nfor _ in range(4):\n"
                        "    acc = acc + v\n    v = torch.rand(1, generator=g).to(device)\n    out.append(v.item())\n",
    "read_by_the_outer_loop": "tok = torch.tensor([0], device=device)\nfor _ in range(2):\n    h = emb(tok)\n"
                              "    for _ in range(3):\n"
                              "        tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                              "        out.append(tok.item())\n",
    "read_by_the_while_test": "tok = torch.tensor([0], device=device)\nwhile tok.sum() < 3:\n"
                              "    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                              "    out.append(tok.item())\n",
    "inner_loop_carries_what_the_outer_rebinds": "for p in range(2):\n    tok = torch.tensor([p], device=device)\n"
                                                 "    for _ in range(3):\n        s = table[0].gather(0, tok)\n"
                                                 "        tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                                                 "        out.append(tok.item())\n",
    "rebound_only_under_an_if": "tok = torch.tensor([0], device=device)\nfor i in range(4):\n"
                                "    if i % 2:\n        tok = torch.tensor([1], device=device)\n    h = emb(tok)\n"
                                "    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                                "    out.append(tok.item())\n",
}

# Near misses: no read before the move in the loop, a read before it that is itself a host copy, a read in an
# earlier loop that does not enclose the move, a read after the body (or the loop's target) rebinds the name:
# still dropped automatically.
_HOST_ONLY = {
    "no_read_before": "for _ in range(4):\n    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                      "    out.append(tok.item())\n",
    "read_before_is_a_host_copy": "tok = torch.tensor([0], device=device)\nfor _ in range(4):\n    out.append(tok.tolist())\n"
                                  "    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                                  "    out.append(tok.item())\n",
    "read_in_an_earlier_loop": "tok = torch.tensor([0], device=device)\nfor _ in range(2):\n    h = emb(tok)\n"
                               "for _ in range(4):\n    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                               "    out.append(tok.item())\n",
    "rebound_at_the_top_of_the_body": "for _ in range(4):\n    u = torch.arange(4)\n    w = u * 2\n"
                                      "    u = u.to(device)\n    out.append(u.tolist())\n",
    "loop_target_rebinds_it": "for tok in torch.arange(4).split(1):\n    h = tok * 2\n"
                              "    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                              "    out.append(tok.item())\n",
}


@pytest.mark.parametrize("body", list(_CARRIED.values()), ids=list(_CARRIED))
def test_a_move_whose_value_the_next_iteration_reads_on_the_device_is_kept(body: str) -> None:
    found = rule_findings(source_units(_HEAD + body), "ping-pong")
    assert not automatic_fixes(found)


@pytest.mark.parametrize("body", list(_HOST_ONLY.values()), ids=list(_HOST_ONLY))
def test_a_move_only_read_back_on_the_host_is_still_dropped(body: str) -> None:
    found = rule_findings(source_units(_HEAD + body), "ping-pong")
    assert len(automatic_fixes(found)) == 1


def test_the_probe_keeps_every_loop_carried_move() -> None:
    found = rule_findings(program_units(REDTEAM / "rt56p_pp_loop_carried_move.py"), "ping-pong")
    assert not automatic_fixes(found)


_LOOP = ("tok = torch.tensor([0], device=device)\nfor _ in range(4):\n    h = step()\n"
         "    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n    out.append(tok.item())\n")

# The moved value read where the loop body does not show it: a helper called in the loop, a lambda, a closure.
_ELSEWHERE = {
    "helper_reads_the_global": "def step():\n    return emb(tok)\n\n\n" + _LOOP,
    "lambda_reads_it": "step = lambda: emb(tok)\n" + _LOOP,
    "helper_called_after_the_move": "def step():\n    return emb(tok)\n\n\nfor _ in range(4):\n"
                                    "    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                                    "    out.append(tok.item())\n    h = step()\n",
    "closure_in_a_function": "def run(start):\n    tok = start\n    step = lambda: emb(tok)\n    res = []\n"
                             "    for _ in range(4):\n        h = step()\n"
                             "        tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
                             "        res.append(tok.item())\n    return res\n\n\nout = run(torch.tensor([0], device=device))\n",
}


@pytest.mark.parametrize("body", list(_ELSEWHERE.values()), ids=list(_ELSEWHERE))
def test_a_move_whose_value_a_function_reads_is_kept(body: str) -> None:
    found = rule_findings(source_units(_HEAD + body), "ping-pong")
    assert not automatic_fixes(found)


def test_a_helper_reading_other_names_keeps_the_rewrite() -> None:
    body = ("def step():\n    return emb(torch.tensor([1], device=device))\n\n\nfor _ in range(4):\n    h = step()\n"
            "    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n    out.append(tok.item())\n")
    found = rule_findings(source_units(_HEAD + body), "ping-pong")
    assert len(automatic_fixes(found)) == 1


def _cells(*sources: str) -> list[SourceUnit]:
    return [SourceUnit(CellRef("nb.ipynb", i), text) for i, text in enumerate(sources)]


_MOVE_CELL = ("for _ in range(4):\n    tok = torch.multinomial(table[0].cpu(), 1, generator=g).to(device)\n"
              "    out.append(tok.item())\n")


@pytest.mark.parametrize("later, automatic", [("h = emb(tok)\n", 0), ("print(tok.tolist())\n", 1), ("print(out)\n", 1)],
                         ids=["later_cell_embeds_it", "later_cell_copies_it_back", "later_cell_ignores_it"])
def test_a_later_cell_reading_the_moved_value_on_the_device_keeps_the_move(later: str, automatic: int) -> None:
    found = rule_findings(_cells(_HEAD, _MOVE_CELL, later), "ping-pong")
    assert len(automatic_fixes(found)) == automatic


def test_an_earlier_cells_function_reading_the_name_keeps_the_move() -> None:
    found = rule_findings(_cells(_HEAD, "def step():\n    return emb(tok)\n", _LOOP), "ping-pong")
    assert not automatic_fixes(found)


_DECODER = """import torch
import torch.nn as nn

device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(7, 6)
        self.lin = nn.Linear(6, 7)
        self.prev = None
        self.kept = []

    def begin(self, start):
        self.prev = start

    def begin_alias(self, start):
        first = start
        self.prev = first

    def remember(self, start):
        self.kept.append(start)

    def begin_copy(self, start):
        self.prev = start.clone()

    def begin_read(self, start):
        return self.lin(self.emb(start).view(-1))

    def begin_through(self, start):
        self.begin(start)

    def step(self):
        logits = self.lin(self.emb(self.prev).view(-1))
        self.prev.copy_(logits.argmax().view(1, 1))
        return logits


dec = Decoder().to(device)
res = []
for p in range(4):
    start = torch.tensor([[0]], device=device)
    dec.METHOD(start)
    for t in range(3):
        res.append(int(dec.step().argmax()))
"""


@pytest.mark.parametrize("method", ["begin", "begin_alias", "remember", "begin_through"])
def test_a_per_iteration_tensor_a_method_keeps_is_not_hoisted(method: str) -> None:
    """Red team 56 probe: `dec.begin(start)` keeps `start` on the decoder and `step` overwrites it in place;
    hoisted, the second prompt would start from the first prompt's last token."""
    found = rule_findings(source_units(_DECODER.replace("METHOD", method)), "redundant-tensor")
    assert found and not automatic_fixes(found)


@pytest.mark.parametrize("method", ["begin_copy", "begin_read"])
def test_a_per_iteration_tensor_a_method_only_reads_or_copies_is_still_hoisted(method: str) -> None:
    found = rule_findings(source_units(_DECODER.replace("METHOD", method)), "redundant-tensor")
    assert len(automatic_fixes(found)) == 1


def test_a_function_of_an_earlier_cell_that_keeps_its_argument_blocks_the_hoist() -> None:
    keeper = "HISTORY = []\n\n\ndef remember(t):\n    HISTORY.append(t)\n"
    loop = ("import torch\nfor i in range(3):\n    mark = torch.zeros(2)\n    remember(mark)\n"
            "    HISTORY[-1].add_(i)\nprint([h.tolist() for h in HISTORY])\n")
    found = rule_findings(_cells("import torch\n" + keeper, loop), "redundant-tensor")
    assert not automatic_fixes(found)
