# Public check 47, p03: polceanum/neural.ca `main.py` + `model.py` @ 29820c8a (no licence file stored), growing
# neural cellular automata (Mordvintsev et al. 2020) trained to grow an emoji.
# Changes to run on the CPU in seconds (the source's own lines are unchanged unless listed):
#  1. `model.py` is pasted above `main.py`'s code (its imports merged); `from model import NCA` dropped.
#  2. `emoji_loader.load_emoji` (reads a PNG with PIL, not installed) and `visualize.saveVideo` (writes a GIF) are
#     replaced by stand-ins: a synthetic 16x16 RGBA target, and a stub that does nothing; seeds are the source's.
#  3. `parser.parse_args()` -> `parser.parse_args(['--epochs', '6', '--log-interval', '3', '--ca-steps', '8'])`
#     (the source's defaults train 100000 iterations of 96 CA steps).
#  4. a checksum of the weights is printed at the end.
from __future__ import print_function
import os
import argparse
import numpy as np
import random
import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F


# ---- stand-ins (emoji_loader, visualize) ----
def load_emoji(path, index):
    rng = np.random.RandomState(index)
    img = rng.rand(16, 16, 4).astype(np.float32)
    img[..., :3] *= img[..., 3:]
    return img


def saveVideo(history, filename):
    pass
# ---- end of stand-ins ----


class NCA(nn.Module):
    def __init__(self, cell_state_size, hidden_size, num_layers, device):
        super(NCA, self).__init__()

        self.conv = nn.Conv2d(
            in_channels=cell_state_size, 
            out_channels=cell_state_size, 
            kernel_size=3,
            padding=1,
            bias=False)

        self.fcFirst = nn.Linear(cell_state_size, hidden_size)

        nbInterimLayers = num_layers
        self.interimLayers = []
        for i in range(nbInterimLayers):
            self.interimLayers.append(nn.Linear(hidden_size, hidden_size).to(device))
        
        self.fcLast = nn.Linear(hidden_size, cell_state_size, bias=False)
        with torch.no_grad():
            self.fcLast.weight.zero_()

        self.inputDropout = nn.Dropout(p=0.2)
        self.stochasticOutput = nn.Dropout(p=0.5)

    def alive(self, x):
        return (F.max_pool2d(x[:, :, :, 3:4], kernel_size=3, stride=1, padding=1) > 0.1).float()


    def perceive(self, x):
        # apply convolution over input (transposed version, since PyTorch requires C,H,W instead of H,W,C)
        percepts = self.conv(x.transpose(-3, -1)).transpose(-3, -1).contiguous()

        # only keep alive cells
        # percepts = percepts * self.alive(x)
        
        return percepts

    def update(self, x):
        ds = self.fcFirst(x)
        ds = F.relu(ds)
        for i in range(len(self.interimLayers)):
            ds = self.interimLayers[i](ds)
            ds = F.relu(ds)
        ds = self.fcLast(ds)
        ds = self.stochasticOutput(ds) # stochastic update
        return ds # deltas

    def forward(self, x, steps):
        # keep size for future use
        normal_size = x.size()
        # initialize history list
        history = []

        for step in range(steps):
            # get perception for each pixel, from damaged previous state
            percepts = self.perceive(self.inputDropout(x))
            # speed optimization by considering each pixel separately by flattening
            out = self.update(percepts.flatten(start_dim=0, end_dim=-2))
            # add network output to state
            x = x + out.view(normal_size)
            # save history
            history.append(x)

        return x, history


