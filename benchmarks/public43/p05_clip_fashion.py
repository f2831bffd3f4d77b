"""Public check 43, p05: CLIP-style contrastive training of an image encoder and a text encoder (labels as captions).

Source: https://github.com/SpottedBush/CLIP-Vision-NLP  data/dataset_getter.py @ 4fc104df, training/train.py @
2ed360c1, evaluation/evaluate.py @ 2ed360c1, main.py @ 2ed360c1 (the files in this order; main.py's local imports
`from data.dataset_getter import ...`, `from training.train import ...`, `from evaluation.evaluate import ...` dropped
since the files are one here).

Changes to make it run on the CPU in seconds:
- `model/clip.py`'s `load_clip_model` -> a stand-in below (the stored version returns a CLIPModel and a processor, two
  values, where main.py unpacks three: an image encoder, a text encoder and a tokenizer, as `train_clip` uses them):
  a patch-embedding image encoder (hidden 768, as ViT-base) and an embedding text encoder (hidden 312, as TinyBERT),
  both answering `last_hidden_state` and a 32-wide `pooler_output` (the source's evaluation multiplies the two
  pooler outputs, which needs equal widths), and a character tokenizer answering `input_ids`/`attention_mask`.
- `transformers` (not installed; `AutoTokenizer` only used when loading saved models) -> an empty stand-in.
- `torchvision` (not installed) -> a stand-in: `datasets.ImageFolder` gives 64 seeded random 3x16x16 images with 4
  labels, `transforms` pass through. `tqdm` -> a stand-in returning the iterable.
- the Kaggle download is skipped: the dataset folder is created in a temporary directory the program runs in (it
  saves the models under `models/`).
- seeds (`torch`) set below.
- a `checksum` print at the end.
The source's lines are otherwise unchanged.
"""
# ---- stand-ins: model/clip.py, transformers, torchvision, tqdm, a temporary directory; seeds ----
import importlib.machinery as _machinery
import os as _os
import sys as _sys
import tempfile as _tempfile
import types as _types
import torch as _torch


def _module(name, **attrs):
    mod = _types.ModuleType(name)
    mod.__spec__ = _machinery.ModuleSpec(name, None)
    mod.__dict__.update(attrs)
    _sys.modules[name] = mod
    return mod


class _ImageFolder:
    def __init__(self, root, transform=None):
        g = _torch.Generator().manual_seed(0)
        self._imgs = _torch.rand(64, 3, 16, 16, generator=g)
        self._labels = _torch.randint(0, 4, (64,), generator=g).tolist()
        self.transform = transform
    def __len__(self):
        return len(self._imgs)
    def __getitem__(self, i):
        return self.transform(self._imgs[i]), self._labels[i]


class _Compose:
    def __init__(self, ts):
        self.ts = ts
    def __call__(self, x):
        for t in self.ts:
            x = t(x)
        return x


_passthrough = lambda *a, **k: (lambda x: x)
_tv = _module("torchvision")
_tv.datasets = _module("torchvision.datasets", ImageFolder=_ImageFolder)
_tv.transforms = _module("torchvision.transforms", Compose=_Compose, Resize=_passthrough, ToTensor=_passthrough)
_module("transformers", AutoTokenizer=None)
_module("tqdm", tqdm=lambda it, **kw: it)


class _Out:
    def __init__(self, hidden, pooled):
        self.last_hidden_state, self.pooler_output = hidden, pooled


