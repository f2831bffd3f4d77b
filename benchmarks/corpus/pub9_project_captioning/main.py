# corpus: runnable
"""A captioning script whose model lives in a local module: the step counter of
`enumerate(loader)` is an int however the module is read (`if i % log_every == 0` is no sync),
the loss is read only when logging, and the loader does not pin its batches."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import Decoder, Encoder

torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main(epochs=2, log_every=3):
    images = torch.rand(48, 2, 4, 4)
    captions = torch.randint(0, 12, (48, 6))
    loader = DataLoader(TensorDataset(images, captions), batch_size=8, shuffle=False)  # paef: ok pageable-transfer; ok sync-dataloader
    encoder = Encoder(32, 16).to(device)
    decoder = Decoder(16, 24, 12).to(device)
    criterion = nn.CrossEntropyLoss()
    params = list(decoder.parameters()) + list(encoder.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-2)
    total_steps = len(loader)
    for epoch in range(epochs):
        for i, (pics, caps) in enumerate(loader):
            pics = pics.to(device)
            caps = caps.to(device)
            logits = decoder(encoder(pics), caps)
            loss = criterion(logits.reshape(-1, 12), caps.reshape(-1))
            decoder.zero_grad()
            encoder.zero_grad()
            loss.backward()
            optimizer.step()
            if i % log_every == 0:
                print("epoch {} step {}/{} loss {:.4f}".format(epoch, i, total_steps, loss.item()))
    encoder.eval()
    with torch.no_grad():
        print(decoder.greedy(encoder(images[:2].to(device))).tolist())


if __name__ == "__main__":
    main()
