# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
def run(batches, pos_weight=None):
    pw = None
    for x in batches:
        pw = torch.tensor(pos_weight, device=device)
        x = x.to(device)
        print((x * pw).sum().item())
    return pw
print(run([torch.randn(2) for _ in range(2)], [1.0, 2.0]))
print(run([]))
