# corpus: runnable
# Red team 56 probe (NOT blind): generated tokens appended as Python ints read from the device, then turned into
# a tensor after the loop, while the same list is also hashed (set, Counter, dict key), printed, dumped to JSON,
# compared and searched.
import collections
import json

import torch

torch.manual_seed(5624)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'
g = torch.Generator().manual_seed(5624)
V = 6
table = torch.softmax(torch.randn(V, V, device=device) * 2, -1)
seen = {}
report = []
for prompt in range(3):
    tokens = []
    tok = torch.tensor(prompt, device=device)
    for _ in range(8):
        probs = table[tok]
        tok = torch.multinomial(probs.cpu(), 1, generator=g)[0].to(device)
        tokens.append(tok.item())
    as_tensor = torch.tensor(tokens)
    counts = collections.Counter(tokens)
    distinct = len(set(tokens))
    seen[tuple(tokens)] = prompt
    text = json.dumps(tokens)
    report.append((as_tensor.sum().item(), counts.most_common(1)[0][1], distinct, text, str(tokens),
                   tokens == sorted(tokens), 3 in tokens, tokens.count(2)))
    print(report[-1])
print('checksum', sum(a + b * 3 + c * 5 + len(d) + len(e) + int(f) + int(g_) + h for a, b, c, d, e, f, g_, h in report) + len(seen))
