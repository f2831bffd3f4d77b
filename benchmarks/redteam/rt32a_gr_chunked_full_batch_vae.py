# corpus: runnable
# Red team 32a, wave 1 (blind): full-batch training of a small VAE, one optimizer step per epoch.
# The data set is fed through the model in chunks (memory), each chunk's reconstruction and KL
# terms summed over the epoch; the objective is assembled after the chunk loop term by term and
# back-propagated once.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


class VAE(nn.Module):
    def __init__(self, d=8, z=2):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Sequential(nn.Linear(z, 16), nn.Tanh(), nn.Linear(16, d))

    def forward(self, x, eps):
        mu, logvar = self.enc(x).chunk(2, dim=1)
        zs = mu + eps * (0.5 * logvar).exp()
        return self.dec(zs), mu, logvar


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--chunk", type=int, default=50)
    p.add_argument("--beta", type=float, default=0.5)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = torch.randn(200, 8) @ torch.randn(8, 8) * 0.5
    noise = torch.randn(200, 2)
    model = VAE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    n_chunks = (len(data) + args.chunk - 1) // args.chunk
    for epoch in range(args.epochs):
        model.train()
        opt.zero_grad()
        recon_sum = 0.0
        kl_sum = 0.0
        for i in range(0, len(data), args.chunk):
            xb, eb = data[i:i + args.chunk].to(device), noise[i:i + args.chunk].to(device)
            out, mu, logvar = model(xb, eb)
            recon_sum += F.mse_loss(out, xb, reduction="sum")
            kl_sum += -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
        objective = recon_sum / len(data)
        objective += args.beta * kl_sum / len(data)
        objective.backward()
        opt.step()
        print(f"epoch {epoch} objective {objective.item():.6f} recon {recon_sum.item() / len(data):.6f} "
              f"kl {kl_sum.item() / len(data):.6f} chunks {n_chunks}")
    print("enc weight", [round(v, 5) for v in model.enc.weight.flatten().tolist()[:6]])


if __name__ == "__main__":
    main()
