"""Run every rule over every unit: the static half of the pipeline."""

from __future__ import annotations

from dataclasses import replace
from typing import Collection, Mapping, Sequence

import libcst as cst

from ..gc_pause import young_garbage_only
from ..model import AnalysisError, CellRef, Finding, Report, SourceUnit
from ..source import MaskedSource
from .facts import Facts, Prior
from .modules import LocalModules
from .rules import RULES
from .rules._grad_only_code import reached_units
from .rules._cuda_streams import SYNC_DROPPING_RULES, stream_review
from .rules._tensor_subclasses import subclass_review
from .rules._torchscript import jit_review
from .rules.base import Rule, RuleContext, drive
from .unit import ParsedUnit, parse_unit, too_deep


def check_rule_ids(rules: Collection[str] | None) -> None:
    """`ValueError` naming the unknown ids: a usage error, raised before anything runs."""
    unknown = set(rules or ()) - set(RULES)
    if unknown:
        raise ValueError(f"unknown rule id(s): {', '.join(sorted(unknown))}")


def analyze_units(
    units: Sequence[SourceUnit | ParsedUnit],
    namespace: Mapping[str, object] | None = None,
    rules: Collection[str] | None = None,
    title: str = "",
    follow_imports: bool = False,
) -> Report:
    """Two passes: first every unit's facts (each cell sees the cells before it), then the
    rules, once every helper called per iteration from any unit knows it is (a function of an
    earlier cell or of a local module runs per iteration when a later loop calls it).

    A unit already parsed (`parse_unit`: the profiler chose its window from it before the
    cell ran) is not parsed again. With `follow_imports`, helpers in local modules the units
    import (see `modules.py`) are analysed too, and their findings reported in their own file."""
    check_rule_ids(rules)
    with young_garbage_only():
        return _analyze(units, namespace, [RULES[r] for r in (rules or RULES)], title, follow_imports)


def _analyze(
    units: Sequence[SourceUnit | ParsedUnit],
    namespace: Mapping[str, object] | None,
    selected: list[type[Rule]],
    title: str,
    follow_imports: bool,
) -> Report:
    parsed = [u if isinstance(u, ParsedUnit) else parse_unit(u) for u in units]
    modules = LocalModules.around([p.unit for p in parsed]) if follow_imports else None
    findings: list[Finding] = []
    errors: list[AnalysisError] = []
    analysed: list[tuple[CellRef, MaskedSource, Facts]] = []
    priors: dict[str | None, Prior] = {}  # per file: earlier cells' imports, values, functions
    for unit in parsed:
        if unit.error is not None:
            errors.append(unit.error)
            continue
        if unit.module is None:
            continue
        try:
            prior = priors.setdefault(unit.ref.path, Prior())
            imports = modules.importer(unit.ref.path) if modules is not None else None
            facts = Facts(unit.module, namespace, prior, imports=imports, positions=lambda u=unit: u.positions,
                          text=unit.masked.text, magics=unit.masked.originals)
        except RecursionError:  # a 340-term `+` chain: this unit is an error, the others analysed
            errors.append(too_deep(unit.ref))
            continue
        analysed.append((unit.ref, unit.masked, facts))
        priors[unit.ref.path] = prior.after(facts)
    for i, (ref, _, facts) in enumerate(analysed):
        facts.later = [f for r, _, f in analysed[i + 1 :] if r.path == ref.path]
        if facts.reads_later_imports() or "per_iteration_functions" in facts.__dict__ and facts.later_instances():
            facts._forget_reach()  # a later cell's import or model reaches this cell's functions
    reached = _reached([f for _, _, f in analysed]) if modules is not None else {}
    # A reached module's own loops (`train()` in train.py) run other modules' helpers per
    # iteration (utils.make_noise) just as the scanned units' loops do.
    _spread_per_iteration([f for _, _, f in analysed] + [m for m in reached if all(m is not f for _, _, f in analysed)])
    retabbed = {id(unit.ref) for unit in parsed if unit.retabbed}
    for ref, masked, facts in analysed:
        try:
            found = _for_review_under_program_dispatch(_run(selected, RuleContext(ref, masked, facts), errors), facts)
        except RecursionError:
            errors.append(too_deep(ref))
            continue
        findings.extend(_without_edits(f) for f in found) if id(ref) in retabbed else findings.extend(found)
    sources = [p.unit for p in parsed]
    for local in modules.loaded if modules is not None else ():
        functions = set(local.facts.externally_called) | reached.get(local.facts, set())
        if not functions:
            continue
        spans = [local.facts.position(f) for f in functions]
        found = [_for_review_from_importer(f) for f in _run(selected, RuleContext(local.unit.ref, local.masked, local.facts), errors)
                 if any(s.start.line <= f.line <= s.end.line for s in spans)]
        if found:
            findings.extend(found)
            sources.append(local.unit)
    findings.sort(key=lambda f: (f.ref.path or "", f.ref.cell or 0, f.line, f.rule))
    return Report(findings=tuple(findings), errors=tuple(errors), sources=tuple(sources), title=title)


