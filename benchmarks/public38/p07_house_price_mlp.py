# Public check 38, p07: tabular regression (Kaggle house prices), MLP trainer with early stopping.
# Source: https://github.com/RoschildRui/DeepLearning_CV_EXP exp1/exp1_4/house_price_model.py @ 0c27d0a8
#   (HousePriceTrainer, BaselineHousePriceModel) + exp1/exp1_4/house_price_dataset.py (HousePriceDataset's
#   __init__ / __len__ / __getitem__).
# Changes to make it run on the CPU in seconds:
# - pandas, sklearn, matplotlib and tqdm are not in the venv: `r2_score` is a numpy stand-in with the
#   same formula, `plt` a no-op stand-in, `tqdm` a stand-in context manager with `set_postfix`;
#   `time` is a stand-in clock that ticks 1 s per call (the printed epoch times are deterministic).
# - HousePriceDataset.preprocess_data (pandas + KNNImputer + StandardScaler on the Kaggle CSV) is not
#   used: the driver (main.py, not fetched) is a stand-in that trains BaselineHousePriceModel on 96 / 32
#   seeded rows of 12 standardized features with a known linear target, batch 32, 3 epochs, patience 2,
#   checkpoints in a temp folder; a checksum print at the end.
# HousePriceTrainer.train / evaluate and the two model classes are the source's lines.
import os
import tempfile
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import Dataset, DataLoader
import torch.nn.functional as F
from typing import List, Optional


# ---- stand-ins: sklearn.metrics.r2_score, matplotlib, time, tqdm ----
def r2_score(y_true, y_pred):
    return 1.0 - float(np.sum((y_true - y_pred) ** 2)) / float(np.sum((y_true - np.mean(y_true)) ** 2))


class _NoPlot:
    def __getattr__(self, name):
        return lambda *a, **k: None


plt = _NoPlot()


class time:
    _t = 0.0

    @classmethod
    def time(cls):
        cls._t += 1.0
        return cls._t


class tqdm:
    def __init__(self, iterable, desc=None, unit=None):
        self.iterable = iterable

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __iter__(self):
        return iter(self.iterable)

    def set_postfix(self, d):
        self.postfix = d


# ---- house_price_dataset.py (the parts the trainer uses) ----
class HousePriceDataset(Dataset):
    def __init__(self, X=None, y=None,
                 train_file=None,
                 test_file=None):
        self.X = X
        self.y = y
        self.scaler = None
        self.feature_names = None
        self.num_cols = None
        self.train_file = train_file if train_file is not None else '../data/house_price/kaggle_house_pred_train.csv'
        self.test_file = test_file if test_file is not None else '../data/house_price/kaggle_house_pred_test.csv'
        
    def __len__(self):
        if self.X is None:
            return 0
        return len(self.X)
    
    def __getitem__(self, idx):
        if self.X is None:
            raise ValueError("Dataset not initialized with data. Please provide X data.")
        x = torch.tensor(self.X[idx], dtype=torch.float32)
        if self.y is not None:
            y = torch.tensor(self.y[idx], dtype=torch.float32)
            return x, y
        return x


