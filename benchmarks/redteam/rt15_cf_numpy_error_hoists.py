# corpus: runnable
# Feature statistics recomputed per epoch while the epoch switches NumPy's floating-point error
# mode (`np.seterr(all="raise")` after the first epoch, caught as `FloatingPointError`) and
# reseeds NumPy's global RNG: moved before the loop, the statistics would be computed once
# under the first epoch's error mode.
import numpy as np
import torch

torch.set_num_threads(1)
X = np.array([[1.0, 0.0, 2.0], [1.0, 0.0, 4.0], [1.0, 0.0, 6.0]], dtype=np.float64)
old = np.seterr(all="ignore")
report = []
for epoch in range(3):
    try:
        z = (X - X.mean(0)) / X.std(0)
        report.append(int(np.isnan(z).sum()))
    except FloatingPointError:
        report.append("raised")
    np.seterr(all="raise")
np.seterr(**old)
print("standardize", report)

draws = []
for epoch in range(3):
    np.random.seed(epoch)
    noise = np.random.rand(2)
    draws.append(torch.from_numpy(noise).sum().item())
print("draws", [round(d, 6) for d in draws])

np.seterr(all="ignore")
ratios = []
for epoch in range(2):
    with np.errstate(divide="raise"):
        try:
            r = np.log(X[:, 1])
            ratios.append(float(r.sum()))
        except FloatingPointError:
            ratios.append("raised")
print("log", ratios)
np.seterr(**old)
