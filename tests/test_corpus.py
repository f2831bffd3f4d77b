"""The labelled corpus (benchmarks/corpus) is well-formed, its runnable programs run and are
deterministic, and the scorer runs end to end. Scores are measurements: no thresholds here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import score_corpus as sc
from paef_jupyter.source import mask
from paef_jupyter.static.rules import RULES

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = sc.discover()


def test_corpus_is_large_and_mixed():
    assert len(PROGRAMS) >= 60
    kinds = {p.path.suffix or "dir" for p in PROGRAMS}
    assert kinds == {".py", ".ipynb", "dir"}
    labels = [lb for p in PROGRAMS for lb in p.labels]
    assert {lb.kind for lb in labels} == set(sc.KINDS)
    assert {lb.rule for lb in labels if lb.kind.startswith("expect")} == set(RULES)
    clean = [p for p in PROGRAMS if not any(lb.kind.startswith("expect") for lb in p.labels)]
    assert len(clean) >= 15, "clean programs measure precision"


def _code_lines(text: str) -> dict[int, str]:
    return {i: line for i, line in enumerate(text.splitlines(), 1)}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_labels_are_valid(program):
    """Known rule ids, known kinds, and each label trails code on a real line (not a comment line)."""
    for file in sc.program_files(program):
        for cell, text in sc.file_texts(file):
            compile(mask(text).text if cell is not None else text, str(file), "exec")  # IPython syntax masked in cells
            for number, line in _code_lines(text).items():
                pairs = sc.parse_line_labels(line)  # raises LabelError on malformed labels
                for kind, rule in pairs:
                    assert rule in RULES, f"{file}:{number}: unknown rule {rule!r}"
                    assert kind in sc.KINDS
                if pairs:
                    code = line.split("#", 1)[0].strip()
                    assert code, f"{file}:{number}: a label must trail code, not stand alone"
                assert "paef:" not in line or pairs, f"{file}:{number}: unparsed label"
                assert "# paef " not in line, f"{file}:{number}: label without a colon"


def test_label_parser_rejects_malformed():
    assert sc.parse_line_labels("x = 1  # paef: expect host-sync; ok ping-pong") == [
        ("expect", "host-sync"),
        ("ok", "ping-pong"),
    ]
    assert sc.parse_line_labels("x = 1  # paef: expect-fix graph-retention") == [("expect-fix", "graph-retention")]
    assert sc.parse_line_labels("x = 1  # a comment") == []
    for bad in ("x = 1  # paef: expects host-sync", "x = 1  # paef: expect", "x = 1  # paef: ;"):
        with pytest.raises(sc.LabelError):
            sc.parse_line_labels(bad)


RUNNABLE = [p for p in PROGRAMS if p.runnable]


def test_most_programs_are_runnable():
    assert len(RUNNABLE) >= 0.8 * len(PROGRAMS)


@pytest.mark.timeout(1800)  # the set-up rewrites and runs the whole corpus: minutes on a loaded 2-core box
def test_runnable_programs_run_print_and_compare_deterministically(corpus_rewrites: dict) -> None:
    """From the pass that rewrites and runs the corpus (conftest's `corpus_rewrites`): every
    runnable program a rewrite changed runs and prints its results, and where the rewrite's output
    differs, the original printed the same when run again (else no comparison means anything). A
    program no rewrite changes is not run: its runs are checked when a rewrite first reaches it."""
    bad = [f"{p.name}: {corpus_rewrites[p.name].run}" for p in RUNNABLE if corpus_rewrites[p.name].run]
    assert not bad, bad


def test_a_run_is_unusable_when_it_fails_prints_nothing_or_varies(tmp_path):
    from corpus_rewrites import own_run_problem

    path = tmp_path / "p.py"
    assert own_run_problem(path, sc.Run(True, ["1\n", "1\n"])) == ""
    assert "fails: ValueError" in own_run_problem(path, sc.Run(False, [], "ValueError: x"))
    assert "prints nothing" in own_run_problem(path, sc.Run(True, [" \n", " \n"]))
    assert "differently" in own_run_problem(path, sc.Run(True, ["1\n", "2\n"]))


def test_scorer_end_to_end_on_a_subset(tmp_path):
    out = tmp_path / "score.json"
    names = ["direct_graph_retention.py", "refuse_kwargs_conditional_pin.py", "nb_direct_antipatterns.ipynb"]
    args = [sys.executable, "-m", "benchmarks.score_corpus", "--json", str(out)]
    for name in names:
        args += ["--program", name]
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "corpus: precision" in proc.stdout and "REWRITE SAFETY" in proc.stdout
    payload = json.loads(out.read_text())
    assert sorted(p["name"] for p in payload["programs"]) == sorted(names)
    labels = sum(len(p["labels"]) for p in payload["programs"])
    assert labels == sum(len(p.labels) for p in PROGRAMS if p.name in names)
    overall = payload["overall"]
    assert overall["tp"] + overall["fp"] + overall["debatable"] == sum(len(p["findings"]) for p in payload["programs"])
    assert {r["program"] for r in payload["rewrites"]} == set(names)


def test_scorer_flags_a_refused_automatic_fix(tmp_path):
    """The rewrite-safety check itself: an automatic fix on a line labelled `refuse` is harmful."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "graph.py").write_text(
        "# corpus: runnable\n"
        "import torch\n"
        "torch.manual_seed(0)\n"
        "model = torch.nn.Linear(6, 2)\n"
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "data = [(torch.randn(4, 6), torch.randint(0, 2, (4,))) for _ in range(3)]\n"
        "total = 0.0\n"
        "for x, y in data:\n"
        "    loss = torch.nn.functional.cross_entropy(model(x), y)\n"
        "    optimizer.zero_grad()\n"
        "    loss.backward()\n"
        "    optimizer.step()\n"
        "    total += loss  # paef: refuse graph-retention\n"
        "print(round(total.item(), 4))\n"
    )
    out = tmp_path / "score.json"
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.score_corpus", "--corpus", str(corpus), "--json", str(out), "--rule", "graph-retention"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(out.read_text())
    finding = payload["programs"][0]["findings"]
    if not any(f["fixable"] for f in finding):
        pytest.skip("graph-retention no longer offers an automatic fix here: nothing to flag")
    harms = payload["rewrites"][0]["harmful"]
    assert any("refused" in h["why"] for h in harms), harms