RETABBED_NOTE = (
    " (not rewritten: this file indents with tabs mixed with spaces, read here with the tabs expanded, "
    "so a rewrite's positions on those lines would not be the file's)"
)


def _without_edits(finding: Finding) -> Finding:
    """A finding of a unit analysed with its indentation's tabs expanded (`unit.retabbed`):
    reported, never rewritten, since its edits' columns are those of the expanded text."""
    if finding.fix is None:
        return finding
    return replace(finding, fix=None, message=finding.message + RETABBED_NOTE)


IMPORTED_MODULE_REVIEW = (
    "it is in a module the analysed code imports: `paef fix` rewrites only the files it is given, "
    "and this proof leaned on the importer's calls (fix that module on its own, or by hand)"
)


def _for_review_from_importer(finding: Finding) -> Finding:
    """A rewrite in an imported module is never applied by fixing its importer, and was proved
    with the importer's calls in view, which the module alone may not give: shown `[fixable]`
    through main.py, it would promise what no command does. Offered for review instead."""
    if finding.fix is None or not finding.fix.automatic:
        return finding
    return replace(finding, fix=replace(finding.fix, review=IMPORTED_MODULE_REVIEW))


def _for_review_under_program_dispatch(found: list[Finding], facts: Facts) -> list[Finding]:
    """Every rule's proof assumes torch calls run torch's code; a program's own tensor subclass or
    torch mode runs its code on them, and sees the calls a rewrite adds, moves or drops (red team
    34). One closed-world check for all rules, made only when an automatic fix is at stake."""
    if not any(f.fixable for f in found):
        return found
    review = subclass_review(reached_units(facts))
    if review:
        found = [replace(f, fix=replace(f.fix, review=review)) if f.fix is not None and f.fixable else f for f in found]
    return _for_review_with_streams(jit_review(found, facts), facts)


def _for_review_with_streams(found: list[Finding], facts: Facts) -> list[Finding]:
    """A rewrite that drops a host wait or a blocking copy is proved for one CUDA stream: where the
    program uses another (earlier or later cells and reached modules included), the wait may be what
    orders the two (red team 36). Made only when such an automatic fix is at stake."""
    at_stake = [f for f in found if f.rule in SYNC_DROPPING_RULES and f.fix is not None and f.fix.automatic]
    if not at_stake:
        return found
    units = reached_units(facts)
    units += [later for later in facts.later if all(later is not u for u in units)]
    review = stream_review(units)
    if not review:
        return found
    return [replace(f, fix=replace(f.fix, review=review)) if any(f is g for g in at_stake) else f for f in found]


