"""The training engine: a class that receives the loaders and loops over them in its methods."""
import torch


class Engine:
    def __init__(self, model, optimizer, criterion, train_loader, test_loader, device):
        self.model = model
        self.optimizer = optimizer
        self.criterion = criterion
        self.train_loader = train_loader
        self.test_loader = test_loader
        self.device = device

    def train_epoch(self):
        self.model.train()
        running = 0.0
        for batch_idx, (data, target) in enumerate(self.train_loader):
            data, target = data.to(self.device), target.to(self.device)
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(data), target)
            loss.backward()
            self.optimizer.step()
            running += loss.item() * data.size(0)  # paef: expect host-sync
        return running / len(self.train_loader.dataset)

    @torch.no_grad()
    def test(self):
        self.model.eval()
        correct = 0
        for data, target in self.test_loader:
            data, target = data.to(self.device), target.to(self.device)
            correct += self.model(data).argmax(1).eq(target).sum().item()  # paef: ok host-sync
        return correct / len(self.test_loader.dataset)
