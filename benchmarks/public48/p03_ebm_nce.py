# Public check 48, p03: DeAngelisDavide/EBM-with-NCE `model.py` @ b5e83785, `loss.py` @ 0335be56, `sampling.py`
# @ b5e83785, `train.py` @ 5c30daa2 (no licence file stored): an energy-based model trained by noise-contrastive
# estimation, then sampled by Langevin dynamics.
# Changes to run on the CPU in seconds (the source's own lines are unchanged unless listed):
#  1. the four modules are concatenated in this file (their imports kept; `from model import ...` etc. not needed).
#  2. the repository has no driver: the block at the end (marked) is new: seeds, a synthetic 2-D "two moons" data set
#     (1024 points, scikit-learn is not installed), a standard normal noise distribution, `device = cuda if
#     available`, Adam, 2 epochs of `train_energy_model(..., nce_loss_fn=nce_loss)`, 20 Langevin steps, a checksum.
# ---------------------------------------------------------------- model.py
import torch.nn as nn
import torch.nn.functional as F
import torch 

class EBM(nn.Module):
    def __init__(self, dim=2):
        super(EBM, self).__init__()
        # The normalizing constant logZ(θ)        
        self.z = nn.Parameter(torch.tensor([1000.0], requires_grad=True))  # Init logZ to 0; adjust if needed
        self.f = nn.Sequential(
            nn.Linear(dim, 1024),
            nn.LayerNorm(1024),
            nn.LeakyReLU(0.2),

            nn.Linear(1024, 512),
            nn.LayerNorm(512),
            nn.LeakyReLU(0.2),

            nn.Linear(512, 256),
            nn.LayerNorm(256),
            nn.LeakyReLU(0.2),

            nn.Linear(256, 128),
            nn.LeakyReLU(0.2),

            nn.Linear(128, 1),  
        )
        self.apply(self.weights_init)
        
    def forward(self, x):
        p = self.f(x) 
        return p
    
    @staticmethod
    def weights_init(m):
        if isinstance(m, nn.Linear):
            # Xavier uniforme su pesi
            nn.init.xavier_uniform_(m.weight, gain=nn.init.calculate_gain('leaky_relu'))
            if m.bias is not None:
                nn.init.constant_(m.bias, -1000.0)

# ---------------------------------------------------------------- loss.py
import torch 
import torch.nn.functional as F


def nce_loss(energy, noise, x, gen):
    #for first term
    f_x = energy.f(x) #.f in case the forward is changed by introducing z
    logp_x = noise.log_prob(x)
    logz = energy.z

    first_term = f_x - torch.logsumexp(torch.stack([f_x, logz+logp_x[:, None]], dim=1), dim=1)

    #for second term
    logp_n = noise.log_prob(gen)
    #p_n = torch.exp(logp_n)
    f_n = energy.f(gen)

    second_term =  logz + logp_n[:, None] - torch.logsumexp(torch.stack([f_n, logz+logp_n[:, None]], dim=1), dim=1)

    #Monitoring
    print("z * q(x):", (logz + logp_x[:5]).detach())
    print("f_x:", f_x.min().item(), f_x.max().item())
    print("logp_x:", logp_x.min().item(), logp_x.max().item())
    print("f_n:", f_n.min().item(), f_n.max().item())
    print("logp_n:", logp_n.min().item(), logp_n.max().item())
    print("Z:", energy.z)
    print("first term:", first_term[:10])
    print("second term:", second_term[:10])
    return -torch.mean(first_term + second_term)

# ---------------------------------------------------------------- sampling.py
import torch 

