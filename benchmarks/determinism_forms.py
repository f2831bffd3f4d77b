"""The same program as a `.py`, copied under another name, as a one-cell `.ipynb`, and split into
cells at its top-level `def`/`class`/`for`/`while`: prints each finding (line, rule, kind, edits;
cells mapped back to the program's lines) that one form has and the `.py` lacks (issue 8).

    PYTHONPATH=. .venv/bin/python -m benchmarks.determinism_forms PROGRAM.py ...   (writes under /tmp/paef_forms)
"""
from __future__ import annotations

import ast
import json
import os
import shutil
import sys

from paef_jupyter.api import analyze_path


def rows(path: str, offsets: dict[int, int] | None = None) -> set[tuple]:
    out = set()
    for f in analyze_path(path).findings:
        if os.path.abspath(f.ref.path or "") != os.path.abspath(path):
            continue
        fix = f.fix
        kind = "none" if fix is None else "auto" if fix.automatic else "review" if fix.needs_review else "hint"
        off = 0 if offsets is None else offsets[f.ref.cell]
        edits = () if fix is None else tuple((e.line + off, e.col, e.end_line + off, e.end_col, e.text) for e in fix.edits)
        out.add((f.line + off, f.rule, kind, edits))
    return out


def notebook(path: str, chunks: list[str]) -> None:
    cells = [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [], "source": c}
             for i, c in enumerate(chunks)]
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    with open(path, "w") as fh:
        json.dump(nb, fh)


def split(text: str) -> tuple[list[str], list[int]]:
    """The cells, and the line offset of each."""
    tree = ast.parse(text)
    lines = text.split("\n")
    starts = sorted({1} | {(n.decorator_list[0].lineno if getattr(n, "decorator_list", None) else n.lineno)
                          for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))}
                    | {n.lineno for n in tree.body if isinstance(n, (ast.For, ast.While))})
    bounds = starts + [len(lines) + 1]
    return ["\n".join(lines[a - 1:b - 1]) for a, b in zip(bounds, bounds[1:]) if a < b], [a - 1 for a in starts]


def main(programs: list[str]) -> None:
    for src in programs:
        text = open(src).read()
        base = os.path.splitext(os.path.basename(src))[0]
        d = f"/tmp/paef_forms/{base}"
        os.makedirs(d, exist_ok=True)
        py = rows(src)
        copy = f"{d}/other_{base}.py"; shutil.copy(src, copy)
        one = f"{d}/{base}_one.ipynb"; notebook(one, [text])
        chunks, offs = split(text)
        many = f"{d}/{base}_split.ipynb"; notebook(many, chunks)
        forms = {"copy": rows(copy), "one-cell": rows(one, {0: 0}), "split": rows(many, dict(enumerate(offs)))}
        for name, r in forms.items():
            for x in sorted(py - r, key=str):
                print(f"{src} {name}: py-only {x[:3]} {str(x[3])[:150]}")
            for x in sorted(r - py, key=str):
                print(f"{src} {name}: {name}-only {x[:3]} {str(x[3])[:150]}")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
