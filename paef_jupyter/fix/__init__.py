"""The accelerated code generator: edits as node replacements, applied safely."""

from .apply import FixError, apply_edits, apply_findings, unified_diff

__all__ = ["FixError", "apply_edits", "apply_findings", "unified_diff"]
