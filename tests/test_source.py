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
