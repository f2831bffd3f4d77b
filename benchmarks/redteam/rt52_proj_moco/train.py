"""One epoch of contrastive training, and a kNN monitor over the key encoder's features."""
import torch
import torch.nn.functional as F


def augment(x, gen):
    return x + 0.1 * torch.randn(x.shape, generator=gen).to(x.device)


def train_epoch(model, data, opt, gen, batch=16):
    model.train()
    ptrs, queue_norms, losses = [], [], []
    total = 0.0
    for i in range(0, data.shape[0], batch):
        x = data[i:i + batch]
        logits = model(augment(x, gen), augment(x, gen))
        labels = torch.zeros(logits.shape[0], dtype=torch.long).to(x.device)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        ptrs.append(model.ptr.item())
        queue_norms.append(model.queue[0].sum().item())
        losses.append(loss.item())
    return total, torch.tensor(ptrs), torch.tensor(queue_norms), torch.tensor(losses)


def knn_accuracy(model, bank_x, bank_y, test_x, test_y, k=3):
    enc = model.k_enc
    enc.eval()
    bank = enc(bank_x)
    correct = 0
    for i in range(0, test_x.shape[0], 8):
        z = enc(test_x[i:i + 8])
        idx = (z @ bank.t()).topk(k, dim=1).indices
        votes = bank_y[idx].mode(dim=1).values
        correct += (votes == test_y[i:i + 8]).sum().item()
    enc.train()
    return correct / test_x.shape[0]
