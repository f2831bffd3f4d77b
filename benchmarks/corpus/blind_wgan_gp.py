# corpus: runnable
"""WGAN-GP: n_critic critic updates per generator update, gradient penalty through autograd.grad."""
import torch
import torch.nn as nn
import torch.autograd as autograd

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
latent_dim, data_dim = 4, 6
n_critic, lambda_gp, batch_size = 3, 10.0, 32

real_data = torch.randn(256, data_dim, device=device) * 0.3 + 1.0

generator = nn.Sequential(nn.Linear(latent_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, data_dim)).to(device)
critic = nn.Sequential(nn.Linear(data_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1)).to(device)
optimizer_G = torch.optim.Adam(generator.parameters(), lr=1e-3, betas=(0.5, 0.9))
optimizer_D = torch.optim.Adam(critic.parameters(), lr=1e-3, betas=(0.5, 0.9))


def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand(real_samples.size(0), 1, device=device)
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = torch.ones(real_samples.shape[0], 1, device=device)  # paef: ok redundant-tensor
    gradients = autograd.grad(
        outputs=d_interpolates, inputs=interpolates, grad_outputs=fake, create_graph=True, retain_graph=True, only_inputs=True
    )[0]
    gradients = gradients.view(gradients.size(0), -1)
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


d_losses, g_losses = [], []
batches_done = 0
for epoch in range(2):
    perm = torch.randperm(real_data.size(0), device=device)
    for i in range(0, real_data.size(0), batch_size * n_critic):
        for c in range(n_critic):
            real_imgs = real_data[perm[i + c * batch_size : i + (c + 1) * batch_size]]
            if real_imgs.size(0) == 0:
                break
            optimizer_D.zero_grad()
            z = torch.randn(real_imgs.shape[0], latent_dim, device=device)
            fake_imgs = generator(z)
            real_validity = critic(real_imgs)
            fake_validity = critic(fake_imgs)
            gradient_penalty = compute_gradient_penalty(critic, real_imgs.data, fake_imgs.data)
            d_loss = -torch.mean(real_validity) + torch.mean(fake_validity) + lambda_gp * gradient_penalty
            d_loss.backward()
            optimizer_D.step()
            d_losses.append(d_loss)  # paef: expect graph-retention

        optimizer_G.zero_grad()
        z = torch.randn(batch_size, latent_dim, device=device)
        fake_imgs = generator(z)
        g_loss = -torch.mean(critic(fake_imgs))
        g_loss.backward()
        optimizer_G.step()
        g_losses.append(g_loss.item())  # paef: expect host-sync
        batches_done += 1
    print(f"[Epoch {epoch}] [D loss: {torch.stack(d_losses[-3:]).mean().item():.4f}] [G loss: {g_losses[-1]:.4f}]")
print("batches", batches_done, "mean D", round(torch.stack(d_losses).mean().item(), 4))
