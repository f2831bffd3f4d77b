"""A LAMB-like optimizer with layer-wise rate decay, written by hand. The rate of each parameter is the group's
rate times the decay raised to the parameter's depth; `_next_layer` lowers the group's running rate after each
parameter and `step` puts it back at the end."""
import torch


class LayerwiseLamb(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-2, betas=(0.9, 0.999), eps=1e-6, weight_decay=0.0, layer_decay=0.8):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      layer_decay=layer_decay, run_lr=lr))

    def _next_layer(self, group):
        group['run_lr'] = group['run_lr'] * group['layer_decay']

    @torch.no_grad()
    def step(self, closure=None):
        ratios = []
        for group in self.param_groups:
            group['run_lr'] = group['lr']
            b1, b2 = group['betas']
            for p in group['params']:
                if p.grad is None:
                    continue
                st = self.state[p]
                if 'm' not in st:
                    st['m'] = torch.zeros_like(p)
                    st['v'] = torch.zeros_like(p)
                    st['t'] = 0
                st['t'] += 1
                st['m'].mul_(b1).add_(p.grad, alpha=1 - b1)
                st['v'].mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                upd = (st['m'] / (1 - b1 ** st['t'])) / ((st['v'] / (1 - b2 ** st['t'])).sqrt() + group['eps'])
                upd.add_(p, alpha=group['weight_decay'])
                w_norm, u_norm = p.norm(), upd.norm()
                trust = torch.where((w_norm > 0) & (u_norm > 0), w_norm / u_norm, torch.ones(()))
                rate = torch.tensor(group['run_lr'])
                p.sub_(rate * trust * upd)
                ratios.append(trust.item())
                self._next_layer(group)
        return ratios
