# corpus: runnable
# torchvision-tutorial phase loops: `for phase in ["train", "val"]`, `model.train(phase == "train")`,
# `with torch.set_grad_enabled(phase == "train")`, backward only in the train phase, running
# `.item()` totals per phase, a `model.train(mode)` toggled by a variable, and an evaluation helper
# taking `training=False`.
import torch
from torch import nn

torch.set_num_threads(1)
torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Sequential(nn.Linear(6, 12), nn.BatchNorm1d(12), nn.ReLU(), nn.Dropout(0.3), nn.Linear(12, 3)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
crit = nn.CrossEntropyLoss()
loaders = {
    "train": [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(5)],
    "val": [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(3)],
}

for epoch in range(2):
    for phase in ["train", "val"]:
        model.train(phase == "train")
        running_loss = 0.0
        running_corrects = 0
        for inputs, labels in loaders[phase]:
            inputs, labels = inputs.to(device), labels.to(device)
            opt.zero_grad()
            with torch.set_grad_enabled(phase == "train"):
                outputs = model(inputs)
                _, preds = torch.max(outputs, 1)
                loss = crit(outputs, labels)
                if phase == "train":
                    loss.backward()
                    opt.step()
            running_loss += loss.item() * inputs.size(0)
            running_corrects += torch.sum(preds == labels.data)
        n = sum(len(b[1]) for b in loaders[phase])
        print(epoch, phase, round(running_loss / n, 6), (running_corrects.double() / n).item())

for mode in (True, False):
    model.train(mode)
    total = 0.0
    for inputs, labels in loaders["val"]:
        out = model(inputs.to(device))
        loss = crit(out, labels.to(device))
        if mode:
            opt.zero_grad()
            loss.backward()
            opt.step()
        total += loss.item()
    print("mode", mode, repr(total), out.requires_grad)


def run_epoch(batches, training=False):
    model.train(training)
    seen = 0
    acc = 0.0
    for inputs, labels in batches:
        out = model(inputs.to(device))
        if training:
            loss = crit(out, labels.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc += (out.argmax(1) == labels.to(device)).float().sum().item()
        seen += len(labels)
    return acc / seen


print("helper", run_epoch(loaders["val"]), run_epoch(loaders["train"], training=True), run_epoch(loaders["val"], False))
