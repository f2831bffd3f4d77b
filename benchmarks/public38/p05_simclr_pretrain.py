# Public check 38, p05: SimCLR contrastive pre-training (NT-Xent with a fixed mask), three files joined.
# Source: https://github.com/guolz-ml/SimCLR-Pytorch @ ebc1a886: train_simclr.py, simclr/contrastive_loss.py
#   (ContrastiveLoss), simclr/simclr.py (SimCLR).
# Changes to make it run on the CPU in seconds:
# - the files are joined in one module (local imports dropped); torchvision, tqdm, utils.misc,
#   models.simclr_backbone, datasets.load_open_data and simclr.augmentation_simclr (not in the venv or
#   not fetched) replaced by stand-ins: an identity-ish `tqdm` with set_description/update/close, the
#   usual AverageMeter, a tiny conv backbone with an `fc` layer for `get_backbone`, and a dataset of 32
#   seeded random 3x16x16 images whose two "views" are two seeded noisy copies (TransformSimCLR's role).
# - `parser.parse_args()` -> `parser.parse_args([...])`: --workers 0 --batch_size 8 --epochs 2
#   --projection_size 16 --out <temp folder>; `torch.device('cuda', args.gpu_id)` gets a CPU fallback
#   (`if torch.cuda.is_available() else torch.device('cpu')`); the projector's 2048 hidden units -> 64;
#   the CIFAR10 download -> the stand-in dataset; a print of the last average loss and a checksum
#   print at the end.
# train, main, ContrastiveLoss and SimCLR are otherwise the source's lines.
import os
import tempfile
import numpy as np
import torch
import argparse
import time
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, RandomSampler, Dataset
import logging


# ---- stand-ins: tqdm, utils.misc.AverageMeter, backbone, dataset ----
class tqdm:
    def __init__(self, iterable):
        self.iterable = iterable
        self.desc = ""

    def set_description(self, desc):
        self.desc = desc

    def update(self):
        pass

    def close(self):
        pass


class AverageMeter(object):
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


class _TinyBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(self.conv(x))


def get_backbone(name, pretrained=False):
    return _TinyBackbone()


class _TwoViews(Dataset):
    def __init__(self):
        g = torch.Generator().manual_seed(0)
        self.x = torch.rand(32, 3, 16, 16, generator=g)
        self.n1 = 0.1 * torch.randn(32, 3, 16, 16, generator=g)
        self.n2 = 0.1 * torch.randn(32, 3, 16, 16, generator=g)

    def __len__(self):
        return 32

    def __getitem__(self, i):
        return (self.x[i] + self.n1[i], self.x[i] + self.n2[i]), 0


# ---- simclr/contrastive_loss.py ----
class ContrastiveLoss(nn.Module):
    def __init__(self, batch_size, temperature=0.5):
        super().__init__()
        self.batch_size = batch_size
        self.temperature = temperature
        self.criterion = nn.CrossEntropyLoss(reduction="sum")
        mask = torch.ones((2*batch_size, 2*batch_size),dtype=bool)
        mask = mask.fill_diagonal_(0)
        for i in range(batch_size):
            mask[i, batch_size + i] = 0
            mask[batch_size + i, i] = 0
        self.mask = mask

    def forward(self, z_i, z_j):
        z = torch.cat([z_i, z_j], dim=0)
        similarity_matrix = F.cosine_similarity(z.unsqueeze(1), z.unsqueeze(0), dim=2) / self.temperature

        sim_ij = torch.diag(similarity_matrix, self.batch_size)
        sim_ji = torch.diag(similarity_matrix, -self.batch_size)

        positives = torch.cat((sim_ij, sim_ji), dim=0).reshape(2*self.batch_size, 1)
        negatives = similarity_matrix[self.mask].reshape(2*self.batch_size, -1)

        logits = torch.cat((positives, negatives), dim=1)
        labels = torch.zeros(2*self.batch_size).to(positives.device).long()
        loss = self.criterion(logits, labels) / (2*self.batch_size)
        return loss


# ---- simclr/simclr.py ----
class SimCLR(nn.Module):
    def __init__(self, encoder, projection_size, n_features):
        super().__init__()
        self.enc = encoder
        self.n_features = n_features

        self.enc.fc = nn.Identity()  # remove final fully connected layer.

        #Non-Linear Projection with a ReLU
        self.projector = nn.Sequential(
            nn.Linear(self.n_features, 64),
            nn.ReLU(),
            nn.Linear(64, projection_size)
        )

    def forward(self, x):
        embedding = self.enc(x)
        out = self.projector(embedding)
        return embedding, out


# ---- train_simclr.py ----
logger = logging.getLogger(__name__)

parser = argparse.ArgumentParser(description='SimCLR')
parser.add_argument('--gpu-id', default='0', type=int,
                    help='id(s) for CUDA_VISIBE_DEVICES')
