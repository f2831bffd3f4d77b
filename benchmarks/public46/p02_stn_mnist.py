# Public check 46, p02: hololee/spatial_tranformer_network `spatial transform.py` @ 50efefb9 (STN on MNIST).
# Changes to run on the CPU in seconds (the source's own lines are unchanged unless listed):
#  1. torchvision and matplotlib are not installed: the stand-in block below replaces their imports (a synthetic
#     "MNIST" of 128 train / 64 test images, Compose/ToTensor/Normalize as no-ops, make_grid, a plot stub), and
#     adds `import numpy as np` (the source uses `np` in `convert_image_np` without importing it).
#  2. seeds (`torch.manual_seed(0)`); `num_workers=4` -> `num_workers=0` (in-memory synthetic data).
#  3. the final loop `for epoch in range(1, 20 + 1)` -> `range(1, 2 + 1)`.
#  4. `net.stn(data)` -> `net.spatial_transformer(data)` in `visualize_stn` (the source's model has no `stn`: the
#     original crashes there with AttributeError).
#  5. a checksum of the weights is printed at the end.
import torch
import torch.nn as nn

# ---- stand-ins (torchvision, matplotlib) ----
import types
import numpy as np

torch.manual_seed(0)


class _MNIST(torch.utils.data.Dataset):
    def __init__(self, root, train=True, download=False, transform=None):
        g = torch.Generator().manual_seed(1 if train else 2)
        n = 128 if train else 64
        self.x = torch.rand(n, 1, 28, 28, generator=g)
        self.y = torch.randint(0, 10, (n,), generator=g)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def _make_grid(t):
    return torch.cat(list(t.expand(-1, 3, -1, -1)), dim=2)


datasets = types.SimpleNamespace(MNIST=_MNIST)
transforms = types.SimpleNamespace(Compose=lambda ts: None, ToTensor=lambda: None, Normalize=lambda m, s: None)
torchvision = types.SimpleNamespace(utils=types.SimpleNamespace(make_grid=_make_grid))


class _Ax:
    def imshow(self, *a, **k):
        pass

    def set_title(self, *a, **k):
        pass


plt = types.SimpleNamespace(subplots=lambda r, c: (None, [_Ax() for _ in range(c)]), show=lambda: None)
# ---- end of stand-ins ----

import os

os.environ["TORCH_HOME"] = "./data"

device_no = 1
device = torch.device(device_no if torch.cuda.is_available() else "cpu")

# Training dataset
train_loader = torch.utils.data.DataLoader(
    datasets.MNIST(root='.', train=True, download=True,
                   transform=transforms.Compose([
                       transforms.ToTensor(),
                       transforms.Normalize((0.1307,), (0.3081,))
                   ])), batch_size=64, shuffle=True, num_workers=0)
# Test dataset
test_loader = torch.utils.data.DataLoader(
    datasets.MNIST(root='.', train=False, transform=transforms.Compose([
        transforms.ToTensor(),
        transforms.Normalize((0.1307,), (0.3081,))
    ])), batch_size=64, shuffle=True, num_workers=0)


class Net(nn.Module):

    def __init__(self):
        super(Net, self).__init__()

        self.conv1 = nn.Conv2d(1, 10, kernel_size=(5, 5))
        self.conv2 = nn.Conv2d(10, 20, kernel_size=(5, 5))
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

        self.localization = nn.Sequential(
            nn.Conv2d(1, 8, kernel_size=(7, 7)),
            nn.MaxPool2d(kernel_size=(2, 2), stride=(2, 2)),
            nn.ReLU(True),
            nn.Conv2d(8, 10, kernel_size=(5, 5)),
            nn.MaxPool2d(kernel_size=(2, 2), stride=(2, 2)),
            nn.ReLU(True)
        )

        self.fc_loc = nn.Sequential(
            nn.Linear(10 * 3 * 3, 32),
            nn.ReLU(True),
            nn.Linear(32, 3 * 2)
        )

        # Initialize the weights/bias with identity transformation
        self.fc_loc[2].weight.data.zero_()
        self.fc_loc[2].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    def spatial_transformer(self, x):
        data = self.localization(x)
        data = data.view(-1, 10 * 3 * 3)
        theta = self.fc_loc(data)
        theta = theta.view(-1, 2, 3)  # 6 element array.

        grid = torch.nn.functional.affine_grid(theta, size=x.size())
        sampled_data = torch.nn.functional.grid_sample(x, grid)

        return sampled_data

    def forward(self, x):
        x = self.spatial_transformer(x)

        x = self.conv1(x)
        x = nn.functional.max_pool2d(x, (2, 2))
        x = nn.functional.relu(x)
        x = self.conv2(x)
        x = self.conv2_drop(x)
        x = nn.functional.max_pool2d(x, (2, 2))
        x = nn.functional.relu(x)
        x = x.view(-1, 320)
        x = self.fc1(x)
        x = nn.functional.relu(x)
        x = nn.functional.dropout(x, training=self.training)  # module param maybe.
        x = self.fc2(x)

        return nn.functional.log_softmax(x, dim=1)


net = Net().to(device)

optimizer = torch.optim.SGD(net.parameters(), lr=0.01)


def train(epoch):
    net.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)

        optimizer.zero_grad()
        output = net(data)

        loss = nn.functional.nll_loss(output, target)
        loss.backward()
        optimizer.step()

        if batch_idx % 500 == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset),
                       100. * batch_idx / len(train_loader), loss.item()))


def test():
    net.eval()
    t_test_loss = 0

    for data, target in test_loader:
        data, target = data.to(device), target.to(device)

        output = net(data)

        test_loss = nn.functional.nll_loss(output, target)
        t_test_loss += test_loss
        print("test_loss : ", test_loss)

        pred = output.max(1, keepdim=True)[1]
        # print("predict val : ", pred)

        avg_loss = t_test_loss / len(test_loader.dataset)
        print("avg_loss : ", avg_loss)


epoch = 5
train(epoch)
test()


def convert_image_np(inp):
    """Convert a Tensor to numpy image."""
    inp = inp.numpy().transpose((1, 2, 0))
    mean = np.array([0.485, 0.456, 0.406])
    std = np.array([0.229, 0.224, 0.225])
    inp = std * inp + mean
    inp = np.clip(inp, 0, 1)
    return inp


# We want to visualize the output of the spatial transformers layer
# after the training, we visualize a batch of input images and
# the corresponding transformed batch using STN.


def visualize_stn():
    with torch.no_grad():
        # Get a batch of training data
        data = next(iter(test_loader))[0].to(device)

        input_tensor = data.cpu()
        transformed_input_tensor = net.spatial_transformer(data).cpu()

        in_grid = convert_image_np(
            torchvision.utils.make_grid(input_tensor))

        out_grid = convert_image_np(
            torchvision.utils.make_grid(transformed_input_tensor))

        # Plot the results side-by-side
        f, axarr = plt.subplots(1, 2)
        axarr[0].imshow(in_grid)
        axarr[0].set_title('Dataset Images')

        axarr[1].imshow(out_grid)
        axarr[1].set_title('Transformed Images')



for epoch in range(1, 2 + 1):
    train(epoch)
    test()

# Visualize the STN transformation on some input batch
visualize_stn()

plt.show()

print('checksum', round(sum(p.double().sum().item() for p in net.parameters()), 6))
