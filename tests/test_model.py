import json

from paef_jupyter.model import (
    SCHEMA, AnalysisError, CellRef, Edit, Evidence, Finding, Fix, Frame, LineStat, Profile,
    Report, Severity, SourceUnit,
)


def _report() -> Report:
    ref = CellRef("nb.ipynb", 2, "a1b2")
    fix = Fix("stay on device", (Edit(3, 4, 3, 20, "x.detach()"),), suggestion="x.detach()")
    ev = Evidence(time_s=0.5, share=0.4, syncs=10, d2h_copies=10, d2h_bytes=4096, estimated_saving_s=0.4)
    tree = Frame("cell", "root", ref, None, 0.0, 1.0, 0.1, (Frame("aten::item", "op", ref, 3, 0.1, 0.2, 0.2),))
    profile = Profile("torch", 1.0, cpu_time_s=0.9, lines=(LineStat(ref, 3, cpu_time_s=0.5, syncs=10),), cpu_tree=tree)
    return Report(
        findings=(
            Finding("ping-pong", ref, 3, 4, Severity.HIGH, "round trip", "why", fix, ev, "both"),
            Finding("host-sync", ref, 7, 7, Severity.MEDIUM, "sync"),
        ),
        errors=(AnalysisError(CellRef("nb.ipynb", 5, "c3"), 1, "SyntaxError: invalid syntax"),),
        sources=(SourceUnit(ref, "import torch\n"),),
        profile=profile,
        title="nb.ipynb",
    )


def test_json_round_trip_is_lossless() -> None:
    report = _report()
    data = json.loads(json.dumps(report.to_json()))
    assert Report.from_json(data) == report


def test_contract_keys_of_scan_json() -> None:
    data = _report().to_json(full=False)
    assert data["schema"] == SCHEMA and set(data) == {"schema", "findings", "errors"}
    assert set(data["findings"][0]) == {"rule", "path", "cell", "cell_id", "line", "end_line", "severity", "message", "fixable"}
    assert data["findings"][0]["fixable"] is True and data["findings"][1]["fixable"] is False
    assert set(data["errors"][0]) == {"path", "cell", "line", "message"}


def test_top_ranks_measured_saving_first() -> None:
    report = _report()
    assert [f.rule for f in report.top(2)] == ["ping-pong", "host-sync"]
    assert len(report.top(1)) == 1


def test_hint_is_not_fixable() -> None:
    assert not Fix("hint", (), suggestion="code").automatic
    assert not Fix("unsafe", (Edit(1, 0, 1, 0, "x"),), safe=False).automatic
