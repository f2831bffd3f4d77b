import torch
import torch.nn as nn


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class TinyUNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.enc1, self.enc2 = conv_block(1, ch), conv_block(ch, 2 * ch)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.ConvTranspose2d(2 * ch, ch, 2, stride=2)
        self.dec = conv_block(2 * ch, ch)
        self.head = nn.Conv2d(ch, 1, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        d = self.dec(torch.cat([self.up(e2), e1], dim=1))
        return self.head(d)
