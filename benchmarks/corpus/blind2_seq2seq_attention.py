# corpus: runnable
"""Seq2seq with additive attention (tutorial style): per-step decoder loop, teacher forcing, greedy decoding."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SOS, EOS, VOCAB, MAX_LEN = 0, 1, 12, 7


def make_pairs(n):
    pairs = []
    for _ in range(n):
        src = [random.randint(2, VOCAB - 1) for _ in range(random.randint(2, 5))]
        pairs.append((src + [EOS], list(reversed(src)) + [EOS]))
    return pairs


class Encoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.hidden = hidden
        self.emb = nn.Embedding(VOCAB, hidden)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)

    def forward(self, src):
        return self.gru(self.emb(src))


class AttnDecoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, hidden)
        self.Wa = nn.Linear(hidden, hidden)
        self.Ua = nn.Linear(hidden, hidden)
        self.Va = nn.Linear(hidden, 1)
        self.gru = nn.GRU(2 * hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, VOCAB)

    def forward(self, token, hidden, enc_out):
        emb = self.emb(token)
        scores = self.Va(torch.tanh(self.Wa(hidden.transpose(0, 1)) + self.Ua(enc_out)))
        weights = F.softmax(scores.squeeze(2), dim=-1).unsqueeze(1)
        context = torch.bmm(weights, enc_out)
        out, hidden = self.gru(torch.cat([emb, context], dim=2), hidden)
        return F.log_softmax(self.out(out.squeeze(1)), dim=-1), hidden


def tensor_from(seq):
    return torch.tensor(seq, dtype=torch.long, device=device).view(1, -1)


encoder, decoder = Encoder(24).to(device), AttnDecoder(24).to(device)
enc_opt = torch.optim.Adam(encoder.parameters(), lr=5e-3)
dec_opt = torch.optim.Adam(decoder.parameters(), lr=5e-3)
criterion = nn.NLLLoss()
pairs = make_pairs(150)


def train_pair(src, tgt, teacher_forcing=0.5):
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    enc_out, hidden = encoder(src)
    token = torch.tensor([[SOS]], device=device)  # paef: ok redundant-tensor
    loss = 0
    for t in range(tgt.size(1)):
        logp, hidden = decoder(token, hidden, enc_out)
        loss += criterion(logp, tgt[:, t])
        if random.random() < teacher_forcing:
            token = tgt[:, t].view(1, 1)
        else:
            token = logp.argmax(-1).view(1, 1).detach()
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    return loss.item() / tgt.size(1)  # paef: expect host-sync


for epoch in range(2):
    print_loss_total = 0.0
    for i, (s, t) in enumerate(pairs):
        print_loss_total += train_pair(tensor_from(s), tensor_from(t))  # paef: ok redundant-tensor
        if (i + 1) % 50 == 0:
            print(f"epoch {epoch} iter {i + 1} loss {print_loss_total / 50:.4f}")
            print_loss_total = 0.0


def greedy_decode(src):
    with torch.no_grad():
        enc_out, hidden = encoder(tensor_from(src))
        token = torch.tensor([[SOS]], device=device)
        decoded = []
        for _ in range(MAX_LEN):
            logp, hidden = decoder(token, hidden, enc_out)
            topv, topi = logp.topk(1)
            if topi.item() == EOS:  # paef: ok host-sync
                break
            decoded.append(topi.item())  # paef: ok host-sync
            token = torch.tensor([[topi.item()]], device=device)  # paef: expect ping-pong; ok host-sync
        return decoded


for s, t in pairs[:4]:
    print(s[:-1], "->", greedy_decode(s))
