"""Loop lengths read from a loop header, without running user code; window sizes from them."""

from __future__ import annotations

import pytest

from paef_jupyter.dynamic.loop_length import loader_workers, loop_length

torch = pytest.importorskip("torch")


class Exploding:
    def __iter__(self):
        raise AssertionError("must not be iterated")

    def __len__(self):
        raise AssertionError("must not be asked")


NS = {"n": 12, "batches": torch.randn(20, 3), "names": ["a", "b", "c"], "gen": (i for i in range(3)),
      "odd": Exploding()}


@pytest.mark.parametrize(
    "source, expected",
    [
        ("range(n)", 12),
        ("range(2, n, 5)", 2),
        ("range(len(names))", 3),
        ("batches", 20),
        ("zip(batches, names)", 3),
        ("enumerate(names)", 3),
        ("[1, 2]", 2),
        ("gen", None),
        ("odd", None),
        ("loader", None),  # not defined yet
        ("model.parameters()", None),
        ("range(f())", None),
        ("", None),
    ],
)
def test_loop_length(source, expected):
    assert loop_length(source, NS, {}) == expected


def test_locals_shadow_globals_and_dataloader_has_a_length():
    from torch.utils.data import DataLoader, TensorDataset

    loader = DataLoader(TensorDataset(torch.randn(50, 2)), batch_size=8)
    assert loop_length("loader", {"loader": []}, {"loader": loader}) == 7


class _Trainer:
    def __init__(self, loader):
        self.train_loader = loader

    @property
    def val_loader(self):
        raise AssertionError("a property is user code: must not run")


class _MyLoader(torch.utils.data.DataLoader):
    pass


def test_loader_workers_are_read_through_wrappers_and_attributes_without_running_code():
    from torch.utils.data import DataLoader, TensorDataset

    data = TensorDataset(torch.randn(50, 2))
    two, none = DataLoader(data, num_workers=2), DataLoader(data)
    ns = {"loader": two, "plain": none, "trainer": _Trainer(two), "sub": _MyLoader(data, num_workers=1),
          "it": iter(none), "names": ["a"], "tqdm": lambda x: x}
    assert loader_workers("loader", ns, {}) == 2
    assert loader_workers("enumerate(tqdm(self_loader))", ns | {"self_loader": two}, {}) == 2
    assert loader_workers("trainer.train_loader", ns, {}) == 2
    assert loader_workers("zip(plain, sub)", ns, {}) == 1  # a subclass, the most workers of the two
    assert loader_workers("plain", ns, {}) == 0
    assert loader_workers("it", ns, {}) == 0  # an iterator made by `iter(loader)`
    # Near misses: no DataLoader named, a property that would run user code, nothing readable.
    assert loader_workers("names", ns, {}) is None
    assert loader_workers("trainer.val_loader", ns, {}) is None
    assert loader_workers("make_loader()", ns, {}) is None
    assert loader_workers("range(3)", ns, {}) is None
    assert loader_workers("", ns, {}) is None
