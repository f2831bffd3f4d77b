"""Public check 42, p05: captcha OCR, a CNN + bidirectional GRU trained with CTC loss (greedy decoding in validation).

Source: https://github.com/ArivCR7/CaptchaRecognition  config.py, dataset.py, model.py, engine.py, train.py @ eae7cf8f
(the five modules in their import order; their cross-module imports `import config`, `import dataset`,
`import engine`, `from model import CaptchaModel` are replaced by the namespace lines marked `# (module)` since the
modules are one here).

Changes to make it run on the CPU in seconds:
- `albumentations`, `PIL`, `sklearn`, `tqdm` (not installed) and `./input/captcha_images_v2/*.png` -> stand-ins:
  a temporary folder of 16 empty `<5 characters>.png` files (19 characters), `Image.open` answering a seeded
  75x300 RGB image per file name, `albumentations.Normalize` (ImageNet mean/std), `LabelEncoder`,
  `train_test_split` (seeded permutation), a `tqdm` that iterates.
- config: `EPOCHS = 300` -> `EPOCHS = 2`; `DEVICE = 'cuda'` -> `DEVICE = 'cuda' if torch.cuda.is_available() else 'cpu'`.
- `ReduceLROnPlateau(..., verbose=True)` -> without `verbose=True` (torch 2.13 no longer takes the argument).
- one torch thread, seeds; a `checksum` print at the end.
The source's lines are otherwise unchanged.
"""
# ---- stand-ins: albumentations, PIL.Image, sklearn, tqdm; a folder of captcha files ----
import os as _os
import sys as _sys
import tempfile as _tempfile
import types as _types
import zlib as _zlib
from importlib.machinery import ModuleSpec as _ModuleSpec
import numpy as _np
import torch as _torch


def _module(name):
    m = _types.ModuleType(name)
    m.__spec__ = _ModuleSpec(name, None)
    return m


_torch.manual_seed(0)
_torch.set_num_threads(1)
_rng = _np.random.RandomState(0)
_os.chdir(_tempfile.mkdtemp(prefix="pub42_p05_"))
_os.makedirs("input/captcha_images_v2")
for _k in range(16):
    open("input/captcha_images_v2/%s.png" % "".join(_rng.choice(list("2345678bcdefgmnpwxy"), 5)), "w").close()


class _Image:
    BILINEAR = 2

    def __init__(self, path):
        rng = _np.random.RandomState(_zlib.crc32(_os.path.basename(path).encode()))
        self.pixels = (rng.rand(75, 300, 3) * 255).astype(_np.uint8)

    @classmethod
    def open(cls, path):
        return cls(path)

    def convert(self, mode):
        return self

    def resize(self, size, resample=None):
        return self

    def __array__(self, dtype=None, copy=None):
        return self.pixels


class _Normalize:
    def __init__(self, always_apply=False):
        pass

    def __call__(self, image):
        return (image / 255.0 - _np.array([0.485, 0.456, 0.406])) / _np.array([0.229, 0.224, 0.225])


class _Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, image):
        for t in self.transforms:
            image = t(image)
        return {"image": image}


class _LabelEncoder:
    def fit(self, values):
        self.classes_ = _np.array(sorted(set(values)))
        return self

    def transform(self, values):
        return _np.array([int(_np.searchsorted(self.classes_, v)) for v in values])

    def inverse_transform(self, codes):
        return self.classes_[_np.asarray(codes)]


def _train_test_split(*arrays, test_size=0.25, random_state=0):
    n = len(arrays[0])
    idx = _np.random.RandomState(random_state).permutation(n)
    n_test = int(_np.ceil(n * test_size))
    out = []
    for a in arrays:
        out += [[a[i] for i in idx[n_test:]], [a[i] for i in idx[:n_test]]]
    return out


