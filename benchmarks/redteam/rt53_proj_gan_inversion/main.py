# corpus: runnable
# Red team 53 (blind): GAN inversion. A fixed random generator (frozen) and an encoder trained to map its
# outputs back to latents. The encoder is trained on the code left in a dict by nets.encode_into (which
# puts the encoder in eval, to freeze its BatchNorm statistics, and returns nothing); then targets are
# inverted by optimising z from the encoder's warm start (invert.py), the prior weight annealed per step.
import torch

from invert import invert
from nets import Encoder, Generator, encode_into

torch.manual_seed(5309)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

gen = Generator().to(device)
gen.eval()
for p in gen.parameters():
    p.requires_grad_(False)

enc = Encoder().to(device)
# warm the BatchNorm statistics once in train mode
with torch.no_grad():
    enc(gen(torch.randn(128, 4, device=device)))
opt = torch.optim.Adam(enc.parameters(), lr=0.01)
out = {}
enc_losses = []
for it in range(80):
    z = torch.randn(64, 4, device=device)
    x = gen(z)
    encode_into(enc, x, out)
    loss = ((out['z'] - z) ** 2).mean() + 0.01 * out['norm']
    opt.zero_grad()
    loss.backward()
    opt.step()
    enc_losses.append(loss.item())

z_true = torch.randn(6, 4, device=device)
targets = gen(z_true) + 0.01 * torch.randn(6, 12, device=device)
encode_into(enc, targets, out)
z_found, path, inv_losses = invert(gen, targets, out['z'], steps=40, lr=0.05, lam=0.1)
moved = (path[0] - path[-1]).abs().sum().item()

print('encoder', round(enc_losses[0], 6), round(enc_losses[-1], 6))
print('inversion', [round(v, 6) for v in inv_losses[::8]], round(inv_losses[-1], 6))
print('latent err', round((z_found - z_true).abs().mean().item(), 6), 'path moved', round(moved, 6), len(path))
print('enc params', round(sum(p.double().sum().item() for p in enc.parameters()), 6))
