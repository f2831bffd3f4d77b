"""Does a profile read the events recorded before the first line's range? Each program is profiled once
(`paef profile`'s path, `api.profile_path`); every trace read is built twice, from the events the reader
keeps (`collector.from_first_line`) and from all of them, and the two profiles are compared.

    PYTHONPATH=. .venv/bin/python benchmarks/perf68/first_line_check.py PROGRAM.py|.ipynb ...
"""
import dataclasses, os, sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from paef_jupyter import api
from paef_jupyter.dynamic import build, collector, run_units

full = {}
cut_of = collector.from_first_line
def recording(found):
    kept = cut_of(found)
    full[id(kept)] = (list(found), len(found) - len(kept))
    return kept
collector.from_first_line = recording
real_from = collector.from_activities
traces = {}
def reading(acts, main_tid=None):
    trace = real_from(acts, main_tid)
    if id(acts) in full:
        found, dropped = full.pop(id(acts))
        traces[id(trace)] = (real_from(found, main_tid), dropped)
    return trace
collector.from_activities = reading
checked = []
real_build = build.build_profile
def building(run, **kw):
    profile = real_build(run, **kw)
    if run.trace is not None and id(run.trace) in traces:
        whole, dropped = traces.pop(id(run.trace))
        other = real_build(dataclasses.replace(run, trace=whole), **kw)
        checked.append((dropped, len(run.trace.events), profile == other, profile, other))
    return profile
build.build_profile = building
run_units.build_profile = building

bad = 0
for path in sys.argv[1:]:
    checked.clear()
    cwd = os.getcwd(); path = os.path.abspath(path); os.chdir(os.path.dirname(path))
    try:
        api.profile_path(os.path.basename(path))
    except Exception as exc:  # noqa: BLE001
        print(path, "failed:", type(exc).__name__, exc)
    finally:
        os.chdir(cwd)
    for dropped, kept, same, a, b in checked:
        print(f"{os.path.basename(path)}: {dropped} events before the first line left out of {dropped + kept}; "
              f"profiles {'identical' if same else 'DIFFER'}")
        if not same:
            bad += 1
            for f in dataclasses.fields(a):
                if getattr(a, f.name) != getattr(b, f.name):
                    print("   differs:", f.name)
sys.exit(1 if bad else 0)
