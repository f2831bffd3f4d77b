# corpus: runnable
"""A BiLSTM-CRF tagger written in the style of the widely read tutorial: one sentence at a
time, the partition function by the forward algorithm with a loop over tags and a
hand-written log-sum-exp, the gold path score, and Viterbi decoding with Python back-pointers."""
import random

import torch
import torch.nn as nn

random.seed(0)
torch.manual_seed(0)
START, STOP = "<START>", "<STOP>"
tag_to_ix = {"B": 0, "I": 1, "O": 2, START: 3, STOP: 4}
WORDS = ["the", "a", "big", "new", "york", "city", "bank", "went", "to", "saw", "paris", "river"]
word_to_ix = {w: i for i, w in enumerate(WORDS)}
ENT = {"new", "york", "city", "paris"}


def make_sentence():
    words = [random.choice(WORDS) for _ in range(random.randint(3, 6))]
    tags, prev = [], False
    for w in words:
        tags.append(("I" if prev else "B") if w in ENT else "O")
        prev = w in ENT
    return words, tags


def argmax(vec):
    _, idx = torch.max(vec, 1)
    return idx.item()  # paef: ok host-sync


def log_sum_exp(vec):
    max_score = vec[0, argmax(vec)]
    return max_score + torch.log(torch.sum(torch.exp(vec - max_score.view(1, -1).expand(1, vec.size()[1]))))  # paef: expect operator-fusion


class BiLSTM_CRF(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.tagset_size = len(tag_to_ix)
        self.emb = nn.Embedding(len(WORDS), 8)
        self.lstm = nn.LSTM(8, hidden // 2, bidirectional=True)
        self.hidden2tag = nn.Linear(hidden, self.tagset_size)
        self.transitions = nn.Parameter(torch.randn(self.tagset_size, self.tagset_size))
        self.transitions.data[tag_to_ix[START], :] = -10000
        self.transitions.data[:, tag_to_ix[STOP]] = -10000

    def _features(self, sentence):
        out, _ = self.lstm(self.emb(sentence).view(len(sentence), 1, -1))
        return self.hidden2tag(out.view(len(sentence), -1))

    def _forward_alg(self, feats):
        init_alphas = torch.full((1, self.tagset_size), -10000.0)  # paef: ok redundant-tensor
        init_alphas[0][tag_to_ix[START]] = 0.0
        forward_var = init_alphas
        for feat in feats:
            alphas_t = []
            for next_tag in range(self.tagset_size):  # paef: expect elementwise-loop
                emit = feat[next_tag].view(1, -1).expand(1, self.tagset_size)
                alphas_t.append(log_sum_exp(forward_var + self.transitions[next_tag].view(1, -1) + emit).view(1))
            forward_var = torch.cat(alphas_t).view(1, -1)
        return log_sum_exp(forward_var + self.transitions[tag_to_ix[STOP]])

    def _score_sentence(self, feats, tags):
        score = torch.zeros(1)  # paef: ok redundant-tensor
        tags = torch.cat([torch.tensor([tag_to_ix[START]], dtype=torch.long), tags])  # paef: expect redundant-tensor
        for i, feat in enumerate(feats):
            score = score + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        return score + self.transitions[tag_to_ix[STOP], tags[-1]]

    def neg_log_likelihood(self, sentence, tags):
        feats = self._features(sentence)
        return self._forward_alg(feats) - self._score_sentence(feats, tags)

    def forward(self, sentence):
        feats = self._features(sentence)
        backpointers, forward_var = [], torch.full((1, self.tagset_size), -10000.0)  # paef: ok redundant-tensor
        forward_var[0][tag_to_ix[START]] = 0
        for feat in feats:
            bptrs, vvars = [], []
            for next_tag in range(self.tagset_size):  # paef: ok elementwise-loop
                v = forward_var + self.transitions[next_tag]
                best = argmax(v)
                bptrs.append(best)
                vvars.append(v[0][best].view(1))
            forward_var = (torch.cat(vvars) + feat).view(1, -1)
            backpointers.append(bptrs)
        terminal = forward_var + self.transitions[tag_to_ix[STOP]]
        best = argmax(terminal)
        path = [best]
        for bptrs in reversed(backpointers):
            best = bptrs[best]
            path.append(best)
        return terminal[0][path[0]], path[::-1][1:]


data = [make_sentence() for _ in range(40)]
model = BiLSTM_CRF()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, weight_decay=1e-4)
for epoch in range(3):
    total = 0.0
    for words, tags in data:
        sentence = torch.tensor([word_to_ix[w] for w in words], dtype=torch.long)  # paef: ok cpu-function
        targets = torch.tensor([tag_to_ix[t] for t in tags], dtype=torch.long)  # paef: ok cpu-function
        loss = model.neg_log_likelihood(sentence, targets)
        model.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch} nll {total / len(data):.4f}")
with torch.no_grad():
    words, tags = data[0]
    score, path = model(torch.tensor([word_to_ix[w] for w in words]))
    print(words, tags, [list(tag_to_ix)[p] for p in path], round(score.item(), 3))
