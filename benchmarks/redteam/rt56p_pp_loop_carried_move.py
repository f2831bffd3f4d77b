# corpus: runnable
# Red team 56 probe (NOT blind): a sampled token moved to the device at the END of a decoding step, read on the
# host right after (`.item()` for the output list), and read on the device at the TOP of the next step (an
# embedding lookup, a torch.cat onto the generated sequence, a gather). Dropping the move looks like removing a
# host->device->host round trip, but the next iteration needs the token where the model is.
import torch
import torch.nn as nn

torch.manual_seed(5627)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
g = torch.Generator().manual_seed(5627)
V, BOS, EOS = 9, 0, 1
emb = nn.Embedding(V, 8).to(device)
rnn = nn.GRUCell(8, 16).to(device)
head = nn.Linear(16, V).to(device)

with torch.no_grad():
    # a: the next step embeds the token
    tok = torch.tensor([BOS], device=device)
    h = torch.zeros(1, 16, device=device)
    out_a = []
    for step in range(8):
        h = rnn(emb(tok), h)
        probs = head(h)[0].softmax(-1)
        tok = torch.multinomial(probs.cpu(), 1, generator=g).to(device)
        out_a.append(tok.item())

    # b: the next step concatenates the token onto the sequence kept on the device
    seq = torch.tensor([BOS], device=device)
    nxt = torch.tensor([BOS], device=device)
    out_b = []
    for step in range(6):
        seq = torch.cat([seq, nxt])
        probs = head(rnn(emb(seq[-1:]), torch.zeros(1, 16, device=device)))[0].softmax(-1)
        nxt = torch.multinomial(probs.cpu(), 1, generator=g).to(device)
        out_b.append(nxt.item())

    # c: the next step gathers a score with the token as index
    table = torch.randn(V, V, device=device).softmax(-1)
    prev = torch.tensor([BOS], device=device)
    score = torch.zeros(1, device=device)
    out_c = []
    for step in range(6):
        score = score + table[0].gather(0, prev).log()
        prev = torch.multinomial(table[prev[0].item()].cpu(), 1, generator=g).to(device)
        out_c.append(prev.item())
print(out_a, seq.tolist(), out_c, round(score.item(), 4))
print('checksum', round(sum(out_a) * 3 + int(seq.sum()) * 5 + sum(out_c) + score.item(), 4))
