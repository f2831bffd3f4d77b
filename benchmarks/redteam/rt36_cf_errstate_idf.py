# corpus: runnable
# Red team 36 (blind): bag-of-words classifier with TF-IDF weights. The script runs NumPy with
# np.seterr(all="raise") to catch numerical bugs; the one place where a division by zero is expected
# (terms that occur in no training document) is wrapped in np.errstate(divide="ignore").
import numpy as np
import torch
import torch.nn as nn

np.seterr(all="raise")
torch.manual_seed(3)
torch.set_num_threads(1)
rng = np.random.default_rng(3)

VOCAB, DOCS = 40, 120
counts = rng.poisson(0.6, size=(DOCS, VOCAB)).astype(np.float64)
counts[:, -5:] = 0.0  # held-out vocabulary: never seen in training
labels = (counts[:, :5].sum(1) > counts[:, 5:10].sum(1)).astype(np.int64)
doc_freq = (counts > 0).sum(0).astype(np.float64)


def inverse_document_frequency(df, n_docs):
    idf = np.log(n_docs / df)
    return np.where(np.isinf(idf), 0.0, idf)


model = nn.Linear(VOCAB, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.2)
tf = torch.from_numpy(counts / np.maximum(counts.sum(1, keepdims=True), 1.0)).float()
y = torch.from_numpy(labels)
for epoch in range(5):
    with np.errstate(divide="ignore"):
        idf = inverse_document_frequency(doc_freq, DOCS)
    weights = torch.from_numpy(idf).float()
    x = tf * weights
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch} loss {loss.item():.10f} idf_sum {idf.sum():.8f}")
