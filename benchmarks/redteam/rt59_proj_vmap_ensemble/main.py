# corpus: runnable
# Red team 59 (blind): a deep ensemble of 5 small MLPs trained as ONE set of stacked parameters
# (torch.func.stack_module_state + functional_call + vmap), each member on its own bootstrap batch. After each
# epoch an evaluation loop measures every member's accuracy, the ensemble's disagreement, and an input-saliency
# profile on a fixed probe grid (the probe is built inside the loop and handed to a helper that turns on its
# requires_grad and back-propagates into it).
import torch

from ensemble import StackedEnsemble, make_member, saliency
from train import train_epoch

torch.manual_seed(5907)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

N, D, C, M = 400, 6, 3, 5
W = torch.randn(D, C)
X = torch.randn(N, D)
Y = (X @ W + 0.5 * torch.randn(N, C)).argmax(1)
X, Y = X.to(device), Y.to(device)

members = [make_member(D, 24, C).to(device) for _ in range(M)]
ens = StackedEnsemble(members)
opt = torch.optim.Adam(ens.parameters(), lr=1e-2)
gen = torch.Generator().manual_seed(59)

acc_hist = []
dis_hist = []
sal_hist = []
for epoch in range(6):
    member_loss = train_epoch(ens, opt, X, Y, gen)
    logits = ens(X)
    acc = (logits.argmax(2) == Y).float().mean(1)
    acc_hist.append(acc.tolist())
    votes = logits.argmax(2)
    dis_hist.append((votes != votes.mode(0).values).float().mean().item())
    probe = torch.linspace(-2, 2, 32, device=device).unsqueeze(1).repeat(1, D)
    sal_hist.append(saliency(ens, probe))
    for p in ens.parameters():
        p.grad = None

print("member loss", [round(v, 4) for v in member_loss.tolist()])
print("acc", [round(a, 4) for a in acc_hist[-1]])
print("disagree", [round(d, 4) for d in dis_hist])
print("saliency", [round(v, 4) for v in torch.stack(sal_hist).sum(0).tolist()])
print("checksum", round(sum(p.detach().double().sum().item() for p in ens.parameters()), 4))
