# corpus: runnable
# Mixed-precision phases where the default dtype is switched by a context manager of the program,
# by a helper called at the top of the epoch, or by a class's __enter__: the accumulators built
# inside those scopes are float64; built once outside the scope they would be float32.
import contextlib

import torch

torch.manual_seed(0)
torch.set_num_threads(1)
xs = torch.randn(6, 3, dtype=torch.float64) * 1e-4 + 1.0


@contextlib.contextmanager
def precision(dtype):
    old = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(old)


class HighPrecision:
    def __enter__(self):
        self.old = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)
        return self

    def __exit__(self, *exc):
        torch.set_default_dtype(self.old)
        return False


def configure(phase):
    torch.set_default_dtype(torch.float64 if phase == "refine" else torch.float32)


sums = []
for epoch in range(3):
    with precision(torch.float64):
        acc = torch.zeros(3)
        for x in xs:
            acc += x
    sums.append((str(acc.dtype), acc.sum().item()))
print("scoped", sums)

sums2 = []
for epoch in range(3):
    with HighPrecision():
        total = torch.tensor([0.0, 0.0, 0.0])
        for x in xs:
            total += x
    sums2.append((str(total.dtype), total.sum().item()))
print("class scope", sums2)

sums3 = []
for phase in ["warmup", "refine", "refine"]:
    configure(phase)
    run = torch.zeros(3)
    for x in xs:
        run += x
    sums3.append((phase, str(run.dtype), run.sum().item()))
configure("warmup")
print("phases", sums3)
