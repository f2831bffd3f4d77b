"""Who imports a module that is fixed on its own, and whether they may read one of its globals.

`paef fix metrics.py` sees metrics.py only: a global it fills (`HISTORY.append(loss)` in a function,
`global RUNNING`) is read by the files that import it (`metrics.HISTORY[-1]`, `from metrics import
*`), and a proof that no reader needs the old value must look there too (red team 30b: the importer
printed `metrics.HISTORY[-1]`, `grad_fn` lost after the detach). The project's other files are found
as Python finds them (the module's folder, or the folder above its package) and read as text: a
mention of the name in a file importing the module is taken as a read (a refusal may over-approximate).
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
from pathlib import Path

_MAX_FILES = 300  # a project's own files; more is a folder of unrelated programs
_MAX_BYTES = 4_000_000


def importers_of(path: str | None) -> tuple[tuple[str, str], ...] | None:
    """(file, text) of every other project file whose import lines name the module at `path`;
    None when `path` is not a `.py` file on disk (a notebook cell, a string) or its project is too
    large to read."""
    if not path or not path.endswith(".py") or not os.path.isfile(path):
        return None
    return _importers(str(Path(path).resolve()))


def read_by_importers(path: str | None, name: str) -> str:
    """Why an importer of the module at `path` may read its global `name` ('' if none does):
    a file importing it mentions `name` or imports `*` from it."""
    found = importers_of(path)
    if not found:
        return ""
    word = re.compile(rf"\b{re.escape(name)}\b")
    for file, text in found:
        if word.search(text) or re.search(r"import\s+\*", text):
            return (f"`{name}` is a global of this module, and {os.path.basename(file)} imports it and may read "
                    f"`{name}` (this file is fixed on its own: what an importer reads of it is out of sight)")
    return ""


@functools.lru_cache(maxsize=64)
def _importers(resolved: str) -> tuple[tuple[str, str], ...] | None:
    module = Path(resolved)
    root = module.parent
    names = [module.stem]
    while (root / "__init__.py").is_file() and root.parent != root:  # pkg/engine.py: `pkg.engine`, from pkg's parent
        names.append(root.name)
        root = root.parent
    if module.stem == "__init__":
        names = names[1:]
    pattern = re.compile(
        r"^\s*(?:from\s+[\w.]*\b(?:%s)\b[\w.]*\s+import|import\s+[^\n#]*\b(?:%s)\b|from\s+[\w.]+\s+import\s+[^\n#]*\b(?:%s)\b)"
        r"|import_module\([^)]*\b(?:%s)\b|__import__\([^)]*\b(?:%s)\b" % ((("|".join(map(re.escape, names))),) * 5),
        re.MULTILINE)
    found: list[tuple[str, str]] = []
    size = 0
    files = _project_files(root)
    if files is None:
        return None
    for file in files:
        if file.resolve() == module:
            continue
        text = _code_text(file)
        if text is None:
            continue
        size += len(text)
        if size > _MAX_BYTES:
            return None
        if pattern.search(text):
            found.append((str(file), text))
    return tuple(found)


def rebound_by_importers(path: str | None, names: set[str]) -> str:
    """Why a global of the module at `path` that its code reads may hold something else when that
    code runs ('' if not seen): a file importing it rebinds it through the module (`ev.model =
    SlopeNet()`, `aug.perturb = drifting`, `setattr(ev, "model", ...)`; red team 30b)."""
    found = importers_of(path)
    if not found or not names:
        return ""
    stem = Path(path).stem if path else ""
    for file, text in found:
        aliases = {stem} | set(re.findall(rf"import\s+[\w.]*\b{re.escape(stem)}\s+as\s+(\w+)", text))
        alias = "|".join(sorted(map(re.escape, aliases)))
        for name in sorted(names):
            rebind = re.compile(rf"\b(?:{alias})\s*\.\s*{re.escape(name)}\s*=(?!=)"
                                rf"|setattr\(\s*(?:{alias})\s*,\s*[\"']{re.escape(name)}[\"']")
            if rebind.search(text):
                return (f"{os.path.basename(file)} imports this module and rebinds its global `{name}`, which this "
                        "code reads (this file is fixed on its own: what the importer puts there is out of sight)")
    return ""


_NEEDS_GRAD_TEXT = re.compile(r"\.backward\b|autograd\s*\.\s*grad\b|requires_grad_\b|enable_grad\b|\.grad\b"
                              r"|requires_grad\s*=\s*True|\.step\(")
_ITERATION_NAMES = frozenset({"__iter__", "__next__", "__getitem__"})


def project_iteration_needing_grad(path: str | None) -> str:
    """`file:function` of iteration code in the project of the module at `path` that may need autograd
    ('' if none seen): a module fixed on its own is handed its batches by importers out of sight, and
    a generator, an `__iter__` / `__next__` / `__getitem__` or a `collate_fn` of any project file
    whose text back-propagates, differentiates or steps may be what they hand it (red team 47: an
    FGSM generator of attacks.py handed to evaluation.py's loop). Read as text, as `importers_of`
    reads importers: a refusal may over-approximate."""
    if not importers_of(path):
        return ""
    return _project_iteration_needing_grad(str(Path(path).resolve().parent))  # type: ignore[arg-type]


@functools.lru_cache(maxsize=64)
def _project_iteration_needing_grad(root: str) -> str:
    files = _project_files(Path(root))
    if files is None:
        return "a project too large to read"
    for file in sorted(files):
        text = _code_text(file)
        tree = _parse(text)
        if text is None or tree is None:
            continue
        collates = {k.value.id for n in ast.walk(tree) if isinstance(n, ast.Call) for k in n.keywords
                    if k.arg == "collate_fn" and isinstance(k.value, ast.Name)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            generator = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(node))
            if generator or node.name in _ITERATION_NAMES or node.name in collates:
                segment = ast.get_source_segment(text, node) or ""
                if _NEEDS_GRAD_TEXT.search(segment):
                    return f"{file.name}:{node.name}"
    return ""


# torch's global defaults set by a call spelled in a file's text (`torch.set_default_dtype(torch.float64)`,
# `set_default_tensor_type`, a `getattr(torch, "set_default_" + kind)` lookup) or a default-device block.
_DTYPE_SETTER_TEXT = re.compile(r"\bset_default_(?:dtype|tensor_type)\b|[\"']set_default_")
_DEVICE_SETTER_TEXT = re.compile(r"\bset_default_device\b|[\"']set_default_|\bwith\s+torch\s*\.\s*device\s*\(")


def project_default_setter(path: str | None, device: bool = False) -> str:
    """`file (code)` of a place where another file of the project of the module at `path` changes
    torch's default dtype (or, with `device`, its default device); '' if none is seen. A module fixed
    on its own (`paef fix scoring.py`) sees only its own code and the local modules it imports, not
    the entry script that imports it and sets `torch.set_default_dtype(torch.float64)` before calling
    its helpers: `torch.tensor(<Python floats>)` there builds float64, which a rewrite choosing float32
    from the defaults in view does not follow (red team 50 probe: `.item()` losses joined by
    `torch.stack(...).float()` where the original made float64). Read as text, as `importers_of`
    reads importers: a refusal may over-approximate."""
    if not importers_of(path):
        return ""
    return _project_default_setter(str(Path(path).resolve()), device)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=128)
def _project_default_setter(resolved: str, device: bool) -> str:
    module = Path(resolved)
    files = _project_files(_project_root(module))
    if files is None:
        return "a project too large to read"
    pattern = _DEVICE_SETTER_TEXT if device else _DTYPE_SETTER_TEXT
    for file in sorted(files):
        if file.resolve() == module:
            continue  # the module's own code is analysed as code, not as text
        text = _code_text(file)
        found = pattern.search(text) if text is not None else None
        if found:
            return f"{file.name} (`{found.group(0).strip()}`)"
    return ""


def _project_files(root: Path) -> list[Path] | None:
    """The `.py` / `.ipynb` files under `root` (hidden folders, caches and environments skipped);
    None past `_MAX_FILES` entries seen (a home folder, a corpus of programs: not one project)."""
    found: list[Path] = []
    seen = 0
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__pycache__")) and d not in ("site-packages", "node_modules")]
        seen += len(names) + len(dirs)
        if seen > 20 * _MAX_FILES:
            return None
        found += [Path(folder, n) for n in names if n.endswith((".py", ".ipynb"))]
        if len(found) > _MAX_FILES:
            return None
    return found


# Module hooks registered by name (`layer.register_forward_hook(...)`, `torch.nn.modules.module.
# register_module_forward_hook(...)`, `getattr(layer, "register_forward_hook")`).
_HOOK_NAMES = frozenset({"register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
                         "register_backward_hook", "register_full_backward_pre_hook", "register_module_forward_hook",
                         "register_module_forward_pre_hook"})
# Layers whose eval-mode forward takes another kernel when grad is off (`_grad_only_code._FAST_PATH_CLASSES`).
_FAST_PATH_NAMES = frozenset({"MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder",
                              "TransformerDecoderLayer", "TransformerDecoder", "Transformer", "LSTM"})
# What a model class's `forward` / `__call__` may do that asks for autograd or reads the grad mode.
_FORWARD_GRAD_TEXT = re.compile(r"autograd\s*\.\s*grad\b|requires_grad_\b|enable_grad\b|set_grad_enabled\b"
                                r"|is_grad_enabled\b|\.register_hook\b|\.retain_grad\b|\.backward\b"
                                r"|\.requires_grad\b|\.grad_fn\b")


def project_model_code_needing_grad(path: str | None) -> str:
    """Why a model handed to a function of the module at `path` may compute something else under
    no_grad ('' if no project file says so). A module fixed on its own (`paef fix evaluate.py`) sees
    its evaluation helper's `model(x)` but not the callers that build the model and hand it over: a
    forward hook one of them (or a third module they call) registers keeps every output (red team
    48: kept activations saved with torch.save loaded back without `requires_grad`); an attention,
    transformer or LSTM layer there takes PyTorch's fast path under no_grad in eval mode (another
    kernel, zeros at padded positions); a model class whose forward asks for autograd or reads the
    grad mode. Read as text (each file parsed, a notebook's code cells joined), as `importers_of`
    reads importers: a refusal may over-approximate."""
    if not importers_of(path):
        return ""
    return _project_model_code_needing_grad(str(Path(path).resolve()))  # type: ignore[arg-type]


@functools.lru_cache(maxsize=64)
def _project_model_code_needing_grad(resolved: str) -> str:
    module = Path(resolved)
    files = _project_files(_project_root(module))
    if files is None:
        return "a project too large to read"
    for file in sorted(files):
        if file.resolve() == module:
            continue  # the module's own code is analysed as code, not as text
        tree = _parse(_code_text(file))
        if tree is None:
            continue
        for node in ast.walk(tree):
            name = (node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name)
                    else node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None)
            if name in _HOOK_NAMES:
                return f"{file.name} registers a module hook (`{name}`)"
            if name in _FAST_PATH_NAMES:
                return f"{file.name} builds or names `{name}`"
            if isinstance(node, ast.ClassDef):
                for method in node.body:
                    if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.name in ("forward", "__call__") \
                            and _FORWARD_GRAD_TEXT.search(ast.unparse(method)):
                        return f"{file.name}:{node.name}.{method.name} asks for autograd or reads the grad mode"
    return ""


def _project_root(module: Path) -> Path:
    """The folder Python finds the module from (above its package, as `_importers` climbs)."""
    root = module.parent
    while (root / "__init__.py").is_file() and root.parent != root:
        root = root.parent
    return root


def _parse(text: str | None) -> ast.Module | None:
    try:
        return ast.parse(text) if text is not None else None
    except (SyntaxError, ValueError):
        return None


def _code_text(file: Path) -> str | None:
    """A project file's code: a `.py` file's text, or a notebook's code cells joined (magics and shell
    escapes dropped; a notebook's JSON would hide its import lines behind quotes and escapes); None
    when it cannot be read."""
    try:
        text = file.read_text(encoding="utf-8")
        if file.suffix != ".ipynb":
            return text
        cells = json.loads(text).get("cells", [])
        lines = [line for cell in cells if cell.get("cell_type") == "code"
                 for line in "".join(cell.get("source", [])).splitlines()]
        return "\n".join(line for line in lines if not line.lstrip().startswith(("%", "!")))
    except (OSError, UnicodeDecodeError, ValueError, AttributeError, TypeError):
        return None