def test_a_batch_reports_each_program_on_its_own(tmp_path):
    """One process runs a batch: a failing program fails alone, and global torch settings and
    patches of torch's functions do not leak (a submodule imported meanwhile stays)."""
    programs = {
        "a_leaks.py": "import torch\ntorch.set_grad_enabled(False)\ntorch.set_default_dtype(torch.float64)\nprint('a')\n",
        "b_raises.py": "raise ValueError('bad input')\n",
        "c_exits.py": "import sys\nsys.exit(3)\n",
        "d_reads.py": "import torch\nprint(torch.is_grad_enabled(), torch.get_default_dtype())\n",
        "e_patches.py": "import torch\nimport torch.fx\nvars(torch)['stack'] = lambda *a, **k: 0\n"
                        "torch.Tensor.double = lambda self: 0\ntorch.nn.functional.__dict__.update(relu=abs, gone=1)\n",
        "f_reads.py": "import torch\nimport torch.fx\nprint(torch.stack([torch.ones(1)]).shape, torch.ones(1).double().dtype, "
                      "torch.nn.functional.relu(torch.ones(1)).dtype, hasattr(torch.nn.functional, 'gone'), torch.fx.Graph is not None)\n",
    }
    for name, text in programs.items():
        (tmp_path / name).write_text(text)
    runs = sc.run_batch_in_subprocess([tmp_path / n for n in programs], times=2, timeout=120)
    assert [r.ok for r in runs] == [True, False, False, True, True, True]
    assert runs[1].error == "ValueError: bad input" and runs[2].error.startswith("SystemExit")
    assert runs[3].outputs == ["True torch.float32\n"] * 2
    assert runs[5].outputs == ["torch.Size([1, 1]) torch.float64 torch.float32 False True\n"] * 2


def test_a_batch_that_dies_is_rerun_one_program_at_a_time(tmp_path):
    (tmp_path / "ok.py").write_text("print('fine')\n")
    (tmp_path / "dies.py").write_text("import os\nos._exit(7)\n")
    ok, dies = sc.run_batch_in_subprocess([tmp_path / "ok.py", tmp_path / "dies.py"], timeout=120)
    assert ok.ok and ok.outputs == ["fine\n"]
    assert not dies.ok and dies.error.startswith("exit 7")