def langevin_sampling(energy_model, noise, batch_size=1, steps=50, epsilon=0.01, device = "cpu"):
    """
    Langevin dynamics sampling directly in embedding space.
    Sampling z ~ p(z) ∝ exp(f(z))
    """
    energy_model.to(device).eval()

    z = noise.sample(batch_size)
    z_noise = z.clone()
    score_norms = []
    energy_values = []

    for step in range(steps):
        z.requires_grad_(True)

        f_z = energy_model.f(z).sum()
        energy_values.append(f_z.item())

        grad = torch.autograd.grad(f_z, z, create_graph=False, retain_graph=False)[0]

        # Norm tracking
        score_norm = torch.norm(grad.view(grad.shape[0], -1), dim=1).mean().item()
        score_norms.append(score_norm)

        # Langevin update
        noise = torch.randn_like(z)
        z = z + (epsilon / 2) * grad + torch.sqrt(torch.tensor(epsilon, device=z.device)) * noise
        z = z.detach()

    return z, score_norms, energy_values, z_noise

# ---------------------------------------------------------------- train.py
import torch
import os

def train_energy_model(
    energy,
    noise,
    dataloader,
    optimizer,
    nce_loss_fn,
    device="cpu",
    epochs=100,
    patience=5,
    min_delta=1e-4,
    resume=False,
    checkpoint_path='ckpts/nce.pth.tar',
    save_path='ckpts/nce.pth.tar'
):


    start_epoch = 0
    best_loss = float('inf')
    patience_counter = 0

    # Resume training if requested
    if resume and os.path.exists(checkpoint_path):
        print(f"Resuming from checkpoint at {checkpoint_path}...")
        checkpoint = torch.load(checkpoint_path, map_location=device)
        energy.load_state_dict(checkpoint['energy'])
        start_epoch = checkpoint['epoch'] + 1
        best_loss = checkpoint['value']

    # Main training loop
    for epoch in range(start_epoch, start_epoch + epochs):
        epoch_loss = 0.0

        for i, x in enumerate(dataloader):
            x = x[0].to(device)

            # Sample from noise distribution
            gen = noise.sample((x.shape[0],)).to(device)

            optimizer.zero_grad()
            loss = nce_loss_fn(energy, noise, x, gen)
            loss.backward()

            # Debug: gradient of latent variable (optional)
            print("grad z:", energy.z.grad if hasattr(energy, 'z') else "no z attr")

            optimizer.step()
            epoch_loss += loss.item()

            print(f"[Epoch {epoch}/{start_epoch + epochs - 1}] [Batch {i}/{len(dataloader)}]")

        # Compute average loss
        epoch_loss /= len(dataloader)
        print(f"Epoch {epoch} average loss: {epoch_loss:.4f}")

        # Early stopping & checkpointing
        if best_loss - epoch_loss > min_delta:
            best_loss = epoch_loss
            patience_counter = 0
            print("Loss improved, saving checkpoint...")

            os.makedirs('ckpts', exist_ok=True)
            torch.save({
                'energy': energy.state_dict(),
                'value': best_loss,
                'epoch': epoch,
            }, save_path)

        else:
            patience_counter += 1
            print(f"No improvement. Patience counter: {patience_counter}/{patience}")

# ---------------------------------------------------------------- driver (change 2, new)
if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    t = torch.rand(1024) * 3.141592653589793
    upper = torch.rand(1024) < 0.5
    data = torch.stack([torch.where(upper, torch.cos(t), 1 - torch.cos(t)),
                        torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))], dim=1) + 0.05 * torch.randn(1024, 2)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(data), batch_size=256, shuffle=True)
    noise = torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2))
    energy = EBM(dim=2).to(device)
    optimizer = torch.optim.Adam(energy.parameters(), lr=1e-4)
    train_energy_model(energy, noise, loader, optimizer, nce_loss, device=device, epochs=2)
    z, score_norms, energy_values, z_noise = langevin_sampling(energy, noise, batch_size=(256,), steps=20, device=device)
    print("checksum", round(sum(float(p.detach().double().sum()) for p in energy.parameters()), 4),
          round(float(z.double().sum()), 4), round(sum(energy_values), 2), round(sum(score_norms), 4))
