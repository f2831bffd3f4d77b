"""The WGAN-GP loop: n_critic critic steps per generator step."""
import torch

from utils import gradient_penalty, make_noise, to_cuda


def train(G, D, data, epochs=3, batch=32, n_critic=3, nz=4, lam=10.0):
    optG = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
    optD = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
    history = []
    for epoch in range(epochs):
        perm = torch.randperm(len(data))
        d_losses = []
        for it in range(0, len(data) - batch + 1, batch):
            real = to_cuda(data[perm[it : it + batch]])  # paef: ok pageable-transfer; ok redundant-tensor
            for _ in range(n_critic):
                fake = G(make_noise(batch, nz)).detach()
                d_loss = D(fake).mean() - D(real).mean() + lam * gradient_penalty(D, real, fake)
                optD.zero_grad()
                d_loss.backward()
                optD.step()
            d_losses.append(d_loss)  # paef: expect graph-retention
            g_loss = -D(G(make_noise(batch, nz))).mean()
            optG.zero_grad()
            g_loss.backward()
            optG.step()
        history.append(torch.stack(d_losses).mean().item())
        print(f"epoch {epoch} critic {history[-1]:.4f} gen {g_loss.item():.4f}")
    return history
