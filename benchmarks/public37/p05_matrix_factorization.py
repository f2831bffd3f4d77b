# Public check 37, p05: matrix factorization recommender trained one rating at a time (explicit feedback).
# Source: https://github.com/T1mTop1a/level4_individual_project src/matrix_fact_test.py (stored version)
# Changes to make it run on the CPU in seconds:
# - `from scipy.sparse import rand as sprand` (scipy not in the venv) replaced by a numpy stand-in
#   with the same role (a dense users x items matrix, zero where unrated); n_users / n_items
#   1_000 -> 60, density 0.01 -> 0.05; np.random seeded, torch seeded.
# - lr 1e-6 -> 1e-2 (so that the checksum moves); the prints kept; a checksum print at the end.
# The model, the training loop and the test loop are the source's lines.
import numpy as np
import torch

np.random.seed(0)
torch.manual_seed(0)

# Make up some random explicit feedback ratings
# and convert to a numpy array
n_users = 60
n_items = 60
ratings = np.where(np.random.rand(n_users, n_items) < 0.05, 1.0, 0.0)  # stand-in for sprand(..., density)
ratings[ratings.nonzero()] = np.random.randint(1, 5, size=int(ratings.sum())).astype(np.float64)

class MatrixFactorization(torch.nn.Module):
    def __init__(self, n_users, n_items, n_factors=20):
        super().__init__()
        self.user_factors = torch.nn.Embedding(n_users, n_factors, sparse=True)
        self.item_factors = torch.nn.Embedding(n_items, n_factors, sparse=True)

    def forward(self, user, item):
        return (self.user_factors(user) * self.item_factors(item)).sum(1)

model = MatrixFactorization(n_users, n_items, n_factors=20)

loss_func = torch.nn.MSELoss()

optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)

# Sort our data
rows, cols = ratings.nonzero()
p = np.random.permutation(len(rows))
rows, cols = rows[p], cols[p]

for row, col in zip(*(rows, cols)):
    # Set gradients to zero
    optimizer.zero_grad()
    
    # Turn data into tensors
    rating = torch.FloatTensor([ratings[row, col]])
    row = torch.LongTensor([row])
    col = torch.LongTensor([col])

    # Predict and calculate loss
    prediction = model(row, col)
    loss = loss_func(prediction, rating)

    # Backpropagate
    loss.backward()

    # Update the parameters
    optimizer.step()

print("completed training")

test_loss = 0
num_samples = 0
for row, col in zip(*(rows, cols)):
    rating = torch.FloatTensor([ratings[row, col]])
    row = torch.LongTensor([row])
    col = torch.LongTensor([col])
    prediction = model(row, col)
    test_loss += loss_func(prediction, rating).item()
    num_samples += 1

rmse = np.sqrt(test_loss / num_samples)
mae = test_loss / num_samples

print("RMSE:", rmse)
print("MAE:", mae)
print("checksum", round(sum(p.double().sum().item() for p in model.parameters()), 6))
