"""Small pure helpers over libcst nodes: dotted names, names read, names bound."""

from __future__ import annotations

from typing import Iterable

import libcst as cst

# Methods that change their receiver (besides torch's in-place `*_` methods).
MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "update", "add", "discard",
    "setdefault", "popitem", "sort", "reverse", "step", "zero_grad", "backward", "fill_",
    "load_state_dict", "train", "eval", "send", "write", "put", "push",
})


def dotted_name(node: cst.CSTNode) -> str | None:
    """`torch.nn.functional` for the expression `torch.nn.functional`, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def root_name(node: cst.CSTNode) -> str | None:
    """`x` for `x`, `x.a.b`, `x[i]`, `x.f()`."""
    while True:
        if isinstance(node, cst.Name):
            return node.value
        if isinstance(node, cst.Attribute):
            node = node.value
        elif isinstance(node, cst.Subscript):
            node = node.value
        elif isinstance(node, cst.Call):
            node = node.func
        else:
            return None


def is_inplace_method(name: str) -> bool:
    return name in MUTATING_METHODS or (name.endswith("_") and not name.endswith("__"))


class _Reads(cst.CSTVisitor):
    """Free names read by an expression (comprehension/lambda-bound names excluded)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self._bound: list[set[str]] = []

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if not any(node.value in b for b in self._bound):
            self.names.add(node.value)

    def _visit_comp(self, node: cst.CSTNode, for_in: cst.CompFor) -> bool:
        bound: set[str] = set()
        comp: cst.CompFor | None = for_in
        while comp is not None:
            bound |= set(bound_names(comp.target))
            comp = comp.inner_for_in
        self._bound.append(bound)
        for child in node.children:
            child.visit(self)
        self._bound.pop()
        return False

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        return self._visit_comp(node, node.for_in)

    def visit_SetComp(self, node: cst.SetComp) -> bool:
        return self._visit_comp(node, node.for_in)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        return self._visit_comp(node, node.for_in)

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        return self._visit_comp(node, node.for_in)

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        params = {p.name.value for p in node.params.params}
        self._bound.append(params)
        node.body.visit(self)
        self._bound.pop()
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)  # keyword names are not reads
        return False


def names_read(node: cst.CSTNode) -> set[str]:
    visitor = _Reads()
    node.visit(visitor)
    return visitor.names


def bound_names(target: cst.CSTNode) -> Iterable[str]:
    """Names a target binds: `a`, `a, (b, c)`, `*rest`."""
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, (cst.Tuple, cst.List)):
        for el in target.elements:
            yield from bound_names(el.value)
    elif isinstance(target, cst.StarredElement):
        yield from bound_names(target.value)


class _Writes(cst.CSTVisitor):
    """Names a block rebinds or mutates (the def-use 'defs' of a loop body)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def _target(self, target: cst.CSTNode) -> None:
        names = list(bound_names(target))
        if names:
            self.names.update(names)
        else:
            root = root_name(target)
            if root:
                self.names.add(root)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._target(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> bool:
        node.iter.visit(self)
        return False

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname:
            self._target(node.asname.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._target(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._target(node.target)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_Global(self, node: cst.Global) -> None:
        self.names.update(n.name.value for n in node.names)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and is_inplace_method(func.attr.value):
            root = root_name(func.value)
            if root:
                self.names.add(root)
        if isinstance(func, cst.Name) and func.value == "next" and node.args:
            root = root_name(node.args[0].value)
            if root:
                self.names.add(root)

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            self.names.add((dotted_name(alias.asname.name) if alias.asname else dotted_name(alias.name) or "").split(".")[0])

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            target = alias.asname.name if alias.asname else alias.name
            name = dotted_name(target)
            if name:
                self.names.add(name)


def names_written(node: cst.CSTNode) -> set[str]:
    visitor = _Writes()
    node.visit(visitor)
    return visitor.names
