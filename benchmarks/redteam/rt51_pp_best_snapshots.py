# corpus: runnable
# Red team 51 (blind): best-value snapshots taken with torch.tensor(x.item()) and histories rebuilt with
# torch.tensor(list). The per-epoch validation table is preallocated and zeroed at a warm restart; an EMA
# of the weights is kept in a list updated in place through the loop variable; counts are int32 sums and
# improvement flags booleans; the report prints dtypes and values.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5110)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(60)
X = torch.randn(80, 4, generator=g)
Y = (X[:, 0] * X[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)).to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.02)
ema = [p.detach().clone() for p in model.parameters()]

table = torch.zeros(10)
best_val = torch.tensor(float('inf'))
best_ema = None
counts, flags, ema_trace = [], [], []
for epoch in range(10):
    if epoch == 5:
        table.zero_()  # warm restart: the table starts over
        for group in opt.param_groups:
            group['lr'] = 0.01
    for i in range(0, 60, 12):
        loss = F.cross_entropy(model(X[i:i + 12].to(device)), Y[i:i + 12].to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        for e, p in zip(ema, model.parameters()):
            e.mul_(0.8).add_(p.detach(), alpha=0.2)
    with torch.no_grad():
        out = model(X[60:].to(device))
        table[epoch] = F.cross_entropy(out, Y[60:].to(device)).cpu()
        correct = (out.argmax(1).cpu() == Y[60:]).sum(dtype=torch.int32)
    improved = table[epoch] < best_val
    flags.append(improved.item())
    counts.append(correct.item())
    ema_trace.append(torch.tensor(ema[2][0, 0].item()))
    if improved:
        best_val = torch.tensor(table[epoch].item())
        best_ema = torch.tensor(ema[0][0, 0].item())
    print(epoch, f'{table[epoch].item():.10f}', f'{best_val.item():.10f}', f'{best_ema.item():.10f}')

count_t = torch.tensor(counts)
flag_t = torch.tensor(flags)
trace = torch.stack(ema_trace)
print('counts', count_t.dtype, count_t.tolist(), 'flags', flag_t.dtype, flag_t.sum().item())
print('best', best_val.dtype, f'{best_val.item():.10f}', 'ema at best', f'{best_ema.item():.10f}')
print('trace', [round(v, 8) for v in trace.tolist()])
