"""`paef fix` never loses a user's file: real files, real links, real permissions (issue 11, items 1-4, 10, 11)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from paef_jupyter import api, cli

SLOW = "import torch\ndevice = 'cpu'\nfor step in range(3):\n    buf = torch.zeros(4).to(device)\n    buf += step\n"
MORE = "for j in range(2):\n    o = torch.ones(2).to(device)\n    o += j\n"
FIXED_LINE = "torch.zeros(4, device=device)"


def paef(*args: str, wrap: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    return subprocess.run([*wrap, sys.executable, "-m", "paef_jupyter.cli", *args], capture_output=True, text=True, timeout=120, env=env)


def one_line_error(proc: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1, proc.stderr
    for needle in needles:
        assert needle in proc.stderr, proc.stderr


def make_notebook(path: Path, *sources: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"c{i}"
    nbformat.write(nb, path)


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if "paef-tmp" in p.name)


# --- 1. a second fix never overwrites the backup, nor the first original source -------------


def test_second_fix_keeps_first_backup_and_first_original_source(tmp_path: Path) -> None:
    nb_path = tmp_path / "nb.ipynb"
    make_notebook(nb_path, SLOW)
    pristine = nb_path.read_bytes()
    assert paef("fix", str(nb_path)).returncode == 0
    # the user adds another fixable line to the fixed cell and fixes again
    nb = nbformat.read(nb_path, as_version=4)
    nb.cells[0].source += MORE
    nbformat.write(nb, nb_path)
    once_edited = nb_path.read_bytes()
    proc = paef("fix", str(nb_path))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "nb.ipynb.orig").read_bytes() == pristine
    assert (tmp_path / "nb.ipynb.orig.1").read_bytes() == once_edited
    cell = nbformat.read(nb_path, as_version=4).cells[0]
    assert cell.metadata["paef"]["original_source"] == SLOW
    assert "torch.ones(2, device=device)" in cell.source
    assert leftovers(tmp_path) == []


def test_py_backups_are_numbered(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(SLOW)
    assert paef("fix", str(path)).returncode == 0
    path.write_text(path.read_text() + MORE)
    once_edited = path.read_text()
    assert paef("fix", str(path)).returncode == 0
    assert (tmp_path / "t.py.orig").read_text() == SLOW
    assert (tmp_path / "t.py.orig.1").read_text() == once_edited


# --- 2. the file changes while fix runs: refuse, write nothing -------------------------------


@pytest.mark.parametrize("change", ["insert-cell", "edit-cell", "delete-cell"])
def test_file_changed_while_fixing_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, change: str) -> None:
    nb_path = tmp_path / "nb.ipynb"
    make_notebook(nb_path, "x = 1\n", SLOW)
    real_rewrite = api.rewrite

    def rewrite_while_autosave(units, **options):
        nb = nbformat.read(nb_path, as_version=4)
        if change == "insert-cell":
            nb.cells.insert(1, nbformat.v4.new_code_cell("inserted = True\n"))
        elif change == "edit-cell":
            nb.cells[1].source = SLOW + "users_edit = 1\n"
        else:
            del nb.cells[1]
        nbformat.write(nb, nb_path)
        return real_rewrite(units, **options)

    monkeypatch.setattr(api, "rewrite", rewrite_while_autosave)
    code = cli.main(["fix", str(nb_path)])
    changed = nb_path.read_bytes()
    err = capsys.readouterr().err
    assert code == 2 and "changed since it was read" in err and "Traceback" not in err
    assert nb_path.read_bytes() == changed  # the user's version stands
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nb.ipynb"]  # no backup, no temp file


def test_change_between_backup_and_rename_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The last check runs after the temp file is on disk, just before the rename."""
    from paef_jupyter import units

    path = tmp_path / "t.py"
    path.write_text(SLOW)
    real_backup = units.create_backup

    def backup_then_user_types(p: str, data: bytes) -> str:
        name = real_backup(p, data)
        path.write_text(SLOW + "# user typed this\n")
        return name

    monkeypatch.setattr(units, "create_backup", backup_then_user_types)
    assert cli.main(["fix", str(path)]) == 2
    assert "changed since it was read" in capsys.readouterr().err
    assert path.read_text() == SLOW + "# user typed this\n"
    assert leftovers(tmp_path) == []


# --- 3. -o naming the input under another spelling is an in-place fix, with its backup ---------