parser.add_argument('--workers', type=int, default=4,
                    help='number of workers')
parser.add_argument('--in_data', default='cifar10-animals', type=str,
                    choices=['cifar10-animals', 'cifar10', 'cifar100'], help='dataset name')
parser.add_argument('--ood_data', default='cifar10-others', type=str,
                    choices=['cifar10-others', 'svhn', 'cifar100'], help='dataset name')
parser.add_argument('--num_labeled', type=int, default=1200,
                    help='number of labeled samples')
parser.add_argument('--num_val', type=int, default=0,
                    help='number of validation samples')
parser.add_argument('--num_ood', type=int, default=50000,
                    help='number of OOD samples')
parser.add_argument('--backbone', default='resnet18', type=str,
                    help='network architecture')
parser.add_argument('--projection_size', type=int, default=128,
                    help=' project the representation to a 128-dimensional latent space')
parser.add_argument('--optimizer', default='Adam', type=str,
                    choices=['Adam', 'SGD'])
parser.add_argument('--lr', default=1e-3, type=float,
                    help='learning rate in Adam')
parser.add_argument('--weight_decay', default=1e-6, type=float,
                    help='weight decay rate in Adam')
parser.add_argument('--temperature', default=0.5, type=float,
                    help='Temperature in contrastive loss')
parser.add_argument('--image_size', default=32, type=int,
                    help='resized images size')
parser.add_argument('--batch_size', default=512, type=int,
                    help='batch_size')
parser.add_argument('--epochs', default=1000, type=int,
                    help='training epochs')
parser.add_argument('--out', default='pretrain_results',
                    help='directory to output the result')
parser.add_argument('--resume', default='', type=str,
                    help='path to latest checkpoint (default: none)')

args = parser.parse_args(['--workers', '0', '--batch_size', '8', '--epochs', '2', '--projection_size', '16',
                          '--out', tempfile.gettempdir()])
np.random.seed(0)
torch.backends.cudnn.benchmark = True


def save_checkpoint(state, checkpoint='args.out'):
    filename = args.backbone + '_' + args.in_data + '_' + args.ood_data + '_model.pth.tar'
    filepath = os.path.join(checkpoint, filename)
    torch.save(state, filepath)


def train(model, train_loader, criterion, optimizer, scheduler=None):
    batch_time = AverageMeter()
    losses = AverageMeter()
    end = time.time()

    args.start_epoch = 0
    for epoch in range(args.start_epoch, args.epochs):
        model.train()
        p_bar = tqdm(range(len(train_loader)))
        for batch_idx, ((x_i, x_j), _) in enumerate(train_loader):
            x_i = x_i.to(args.device)
            x_j = x_j.to(args.device)

            h_i, z_i = model(x_i)
            h_j, z_j = model(x_j)

            loss = criterion(z_i, z_j)

            losses.update(loss.item())

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if scheduler:
                scheduler.step()

            batch_time.update(time.time() - end)
            end = time.time()

            p_bar.set_description(
                "Train Epoch: {epoch}/{epochs}. Iter: {batch}/{iter}. Batch: {bt:.3f}s. Loss: {loss:.4f}.".format(
                    epoch=epoch + 1,
                    epochs=args.epochs,
                    batch=batch_idx + 1,
                    iter=len(train_loader),
                    bt=batch_time.avg,
                    loss=losses.avg))
            p_bar.update()
        p_bar.close()

        if epoch % 50 == 0:
            save_checkpoint(model.state_dict(), args.out)
    print("last average loss", round(losses.avg, 6))


def main():
    device = torch.device('cuda', args.gpu_id) if torch.cuda.is_available() else torch.device('cpu')
    args.world_size = 4
    args.n_gpu = torch.cuda.device_count()
    args.device = device

    logging.basicConfig(
        format="%(asctime)s - %(levelname)s - %(name)s -   %(message)s",
        datefmt="%m/%d/%Y %H:%M:%S",
        level=logging.INFO)

    logger.warning(
        f"device: {args.device}, "
        f"n_gpu: {args.n_gpu}")

    logger.info(dict(args._get_kwargs()))

    if args.in_data == 'cifar10-animals':
        args.num_classes = 6
        dataset = _TwoViews()

        train_loader = torch.utils.data.DataLoader(
            dataset, shuffle=True, drop_last=True,
            batch_size=args.batch_size, num_workers=args.workers
            )
    else:
        raise NotImplementedError

    encoder = get_backbone(args.backbone, pretrained=False)
    n_features = encoder.fc.in_features
    print("n_features: ", n_features)

    model = SimCLR(encoder, args.projection_size, n_features)
    model = model.to(args.device)

    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    criterion = ContrastiveLoss(args.batch_size, args.temperature)
    train(model, train_loader, criterion, optimizer)
    print("checksum", round(sum(p.double().sum().item() for p in model.parameters()), 6))


if __name__ == '__main__':
    torch.manual_seed(0)
    main()
