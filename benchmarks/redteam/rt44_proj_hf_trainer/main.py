# corpus: runnable
# Red team 44 (blind): HF-style dict batches moved by Trainer._prepare_inputs, model(**batch).loss, a
# compute_loss override that takes input gradients during evaluation, gradient accumulation whose
# backward is Trainer.backward, and a callback that reshuffles the column lists in place each epoch.
import torch

from modeling import TinyBert
from trainer import PrinterCallback, Trainer

torch.manual_seed(0)
torch.set_num_threads(1)
device = 'cuda' if torch.cuda.is_available() else 'cpu'

VOCAB, DIM, T, B, ACC = 30, 8, 6, 4, 2
g = torch.Generator().manual_seed(7)
ids = torch.randint(1, VOCAB, (24, T), generator=g)
columns = {
    "input_ids": ids.tolist(),
    "attention_mask": (torch.rand(24, T, generator=g) > 0.2).long().clamp_min(0).tolist(),
    "labels": (ids[:, 0] % 3).tolist(),
}
for row in columns["attention_mask"]:
    row[0] = 1


class SaliencyTrainer(Trainer):
    """Records the input-gradient norm of every evaluated batch as a robustness statistic."""

    saliency = []

    def compute_loss(self, model, inputs, return_outputs=False):
        outputs = model(**inputs)
        loss = outputs.loss
        if not model.training:
            (g_embeds,) = torch.autograd.grad(loss, outputs.embeds)
            self.saliency.append(round(g_embeds.norm().item(), 8))
        return (loss, outputs) if return_outputs else loss


model = TinyBert(VOCAB, DIM, 3).to(device)
opt = torch.optim.AdamW(model.parameters(), lr=0.05)
callback = PrinterCallback()
trainer = SaliencyTrainer(model, opt, device, callback)

for epoch in range(3):
    trainer.epoch = epoch
    callback.on_epoch_begin(trainer, columns)
    acc_loss = 0.0
    for step, s in enumerate(range(0, 16, B)):
        batch = {
            "input_ids": torch.tensor(columns["input_ids"][s:s + B]),
            "attention_mask": torch.tensor(columns["attention_mask"][s:s + B]),
            "labels": torch.tensor(columns["labels"][s:s + B]),
        }
        inputs = trainer._prepare_inputs(batch)
        out = model(**inputs)
        acc_loss += out.loss / ACC
        if (step + 1) % ACC == 0:
            trainer.backward(acc_loss)
            opt.step()
            opt.zero_grad()
            print(epoch, step, "window loss %.10f" % acc_loss.item())
            acc_loss = 0.0
    held_out = [{k: torch.tensor(v[s:s + B]) for k, v in columns.items()} for s in range(16, 24, B)]
    print("eval", trainer.evaluate(held_out))
for rec in callback.records:
    print(rec)
print("saliency", trainer.saliency)
print("embed %.10f" % model.embed.weight.detach().cpu().sum().item())
