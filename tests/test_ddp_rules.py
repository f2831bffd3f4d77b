"""The `ddp-*` rewrites offered for review, run before and after on 2 real gloo ranks.

These rewrites change what each rank computes by design (which samples it sees, in which
order); each test checks that the change is exactly the one the fix promises and that what
must not change (epoch 0, the agreement of the ranks) does not. Proved-safe `ddp-*` rewrites
are `.in.py`/`.out.py` pairs run by `test_rules.py::test_rewrite` on the same runner.
"""

from __future__ import annotations

from pathlib import Path

from ddp_runner import run_ranks
from rule_fixtures import FIXTURES, assert_same


def _run(path: Path) -> list[dict]:
    return run_ranks(path.read_text(), str(path))["ranks"]


def _flat(batches: list[list[float]]) -> list[float]:
    return [x for batch in batches for x in batch]


def test_missing_sampler_rewrite_shards_the_data() -> None:
    """Before: both ranks see all 16 samples each epoch. After: disjoint halves that cover them."""
    folder = FIXTURES / "ddp-missing-sampler"
    before = _run(folder / "review_shuffle.in.py")
    after = _run(folder / "review_shuffle.out.py")
    everything = sorted(float(i) for i in range(16))
    for rank in before:  # 2 epochs of the whole dataset on every rank
        assert sorted(_flat(rank["seen"])) == sorted(everything * 2)
    epochs = [[_flat(r["seen"][e * 2:(e + 1) * 2]) for e in range(2)] for r in after]  # 2 batches of 4 per epoch
    for epoch in range(2):
        shards = [set(rank[epoch]) for rank in epochs]
        assert not shards[0] & shards[1] and sorted(shards[0] | shards[1]) == everything
    assert_same(after[0]["weight"], after[1]["weight"])  # the ranks still agree


def test_missing_sampler_rewrite_keeps_the_order_when_unshuffled() -> None:
    folder = FIXTURES / "ddp-missing-sampler"
    after = _run(folder / "review_no_shuffle.out.py")
    assert [_flat(r["seen"]) for r in after] == [[float(i) for i in range(0, 16, 2)], [float(i) for i in range(1, 16, 2)]]
    assert_same(after[0]["weight"], after[1]["weight"])


def test_set_epoch_rewrite_reshuffles_later_epochs_only() -> None:
    """Before: every epoch repeats epoch 0's order. After: epoch 0 is unchanged, later epochs
    draw new orders, and in each epoch the ranks still split the data without overlap."""
    folder = FIXTURES / "ddp-missing-set-epoch"
    for name in ("review_named_sampler", "review_loader_sampler"):
        before = _run(folder / f"{name}.in.py")
        after = _run(folder / f"{name}.out.py")
        for rank_before, rank_after in zip(before, after):
            assert rank_before["seen"][0] == rank_before["seen"][1] == rank_before["seen"][2]
            assert rank_after["seen"][0] == rank_before["seen"][0]
            assert rank_after["seen"][1] != rank_after["seen"][0] and rank_after["seen"][2] != rank_after["seen"][1]
        for epoch in range(3):
            shards = [set(rank["seen"][epoch]) for rank in after]
            assert not shards[0] & shards[1] and len(shards[0] | shards[1]) == 16
        assert_same(after[0]["weight"], after[1]["weight"])


def test_save_guard_keeps_a_run_without_process_group(tmp_path: Path, monkeypatch) -> None:
    """A script that sets up DDP only when launched on several ranks gets a guard that lets a
    plain `python train.py` run save as before (`dist.get_rank()` alone would raise there)."""
    folder = FIXTURES / "ddp-save-every-rank"
    monkeypatch.chdir(tmp_path)
    for var in ("WORLD_SIZE", "RANK", "LOCAL_RANK"):
        monkeypatch.delenv(var, raising=False)
    for name in ("optional_distributed.in.py", "optional_distributed.out.py"):
        (tmp_path / "last.pt").unlink(missing_ok=True)
        exec(compile((folder / name).read_text(), name, "exec"), {"__name__": "__main__"})  # one process, no group
        assert (tmp_path / "last.pt").exists(), name


def test_a_ddp_model_freed_after_teardown_is_kept_alive_by_the_runner() -> None:
    """The runner holds each DDP model: freeing one after `destroy_process_group` can hang the rank."""
    code = (
        "import gc, weakref\n"
        "import torch.distributed as dist, torch.nn as nn\n"
        "from torch.nn.parallel import DistributedDataParallel as DDP\n"
        "def main():\n"
        "    dist.init_process_group('gloo')\n"
        "    model = DDP(nn.Linear(2, 1))\n"
        "    dist.destroy_process_group()\n"
        "    return weakref.ref(model)\n"
        "ref = main()\n"
        "gc.collect()\n"
        "result = ref() is not None\n"
    )
    assert run_ranks(code)["ranks"] == [True, True]