# ---- house_price_model.py ----
class HousePriceTrainer:
    def __init__(self, model, output_dir='checkpoints'):
        self.model = model
        self.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        self.model.to(self.device)
        self.output_dir = output_dir

        os.makedirs(output_dir, exist_ok=True)
        print(f"use device: {self.device}")
        
    def train(self, X_train, y_train, X_val, y_val, 
              batch_size=32, epochs=100, learning_rate=0.001,
              early_stopping_patience=10):
        train_dataset = HousePriceDataset(X_train, y_train)
        val_dataset = HousePriceDataset(X_val, y_val)
        
        train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)
        val_loader = DataLoader(val_dataset, batch_size=batch_size)
        
        # criterion = nn.MSELoss()
        criterion = nn.SmoothL1Loss()
        optimizer = optim.AdamW(self.model.parameters(), lr=learning_rate)
        scheduler = optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode='min', factor=0.5, patience=5)
        
        train_losses = []
        val_losses = []
        val_r2_scores = []
        best_val_loss = float('inf')
        best_model_path = None
        early_stopping_counter = 0
        
        for epoch in range(epochs):
            start_time = time.time()
            self.model.train()
            epoch_loss = 0
            
            with tqdm(train_loader, desc=f"Epoch {epoch+1}/{epochs}", unit="batch") as pbar:
                for X_batch, y_batch in pbar:
                    X_batch, y_batch = X_batch.to(self.device), y_batch.to(self.device)
                    
                    optimizer.zero_grad()
                    y_pred = self.model(X_batch)
                    loss = criterion(y_pred, y_batch)
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=1.0)
                    optimizer.step()

                    epoch_loss += loss.item() * X_batch.size(0)
                    pbar.set_postfix({"loss": loss.item()})
            
            epoch_loss /= len(train_loader.dataset)
            train_losses.append(epoch_loss)
            
            val_loss, val_r2 = self.evaluate(val_loader, criterion)
            val_losses.append(val_loss)
            val_r2_scores.append(val_r2)

            scheduler.step(val_loss)
            
            if val_loss < best_val_loss:
                best_val_loss = val_loss
                best_model_path = os.path.join(self.output_dir, f'best_model_epoch_{epoch}.pt')
                torch.save(self.model.state_dict(), best_model_path)
                early_stopping_counter = 0
            else:
                early_stopping_counter += 1

            if early_stopping_counter >= early_stopping_patience:
                print(f"early stopping: {early_stopping_patience} epochs without improvement")
                break

            epoch_time = time.time() - start_time
            print(f"epoch {epoch+1}/{epochs} - "
                  f"train loss: {epoch_loss:.4f}, validation loss: {val_loss:.4f}, "
                  f"validation R²: {val_r2:.4f}, time: {epoch_time:.2f}s")
                
        if best_model_path:
            self.model.load_state_dict(torch.load(best_model_path))
        
        self.plot_training_curves(train_losses, val_losses, val_r2_scores)
        
        return train_losses, val_losses, val_r2_scores
    
    def evaluate(self, data_loader, criterion=None):
        if criterion is None:
            # criterion = nn.MSELoss()
            criterion = nn.SmoothL1Loss()
            
        self.model.eval()
        total_loss = 0
        all_preds = []
        all_targets = []
        
        with torch.no_grad():
            for X_batch, y_batch in data_loader:
                X_batch, y_batch = X_batch.to(self.device), y_batch.to(self.device)
                
                y_pred = self.model(X_batch)
                loss = criterion(y_pred, y_batch)
                total_loss += loss.item()
                
                all_preds.extend(y_pred.cpu().numpy())
                all_targets.extend(y_batch.cpu().numpy())
                
        avg_loss = total_loss / len(data_loader)
        all_preds = np.array(all_preds).flatten()
        all_targets = np.array(all_targets).flatten()
        r2 = r2_score(all_targets, all_preds)
        
        return avg_loss, r2
    
    def predict(self, X_test):
        test_dataset = HousePriceDataset(X_test)
        test_loader = DataLoader(test_dataset, batch_size=64)
        
        self.model.eval()
        predictions = []
        
        with torch.no_grad():
            for X_batch in test_loader:
                X_batch = X_batch.to(self.device)
                y_pred = self.model(X_batch)
                predictions.extend(y_pred.cpu().numpy())
                
        return np.array(predictions)
    
    def plot_training_curves(self, train_losses, val_losses, val_r2_scores):
        plt.figure(figsize=(16, 8))
        
        plt.subplot(1, 2, 1)
        plt.plot(train_losses, label='train loss')
        plt.plot(val_losses, label='validation loss')
        plt.xlabel('epoch')
        plt.ylabel('loss')
        plt.title('train and validation loss')
        plt.legend()
        
        plt.subplot(1, 2, 2)
        plt.plot(val_r2_scores, label='validation R²')
        plt.xlabel('epoch')
        plt.ylabel('R²')
        plt.title('validation R²')
        plt.legend()
        
        plt.tight_layout()
        plt.savefig(os.path.join(self.output_dir, 'training_curves.png'))
        plt.close()

# --------------------------- Baseline MLP  --------------------------- #
class BaselineHousePriceModel(nn.Module):
    def __init__(self, input_dim, hidden_dims=[256, 128, 64]):
        super().__init__()
        
        layers = []
        prev_dim = input_dim
        for hidden_dim in hidden_dims:
            layers.append(nn.Linear(prev_dim, hidden_dim))
            layers.append(nn.ReLU())
            layers.append(nn.BatchNorm1d(hidden_dim))
            layers.append(nn.Dropout(0.2))
            prev_dim = hidden_dim
        
        layers.append(nn.Linear(prev_dim, 1))
        self.model = nn.Sequential(*layers)
    
    def forward(self, x):
        return self.model(x).squeeze(-1)


# ---- driver (stand-in for main.py) ----
if __name__ == '__main__':
    torch.manual_seed(0)
    rng = np.random.RandomState(0)
    X = rng.randn(128, 12)
    y = X @ rng.randn(12) * 0.3 + 12.0
    trainer = HousePriceTrainer(BaselineHousePriceModel(12, hidden_dims=[32, 16]),
                                output_dir=os.path.join(tempfile.gettempdir(), 'pub38_p07_checkpoints'))
    train_losses, val_losses, val_r2 = trainer.train(X[:96], y[:96], X[96:], y[96:], batch_size=32, epochs=3,
                                                     learning_rate=0.01, early_stopping_patience=2)
    print([round(v, 6) for v in train_losses], [round(v, 6) for v in val_losses])
    print("checksum", round(sum(p.double().sum().item() for p in trainer.model.parameters()), 6))
