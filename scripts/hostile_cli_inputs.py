"""Hostile inputs against `paef scan|fix` (issue 11): each must exit 0, 1 or 2 with no traceback,
no raw control character and no temp file left, and lose no data (a changed file is kept in a backup).

Run: PYTHONPATH=$PWD python scripts/hostile_cli_inputs.py
"""
import json
import os
import subprocess
import sys
import tempfile
PY = sys.executable
SLOW = "import torch\ndevice = 'cpu'\nfor step in range(3):\n    buf = torch.zeros(4).to(device)\n    buf += step\n"
def run(args, cwd):
    return subprocess.run([PY, "-m", "paef_jupyter.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=120)
def snapshot(d):
    out = {}
    for root, dirs, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            if os.path.islink(p) or not os.path.isfile(p): continue
            out[os.path.relpath(p, d)] = open(p, "rb").read()
    return out
cases = []
def case(name, setup, args):
    cases.append((name, setup, args))
nb = json.dumps({"cells": [{"cell_type": "code", "id": "a", "metadata": {}, "outputs": [], "execution_count": None, "source": SLOW}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
W = lambda name, data: (lambda d: open(os.path.join(d, name), "wb").write(data.encode() if isinstance(data, str) else data))
case("empty py", W("a.py", ""), ["fix", "a.py"])
case("binary py", W("a.py", b"\x00\xff\xfe" * 100), ["fix", "a.py"])
case("latin1 no cookie", W("a.py", "x = 'caf\xe9'\n".encode("latin-1")), ["fix", "a.py"])
case("bad cookie", W("a.py", "# coding: nosuch\nx=1\n"), ["fix", "a.py"])
case("bom notebook", W("a.ipynb", b"\xef\xbb\xbf" + nb.encode()), ["fix", "a.ipynb"])
case("notebook cells not list", W("a.ipynb", '{"cells": 3, "nbformat": 4, "nbformat_minor": 5, "metadata": {}}'), ["fix", "a.ipynb"])
case("notebook cell source list", W("a.ipynb", nb.replace('"source": "', '"source": ["').replace('buf += step\\n"', 'buf += step\\n"]')), ["fix", "a.ipynb"])
case("notebook nbformat 3", W("a.ipynb", '{"nbformat": 3, "worksheets": []}'), ["fix", "a.ipynb"])
case("json array", W("a.ipynb", "[]"), ["fix", "a.ipynb"])
case("directory named .py", lambda d: os.mkdir(os.path.join(d, "a.py")), ["fix", "a.py"])
case("fifo", lambda d: os.mkfifo(os.path.join(d, "a.py")), ["fix", "a.py"])
case("dev null link", lambda d: os.symlink("/dev/null", os.path.join(d, "a.py")), ["scan", "a.py"])
case("symlink loop", lambda d: (os.symlink("b.py", os.path.join(d, "a.py")), os.symlink("a.py", os.path.join(d, "b.py"))), ["fix", "a.py"])
case("dangling input", lambda d: os.symlink("nowhere.py", os.path.join(d, "a.py")), ["fix", "a.py"])
case("-o into missing dir", W("a.py", SLOW), ["fix", "a.py", "-o", "no/such/dir/out.py"])
case("-o is a directory", lambda d: (W("a.py", SLOW)(d), os.mkdir(os.path.join(d, "out.py"))), ["fix", "a.py", "-o", "out.py"])
case("-o ./a.py", W("a.py", SLOW), ["fix", "a.py", "-o", "./a.py"])
case("-o abs", W("a.py", SLOW), ["fix", "a.py", "-o", "ABS"])
case("-o symlink to input", lambda d: (W("a.py", SLOW)(d), os.symlink("a.py", os.path.join(d, "l.py"))), ["fix", "a.py", "-o", "l.py"])
case("read-only py", lambda d: (W("a.py", SLOW)(d), os.chmod(os.path.join(d, "a.py"), 0o444)), ["fix", "a.py"])
case("-o read-only", lambda d: (W("a.py", SLOW)(d), W("o.py", "keep\n")(d), os.chmod(os.path.join(d, "o.py"), 0o444)), ["fix", "a.py", "-o", "o.py"])
case("hard link", lambda d: (W("a.py", SLOW)(d), os.link(os.path.join(d, "a.py"), os.path.join(d, "h.py"))), ["fix", "a.py"])
case("planted .orig symlink", lambda d: (W("a.py", SLOW)(d), W("v.txt", "precious")(d), os.symlink("v.txt", os.path.join(d, "a.py.orig"))), ["fix", "a.py"])
case("planted .orig dir", lambda d: (W("a.py", SLOW)(d), os.mkdir(os.path.join(d, "a.py.orig"))), ["fix", "a.py"])
case("planted paef-tmp", lambda d: (W("a.py", SLOW)(d), W("v.txt", "precious")(d), os.symlink("v.txt", os.path.join(d, "a.py.paef-tmp"))), ["fix", "a.py"])
case("existing .orig", lambda d: (W("a.py", SLOW)(d), W("a.py.orig", "first")(d)), ["fix", "a.py"])
case("crlf", W("a.py", SLOW.replace("\n", "\r\n")), ["fix", "a.py"])
case("cr only", W("a.py", SLOW.replace("\n", "\r")), ["fix", "a.py"])
case("null byte in source", W("a.py", "x = 1\x00\n"), ["scan", "a.py"])
case("deep chain", W("a.py", "x = " + " + ".join(["1"] * 2500) + "\n"), ["fix", "a.py"])
case("deep parens", W("a.py", "x = " + "(" * 150 + "1" + ")" * 150 + "\n"), ["scan", "a.py"])
case("escape in name", W("\x1b[2Ja.py", SLOW), ["scan", "\x1b[2Ja.py"])
case("bidi in code", W("a.py", "x = 1 # \u202e evil\nimport torch\nfor i in range(3):\n    torch.zeros(2).to('cpu') + '\u202e'\n"), ["scan", "a.py"])
case("good + missing", W("a.py", SLOW), ["scan", "a.py", "missing.py"])
case("unknown rule", W("a.py", SLOW), ["fix", "a.py", "--rule", "nope"])
case("txt file", W("a.txt", SLOW), ["fix", "a.txt"])
fails, lost = 0, 0
for name, setup, args in cases:
    d = tempfile.mkdtemp(prefix="nlsweep-")
    setup(d)
    args = [os.path.join(d, "a.py") if a == "ABS" else a for a in args]
    before = snapshot(d)
    try:
        p = run(args, d)
        rc, err, outp = p.returncode, p.stderr, p.stdout
    except subprocess.TimeoutExpired:
        rc, err, outp = "timeout", "", ""
    after = snapshot(d)
    # data lost: a file whose bytes changed without the original kept in some backup
    backups = {v for k, v in after.items() if ".orig" in k}
    gone = [k for k, v in before.items() if after.get(k) != v and v not in backups]
    bad = rc not in (0, 1, 2) or "Traceback" in err or "\x1b" in err + outp or any("paef-tmp" in k for k in after)
    fails += bad; lost += bool(gone)
    print(f"{'FAIL' if bad else 'ok  '} {'LOST ' + str(gone) if gone else ''} {name}: rc={rc} {err.strip().splitlines()[-1][:110] if err.strip() else ''}")
print(f"{len(cases)} inputs, {fails} failures, {lost} with data lost")
