import textwrap

from paef_jupyter.source import cell_magic_name, mask, syntax_error


def test_plain_python_is_untouched() -> None:
    text = "x = 1\nprint(x % 2)\n"
    masked = mask(text)
    assert masked.text == text and masked.python and masked.originals == ()


def test_magics_and_shell_escapes_are_masked_on_their_own_lines() -> None:
    text = "%%time\nfiles = !ls\n%matplotlib inline\nfor i in range(3):\n    %time f(i)\nlen?\nx = 1\n"
    masked = mask(text)
    lines = masked.text.split("\n")
    assert len(lines) == len(text.split("\n"))
    assert lines[6] == "x = 1"
    assert lines[4].startswith("    __paef_masked_")
    assert lines[1].startswith("files = __paef_masked_")
    assert syntax_error(masked.text) is None
    assert masked.unmask(masked.text) == text


def test_non_python_cell_magic_is_not_analysed() -> None:
    assert not mask("%%bash\nls -la\n").python
    assert cell_magic_name("%%html\n<b>x</b>") == "html"
    assert mask("%%paef --top 3\nx = 1\n").python


def test_syntax_error_reports_line() -> None:
    line, message = syntax_error("x = 1\ny = (\n")  # type: ignore[misc]
    assert message.startswith("SyntaxError") and line == 2


def test_percent_inside_string_does_not_trigger_masking() -> None:
    text = 's = """\n%not a magic\n"""\n'
    assert mask(text).text == text


def test_cell_indented_as_a_whole_is_read_as_ipython_runs_it() -> None:
    """IPython removes a cell's common leading indentation before running it (`leading_indent`):
    ` trigram = [...]` copied in with a stray space runs, so it is analysed (pub15 n10)."""
    text = " pairs = [(w[i], w[i + 1])\n          for i in range(3)]\n"
    masked = mask(text)
    assert syntax_error(masked.text) is None
    assert masked.text.split("\n") == ["pairs = [(w[i], w[i + 1])", "         for i in range(3)]", ""]
    magic = "  %time f(1)\n  for i in range(3):\n      g(i)\n"
    assert syntax_error(mask(magic).text) is None and mask(magic).unmask(mask(magic).text).startswith("%time f(1)")


def test_indentation_errors_ipython_also_rejects_stay_errors() -> None:
    """Only a common indentation goes: a cell whose lines do not share it, or whose blocks are
    wrong once it is gone, does not run in IPython either."""
    for text in (" x = 1\ny = 2\n", "  if x:\n  y = 1\n", "x = 1\n    y = 2\n"):
        assert syntax_error(mask(text).text) is not None, text
    assert mask("x = 1\n").text == "x = 1\n"


def test_indented_cell_gets_its_findings() -> None:
    from paef_jupyter.api import analyze_source

    cell = "  import torch\n  device = 'cuda'\n  for i in range(1, 10):\n      z = torch.zeros(i).to(device)\n"
    assert [f.rule for f in analyze_source(textwrap.dedent(cell)).findings] == ["cpu-then-move"]
    report = analyze_source(cell)
    assert not report.errors and [(f.rule, f.line) for f in report.findings] == [("cpu-then-move", 4)]


def test_automagic_lines_are_masked_where_they_are_not_python() -> None:
    """Colab's `cd drive/My Drive/project` and `pip install x` (line magics without `%`, which
    IPython's automagic runs) are masked; `time = 5`, `ls` and `cd(path)` are Python and stay."""
    text = "import os\ncd drive/My Drive/BERT-pytorch\npip install tqdm\nfor d in dirs:\n    cd {d}\ntime = 5\nls\ncd(time)\n"
    masked = mask(text)
    lines = masked.text.split("\n")
    assert syntax_error(masked.text) is None
    assert [i for i, line in enumerate(lines) if "__paef_masked_" in line] == [1, 2, 4]
    assert lines[4].startswith("    __paef_masked_") and lines[5:8] == ["time = 5", "ls", "cd(time)"]
    assert masked.unmask(masked.text) == text
