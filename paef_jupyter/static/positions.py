"""Node positions as libcst's `PositionProvider` gives them, at a fraction of its cost.

libcst's provider builds three frozen dataclasses per node while it generates the code (about
3 us a node: a tenth of a 100-line cell's analysis). The same code generation pass here records
plain tuples and builds a `CodeRange` only for a node that is asked
for (findings, jedi questions: a few hundred of a cell's thousands of nodes).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Mapping

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import CodePosition, CodeRange
from libcst.metadata.position_provider import NEWLINE_RE

_Span = tuple[tuple[int, int], tuple[int, int]]


class Positions(Mapping[cst.CSTNode, CodeRange]):
    """node -> its `CodeRange` (syntactic: leading and trailing whitespace left out)."""

    def __init__(self, module: cst.Module) -> None:
        recorder = _Recorder(module)
        module._codegen(recorder)
        self._spans = recorder.spans
        self._ranges: dict[cst.CSTNode, CodeRange] = {}

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self._ranges.get(node)
        if found is None:
            (line, column), (end_line, end_column) = self._spans[node]
            found = self._ranges[node] = CodeRange(CodePosition(line, column), CodePosition(end_line, end_column))
        return found

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)


class _Recorder(CodegenState):
    """libcst's `PositionProvidingCodegenState`, with tuples for positions (the tokens are kept:
    `Module` reads whether any were written)."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.line = 1  # one-indexed
        self.column = 0  # zero-indexed
        self.spans: dict[cst.CSTNode, _Span] = {}
        self._starts: list[tuple[int, int]] = []

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self._advance(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self._advance(value)

    def _advance(self, value: str) -> None:
        if "\n" not in value and "\r" not in value:
            self.column += len(value)
            return
        segments = NEWLINE_RE.split(value)
        self.line += len(segments) - 1
        self.column = len(segments[-1])

    def before_codegen(self, node: cst.CSTNode) -> None:
        self._starts.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self._starts.pop()
        if node not in self.spans:  # a syntactic position, recorded already, stands
            self.spans[node] = (start, (self.line, self.column))

    @contextmanager
    def record_syntactic_position(self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None,
                                  end_node: cst.CSTNode | None = None) -> Iterator[None]:
        start = (self.line, self.column)
        try:
            yield
        finally:
            end = (self.line, self.column)
            if start_node is not None:
                start = self.spans[start_node][0]
            if end_node is not None:
                end = self.spans[end_node][1]
            self.spans[node] = (start, end)
