# corpus: runnable
"""d2l-style RNN from scratch: the model is a plain function of explicit parameters
(`rnn(inputs, state, params)`), trained with a loop that reads the loss per step and generates text
token by token with the same function."""
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)


def try_gpu(i=0):
    if torch.cuda.device_count() >= i + 1:
        return torch.device(f"cuda:{i}")
    return torch.device("cpu")


text = "the time machine by h g wells " * 40
vocab = sorted(set(text))
idx = {c: i for i, c in enumerate(vocab)}
corpus = torch.tensor([idx[c] for c in text])
V, H, T, B = len(vocab), 32, 12, 8


def get_params(vocab_size, num_hiddens, device):
    def normal(shape):
        return torch.randn(size=shape, device=device) * 0.01

    W_xh, W_hh = normal((vocab_size, num_hiddens)), normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens, device=device)
    W_hq, b_q = normal((num_hiddens, vocab_size)), torch.zeros(vocab_size, device=device)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens, device):
    return (torch.zeros((batch_size, num_hiddens), device=device),)


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    (H_,) = state
    outputs = []
    for X in inputs:
        H_ = torch.tanh(torch.mm(X, W_xh) + torch.mm(H_, W_hh) + b_h)
        outputs.append(torch.mm(H_, W_hq) + b_q)
    return torch.cat(outputs, dim=0), (H_,)


def predict(prefix, num_preds, params, device):
    state = init_rnn_state(1, H, device)
    outputs = [idx[prefix[0]]]
    for y in prefix[1:]:  # paef: ok eval-without-no-grad
        _, state = rnn(F.one_hot(torch.tensor([outputs[-1]], device=device), V).float().unsqueeze(0), state, params)
        outputs.append(idx[y])
    for _ in range(num_preds):
        y, state = rnn(F.one_hot(torch.tensor([outputs[-1]], device=device), V).float().unsqueeze(0), state, params)  # paef: expect ping-pong; ok eval-without-no-grad
        outputs.append(int(y.argmax(dim=1).reshape(1).item()))  # paef: ok host-sync; ok ping-pong
    return "".join(vocab[i] for i in outputs)


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


device = try_gpu()
params = get_params(V, H, device)
for epoch in range(6):
    l_sum, n = 0.0, 0
    for start in range(0, len(corpus) - T * B - 1, T * B):
        X = corpus[start : start + T * B].view(B, T).T
        Y = corpus[start + 1 : start + T * B + 1].view(B, T).T
        state = init_rnn_state(B, H, device)
        inputs = F.one_hot(X.to(device), V).float()
        y_hat, state = rnn(inputs, state, params)
        l = F.cross_entropy(y_hat, Y.reshape(-1).to(device))
        l.backward()
        sgd(params, 1.0, 1)
        l_sum += l.item() * Y.numel()  # paef: expect host-sync
        n += Y.numel()
    print(f"epoch {epoch} perplexity {math.exp(l_sum / n):.2f}")
print(predict("the ", 20, params, device))
