# corpus: runnable
# Public check 38 p06 (Manoj-E-S/blockchain-n-bestsellers recommender/training.py, made runnable with
# stand-ins): `loss.item()` every step (fold losses printed in full precision); the test pass counts
# errors one example at a time with `abs(o - r) > 0.7`.
# Public check 38, p06: book-ratings recommender (GMF), K-fold training, validation and an error-count test.
# Source: https://github.com/Manoj-E-S/blockchain-n-bestsellers recommender/training.py @ 01cd4d52
#   (+ BooksDataset and CudaUtils of recommender/utils.py @ 05d969a2).
# Changes to make it run on the CPU in seconds:
# - `from utils import (...)`: BooksDataset and CudaUtils are utils.py's lines; EncoderUtils, DfUtils,
#   DataLoaderUtils and RatingsPredictorGMF (pandas / sklearn / joblib / the CSV; the GMF model is not
#   in the stored utils.py) replaced by stand-ins: 40 users, 30 books, 300 seeded ratings in [1, 5],
#   an 80/20 split, batch 50, loaders with num_workers=0 (the source's test loader has 2 workers), and a
#   GMF (user * book embeddings, a linear layer, sigmoid * 5).
# - `sklearn.model_selection.KFold` -> a seeded stand-in with the same `split`; matplotlib and seaborn
#   -> no-op stand-ins.
# - the driver's model save goes to a temp folder; the seeds; a checksum print at the end.
# The Trainer class and the driver are the source's lines.
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset, Dataset


# ---- stand-ins: matplotlib, seaborn, sklearn ----
class _NoPlot:
    def __getattr__(self, name):
        return lambda *a, **k: None


plt = _NoPlot()
sns = _NoPlot()
sns.set_theme()


class model_selection:
    class KFold:
        def __init__(self, n_splits, shuffle=True):
            self.n_splits = n_splits
            self.rng = np.random.RandomState(0)

        def split(self, ds):
            idx = self.rng.permutation(len(ds))
            folds = np.array_split(idx, self.n_splits)
            for k in range(self.n_splits):
                val = folds[k]
                train = np.concatenate([f for i, f in enumerate(folds) if i != k])
                yield train, val


# ---- utils.py (BooksDataset, CudaUtils) and stand-ins for the rest ----
class BooksDataset(Dataset):
    def __init__(self, users, ratings, books):
        self.users = users
        self.ratings = ratings
        self.books = books

    def __len__(self):
        return len(self.users)

    def __getitem__(self, idx):
        return {
            'users': torch.tensor(self.users[idx], dtype=torch.long),
            'ratings': torch.tensor(self.ratings[idx], dtype=torch.float32),
            'books': torch.tensor(self.books[idx], dtype=torch.long)
        }


class CudaUtils:
    @staticmethod
    def get_device():
        if torch.cuda.is_available():
            return torch.device('cuda:0')
        else:
            return torch.device('cpu')


class _Encoder:
    def __init__(self, n):
        self.classes_ = list(range(n))


class EncoderUtils:
    @staticmethod
    def load_encoders():
        return _Encoder(40), _Encoder(30)


class DfUtils:
    @staticmethod
    def get_ratings_df(df_path):
        rng = np.random.RandomState(1)
        return {"user_id": rng.randint(0, 40, 300), "isbn": rng.randint(0, 30, 300),
                "rating": rng.randint(1, 6, 300).astype(np.float64)}


class DataLoaderUtils:
    batch_size = 50

    @staticmethod
    def get_train_test(ratings_df):
        n = len(ratings_df["rating"])
        cut = int(n * 0.8)
        train_ds = BooksDataset(users=ratings_df["user_id"][:cut], books=ratings_df["isbn"][:cut],
                                ratings=ratings_df["rating"][:cut])
        test_ds = BooksDataset(users=ratings_df["user_id"][cut:], books=ratings_df["isbn"][cut:],
                               ratings=ratings_df["rating"][cut:])
        train_dl = DataLoader(train_ds, batch_size=DataLoaderUtils.batch_size, shuffle=True, num_workers=0)
        test_dl = DataLoader(test_ds, batch_size=DataLoaderUtils.batch_size, shuffle=True, num_workers=0)
        return {"datasets": (train_ds, test_ds), "dataloders": (train_dl, test_dl)}


class RatingsPredictorGMF(nn.Module):
    def __init__(self, n_books, n_users):
        super().__init__()
        self.user_embed = nn.Embedding(n_users, 16)
        self.book_embed = nn.Embedding(n_books, 16)
        self.out = nn.Linear(16, 1)

    def forward(self, users, books):
        return torch.sigmoid(self.out(self.user_embed(users) * self.book_embed(books))) * 5


