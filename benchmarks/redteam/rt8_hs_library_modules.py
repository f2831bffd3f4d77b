# corpus: runnable
# Evaluation loops summing `.item()` of outputs of modules whose class the analysis does not
# read as a float head: an `nn.Identity` placeholder head on labels, an `nn.Flatten` over masks,
# a scripted tagger that returns indices, a model handed to a function, a quantised embedding.
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = "cuda" if torch.cuda.is_available() else "cpu"


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 3)

    def forward(self, x):
        return self.proj(x)


tagger = Tagger().to(device).eval()
label_head = nn.Identity()  # replaced by a real head in the fine-tuning script
flatten = nn.Flatten()
batches = [(torch.randn(8, 4), torch.randint(0, 3, (8,))) for _ in range(4)]

label_mass = 0
mask_count = 0
for x, y in batches:
    x, y = x.to(device), y.to(device)
    label_mass += label_head(y).sum().item()
    mask_count += flatten((x > 0).view(8, 2, 2)).sum().item()
print("label mass", label_mass, "mask count", mask_count)


class Decoder(nn.Module):
    def forward(self, logits):
        return logits.argmax(-1)


decoder = torch.jit.script(Decoder())
index_sum = 0
with torch.no_grad():
    for x, _ in batches:
        index_sum += decoder(tagger(x.to(device))).sum().item()
print("index sum", index_sum)


def evaluate(net, loader):
    hits = 0
    for x, y in loader:
        hits += net(x.to(device)).sum().item()
    return hits


class Vote(nn.Module):
    def forward(self, x):
        return (x > 0).sum(dim=1)


print("votes", evaluate(Vote(), batches))
