# Public check 36, p02: DDPM schedule and `get_index_from_list` (the `gather(-1, t.cpu())` ... `.to(t.device)` helper).
# Source: https://github.com/deepnetni/zeta/blob/HEAD/core/try/try_ddpm.py (stored index version; commit not served)
# Changes: none to the source's lines; a checksum print appended in the `__main__` block.
import torch
import torch.nn.functional as F


def linear_beta_schedule(timesteps, start=0.0001, end=0.02):
    return torch.linspace(start, end, timesteps)


T = 300
betas = linear_beta_schedule(timesteps=T)

alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, axis=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus_alphas_cumprod = torch.sqrt(1.0 - alphas_cumprod)
posterior_variance = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)


def get_index_from_list(vals, time_step, x_shape):
    """
    Returns a specific index t of a passed list of values vals
    while considering the batch dimension.
    """
    batch_size = time_step.shape[0]
    out = vals.gather(-1, time_step.cpu())
    return out.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(time_step.device)


if __name__ == "__main__":
    t = torch.tensor([8])
    x = torch.randn(1, 3, 10, 10)
    betas_t = get_index_from_list(betas, t, x.shape)
    out = betas_t.reshape(1) * x
    print(betas_t.shape)
    print(betas_t)
    print("checksum", round(float(betas_t.sum()), 8), tuple(out.shape))
