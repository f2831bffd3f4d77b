# corpus: runnable
# Red team 32b, wave 1 (blind): an LSTM tagger with mixed-precision settings kept in variables whose
# names mention the GPU. `gpu_dtype` is the dtype used on the accelerator, `dev_scores` are the
# scores of the *dev* (validation) split, and `device_kwargs` bundles the device with a dtype; each
# is handed to `.to(...)` on a freshly built tensor inside the training loop.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(4)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
gpu_dtype = torch.float16 if torch.cuda.is_available() else torch.float64
device_kwargs = {"device": device, "dtype": torch.float64}
B, T, H, V = 4, 5, 8, 10
tokens = torch.randint(0, V, (B, T))
tags = torch.randint(0, 3, (B, T))
dev_tokens = torch.randint(0, V, (B, T))


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.rnn = nn.LSTM(H, H, batch_first=True)
        self.out = nn.Linear(H, 3)

    def forward(self, ids, h0, c0):
        seq, _ = self.rnn(self.emb(ids), (h0, c0))
        return self.out(seq)


model = Tagger().to(device)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    h0 = torch.zeros(1, B, H).to(device)
    c0 = torch.zeros(1, B, H).to(device)
    logits = model(tokens.to(device), h0, c0)
    loss = F.cross_entropy(logits.reshape(-1, 3), tags.to(device).reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        dev_scores = model(dev_tokens.to(device), h0, c0).softmax(-1)
    acc_sum = torch.zeros(B).to(gpu_dtype)
    acc_sum += dev_scores.max(-1).values.sum(-1)
    prior = torch.ones(3).to(dev_scores)
    prior = prior / prior.sum()
    bias = torch.full((3,), 0.5).to(**device_kwargs)
    print(f"epoch {epoch} loss {loss.item():.6f} acc {acc_sum.tolist()} {acc_sum.dtype}")
    print("  prior", prior.tolist(), prior.dtype, "bias", bias.tolist(), bias.dtype)
