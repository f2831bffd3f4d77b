# corpus: runnable
import numpy as np
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = torch.nn.Linear(4, 3).to(device)
for step in range(2):
    x = torch.randn(5, 4).to(device)
    out = model(x)
    vals = out.detach().cpu().numpy()
    out = out.softmax(1)
    probs = torch.tensor(vals).to(device)
    print(probs.sum().item(), out.sum().item())
    logits = model(x)
    scores = logits.detach().cpu().numpy()
    logits.data.mul_(0)
    pred = np.argmax(scores, axis=1)
    pred_t = torch.from_numpy(pred).to(device)
    print(pred_t.tolist())
    h = model(x).detach()
    arr = h.cpu().numpy()
    h += 1
    back = torch.from_numpy(arr).to(device)
    print(back.sum().item())
