"""One epoch of distillation with a mean teacher, and the evaluation helpers."""
import torch
import torch.nn.functional as F

import utils


def micro_batch_loss(model, x, y, n_micro, weights):
    total = 0.0
    for xb, yb in zip(x.chunk(n_micro), y.chunk(n_micro)):
        total += F.cross_entropy(model(xb), yb, weight=weights) / n_micro
    return total


def train_one_epoch(pair, opt, batches, device, n_classes, temperature=2.0):
    pair.train()
    running, kd_sum = 0.0, 0.0
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        class_w = torch.tensor([1.0, 1.0, 1.0], device=device)
        class_w = utils.smooth_class_weights(class_w, torch.bincount(y, minlength=n_classes))
        ce = micro_batch_loss(pair.student, x, y, 2, class_w)
        t_logits = pair.teacher(x)
        kd = F.kl_div(F.log_softmax(pair.student(x) / temperature, -1), F.softmax(t_logits / temperature, -1),
                      reduction="batchmean")
        loss = ce + kd
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(pair.parameters(), 0.5)
        opt.step()
        utils.ema_update(pair.teacher, pair.student)
        running += loss.item()
        kd_sum += kd.item()
    return running / len(batches), kd_sum / len(batches)


def evaluate(pair, batches, device, n_classes, mc_samples=3):
    """MC-dropout agreement between student and teacher: dropout stays on while evaluating."""
    pair.eval()
    pair.student.train()
    agree = 0
    nll = 0.0
    for x, y in batches:
        x, y = x.to(device), y.to(device)
        probs = torch.stack([pair.student(x).softmax(-1) for _ in range(mc_samples)]).mean(0)
        nll += F.nll_loss(probs.log(), y).item()
        s_pred = probs.argmax(-1)
        t_pred = pair.teacher(x).argmax(-1)
        oh_s, oh_t = F.one_hot(s_pred, n_classes), F.one_hot(t_pred, n_classes)
        agree += torch.bmm(oh_s.unsqueeze(1), oh_t.unsqueeze(2)).sum().item()
    pair.train()
    return nll / len(batches), agree
