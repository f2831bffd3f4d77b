# corpus: runnable
# `.item()`/`float()` lists of elements of parameters and buffers that the optimizer or the
# forward changes in place afterwards, rebuilt as tensors: a weight trace, a running-mean trace,
# a learning-rate-free EMA trace; and a list of detached losses (near-miss).
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Linear(4, 2)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(4)]
w_trace, rm_trace, losses = [], [], []
for x, y in data:
    loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device))
    opt.zero_grad()
    loss.backward()
    opt.step()
    w_trace.append(float(model[0].weight[0, 0]))
    rm_trace.append(model[1].running_mean[0].item())
    losses.append(loss.item())
print(torch.tensor(w_trace), torch.tensor(rm_trace), torch.tensor(losses))
