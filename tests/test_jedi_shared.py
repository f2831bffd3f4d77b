"""jedi's answers shared across analyses (`JediOracle.share_answers`): off by default (a
kernel's local modules change on disk), on in processes that re-read unchanging sources."""

from __future__ import annotations

import subprocess
import sys

import pytest

from paef_jupyter.static import types
from paef_jupyter.static.types import JediOracle

TENSOR = "torch._tensor.Tensor"
SOURCE = "import torch\nx = torch.zeros(3)\nx\n"


@pytest.fixture
def scripts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources jedi was asked to read; sharing starts empty."""
    made: list[str] = []
    real = types._own_script

    def counting(source: str, environment: object) -> object:
        made.append(source)
        return real(source, environment)

    monkeypatch.setattr(types, "_own_script", counting)
    monkeypatch.setattr(JediOracle, "_shared", None)
    return made


def test_off_each_analysis_asks_jedi(scripts: list[str]) -> None:
    assert JediOracle(SOURCE).type_name(3, 0) == JediOracle(SOURCE).type_name(3, 0) == TENSOR
    assert len(scripts) == 2


def test_on_the_same_source_and_place_is_answered_once(scripts: list[str]) -> None:
    JediOracle.share_answers()
    assert JediOracle(SOURCE).type_name(3, 0) == TENSOR
    assert JediOracle(SOURCE).type_name(3, 0) == TENSOR
    assert len(scripts) == 1
    assert JediOracle(SOURCE + "\n").type_name(3, 0) == TENSOR  # another source: asked
    assert len(scripts) == 2


def test_answers_learnt_elsewhere_are_used_and_another_directory_asks_again(
        scripts: list[str], tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    JediOracle.share_answers()
    JediOracle(SOURCE).type_name(3, 0)
    learnt = list(JediOracle.share_answers().items())
    monkeypatch.setattr(JediOracle, "_shared", None)
    JediOracle.share_answers(learnt)
    assert JediOracle(SOURCE).type_name(3, 0) == TENSOR and len(scripts) == 1
    monkeypatch.chdir(tmp_path)  # jedi reads the source's imports from here too
    JediOracle(SOURCE).type_name(3, 0)
    assert len(scripts) == 2


def test_off_by_default_in_a_fresh_process() -> None:
    code = "from paef_jupyter.static.types import JediOracle; print(JediOracle._shared)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "None\n"
