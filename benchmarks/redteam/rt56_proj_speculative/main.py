# corpus: runnable
# Red team 56 (blind): speculative decoding with two causal attention LMs (a larger target, a small draft) that
# keep their key/value caches on the module between calls (grown with torch.cat, rolled back by slicing to the
# accepted length, positions taken from the cache length). The greedy speculative output must equal the
# target's own greedy output; a sampling variant accepts draft tokens with a CPU generator.
import torch
import torch.nn.functional as F

from data import streams
from lm import V, CachedLM
from speculative import greedy_target, speculative_greedy, speculative_sample

torch.manual_seed(5608)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

gen = torch.Generator().manual_seed(568)
target = CachedLM(48).to(device)
draft = CachedLM(16).to(device)
for model, steps in ((target, 150), (draft, 60)):
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for step in range(steps):
        x = streams(32, 24, gen).to(device)
        loss = F.cross_entropy(model(x[:, :-1]).reshape(-1, V), x[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(type(model).__name__, model.d, round(loss.item(), 4))
target.eval()
draft.eval()

prompts = streams(5, 6, gen).to(device)
same = 0
stats = []
sampled = []
for i in range(prompts.shape[0]):
    prompt = prompts[i:i + 1]
    ref = greedy_target(target, prompt, 14)
    spec, acc, calls = speculative_greedy(target, draft, prompt, 14)
    same += int(ref == spec)
    stats.append((acc, calls))
    seq, accepts = speculative_sample(target, draft, prompt, 10, gen)
    sampled.append((seq, accepts))
    print(ref, spec == ref, acc, calls, seq[-10:], accepts)
print('identical', same, 'of', prompts.shape[0])
checksum = same * 1000 + sum(a * 7 + c for a, c in stats) + sum(sum(s) + 3 * a for s, a in sampled)
print('checksum', checksum)