_alb = _module("albumentations")
_alb.Compose, _alb.Normalize = _Compose, _Normalize
_pil = _module("PIL")
_pil.Image = _Image
_sk = _module("sklearn")
_sk.preprocessing = _types.SimpleNamespace(LabelEncoder=_LabelEncoder)
_sk.model_selection = _types.SimpleNamespace(train_test_split=_train_test_split)
_sk.metrics = _types.SimpleNamespace()
_tq = _module("tqdm")
_tq.tqdm = lambda iterable, total=None: iterable
_sys.modules.update({"albumentations": _alb, "PIL": _pil, "sklearn": _sk, "tqdm": _tq})
# ---- end of stand-ins ----

# ===== config.py =====
import torch
config = _types.SimpleNamespace()  # (module)
config.DATA_DIR = "./input/captcha_images_v2"
config.BATCH_SIZE = 8
config.IMAGE_HEIGHT = 75
config.IMAGE_WIDTH = 300
config.EPOCHS = 2
config.DEVICE = 'cuda' if torch.cuda.is_available() else 'cpu'

# ===== dataset.py =====
import albumentations
import torch
import numpy as np
from PIL import Image


class Classification:
    def __init__(self, image_paths, targets, resize=None):
        self.image_paths = image_paths
        self.targets = targets
        self.resize = resize
        self.aug = albumentations.Compose([
            albumentations.Normalize(always_apply=True)
        ])

    def __len__(self):
        return len(self.image_paths)
    
    def __getitem__(self, idx):
        image = Image.open(self.image_paths[idx]).convert('RGB')
        target = self.targets[idx]

        if self.resize is not None:
            image = image.resize((self.resize[1], self.resize[0]), resample=Image.BILINEAR)

        image = np.array(image)
        augmentation = self.aug(image=image)
        image = augmentation['image']

        image = np.transpose(image, (2,1,0)).astype(np.float32)

        return {
            'images': torch.tensor(image, dtype=torch.float),
            'targets': torch.tensor(target, dtype=torch.long)
        }


dataset = _types.SimpleNamespace(Classification=Classification)  # (module)

# ===== model.py =====
import torch
from torch import nn
from torch.nn import functional as F

class CaptchaModel(nn.Module):
    def __init__(self, num_chars):
        super(CaptchaModel, self).__init__()
        self.conv1 = nn.Conv2d(3, 128, kernel_size=(3,6), padding=(1,1))
        self.maxpool1 = nn.MaxPool2d(kernel_size=(2,2))
        self.conv2 = nn.Conv2d(128, 64, kernel_size=(3,6), padding=(1,1))
        self.maxpool2 = nn.MaxPool2d(kernel_size=(2,2))
        self.linear1 = nn.Linear(4800, 64)
        self.dropout1 = nn.Dropout(0.3)
        self.gru1 = nn.GRU(64, 32, num_layers=2, bidirectional=True, dropout=0.25, batch_first=True)
        self.output = nn.Linear(64, num_chars+1)

    def forward(self, images, targets=None):
        bs, _, _, _ = images.size()
        #print(images.shape)
        x = F.relu(self.conv1(images))
        #print(x.shape)
        x = self.maxpool1(x)
        #print(x.shape)
        x = F.relu(self.conv2(x))
        #print(x.shape)
        x = self.maxpool2(x)
        #print(x.shape)
        x = x.permute(0, 3, 1, 2)
        #print(x.shape)
        x = x.view(bs, x.size(1), -1)
        #print(x.shape)
        x = F.relu(self.linear1(x))
        #print(x.shape)
        x = self.dropout1(x) 

        x, _ = self.gru1(x) # 1, 75, 64
        x = self.output(x) # 1, 75, 20
        x = x.permute(1, 0, 2) # 75, 1, 20
        if targets is not None:
            log_softmax_values = F.log_softmax(x, 2)
            input_lengths = torch.full(
                size = (bs,), fill_value=log_softmax_values.size(0), dtype=torch.int32
            )
            target_lengths = torch.full(
                size=(bs,), fill_value=targets.size(1), dtype=torch.int32
            )
            loss = nn.CTCLoss(blank=0)(log_softmax_values, targets, input_lengths, target_lengths)
            return x, loss
        return x, None

# ===== engine.py =====
from tqdm import tqdm
import torch