@pytest.mark.parametrize("spelling", ["dot-slash", "absolute", "symlink", "hardlink"])
def test_output_naming_the_input_keeps_a_backup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str) -> None:
    path = tmp_path / "x.py"
    path.write_text(SLOW)
    monkeypatch.chdir(tmp_path)
    if spelling == "dot-slash":
        out = "./x.py"
    elif spelling == "absolute":
        out = str(path.resolve())
    elif spelling == "symlink":
        (tmp_path / "link.py").symlink_to(path)
        out = "link.py"
    else:
        os.link(path, tmp_path / "hard.py")
        out = "hard.py"
    proc = subprocess.run(
        [sys.executable, "-m", "paef_jupyter.cli", "fix", "x.py", "-o", out],
        capture_output=True, text=True, timeout=120,
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1])),
    )
    if spelling == "hardlink":  # replacing would split the link: refused, nothing touched
        one_line_error(proc, "hard links")
        assert path.read_text() == SLOW and not (tmp_path / "x.py.orig").exists()
        return
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "x.py.orig").read_text() == SLOW
    assert FIXED_LINE in path.read_text()
    if spelling == "symlink":
        assert (tmp_path / "link.py").is_symlink()


# --- 4. predictable names are never followed; temp files never stay ----------------------------


def test_symlink_planted_at_backup_and_temp_names_is_not_followed(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    path = tmp_path / "nb.py"
    path.write_text(SLOW)
    (tmp_path / "nb.py.orig").symlink_to(victim)
    (tmp_path / "nb.py.paef-tmp").symlink_to(victim)
    proc = paef("fix", str(path))
    assert proc.returncode == 0, proc.stderr
    assert victim.read_text() == "precious\n"
    assert not path.is_symlink() and FIXED_LINE in path.read_text()
    assert (tmp_path / "nb.py.orig.1").read_text() == SLOW  # the next free backup name
    assert (tmp_path / "nb.py.orig").is_symlink()


def test_html_report_writer_does_not_follow_a_planted_temp_name(tmp_path: Path) -> None:
    from paef_jupyter.model import Report
    from paef_jupyter.ui.html_report import write_report

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "r.html"
    (tmp_path / "r.html.paef-tmp").symlink_to(victim)
    write_report(Report(title="t"), str(out))
    assert victim.read_text() == "precious\n" and not out.is_symlink() and "<html" in out.read_text().lower()


def test_temp_file_removed_when_the_write_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from paef_jupyter import safe_write

    target = tmp_path / "t.py"
    target.write_text("old\n")

    def boom(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safe_write.os, "fsync", boom)
    with pytest.raises(safe_write.WriteError, match="No space left"):
        safe_write.replace_file(str(target), b"new\n")
    assert target.read_text() == "old\n" and leftovers(tmp_path) == []
    monkeypatch.undo()

    def interrupt():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        safe_write.replace_file(str(target), b"new\n", before_replace=interrupt)
    assert target.read_text() == "old\n" and leftovers(tmp_path) == []


@pytest.mark.parametrize("mode", [0o755, 0o640])
def test_fix_keeps_the_file_mode(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "run.py"
    path.write_text(SLOW)
    path.chmod(mode)
    assert paef("fix", str(path)).returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == mode and FIXED_LINE in path.read_text()


def test_read_only_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ro.py"
    path.write_text(SLOW)
    path.chmod(0o444)
    one_line_error(paef("fix", str(path)), "read-only")
    assert path.read_text() == SLOW and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ro.py"]


def test_read_only_directory_is_one_line_exit_2(tmp_path: Path) -> None:
    wrap: tuple[str, ...] = ()
    if os.geteuid() == 0:  # root ignores permission bits: drop that power for the child
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv")
        wrap = ("setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search")
    d = tmp_path / "ro"
    d.mkdir()
    path = d / "t.py"
    path.write_text(SLOW)
    d.chmod(0o555)
    try:
        proc = paef("fix", str(path), wrap=wrap)
    finally:
        d.chmod(0o755)
    one_line_error(proc, str(path))
    assert path.read_text() == SLOW and sorted(p.name for p in d.iterdir()) == ["t.py"]


def test_symlinked_target_is_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real.py"
    real.write_text(SLOW)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    assert paef("fix", str(link)).returncode == 0
    assert link.is_symlink() and FIXED_LINE in real.read_text()
    assert (tmp_path / "link.py.orig").read_text() == SLOW


def test_hard_linked_target_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text(SLOW)
    os.link(path, tmp_path / "b.py")
    one_line_error(paef("fix", str(path)), "hard links")
    assert (tmp_path / "b.py").read_text() == SLOW and path.read_text() == SLOW


def test_crlf_and_encoding_are_kept(tmp_path: Path) -> None:
    py = tmp_path / "w.py"
    py.write_bytes(b"\xef\xbb\xbf" + SLOW.replace("\n", "\r\n").encode())
    assert paef("fix", str(py)).returncode == 0
    data = py.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and FIXED_LINE.encode() in data
    assert data.count(b"\r\n") == data.count(b"\n") == SLOW.count("\n")
    nb = tmp_path / "w.ipynb"
    make_notebook(nb, SLOW)
    nb.write_bytes(nb.read_bytes().replace(b"\n", b"\r\n"))
    assert paef("fix", str(nb)).returncode == 0
    data = nb.read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n") and FIXED_LINE in nbformat.reads(data.decode(), as_version=4).cells[0].source


def test_latin1_coding_cookie_is_read_and_written_as_python_does(tmp_path: Path) -> None:
    py = tmp_path / "l.py"
    text = "# -*- coding: latin-1 -*-\n# café\n" + SLOW
    py.write_bytes(text.encode("latin-1"))
    assert paef("fix", str(py)).returncode == 0
    assert py.read_bytes().decode("latin-1").startswith("# -*- coding: latin-1 -*-\n# café\n")
    compile(py.read_bytes(), str(py), "exec")


# --- 10. input hygiene ---------------------------------------------------------------------


def test_scan_reports_readable_files_beside_missing_ones(tmp_path: Path) -> None:
    good = tmp_path / "good.py"
    good.write_text(SLOW)
    missing = tmp_path / "missing.py"
    proc = paef("scan", str(good), str(missing), "--format", "json")
    assert proc.returncode == 2
    import json

    data = json.loads(proc.stdout)
    assert any(f["path"] == str(good) for f in data["findings"])
    assert [e["path"] for e in data["errors"]] == [str(missing)] and "no such file" in data["errors"][0]["message"]


def test_fifo_and_devices_are_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "p.py"
    os.mkfifo(fifo)
    one_line_error(paef("scan", str(fifo)), "not a regular file")  # would block forever if opened
    link = tmp_path / "zero.py"
    link.symlink_to("/dev/zero")
    one_line_error(paef("scan", str(link)), "not a regular file")


def test_size_cap_gives_a_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from paef_jupyter import units

    path = tmp_path / "big.py"
    path.write_text("x = 1\n" * 100)
    monkeypatch.setattr(units, "MAX_BYTES", 64)
    with pytest.raises(units.InputError, match="too large"):
        units.read_units(str(path))


# --- 11. terminal output is inert ------------------------------------------------------------


def test_terminal_output_escapes_control_and_bidi_characters(tmp_path: Path) -> None:
    path = tmp_path / "evil.py"
    path.write_text("import torch\nx = (\n'\x1b]0;pwned\x07\x1b[2J'\n")  # a SyntaxError whose message holds the text
    bad = tmp_path / "\x1b[2Jbad\u202e.py"
    proc = paef("scan", str(path), str(bad))
    shown = proc.stdout + proc.stderr
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "\\u202e" in shown


def test_deep_expressions_are_an_error_entry_and_other_files_still_reported(tmp_path: Path) -> None:
    """Item 8: CPython runs a 340-term `+` chain; analysis reports it instead of crashing."""
    chain = tmp_path / "chain.py"
    chain.write_text("import torch\nx = " + " + ".join(["torch.ones(1)"] * 340) + "\n")
    calls = tmp_path / "calls.py"
    calls.write_text("import torch\ny = torch.ones(1)" + ".abs()" * 250 + "\n")
    good = tmp_path / "good.py"
    good.write_text(SLOW)
    proc = paef("scan", str(chain), str(calls), str(good), "--format", "json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    import json

    data = json.loads(proc.stdout)
    assert sorted(e["path"] for e in data["errors"]) == sorted([str(chain), str(calls)])
    assert all("RecursionError" in e["message"] for e in data["errors"])
    assert [f["path"] for f in data["findings"]] == [str(good)]


@pytest.mark.parametrize(
    "msg",
    [None, [], "x", {"content": None}, {"content": {"data": "ready"}}, {"content": {"data": []}},
     {"content": {"data": {"type": "ready", "version": True}}},
     {"content": {"data": {"type": "ready", "version": 1.0}}},
     {"content": {"data": {"type": "result", "status": ["applied"], "request_id": "r"}}},
     {"content": {"data": {"type": "result", "status": "applied", "request_id": {"a": 1}}}},
     {"content": {"data": {"type": ["ready"], "version": 1}}}],
)
def test_comm_handler_validates_message_types(msg) -> None:
    """Item 11: what the front end sends is checked as the TypeScript side checks it; nothing raises."""
    from paef_jupyter.ui.bridge import CellEditBridge

    handlers = {}

    class Comm:
        def send(self, data):
            pass

        def on_msg(self, cb):
            handlers["msg"] = cb

        def on_close(self, cb):
            pass

    bridge = CellEditBridge(open_comm=lambda target, data: Comm(), schedule=lambda delay, cb: (lambda: None))
    handlers["msg"](msg)
    assert bridge.state == "connecting"  # not a valid `ready`
    handlers["msg"]({"content": {"data": {"type": "ready", "version": 1}}})
    assert bridge.state == "ready"
