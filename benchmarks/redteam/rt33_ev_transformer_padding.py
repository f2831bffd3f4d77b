# corpus: runnable
# Red team 33 (blind): a small transformer classifier over padded token sequences. After training,
# the evaluation pass reports accuracy and the mean size of the encoder's features at padded
# positions (a sanity check that padding is ignored downstream), all through `.item()`.
import argparse

import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


class Classifier(nn.Module):
    def __init__(self, vocab=20, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        layer = nn.TransformerEncoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(d, 2)

    def forward(self, tokens, pad):
        h = self.enc(self.emb(tokens), src_key_padding_mask=pad)
        keep = (~pad).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        return self.head(pooled), h


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    n, length = 96, 10
    tokens = torch.randint(1, 20, (n, length))
    lengths = torch.randint(4, length + 1, (n,))
    pad = torch.arange(length)[None, :] >= lengths[:, None]
    tokens[pad] = 0
    labels = (tokens[:, 0] > 10).long()
    model = Classifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(args.epochs):
        model.train()
        for i in range(0, n, 16):
            logits, _ = model(tokens[i:i + 16].to(device), pad[i:i + 16].to(device))
            loss = F.cross_entropy(logits, labels[i:i + 16].to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    correct, pad_norm = 0, 0.0
    for i in range(0, n, 16):
        pb = pad[i:i + 16].to(device)
        logits, h = model(tokens[i:i + 16].to(device), pb)
        correct += (logits.argmax(1) == labels[i:i + 16].to(device)).sum().item()
        pad_norm += h[pb].norm(dim=-1).mean().item()
    print(f"accuracy {correct / n:.4f}")
    print(f"mean feature norm at padded positions {pad_norm / (n // 16):.4f}")


if __name__ == "__main__":
    main()
