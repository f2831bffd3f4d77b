# corpus: runnable
# Red team 51 (blind): training histories kept as tensors for diagnostics taken after training. A linear
# regressor (its graphs keep only inputs and outputs, so they stay valid after the optimizer steps): the
# per-step losses are appended with their graphs and later summed and back-propagated to get the run's mean
# gradient; the best step's loss is kept on improvement and differentiated at the end; a spike test reads
# a window of the history (every step back-propagates with retain_graph=True); a dict of per-epoch totals is handed to a summary helper that back-propagates.
import torch
import torch.nn as nn

torch.manual_seed(5107)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

g = torch.Generator().manual_seed(57)
X = torch.randn(60, 5, generator=g)
Y = X @ torch.tensor([[0.5], [-1.0], [2.0], [0.0], [1.0]]) + 0.1 * torch.randn(60, 1, generator=g)
reg = nn.Linear(5, 1).to(device)
opt = torch.optim.SGD(reg.parameters(), lr=0.05)


def summarize(per_epoch):
    """Back-propagates the mean of the per-epoch totals; returns it as a number."""
    mean = torch.stack(list(per_epoch.values())).mean()
    mean.backward()
    return mean.item()


X_probe = torch.randn(4, 5, generator=g)
history = []
probes = []
best_loss, best_step = None, -1
per_epoch = {}
spikes = 0
step = 0
for epoch in range(3):
    epoch_total = 0
    for i in range(0, 60, 10):
        loss = nn.functional.mse_loss(reg(X[i:i + 10].to(device)), Y[i:i + 10].to(device))
        opt.zero_grad()
        loss.backward(retain_graph=True)  # the kept history is differentiated again at the end
        opt.step()
        history.append(loss)
        probe = reg(X_probe.to(device)).mean()
        probes.append(probe)
        epoch_total = epoch_total + loss
        if best_loss is None or loss.item() < best_loss.item():
            best_loss, best_step = loss, step
        window = torch.stack(history[-4:])
        if len(history) > 4 and loss.item() > 1.5 * window.mean().item():
            spikes += 1
        step += 1
    per_epoch[epoch] = epoch_total
    print('epoch', epoch, f'{epoch_total.item():.10f}')

opt.zero_grad()
run_mean = sum(history) / len(history)
run_mean.backward(retain_graph=True)
print('run mean', f'{run_mean.item():.10f}', 'mean grad', [round(v, 8) for v in reg.weight.grad.flatten().tolist()])

(g_best,) = torch.autograd.grad(best_loss, reg.weight, retain_graph=True)
print('best step', best_step, f'{best_loss.item():.10f}', 'grad', [round(v, 8) for v in g_best.flatten().tolist()])

opt.zero_grad()
drift = torch.stack(probes).pow(2).mean()
drift.backward()
print('probe drift', f'{drift.item():.10f}', 'grad', [round(v, 8) for v in reg.weight.grad.flatten().tolist()])

opt.zero_grad()
print('summary', f'{summarize(per_epoch):.10f}', 'bias grad', f'{reg.bias.grad.item():.10f}', 'spikes', spikes)
