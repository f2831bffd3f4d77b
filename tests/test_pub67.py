"""Public check 67 (benchmarks/results/public_check67.md): a fact loop invariance lacked.

p04 (a GRU seq2seq project) builds `torch.tensor([[Lang.SOS_token]]).to(device)` on every step,
`Lang` imported from a local module whose class body binds `SOS_token = 0`. The same loop calls
`encoder.init_hidden()`, a method of another local module, and `_imported_state_changed` took any
local module's code the loop runs as able to change imported state: the tensor was not invariant,
and neither `redundant-tensor` nor `cpu-then-move` reported it. A class constant (a number or string
bound once in the class's own body, read as `C.attr` through a from-imported class) changes only by
a store to an attribute of that name or by `setattr` / `delattr` / `__dict__` / `vars`: the local
module's code is now read for those instead. The shape under
tests/fixtures/public_shapes/check67/ is own-written; the public copies stay out of the repository."""
from __future__ import annotations

import shutil
from pathlib import Path

from public_findings import tagged_line

from paef_jupyter.api import analyze_path

SHAPE = Path(__file__).resolve().parent / "fixtures" / "public_shapes" / "check67" / "decoder_start"
RULE = "redundant-tensor"


def _project(tmp_path: Path, edits: dict[str, tuple[str, str]] | None = None) -> Path:
    """The shape copied to `tmp_path`, each file's `old` text replaced by `new` (asserted present)."""
    for src in SHAPE.glob("*.py"):
        text = src.read_text()
        for old, new in ([edits[src.name]] if edits and src.name in edits else []):
            assert old in text, (src.name, old)
            text = text.replace(old, new)
        (tmp_path / src.name).write_text(text)
    return tmp_path / "train_steps.py"


def _lines(entry: Path) -> dict[int, str]:
    report = analyze_path(str(entry), rules=[RULE])
    assert not report.errors
    return {f.line: f.message for f in report.findings if Path(f.ref.path or "").name == entry.name}


def test_a_class_constant_read_in_a_loop_that_runs_local_module_code_is_reported(tmp_path: Path) -> None:
    entry = _project(tmp_path)
    found = _lines(entry)
    line = tagged_line(entry.read_text(), "bos")
    assert line in found and "Vocab.BOS" in found[line]


def test_two_constants_of_the_class_in_one_tensor_are_reported(tmp_path: Path) -> None:
    entry = _project(tmp_path, {"train_steps.py": ("torch.tensor([Vocab.BOS])", "torch.tensor([Vocab.BOS, Vocab.EOS][:1])")})
    assert tagged_line(entry.read_text(), "bos") in _lines(entry)


# Near misses: the constant may change, or is not proved a constant. Each stays silent.
_START = "    def start_state(self):\n        return torch.zeros(1, self.h)\n"
_NEAR_MISSES = {
    "the method the loop calls stores to the class constant": {
        "nets.py": (_START, "    def start_state(self):\n        from tokens import Vocab\n        Vocab.BOS += 1\n"
                    "        return torch.zeros(1, self.h)\n")},
    "it stores an attribute of that name on its own object": {
        "nets.py": (_START, "    def start_state(self):\n        self.BOS = 5\n        return torch.zeros(1, self.h)\n")},
    "it sets attributes by name": {
        "nets.py": (_START, "    def start_state(self):\n        setattr(self, 'h', self.h)\n        return torch.zeros(1, self.h)\n")},
    "it writes through `__dict__`": {
        "nets.py": (_START, "    def start_state(self):\n        self.__dict__['h'] = self.h\n        return torch.zeros(1, self.h)\n")},
    "the class binds a list, which code can change in place": {
        "tokens.py": ("    BOS = 1\n", "    BOS = [1]\n"),
        "train_steps.py": ("[Vocab.BOS]", "[Vocab.BOS[0]]")},
    "the class body binds the name twice": {
        "tokens.py": ("    EOS = 2\n", "    EOS = 2\n    BOS = 3\n")},
    "the constant is inherited, not bound in the class's own body": {
        "tokens.py": ("class Vocab:\n    PAD = 0\n    BOS = 1\n", "class Base:\n    BOS = 1\n\n\nclass Vocab(Base):\n    PAD = 0\n")},
    "the module's state is read, not a from-imported class": {
        "train_steps.py": ("from tokens import Vocab\n", "import tokens\nVocab = None\n")},
}


def test_near_misses_stay_silent(tmp_path: Path) -> None:
    for i, (why, edits) in enumerate(_NEAR_MISSES.items()):
        root = tmp_path / f"v{i}"
        root.mkdir()
        if why.startswith("the module's state"):
            edits = {"train_steps.py": edits["train_steps.py"]}
            entry = _project(root, edits)
            text = entry.read_text().replace("[Vocab.BOS]", "[tokens.Vocab.BOS]")
            entry.write_text(text)
        else:
            entry = _project(root, edits)
        assert tagged_line(entry.read_text(), "bos") not in _lines(entry), why


def test_the_scan_of_the_shape_reports_the_helpers_rebuild_too(tmp_path: Path) -> None:
    """The start state built on the host in the other module is still the finding it was."""
    entry = _project(tmp_path)
    report = analyze_path(str(entry), rules=[RULE])
    assert any(Path(f.ref.path or "").name == "nets.py" for f in report.findings)
    shutil.rmtree(tmp_path / "__pycache__", ignore_errors=True)
