# corpus: runnable
"""SASRec-style sequential recommendation, after the widely copied PyTorch port: a NumPy
sampler producing (user, seq, pos, neg) batches, positions built with np.tile in every
forward and moved to the device, a causal attention mask built per forward, BCE on
positive/negative logits, and an evaluation that scores 1 positive against 20 sampled
negatives per user."""
import argparse
import random

import numpy as np
import torch
import torch.nn as nn


def random_neq(l, r, s):
    t = np.random.randint(l, r)
    while t in s:
        t = np.random.randint(l, r)
    return t


def sample_batch(user_train, usernum, itemnum, batch_size, maxlen):
    def sample():
        user = np.random.randint(1, usernum + 1)
        while len(user_train[user]) <= 1:
            user = np.random.randint(1, usernum + 1)
        seq, pos, neg = np.zeros([maxlen], dtype=np.int32), np.zeros([maxlen], dtype=np.int32), np.zeros([maxlen], dtype=np.int32)
        nxt, idx, ts = user_train[user][-1], maxlen - 1, set(user_train[user])
        for i in reversed(user_train[user][:-1]):
            seq[idx], pos[idx] = i, nxt
            if nxt != 0:
                neg[idx] = random_neq(1, itemnum + 1, ts)
            nxt, idx = i, idx - 1
            if idx == -1:
                break
        return user, seq, pos, neg

    return zip(*[sample() for _ in range(batch_size)])


class SASRec(nn.Module):
    def __init__(self, item_num, args):
        super().__init__()
        self.dev = args.device
        self.item_emb = nn.Embedding(item_num + 1, args.hidden_units, padding_idx=0)
        self.pos_emb = nn.Embedding(args.maxlen, args.hidden_units)
        self.attn = nn.MultiheadAttention(args.hidden_units, 1, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(args.hidden_units, args.hidden_units), nn.ReLU(), nn.Linear(args.hidden_units, args.hidden_units))
        self.norm1, self.norm2 = nn.LayerNorm(args.hidden_units), nn.LayerNorm(args.hidden_units)

    def log2feats(self, log_seqs):
        seqs = self.item_emb(torch.LongTensor(log_seqs).to(self.dev))  # paef: ok cpu-then-move; ok pageable-transfer
        seqs *= self.item_emb.embedding_dim ** 0.5
        positions = np.tile(np.array(range(log_seqs.shape[1])), [log_seqs.shape[0], 1])  # paef: ok cpu-function
        seqs += self.pos_emb(torch.LongTensor(positions).to(self.dev))  # paef: expect redundant-tensor; ok cpu-then-move
        timeline_mask = torch.BoolTensor(log_seqs == 0).to(self.dev)  # paef: ok cpu-then-move; ok pageable-transfer
        seqs *= ~timeline_mask.unsqueeze(-1)
        tl = seqs.shape[1]
        attention_mask = ~torch.tril(torch.ones((tl, tl), dtype=torch.bool, device=self.dev))  # paef: expect redundant-tensor
        q = self.norm1(seqs)
        h, _ = self.attn(q, seqs, seqs, attn_mask=attention_mask)
        seqs = q + h
        seqs = self.norm2(seqs + self.ffn(seqs))
        return seqs * ~timeline_mask.unsqueeze(-1)

    def forward(self, user_ids, log_seqs, pos_seqs, neg_seqs):
        feats = self.log2feats(log_seqs)
        pos_embs = self.item_emb(torch.LongTensor(pos_seqs).to(self.dev))  # paef: ok cpu-then-move; ok pageable-transfer
        neg_embs = self.item_emb(torch.LongTensor(neg_seqs).to(self.dev))  # paef: ok cpu-then-move; ok pageable-transfer
        return (feats * pos_embs).sum(-1), (feats * neg_embs).sum(-1)

    def predict(self, user_ids, log_seqs, item_indices):
        final_feat = self.log2feats(log_seqs)[:, -1, :]
        item_embs = self.item_emb(torch.LongTensor(item_indices).to(self.dev))  # paef: ok cpu-then-move; ok pageable-transfer
        return item_embs.matmul(final_feat.unsqueeze(-1)).squeeze(-1)


def evaluate(model, user_train, user_test, itemnum, args):
    NDCG, HT, valid_user = 0.0, 0.0, 0.0
    for u in range(1, args.usernum + 1):  # paef: expect eval-without-no-grad
        seq = np.zeros([args.maxlen], dtype=np.int32)
        hist = user_train[u][-args.maxlen:]
        seq[args.maxlen - len(hist):] = hist
        rated = set(user_train[u])
        item_idx = [user_test[u]]
        for _ in range(20):
            t = np.random.randint(1, itemnum + 1)
            while t in rated:
                t = np.random.randint(1, itemnum + 1)
            item_idx.append(t)
        predictions = -model.predict(*[np.array(l) for l in [[u], [seq], item_idx]])
        predictions = predictions[0]
        rank = predictions.argsort().argsort()[0].item()  # paef: ok host-sync
        valid_user += 1
        if rank < 10:
            NDCG += 1 / np.log2(rank + 2)
            HT += 1
    return NDCG / valid_user, HT / valid_user


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", default=32, type=int)
    parser.add_argument("--lr", default=0.002, type=float)
    parser.add_argument("--maxlen", default=10, type=int)
    parser.add_argument("--hidden_units", default=16, type=int)
    parser.add_argument("--num_epochs", default=3, type=int)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu", type=str)
    args = parser.parse_args()
    np.random.seed(0)
    random.seed(0)
    torch.manual_seed(0)
    args.usernum, itemnum = 60, 40
    user_train, user_test = {}, {}
    for u in range(1, args.usernum + 1):
        start = random.randint(1, itemnum)
        items = [(start + k * (u % 3 + 1)) % itemnum + 1 for k in range(random.randint(4, 12))]
        user_train[u], user_test[u] = items[:-1], items[-1]
    model = SASRec(itemnum, args).to(args.device)
    bce_criterion = nn.BCEWithLogitsLoss()
    adam_optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.98))
    num_batch = args.usernum // args.batch_size
    for epoch in range(1, args.num_epochs + 1):
        model.train()
        for step in range(num_batch * 4):
            u, seq, pos, neg = sample_batch(user_train, args.usernum, itemnum, args.batch_size, args.maxlen)
            u, seq, pos, neg = np.array(u), np.array(seq), np.array(pos), np.array(neg)
            pos_logits, neg_logits = model(u, seq, pos, neg)
            pos_labels, neg_labels = torch.ones(pos_logits.shape, device=args.device), torch.zeros(neg_logits.shape, device=args.device)  # paef: ok redundant-tensor
            adam_optimizer.zero_grad()
            indices = np.where(pos != 0)
            loss = bce_criterion(pos_logits[indices], pos_labels[indices])
            loss += bce_criterion(neg_logits[indices], neg_labels[indices])
            loss.backward()
            adam_optimizer.step()
        print("loss in epoch {} iteration {}: {}".format(epoch, step, round(loss.item(), 4)))
        model.eval()
        t_test = evaluate(model, user_train, user_test, itemnum, args)
        print("epoch:%d, test (NDCG@10: %.4f, HR@10: %.4f)" % (epoch, t_test[0], t_test[1]))


if __name__ == "__main__":
    main()
