# Public check 46, p03: tonyduan/mixture-density-network `examples/ex_1d.py`, with `mdn/model.py` and
# `mdn/utils.py` inlined (all @ 26dc7501): a mixture density network fitting an inverted sine (CPU program).
# Changes to run in seconds (the source's own lines are unchanged unless listed):
#  1. the two package modules are pasted above the example (their `from mdn.utils import ...` lines dropped).
#  2. matplotlib is not installed: `plt` is a stub (hist2d/xlim/ylim/show do nothing).
#  3. seeds (`np.random.seed(0)`, `torch.manual_seed(0)`); `--n-iterations` default 2000 -> 300 and
#     `argparser.parse_args([])`.
#  4. a checksum of the weights and the samples is printed at the end.
import numpy as np
import torch
import torch.optim as optim
import logging
import types
from argparse import ArgumentParser

plt = types.SimpleNamespace(hist2d=lambda *a, **k: None, xlim=lambda *a: None, ylim=lambda *a: None,
                            show=lambda: None)
np.random.seed(0)
torch.manual_seed(0)

# ---- mdn/utils.py ----
import torch
import torch.nn as nn
from torch.distributions import Normal, OneHotCategorical


def mixture_density_loss(y, pred_parameters):
    """
    Calculate negative log-likelihood of observations y under pred params.

    Parameters
    ---------
    """
    loglik = torch.zeros(y.shape[0])
    for dim, dim_pred_parameters in enumerate(pred_parameters):
        pi, mu, sigma = dim_pred_parameters
        n_components = pi.shape[1]
        y_mixture = torch.unsqueeze(y[:,dim], 1).expand(-1, n_components)
        mixture_logprobs = Normal(mu, sigma).log_prob(y_mixture)
        loglik += torch.logsumexp(torch.log(pi) + mixture_logprobs, dim=1)
    return -torch.mean(loglik, dim=0)


def sample_gaussian_mixture(pred_parameters):
    """
    Generates one
    """
    out_dim = len(pred_parameters)
    batch_size = len(pred_parameters[0][0])
    gen_samples = torch.zeros((batch_size, out_dim))
    for dim, dim_pred_parameters in enumerate(pred_parameters):
        pi, mu, sigma = dim_pred_parameters
        batch_size = pi.shape[0]
        samples = Normal(mu, sigma).sample((1,)).squeeze()
        components = OneHotCategorical(pi).sample()
        gen_samples[:, dim] = torch.sum(samples * components, 1)
    return gen_samples


def gen_network(dim_in, dim_out):
    """
    Return a simple two-layer neural network with a tanh non-linearity.
    """
    return nn.Sequential(nn.Linear(dim_in, dim_in),
                         nn.Tanh(),
                         nn.Linear(dim_in, dim_out))


# ---- mdn/model.py ----
class MixtureDensityNetwork(nn.Module):
    """
    Mixture density network.

    Uses 2-layer linear neural networks (with one tanh non-linearity).

    [ Bishop, 1994 ]

    Parameters
    ----------
    dim_in: int
        dimensionality of the covariates

    dim_out: int
        dimensionality of the response variable

    n_components: int
        number of components in the mixture model
    """
    def __init__(self, dim_in, dim_out, n_components):
        super().__init__()
        self.dim_in = dim_in
        self.dim_out = dim_out
        self.n_components = n_components
        self.pi_network = gen_network(dim_in, n_components * dim_out)
        self.mu_network = gen_network(dim_in, n_components * dim_out)
        self.logsigma_network = gen_network(dim_in, n_components * dim_out)

    def forward(self, x):
        """
        Parameters
        ----------
        x: Tensor

        Returns
        -------
        parameters: list of tuples
            each tuple contains (π, μ, σ) for a scalar dimension of output,
            where each variable is a vector of same length as the number of
            mixture components
        """
        parameters = []
        pi = torch.softmax(self.pi_network(x), dim=1)
        mu = self.mu_network(x)
        sigma = torch.exp(self.logsigma_network(x))
        for dim in range(self.dim_out):
            i, j = dim * self.n_components, (dim + 1) * self.n_components
            parameters.append((pi[:,i:j], mu[:,i:j], sigma[:,i:j]))
        return parameters


# ---- examples/ex_1d.py ----
def gen_data(n=512):
    y = np.linspace(-1, 1, n)
    x = 7 * np.sin(5 * y) + 0.5 * y + 0.5 * np.random.randn(*y.shape)
    return x[:,np.newaxis], y[:,np.newaxis]

def plot_data(x, y):
    plt.hist2d(x, y, bins=35)
    plt.xlim(-8, 8)
    plt.ylim(-1, 1)
    plt.show()


if __name__ == "__main__":

    argparser = ArgumentParser()
    argparser.add_argument("--n-iterations", type=int, default=300)
    args = argparser.parse_args([])

    logging.basicConfig(level=logging.DEBUG)
    logger = logging.getLogger(__name__)

    x, y = gen_data()
    x = torch.Tensor(x)
    y = torch.Tensor(y)

    model = MixtureDensityNetwork(1, 1, 3)
    optimizer = optim.Adam(model.parameters(), lr=0.005)

    for i in range(args.n_iterations):
        optimizer.zero_grad()
        pred_parameters = model(x)
        loss = mixture_density_loss(y, pred_parameters)
        loss.backward()
        optimizer.step()
        if i % 100 == 0:
            logger.info(f"Iter: {i}\t" + f"Loss: {loss.data:.2f}")

    print("== Training data")
    plot_data(x[:,0].numpy(), y[:,0].numpy())

    print("== Sampled data")
    samples = sample_gaussian_mixture(pred_parameters)
    plot_data(x[:,0].numpy(), samples[:,0].numpy())

    print('checksum', round(sum(p.double().sum().item() for p in model.parameters()), 6),
          round(samples.double().sum().item(), 6))
