# corpus: runnable
"""Prototypical networks on synthetic few-shot classes: N-way K-shot episodes drawn with
NumPy from a class-indexed pool, prototypes as class means of the support embeddings,
squared Euclidean distances to the queries, episodic evaluation with the mean accuracy and
a 95% interval."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_pool(n_classes, per_class, dim, rng):
    centers = rng.randn(n_classes, dim) * 2.0
    x = centers[:, None, :] + rng.randn(n_classes, per_class, dim)
    return torch.from_numpy(x.astype(np.float32))


class Encoder(nn.Module):
    def __init__(self, dim, hid=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hid), nn.BatchNorm1d(hid), nn.ReLU(), nn.Linear(hid, hid))

    def forward(self, x):
        return self.net(x)


def sample_episode(pool, n_way, n_shot, n_query, rng):
    classes = rng.choice(pool.shape[0], n_way, replace=False)
    support, query = [], []
    for c in classes:
        idx = rng.permutation(pool.shape[1])[: n_shot + n_query]
        support.append(pool[c, idx[:n_shot]])
        query.append(pool[c, idx[n_shot:]])
    return torch.cat(support), torch.cat(query)


def euclidean_dist(x, y):
    n, m, d = x.size(0), y.size(0), x.size(1)
    x = x.unsqueeze(1).expand(n, m, d)
    y = y.unsqueeze(0).expand(n, m, d)
    return torch.pow(x - y, 2).sum(2)


def proto_loss(model, support, query, n_way, n_shot, n_query, device):
    z = model(torch.cat([support, query]).to(device))
    z_support = z[: n_way * n_shot]
    protos = torch.stack([z_support[c * n_shot:(c + 1) * n_shot].mean(0) for c in range(n_way)])  # paef: ok elementwise-loop; ok list-to-tensor
    dists = euclidean_dist(z[n_way * n_shot:], protos)
    target = torch.arange(n_way).repeat_interleave(n_query).to(device)  # paef: expect redundant-tensor; ok cpu-then-move
    log_p = F.log_softmax(-dists, dim=1)
    loss = F.nll_loss(log_p, target)
    acc = (log_p.argmax(1) == target).float().mean()
    return loss, acc


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--way", type=int, default=5)
    parser.add_argument("--shot", type=int, default=3)
    parser.add_argument("--query", type=int, default=5)
    parser.add_argument("--episodes", type=int, default=120)
    args = parser.parse_args()
    rng = np.random.RandomState(0)
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_pool = make_pool(30, 20, 16, rng)
    test_pool = make_pool(10, 20, 16, rng)
    model = Encoder(16).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=40, gamma=0.5)
    for episode in range(args.episodes):
        model.train()
        support, query = sample_episode(train_pool, args.way, args.shot, args.query, rng)
        loss, acc = proto_loss(model, support, query, args.way, args.shot, args.query, device)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        if (episode + 1) % 40 == 0:
            print(f"episode {episode + 1} loss {loss.item():.4f} acc {acc.item():.3f}")

    model.eval()
    accs = []
    for _ in range(30):  # paef: expect eval-without-no-grad
        support, query = sample_episode(test_pool, args.way, args.shot, args.query, rng)
        _, acc = proto_loss(model, support, query, args.way, args.shot, args.query, device)
        accs.append(acc.item())  # paef: ok host-sync
    accs = np.array(accs)
    print(f"test acc {accs.mean():.4f} +- {1.96 * accs.std() / np.sqrt(len(accs)):.4f}")


if __name__ == "__main__":
    main()
