"""The flame chart layout: every frame a bar, time-placed, lanes apart, linked to findings."""

from __future__ import annotations

from dataclasses import replace

from ui_samples import CELL, frames, profile, sample_report

from paef_jupyter.model import Frame, Profile, Report
from paef_jupyter.ui import flame


def _by_name(layout: flame.FlameLayout) -> dict[str, flame.Bar]:
    return {b.frame.name: b for b in layout.bars}


def test_every_frame_becomes_a_bar_at_its_time_and_depth():
    layout = flame.layout(sample_report())
    bars = _by_name(layout)
    assert set(bars) == {f.name for f in frames().walk()}
    assert bars["<cell>"].row == 0 and bars["cell line 5"].row == 1 and bars["aten::_to_copy"].row == 2
    assert bars["aten::_to_copy"].start_s == 0.2 and bars["aten::_to_copy"].duration_s == 0.5
    assert layout.cpu_rows == 3 and layout.gpu_rows == 0 and layout.hidden == 0


def test_frames_link_to_the_findings_on_their_calling_line_and_pass_it_to_children():
    report = sample_report()
    bars = _by_name(flame.layout(report))
    ping_pong, host_sync = 0, 1
    assert bars["cell line 5"].findings == (ping_pong,)
    assert bars["aten::_to_copy"].findings == (ping_pong,)  # inherited from its calling line
    assert bars["aten::item"].findings == (host_sync,)
    assert bars["<cell>"].findings == ()  # the root holds everything, so it names nothing
    layout = flame.layout(report)
    assert [bar.frame.name for bar in layout.bars if ping_pong in bar.findings] == ["cell line 5", "aten::_to_copy"]


def test_a_frame_of_another_cell_is_not_linked():
    other = replace(CELL, cell=7, cell_id="other")
    leaf = Frame("aten::item", "op", other, 7, 0.0, 0.1, 0.1)
    report = replace(sample_report(), profile=Profile("torch", 1.0, cpu_tree=Frame("<cell>", "root", None, None, 0, 1,
                                                                                    0, (leaf,))))
    assert _by_name(flame.layout(report))["aten::item"].findings == ()


def test_gpu_lane_sits_below_the_cpu_rows_with_a_gap():
    layout = flame.layout(sample_report(gpu=True))
    gpu = [b for b in layout.bars if b.lane == "gpu"]
    assert {b.frame.name for b in gpu} == {"GPU", "Memcpy DtoH", "void gemm_kernel"}
    assert min(b.row for b in gpu) == layout.cpu_rows + 1
    assert _by_name(layout)["Memcpy DtoH"].findings == (0,)  # the copy launched by line 5


def test_untimed_trees_are_packed_left_to_right():
    a = Frame("a", "python", CELL, 2, duration_s=0.3)
    b = Frame("b", "python", CELL, 3, duration_s=0.2)
    report = Report(profile=Profile("scalene", 0.5, cpu_tree=Frame("root", "root", duration_s=0.5, children=(a, b))))
    bars = _by_name(flame.layout(report))
    assert bars["a"].start_s == 0.0 and bars["b"].start_s == 0.3


def test_too_many_frames_keeps_the_longest_and_says_how_many_are_hidden():
    kids = tuple(Frame(f"op{i}", "op", CELL, 4, start_s=i * 0.01, duration_s=0.001 * (i + 1)) for i in range(50))
    report = Report(profile=Profile("torch", 1, cpu_tree=Frame("root", "root", duration_s=1, children=kids)))
    layout = flame.layout(report, max_bars=10)
    assert len(layout.bars) == 10 and layout.hidden == 41
    assert {b.frame.name for b in layout.bars} >= {"op49", "op48", "root"}
    assert "op0" not in {b.frame.name for b in layout.bars}


def test_nothing_to_draw_without_trees():
    assert flame.layout(sample_report(profiled=False)) is None
    assert flame.layout(Report(profile=Profile("torch", 1.0))) is None


def test_selection_lights_only_the_findings_frames():
    layout = flame.layout(sample_report())
    fill, _ = flame.colors(layout, selected=0)
    lit = {b.frame.name for b, c in zip(layout.bars, fill) if c == flame.SELECTED_COLOR}
    assert lit == {"cell line 5", "aten::_to_copy"}
    assert all(c == flame.FADED_COLOR for b, c in zip(layout.bars, fill) if b.frame.name not in lit)
    plain, outline = flame.colors(layout)
    assert flame.SELECTED_COLOR not in plain
    linked = {b.frame.name for b, o in zip(layout.bars, outline) if o == flame.LINKED_OUTLINE}
    assert linked == {"cell line 5", "aten::_to_copy", "cell line 7", "aten::item"}


def test_figure_is_one_clickable_trace_with_escaped_labels():
    report = sample_report()
    hostile = Frame("<b>x</b><script>", "op", CELL, 5, 0.3, 0.1)
    tree = replace(frames(), children=frames().children + (hostile,))
    report = replace(report, profile=replace(profile(), cpu_tree=tree))
    layout = flame.layout(report)
    fig = flame.figure(report, layout)
    (trace,) = fig.data
    assert list(trace.customdata) == list(range(len(layout.bars)))
    assert list(trace.base) == [b.start_s * 1e3 for b in layout.bars]
    i = [b.frame.name for b in layout.bars].index("<b>x</b><script>")
    assert "<script>" not in trace.hovertext[i] and "&lt;script&gt;" in trace.hovertext[i]
    assert "<b>" not in trace.text[i]
    assert "ping-pong" in trace.hovertext[i]  # the findings behind the frame


def test_ipythons_call_into_the_magic_is_not_drawn():
    """`get_ipython().run_cell_magic(...)` is the line `%%paef` becomes, not the user's code:
    its children take its row."""
    line = Frame("x = torch.randn(3)", "python", CELL, 2, 0.0, 0.4)
    magic = Frame("get_ipython().run_cell_magic('paef', '', '...')", "python", CELL, 1, 0.0, 0.5, children=(line,))
    report = Report(profile=Profile("torch", 0.5, cpu_tree=Frame("cell", "root", duration_s=0.5, children=(magic,))))
    names = {b.frame.name: b.row for b in flame.layout(report).bars}
    assert names == {"cell": 0, "x = torch.randn(3)": 1}


def test_the_svg_titles_are_the_charts_hover_texts_and_leave_out_dismissed_findings():
    """The hover texts are made once per report and shared by the live chart and the static
    copy's SVG; a dismissed finding is named in neither the SVG drawn after the chart nor
    after an SVG without it dismissed."""
    import re

    report = sample_report()
    layout = flame.layout(report)
    hover = flame.figure_json(report, layout)["data"][0]["hovertext"]
    assert any("ping-pong" in h for h in hover)
    svg = flame.svg(layout, report.findings)
    titles = dict(re.findall(r'<g data-bar="(\d+)"><title>(.*?)</title>', svg, re.S))
    assert {int(i): t for i, t in titles.items()} == {i: h.replace("<br>", "\n") for i, h in enumerate(hover)
                                                       if str(i) in titles}
    dismissed = flame.svg(layout, report.findings, dismissed={0})
    assert "ping-pong" not in dismissed and "ping-pong" in svg
    assert flame.svg(layout, report.findings) == svg
    assert flame.figure_json(report, layout)["data"][0]["hovertext"] == hover
