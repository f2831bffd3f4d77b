# corpus: runnable
# Red team 54 (blind): a regression pipeline that hops between torch and NumPy. A CPU tensor and its .numpy()
# array share memory, so clipping the array in place also clips the tensor; torch.from_numpy of a reversed view
# needs a copy; an array read from bytes is not writable. Snapshots of device values are taken through the host
# (tolist / numpy) and later compared against the live tensors, which keep being updated in place.
import warnings

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(5404)
torch.set_num_threads(1)
np.random.seed(544)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

raw = np.random.randn(96, 4).astype(np.float32) * np.array([1.0, 3.0, 0.5, 8.0], dtype=np.float32)
target = (raw @ np.array([0.5, -0.2, 1.5, 0.05], dtype=np.float32) + 0.1 * np.random.randn(96)).astype(np.float32)
feats = torch.from_numpy(raw)
view = feats.numpy()
np.clip(view, -6.0, 6.0, out=view)
mu, sd = feats.mean(0), feats.std(0)
feats -= mu
feats /= sd
print('clipped max', f'{float(np.abs(raw).max()):.6f}', f'{feats.abs().max().item():.6f}')

rev = torch.from_numpy(target[::-1].copy())
blob = np.arange(8, dtype=np.float32).tobytes()
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    frozen = torch.from_numpy(np.frombuffer(blob, dtype=np.float32))
weights_row = torch.tensor(frozen.numpy()[:4] / 10.0)

model = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X, Y = feats.to(device), torch.from_numpy(target).to(device)
snapshots = []
for step in range(30):
    pred = model(X).squeeze(1)
    loss = ((pred - Y) ** 2 * (1.0 + weights_row.sum().to(device))).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        w_host = torch.tensor(model.weight.detach().cpu().tolist())
        w_np = torch.from_numpy(model.weight.detach().cpu().numpy())
        snapshots.append((w_host, w_np))
        print('step', step, f'{loss.item():.8f}')

with torch.no_grad():
    model.weight.mul_(0.5)
drift = [float((a - b).abs().sum()) for a, b in snapshots]
final_w = model.weight.detach().cpu().numpy()
final_w[0, 0] = 0.0
bias_host = torch.tensor(model.bias.detach().cpu().numpy())
model.bias.data.add_(1.0)
resid = (model(X).squeeze(1) - Y).detach().cpu().numpy()
order = np.argsort(resid)[::-1]
worst = torch.from_numpy(order[:5].copy())
print('drift', [round(d, 6) for d in drift], 'rev0', f'{rev[0].item():.6f}', 'frozen', frozen.tolist()[:3])
print('checksum', f'{model.weight.sum().item():.8f}', f'{bias_host.item():.8f}', f'{model.bias.item():.8f}',
      worst.tolist(), f'{float(resid.sum()):.6f}')
