# corpus: runnable
# Labelled corpus copy of benchmarks/public49/p04 (labels: benchmarks/public49/README.md): a CPU program whose
# training loader decodes a wav file and computes an MFCC per sample in the training process (the loader a
# method returns in a tuple). One change beyond public49's: the stand-in MFCC builds its Hann window once in
# `__init__` (as torchaudio's `MFCC` does) instead of in every `forward`.
# Source: BorisovMaksim/gender_clf @ 19361df4 (no licence file in the stored index): audio_utils.py,
# dataset_generator.py, data_loader.py, model.py, training.py and main.py, in that order, in one file (their
# `from x import y` lines dropped since the names are above). The source's own lines are unchanged unless listed.
# Changes to run on the CPU in seconds:
#   1. torchaudio is not installed: `_torchaudio_load(path)` stands in for `torchaudio.load` (a seeded 4-8 s
#      waveform at 24 kHz, the LibriTTS rate, per file name) and `_MFCC` for `torchaudio.transforms.MFCC` (log |STFT|
#      with n_fft=400, hop 200, projected on 40 cosine rows: the same (1, 40, frames) shape the model's 1408-wide
#      `lin1` expects for 6 s at 24 kHz).
#   2. pandas is not installed and LibriTTS is not here: `Loader.load_speakers_data` returns a seeded reader->gender
#      dict of 12 readers (float32 values: float64 labels
#      would meet the float32 output in `nn.BCELoss`, which this torch refuses); `Loader.load_paths` builds 48 / 16 / 16 `Path`s named `<root>/<reader>/<chapter>/<utt>.wav`
#      (the source parses `reader = int(file.parts[-3])`) and shuffles them as the source does.
#   3. `PATH = '/home/maksim/Data/voice_clf/'` -> `'./'`; `train(..., num_epochs=20)` -> 2; seeds (torch, numpy).
#   4. a checksum print added at the end of `main`.
import math
import os
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import init
import torch.utils.data
from torch.utils.data import Dataset


# ---- change 1: torchaudio stand-ins ----
def _torchaudio_load(audio_file):
    seed = sum(ord(ch) for ch in str(audio_file)) * 7919 % (2 ** 31)
    gen = torch.Generator().manual_seed(seed)
    sr = 24000
    n = int(sr * (4 + 4 * torch.rand(1, generator=gen).item()))
    return torch.randn(1, n, generator=gen) * 0.1, sr


class _MFCC(nn.Module):
    def __init__(self, sample_rate=16000, n_mfcc=40):
        super().__init__()
        self.sample_rate = sample_rate
        k = torch.arange(201, dtype=torch.float32)
        self.register_buffer("window", torch.hann_window(400))
        self.register_buffer("dct", torch.cos(math.pi / 201 * (k + 0.5)[None, :] * torch.arange(n_mfcc)[:, None]))

    def forward(self, waveform):
        spec = torch.stft(waveform, n_fft=400, hop_length=200, window=self.window, return_complex=True)
        return torch.matmul(self.dct, torch.log(spec.abs() + 1e-6))


class torchaudio:  # namespace standing in for the package
    load = staticmethod(_torchaudio_load)


class transforms:  # namespace standing in for torchaudio.transforms
    MFCC = _MFCC


# ---- audio_utils.py ----
class AudioUtil:
    @staticmethod
    def open(audio_file):
        """ Load an audio file. Return the signal as a tensor and the sample rate """
        sig, sr = torchaudio.load(audio_file)
        return sig, sr


    @staticmethod
    def pad_trunc(audio, max_seconds):
        """ Pad (or truncate) given signal to a fixed length 'max_seconds' in seconds """
        signal, sampling_rate = audio
        num_rows, sig_len = signal.shape
        max_len = sampling_rate * max_seconds
        if sig_len > max_len:
            signal = signal[:, :max_len]
        elif sig_len < max_len:
            pad_begin_len = np.random.randint(0, max_len - sig_len)
            pad_end_len = max_len - sig_len - pad_begin_len

            pad_begin = torch.zeros((num_rows, pad_begin_len))
            pad_end = torch.zeros((num_rows, pad_end_len))
            signal = torch.cat((pad_begin, signal, pad_end), 1)
        return signal, sampling_rate



    @staticmethod
    def generate_spectrogram(aud):
        """ Generate a Mel Spectrogram given a pair (signal, sample rate)"""
        sig, sr = aud

        # Using Mel Spectogram
        # top_db = 80
        # spec = transforms.MelSpectrogram(sr,  n_mels=64, n_fft=1024, hop_length=None)(sig.float())
        # mel_spec = transforms.AmplitudeToDB(top_db=top_db).forward(spec)

        # Using MFCC
        mfcc = transforms.MFCC(sample_rate=sr)(sig.float())  # paef: ok redundant-tensor
        return mfcc


    @staticmethod
    def add_noise(audio):
        """ Add uniform noise to audio """
        signal, sampling_rate = audio
        _, sig_len = signal.shape
        signal = signal + np.random.uniform(-0.05, 0.05, sig_len)
        return signal, sampling_rate


