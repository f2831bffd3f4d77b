# Public check 40, p06: Siamese 1-D CNN on signal pairs, contrastive loss, OneCycle schedule, per-epoch validation.
# Source: https://github.com/siddinc/pytorch_siamese src/utils.py @ 0ddd10fb (DeviceDataLoader, get_default_device,
#   to_device, contrastive_loss, accuracy), src/network.py @ 46a8dd06 (SiameseNet, get_model),
#   src/training.py @ fc5e6556 (MetricLearningBase, evaluate, get_lr, fit); inlined in that order.
# Changes to make it run on the CPU in seconds:
# - src/dataset.py (get_data_loader) and src/main.py are not used: a driver builds seeded pairs of 1x3000 signals
#   (same pair: the second is the first plus noise; different pair: another signal), 48 train / 16 validation
#   pairs, loaders of batch 8 wrapped in DeviceDataLoader as the repo's utils do.
# - SiameseNet's forward comes from MetricLearningBase in training.py (the class is declared on nn.Module in
#   network.py): declared here as `SiameseNet(MetricLearningBase)` so that model.training_step exists.
# - constants (BETAS, ...), torchsummary and lr_finder unused: left out; tqdm -> the bare iterable.
# - the seed; epochs 2; a checksum print at the end.
# The functions and classes are the source's lines.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def tqdm(it):
    return it


# ---- source: src/utils.py ----
class DeviceDataLoader():

  def __init__(self, dl, device):
    self.dl = dl
    self.device = device

  def __iter__(self):
    for b in self.dl:
      yield to_device(b, self.device)

  def __len__(self):
    return len(self.dl)


def get_default_device():
  if torch.cuda.is_available():
    return torch.device('cuda')
  else:
    return torch.device('cpu')


def to_device(data, device):
  if isinstance(data, (list, tuple)):
    return [to_device(x, device) for x in data]
  return data.to(device, non_blocking=True)


def contrastive_loss(y_pred, y_true, margin=1.0):
  loss = (y_true * torch.pow(y_pred, 2)) + ((1.0 - y_true) * torch.pow(torch.clamp(margin - y_pred, min=0.0), 2))
  return torch.mean(loss)


def accuracy(y_pred, y_true):
  pred = (y_pred < 0.5).type(y_true.dtype)
  return torch.tensor(torch.sum(pred == y_true).item() / len(y_true))


# ---- source: src/training.py (the base class) ----
class MetricLearningBase(nn.Module):
  def __init__(self, norm_deg=1):
    super(MetricLearningBase, self).__init__()

  def training_step(self, batch):
    samples1, samples2, pair_labels = batch
    out = self(samples1, samples2)
    loss = contrastive_loss(out, pair_labels, 1.0)
    return loss

  def validation_step(self, batch):
    samples1, samples2, pair_labels = batch
    out = self(samples1, samples2)
    loss = contrastive_loss(out, pair_labels, 1.0)
    acc = accuracy(out, pair_labels)
    return {"val_loss": loss.detach(), "val_acc": acc}

  def validation_epoch_end(self, outputs):
    batch_losses = [x["val_loss"] for x in outputs]
    epoch_loss = torch.stack(batch_losses).mean()
    batch_accs = [x["val_acc"] for x in outputs]
    epoch_acc = torch.stack(batch_accs).mean()
    return {'val_loss': epoch_loss.item(), 'val_acc': epoch_acc.item()}

  def epoch_end(self, epoch=None, result=None):
    print("Epoch [{}], last_lr: {:.5f}, train_loss: {:.4f}, val_loss: {:.4f}, val_acc: {:.4f}".format(
      epoch, result['lrs'][-1], result['train_loss'], result['val_loss'], result['val_acc']))


# ---- source: src/network.py ----
class SiameseNet(MetricLearningBase):

  def __init__(self, norm_deg=1):
    super(SiameseNet, self).__init__()

    self.norm_deg = norm_deg

    self.cnn = nn.Sequential(
      self.conv1d_block(1, 16, 3, stride=1, padding=1),  #3000x16
      nn.MaxPool1d(2),  #1500x16
      self.conv1d_block(16, 32, 3, 1, 1),  #1500x32
      nn.MaxPool1d(2),  #750x32
      self.conv1d_block(32, 64, 3, 1, 1),  #750x64
      nn.MaxPool1d(2),  #375x64
      self.conv1d_block(64, 128, 3, 1, 1), #375x128
      nn.AvgPool1d(375), #1, 128
      nn.Sigmoid(),
    )

    self.sigmoid = nn.Sigmoid()

  def conv1d_block(self, in_channels, out_channels, kernel_size=3, stride=1, padding=1):
    return nn.Sequential(
      nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding),
      nn.LeakyReLU(0.2, inplace=True),
      nn.BatchNorm1d(out_channels),
    )

  def forward_once(self, x):
    output = self.cnn(x)
    output = output.view(output.size()[0], -1)

    return output

  def forward(self, input1, input2):
    embedding1 = self.forward_once(input1)
    embedding2 = self.forward_once(input2)
    distance = nn.PairwiseDistance(p=self.norm_deg)(embedding1, embedding2)
    final_output = self.sigmoid(distance)
    return final_output


def get_model(norm_deg, get_summary=False, summary_input=None, summary_batch_size=None, device=None):
  net = to_device(SiameseNet(norm_deg), device)

  return net


# ---- source: src/training.py (the loop) ----
@torch.no_grad()
def evaluate(model, val_loader):
  model.eval()
  outputs = [model.validation_step(batch) for batch in val_loader]
  return model.validation_epoch_end(outputs)


def get_lr(optimizer):
  for param_group in optimizer.param_groups:
    return param_group["lr"]


def fit(epochs, max_lr, model, train_loader, val_loader, weight_decay=0, grad_clip=None, opt_func=torch.optim.Adam):
  torch.cuda.empty_cache()
  history = []

  optimizer = opt_func(model.parameters(), max_lr, weight_decay=weight_decay)
  sched = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr, epochs=epochs, steps_per_epoch=len(train_loader))

  for epoch in tqdm(range(epochs)):
    model.train()
    train_losses = []
    lrs = []

    for batch in train_loader:
      loss = model.training_step(batch)
      train_losses.append(loss)

      optimizer.zero_grad()
      loss.backward()
      optimizer.step()

      lrs.append(get_lr(optimizer))
      sched.step()

    result = evaluate(model, val_loader)
    result["train_loss"] = torch.stack(train_losses).mean().item()
    result["lrs"] = lrs
    model.epoch_end(epoch, result)
    history.append(result)

  return history


# ---- driver (stand-in for src/dataset.py and src/main.py) ----
def _pairs(n, g):
    a = torch.randn(n, 1, 3000, generator=g)
    same = torch.rand(n, generator=g) < 0.5
    other = torch.randn(n, 1, 3000, generator=g)
    b = torch.where(same[:, None, None], a + 0.1 * torch.randn(n, 1, 3000, generator=g), other)
    return TensorDataset(a, b, same.float())


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    device = get_default_device()
    train_dl = DeviceDataLoader(DataLoader(_pairs(48, g), batch_size=8, shuffle=True), device)
    val_dl = DeviceDataLoader(DataLoader(_pairs(16, g), batch_size=8), device)
    model = get_model(1, device=device)
    history = fit(2, 0.01, model, train_dl, val_dl)
    print(f"checksum {sum(float(p.detach().double().sum()) for p in model.parameters()):.6f} {history[-1]['val_acc']:.4f}")
