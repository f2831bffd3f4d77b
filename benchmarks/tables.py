"""Result tables every benchmark script writes, and the machine they were measured on.

A script measures, builds one `Table` and calls `write(table)`: that prints it and saves
`benchmarks/results/<name>.json`, from which `benchmarks/run.py` regenerates BENCHMARKS.md.
Cells are plain strings, numbers or None (shown as "—"); `data` keeps the raw samples.
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).resolve().parent / "results"


@dataclass(frozen=True)
class Table:
    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    notes: tuple[str, ...] = ()
    machine: dict[str, Any] = field(default_factory=dict)
    command: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "Table":
        return cls(
            name=raw["name"],
            title=raw["title"],
            columns=tuple(raw["columns"]),
            rows=tuple(tuple(row) for row in raw["rows"]),
            notes=tuple(raw.get("notes", ())),
            machine=dict(raw.get("machine", {})),
            command=raw.get("command", ""),
            data=dict(raw.get("data", {})),
        )


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine(device: str = "cpu") -> dict[str, Any]:
    """What a reader needs to judge a timing: CPU, cores, threads, torch, GPU, and how busy the box was."""
    import torch

    info: dict[str, Any] = {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "cores_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
        "device": device,
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "load_average": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }
    return info


def describe_machine(info: dict[str, Any], load: bool = True) -> str:
    gpu = info.get("gpu") or "none (GPU not measured)"
    return (
        f"{info.get('cpu')}, {info.get('cores_usable')} usable of {info.get('cores')} cores, "
        f"torch {info.get('torch')} with {info.get('torch_threads')} thread(s), "
        f"Python {info.get('python')}, {info.get('os')}; GPU: {gpu}"
        + (f"; load average {info['load_average']} when it started" if load and info.get("load_average") is not None else "")
    )


def command_line() -> str:
    """The command that produced this run, as one would type it from the repository root."""
    return " ".join(shlex.quote(a) for a in [Path(sys.executable).name, *sys.orig_argv[1:]])


def format_cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        if value >= 100:
            return f"{value:.0f}"
        if value >= 10:
            return f"{value:.1f}"
        return f"{value:.3g}"
    return str(value)


def markdown(table: Table) -> str:
    head = "| " + " | ".join(table.columns) + " |"
    rule = "|" + "|".join("---" for _ in table.columns) + "|"
    body = ["| " + " | ".join(format_cell(c).replace("|", "\\|") for c in row) + " |" for row in table.rows]
    return "\n".join([head, rule, *body])


def plain(table: Table) -> str:
    """The table as aligned text, for the terminal."""
    cells = [list(table.columns)] + [[format_cell(c) for c in row] for row in table.rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(table.columns))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join([table.title, *lines, *table.notes])


def write(table: Table, results_dir: Path = RESULTS_DIR) -> Path:
    results_dir.mkdir(parents=True, exist_ok=True)
    path = results_dir / f"{table.name}.json"
    path.write_text(json.dumps(table.to_json(), indent=1) + "\n")
    print(plain(table))
    print(f"\nmachine: {describe_machine(table.machine)}\nwritten: {path}")
    return path


def read_all(results_dir: Path = RESULTS_DIR) -> list[Table]:
    return [Table.from_json(json.loads(p.read_text())) for p in sorted(results_dir.glob("*.json"))]
