"""Ways to write the same program that the rules meet rarely: each reshape keeps what a program
computes (`match 0: case _:` around a function body, `try: ... finally: pass` around a loop, an
`else: pass` on loops, annotated assignments, `if True:` around a loop body, one-line `if`
bodies, walrus statements, `elif` for `if`), so a rule must neither crash on it nor rewrite it
differently in meaning."""

from __future__ import annotations

import libcst as cst

_PASS = cst.IndentedBlock(body=[cst.SimpleStatementLine([cst.Pass()])])


class _Match(cst.CSTTransformer):
    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if not isinstance(updated.body, cst.IndentedBlock):
            return updated
        case = cst.MatchCase(pattern=cst.MatchAs(), body=updated.body)
        return updated.with_changes(body=cst.IndentedBlock(body=[cst.Match(subject=cst.Integer("0"), cases=[case])]))


class _TryFinally(cst.CSTTransformer):
    def leave_For(self, original: cst.For, updated: cst.For) -> cst.Try:
        return cst.Try(body=cst.IndentedBlock(body=[updated]), finalbody=cst.Finally(body=_PASS))


class _LoopElse(cst.CSTTransformer):
    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        return updated if updated.orelse else updated.with_changes(orelse=cst.Else(body=_PASS))

    def leave_While(self, original: cst.While, updated: cst.While) -> cst.While:
        return updated if updated.orelse else updated.with_changes(orelse=cst.Else(body=_PASS))


class _Annotated(cst.CSTTransformer):
    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine,
                                  updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        body = [cst.AnnAssign(target=s.targets[0].target, annotation=cst.Annotation(cst.Name("object")), value=s.value)
                if isinstance(s, cst.Assign) and len(s.targets) == 1 and isinstance(s.targets[0].target, cst.Name) else s
                for s in updated.body]
        return updated.with_changes(body=body)


class _IfTrue(cst.CSTTransformer):
    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        if not isinstance(updated.body, cst.IndentedBlock):
            return updated
        return updated.with_changes(body=cst.IndentedBlock(body=[cst.If(test=cst.Name("True"), body=updated.body)]))


class _OneLineIf(cst.CSTTransformer):
    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        body = updated.body
        if isinstance(body, cst.IndentedBlock) and len(body.body) == 1 and isinstance(body.body[0], cst.SimpleStatementLine):
            return updated.with_changes(body=cst.SimpleStatementSuite(body=body.body[0].body))
        return updated


class _Walrus(cst.CSTTransformer):
    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine,
                                  updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        small = updated.body[0] if len(updated.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name) \
                and isinstance(small.value, cst.Call):
            named = cst.NamedExpr(target=small.targets[0].target, value=small.value, lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
            return updated.with_changes(body=[cst.Expr(named)])
        return updated


class _Elif(cst.CSTTransformer):
    """`if t:` -> `if _never: pass` / `elif t:` (`_never = False` is put at the top)."""

    def __init__(self) -> None:
        super().__init__()
        self._elifs: set[int] = set()

    def visit_If(self, node: cst.If) -> None:
        if isinstance(node.orelse, cst.If):
            self._elifs.add(id(node.orelse))

    def leave_If(self, original: cst.If, updated: cst.If) -> cst.If:
        if id(original) in self._elifs:
            return updated
        return cst.If(test=cst.Name("_never"), body=_PASS, orelse=updated, leading_lines=updated.leading_lines)


SHAPES: dict[str, type[cst.CSTTransformer]] = {
    "match": _Match, "try-finally": _TryFinally, "loop-else": _LoopElse, "annotated": _Annotated,
    "if-true": _IfTrue, "one-line-if": _OneLineIf, "walrus": _Walrus, "elif": _Elif,
}


def reshape(source: str, shape: str) -> str | None:
    """`source` in `shape`, or None where the shape changes nothing or does not compile there
    (a walrus at class level, say)."""
    try:
        text = cst.parse_module(source).visit(SHAPES[shape]()).code
        if shape == "elif":
            text = "_never = False\n" + text
        compile(text, "<reshaped>", "exec")
    except (cst.ParserSyntaxError, SyntaxError, ValueError):
        return None
    return text if text != source else None
