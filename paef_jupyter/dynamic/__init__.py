"""The dynamic analyzer: profiles of a cell (torch.profiler in-process, Scalene for files).

collector (run under the profiler) -> trace_events (Chrome-trace events) -> attribution
(cost per cell line) + call_tree (flame chart frames) -> build (the report's `Profile`).
"""
