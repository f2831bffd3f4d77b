"""Hand-built `Report`s for the view tests: a profiled cell with fixable and hint findings."""

from __future__ import annotations

from paef_jupyter.model import (
    AnalysisError,
    CellRef,
    Edit,
    Evidence,
    Finding,
    Fix,
    Frame,
    LineStat,
    Profile,
    Report,
    Severity,
    SourceUnit,
)

CELL = CellRef(path="train.ipynb", cell=2, cell_id="cell-abc")

CELL_TEXT = """%%paef
total = 0.0
for step in range(100):
    x = torch.randn(64, 32)
    y = torch.tensor(x.cpu().tolist())
    loss = (y * 2).sum()
    total += loss.item()
total"""

HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)> & \u2028'


def ping_pong(ref: CellRef = CELL, index: int = 0) -> Finding:
    return Finding(
        rule="ping-pong",
        ref=ref,
        line=5,
        end_line=5,
        severity=Severity.HIGH,
        message="x goes device -> host -> device every iteration",
        explanation="tolist() copies to Python floats and torch.tensor copies them back.",
        fix=Fix(
            description="stay on the device",
            edits=(Edit(5, 8, 5, 38, "x.detach().clone()"),),
        ),
        evidence=Evidence(time_s=0.8, share=0.62, ops=400, d2h_copies=100, d2h_bytes=819200, syncs=100,
                          iterations=100, estimated_saving_s=0.7),
        source="both",
    )


def host_sync(ref: CellRef = CELL) -> Finding:
    return Finding(
        rule="host-sync",
        ref=ref,
        line=7,
        end_line=7,
        severity=Severity.MEDIUM,
        message=".item() synchronises every iteration",
        explanation="Each .item() waits for the device.",
        fix=Fix(description="accumulate on the device", edits=(Edit(7, 13, 7, 24, "loss.detach()"),)),
        evidence=Evidence(time_s=0.1, share=0.08, syncs=100, iterations=100, estimated_saving_s=0.05),
        source="static",
    )


def hint_only(ref: CellRef = CELL) -> Finding:
    return Finding(
        rule="redundant-tensor",
        ref=ref,
        line=4,
        end_line=4,
        severity=Severity.LOW,
        message="tensor rebuilt every iteration",
        fix=Fix(description="build it once before the loop", suggestion="x = torch.randn(64, 32)\nfor step in ...",
                safe=False),
        evidence=Evidence(measurable=False),
    )


def frames(ref: CellRef = CELL) -> Frame:
    item = Frame("aten::item", "op", ref, 7, start_s=0.95, duration_s=0.05, self_s=0.05)
    tolist = Frame("aten::_to_copy", "op", ref, 5, start_s=0.2, duration_s=0.5, self_s=0.5)
    line5 = Frame("cell line 5", "python", ref, 5, start_s=0.1, duration_s=0.7, self_s=0.2, children=(tolist,))
    line7 = Frame("cell line 7", "python", ref, 7, start_s=0.9, duration_s=0.1, self_s=0.05, children=(item,))
    return Frame("<cell>", "root", None, None, start_s=0.0, duration_s=1.3, self_s=0.5, children=(line5, line7))


def profile(ref: CellRef = CELL, gpu: bool = False) -> Profile:
    gpu_tree = None
    if gpu:
        k = Frame("void gemm_kernel", "kernel", ref, 6, start_s=0.85, duration_s=0.02)
        c = Frame("Memcpy DtoH", "memcpy", ref, 5, start_s=0.3, duration_s=0.01)
        gpu_tree = Frame("GPU", "root", None, None, 0.0, 1.3, 0.0, (c, k))
    return Profile(
        engine="torch",
        wall_time_s=1.3,
        cpu_time_s=1.25,
        gpu_time_s=0.03 if gpu else 0.0,
        gpu_idle_share=0.97 if gpu else None,
        iterations=100,
        profiled_iterations=20,
        device="cuda:0" if gpu else "cpu",
        lines=(
            LineStat(ref, 5, cpu_time_s=0.7, d2h_copies=20, d2h_bytes=163840, syncs=20, hits=20),
            LineStat(ref, 7, cpu_time_s=0.1, syncs=20, hits=20),
        ),
        cpu_tree=frames(ref),
        gpu_tree=gpu_tree,
        overhead=1.2,
    )


def sample_report(gpu: bool = False, profiled: bool = True) -> Report:
    return Report(
        findings=(ping_pong(), host_sync(), hint_only()),
        sources=(SourceUnit(CELL, CELL_TEXT),),
        profile=profile(gpu=gpu) if profiled else None,
        title="train.ipynb",
    )


def hostile_report() -> Report:
    """Every user-visible string carries markup and a script end tag."""
    ref = CellRef(path=f"/home/alice/secret/{HOSTILE}.ipynb", cell=0, cell_id=HOSTILE)
    text = f"%%paef\nx = '{HOSTILE}'\nprint(x)  # {HOSTILE}"
    finding = Finding(
        rule="ping-pong",
        ref=ref,
        line=2,
        end_line=2,
        severity=Severity.HIGH,
        message=HOSTILE,
        explanation=HOSTILE,
        fix=Fix(description=HOSTILE, suggestion=HOSTILE, safe=False),
        evidence=Evidence(time_s=0.1, notes=(HOSTILE,)),
    )
    tree = Frame("<cell>", "root", None, None, 0.0, 0.2, 0.0,
                 (Frame(HOSTILE, "python", ref, 2, 0.0, 0.1, 0.1),))
    return Report(
        findings=(finding,),
        errors=(AnalysisError(ref, 1, HOSTILE),),
        sources=(SourceUnit(ref, text),),
        profile=Profile(engine="torch", wall_time_s=0.2, cpu_tree=tree, notes=(HOSTILE,)),
        title=HOSTILE,
    )
