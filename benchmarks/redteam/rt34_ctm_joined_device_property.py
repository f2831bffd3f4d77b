# corpus: runnable
# Red team 34 (blind): a small placement helper hands out the device for each batch and keeps a
# count of how many placements it served (a debugging aid for a multi-device setup). The position
# ids of a packed pair of segments are built by joining two ranges on the host and moved once.
import torch
import torch.nn.functional as F
from torch import nn

torch.set_num_threads(1)


class Placement:
    def __init__(self):
        self.requests = 0
        self._device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    @property
    def device(self):
        self.requests += 1
        return self._device


def main():
    torch.manual_seed(0)
    place = Placement()
    emb = nn.Embedding(32, 8).to(place.device)
    head = nn.Linear(8, 1).to(place.device)
    opt = torch.optim.SGD([*emb.parameters(), *head.parameters()], lr=0.1)
    lengths = [(5, 7), (9, 3), (6, 6), (4, 10)]
    for epoch in range(2):
        for a, b in lengths:
            pos = torch.cat([torch.arange(a), torch.arange(b)]).to(place.device)
            target = (pos.float() / 10).unsqueeze(1)
            loss = F.mse_loss(head(emb(pos)), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.5f}")
    print("placements served:", place.requests)


if __name__ == "__main__":
    main()
