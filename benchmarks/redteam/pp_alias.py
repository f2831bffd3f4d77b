# corpus: runnable
import numpy as np
import torch
torch.manual_seed(0)
device = "cpu"
model = torch.nn.Linear(4, 3)
for step in range(3):
    x = torch.randn(5, 4)
    logits = model(x)
    vals = logits.detach().cpu().numpy()
    probs = torch.tensor(vals).to(device)
    probs /= probs.sum(1, keepdim=True)
    print(logits.sum().item(), probs.sum().item())
    scores = logits.detach().cpu().numpy()
    scores[scores < 0] = 0
    pos = torch.tensor(scores).to(device)
    print(pos.sum().item())