# ---- dataset_generator.py ----
class SoundDS(Dataset):
    """ Map-style dataset object, containing pairs (Spectrogram, label) """
    def __init__(self, paths, labels):
        self.paths = paths
        self.labels = labels
        self.duration_seconds = 6

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, idx):
        """
        Read audiofile from disk and preprocess it using:
            1. Pad or truncate  to length of 6 seconds
            2. Add noise
            3. Calculate Spectrogram
        """
        audio_file = self.paths[idx]
        label = self.labels[idx]

        aud = AudioUtil.open(audio_file)
        dur_aud = AudioUtil.pad_trunc(aud, self.duration_seconds)
        noised_aud = AudioUtil.add_noise(dur_aud)
        sgram = AudioUtil.generate_spectrogram(noised_aud)

        # aug_sgram = AudioUtil.spectro_augment(sgram, max_mask_pct=0.1, n_freq_masks=2, n_time_masks=2)

        return sgram, label


# ---- data_loader.py ----
class Loader:
    def __init__(self, path):
        self.path = path
        self.train_path = os.path.join(path, 'train-clean-100/LibriTTS/train-clean-100/')
        self.dev_path = os.path.join(path, 'dev-clean/LibriTTS/dev-clean/')
        self.test_path = os.path.join(path, 'test-clean/LibriTTS/test-clean/')

    def load_speakers_data(self):
        """ Read data about speakers and return dictionary [reader_id -> gender]"""
        rng = np.random.default_rng(seed=3)  # change 2
        return {reader: np.float32(rng.integers(0, 2)) for reader in range(100, 112)}

    def load_paths(self):
        """ Parse filenames from data directory in random order"""
        rng = np.random.default_rng(seed=42)

        def files(root, n):  # change 2
            return np.array([Path(root) / str(100 + i % 12) / str(i % 3) / f"utt_{i}.wav" for i in range(n)])

        train_files = files(self.train_path, 48)
        dev_files = files(self.dev_path, 16)
        test_files = files(self.test_path, 16)

        rng.shuffle(train_files)
        rng.shuffle(dev_files)
        rng.shuffle(test_files)

        return train_files, dev_files, test_files

    def load_dataset(self):
        """ Loading all the necessary data and output Data Loaders for train/dev/test"""

        dict_reader_to_gender = self.load_speakers_data()
        train_files, dev_files, test_files = self.load_paths()

        # reader_id of audiofile = int(file.parts[-3])
        y_train = np.array([dict_reader_to_gender[int(file.parts[-3])] for file in train_files])
        y_dev = np.array([dict_reader_to_gender[int(file.parts[-3])] for file in dev_files])
        y_test = np.array([dict_reader_to_gender[int(file.parts[-3])] for file in test_files])

        train_ds = SoundDS(train_files, y_train)
        dev_ds = SoundDS(dev_files, y_dev)
        test_ds = SoundDS(test_files, y_test)

        train_dl = torch.utils.data.DataLoader(train_ds, batch_size=16, shuffle=True)  # paef: expect sync-dataloader
        dev_dl = torch.utils.data.DataLoader(dev_ds, batch_size=16, shuffle=False)
        test_dl = torch.utils.data.DataLoader(test_ds, batch_size=16, shuffle=False)

        return train_dl, dev_dl, test_dl