def _run(selected: Sequence[type[Rule]], ctx: RuleContext, errors: list[AnalysisError]) -> list[Finding]:
    """The rules' findings on one unit. A rule that failed on it loses its findings there (they
    may be half of a judgement), and the failure joins `errors` as one line."""
    active = [rule_cls(ctx) for rule_cls in selected]
    failed = drive(ctx.facts, active)
    for rule, (node, error) in failed.items():
        line = ctx.facts.position(node).start.line
        errors.append(AnalysisError(ctx.ref, line, f"rule {rule.id} failed here ({type(error).__name__}: {error}); "
                                    "its findings for this unit are left out"))
    return _one_finding_per_site([f for rule in active if rule not in failed for f in rule.findings])


def _one_finding_per_site(found: list[Finding]) -> list[Finding]:
    """A `redundant-tensor` hint (no edits) on a line `cpu-then-move` reports is left out: a table
    rebuilt per step and built on the host (`torch.arange(n).to(z.device)`) is one site, and the
    site keeps the finding that rewrites it (issue 8: one finding per site)."""
    moved = {f.line for f in found if f.rule == "cpu-then-move"}
    return [f for f in found if not (f.rule == "redundant-tensor" and f.line in moved and not (f.fix and f.fix.edits))]


def _reached(units: list[Facts]) -> dict[Facts, set[cst.CSTNode]]:
    """The functions of local modules the units call at all (transitively), with the methods of
    the classes they use (and of the classes those build: a block inside a model): a training loop inside `Trainer.fit` or `engine.train_one_epoch` is
    the scanned program's loop, wherever it is written."""
    inside = set(map(id, units))
    work = [(facts, node) for facts in units for node in facts._order if isinstance(node, cst.Call)]
    out: dict[Facts, set[cst.CSTNode]] = {}
    while work:
        facts, call = work.pop()
        targets = [(facts.owner_of(f), f) for f in facts._callees(call)]
        found = facts._class_at(call.func)
        if found is None and isinstance(call.func, cst.Name) and call.func.value in facts.classes \
                and call.func.value not in facts._defs:
            found = facts, facts.classes[call.func.value]  # `LeakyAct(0.2)` built inside a reached `Critic.__init__`
        for owner, cls in _with_bases(found):
            targets += [(owner, m) for m in cls.body.body if isinstance(m, cst.FunctionDef)]
        for owner, func in targets:
            if owner is not facts:
                owner.add_caller(facts)
            if id(owner) in inside or func in out.get(owner, ()):
                continue
            out.setdefault(owner, set()).add(func)
            work.extend((owner, c) for c in owner.calls_in(func.body))
    return out


def _with_bases(found: "tuple[Facts, cst.ClassDef] | None", depth: int = 4) -> list[tuple[Facts, cst.ClassDef]]:
    """The class built and the classes it inherits from (Name or dotted bases another unit
    defines, up to `depth` levels): `experts(...)` of a class whose only method is `compose`
    runs the `forward` of `mixture_of_experts`, an earlier cell's class (public48 p02), so that
    cell is called by the building unit as surely as if it were named."""
    out: list[tuple[Facts, cst.ClassDef]] = []
    todo = [found] if found is not None else []
    for _ in range(depth + 1):
        nxt: list[tuple[Facts, cst.ClassDef]] = []
        for owner, cls in todo:
            if any(c is cls for _, c in out):
                continue
            out.append((owner, cls))
            for base in cls.bases:
                if base.keyword is None:
                    up = owner._class_at(base.value)
                    if up is not None:
                        nxt.append(up)
        todo = nxt
    return out


def _spread_per_iteration(units: list[Facts]) -> None:
    """Tell each unit (and local module) which of its functions other units call per iteration."""
    pending = list(units)
    while pending:
        facts = pending.pop()
        for func, loop in list(facts.per_iteration_functions.items()):
            owner = facts.owner_of(func)
            if owner is not facts and owner.call_per_iteration(func, loop, facts._call_sites.get(func, [])):
                pending.append(owner)
