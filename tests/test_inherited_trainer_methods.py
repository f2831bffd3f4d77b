"""A trainer subclass whose step calls a method it inherits from a base class in another module.

`class ClassificationTrainer(BaseTrainer)` with `self.backward_pass(loss)` in its loop, where
`BaseTrainer` (imported from a sibling module, or re-exported by a package's `__init__.py`) does the
backward and the optimizer step: the loop is a training loop, so what it reads from the device
every step is a training step's sync (`high`), not an evaluation step's (`medium`). Projects written in the style of public trainer-class code.
"""

from __future__ import annotations

import json
from pathlib import Path

from paef_cli import paef

BASE = '''\
import torch


class BaseTrainer:
    def __init__(self, model, optimizer, loader):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.optimizer = optimizer
        self.loader = loader
        self.scaler = torch.cuda.amp.GradScaler()

    def backward_pass(self, loss):
        self.optimizer.zero_grad(set_to_none=True)
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
'''

TRAINER = '''\
import torch
from {module} import BaseTrainer


class ClassificationTrainer(BaseTrainer):
    def train_epoch(self):
        self.model.train()
        for x, y in self.loader:
            x, y = x.to(self.device), y.to(self.device)
            with torch.cuda.amp.autocast():
                loss = torch.nn.functional.cross_entropy(self.model(x), y)
            self.{step}(loss)
            print(f"loss {{loss.item():.4f}}")
{after}
'''


def scan(path: Path) -> list[tuple[str, int, str]]:
    """host-sync findings: a training step's read is `high`, an evaluation step's `medium`."""
    proc = paef("scan", str(path), "--format", "json", "--rule", "host-sync")
    assert proc.returncode in (0, 1), proc.stderr
    return [(Path(f["path"]).name, f["line"], f["severity"]) for f in json.loads(proc.stdout)["findings"]]


def write(root: Path, files: dict[str, str]) -> None:
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def trainer(module: str = "base", step: str = "backward_pass", after: str = "") -> str:
    return TRAINER.format(module=module, step=step, after=after)


def test_inherited_step_from_a_sibling_module(tmp_path: Path) -> None:
    write(tmp_path, {"base.py": BASE, "trainer.py": trainer()})
    assert scan(tmp_path / "trainer.py") == [("trainer.py", 13, "high")]


def test_inherited_step_through_a_package_reexport(tmp_path: Path) -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/training/__init__.py": "from .base import BaseTrainer\n",
                     "pkg/training/base.py": BASE,
                     "pkg/training/trainer.py": trainer(module="pkg.training")})
    assert scan(tmp_path / "pkg" / "training" / "trainer.py") == [("trainer.py", 13, "high")]


def test_near_miss_an_inherited_method_that_does_not_train(tmp_path: Path) -> None:
    base = BASE + '''
    def log_step(self, loss):
        self.last = loss.detach()
'''
    write(tmp_path, {"base.py": base, "trainer.py": trainer(step="log_step")})
    assert scan(tmp_path / "trainer.py") == [("trainer.py", 13, "medium")]  # an evaluation loop


def test_near_miss_the_base_class_is_not_a_local_module(tmp_path: Path) -> None:
    write(tmp_path, {"trainer.py": trainer(module="somelib.trainers")})
    assert scan(tmp_path / "trainer.py") == [("trainer.py", 13, "medium")]  # an evaluation loop


def test_near_miss_a_subclass_method_overrides_the_name(tmp_path: Path) -> None:
    override = '''
    def backward_pass(self, loss):
        self.history.append(loss.detach())
'''
    write(tmp_path, {"base.py": BASE, "trainer.py": trainer(after=override)})
    assert scan(tmp_path / "trainer.py") == [("trainer.py", 13, "medium")]  # an evaluation loop
