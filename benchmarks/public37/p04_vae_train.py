# Public check 37, p04: fully connected VAE training (train.py + model.py).
# Source: https://github.com/BreadxPeat/Deep-Learning-based-AD-detection
#   train.py @ bd68548f (train, the module-level driver) and model.py @ bd68548f (VariationalAutoEncoder).
# Changes to make it run on the CPU in seconds:
# - the two files are joined in one module (train.py uses `tqdm`, `train_loader`, `device`,
#   INPUT_DIM, LR_RATE, NUM_EPOCHS, `nn`, `torch` and VariationalAutoEncoder without defining or
#   importing them: a stand-in block defines them); `tqdm` (not in the venv) replaced by a
#   stand-in with `set_postfix`; train_loader: 48 seeded random "images" of 64 pixels in [0, 1]
#   (no dataset), batch 16; INPUT_DIM 784 -> 64, NUM_EPOCHS 2.
# - the model's hidden widths 12544 / 2601 / 200 -> 64 / 32 / 16 (the layers and forward are the source's);
#   the model is built with (INPUT_DIM, 20) as in train.py; a checksum print at the end.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class VariationalAutoEncoder(nn.Module):
    def __init__(self, input_dim, z_dim, h_dim=200):
        super().__init__()
        # encoder
        self.img_2hid1 = nn.Linear(input_dim, 64)
        self.img_2hid2 = nn.Linear(64, 32)
        self.img_2hid3 = nn.Linear(32, 16)

        # one for mu and one for stds, note how we only output
        # diagonal values of covariance matrix. Here we assume
        # the pixels are conditionally independent
        self.hid_2mu = nn.Linear(16, z_dim)
        self.hid_2sigma = nn.Linear(16, z_dim)

        # decoder
        self.z_2hid1 = nn.Linear(z_dim, 16)
        self.z_2hid2 = nn.Linear(16, 32)
        self.z_2hid3 = nn.Linear(32, 64)
        self.hid_2img = nn.Linear(64, input_dim)

    def encode(self, x):
        h = F.relu(self.img_2hid1(x))
        h = F.relu(self.img_2hid2(h))
        h = F.relu(self.img_2hid3(h))
        mu = self.hid_2mu(h)
        sigma = self.hid_2sigma(h)
        return mu, sigma

    def decode(self, z):
        new_h = F.relu(self.z_2hid1(z))
        new_h = F.relu(self.z_2hid2(new_h))
        new_h = F.relu(self.z_2hid3(new_h))
        x = torch.sigmoid(self.hid_2img(new_h))
        return x

    def forward(self, x):
        mu, sigma = self.encode(x)

        # Sample from latent distribution from encoder
        epsilon = torch.randn_like(sigma)
        z_reparametrized = mu + sigma*epsilon

        x = self.decode(z_reparametrized)
        return x, mu, sigma


# ---- stand-in for what train.py uses without defining (not part of the source) ----
class tqdm:
    def __init__(self, iterable):
        self.iterable = iterable
        self.postfix = {}

    def __iter__(self):
        return iter(self.iterable)

    def set_postfix(self, **kw):
        self.postfix = kw


torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
INPUT_DIM = 64
LR_RATE = 3e-4
NUM_EPOCHS = 2
train_loader = DataLoader(TensorDataset(torch.rand(48, 1, 8, 8), torch.zeros(48)), batch_size=16, shuffle=True)
# ---- end of stand-in ----


# Define train function
def train(num_epochs, model, optimizer, loss_fn):
    # Start training
    for epoch in range(num_epochs):
        loop = tqdm(enumerate(train_loader))
        for i, (x, y) in loop:
            # Forward pass
            x = x.to(device).view(-1, INPUT_DIM)
            x_reconst, mu, sigma = model(x)

            # loss, formulas from https://www.youtube.com/watch?v=igP03FXZqgo&t=2182s
            reconst_loss = loss_fn(x_reconst, x)
            kl_div = - torch.sum(1 + torch.log(sigma.pow(2)) - mu.pow(2) - sigma.pow(2))

            # Backprop and optimize
            loss = reconst_loss + kl_div
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loop.set_postfix(loss=loss.item())
            
            
# Initialize model, optimizer, loss
model = VariationalAutoEncoder(INPUT_DIM, 20).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=LR_RATE)
loss_fn = nn.BCELoss(reduction="sum")

# Run training
train(NUM_EPOCHS, model, optimizer, loss_fn)
print("checksum", round(sum(p.double().sum().item() for p in model.parameters()), 6))