# ---- model.py ----
class AudioClassifier(nn.Module):
    """ Audio Classification Model
            Baseline Architecture
            Input: (N, C, W, H) = (16, 1, 64, 282) - Spectrogram

            CONV2D -> MaxPOOL2D -> RELU ->  BatchNorm2D ->
            CONV2D -> MaxPOOL2D -> RELU ->  BatchNorm2D -> FLATTEN -> LINEAR -> LINEAR -> SIGMOID

    """

    def __init__(self):
        super().__init__()
        conv_layers = []

        # First Convolution Block
        self.conv1 = nn.Conv2d(in_channels=1, out_channels=8, kernel_size=(5, 5), stride=(2, 2), padding=(2, 2))
        self.pool1 = nn.MaxPool2d(kernel_size=3, stride=2)
        self.relu1 = nn.ReLU()
        self.bn1 = nn.BatchNorm2d(num_features=8)
        init.kaiming_normal_(self.conv1.weight, a=0.1)
        self.conv1.bias.data.zero_()

        conv_layers += [self.conv1, self.pool1, self.bn1, self.relu1]

        # Second Convolution Block
        self.conv2 = nn.Conv2d(8, 16, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1))
        self.pool2 = nn.MaxPool2d(kernel_size=3, stride=2)
        self.relu2 = nn.ReLU()
        self.bn2 = nn.BatchNorm2d(16)
        init.kaiming_normal_(self.conv2.weight, a=0.1)
        self.conv2.bias.data.zero_()

        conv_layers += [self.conv2, self.pool2, self.bn2, self.relu2]

        # Linear Layers
        self.lin1 = nn.Linear(in_features=1408, out_features=600)
        self.lin2 = nn.Linear(in_features=600, out_features=1)

        self.sigmoid = nn.Sigmoid()

        # Wrap the Convolutional Blocks
        self.conv = nn.Sequential(*conv_layers)


    def forward(self, x):
        """  Forward pass computations """
        x = self.conv(x)

        # Flatten
        x = x.view(x.shape[0], -1)

        x = self.lin1(x)
        x = self.lin2(x)

        x = self.sigmoid(x)
        return x


# ---- training.py ----
def train(model, train_dl, num_epochs):
    """ Training loop, printing accuracy"""
    criterion = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.001,
                                                    steps_per_epoch=int(len(train_dl)),
                                                    epochs=num_epochs,
                                                    anneal_strategy='linear')

    for epoch in range(num_epochs):
        correct_prediction = 0
        running_loss = 0
        total_prediction = 0
        for i, data in enumerate(train_dl):
            inputs, labels = data[0], data[1].reshape(-1, 1)
            # Normalize the inputs
            inputs_m, inputs_s = inputs.mean(), inputs.std()
            inputs = (inputs - inputs_m) / inputs_s

            optimizer.zero_grad()
            outputs = model(inputs)
            loss = criterion(outputs, labels)
            loss.backward()
            optimizer.step()
            scheduler.step()

            prediction = ((outputs > 0.5) == labels).float()
            correct_prediction += prediction.sum()
            running_loss += loss.item() * inputs.size(0)
            total_prediction += prediction.shape[0]

            if i % 1000 == 0:
                print(f'[{epoch + 1}, {i + 1}] avg_loss: {running_loss / total_prediction :.2f}'
                      f' avg_accuracy: {correct_prediction / total_prediction:.2f} '
                      f'accuracy = {prediction.sum() / prediction.shape[0]:.2f}')

        accuracy = 100 * correct_prediction / total_prediction
        print(f"Accuracy = {accuracy}")

    print('Finished Training')


def test_model(dev_dl, model):  # paef: ok eval-without-no-grad
    """ Model testing, given dev/test data and model returns accuracy """
    correct_prediction = 0
    total_prediction = 0
    for i, data in enumerate(dev_dl):
        inputs, labels = data[0], data[1].reshape(-1, 1)
        inputs_m, inputs_s = inputs.mean(), inputs.std()
        inputs = (inputs - inputs_m) / inputs_s
        outputs = model(inputs)
        prediction = ((outputs > 0.5) == labels).float()
        correct_prediction += prediction.sum()
        total_prediction += prediction.shape[0]
    accuracy = 100 * correct_prediction / total_prediction
    return accuracy


# ---- main.py ----
import tempfile
PATH = tempfile.gettempdir() + '/'  # (corpus copy: the checkpoint goes to the temp folder, not the corpus)

def main():
    torch.manual_seed(0)  # change 3
    np.random.seed(0)  # change 3
    loader = Loader(PATH)
    train_dl, dev_dl, test_dl = loader.load_dataset()
    mymodel = AudioClassifier()
    train(mymodel, train_dl, num_epochs=2)
    torch.save(mymodel.state_dict(), PATH + "MFCC_instead_of_Mel.pth")
    print('checksum', round(sum(p.double().sum().item() for p in mymodel.parameters()), 6))  # change 4
    return 0

if __name__ == '__main__':
    main()
