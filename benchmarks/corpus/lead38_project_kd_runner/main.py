# corpus: runnable
"""A project in the style of public training code (session 38's categories): a trainer that
builds both loaders in one method and keeps them on `self`, a GRU student whose `forward` picks
each sequence's last state in a helper, a distillation function given its frozen teacher by the
caller, an evaluation function that builds its class weights once before its own loop, and an
RL runner whose agent is stored on it by the script. Near misses stay unlabelled (silent)."""
import torch

from agent import Agent
from models import Student, Teacher
from runner import Runner
from trainer import Trainer, evaluate, train_kd

torch.manual_seed(0)
torch.set_num_threads(1)

trainer = Trainer(Student())
teacher = Teacher()
teacher.eval()
for epoch in range(2):
    print("kd", round(train_kd(trainer.model, teacher, trainer.opt, trainer.trainloader), 4))
    print("eval", round(evaluate(trainer.model, trainer.testloader), 4))

runner = Runner()
runner.agent = Agent()
print("rl", round(runner.run(), 4))
