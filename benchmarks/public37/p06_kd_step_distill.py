# Public check 37, p06: knowledge distillation step (teacher under no_grad, KL on tempered softmax).
# Source: https://github.com/pacman82/gpt-neox distill_gpt2.py @ 0add0b38 (KD_loss, kd_step)
# Changes to make it run on the CPU in seconds:
# - the megatron / wandb imports and the `__main__` block (megatron initialisation, GPT2 models,
#   dataset iterators: not fetched, not runnable here) dropped; kd_step and KD_loss are the source's.
# - a driver at the end (stand-in for the megatron setup): a teacher and a smaller student
#   (embedding + linear language-model stand-ins called as `model(inputs=...)`, as kd_step does),
#   `cuda` when available, 12 seeded random token batches, one kd_step per batch, the student's
#   KL to the teacher printed after training, and a checksum.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Optimizer


KD_loss = nn.KLDivLoss(reduction='batchmean')

def kd_step(teacher: nn.Module,
            student: nn.Module,
            temperature: float,
            inputs: torch.tensor,
            optimizer: Optimizer):
    teacher.eval()
    student.train()
    
    with torch.no_grad():
        logits_t = teacher(inputs=inputs)
    logits_s = student(inputs=inputs)
    
    loss = KD_loss(input=F.log_softmax(logits_s/temperature, dim=-1),
                   target=F.softmax(logits_t/temperature, dim=-1))
    
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()


# ---- driver (stand-in for the megatron setup; not part of the source) ----
class TinyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Dropout(0.1))
        self.out = nn.Linear(dim, vocab)

    def forward(self, inputs):
        return self.out(self.mlp(self.emb(inputs)))


if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    teacher = TinyLM(50, 32).to(device)
    student = TinyLM(50, 8).to(device)
    optimizer = torch.optim.Adam(student.parameters(), lr=1e-2)
    batches = [torch.randint(0, 50, (4, 16)) for _ in range(12)]
    for inputs in batches:
        inputs = inputs.to(device)
        kd_step(teacher, student, 2.0, inputs, optimizer)
    student.eval()
    with torch.no_grad():
        x = batches[0].to(device)
        kl = KD_loss(F.log_softmax(student(inputs=x) / 2.0, dim=-1), F.softmax(teacher(inputs=x) / 2.0, dim=-1))
    print(f"kl after distillation {kl.item():.6f}")
    print("checksum", round(sum(p.double().sum().item() for p in student.parameters()), 6))