def test_run_all_spreads_groups_over_children_and_keeps_the_order(tmp_path):
    """Each child takes every n-th group (long programs that sort together are spread out); a
    program and its rewrite (`together=2`) share a child, in order; results come back in order."""
    targets = []
    for i in range(7):
        path = tmp_path / f"p{i}.py"
        path.write_text(f"import os\nprint({i}, os.getppid(), os.getpid())\n")
        targets.append(path)
    times = [2, 1, 2, 1, 2, 1, 1]  # each program's own count
    runs = sc.run_all(targets, times, batch=3, together=2)  # 3 children: groups (0 1, 6), (2 3), (4 5)
    assert [len(r.outputs) for r in runs] == times
    printed = [r.outputs[0].split() for r in runs]
    assert [int(p[0]) for p in printed] == list(range(7))
    child = [p[2] for p in printed]
    assert child[0] == child[1] and child[2] == child[3] and child[4] == child[5]
    assert len(set(child)) == 3 and child[0] == child[6] and child[0] != child[2] != child[4]


def test_run_all_of_nothing_runs_nothing():
    """`score_corpus --only GLOB` naming no runnable program (red team 41's first try) used to die
    dividing by the empty batch's length."""
    assert sc.run_all([]) == []


def test_the_corpus_pass_runs_only_what_a_rewrite_changed_and_tells_harm_from_noise(tmp_path):
    """A rewritten program that prints the same passes; one whose output varies by itself is named
    as such (its original was run again), not blamed on the rewrite; one no rewrite changes is not
    run (this one would fail)."""
    from corpus_rewrites import rewrite_corpus

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    kept = (ROOT / "benchmarks" / "corpus" / "direct_graph_retention.py").read_text()
    (corpus / "kept.py").write_text(kept)
    (corpus / "varies.py").write_text(kept + "import time\nprint(time.time_ns())\n")
    (corpus / "untouched.py").write_text("# corpus: runnable\nraise SystemExit('not run')\n")
    done = rewrite_corpus(corpus, tmp_path / "out")
    assert done["kept.py"].problem == "" and done["kept.py"].run == ""
    assert "differently" in done["varies.py"].run and done["varies.py"].problem == "varies.py: output changed by the rewrite"
    assert done["untouched.py"] == type(done["kept.py"])("", ())


def test_a_stand_in_module_of_one_program_is_gone_for_the_next_in_its_batch(tmp_path):
    """pub43 stands in for `tqdm` in `sys.modules`; pub46, later in the same batch, needs the real one."""
    first, second = tmp_path / "first.py", tmp_path / "second.py"
    first.write_text("import sys, types\nsys.modules['json'] = types.ModuleType('json')\n"
                     "sys.modules['paef_stand_in'] = types.ModuleType('paef_stand_in')\nprint('stood in')\n")
    second.write_text("import json\ntry:\n    import paef_stand_in\nexcept ImportError:\n    print('absent')\n"
                      "print(json.dumps([1]))\n")
    runs = sc.execute_many([str(first), str(second)])
    assert runs[str(second)] == {"ok": True, "outputs": ["absent\n[1]\n"]}


def test_print_options_anomaly_mode_and_numpy_errors_of_one_program_are_gone_for_the_next(tmp_path):
    """Red team 46 set `torch.set_printoptions(precision=12)` in a module; a later program of the
    batch printed 12 digits as an original and 4 alone as a rewrite: "changed output" that no
    rewrite made."""
    first, second = tmp_path / "first.py", tmp_path / "second.py"
    first.write_text("import numpy as np, torch\ntorch.set_printoptions(precision=12)\nnp.set_printoptions(precision=2)\n"
                     "np.seterr(all='raise')\ntorch.autograd.set_detect_anomaly(True)\nprint('set')\n")
    second.write_text("import numpy as np, torch\nprint(torch.tensor([1 / 3]), np.array([1 / 3]), np.array([1.0]) / 0,\n"
                      "      torch.is_anomaly_enabled())\n")
    alone = sc.execute_many([str(second)])[str(second)]
    assert sc.execute_many([str(first), str(second)])[str(second)] == alone
    assert alone["outputs"] == ["tensor([0.3333]) [0.33333333] [inf] False\n"]
