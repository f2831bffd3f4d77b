"""`paef profile --nproc-per-node N`: real 2-rank gloo jobs through torchrun, and the pure parts
(the window split, the merge of rank records) on hand-built inputs."""

from __future__ import annotations

import json
import textwrap

import pytest

from paef_jupyter.cli import main
from paef_jupyter.distributed.launch import Launch, LaunchResult, torchrun_command
from paef_jupyter.distributed.merge import merge_ranks
from paef_jupyter.distributed.split import split_window
from paef_jupyter.dynamic.trace_events import Trace, TraceEvent
from paef_jupyter.model import CellRef, Frame, LineStat, Profile, Report, _to_plain
from paef_jupyter.static.rules import RULES

pytest.importorskip("torch.distributed")

# Rank `--fail-rank` raises after its loop; the other rank then waits in a sleep, which the
# launcher's SIGTERM ends: its record must still come back ("stopped").
TRAIN = textwrap.dedent(
    """\
    import argparse
    import time

    import torch
    import torch.distributed as dist
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel as DDP

    parser = argparse.ArgumentParser()
    parser.add_argument("--fail-rank", type=int, default=-1)
    args = parser.parse_args()
    torch.set_num_threads(1)
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(8, 16), torch.randn(8, 1)
    for step in range(12):
        opt.zero_grad()
        weight = torch.tensor([1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0]).unsqueeze(1)
        loss = (nn.functional.mse_loss(model(x), y, reduction="none") * weight).mean()
        loss.backward()
        opt.step()
        if step % 4 == 0:
            torch.save(model.state_dict(), "checkpoint.pt")
    if rank == args.fail_rank:
        raise RuntimeError("planted failure")
    if args.fail_rank >= 0:
        time.sleep(60)  # the launcher ends this rank when the other one fails
    dist.destroy_process_group()
    """
)


def _line_of(text: str) -> int:
    return next(i for i, line in enumerate(TRAIN.splitlines(), 1) if text in line)


