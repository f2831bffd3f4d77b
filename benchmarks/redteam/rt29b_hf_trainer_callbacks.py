# corpus: runnable
# Red team 29b, wave 1 (blind): an HF-Trainer-shaped loop - TrainingArguments, a callback
# handler that dispatches events by name, logging_steps, gradient accumulation, bf16 autocast on
# the CPU - with an EWC callback that estimates the Fisher information on the evaluation batches.
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


@dataclass
class TrainingArguments:
    num_train_epochs: int = 3
    logging_steps: int = 4
    gradient_accumulation_steps: int = 2
    learning_rate: float = 0.05
    bf16: bool = True
    device: str = "cuda" if torch.cuda.is_available() else "cpu"


@dataclass
class TrainerState:
    epoch: int = 0
    global_step: int = 0
    log_history: list = field(default_factory=list)


class TrainerCallback:
    def on_log(self, args, state, logs, **kw):
        pass

    def on_prediction_step(self, args, state, **kw):
        pass

    def on_evaluate(self, args, state, metrics, **kw):
        pass


class PrinterCallback(TrainerCallback):
    def on_log(self, args, state, logs, **kw):
        print("log", state.global_step, logs)


class EWCCallback(TrainerCallback):
    """Estimates the diagonal Fisher information from the evaluation batches (for EWC on the next task)."""

    def __init__(self):
        self.fisher = {}
        self.batches = 0

    def on_prediction_step(self, args, state, model=None, outputs=None, **kw):
        model.zero_grad()
        outputs["loss"].backward()
        for name, p in model.named_parameters():
            self.fisher[name] = self.fisher.get(name, 0.0) + p.grad.detach().pow(2)
        model.zero_grad()
        self.batches += 1

    def on_evaluate(self, args, state, metrics, **kw):
        total = sum(f.sum().item() for f in self.fisher.values()) / max(self.batches, 1)
        metrics["fisher"] = round(total, 6)


class CallbackHandler:
    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def call_event(self, event, args, state, **kw):
        for cb in self.callbacks:
            getattr(cb, event)(args, state, **kw)


class Trainer:
    def __init__(self, model, args, train_dataset, eval_dataset, callbacks=()):
        self.args = args
        self.model = model.to(args.device)
        self.train_dataset = train_dataset
        self.eval_dataset = eval_dataset
        self.state = TrainerState()
        self.callback_handler = CallbackHandler(callbacks)
        self.optimizer = torch.optim.SGD(model.parameters(), lr=args.learning_rate)

    def compute_loss(self, model, inputs):
        x, y = (t.to(self.args.device) for t in inputs)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.args.bf16):
            logits = model(x)
        loss = F.cross_entropy(logits.float(), y)
        return loss, {"loss": loss, "logits": logits.float(), "labels": y}

    def log(self, logs):
        self.state.log_history.append(logs)
        self.callback_handler.call_event("on_log", self.args, self.state, logs=logs)

    def train(self):
        args, model = self.args, self.model
        for epoch in range(args.num_train_epochs):
            self.state.epoch = epoch
            model.train()
            tr_loss = 0.0
            logged = 0.0
            for step, inputs in enumerate(self.train_dataset):
                loss, _ = self.compute_loss(model, inputs)
                loss = loss / args.gradient_accumulation_steps
                loss.backward()
                tr_loss += loss.item()
                if (step + 1) % args.gradient_accumulation_steps == 0:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                    self.optimizer.step()
                    self.optimizer.zero_grad()
                    self.state.global_step += 1
                    if self.state.global_step % args.logging_steps == 0:
                        self.log({"loss": round((tr_loss - logged) / args.logging_steps, 4)})
                        logged = tr_loss
            metrics = self.evaluate()
            metrics["train_loss"] = round(tr_loss / len(self.train_dataset), 5)
            print("epoch", epoch, metrics)

    def evaluate(self):
        args, model = self.args, self.model
        model.eval()
        eval_loss = 0.0
        hits = 0
        seen = 0
        n_classes = 4
        for inputs in self.eval_dataset:
            loss, outputs = self.compute_loss(model, inputs)
            self.callback_handler.call_event("on_prediction_step", args, self.state, model=model, outputs=outputs)
            eval_loss += loss.item()
            preds = outputs["logits"].argmax(-1)
            hits += torch.einsum("nc,nc->", F.one_hot(preds, n_classes), F.one_hot(outputs["labels"], n_classes)).item()
            seen += len(preds)
        metrics = {"eval_loss": round(eval_loss / len(self.eval_dataset), 5), "eval_hits": hits, "eval_seen": seen}
        self.callback_handler.call_event("on_evaluate", args, self.state, metrics=metrics)
        return metrics


g = torch.Generator().manual_seed(3)
proj = torch.randn(10, 4, generator=g)


def batch(n):
    x = torch.randn(n, 10, generator=g)
    return x, (x @ proj).argmax(1)


model = nn.Sequential(nn.Linear(10, 32), nn.GELU(), nn.Linear(32, 4))
trainer = Trainer(model, TrainingArguments(), [batch(12) for _ in range(8)], [batch(12) for _ in range(3)],
                  callbacks=[PrinterCallback(), EWCCallback()])
trainer.train()
print("history", len(trainer.state.log_history))
