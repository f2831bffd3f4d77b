# corpus: runnable
# NumPy work in a loop over data shuffled / sorted / filled in place, and user helpers that are not
# pure (print, RNG, global counter, change their argument in place, cache in a default argument).
import numpy as np

np.random.seed(0)
X = np.random.rand(8, 3)
out = []
for epoch in range(3):
    np.random.shuffle(X)
    head = np.log1p(X[:2])
    out.append(round(float(head.sum()), 6))
print(out)

Y = np.random.rand(6)
out = []
for epoch in range(3):
    Y.sort()
    top = np.exp(Y[-2:])
    out.append(round(float(top.sum()), 6))
    Y[0] = 5.0 + epoch
print(out)

Z = np.random.rand(5)
out = []
for epoch in range(3):
    np.add(Z, 1.0, out=Z)
    out.append(round(float(np.sqrt(Z).sum()), 6))
print(out)

calls = 0


def count_norm(a):
    global calls
    calls += 1
    return a / a.sum()


A = np.random.rand(4, 4)
out = []
for epoch in range(3):
    P = count_norm(A)
    out.append(round(float(P[0, 0]), 6))
print(out, calls)


def noisy(a):
    return a + np.random.normal(0, 0.1, a.shape)


out = []
for epoch in range(3):
    B = noisy(A)
    out.append(round(float(B.sum()), 6))
print(out)


def norm_inplace(a):
    a /= a.sum(axis=1, keepdims=True)
    return a


C = np.random.rand(3, 3)
out = []
for epoch in range(3):
    Cn = norm_inplace(C)
    out.append(round(float(Cn.sum() + C[0, 0]), 6))
print(out)


def chatty(a):
    print("normalizing", a.shape)
    return np.tanh(a)


for epoch in range(2):
    D = chatty(A)
    print(round(float(D.sum()), 6))


def cached(a, _memo=[]):
    _memo.append(1)
    return a * len(_memo)


out = []
for epoch in range(3):
    E = cached(A)
    out.append(round(float(E.sum()), 6))
print(out)

rng = np.random.default_rng(0)
F = np.arange(6.0)
out = []
for epoch in range(3):
    rng.shuffle(F)
    out.append(float(np.cumsum(F)[1]))
print(out)
