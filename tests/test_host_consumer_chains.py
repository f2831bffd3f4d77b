"""host-sync names a host-only consumer reached through a same-value method chain
(`ToPILImage()(sr.cpu().squeeze())`, `np.mean(d.cpu().squeeze())`) or through a PIL converter
(`Image.fromarray(x.cpu().numpy())`): the copy is the program's own need (low, a hint), not a
wait to remove. Near misses keep the old verdict: a reduction in the chain, a list that keeps
the copy, a torchvision transform that also runs on the device."""

from __future__ import annotations

import pytest

from paef_jupyter.api import analyze_source
from paef_jupyter.model import CellRef, Severity

HEADER = '''import numpy as np
import torch
import torch.nn as nn
from PIL import Image
from torchvision.transforms import Normalize, ToPILImage
from torchvision.transforms.functional import to_pil_image

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Conv2d(3, 3, 3, padding=1).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.rand(1, 3, 8, 8), torch.rand(1, 3, 8, 8)) for _ in range(4)]
'''

EVAL = HEADER + '''
model.eval()
scores = []
for lr, hr in loader:
    lr, hr = lr.to(device), hr.to(device)
    with torch.no_grad():
        sr = model(lr)
    {line}
    scores.append(0.0)
'''

TRAIN = HEADER + '''
model.train()
for lr, hr in loader:
    lr, hr = lr.to(device), hr.to(device)
    out = model(lr)
    loss = ((out - hr) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    {line}
'''

OWN_NEED = [
    (EVAL, "img = ToPILImage()(sr.cpu().squeeze())"),  # the PSNR of public27 p04 train.py 93
    (EVAL, "img = ToPILImage()(sr.cpu().squeeze().permute(1, 2, 0).contiguous())"),
    (EVAL, "img = Image.fromarray(sr.cpu().squeeze().numpy())"),
    (EVAL, "img = to_pil_image(sr.cpu().squeeze(0))"),
    (TRAIN, "d = np.mean(out.detach().cpu().squeeze())"),
    (TRAIN, "d = np.mean(out.cpu().detach().flatten())"),
]

STILL_A_WAIT = [
    (EVAL, "kept = [sr.cpu().squeeze()]"),  # a list keeps the copy: nothing on the host needs it yet
    (EVAL, "img = ToPILImage()(sr.cpu().sum(0))"),  # a reduction in the chain: stays a tensor op on the copy
    (EVAL, "x = Normalize([0.5] * 3, [0.5] * 3)(sr.cpu().squeeze())"),  # a transform that runs on the device too
    (TRAIN, "d = out.detach().cpu().squeeze()"),
    (TRAIN, "v = loss.item()"),
]


def _sync_findings(template: str, line: str):
    text = template.format(line=line)
    report = analyze_source(text, CellRef("chain.py"), rules=["host-sync"])
    assert not report.errors
    target = text.splitlines().index("    " + line) + 1
    return [f for f in report.findings if f.line == target]


@pytest.mark.parametrize(("template", "line"), OWN_NEED)
def test_host_only_consumer_through_a_chain_is_the_programs_own_need(template: str, line: str) -> None:
    found = _sync_findings(template, line)
    assert len(found) == 1, line
    assert found[0].severity is Severity.LOW, (line, found[0].message)
    assert "the program's own need" in found[0].message
    assert found[0].fix is not None and not found[0].fix.safe


@pytest.mark.parametrize(("template", "line"), STILL_A_WAIT)
def test_near_misses_stay_a_wait(template: str, line: str) -> None:
    found = _sync_findings(template, line)
    assert len(found) == 1, line
    assert found[0].severity in (Severity.MEDIUM, Severity.HIGH), (line, found[0].message)
    assert "the program's own need" not in found[0].message
