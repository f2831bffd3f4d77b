# corpus: runnable
# Weighted running totals as model families write them: a KL term annealed by a NumPy schedule
# (`beta = betas[step]`, float32 and float64), per-sample weights of a tabular set read from a
# NumPy column, a per-token loss total weighted by a token count that is itself a tensor
# (`ntokens = (tgt != PAD).sum()`, as in the Annotated Transformer), and an RL return discounted
# by a NumPy `gamma ** t`. Python promotes `float * np.float32` to np.float32 and `float * tensor`
# to a tensor: the totals' types and roundings follow.
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(11)
device = "cuda" if torch.cuda.is_available() else "cpu"
rng = np.random.RandomState(11)

# --- VAE with KL annealing from a NumPy schedule
enc, dec = nn.Linear(6, 4).to(device), nn.Linear(2, 6).to(device)
vopt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
steps = 8
betas = np.linspace(0.0, 1.0, steps, dtype=np.float32)
betas64 = np.linspace(0.0, 1.0, steps)
data = [torch.randn(10, 6) for _ in range(steps)]
kl_weighted = 0.0
kl_weighted64 = 0.0
history = []
for step, x in enumerate(data):
    x = x.to(device)
    h = enc(x)
    mu, logvar = h[:, :2], h[:, 2:]
    z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
    kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), 1))
    beta = betas[step]
    beta64 = betas64[step]
    loss = F.mse_loss(dec(z), x) + beta * kl
    vopt.zero_grad()
    loss.backward()
    vopt.step()
    kl_weighted += kl.item() * beta
    kl_weighted64 += kl.item() * beta64
history.append(kl_weighted64)
print("kl", kl_weighted, kl_weighted64, history)

# --- tabular: per-sample weights from a float32 column
X = torch.randn(48, 5)
y = torch.randint(0, 2, (48,))
sample_w = rng.rand(48).astype(np.float32)
clf = nn.Linear(5, 2).to(device)
copt = torch.optim.SGD(clf.parameters(), lr=0.1)
weighted, wsum = 0.0, 0.0
for i in range(0, 48, 8):
    xb, yb = X[i:i + 8].to(device), y[i:i + 8].to(device)
    w = sample_w[i:i + 8].mean()
    loss = F.cross_entropy(clf(xb), yb)
    copt.zero_grad()
    loss.backward()
    copt.step()
    weighted += loss.item() * w
    wsum += w
print("tabular", weighted, weighted / wsum)

# --- seq2seq: loss per token, the token count a tensor
PAD, V = 0, 12
emb, proj = nn.Embedding(V, 8).to(device), nn.Linear(8, V).to(device)
sopt = torch.optim.Adam(list(emb.parameters()) + list(proj.parameters()), lr=1e-2)
total_loss = 0.0
for _ in range(5):
    tgt = torch.randint(0, V, (4, 6)).to(device)
    ntokens = (tgt != PAD).sum()
    logits = proj(emb(tgt))
    loss = F.cross_entropy(logits.view(-1, V), tgt.view(-1), ignore_index=PAD)
    sopt.zero_grad()
    loss.backward()
    sopt.step()
    total_loss += loss.item() * ntokens
print("per-token", total_loss)

# --- RL: a discounted sum of log-probabilities with a NumPy discount
gamma = np.float32(0.97)
pi = nn.Linear(3, 4).to(device)
popt = torch.optim.SGD(pi.parameters(), lr=0.05)
disc_logp = 0.0
for t in range(6):
    obs = torch.randn(3, device=device)
    dist = torch.distributions.Categorical(logits=pi(obs))
    a = dist.sample()
    logp = dist.log_prob(a)
    (-logp).backward()
    popt.step()
    popt.zero_grad()
    discount = gamma ** t
    disc_logp += logp.item() * discount
print("rl", disc_logp, type(disc_logp).__name__)
