"""Annotated assignments read as assignments.

`x: T = v` binds `x` as `x = v` does, but the analysis's walks match `cst.Assign` (more than a
hundred of them): a value bound with an annotation was a value nobody followed. A reshape sweep
of the red-team programs (every `x = v` given an annotation, the meaning kept) turned refused
rewrites into automatic ones that broke the programs: a rollout's log-probabilities, returned
and summed into `loss: Tensor = ...` before `loss.backward()`, were wrapped in `no_grad`.

Rather than teach every walk a second node type, the unit's tree has each annotated assignment
with a value as an `Assign` that keeps its annotation and prints it back: the analysis sees an
assignment, while positions, `code_for_node` and so every rewrite's text stay the user's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import libcst as cst
from libcst._nodes.internal import CodegenState, visit_required, visit_sentinel, visit_sequence
from libcst._visitors import CSTVisitorT


@dataclass(frozen=True)
class Assign(cst.Assign):
    """`target: annotation = value`, an `Assign` to every walk. Named `Assign` because libcst
    dispatches `visit_Assign` / `leave_Assign` and its matchers by the class's name."""

    annotation: cst.Annotation = cst.Annotation(cst.Name("object"))
    equal: Union[cst.AssignEqual, cst.MaybeSentinel] = cst.MaybeSentinel.DEFAULT

    def _visit_and_replace_children(self, visitor: CSTVisitorT) -> "Assign":
        return Assign(
            targets=visit_sequence(self, "targets", self.targets, visitor),
            annotation=visit_required(self, "annotation", self.annotation, visitor),
            equal=visit_sentinel(self, "equal", self.equal, visitor),
            value=visit_required(self, "value", self.value, visitor),
            semicolon=visit_sentinel(self, "semicolon", self.semicolon, visitor),
        )

    def _codegen_impl(self, state: CodegenState, default_semicolon: bool = False) -> None:
        with state.record_syntactic_position(self):
            target = self.targets[0]
            state.before_codegen(target)
            with state.record_syntactic_position(target):
                target.target._codegen(state)
            self.annotation._codegen(state, default_indicator=":")
            if isinstance(self.equal, cst.AssignEqual):
                self.equal._codegen(state)
            else:
                state.add_token(" = ")
            state.after_codegen(target)
            self.value._codegen(state)
        if isinstance(self.semicolon, cst.Semicolon):
            self.semicolon._codegen(state)
        elif default_semicolon:
            state.add_token("; ")


# Nothing under these holds a statement: the walk does not go into them.
_NO_STATEMENTS = (cst.BaseExpression, cst.Annotation, cst.Parameters, cst.Decorator, cst.Arg)


class _AsAssignments(cst.CSTTransformer):
    def on_visit(self, node: cst.CSTNode) -> bool:
        return not isinstance(node, _NO_STATEMENTS)

    def leave_AnnAssign(self, original_node: cst.AnnAssign,
                        updated_node: cst.AnnAssign) -> cst.BaseSmallStatement:
        node = updated_node
        if node.value is None:  # `x: int` binds nothing
            return node
        return Assign(targets=(cst.AssignTarget(node.target),), value=node.value, annotation=node.annotation,
                      equal=node.equal, semicolon=node.semicolon)


def with_assignments(module: cst.Module, text: str) -> cst.Module:
    """`module` (parsed from `text`) with its annotated assignments as `Assign`s; itself when it
    has none (`text` has no `:` followed on its line by `=`, checked first: most code has none)."""
    if not may_annotate(text):
        return module
    return module.visit(_AsAssignments())


def may_annotate(text: str) -> bool:
    """Whether `text` may hold an annotated assignment (a cheap test before any parse)."""
    for line in text.split("\n"):
        colon = line.find(":")
        if colon >= 0 and "=" in line[colon:]:
            return True
    return False
