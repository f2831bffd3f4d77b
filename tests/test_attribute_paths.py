"""Per-attribute change tracking (`Facts.path_changes`): which attributes of an object a loop
changes, and the reads that stay loop-invariant because of it."""

from __future__ import annotations

import libcst as cst
import pytest

from paef_jupyter.static.facts import Facts

LOOP = """
import argparse
import torch
args = argparse.Namespace(batch_size=4, lr=0.1)
args.global_step = 0
model = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=args.lr)
for x in data:
    idx = torch.arange(args.batch_size)
    loss = model(x).sum() * args.lr
    opt.zero_grad()
    loss.backward()
    opt.step()
    args.global_step += 1
{extra}
"""


def facts_and_read(extra: str) -> tuple[Facts, cst.Call]:
    facts = Facts(cst.parse_module(LOOP.format(extra=extra)))
    read = next(n for n in facts.walk(facts.module) if isinstance(n, cst.Call) and facts.code(n) == "torch.arange(args.batch_size)")
    return facts, read


def test_changed_paths_and_invariant_read() -> None:
    facts, read = facts_and_read("")
    loop = facts.iteration_loop(read)
    assert loop is not None
    assert facts.path_changes(loop) == {"args": frozenset({("global_step",), ("lr",)})}
    assert "args" in facts.varying_names(read, loop)  # the whole name still varies for every other question
    assert facts.is_invariant(read, loop)


@pytest.mark.parametrize("extra", [
    "    args.batch_size += 1",
    "    record(args)",
    "    setattr(args, name, 1)",
    "    vars(args).update(batch_size=2)",
    "    args.__dict__['batch_size'] = 2",
    "    del args.global_step",
    "    kept.append(args)",
    "    args = argparse.Namespace(batch_size=2)",
    "    alias = args",
])
def test_escapes_keep_the_read_variant(extra: str) -> None:
    facts, read = facts_and_read(extra)
    loop = facts.iteration_loop(read)
    assert loop is not None
    assert not facts.is_invariant(read, loop)
    changes = facts.path_changes(loop)
    assert "args" not in changes or ("batch_size",) in changes["args"]  # whole, or the very path read
