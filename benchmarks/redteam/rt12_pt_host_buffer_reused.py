# corpus: runnable
# Blocking host-to-device copies from a host buffer the loop refills right after the copy (a
# staging buffer reused every step): with `non_blocking=True` from pinned memory the refill may
# race the copy on a GPU. On this CPU run it only has to print the same sums.
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = torch.nn.Linear(4, 1).to(device)
staging = torch.empty(8, 4)
data = torch.randn(5, 8, 4)
sums = []
for step in range(5):
    staging.copy_(data[step])
    xb = staging.to(device)
    staging.zero_()
    sums.append(round(model(xb).sum().item(), 4))
print("staged", sums)
