# corpus: runnable
"""GRU encoder-decoder learning to reverse digit strings, after the classic tutorial:
teacher forcing with a loss summed over target positions and back-propagated, the running
loss printed every few iterations, and a beam-search decoder for evaluation that keeps its
hypotheses as Python lists of tokens with their scores."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SOS, EOS, V, HID = 0, 1, 12, 48


def random_pair():
    seq = [random.randint(2, V - 1) for _ in range(random.randint(3, 6))]
    return seq, seq[::-1]


def tensor_from_seq(seq):
    return torch.tensor(seq + [EOS], dtype=torch.long, device=device).view(-1, 1)


class EncoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(V, HID)
        self.gru = nn.GRU(HID, HID)

    def forward(self, inp):
        return self.gru(self.embedding(inp).view(len(inp), 1, -1))


class DecoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(V, HID)
        self.gru = nn.GRU(HID, HID)
        self.out = nn.Linear(HID, V)

    def forward(self, inp, hidden):
        output = F.relu(self.embedding(inp).view(1, 1, -1))
        output, hidden = self.gru(output, hidden)
        return F.log_softmax(self.out(output[0]), dim=1), hidden


def train_step(inp, target, encoder, decoder, enc_opt, dec_opt, criterion):
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    _, hidden = encoder(inp)
    decoder_input = torch.tensor([[SOS]], device=device)  # paef: ok redundant-tensor
    loss = 0
    for di in range(target.size(0)):
        decoder_output, hidden = decoder(decoder_input, hidden)
        loss += criterion(decoder_output, target[di])
        decoder_input = target[di]
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    return loss.item() / target.size(0)  # paef: expect host-sync


def beam_search(encoder, decoder, seq, beam=3, max_len=8):
    with torch.no_grad():
        _, hidden = encoder(tensor_from_seq(seq))
        beams = [([SOS], 0.0, hidden)]
        for _ in range(max_len):
            candidates = []
            for tokens, score, h in beams:
                if tokens[-1] == EOS:
                    candidates.append((tokens, score, h))
                    continue
                logp, h2 = decoder(torch.tensor([[tokens[-1]]], device=device), h)  # paef: ok ping-pong
                topv, topi = logp.topk(beam)
                for k in range(beam):
                    candidates.append((tokens + [topi[0, k].item()], score + topv[0, k].item(), h2))  # paef: ok host-sync
            beams = sorted(candidates, key=lambda c: c[1], reverse=True)[:beam]
            if all(b[0][-1] == EOS for b in beams):
                break
        return beams[0][0][1:-1] if beams[0][0][-1] == EOS else beams[0][0][1:]


encoder, decoder = EncoderRNN().to(device), DecoderRNN().to(device)
enc_opt = torch.optim.SGD(encoder.parameters(), lr=0.05)
dec_opt = torch.optim.SGD(decoder.parameters(), lr=0.05)
criterion = nn.NLLLoss()
print_loss_total = 0
for it in range(1, 301):
    src, tgt = random_pair()
    print_loss_total += train_step(tensor_from_seq(src), tensor_from_seq(tgt), encoder, decoder, enc_opt, dec_opt, criterion)
    if it % 100 == 0:
        print(f"iter {it} loss {print_loss_total / 100:.4f}")
        print_loss_total = 0

exact = 0
for _ in range(10):
    src, tgt = random_pair()
    exact += beam_search(encoder, decoder, src) == tgt
print(f"exact match {exact}/10")
