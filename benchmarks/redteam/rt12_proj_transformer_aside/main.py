# corpus: runnable
# Attention layers the script never names: an encoder stack built by a local helper, a model
# class of a local module holding `nn.MultiheadAttention`. With padding masks, under no_grad in
# eval mode PyTorch's fast path changes the padded positions.
import torch
import torch.nn as nn

from blocks import Mixer, build_encoder

torch.manual_seed(0)
torch.set_num_threads(1)
enc = build_encoder(8)
mix = Mixer(8)
enc.eval()
mix.eval()
x = torch.randn(2, 5, 8)
mask = torch.tensor([[False, False, False, True, True], [False, False, False, False, True]])
outs = []
for step in range(2):
    y = enc(x, src_key_padding_mask=mask)
    outs.append(round(y.abs().sum().item(), 3))
print("encoder", outs)
outs = []
for step in range(2):
    y = mix(x, mask)
    outs.append(round(y.abs().sum().item(), 3))
print("mixer", outs)