def train(args, model, device, train_target, optimizer, iter):
    model.train()

    # create initial states
    batch_data = torch.zeros((
            args.batch_size,      # batch size
            train_target.size(0), # width
            train_target.size(1), # height
            args.cell_size)       # cell state size
        ).float()
    batch_data = batch_data.to(args.__device__) # send to device

    # batch_data[:, 20, 20, 3:] = 0.2 # set seed in the middle with all except RGB = 1
    
    optimizer.zero_grad()
    output, history = model(batch_data, steps=args.ca_steps)
    loss = 0
    if not args.persistence:
        loss = F.mse_loss(output[:, :, :, :4], train_target.unsqueeze(0))
    else:
        nb = 0
        for i in range(len(history)):
            out = history[i]
            if i >= args.ca_steps//2 and i % 4 == 0:
                loss += F.mse_loss(out[:, :, :, :4], train_target.unsqueeze(0))
                nb += 1
        loss /= nb
    loss.backward()
    optimizer.step()

    if iter % args.log_interval == 0:
        saveVideo(history, filename='./videos/test_'+str(iter)+'.gif')
    
    print('Train iter: {} \tLoss: {:.6f}'.format(iter, loss.item()))
    

if __name__ == '__main__':

    # Training settings
    parser = argparse.ArgumentParser(description='Neural Cellular Automata')
    parser.add_argument('--cell-size', type=int, default=16, metavar='E',
                        help='cell state size (default: 16)')
    parser.add_argument('--emoji', type=int, default=0, metavar='ST',
                        help='index of training emoji (default: 0)')
    parser.add_argument('--batch-size', type=int, default=8, metavar='N',
                        help='input batch size for training (default: 64)')
    parser.add_argument('--epochs', type=int, default=100000, metavar='N',
                        help='number of epochs to train (default: 100000)')
    parser.add_argument('--lr', type=float, default=0.001, metavar='LR',
                        help='learning rate (default: 1.0)')
    parser.add_argument('--no-cuda', action='store_true', default=False,
                        help='disables CUDA training')
    parser.add_argument('--seed', type=int, default=1, metavar='S',
                        help='random seed (default: 1)')
    parser.add_argument('--log-interval', type=int, default=200, metavar='N',
                        help='how many batches to wait before logging training status')
    parser.add_argument('--load-model-iter', type=int, default=0, metavar='S',
                        help='load model path (default: None)')
    parser.add_argument('--ca-steps', type=int, default=96, metavar='CAS',
                        help='load model path (default: None)')
    parser.add_argument('--interim-layers', type=int, default=0, metavar='L',
                        help='load model path (default: 0)')
    parser.add_argument('--persistence', action='store_true', default=False,
                        help='Use persistence on the second half of CA steps')
    args = parser.parse_args(['--epochs', '6', '--log-interval', '3', '--ca-steps', '8'])
    use_cuda = not args.no_cuda and torch.cuda.is_available()

    # create save and video folders
    if not os.path.exists('./videos'):
        os.makedirs('./videos')
    if not os.path.exists('./save'):
        os.makedirs('./save')

    torch.manual_seed(args.seed)

    device = torch.device("cuda" if use_cuda else "cpu")
    args.__device__ = device

    emoji = load_emoji('./data/emoji.png', args.emoji)
    
    # convert to torch tensor and send to device
    emoji = torch.from_numpy(emoji).float().to(device)

    print('training target size:', emoji.size())

    # create model
    model = NCA(cell_state_size=args.cell_size, hidden_size=128, num_layers=args.interim_layers, device=device).to(device)
    if args.load_model_iter > 0:
        model.load_state_dict(torch.load("save/nca_model_L="+str(args.interim_layers)+"_"+str(args.load_model_iter)+".pt"))
        print('Loaded model from:', "save/nca_model_L="+str(args.load_model_iter)+".pt")
    
    optimizer = optim.Adam(model.parameters(), lr=args.lr, amsgrad=True)

    for epoch in range(args.load_model_iter+1, args.epochs + 1):
        train(args, model, device, emoji, optimizer, epoch)

        if epoch % args.log_interval == 0:
            torch.save(model.state_dict(), "save/nca_model_L="+str(args.interim_layers)+"_"+str(epoch)+".pt")

    print("checksum", round(sum(float(p.detach().double().sum()) for p in model.parameters()), 6))
