# corpus: runnable
"""A `to_cuda` helper (the .cuda() route) used on every batch of a plain loader."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
USE_CUDA = torch.cuda.is_available()


def to_cuda(x):
    if USE_CUDA:
        return x.cuda()  # paef: ok pageable-transfer
    return x


def init_state(batch_size, hidden):
    state = torch.zeros(batch_size, hidden)
    if USE_CUDA:
        state = state.cuda()  # paef: ok cpu-then-move
    return state


loader = DataLoader(TensorDataset(torch.randn(200, 5, 3), torch.randn(200, 1)), batch_size=20, shuffle=True)  # paef: ok pageable-transfer
rnn = nn.GRU(3, 8, batch_first=True)
head = nn.Linear(8, 1)
if USE_CUDA:
    rnn, head = rnn.cuda(), head.cuda()
opt = torch.optim.Adam(list(rnn.parameters()) + list(head.parameters()), lr=1e-2)
for epoch in range(3):
    for seq, target in loader:
        seq, target = to_cuda(seq), to_cuda(target)
        h0 = init_state(seq.size(0), 8).unsqueeze(0)
        out, _ = rnn(seq, h0)
        loss = nn.functional.mse_loss(head(out[:, -1]), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