@pytest.fixture
def script(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    path = tmp_path / "train.py"
    path.write_text(TRAIN)
    return path


@pytest.mark.slow
def test_two_rank_job_is_profiled_and_merged(script, tmp_path, capsys):
    out = tmp_path / "report.json"
    html = tmp_path / "report.html"
    code = main(["profile", "--nproc-per-node", "2", str(script), "--json", str(out), "--report", str(html)])
    assert code == 0, capsys.readouterr().err[-3000:]
    report = Report.from_json(json.loads(out.read_text()))
    dist = report.profile.distributed
    assert [r.rank for r in dist.ranks] == [0, 1]
    assert all(r.status == "ok" for r in dist.ranks)
    for r in dist.ranks:
        assert r.backend == "gloo" and r.collectives > 0
        assert r.communication_s > 0 and r.iterations > 0
        parts = r.compute_s + r.exposed_communication_s + r.data_s + r.host_s
        assert parts == pytest.approx(r.window_s, rel=1e-6)
        assert r.overlapped_communication_s <= r.communication_s
        assert r.trace_bytes > 0 and r.record_bytes > 0
    assert dist.slowest_rank in (0, 1)
    # Line costs are summed over ranks: the backward line is each rank's, added.
    backward = _line_of("loss.backward()")
    stat = report.profile.line(CellRef(str(script)), backward)
    compared = next(line for line in dist.lines if line.line == backward)
    assert compared.ranks == 2 and compared.min_s <= compared.max_s
    assert stat.cpu_time_s == pytest.approx(compared.total_s)
    assert [c.name for c in report.profile.cpu_tree.children] == ["rank 0", "rank 1"]
    # A planted antipattern, found on its line, with the evidence of both ranks summed.
    planted = _line_of("weight = torch.tensor")
    finding = next(f for f in report.findings if f.rule == "redundant-tensor")
    assert finding.line == planted
    # One tensor built per profiled iteration, on each rank: the counts are summed.
    assert finding.evidence.tensor_creations == report.profile.profiled_iterations == sum(r.iterations for r in dist.ranks)
    rebuilt = next(line for line in dist.lines if line.line == planted)
    assert rebuilt.ranks == 2 and finding.evidence.time_s == pytest.approx(rebuilt.total_s)
    assert finding.evidence.time_s > rebuilt.max_s  # more than any one rank's
    if "ddp-save-every-rank" in RULES:  # the data-parallel rules (issue 13, item 3)
        saves = [f for f in report.findings if f.rule == "ddp-save-every-rank"]
        assert [f.line for f in saves] == [_line_of("torch.save(")]
    text = capsys.readouterr().out
    assert "rank 0: window" in text and "rank 1: window" in text
    page = html.read_text()
    assert "Ranks" in page and "exposed comm." in page


@pytest.mark.slow
def test_failing_rank_is_named_and_the_others_data_kept(script, tmp_path):
    out = tmp_path / "report.json"
    argv = ["profile", str(script), "--nproc-per-node", "2", "--json", str(out), "--", "--fail-rank", "1"]
    assert main(argv) == 1  # the CLI contract: a failed run
    report = Report.from_json(json.loads(out.read_text()))
    dist = report.profile.distributed
    by_rank = {r.rank: r for r in dist.ranks}
    assert set(by_rank) == {0, 1}
    failed = by_rank[1]
    assert failed.status == "failed" and "planted failure" in failed.reason
    assert "planted failure" in failed.stderr_tail  # its traceback, from torchrun's log
    assert dist.first_failed_rank == 1
    assert failed.exit_code == 1  # read from torchrun's failure summary
    first = report.errors[0]
    raise_line = _line_of("raise RuntimeError")
    assert first.message.startswith("rank 1 failed: RuntimeError: planted failure") and first.line == raise_line
    # Rank 0 was ended by the launcher in its sleep: its window is kept.
    survivor = by_rank[0]
    assert survivor.status == "stopped"
    assert survivor.window_s > 0 and survivor.communication_s > 0
    assert any("rank 0 was ended by the launcher" in note for note in report.profile.notes)
    assert [e.message.split(":")[0] for e in report.errors] == ["rank 1 failed"]
    assert all(r.window_s > 0 for r in dist.ranks)
    assert dist.launcher_exit != 0


# --- pure parts ---------------------------------------------------------------------------


def _ev(name, start_us, dur_us, tid=1, cat="cpu_op"):
    return TraceEvent(name=name, cat=cat, tid=tid, start_ns=start_us * 1000, dur_ns=dur_us * 1000)


def test_split_is_a_partition_of_the_window():
    trace = Trace(
        (
            _ev("paef|0|5", 0, 100),  # the line range: transparent
            _ev("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, 10, cat="user_annotation"),
            _ev("aten::stack", 2, 5),  # inside data loading: data
            _ev("torch: Tensor.backward", 20, 70),
            _ev("aten::mm", 20, 30),  # compute 20-50
            _ev("c10d::allreduce_", 30, 5),  # nested in compute: suspends it 30-35
            _ev("gloo:all_reduce", 40, 40, tid=2, cat="user_annotation"),  # 40-80 on gloo's thread
        ),
        main_tid=1,
    )
    split = split_window(trace)
    assert split.window_s == pytest.approx(100e-6)
    assert split.data_s == pytest.approx(10e-6)
    # Communication: 30-35 (the enqueue) and 40-80; 40-50 runs beside compute.
    assert split.communication_s == pytest.approx(45e-6)
    assert split.overlapped_communication_s == pytest.approx(10e-6)
    assert split.exposed_communication_s == pytest.approx(35e-6)
    assert split.compute_s == pytest.approx(25e-6)  # 20-30 and 35-50
    assert split.host_s == pytest.approx(30e-6)  # 10-20 and 80-100
    assert split.collectives == 1 and split.backend == "gloo"


def test_split_of_an_empty_trace_is_empty():
    assert split_window(Trace(())).window_s == 0.0


def _record(rank, status="ok", **extra):
    ref = CellRef("train.py")
    profile = Profile(
        engine="torch", wall_time_s=1.0 + rank, cpu_time_s=0.5, profiled_time_s=0.5, base_time_s=2.0,
        profiled_iterations=3, mode="window",
        lines=(LineStat(ref, 7, cpu_time_s=0.1 * (rank + 1), hits=3, iterations=3),),
        cpu_tree=Frame("run", kind="root", duration_s=0.5, children=(Frame("x = f()", ref=ref, line=7, duration_s=0.1),)),
    )
    split = {"window_s": 0.5, "compute_s": 0.1 + rank * 0.1, "exposed_communication_s": 0.3 - rank * 0.1,
             "data_s": 0.05, "host_s": 0.05, "communication_s": 0.3, "collectives": 6, "backend": "gloo"}
    return {"rank": rank, "local_rank": rank, "status": status, "profile": _to_plain(profile), "split": split,
            "trace_bytes": 1000, "ended_at": 100.0 + rank, **extra}


def test_a_rank_without_a_record_is_reported_and_the_others_kept():
    result = LaunchResult(
        exit_code=1, records={0: _record(0)}, record_bytes={0: 500},
        stderr_tails={1: "Traceback ...\nSegmentation fault"}, exit_codes={1: -11, 0: -15},
    )
    profile, errors = merge_ranks(result, Launch(2), CellRef("train.py"))
    dist = profile.distributed
    assert [(r.rank, r.status) for r in dist.ranks] == [(0, "ok"), (1, "missing")]
    assert "killed by signal 11" in dist.ranks[1].reason and "Segmentation fault" in dist.ranks[1].reason
    assert dist.first_failed_rank == 1 and errors[0].message.startswith("rank 1 failed")
    assert profile.line(CellRef("train.py"), 7).cpu_time_s == pytest.approx(0.1)
    assert dist.slowest_rank is None  # one rank measured: nothing to compare
    assert dist.world_size == 2


def test_one_node_of_a_larger_world_says_so():
    record = dict(_record(0), rank=3, world_size=4)
    result = LaunchResult(exit_code=0, records={3: record}, record_bytes={3: 5}, stderr_tails={})
    profile, errors = merge_ranks(result, Launch(1, "2", None, "head:29500"), CellRef("train.py"))
    assert errors == () and profile.distributed.world_size == 4
    from paef_jupyter.cli import render_ranks

    assert "of a world of 4" in render_ranks(profile.distributed)


def test_merge_sums_lines_and_finds_the_slowest_rank():
    result = LaunchResult(exit_code=0, records={0: _record(0), 1: _record(1)}, record_bytes={0: 500, 1: 500},
                          stderr_tails={})
    profile, errors = merge_ranks(result, Launch(2), CellRef("train.py"))
    assert errors == ()
    stat = profile.line(CellRef("train.py"), 7)
    assert stat.cpu_time_s == pytest.approx(0.3) and stat.hits == 6 and stat.iterations == 6
    assert profile.wall_time_s == 2.0 and profile.cpu_time_s == pytest.approx(1.0)
    dist = profile.distributed
    # Rank 1 waits less on collectives (0.2 s vs 0.3 s): the others wait for it.
    assert dist.slowest_rank == 1
    assert dist.spread == pytest.approx((0.3 - 0.2) / 0.3)
    (line,) = dist.lines
    assert (line.min_rank, line.max_rank, line.ranks) == (0, 1, 2)
    assert Report.from_json(json.loads(json.dumps(Report(profile=profile).to_json()))).profile == profile


def test_a_large_world_draws_and_notes_a_few_ranks_only():
    world = 40
    records = {r: dict(_record(r % 2), rank=r, local_rank=r) for r in range(world)}
    for r in range(world):
        records[r]["split"] = dict(records[r]["split"], compute_s=0.1 + 0.001 * r)
    result = LaunchResult(exit_code=0, records=records, record_bytes=dict.fromkeys(range(world), 5), stderr_tails={})
    profile, _ = merge_ranks(result, Launch(world), CellRef("train.py"))
    drawn = [c.name for c in profile.cpu_tree.children]
    assert "rank 0" in drawn and f"rank {profile.distributed.slowest_rank}" in drawn and len(drawn) <= 8
    assert profile.line(CellRef("train.py"), 7).hits == 3 * world  # every rank still counted
    assert len(profile.distributed.ranks) == world


def test_torchrun_command_uses_a_free_port_on_one_node():
    cmd = torchrun_command("t.py", ["--x", "1"], Launch(2), "/o", "/l")
    assert cmd[1:3] == ["-m", "torch.distributed.run"] and "--standalone" in cmd
    assert cmd[-4:] == ["/o", "t.py", "--x", "1"]
    multi = torchrun_command("t.py", [], Launch(4, "2", 1, "head:29500"), "/o", "/l")
    assert "--standalone" not in multi and "--rdzv-endpoint=head:29500" in multi and "--node-rank=1" in multi


def test_cli_rejects_launcher_options_without_nproc(tmp_path, capsys):
    path = tmp_path / "t.py"
    path.write_text("x = 1\n")
    assert main(["profile", str(path), "--nnodes", "2"]) == 2
    assert "--nproc-per-node" in capsys.readouterr().err


def test_cli_passes_script_arguments_to_a_single_process_run(tmp_path):
    """truth15: `paef profile PATH -- ARGS` without a launcher runs PATH with ARGS as its argv
    (it used to be refused, and without `--` the script saw paef's own command line)."""
    path = tmp_path / "t.py"
    out = tmp_path / "argv.txt"
    path.write_text(f"import sys\nopen({str(out)!r}, 'w').write(repr(sys.argv[1:]))\n")
    assert main(["profile", str(path), "--", "--lr", "1"]) == 0
    assert out.read_text() == "['--lr', '1']"


def test_line_magic_launches_the_script_and_exports_the_same_html(tmp_path, monkeypatch):
    from IPython.core.interactiveshell import InteractiveShell

    result = LaunchResult(exit_code=0, records={0: _record(0), 1: _record(1)}, record_bytes={0: 5, 1: 5},
                          stderr_tails={})
    calls = []

    def fake_run_job(script, script_args, launch, echo=None):
        calls.append((script, script_args, launch))
        echo("[default0]: a line the script printed\n")
        return result

    monkeypatch.setattr("paef_jupyter.distributed.launch.run_job", fake_run_job)
    script = tmp_path / "train.py"
    script.write_text("x = 1\n")
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "paef_jupyter")
    out = tmp_path / "r.html"
    shell.run_line_magic("paef", f"profile {script} --nproc-per-node 2 --report {out} -q -- --lr 0.1")
    assert calls == [(str(script), ["--lr", "0.1"], Launch(2))]
    report = shell.run_line_magic("paef", "last")
    assert [r.rank for r in report.profile.distributed.ranks] == [0, 1]
    page = out.read_text()
    assert "Ranks" in page and "slowest rank 1" in page


def test_gpu_timeline_split_nccl_kernels_exposed_and_idle():
    trace = Trace(
        (
            _ev("paef|0|5", 0, 100),
            _ev("ampere_sgemm", 10, 30, tid="stream 7", cat="kernel"),  # compute 10-40
            _ev("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 30, 30, tid="stream 20", cat="kernel"),  # 30-60
            _ev("Memcpy DtoH", 70, 10, tid="stream 7", cat="gpu_memcpy"),  # 70-80
        ),
        main_tid=1,
    )
    split = split_window(trace)
    assert split.gpu_span_s == pytest.approx(70e-6)  # 10-80
    assert split.gpu_communication_s == pytest.approx(30e-6)
    assert split.gpu_exposed_communication_s == pytest.approx(20e-6)  # 40-60
    assert split.gpu_idle_s == pytest.approx(10e-6)  # 60-70
    assert split_window(Trace((_ev("aten::mm", 0, 10),), main_tid=1)).gpu_span_s == 0.0


def test_rank_views_escape_and_show_gpu_and_failures():
    from paef_jupyter.cli import render_ranks
    from paef_jupyter.model import Distributed, RankProfile
    from paef_jupyter.ui.ranks import ranks_section

    dist = Distributed(world_size=2, nproc_per_node=2, ranks=(
        RankProfile(0, window_s=0.01, iterations=2, compute_s=0.01, gpu_span_s=0.01, gpu_communication_s=0.004,
                    gpu_exposed_communication_s=0.001, gpu_idle_s=0.002),
        RankProfile(1, local_rank=1, status="failed", reason="<script>x</script>\x1b[2J", stderr_tail="\x1b[2J<b>tail"),
    ))
    page = ranks_section(Report(profile=Profile(engine="torch", wall_time_s=1.0, distributed=dist)))
    assert "NCCL 4.0 ms (1.0 ms exposed)" in page and "<script>x" not in page and "&lt;b&gt;tail" in page
    text = render_ranks(dist)
    assert "\x1b" not in text and "rank 1: failed: <script>x</script>\\x1b[2J" in text
    assert ranks_section(Report(profile=Profile(engine="torch", wall_time_s=1.0))) is None
