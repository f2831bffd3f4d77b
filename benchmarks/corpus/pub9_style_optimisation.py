# corpus: runnable
"""Image optimisation with a frozen feature network (style-transfer tutorials): the network's
features of the fixed content and style images are recomputed every step, though neither the
network (in `.eval()`, in no optimizer) nor those images change; the optimised image's features
must be recomputed (the optimizer changes it in place). The extractor's parameters still require
grad, so the two fixed images' forwards also record a graph that backward runs through: true,
but the hoist is this site's expected fix (a second finding here is counted debatable)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Extractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Conv2d(3, 4, 3, padding=1), nn.Conv2d(4, 4, 3, padding=1)])

    def forward(self, x):
        feats = []
        for layer in self.layers:
            x = torch.relu(layer(x))
            feats.append(x)
        return feats


def gram(f):
    _, c, h, w = f.size()
    f = f.view(c, h * w)
    return torch.mm(f, f.t()) / (c * h * w)


content = torch.rand(1, 3, 8, 8, device=device)
style = torch.rand(1, 3, 8, 8, device=device)
image = content.clone().requires_grad_(True)
optimizer = torch.optim.Adam([image], lr=0.05)
extractor = Extractor().to(device).eval()
for step in range(12):
    image_feats = extractor(image)
    content_feats = extractor(content)  # paef: expect redundant-tensor; ok eval-without-no-grad
    style_feats = extractor(style)  # paef: expect redundant-tensor; ok eval-without-no-grad
    content_loss = 0
    style_loss = 0
    for f1, f2, f3 in zip(image_feats, content_feats, style_feats):
        content_loss += torch.mean((f1 - f2) ** 2)
        style_loss += torch.mean((gram(f1) - gram(f3)) ** 2)
    loss = content_loss + 10 * style_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (step + 1) % 4 == 0:
        print(step + 1, round(content_loss.item(), 5), round(style_loss.item(), 6))
