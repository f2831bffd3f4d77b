# corpus: runnable
# Red team 52 probe (not blind): the blind force-field program's second shape, with the grad-mode read moved
# into a SUBMODULE of models defined in a local module (models.py).
import torch

from models import Encoder

torch.manual_seed(5212)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
pos = torch.randn(32, 2, device=device)
enc = Encoder(2, 3).to(device)
enc.eval()
norms = []
for i in range(0, 32, 8):
    norms.append(enc(pos[i:i + 8]).norm().item())
print('enc', [round(n, 5) for n in norms], enc.memory.bank.shape[0])
print('checksum', round(sum(norms) + enc.memory.bank.sum().item(), 5))
