"""Local modules a script imports, parsed once each.

Helpers a training loop calls often live in another file of the project (`from utils import
to_cuda`, `from .data import Collate`); their bodies run once per iteration and hold the same
antipatterns as the loop itself. `paef scan main.py` follows `import x`, `from x import f` and
`from .x import f` to `.py` files inside the scanned file's directory tree, and nowhere else:
installed packages are never read. A script in a repository's subfolder (`tools/train.py`,
run from the top as `python -m tools.train`) imports the repository's packages from its top:
when a folder above the script up to `_MAX_UP` levels holds the repository's own marker (`.git`,
`pyproject.toml`, `setup.py`, `setup.cfg`), absolute imports the script's folder does not
resolve are looked up there too, and that folder's tree is the project.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import libcst as cst

from ..model import CellRef, SourceUnit
from ..source import MaskedSource
from .facts import Facts, FunctionNode, Prior
from .unit import parse_unit

_MAX_ALIAS_HOPS = 8  # `from .a import f` where a.py itself re-exports f from b.py, ...
_MAX_UP = 3  # tools/train.py, scripts/diffusion/train.py, ...
_PROJECT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg")
_MAX_DEPTH = 3  # main.py -> trainer.py -> utils.py -> ops.py
_MAX_LINES = 10_000  # all followed modules together (a project of its own is smaller)


@dataclass(eq=False)
class LocalModule:
    unit: SourceUnit  # the module's file, its `ref.path` as the user would name it
    masked: MaskedSource
    facts: Facts


class LocalModules:
    """The `.py` files under `root`, loaded on first import and cached (None: unreadable).
    Absolute imports resolve from the scanned script's folder, then from `root`."""

    def __init__(self, root: Path, shown_root: str, script_dir: Path | None = None,
                 shown_script_dir: str | None = None) -> None:
        self.root = root.resolve()
        self.shown_root = shown_root  # how the user spelled the root (relative paths stay relative)
        self.script_dir = (script_dir or root).resolve()
        # How the user spelled the script's folder: a module's path is shown from it, as the profiler
        # names the files it runs (`run_units`), so both name a module alike (see `load`).
        self.shown_script_dir = shown_script_dir
        self._loaded: dict[Path, LocalModule | None] = {}
        self._lines = 0
        self._paths: dict[tuple[Path, str], Path | None] = {}  # (importing folder, name) -> file

    @classmethod
    def around(cls, units: Iterable[SourceUnit]) -> "LocalModules | None":
        """For units read from a file on disk: that file's directory, or the repository above it."""
        for unit in units:
            path = unit.ref.path
            if path and os.path.isfile(path):
                script_dir = Path(path).parent.resolve()
                shown = os.path.dirname(path)
                for up, folder in enumerate((script_dir, *script_dir.parents[:_MAX_UP])):
                    if any((folder / marker).exists() for marker in _PROJECT_MARKERS):
                        return cls(folder, os.path.join(shown, *[os.pardir] * up) if up else shown, script_dir, shown)
                return cls(script_dir, shown, script_dir, shown)
        return None

    def importer(self, path: str | None) -> "ModuleImports | None":
        """What `import` statements in the file at `path` resolve to."""
        if not path:
            return None
        resolved = Path(path).resolve()
        return ModuleImports(self, resolved, 0) if resolved.is_relative_to(self.root) else None

    def _shown(self, path: Path) -> str:
        """The module's path as the user would spell it: from the script's folder as the script was
        given. From the project root's spelling, `paef profile train.py` run in a project three
        folders below its repository root named `losses.py` "../../../bench/proj/losses.py"
        (normpath cannot fold a leading `..`), where the profiler's lines say "losses.py": the
        measured lines of the imported module never met its findings, which said "outside the
        profiled window" (truth69 d08)."""
        if self.shown_script_dir is not None:
            return os.path.normpath(os.path.join(self.shown_script_dir, os.path.relpath(path, self.script_dir)))
        return os.path.normpath(os.path.join(self.shown_root, str(path.relative_to(self.root))))

    @property
    def loaded(self) -> list[LocalModule]:
        return [m for m in self._loaded.values() if m is not None]

    def load(self, path: Path, depth: int) -> LocalModule | None:
        """The module at `path`, `depth` imports away from the scanned file (None: not followed)."""
        if path in self._loaded:
            return self._loaded[path]
        if depth > _MAX_DEPTH or self._lines >= _MAX_LINES:
            return None  # not cached: a shorter import path may still reach it
        self._loaded[path] = None  # an import cycle resolves to nothing while loading
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        self._lines += text.count("\n") + 1
        if self._lines > _MAX_LINES:
            return None
        shown = self._shown(path)
        parsed = parse_unit(SourceUnit(CellRef(shown), text))
        if parsed.module is None:
            return None
        facts = Facts(parsed.module, None, Prior(), imports=ModuleImports(self, path, depth), positions=lambda: parsed.positions,
                      text=parsed.masked.text)
        module = LocalModule(parsed.unit, parsed.masked, facts)
        self._loaded[path] = module
        return module


