# Public check 48, p01: LorenzoPiu/Bayes_by_backprop_demo `BNN_video.py` @ 9b6838d6 (MIT, LICENSE), a Bayesian
# neural network (Bayes by backprop, reparameterised Gaussian weights) fitted to a noisy 1-D sine.
# Changes to run on the CPU in seconds (the source's own lines are unchanged unless listed):
#  1. matplotlib, seaborn, pandas, imageio, moviepy are not installed: their imports are dropped and
#     `plot_and_save_figure` (a 120-line figure of matplotlib/seaborn calls, once every 20 epochs) is a stand-in that
#     draws nothing; the closing moviepy block (frames -> mp4) is dropped.
#  2. seeds (`torch.manual_seed(0)`, `np.random.seed(0)`); `num_epochs = 2500` -> 25.
#  3. a checksum of the weights is printed at the end.

#------------------------------------------------------------------------------
#                        Bayesian Neural Networks with Pytorch
#------------------------------------------------------------------------------

import torch
import torch.nn as nn
import torch.nn.functional as F
import numpy as np
import os

torch.manual_seed(0)
np.random.seed(0)

# Define the Variational Layer
class BayesianLinear(nn.Module):
    def __init__(self, in_features, out_features, prior_std=1.0e-3):
        super(BayesianLinear, self).__init__()
        # Variational parameters for the weight distribution (mean and log of standard deviation)
        self.weight_mu = nn.Parameter(torch.Tensor(out_features, in_features).normal_(0, 0.1))
        self.weight_log_sigma = nn.Parameter(torch.Tensor(out_features, in_features).fill_(-4))
        
        # Variational parameters for the bias distribution
        self.bias_mu = nn.Parameter(torch.Tensor(out_features).normal_(0, 0.1))
        self.bias_log_sigma = nn.Parameter(torch.Tensor(out_features).fill_(-4))
        
        # Prior standard deviation
        self.prior_std = prior_std

    def forward(self, x):
        # Sample weights and biases using reparameterization trick
        weight_sigma = torch.exp(self.weight_log_sigma)
        bias_sigma = torch.exp(self.bias_log_sigma)
        
        # Sampling weights
        weight = self.weight_mu + weight_sigma * torch.randn_like(self.weight_mu)
        bias = self.bias_mu + bias_sigma * torch.randn_like(self.bias_mu)
        
        return F.linear(x, weight, bias)

    def kl_divergence(self):
        # KL divergence between learned distribution and the prior
        weight_sigma = torch.exp(self.weight_log_sigma)
        bias_sigma = torch.exp(self.bias_log_sigma)
        
        # KL for weights
        weight_kl = torch.sum(
            torch.log(self.prior_std / weight_sigma) + 
            (weight_sigma ** 2 + self.weight_mu ** 2) / (2 * self.prior_std ** 2) - 0.5
        )
        
        # KL for biases
        bias_kl = torch.sum(
            torch.log(self.prior_std / bias_sigma) + 
            (bias_sigma ** 2 + self.bias_mu ** 2) / (2 * self.prior_std ** 2) - 0.5
        )
        
        return weight_kl + bias_kl
    
# Define the Bayesian NN
class BayesianNN(nn.Module):
    def __init__(self, input_dim, n_layers, n_neurons, output_dim):
        super(BayesianNN, self).__init__()
        
        # Create a list to hold the layers
        self.layers = nn.ModuleList()
        
        # Input layer (first layer)
        self.layers.append(BayesianLinear(input_dim, n_neurons))
        
        # Hidden layers
        for _ in range(n_layers - 1):
            self.layers.append(BayesianLinear(n_neurons, n_neurons))
        
        # Output layer (last layer)
        self.layers.append(BayesianLinear(n_neurons, output_dim))
    
    def forward(self, x):
        # Pass input through all layers except the last (activation applied only to hidden layers)
        for layer in self.layers[:-1]:
            x = F.relu(layer(x))
        
        # Output layer (no activation function)
        return self.layers[-1](x)
    
    def kl_divergence(self):
        # Sum KL divergence across all layers
        return sum(layer.kl_divergence() for layer in self.layers)
    
