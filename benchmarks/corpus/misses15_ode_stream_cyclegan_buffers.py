# corpus: runnable
"""Two training scripts in the style of older research code: an ODE-Net-like classifier that gets
its loaders from `get_loaders()` as a tuple and draws one batch per iteration from an infinite
generator (`data_gen.__next__()` inside `for itr in range(...)`), and a CycleGAN-like translator
that copies every batch into input buffers preallocated with a CUDA tensor type."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
cuda = torch.cuda.is_available()
device = torch.device("cuda:0" if cuda else "cpu")


def get_loaders(batch_size=16, test_batch_size=64):
    x = torch.randn(192, 10)
    y = (x[:, 0] > 0).long()
    train_loader = DataLoader(TensorDataset(x[:128], y[:128]), batch_size=batch_size, shuffle=True, drop_last=True)  # paef: ok pageable-transfer
    test_loader = DataLoader(TensorDataset(x[128:], y[128:]), batch_size=test_batch_size)  # paef: ok pageable-transfer
    return train_loader, test_loader


def inf_generator(iterable):
    """Allows training with DataLoaders in a single infinite loop."""
    iterator = iterable.__iter__()
    while True:
        try:
            yield iterator.__next__()
        except StopIteration:
            iterator = iterable.__iter__()


def accuracy(model, dataset_loader):
    total_correct = 0
    for x, y in dataset_loader:
        x = x.to(device)
        predicted = model(x).argmax(1).cpu()  # paef: ok host-sync
        total_correct += int((predicted == y).sum())
    return total_correct / len(dataset_loader.dataset)


def odenet(nepochs=3):
    model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 2)).to(device)
    criterion = nn.CrossEntropyLoss().to(device)
    train_loader, test_loader = get_loaders()
    data_gen = inf_generator(train_loader)
    batches_per_epoch = len(train_loader)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for itr in range(nepochs * batches_per_epoch):
        optimizer.zero_grad()
        x, y = data_gen.__next__()
        x = x.to(device)
        y = y.to(device)
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        if itr % batches_per_epoch == 0:
            with torch.no_grad():
                print(f"iter {itr} test acc {accuracy(model, test_loader):.3f}")


class UnalignedPairs(Dataset):
    def __init__(self, n):
        self.a = torch.randn(n, 3, 8, 8)
        self.b = torch.randn(n, 3, 8, 8) * 0.5 + 0.2

    def __len__(self):
        return len(self.a)

    def __getitem__(self, i):
        return {"A": self.a[i], "B": self.b[(i * 7) % len(self.b)]}


def cyclegan(n_epochs=2, batch_size=4):
    netG_A2B = nn.Conv2d(3, 3, 3, padding=1)
    netG_B2A = nn.Conv2d(3, 3, 3, padding=1)
    if cuda:
        netG_A2B.cuda()
        netG_B2A.cuda()
    optimizer_G = torch.optim.Adam(list(netG_A2B.parameters()) + list(netG_B2A.parameters()), lr=2e-3)
    Tensor = torch.cuda.FloatTensor if cuda else torch.Tensor
    input_A = Tensor(batch_size, 3, 8, 8)
    input_B = Tensor(batch_size, 3, 8, 8)
    dataloader = DataLoader(UnalignedPairs(24), batch_size=batch_size, shuffle=True, drop_last=True)  # paef: ok pageable-transfer
    for epoch in range(n_epochs):
        for i, batch in enumerate(dataloader):
            real_A = input_A.copy_(batch["A"])
            real_B = input_B.copy_(batch["B"])
            optimizer_G.zero_grad()
            fake_B = netG_A2B(real_A)
            recovered_A = netG_B2A(fake_B)
            loss_G = F.l1_loss(recovered_A, real_A) + F.mse_loss(fake_B.mean(), real_B.mean())
            loss_G.backward()
            optimizer_G.step()
        print(f"epoch {epoch} loss_G {loss_G.item():.4f}")


odenet()
cyclegan()
