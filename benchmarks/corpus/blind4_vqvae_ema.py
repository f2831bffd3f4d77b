# corpus: runnable
"""VQ-VAE with an EMA-updated codebook on small synthetic images: nearest-code lookup by
expanded squared distances, one-hot encodings scattered per batch, the codebook and cluster
sizes updated in place under no_grad, dead codes restarted from the batch, perplexity and
the reconstruction error appended to the history every step."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class VectorQuantizerEMA(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, commitment_cost=0.25, decay=0.99, epsilon=1e-5):
        super().__init__()
        self.K, self.D = num_embeddings, embedding_dim
        self.commitment_cost, self.decay, self.epsilon = commitment_cost, decay, epsilon
        self.register_buffer("embedding", torch.randn(num_embeddings, embedding_dim))
        self.register_buffer("ema_cluster_size", torch.zeros(num_embeddings))
        self.register_buffer("ema_w", self.embedding.clone())

    def forward(self, inputs):
        inputs = inputs.permute(0, 2, 3, 1).contiguous()
        flat = inputs.view(-1, self.D)
        distances = (flat ** 2).sum(1, keepdim=True) + (self.embedding ** 2).sum(1) - 2 * flat @ self.embedding.t()
        encoding_indices = distances.argmin(1).unsqueeze(1)
        encodings = torch.zeros(encoding_indices.shape[0], self.K, device=inputs.device)
        encodings.scatter_(1, encoding_indices, 1)
        quantized = (encodings @ self.embedding).view(inputs.shape)
        if self.training:
            with torch.no_grad():
                self.ema_cluster_size.mul_(self.decay).add_(encodings.sum(0), alpha=1 - self.decay)
                n = self.ema_cluster_size.sum()
                self.ema_cluster_size.copy_((self.ema_cluster_size + self.epsilon) / (n + self.K * self.epsilon) * n)
                self.ema_w.mul_(self.decay).add_(encodings.t() @ flat, alpha=1 - self.decay)
                self.embedding.copy_(self.ema_w / self.ema_cluster_size.unsqueeze(1))
                dead = self.ema_cluster_size < 1e-3
                if dead.any():  # paef: ok host-sync
                    self.embedding[dead] = flat[torch.randint(0, flat.shape[0], (int(dead.sum()),), device=flat.device)]  # paef: ok host-sync
        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        loss = self.commitment_cost * e_latent_loss
        quantized = inputs + (quantized - inputs).detach()
        avg_probs = encodings.mean(0)
        perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return loss, quantized.permute(0, 3, 1, 2).contiguous(), perplexity


class VQVAE(nn.Module):
    def __init__(self, K=32, D=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.ReLU(), nn.Conv2d(16, D, 3, 1, 1))
        self.vq = VectorQuantizerEMA(K, D)
        self.dec = nn.Sequential(nn.ConvTranspose2d(D, 16, 4, 2, 1), nn.ReLU(), nn.Conv2d(16, 1, 3, 1, 1))

    def forward(self, x):
        vq_loss, q, perplexity = self.vq(self.enc(x))
        return vq_loss, self.dec(q), perplexity


yy, xx = torch.meshgrid(torch.arange(12.0), torch.arange(12.0), indexing="ij")
centers = torch.rand(384, 2) * 8 + 2
images = torch.exp(-((yy - centers[:, 0, None, None]) ** 2 + (xx - centers[:, 1, None, None]) ** 2) / 6).unsqueeze(1)
loader = DataLoader(TensorDataset(images), batch_size=32, shuffle=True)  # paef: ok pageable-transfer
model = VQVAE().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
train_res_recon_error, train_res_perplexity = [], []
for epoch in range(4):
    model.train()
    for (data,) in loader:
        data = data.to(device)
        vq_loss, data_recon, perplexity = model(data)
        recon_error = F.mse_loss(data_recon, data)
        loss = recon_error + vq_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_res_recon_error.append(recon_error.item())  # paef: expect host-sync
        train_res_perplexity.append(perplexity.item())  # paef: expect host-sync
    print(f"epoch {epoch} recon {sum(train_res_recon_error[-12:]) / 12:.5f} perplexity {sum(train_res_perplexity[-12:]) / 12:.3f}")
