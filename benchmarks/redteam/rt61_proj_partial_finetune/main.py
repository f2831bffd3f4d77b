# corpus: runnable
# Red team 61 (blind): partial fine-tuning in two phases (phases.py). The encoder's features are first banked
# once under no_grad and a linear probe is fitted on the bank; then the stem stays frozen (its outputs, also
# banked under no_grad, are reused) while the top block is fine-tuned with the head. A forward hook (nets.py)
# keeps the top block's latest output in a dict; phase 2 penalises its magnitude, so the stored output must keep
# its graph. The stem stays in eval mode (BatchNorm statistics frozen) during phase 2.
import torch
import torch.nn as nn

from nets import C, D, Encoder, E, record_top
from phases import build_bank, finetune_top, probe

torch.manual_seed(6108)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, B = 360, 45
centers = torch.randn(C, D) * 1.4
y = torch.randint(0, C, (N,))
x = centers[y] + torch.randn(N, D)
x, y = x.to(device), y.to(device)

encoder = Encoder().to(device)
with torch.no_grad():
    for _ in range(3):
        encoder.train()
        encoder(x)
store = {}
handle = record_top(encoder, store)

bank, mids = build_bank(encoder, x, B)
head = nn.Linear(E, C).to(device)
probe_curve = probe(head, bank, y, B, epochs=6, lr=0.2)
with torch.no_grad():
    probe_acc = (head(torch.cat(bank)).argmax(1) == y).float().mean().item()

encoder.top.train()
ft_curve, act_log = finetune_top(encoder, head, mids, y, B, epochs=5, store=store, penalty=0.5)
handle.remove()
encoder.eval()
with torch.no_grad():
    ft_acc = (head(encoder(x)).argmax(1) == y).float().mean().item()
acts = torch.tensor(act_log)
print('probe', [round(v, 4) for v in probe_curve], round(probe_acc, 4))
print('finetune', [round(v, 4) for v in ft_curve], round(ft_acc, 4), 'act', round(acts.mean().item(), 5))
print('checksum', round(sum(p.double().sum().item() for p in encoder.top.parameters()), 6),
      round(sum(p.double().sum().item() for p in head.parameters()), 6))
