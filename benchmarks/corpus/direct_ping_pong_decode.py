# corpus: runnable
"""Seq2seq-ish greedy decoding whose tokens travel to the host and back every step."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
vocab, hid = 20, 32

emb = nn.Embedding(vocab, hid).to(device)
cell = nn.GRUCell(hid, hid).to(device)
out = nn.Linear(hid, vocab).to(device)

with torch.no_grad():
    h = torch.zeros(4, hid, device=device)
    tokens = torch.zeros(4, dtype=torch.long, device=device)
    generated = []
    for t in range(12):
        h = cell(emb(tokens), h)
        logits = out(h)
        next_ids = logits.argmax(-1).cpu().numpy()  # paef: ok ping-pong; ok host-sync
        tokens = torch.from_numpy(next_ids).to(device)  # paef: expect ping-pong
        scores = torch.tensor(logits.softmax(-1).cpu().tolist(), device=device)  # paef: expect-fix ping-pong
        generated.append(tokens)
    seq = torch.stack(generated, 1)
print("tokens", seq[0].tolist())
print(f"last max prob {scores.max().item():.4f}")