# Loss function
def gaussian_NLL(y_true, y_pred, sigma):
    """
    Computes the Negative Log-Likelihood (NLL) assuming a Gaussian distribution.

    Parameters:
    - y_true: Torch tensor of true values (N, ).
    - y_pred: Torch tensor of predicted values (N, ).
    - sigma: Torch tensor of standard deviations for predictions (N, ).

    Returns:
    - nll: Negative log-likelihood value (scalar).
    """
    # Input validation
    if not isinstance(y_true, torch.Tensor):
        raise TypeError("y_true must be a PyTorch tensor.")
    if not isinstance(y_pred, torch.Tensor):
        raise TypeError("y_pred must be a PyTorch tensor.")
    if not isinstance(sigma, torch.Tensor):
        raise TypeError("sigma must be a PyTorch tensor.")
    
    if y_true.shape != y_pred.shape:
        raise ValueError(f"Shape mismatch: y_true and y_pred must have the same shape. Got {y_true.shape} and {y_pred.shape}.")
    if y_true.shape != sigma.shape:
        raise ValueError(f"Shape mismatch: y_true and sigma must have the same shape. Got {y_true.shape} and {sigma.shape}.")

    # Clipping sigma to avoid log(0) or division by zero
    epsilon = 1e-15
    sigma = torch.clamp(sigma, min=epsilon)

    # Compute NLL
    nll = (
        0.5 * torch.sum(((y_true - y_pred) ** 2) / (sigma ** 2)) + 
        torch.sum(torch.log(sigma * torch.sqrt(torch.tensor(2 * torch.pi))))
    ) / y_true.size(0)

    return nll

def loss_function(output, sigma, target, kl_divergence, kl_weight=1.0):
    # Negative log likelihood (mean squared error as an example)
    log_likelihood = gaussian_NLL(output, target, sigma)
    
    # Total loss: log likelihood + KL divergence
    return log_likelihood + kl_weight * kl_divergence

def plot_and_save_figure(x_test, mean_pred, uncertainty, 
                         x_train, y_train, 
                         loss_total, epoch_list,
                         name='fig.png', epoch=None):
    # stand-in (change 1): the source draws and saves a matplotlib/seaborn figure here
    pass

def predict_with_uncertainty(model, x, n_samples=1000):
    model.eval()
    with torch.no_grad():
        preds = torch.stack([model(x) for _ in range(n_samples)])
    mean_pred = preds.mean(0)
    uncertainty = preds.std(0)# /torch.abs(mean_pred)  # Variance across the samples divided by the output value
    # I use the square root because it should be similar to how you compute the turbulence intensity
    return mean_pred, uncertainty

# %% Training
n_samples = 100
input_dim = 1
n_neurons = 32
n_layers  = 2
output_dim = 1
x_train = torch.rand(300, input_dim) -0.5
x_train = 1.5*x_train/((torch.max(x_train)-torch.min(x_train))/2)  # Scale between -1.5 and 1.5
x_train = x_train[(x_train>0.3)|(x_train<-0.1)]
x_train = x_train.reshape(len(x_train),1) # reshape column vector
y_train = -0.5 * np.sin(3*x_train) + x_train*0.2*torch.randn(*x_train.shape)  

# Model, optimizer
model = BayesianNN(input_dim, n_layers, n_neurons, output_dim)
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

num_epochs = 25  # change 2 (source: 2500# 5000)
kl_weight = 5e-8  # Weight for KL-divergence regularization

x_test = torch.Tensor([np.linspace(-2,2,201)]).t()

if not os.path.exists('frames/'):
    os.mkdir('frames')
    
loss_list = []
epoch_list = []

for epoch in range(num_epochs):

    # with torch.no_grad(): 
    #     y, sigma = predict_with_uncertainty(model, x_test)
    
    model.train()
    optimizer.zero_grad()
    
    # Forward pass
    # output = model(x_train)
    preds = torch.stack([model(x_train) for _ in range(n_samples)])
    mean_pred = preds.mean(0)
    uncertainty = preds.std(0)# /torch.abs(mean_pred)  # Variance across the samples divided by the output value
    
    # Compute KL divergence
    kl_div = model.kl_divergence()
    
    # Compute total loss
    loss = loss_function(mean_pred, uncertainty, y_train, kl_div, kl_weight)
    loss_list.append(loss.detach().numpy())
    epoch_list.append(epoch)
    
    # Backpropagation and optimization
    loss.backward()
    optimizer.step()
    
    # Plot and save figure
    if epoch % 20 == 0:
        with torch.no_grad(): 
            y, sigma = predict_with_uncertainty(model, x_test)
        
        plot_and_save_figure(x_test, y, sigma, 
                             x_train, y_train, 
                             loss_total=loss_list, 
                             epoch_list=epoch_list, 
                             name=f'frames/epoch{epoch:04d}', 
                             epoch=epoch)
    
    if epoch % 50 == 0:
        print(f'Epoch {epoch}, Loss: {loss.item()}')

# checksum (change 3)
print("checksum", round(sum(float(p.detach().double().sum()) for p in model.parameters()), 6), round(float(sigma.double().sum()), 6))
