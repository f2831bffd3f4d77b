# corpus: runnable
import numpy as np
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
arr = np.arange(6, dtype=np.float32)
for step in range(2):
    a = torch.from_numpy(arr).to(device)
    b = torch.as_tensor(arr).to(device)
    b += 1
    c = torch.tensor(arr).to(device)
    print(a.sum().item(), b.sum().item(), c.sum().item(), arr.sum())
