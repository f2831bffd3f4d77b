# Public check 39, p08: question-to-SQL seq2seq with Luong attention and scheduled sampling (seq2seq/{data_utils,model,train}.py).
# Source: https://github.com/gabinho991/CS598 seq2seq/train.py @ 818d6b33, seq2seq/model.py @ 818d6b33,
#         seq2seq/data_utils.py @ 5d9ae1f9
# Changes to make it run on the CPU in seconds:
# - the three files are joined in one module (`from model import ...`, `from data_utils import ...`
#   dropped); the source's lines are unchanged (trailing blanks dropped).
# - a driver writes 40 train and 12 dev seeded synthetic (question, SQL) token pairs as jsonl files
#   in a temp folder (the MIMIC files are not fetched) and calls `main()`;
#   `p.parse_args()` -> `p.parse_args(argv)` with `--epochs 2 --bs 8`; `Seq2Seq(vocab)` keeps the
#   source's sizes (emb 256, hid 512); `main()` -> `main(argv=None)`, returning `best_acc` for the
#   checksum print at the end.
import json, torch, re
from torch.nn.utils.rnn import pad_sequence

SPECIAL = ["<pad>", "<sos>", "<eos>", "<unk>"]

def load_pairs_jsonl(path):
    pairs = []
    with open(path, 'r') as f:
        for line in f:
            data = json.loads(line)
            question = data.get("question_refine_tok", [])
            raw_sql = data.get("sql_tok", [])

            # Clean SQL tokens
            cleaned_sql = [t.replace('"', '') for t in raw_sql]

            pairs.append((question, cleaned_sql))
    return pairs

def build_vocab(pairs, min_freq=1):
    freq={}
    for q, s in pairs:
        for tk in q+s: freq[tk]=freq.get(tk,0)+1
    itos = SPECIAL + [w for w,c in freq.items() if c>=min_freq]
    return {w:i for i,w in enumerate(itos)}

def tokens2ids(tokens, vocab):
    return [vocab.get(t,"<unk>") for t in tokens]

def batchify(batch, vocab):
    qs, sqls = zip(*batch)
    q_ids = [torch.tensor(tokens2ids(q,vocab)+[vocab["<eos>"]]) for q in qs]
    s_ids = [torch.tensor(tokens2ids(s,vocab)+[vocab["<eos>"]]) for s in sqls]
    q_pad = pad_sequence(q_ids, batch_first=True, padding_value=vocab["<pad>"])
    s_pad = pad_sequence(s_ids, batch_first=True, padding_value=vocab["<pad>"])
    q_lens = torch.tensor([len(x) for x in q_ids])
    return q_pad, q_lens, s_pad


# seq2seq/model.py
import torch, torch.nn as nn
from torch.nn.utils.rnn import pad_sequence

class Encoder(nn.Module):
    def __init__(self, vocab, emb=256, hid=512):
        super().__init__()
        self.emb = nn.Embedding(len(vocab), emb, padding_idx=vocab["<pad>"])
        self.rnn = nn.LSTM(emb, hid // 2, batch_first=True,
                           bidirectional=True)

    def forward(self, src, src_lens):
        # src: [B, T]
        emb = self.emb(src)
        packed = nn.utils.rnn.pack_padded_sequence(
            emb, src_lens, batch_first=True, enforce_sorted=False)
        h, (hn, cn) = self.rnn(packed)
        enc_out, _ = nn.utils.rnn.pad_packed_sequence(h, batch_first=True)
        return enc_out, (hn, cn)

class LuongAttention(nn.Module):
    def __init__(self, hid):
        super().__init__()
        self.W = nn.Linear(hid, hid, bias=False)

    def forward(self, dec_h, enc_out, mask):
        # dec_h: [B, 1, H]   enc_out: [B, S, H]
        scores = torch.bmm(self.W(dec_h), enc_out.transpose(1, 2))  # [B,1,S]
        scores.masked_fill_(mask[:,None,:]==0, -1e9)
        attn = torch.softmax(scores, dim=-1)         # [B,1,S]
        ctx  = torch.bmm(attn, enc_out)              # [B,1,H]
        return ctx, attn.squeeze(1)

class Decoder(nn.Module):
    def __init__(self, vocab, hid=512, emb=256, attn=True):
        super().__init__()
        self.emb = nn.Embedding(len(vocab), emb, padding_idx=vocab["<pad>"])
        self.rnn = nn.LSTM(emb+hid, hid, batch_first=True)
        self.attn = LuongAttention(hid) if attn else None
        self.fc   = nn.Linear(hid*2 if attn else hid, len(vocab))

    def forward(self, tgt, enc_out, enc_mask, hidden):
    # tgt: [B, 1]
        emb = self.emb(tgt)  # [B,1,E]

        # compute context vector from attention
        context, _ = self.attn(hidden[0].transpose(0, 1), enc_out, enc_mask)  # [B,1,H]

        # concatenate embedding and context, pass to RNN
        rnn_input = torch.cat([emb, context], dim=-1)  # [B,1,E+H]
        dec_h, hidden = self.rnn(rnn_input, hidden)    # [B,1,H]

        # output projection
        out = torch.cat([dec_h, context], dim=-1)      # [B,1,2H]
        logits = self.fc(out.squeeze(1))               # [B,V]
        return logits, hidden

