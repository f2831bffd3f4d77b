# corpus: runnable
"""Neural style transfer after the tutorial: a frozen conv feature extractor in eval mode,
content and style (Gram matrix) losses attached as modules, the input image optimised with
LBFGS through a closure, and the image clamped to [0, 1] between steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def gram_matrix(x):
    b, c, h, w = x.size()
    features = x.view(b * c, h * w)
    return torch.mm(features, features.t()).div(b * c * h * w)


class ContentLoss(nn.Module):
    def __init__(self, target):
        super().__init__()
        self.target = target.detach()

    def forward(self, x):
        self.loss = F.mse_loss(x, self.target)
        return x


class StyleLoss(nn.Module):
    def __init__(self, target_feature):
        super().__init__()
        self.target = gram_matrix(target_feature).detach()

    def forward(self, x):
        self.loss = F.mse_loss(gram_matrix(x), self.target)
        return x


class Normalization(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = mean.clone().detach().view(-1, 1, 1)
        self.std = std.clone().detach().view(-1, 1, 1)

    def forward(self, img):
        return (img - self.mean) / self.std


cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU()).to(device).eval()
for p in cnn.parameters():
    p.requires_grad_(False)
mean = torch.tensor([0.485, 0.456, 0.406]).to(device)  # paef: ok cpu-then-move
std = torch.tensor([0.229, 0.224, 0.225]).to(device)  # paef: ok cpu-then-move
style_img = torch.rand(1, 3, 16, 16, device=device)
content_img = torch.rand(1, 3, 16, 16, device=device)

model = nn.Sequential(Normalization(mean, std))
content_losses, style_losses = [], []
for i, layer in enumerate(cnn):
    if isinstance(layer, nn.ReLU):
        layer = nn.ReLU(inplace=False)
    model.add_module(f"layer_{i}", layer)
    if i == 3:
        target = model(content_img).detach()
        cl = ContentLoss(target)
        model.add_module(f"content_{i}", cl)
        content_losses.append(cl)
    if i in (1, 3, 5):
        target_feature = model(style_img).detach()
        sl = StyleLoss(target_feature)
        model.add_module(f"style_{i}", sl)
        style_losses.append(sl)

input_img = content_img.clone().requires_grad_(True)
optimizer = torch.optim.LBFGS([input_img])
run = [0]
while run[0] <= 40:  # paef: refuse eval-without-no-grad

    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        model(input_img)
        style_score = sum(sl.loss for sl in style_losses) * 1e4
        content_score = sum(cl.loss for cl in content_losses)
        loss = style_score + content_score
        loss.backward()
        run[0] += 1
        return style_score + content_score

    optimizer.step(closure)

with torch.no_grad():
    input_img.clamp_(0, 1)
model(input_img)
print(f"style {sum(sl.loss for sl in style_losses).item() * 1e4:.5f} content {sum(cl.loss for cl in content_losses).item():.5f}")
print(f"image mean {input_img.mean().item():.4f}")