def train(model, dataloader, optimizer):
    model.train()
    fin_loss = 0
    tk0 = tqdm(dataloader, total=len(dataloader))
    for data in tk0:
        for k, v in data.items():
            data[k] = v.to(config.DEVICE)
        optimizer.zero_grad()
        _, loss = model(**data)
        loss.backward()
        optimizer.step()
        fin_loss += loss.item()
        #eval(model, dataloader)
    return fin_loss / len(dataloader)

def eval(model, dataloader):
    model.eval()
    fin_loss = 0
    fin_preds = []
    tk0 = tqdm(dataloader, total=len(dataloader))
    with torch.no_grad():
        for data in tk0:
            for k, v in data.items():
                data[k] = v.to(config.DEVICE)    
            batch_preds, loss = model(**data)
            fin_loss += loss.item()
            fin_preds.append(batch_preds)
    return fin_preds, fin_loss / len(dataloader)


engine = _types.SimpleNamespace(train=train, eval=eval)  # (module)

# ===== train.py =====
import os
import glob
import torch
import numpy as np
from sklearn import preprocessing, model_selection, metrics

def remove_duplicates(x):
    if len(x) < 2:
        return x
    fin = ""
    for j in x:
        if fin == "":
            fin = j
        else:
            if j == fin[-1]:
                continue
            else:
                fin = fin + j
    return fin

def decode_predictions(preds, encoder):
    preds = preds.permute(1, 0, 2)
    preds = torch.softmax(preds, 2)
    preds = torch.argmax(preds, 2)
    preds = preds.detach().cpu().numpy()
    cap_preds = []
    for j in range(preds.shape[0]):
        temp_preds = []
        for k in preds[j, :]:
            k -= 1
            if k == -1:
                temp_preds.append('*')
            else:
                temp_preds.append(encoder.inverse_transform([k])[0])
        tp = "".join(temp_preds).replace("*", "")
        cap_preds.append(remove_duplicates(tp))
    return cap_preds

def run_training():
    image_files = glob.glob(os.path.join(config.DATA_DIR, '*.png'))
    targets_orig = [x.split('/')[-1][:-4] for x in image_files]
    targets = [[c for c in x] for x in targets_orig]
    targets_flat = [c for clist in targets for c in clist]

    label_enc = preprocessing.LabelEncoder()
    label_enc.fit(targets_flat)
    targets_enc = [label_enc.transform(x) for x in targets]
    targets_enc = np.array(targets_enc) + 1

    train_imgs, test_imgs, train_targets, test_targets, train_orig_targets, test_orig_targets = model_selection.train_test_split(
        image_files, targets_enc, targets_orig, test_size=0.1, random_state=42
        )
    
    train_dataset = dataset.Classification(
        image_paths=train_imgs, targets=train_targets, resize=(config.IMAGE_HEIGHT, config.IMAGE_WIDTH))
    
    train_loader = torch.utils.data.DataLoader(
        train_dataset, batch_size=config.BATCH_SIZE, shuffle=True
    )

    test_dataset = dataset.Classification(
        image_paths=test_imgs, targets=test_targets, resize=(config.IMAGE_HEIGHT, config.IMAGE_WIDTH))
    
    test_loader = torch.utils.data.DataLoader(
        test_dataset, batch_size=config.BATCH_SIZE, shuffle=False
    )

    model = CaptchaModel(num_chars=len(label_enc.classes_))
    model = model.to(config.DEVICE)

    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(
        optimizer, factor=0.8, patience=5
    )

    for epoch in range(config.EPOCHS):
        train_loss = engine.train(model, train_loader, optimizer)
        val_preds, valid_loss = engine.eval(model, test_loader)
        print(f"Epoch: {epoch}: Train loss: {train_loss},  Valid loss: {valid_loss}")
        valid_cap_preds = []
        for vp in val_preds:
            current_preds = decode_predictions(vp, label_enc)
            valid_cap_preds.extend(current_preds)
        print(list(zip(test_orig_targets, valid_cap_preds))[6:11])
    print("checksum", round(train_loss, 4), round(valid_loss, 4), valid_cap_preds)

if __name__ == "__main__":
    run_training()