class _ImageEncoder(_torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = _torch.nn.Conv2d(3, 768, kernel_size=8, stride=8)
        self.pool = _torch.nn.Linear(768, 32)
    def forward(self, pixel_values):
        h = self.patch(pixel_values).flatten(2).transpose(1, 2)
        return _Out(h, self.pool(h[:, 0]))


class _TextEncoder(_torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = _torch.nn.Embedding(128, 312)
        self.pool = _torch.nn.Linear(312, 32)
    def forward(self, input_ids, attention_mask=None):
        h = self.emb(input_ids)
        return _Out(h, self.pool(h[:, 0]))


def _tokenizer(texts, return_tensors="pt", padding=True, truncation=True, max_length=512):
    ids = [[ord(c) % 128 for c in t][:max_length] for t in texts]
    n = max(len(i) for i in ids)
    return {"input_ids": _torch.tensor([i + [0] * (n - len(i)) for i in ids]),
            "attention_mask": _torch.tensor([[1] * len(i) + [0] * (n - len(i)) for i in ids])}


def load_clip_model():
    return _ImageEncoder(), _TextEncoder(), _tokenizer


_workdir = _tempfile.mkdtemp(prefix="pub43_p05_")
_os.makedirs(_os.path.join(_workdir, "data", "fashion-product-images-small"))
_os.chdir(_workdir)
_torch.manual_seed(0)
# ---- end of stand-ins ----

# ===== data/dataset_getter.py =====
import os
import zipfile
import torchvision.transforms as transforms
from torchvision import datasets

def get_fashion_product_data(data_path):
    kaggle_dataset = "paramaggarwal/fashion-product-images-small"
    dataset_zip_path = os.path.join(data_path, "fashion-product-images-small.zip")
    dataset_folder_path = os.path.join(data_path, "fashion-product-images-small")

    if not os.path.exists(dataset_folder_path):
        print("Dataset not found. Downloading from Kaggle...")
        os.system(f"kaggle datasets download -d {kaggle_dataset} -p {data_path}")
        
        with zipfile.ZipFile(dataset_zip_path, "r") as zip_ref:
            zip_ref.extractall(data_path)
        print("Dataset downloaded and extracted.")

    transform = transforms.Compose([
        transforms.Resize((224, 224)),
        transforms.ToTensor(),
    ])
    
    # Load dataset
    dataset = datasets.ImageFolder(root=dataset_folder_path, transform=transform)
    return dataset

# ===== training/train.py =====
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from tqdm import tqdm
from pathlib import Path


def cosine_similarity(image_features, text_features):
    """
    Computes the cosine similarity between image and text features.
    """
    image_features = F.normalize(image_features, p=2, dim=1)  # Normalize to [batch_size, feature_dim]
    text_features = F.normalize(text_features, p=2, dim=1)

    return torch.matmul(image_features, text_features.T)  # [batch_size, batch_size]    

def clip_contrastive_loss(logits_per_image, logits_per_text):
    """
    Computes the symmetric contrastive loss for CLIP.
    
    logits_per_image: Cosine similarities between image embeddings and text embeddings.
    logits_per_text: Cosine similarities between text embeddings and image embeddings.
    """
    # The target is simply the indices of the images/texts since each image corresponds to a unique text and vice versa
    batch_size = logits_per_image.size(0)
    labels = torch.arange(batch_size, dtype=torch.long, device=logits_per_image.device)

    # Cross-entropy loss for both image->text and text->image
    loss_image_to_text = F.cross_entropy(logits_per_image, labels)
    loss_text_to_image = F.cross_entropy(logits_per_text, labels)

    # Return the mean of both losses
    return (loss_image_to_text + loss_text_to_image) / 2

def train_clip(img_model, txt_model, tokenizer, dataset, num_epochs=5, batch_size=32, save_path="models/"):
    Path(save_path).mkdir(parents=True, exist_ok=True)  # Ensure the directory exists

    dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
    optimizer = torch.optim.AdamW(
        list(img_model.parameters()) + list(txt_model.parameters()), lr=5e-5
    )

    img_model.train()
    txt_model.train()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    img_model.to(device)
    txt_model.to(device)

    img_linear_layer = torch.nn.Linear(768, 32).to(device)
    txt_linear_layer = torch.nn.Linear(312, 32).to(device)

    for epoch in range(num_epochs):
        epoch_loss = 0
        for batch in tqdm(dataloader, desc=f"Epoch {epoch + 1}/{num_epochs}"):
            images, labels = batch
            texts = [str(label) for label in labels]
            
            tokenized_texts = tokenizer(
            texts, return_tensors="pt", padding=True, truncation=True, max_length=77
            )
            
            images = images.to(device)
            tokenized_texts = {key: val.to(device) for key, val in tokenized_texts.items()}

            image_features = img_model(images).last_hidden_state.mean(dim=1)
            text_features = txt_model(**tokenized_texts).last_hidden_state.mean(dim=1)

            image_features = img_linear_layer(image_features)
            text_features = txt_linear_layer(text_features)

            logits_per_image = cosine_similarity(image_features, text_features)
            logits_per_text = logits_per_image.T

            loss = clip_contrastive_loss(logits_per_image, logits_per_text)

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            epoch_loss += loss.item()

        print(f"Epoch {epoch + 1} completed. Loss: {epoch_loss / len(dataloader)}")

        # Save at the end of each epoch
        # Comment out if you want to save every epoch of the models
        # torch.save(img_model.state_dict(), f"{save_path}img_model_epoch_{epoch + 1}.pth")
        # torch.save(txt_model.state_dict(), f"{save_path}txt_model_epoch_{epoch + 1}.pth")
        # torch.save(img_linear_layer.state_dict(), f"{save_path}img_linear_layer_epoch_{epoch + 1}.pth")
        # torch.save(txt_linear_layer.state_dict(), f"{save_path}txt_linear_layer_epoch_{epoch + 1}.pth")
        # torch.save(optimizer.state_dict(), f"{save_path}optimizer_epoch_{epoch + 1}.pth")
    torch.save(txt_model, f"{save_path}txt_model_complete.pth")
    torch.save(img_model, f"{save_path}img_model_complete.pth")
    torch.save(optimizer, f"{save_path}optimizer_complete.pth")
    
    print("Training completed and models saved.")

# ===== evaluation/evaluate.py =====
# evaluate.py
import torch
from torch.utils.data import DataLoader

def evaluate_clip(img_model, txt_model, tokenizer, dataset, batch_size=32):
    dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=False)
    
    img_model.eval()
    txt_model.eval()

    correct_image_to_text = 0
    correct_text_to_image = 0
    total = 0

    with torch.no_grad():
        for images, labels in dataloader:
            texts = [str(label) for label in labels]  # Convert labels to strings

            # Tokenize text inputs
            tokenized_texts = tokenizer(
                texts, return_tensors="pt", padding=True, truncation=True
            )
            
            # Move inputs to GPU if available
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            images = images.to(device)
            tokenized_texts = {key: val.to(device) for key, val in tokenized_texts.items()}
            img_model.to(device)
            txt_model.to(device)

            # Forward pass
            image_features = img_model(images).pooler_output
            text_features = txt_model(**tokenized_texts).pooler_output
            print(image_features.shape, text_features.shape)
            print(text_features)
            # Compute logits
            logits_per_image = torch.matmul(image_features, text_features.T)
            logits_per_text = logits_per_image.T  # Symmetry

            # Predictions
            predicted_text_idx = logits_per_image.argmax(dim=1)
            predicted_image_idx = logits_per_text.argmax(dim=1)
            
            # Ground truth indices
            ground_truth_indices = torch.arange(len(images)).to(device)
            print("-" * 50)
            print(predicted_text_idx, ground_truth_indices)
            
            # Accuracy calculations
            correct_image_to_text += (predicted_text_idx == ground_truth_indices).sum().item()
            correct_text_to_image += (predicted_image_idx == ground_truth_indices).sum().item()
            total += len(images)

    # Calculate accuracies
    image_to_text_acc = correct_image_to_text / total * 100
    text_to_image_acc = correct_text_to_image / total * 100

    print(f"Image-to-Text Accuracy: {image_to_text_acc:.2f}%")
    print(f"Text-to-Image Accuracy: {text_to_image_acc:.2f}%")

# ===== main.py =====
# main.py
import sys
import torch
from transformers import AutoTokenizer



DATA_PATH = 'data/'

if __name__ == "__main__":
    img_model = None
    txt_model = None
    tokenizer = None
    dataset = get_fashion_product_data(DATA_PATH)
    if len(sys.argv) != 1 and len(sys.argv) != 4:
        print("Usage: python main.py [img_model_path txt_model_path tokenizer_path] or python main.py")
    
    elif len(sys.argv) == 4:
        print("Loading model from", sys.argv[1], "and", sys.argv[2])
        img_model = torch.load(sys.argv[1], weights_only=False)
        txt_model = torch.load(sys.argv[2], weights_only=False)
        tokenizer = torch.load(sys.argv[3], weights_only=False)
        tokenizer = AutoTokenizer.from_pretrained("huawei-noah/TinyBERT_General_4L_312D")
        
        
    else:
        print("Training model from scratch")
        img_model, txt_model, tokenizer = load_clip_model()
        train_clip(img_model, txt_model, tokenizer, dataset, num_epochs=5)

    evaluate_clip(img_model, txt_model, tokenizer, dataset)
    print("checksum", round(sum(float(p.detach().double().sum()) for p in img_model.parameters()), 6),
          round(sum(float(p.detach().double().sum()) for p in txt_model.parameters()), 6))