# ---- training.py ----
class Trainer:
    def __init__(self, opt_lr, sch_gamma, sch_step_size, n_folds, device, n_batches=None):
        userid_encoder, isbn_encoder = EncoderUtils.load_encoders()
        
        self.mod_n_books = len(isbn_encoder.classes_)
        self.mod_n_users = len(userid_encoder.classes_)
        self.batch_size = DataLoaderUtils.batch_size if not n_batches else n_batches
        
        self.model = RatingsPredictorGMF(
                n_books=self.mod_n_books,
                n_users=self.mod_n_users
            ).to(device)
        
        self.loss_fn = nn.MSELoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=opt_lr)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, sch_step_size, gamma=sch_gamma)
        self.kf = model_selection.KFold(n_splits=n_folds, shuffle=True)


    def print_train_stats(self, train_fold_losses, val_fold_losses):

        print()
        avg_val_losses = np.mean(val_fold_losses, axis=0)
        print("Average Validation Losses:", avg_val_losses)

        avg_train_losses = np.mean(train_fold_losses, axis=0)
        print("Average Validation Losses:", avg_train_losses)

        print()
        print("Train Losses (fold: [epochs])")
        for i, x in enumerate(train_fold_losses):
            print(f"{i+1}: {x}")

        print("\nValidation Losses (fold: [epochs])")
        for i, x in enumerate(val_fold_losses):
            print(f"{i+1}: {x}")

        plt.plot(train_fold_losses)
        plt.show()
        plt.plot(val_fold_losses)
        plt.show()


    def print_test_stats(self, error_counts, error_ratios):
        print()
        print(f"Total Number of batches: {len(error_ratios)}")
        print(f"Minimum Errors per batch: {min(error_counts)}")
        print(f"Maximum Errors per batch: {max(error_counts)}")
        print(f"Average Errors ratio: {sum(error_counts)/(self.batch_size*len(error_counts))}")
        print()

        plt.plot(error_ratios)
        plt.xlabel("Batch No.")
        plt.ylabel("Error Ratio")
        plt.show()

        plt.hist(error_ratios, bins=50)
        plt.xlabel("Error Ratio")
        plt.ylabel("Occurance Frequency")
        plt.show()

    
    def save_model(self, pth_path):
        torch.save(self.model.state_dict(), pth_path)


    def train_all_batches(self, train_dl, device):
        train_loss = 0
        self.model.train()
        for batch in train_dl:
            users = batch['users'].to(device)  # paef: ok pageable-transfer
            books = batch['books'].to(device)
            ratings = batch['ratings'].view(-1, 1).to(device)

            self.optimizer.zero_grad()
            outputs = self.model(users, books)

            loss = self.loss_fn(outputs, ratings)
            train_loss += loss.item()  # paef: expect-fix host-sync

            loss.backward()
            self.optimizer.step()
        
        self.scheduler.step()

        return (train_loss / len(train_dl))
    

    def validate_all_batches(self, val_dl, device):
        val_loss = 0
        self.model.eval()
        with torch.no_grad():
            for batch in val_dl:
                users = batch['users'].to(device)  # paef: ok pageable-transfer
                books = batch['books'].to(device)
                ratings = batch['ratings'].view(-1, 1).to(device)

                outputs = self.model(users, books)
                val_loss += self.loss_fn(outputs, ratings).item()  # paef: ok host-sync

        return (val_loss / len(val_dl))


    def initial_train(self, epochs, train_ds, device):
        val_fold_losses = []
        train_fold_losses = []

        for fold, (train_idxs, val_idxs) in enumerate(self.kf.split(train_ds)):
            print(f"Fold {fold + 1}")
            
            train_fold = Subset(train_ds, train_idxs)
            val_fold = Subset(train_ds, val_idxs)

            train_dl = DataLoader(train_fold, batch_size=self.batch_size, shuffle=True)
            val_dl = DataLoader(val_fold, batch_size=self.batch_size, shuffle=False)

            train_fold_loss = []
            val_fold_loss = []

            for epoch in range(epochs):
                print(f"  Epoch {epoch + 1}")

                # Training
                train_loss_ratio = self.train_all_batches(train_dl, device)
                train_fold_loss.append(train_loss_ratio)
                print(f"    Train Loss: {train_loss_ratio}")

                # Validation
                val_loss_ratio = self.validate_all_batches(val_dl, device)
                val_fold_loss.append(val_loss_ratio)
                print(f"    Validation Loss: {val_loss_ratio}")

            train_fold_losses.append(train_fold_loss)
            val_fold_losses.append(val_fold_loss)

        # Use the return values to print stats if needed
        return (train_fold_losses, val_fold_losses)
    
    
    def test_all_batches(self, test_dl, device, debug_flag=False):
        error_counts = []
        error_ratios = []
        error_count = 0

        self.model.eval()
        with torch.no_grad():
            for i, batch in enumerate(test_dl):
                users = batch['users'].to(device)  # paef: ok pageable-transfer
                books = batch['books'].to(device)
                ratings = batch['ratings'].view(-1, 1).to(device)

                output = self.model(users, books)

                for j, (o, r) in enumerate(zip(output, ratings)):  # paef: expect elementwise-loop
                    if abs(o - r) > 0.7:
                        print(f"{i, j} : {abs(o - r).item()}") if debug_flag else None
                        error_count += 1

                print() if debug_flag else None

                error_counts.append(error_count)

                erred_ratio = error_count/len(users)
                error_ratios.append(erred_ratio)

                error_count = 0
        
        return (error_counts, error_ratios)
    

    def retrain_model(self, epochs):
        raise NotImplementedError


if __name__ == "__main__":
    torch.manual_seed(0)
    device = CudaUtils.get_device()
    model_trainer = Trainer(
            opt_lr=0.001,
            sch_gamma=0.9,
            sch_step_size=1,
            device=device,
            n_folds=3
        )
    
    
    ratings_df = DfUtils.get_ratings_df("./main_dataset/updated_ratings.csv")
    split_ds_dl = DataLoaderUtils.get_train_test(ratings_df)
    train_ds = split_ds_dl["datasets"][0]
    test_dl = split_ds_dl["dataloders"][1]

    # Training and Validation (on train_ds)
    train_fold_losses, val_fold_losses = model_trainer.initial_train(epochs=2, train_ds=train_ds, device=device)
    model_trainer.print_train_stats(train_fold_losses, val_fold_losses)

    # Testing (on test_dl)
    error_counts, error_ratios = model_trainer.test_all_batches(test_dl, device)
    model_trainer.print_test_stats(error_counts, error_ratios)

    model_trainer.save_model(os.path.join(tempfile.gettempdir(), "pub38_p06_matfac_model.pth"))
    print("checksum", round(sum(p.double().sum().item() for p in model_trainer.model.parameters()), 6))
