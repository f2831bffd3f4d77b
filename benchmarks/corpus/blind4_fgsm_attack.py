# corpus: runnable
"""Adversarial robustness after the FGSM tutorial: a small CNN trained on synthetic digits,
then attacked one test image at a time for several epsilons; the attack needs the gradient
of the loss with respect to the input, so the "test" loop must record the graph."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
epsilons = [0, 0.05, 0.1, 0.2]

proto = torch.rand(4, 1, 12, 12)
labels = torch.randint(0, 4, (600,))
images = (proto[labels] + 0.3 * torch.randn(600, 1, 12, 12)).clamp(0, 1)
train_loader = DataLoader(TensorDataset(images[:500], labels[:500]), batch_size=50, shuffle=True)  # paef: ok pageable-transfer
test_loader = DataLoader(TensorDataset(images[500:], labels[500:]), batch_size=1, shuffle=False)  # paef: ok pageable-transfer


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3)
        self.fc1 = nn.Linear(8 * 5 * 5, 32)
        self.fc2 = nn.Linear(32, 4)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.relu(self.fc1(torch.flatten(x, 1)))
        return F.log_softmax(self.fc2(x), dim=1)


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon * sign_data_grad
    return torch.clamp(perturbed_image, 0, 1)


def test(model, device, test_loader, epsilon):
    correct = 0
    adv_examples = []
    for data, target in test_loader:  # paef: refuse eval-without-no-grad
        data, target = data.to(device), target.to(device)
        data.requires_grad = True
        output = model(data)
        init_pred = output.max(1, keepdim=True)[1]
        if init_pred.item() != target.item():  # paef: ok host-sync
            continue
        loss = F.nll_loss(output, target)
        model.zero_grad()
        loss.backward()
        data_grad = data.grad.data
        perturbed_data = fgsm_attack(data, epsilon, data_grad)
        output = model(perturbed_data)
        final_pred = output.max(1, keepdim=True)[1]
        if final_pred.item() == target.item():  # paef: ok host-sync
            correct += 1
        elif len(adv_examples) < 3:
            adv_ex = perturbed_data.squeeze().detach().cpu().numpy()
            adv_examples.append((init_pred.item(), final_pred.item(), adv_ex))
    final_acc = correct / float(len(test_loader))
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {len(test_loader)} = {final_acc:.4f}")
    return final_acc, adv_examples


model = Net().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    model.train()
    for data, target in train_loader:
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
model.eval()
accuracies = []
for eps in epsilons:
    acc, ex = test(model, device, test_loader, eps)
    accuracies.append(acc)
print("mean shape of examples", np.mean([e[2].mean() for e in ex]).round(4))
