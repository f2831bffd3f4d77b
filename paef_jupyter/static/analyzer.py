"""Run every rule over every unit: the static half of the pipeline."""

from __future__ import annotations

from typing import Collection, Mapping, Sequence

import libcst as cst

from ..model import AnalysisError, Finding, Report, SourceUnit
from ..source import mask, syntax_error
from .facts import Facts, Prior
from .rules import RULES
from .rules.base import RuleContext, drive


def analyze_units(
    units: Sequence[SourceUnit],
    namespace: Mapping[str, object] | None = None,
    rules: Collection[str] | None = None,
    title: str = "",
) -> Report:
    unknown = set(rules or ()) - set(RULES)
    if unknown:
        raise ValueError(f"unknown rule id(s): {', '.join(sorted(unknown))}")
    selected = [RULES[r] for r in (rules or RULES)]
    findings: list[Finding] = []
    errors: list[AnalysisError] = []
    priors: dict[str | None, Prior] = {}  # per file: earlier cells' imports and values
    for unit in units:
        masked = mask(unit.text)
        if not masked.python or not masked.text.strip():
            continue
        try:
            unit_findings = _analyze_unit(unit, masked, namespace, priors, selected, errors)
        except RecursionError:  # a 340-term `+` chain: this cell is reported, the others analysed
            errors.append(AnalysisError(unit.ref, None, "expression nested too deeply to analyse (RecursionError)"))
            continue
        findings.extend(unit_findings)
    findings.sort(key=lambda f: (f.ref.path or "", f.ref.cell or 0, f.line, f.rule))
    return Report(findings=tuple(findings), errors=tuple(errors), sources=tuple(units), title=title)


def _analyze_unit(unit, masked, namespace, priors, selected, errors) -> list[Finding]:  # noqa: ANN001
    """Findings of one unit (a parse failure goes to `errors`); earlier cells' facts flow in via `priors`."""
    problem = syntax_error(masked.text)
    if problem is not None:
        errors.append(AnalysisError(unit.ref, problem[0], problem[1]))
        return []
    try:
        module = cst.parse_module(masked.text)
    except cst.ParserSyntaxError as exc:
        errors.append(AnalysisError(unit.ref, exc.raw_line, f"SyntaxError: {exc.message}"))
        return []
    prior = priors.setdefault(unit.ref.path, Prior())
    facts = Facts(module, namespace, prior)
    ctx = RuleContext(unit.ref, masked, facts)
    active = [rule_cls(ctx) for rule_cls in selected]
    drive(facts, active)
    prior.absorb(facts)
    return [f for rule in active for f in rule.findings]
