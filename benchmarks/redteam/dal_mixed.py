# corpus: runnable
import torch
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
data = {"w": [1, 2, 3.5, 4], "seq": [[1, 2], [3, 4], [5, 6, 7], [8, 9, 10]]}
for epoch in range(2):
    for s in range(0, 4, 2):
        idx = [s, s + 1]
        w = torch.tensor([data["w"][i] for i in idx], device=device)
        seq = torch.tensor([data["seq"][i] for i in idx], device=device)
        print(w.dtype, w.tolist(), seq.tolist())
