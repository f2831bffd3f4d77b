# corpus: runnable
# Red team 35 (blind): post-training fake quantisation of a half-precision checkpoint. The
# per-tensor scale is computed in float32 (max |w| / 127) and each weight is rounded to its
# integer level one element at a time, as in a reference implementation.
import torch
from torch import nn

torch.set_num_threads(1)


def train_model():
    torch.manual_seed(0)
    x = torch.randn(256, 32)
    y = torch.tanh(x[:, :8].sum(1, keepdim=True)).repeat(1, 4)
    model = nn.Sequential(nn.Linear(32, 24), nn.Tanh(), nn.Linear(24, 4))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(40):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model, x, y


def main():
    model, x, y = train_model()
    layer = model[0]
    w16 = layer.weight.detach().flatten().half()  # the fp16 checkpoint's weights
    scale = w16.float().abs().max() / 127  # 0-d float32
    levels = torch.zeros_like(w16)
    for i in range(len(w16)):  # paef: refuse elementwise-loop
        levels[i] = torch.round(w16[i] / scale)
    print("level checksum", int(levels.float().abs().sum().item()), "odd levels", int((levels.float() % 2 == 1).sum()))
    deq = (levels.float() * scale).view_as(layer.weight)
    with torch.no_grad():
        layer.weight.copy_(deq)
        err = nn.functional.mse_loss(model(x), y).item()
    print(f"scale {scale.item():.8f} quantised mse {err:.10f}")


if __name__ == "__main__":
    main()