class Seq2Seq(nn.Module):
    def __init__(self, vocab, emb=256, hid=512, sos="<sos>", eos="<eos>"):
        super().__init__()
        self.vocab, self.sos, self.eos = vocab, vocab[sos], vocab[eos]
        self.enc = Encoder(vocab, emb, hid)
        self.dec = Decoder(vocab, hid, emb, attn=True)

    def forward(self, src, src_lens, tgt=None, tf_ratio=0.9, max_len=150):
        enc_out, (hn,cn) = self.enc(src, src_lens)
        mask = (src!=self.vocab["<pad>"]).int()
        batch = src.size(0)
        hidden = (torch.cat([hn[-2],hn[-1]],dim=-1).unsqueeze(0),
                  torch.cat([cn[-2],cn[-1]],dim=-1).unsqueeze(0))
        dec_inp = torch.full((batch,1), self.sos, dtype=torch.long, device=src.device)
        outputs=[]
        steps = tgt.size(1) if tgt is not None else max_len
        for t in range(steps):
            logits, hidden = self.dec(dec_inp, enc_out, mask, hidden)
            outputs.append(logits)
            _, topi = logits.max(1, keepdim=True)
            dec_inp = tgt[:,t:t+1] if (tgt is not None and torch.rand(1).item()<tf_ratio) else topi
        return torch.stack(outputs, dim=1)  # [B,T,V]


import argparse, torch, torch.nn as nn, torch.optim as optim
from torch.utils.data import DataLoader
import os
import pickle
# --------------------------------------------------------
# one pass over data
# --------------------------------------------------------
def run_epoch(model, data_loader, vocab, optimiser=None, epoch=1):
    ce          = nn.CrossEntropyLoss(ignore_index=vocab["<pad>"], reduction="none")
    tf_ratio    = max(0.1, 0.9 * (0.95 ** (epoch - 1)))       # scheduled‑sampling
    tok_correct = tok_total = 0
    total_loss  = 0

    for q_pad, q_len, s_pad in data_loader:
        logits = model(q_pad, q_len, s_pad[:, :-1], tf_ratio=tf_ratio)     # [B,T,V]

        tgt     = s_pad[:, 1:]                           # gold without <sos>
        eosmask = (tgt != vocab["<eos>"]).float()        # mask out tokens after first <eos>
        loss    = ce(logits.reshape(-1, logits.size(-1)), tgt.reshape(-1))
        loss    = (loss * eosmask.reshape(-1)).sum() / eosmask.sum()

        if optimiser is not None:                        # training mode
            optimiser.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()

        # ----- token‑level accuracy --------------------------------------
        preds      = logits.argmax(-1)
        valmask    = (tgt != vocab["<pad>"])
        tok_correct+= ((preds == tgt) & valmask).sum().item()
        tok_total  += valmask.sum().item()
        total_loss += loss.item()

    return tok_correct / max(1, tok_total), total_loss / len(data_loader)


# --------------------------------------------------------
# main training script
# --------------------------------------------------------
def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument('--train', required=True)
    p.add_argument('--dev',   required=True)
    p.add_argument('--epochs', type=int, default=20)
    p.add_argument('--bs',     type=int, default=32)
    args = p.parse_args(argv)
    best_acc = 0.0
    patience = 3          # how many epochs to wait after no improvement
    tolerance = 1e-3      # minimum change to consider an improvement
    patience_counter = 0
    train_pairs = load_pairs_jsonl(args.train)
    dev_pairs   = load_pairs_jsonl(args.dev)
    vocab       = build_vocab(train_pairs + dev_pairs)
    save_dir = os.path.dirname(args.train)
    model_path = os.path.join(save_dir, "best_model.pt")
    model      = Seq2Seq(vocab)
    optimiser  = optim.Adam(model.parameters(), lr=1e-3)
    scheduler  = optim.lr_scheduler.StepLR(optimiser, step_size=2, gamma=0.8)

    train_loader = DataLoader(train_pairs, batch_size=args.bs, shuffle=True,
                              collate_fn=lambda b: batchify(b, vocab))
    dev_loader   = DataLoader(dev_pairs,   batch_size=args.bs, shuffle=False,
                              collate_fn=lambda b: batchify(b, vocab))

    for ep in range(1, args.epochs + 1):
        model.train()
        run_epoch(model, train_loader, vocab, optimiser, epoch=ep)
        scheduler.step()

        model.eval()
        dev_acc, dev_loss = run_epoch(model, dev_loader, vocab, optimiser=None, epoch=ep)
        print(f"Epoch {ep:2d}: Dev TokAcc={dev_acc:.3f}  |  Loss={dev_loss:.3f}")

        if dev_acc > best_acc + tolerance:
            best_acc = dev_acc
            patience_counter = 0
            # Optionally: save model
            vocab_path = os.path.join(save_dir, "best_vocab.pkl")
            torch.save(model.state_dict(), model_path)
            with open(vocab_path, "wb") as f:
                pickle.dump(vocab, f)
        else:
            patience_counter += 1
            if patience_counter >= patience:
                print(f"Stopping early at epoch {ep} (no improvement in {patience} rounds)")
                break
    return best_acc


# ---- driver: synthetic question/SQL pairs in a temp folder ----
if __name__ == "__main__":
    import random
    import tempfile

    random.seed(0)
    torch.manual_seed(0)
    words = ["how", "many", "patients", "with", "age", "above", "died", "in", "icu", "list"]
    sql = ["SELECT", "COUNT", "(", "*", ")", "FROM", "patients", "WHERE", "age", ">", "expire", "=", "1"]
    tmp = tempfile.mkdtemp()
    for name, n in (("train.jsonl", 40), ("dev.jsonl", 12)):
        with open(os.path.join(tmp, name), "w") as f:
            for _ in range(n):
                q = random.sample(words, random.randint(3, 7))
                s = sql[: random.randint(5, len(sql))]
                f.write(json.dumps({"question_refine_tok": q, "sql_tok": s}) + "\n")
    best = main(["--train", os.path.join(tmp, "train.jsonl"), "--dev", os.path.join(tmp, "dev.jsonl"),
                 "--epochs", "2", "--bs", "8"])
    print("checksum", round(best, 6))
