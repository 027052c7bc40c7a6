"""The benchmark suite: ``python -m benchmarks run [--quick] [--out results.json] [--gpu]``.

Every workload of issue 9 at its sizes, on every system side by side in one run (NumPy,
dask.array idiomatic and tuned, ours with fusion and halo off and on) next to the
machine's memory-bandwidth floor measured in the same run; then the stencil's worker
scaling. Modules: ``timing`` (repeats, medians, RSS), ``floor`` (copy and triad
bandwidth), ``systems`` (how each system gets its inputs and holds its result),
``workloads/`` (the programs and sizes), ``runner`` (the rows), ``scaling``
(workers), ``report`` (JSON, Markdown, machine), ``plot`` (log-log PNG), ``gpu`` (the
``--gpu`` mode), ``cli`` (the command).
"""
