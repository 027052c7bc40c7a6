"""The benchmark suite: ``python -m benchmarks run [--quick] [--out results.json] [--gpu]
[--family core|user-programs]``.

The core family: every workload of issue 9 at its sizes, on every system side by side in
one run (NumPy, dask.array idiomatic and tuned, ours with fusion and halo off and on)
next to the machine's memory-bandwidth floor measured in the same run; then the
stencil's worker scaling. The user-programs family (issue 16): programs as users write
them on NumPy, dask.array and ours on threads and on the embedded default cluster; then
the per-check overhead (``check_overhead``) and the issue's acceptance lines
(``acceptance``). Modules: ``timing`` (repeats, medians, RSS), ``floor`` (copy and triad
bandwidth), ``systems`` (how each system gets its inputs and holds its result),
``workloads/`` (the programs and sizes), ``runner`` (the rows), ``scaling``
(workers), ``report`` (JSON, Markdown, machine), ``plot`` (log-log PNG), ``gpu`` (the
``--gpu`` mode), ``cli`` (the command).
"""