@dataclass(frozen=True)
class ModuleImports:
    """Import resolution as seen from one file (relative imports start from its folder)."""

    modules: LocalModules
    path: Path
    depth: int  # imports between the scanned file and this one

    def function(self, qualified: str) -> tuple[Facts, FunctionNode] | None:
        """The function `qualified` (`utils.to_cuda`, `.data.collate`, `models.Net.forward`)."""
        return self._defined(qualified, "functions")  # type: ignore[return-value]

    def class_def(self, qualified: str) -> tuple[Facts, cst.ClassDef] | None:
        """The class `qualified` names."""
        return self._defined(qualified, "classes")  # type: ignore[return-value]

    def _defined(self, qualified: str, table: str, hops: int = 0) -> tuple[Facts, cst.CSTNode] | None:
        """What a module defines under `qualified` (in its `functions` or `classes`), through a
        package's re-exports (`from .base import BaseTrainer` in `training/__init__.py`)."""
        found = self._member(qualified)
        if found is None:
            return None
        module, rest = found
        node = getattr(module.facts, table).get(rest)
        if node is not None:
            return module.facts, node
        target = module.facts.aliases.get(rest)
        if target is not None and hops < _MAX_ALIAS_HOPS:
            return ModuleImports(self.modules, module.facts_path, self.depth + 1)._defined(target, table, hops + 1)
        return None

    def module(self, qualified: str) -> Facts | None:
        """The local module `qualified` names itself (`import utils` -> utils.py)."""
        path = self._module_path(qualified)
        module = self.modules.load(path, self.depth + 1) if path is not None else None
        return module.facts if module is not None else None

    def module_of(self, qualified: str) -> Facts | None:
        """The local module `qualified` is, or the one defining it (`monitor` for `monitor.attach`):
        its import runs its top-level code, and what it defines may run in the importer's loops."""
        whole = self.module(qualified)
        if whole is not None:
            return whole
        found = self._member(qualified)
        return found[0].facts if found is not None else None

    def _member(self, qualified: str) -> "tuple[_Loaded, str] | None":
        """The longest module prefix of `qualified` that is a local file, and the rest."""
        level = len(qualified) - len(qualified.lstrip("."))
        parts = qualified[level:].split(".")
        for cut in range(len(parts) - 1, 0, -1):
            path = self._module_path("." * level + ".".join(parts[:cut]))
            if path is not None:
                module = self.modules.load(path, self.depth + 1)
                if module is None:
                    return None
                return _Loaded(module.facts, path), ".".join(parts[cut:])
        return None

    def _module_path(self, qualified: str) -> Path | None:
        """(Cached: every call site of every loop asks, and resolving a path reads the disk.)"""
        key = (self.path.parent, qualified)
        paths = self.modules._paths
        if key not in paths:
            paths[key] = self._find_module(qualified)
        return paths[key]

    def _find_module(self, qualified: str) -> Path | None:
        level = len(qualified) - len(qualified.lstrip("."))
        parts = [p for p in qualified[level:].split(".") if p]
        if not parts:
            return None
        if level:
            base = self.path.parent
            for _ in range(level - 1):
                base = base.parent
            bases: tuple[Path, ...] = (base,)
        else:
            bases = (self.modules.script_dir, self.modules.root)
        for base in dict.fromkeys(bases):
            stem = base.joinpath(*parts)
            for candidate in (stem.with_name(stem.name + ".py"), stem / "__init__.py"):
                resolved = candidate.resolve()
                if resolved.is_relative_to(self.modules.root) and resolved.is_file():
                    return resolved
        return None


@dataclass(frozen=True)
class _Loaded:
    facts: Facts
    facts_path: Path
